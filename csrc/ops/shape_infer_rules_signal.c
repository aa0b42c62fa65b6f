/* Shape rules for the signal op group (spectral ops of tf.signal, the FFT
 * family, and the image colour ops of tf.image): what TF 2.21's shape
 * functions tell. */
#include "ops/shape_infer_internal.h"

/* Output 0 = input 0, which must have rank >= n. */
static int sig_unchanged_min(si_ctx* c, int n) {
  si_sh in;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, n, &in)) return 0;
  return si_set(c, 0, &in);
}

static int rule_rank1(si_ctx* c) { return sig_unchanged_min(c, 1); }
static int rule_rank2(si_ctx* c) { return sig_unchanged_min(c, 2); }
static int rule_rank3(si_ctx* c) { return sig_unchanged_min(c, 3); }

/* RFFT, IRFFT and their 2-D/3-D forms (input, fft_length): the last r dims become fft_length (the
 * last one fft_length/2+1 for the forward transform), unknown when
 * fft_length is not constant. */
static int sig_real(si_ctx* c, int r, int forward) {
  si_sh in, fl;
  int64_t len[3];
  int i, known;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, r, &in)) return 0;
  si_in(c, 1, &fl);
  if (!si_with_rank(c, &fl, 1, &fl)) return 0;
  if (!si_with_value(c, fl.d[0], r, NULL)) return 0;
  if (in.rank < 0) return 1;
  known = si_value_ints(c, 1, len, 3) == r;
  for (i = 0; i < r; i++) {
    int64_t d = -1;
    if (known) {
      d = len[i];
      if (forward && i == r - 1) d = d / 2 + 1;
    }
    in.d[in.rank - r + i] = d;
  }
  return si_set(c, 0, &in);
}

static int rule_rfft(si_ctx* c) { return sig_real(c, 1, 1); }
static int rule_irfft(si_ctx* c) { return sig_real(c, 1, 0); }
static int rule_rfft2d(si_ctx* c) { return sig_real(c, 2, 1); }
static int rule_irfft2d(si_ctx* c) { return sig_real(c, 2, 0); }
static int rule_rfft3d(si_ctx* c) { return sig_real(c, 3, 1); }
static int rule_irfft3d(si_ctx* c) { return sig_real(c, 3, 0); }

/* RGBToHSV, HSVToRGB: rank >= 1 with 3 channels. */
static int rule_colorspace(si_ctx* c) {
  si_sh in;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 1, &in)) return 0;
  if (in.rank > 0 &&
      !si_with_value(c, in.d[in.rank - 1], 3, &in.d[in.rank - 1])) {
    return 0;
  }
  return si_set(c, 0, &in);
}


/* ExtractImagePatches: [batch, out_rows, out_cols, kr * kc * depth]. */
static int64_t sig_win(int64_t in, int64_t k, int64_t rate, int64_t stride,
                       int same) {
  int64_t eff = (k - 1) * rate + 1;
  if (in < 0 || stride <= 0) return -1;
  if (same) return (in + stride - 1) / stride;
  return in >= eff ? (in - eff + stride) / stride : -1;
}

static int rule_extract_patches(si_ctx* c) {
  si_sh in, o;
  int nk, ns, nr;
  const int64_t* ks = si_attr_ints(c, "ksizes", &nk);
  const int64_t* st = si_attr_ints(c, "strides", &ns);
  const int64_t* rt = si_attr_ints(c, "rates", &nr);
  const char* pad = si_attr_str(c, "padding", "VALID");
  int same = pad != NULL && pad[0] == 'S';
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  if (nk != 4 || ns != 4 || nr != 4) return 1;
  if (ks[0] != 1 || ks[3] != 1 || st[0] != 1 || st[3] != 1 || rt[0] != 1 ||
      rt[3] != 1) {
    return si_err(c, "ExtractImagePatches only supports patches, strides and "
                     "rates across space");
  }
  if (ks[1] <= 0 || ks[2] <= 0 || ks[1] > INT32_MAX || ks[2] > INT32_MAX ||
      rt[1] <= 0 || rt[2] <= 0 || rt[1] > INT32_MAX || rt[2] > INT32_MAX) {
    return 1;
  }
  o.rank = 4;
  o.d[0] = in.d[0];
  o.d[1] = in.rank == 4 ? sig_win(in.d[1], ks[1], rt[1], st[1], same) : -1;
  o.d[2] = in.rank == 4 ? sig_win(in.d[2], ks[2], rt[2], st[2], same) : -1;
  o.d[3] = (in.rank == 4 && in.d[3] >= 0) ? ks[1] * ks[2] * in.d[3] : -1;
  return si_set(c, 0, &o);
}

