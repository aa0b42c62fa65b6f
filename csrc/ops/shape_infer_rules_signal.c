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
    {NULL, NULL},
};