/* ScaleAndTranslate, ExtractGlimpseV2: [batch, size[0], size[1],
 * channels]. */
static int rule_scale_translate(si_ctx* c) {
  si_sh in, sz, o;
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  si_in(c, 1, &sz);
  if (!si_with_rank(c, &sz, 1, &sz)) return 0;
  if (!si_with_value(c, sz.d[0], 2, NULL)) return 0;
  if (!si_shape_from_tensor(c, 1, &sz)) return 0;
  o.rank = 4;
  o.d[0] = in.d[0];
  o.d[1] = sz.rank == 2 ? sz.d[0] : -1;
  o.d[2] = sz.rank == 2 ? sz.d[1] : -1;
  o.d[3] = in.d[3];
  return si_set(c, 0, &o);
}

/* CombinedNonMaxSuppression: [batch, n, 4], [batch, n], [batch, n], [batch]
 * with n = max_total_size (or min(max_total_size, per_class * classes)
 * with pad_per_class) when known. */
static int rule_combined_nms(si_ctx* c) {
  si_sh boxes, scores, o;
  int64_t mts = -1, per = -1, n = -1;
  si_in(c, 0, &boxes);
  if (!si_with_rank(c, &boxes, 4, &boxes)) return 0;
  si_in(c, 1, &scores);
  if (!si_with_rank(c, &scores, 3, &scores)) return 0;
  if (!si_dim_from_scalar(c, 3, &mts)) return 0;
  if (!si_dim_from_scalar(c, 2, &per)) return 0;
  if (!si_attr_bool(c, "pad_per_class", 0)) {
    n = mts;
  } else if (mts >= 0 && per >= 0 && scores.rank == 3 && scores.d[2] >= 0) {
    n = per * scores.d[2] < mts ? per * scores.d[2] : mts;
  }
  o.rank = 3;
  o.d[0] = boxes.rank == 4 ? boxes.d[0] : -1;
  o.d[1] = n;
  o.d[2] = 4;
  if (!si_set(c, 0, &o)) return 0;
  o.rank = 2;
  if (!si_set(c, 1, &o)) return 0;
  if (!si_set(c, 2, &o)) return 0;
  return si_set_vector(c, 3, o.d[0]);
}

static int rule_vector_unknown(si_ctx* c) { return si_set_vector(c, 0, -1); }

/* (Stateless)SampleDistortedBoundingBox: begin [3], size [3],
 * bboxes [1, 1, 4]. */
static int rule_sample_box(si_ctx* c) {
  si_sh o;
  if (!si_set_vector(c, 0, 3)) return 0;
  if (!si_set_vector(c, 1, 3)) return 0;
  o.rank = 3;
  o.d[0] = 1;
  o.d[1] = 1;
  o.d[2] = 4;
  return si_set(c, 2, &o);
}

const si_rule si_rules_signal[] = {
    {"FFT", rule_rank1},
    {"IFFT", rule_rank1},
    {"FFT2D", rule_rank2},
    {"IFFT2D", rule_rank2},
    {"FFT3D", rule_rank3},
    {"IFFT3D", rule_rank3},
    {"RFFT", rule_rfft},
    {"IRFFT", rule_irfft},
    {"RFFT2D", rule_rfft2d},
    {"IRFFT2D", rule_irfft2d},
    {"RFFT3D", rule_rfft3d},
    {"IRFFT3D", rule_irfft3d},
    {"FFTND", rule_rank1},
    {"IFFTND", rule_rank1},
    {"RFFTND", rule_rank1},
    {"IRFFTND", rule_rank1},
    {"RGBToHSV", rule_colorspace},
    {"HSVToRGB", rule_colorspace},
    {"AdjustContrastv2", rule_rank3},
    {"AdjustHue", rule_rank3},
    {"AdjustSaturation", rule_rank3},
    {"ExtractImagePatches", rule_extract_patches},
    {"NonMaxSuppressionWithOverlaps", rule_vector_unknown},
    {"CombinedNonMaxSuppression", rule_combined_nms},
    {"DrawBoundingBoxes", rule_rank3},
    {"DrawBoundingBoxesV2", rule_rank3},
    {"ScaleAndTranslate", rule_scale_translate},
    {"ExtractGlimpseV2", rule_scale_translate},
    {"SampleDistortedBoundingBoxV2", rule_sample_box},
    {"StatelessSampleDistortedBoundingBox", rule_sample_box},
    {NULL, NULL},
};
