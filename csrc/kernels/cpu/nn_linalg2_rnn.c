/* CPU kernels of TF's fused recurrent cells (issue 18, session 8):
 * LSTMBlockCell, LSTMBlockCellGrad, BlockLSTM, BlockLSTMV2, BlockLSTMGrad,
 * BlockLSTMGradV2 (float, half) and GRUBlockCell, GRUBlockCellGrad (float).
 *
 * Gate layout: the 4*cell columns of an LSTM's weight matrix hold the input
 * gate, the cell input, the forget gate and the output gate in that order
 * ("icfo": LSTMBlockCell, BlockLSTM) or input, forget, cell input, output
 * ("ifco": the V2 ops, which also have no forget_bias). half tensors are
 * computed in float and rounded at the end. Shape errors use TF's
 * messages; where TF reads past a tensor that is too small (peephole
 * weights in the cell ops, the saved activations of the gradients), these
 * kernels refuse with their own INVALID_ARGUMENT message instead. */
#if defined(__GNUC__) && !defined(__clang__)
/* The cell loops rely on the loop vectorizer at full strength (GCC's -O2
 * only vectorizes very cheap loops), whatever the build type. */
#pragma GCC optimize("O3")
#endif

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_linalg2_common.h"

/* ---- helpers ---- */

/* The tensor as float (a view when it is float, else a converted copy
 * that the caller frees when it differs from the tensor's data). */
static float* fview(const TF_Tensor* t) {
  int64_t n = kutil_num_elements(t), i;
  float* f;
  if (t->dtype == TF_FLOAT) return (float*)kutil_data(t);
  f = (float*)tfe_malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
  if (f == NULL) return NULL;
  for (i = 0; i < n; i++) f[i] = (float)nnl2_load(t->dtype, kutil_data(t), i);
  return f;
}

static void ffree(const TF_Tensor* t, float* f) {
  if (f != NULL && (t == NULL || f != (float*)kutil_data(t))) tfe_free(f);
}

/* Writes n floats into a float or half output. */
static void fstore(TF_Tensor* t, int64_t off, const float* src, int64_t n) {
  int64_t i;
  if (t->dtype == TF_FLOAT) {
    memcpy((float*)kutil_data(t) + off, src, (size_t)n * sizeof(float));
    return;
  }
  for (i = 0; i < n; i++) nnl2_store(t->dtype, kutil_data(t), off + i, src[i]);
}

/* The kernel being run, for the GEMM's thread pool (set by each compute
 * function before any gemm call; kernels of one op may run concurrently,
 * hence thread-local). */
static _Thread_local tfe_kernel_context* g_kctx;

/* C[M,N] = op(A) op(B); 0 on OOM. */
static int gemm(int ta, int tb, int64_t m, int64_t n, int64_t k,
                const float* a, int64_t lda, const float* b, int64_t ldb,
                float* c, int64_t ldc) {
  return nnl2_gemm(g_kctx, ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
}

/* ---- vectorizable activations ----
 * The cell loops below must run as SIMD code: libm's expf/tanhf calls made
 * them several times slower than the gate matmul. exp is computed as
 * 2^n * e^r with n = round(x / ln 2) and |r| <= ln2 / 2, e^r from its
 * Taylor series to r^7 (the first dropped term is below 6e-9 relative),
 * 2^n put together in the exponent bits. The argument is clamped to
 * [-87, 88] so that 2^n stays a normal float; a NaN passes through the
 * clamps (comparisons with NaN are false) and comes out as NaN. */
/* The row loops are inlined into their ISA-cloned callers, which is what
 * compiles them for the wider vector units. */
#if defined(__GNUC__)
#define NL_INLINE static inline __attribute__((always_inline))
#else
#define NL_INLINE static inline
#endif

NL_INLINE float nl_expf(float x) {
  const float shifter = 12582912.0f; /* 1.5 * 2^23: adding it rounds */
  const float ln2_hi = 0.693359375f;  /* 9 significant bits: n*ln2_hi is exact */
  const float ln2_lo = -2.12194440e-4f;
  float t, n, r, p, scale;
  uint32_t bits;
  x = x > 88.0f ? 88.0f : x;
  x = x < -87.0f ? -87.0f : x;
  t = x * 1.44269504088896341f + shifter;
  n = t - shifter;
  memcpy(&bits, &t, sizeof bits);
  bits = (bits - 0x4B400000u + 127u) << 23; /* the biased exponent of 2^n */
  memcpy(&scale, &bits, sizeof scale);
  r = x - n * ln2_hi;
  r = r - n * ln2_lo;
  p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r * r + r + 1.0f;
  return p * scale;
}

NL_INLINE float sigm(float x) { return 1.0f / (1.0f + nl_expf(-x)); }

/* tanh: an odd Taylor polynomial near 0 (through x^11; below 2e-10
 * relative for |x| < 0.25), else 1 - 2 / (e^{2|x|} + 1) with the sign put
 * back. Both are computed and one is selected, so the loop has no branch. */
NL_INLINE float nl_tanhf(float x) {
  float ax = x < 0 ? -x : x, x2 = x * x, p, big;
  p = -1382.0f / 155925.0f;
  p = p * x2 + 62.0f / 2835.0f;
  p = p * x2 - 17.0f / 315.0f;
  p = p * x2 + 2.0f / 15.0f;
  p = p * x2 - 1.0f / 3.0f;
  p = x + x * x2 * p;
  big = 1.0f - 2.0f / (nl_expf(2.0f * ax) + 1.0f);
  big = x < 0 ? -big : big;
  return ax < 0.25f ? p : big;
}

static int oom(tfe_kernel_context* k, const char* op) {
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM when computing %s", op);
  return 0;
}

static int want_rank(tfe_kernel_context* k, const TF_Tensor* t, int r,
                     const char* name) {
  if (t->num_dims == r) return 1;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be rank %d but is rank %d.",
             name, r, t->num_dims);
  return 0;
}

static int want_dim(tfe_kernel_context* k, const TF_Tensor* t, int d,
                    int64_t v, const char* what) {
  if (t->dims[d] == v) return 1;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: %lld vs. %lld", what,
             (long long)t->dims[d], (long long)v);
  return 0;
}

/* Column offsets of the cell-input and forget gates. */
static void gate_offsets(int ifco, int64_t c, int64_t* oc, int64_t* of) {
  *oc = ifco ? 2 * c : c;
  *of = ifco ? c : 2 * c;
}

/* One LSTM step for a batch: gates (scratch, [B,4C]) = [x, h] w + b, then
 * the cell equations. Outputs [B,C] each. */
typedef struct lstm_step {
  int64_t b, in, c;
  int ifco, peep;
  float forget_bias, clip;
  const float *w, *bias, *wci, *wcf, *wco;
} lstm_step;

/* The cell equations for one batch row (gate pre-activations already hold
 * the matmul and the bias). `peep` is a constant at each call site, so
 * each variant is a straight SIMD loop; clip is +inf when off. */
NL_INLINE void lstm_row(int64_t C, int peep, float fb, float clip,
                            const float* restrict gi, const float* restrict gc,
                            const float* restrict gf, const float* restrict go,
                            const float* restrict wci,
                            const float* restrict wcf,
                            const float* restrict wco,
                            const float* restrict csp, float* restrict i,
                            float* restrict cs, float* restrict f,
                            float* restrict o, float* restrict ci,
                            float* restrict co, float* restrict h) {
  int64_t j;
  for (j = 0; j < C; j++) {
    float a = gi[j], b = gf[j] + fb, c = gc[j], d = go[j], iv, fv, civ, v, cov;
    if (peep) {
      a += csp[j] * wci[j];
      b += csp[j] * wcf[j];
    }
    iv = sigm(a);
    civ = nl_tanhf(c);
    fv = sigm(b);
    v = iv * civ + fv * csp[j];
    v = v > clip ? clip : v;
    v = v < -clip ? -clip : v;
    cov = nl_tanhf(v);
    if (peep) d += v * wco[j];
    i[j] = iv;
    ci[j] = civ;
    f[j] = fv;
    cs[j] = v;
    co[j] = cov;
    o[j] = sigm(d);
    h[j] = o[j] * cov;
  }
}

KUTIL_CLONES static void lstm_rows(const lstm_step* s, const float* xw,
                                   const float* cs_prev, float* gates,
                                   float* i, float* cs, float* f, float* o,
                                   float* ci, float* co, float* h) {
  int64_t r, j, C = s->c, oc, of;
  float clip = s->clip > 0 ? s->clip : INFINITY;
  gate_offsets(s->ifco, C, &oc, &of);
  for (r = 0; r < s->b; r++) {
    float* restrict g = gates + r * 4 * C;
    const float* restrict bias = s->bias;
    int64_t e = r * C;
    if (xw != NULL) {
      const float* restrict xr = xw + r * 4 * C;
      for (j = 0; j < 4 * C; j++) g[j] += xr[j] + bias[j];
    } else {
      for (j = 0; j < 4 * C; j++) g[j] += bias[j];
    }
    if (s->peep) {
      lstm_row(C, 1, s->forget_bias, clip, g, g + oc, g + of, g + 3 * C,
               s->wci, s->wcf, s->wco, cs_prev + e, i + e, cs + e, f + e,
               o + e, ci + e, co + e, h + e);
    } else {
      lstm_row(C, 0, s->forget_bias, clip, g, g + oc, g + of, g + 3 * C,
               s->wci, s->wcf, s->wco, cs_prev + e, i + e, cs + e, f + e,
               o + e, ci + e, co + e, h + e);
    }
  }
}

/* xw, when given, holds x w[:NI] for this step ([B,4C]): only h_prev is
 * multiplied here. Else xh ([B, NI+C] scratch) gets [x, h_prev] and the
 * whole w is used. */
static int lstm_fwd(const lstm_step* s, const float* x, const float* xw,
                    const float* cs_prev, const float* h_prev, float* xh,
                    float* gates, float* i, float* cs, float* f, float* o,
                    float* ci, float* co, float* h) {
  int64_t r, C = s->c, W = s->in + s->c;
  if (xw != NULL) {
    if (!gemm(0, 0, s->b, 4 * C, C, h_prev, C, s->w + s->in * 4 * C, 4 * C,
              gates, 4 * C)) {
      return 0;
    }
  } else {
    for (r = 0; r < s->b; r++) {
      memcpy(xh + r * W, x + r * s->in, (size_t)s->in * sizeof(float));
      memcpy(xh + r * W + s->in, h_prev + r * C, (size_t)C * sizeof(float));
    }
    if (!gemm(0, 0, s->b, 4 * C, W, xh, W, s->w, 4 * C, gates, 4 * C)) {
      return 0;
    }
  }
  lstm_rows(s, xw, cs_prev, gates, i, cs, f, o, ci, co, h);
  return 1;
}

/* Gradient of one batch row with respect to the gates and the previous
 * cell state (see lstm_bwd). */
NL_INLINE void lstm_bwd_row(
    int64_t C, int peep, const float* restrict csp, const float* restrict i,
    const float* restrict cs, const float* restrict f,
    const float* restrict o, const float* restrict ci,
    const float* restrict co, const float* restrict csg,
    const float* restrict hg, const float* restrict wci,
    const float* restrict wcf, const float* restrict wco,
    float* restrict gi, float* restrict gc, float* restrict gf,
    float* restrict go, float* restrict cpg, float* restrict wci_g,
    float* restrict wcf_g, float* restrict wco_g) {
  int64_t j;
  for (j = 0; j < C; j++) {
    float d_o = o[j] * (1 - o[j]) * hg[j] * co[j];
    float dcs = (1 - co[j] * co[j]) * hg[j] * o[j] + csg[j];
    float dci, df, di, cp;
    if (peep) dcs += d_o * wco[j];
    dci = (1 - ci[j] * ci[j]) * dcs * i[j];
    df = f[j] * (1 - f[j]) * dcs * csp[j];
    di = i[j] * (1 - i[j]) * dcs * ci[j];
    gi[j] = di;
    gc[j] = dci;
    gf[j] = df;
    go[j] = d_o;
    cp = dcs * f[j];
    if (peep) {
      cp += di * wci[j] + df * wcf[j];
      wci_g[j] += di * csp[j];
      wcf_g[j] += df * csp[j];
      wco_g[j] += d_o * cs[j];
    }
    cpg[j] = cp;
  }
}

/* Gradient of one step with respect to the gates (dgates, [B,4C]) and the
 * previous cell state; with peepholes the peephole gradients are added to
 * wci_g/wcf_g/wco_g (which must then be given). cs_grad/h_grad may be the
 * sums of two terms: the row pointers are precomputed by the caller. */
KUTIL_CLONES static void lstm_bwd(const lstm_step* s, const float* cs_prev,
                                  const float* i, const float* cs,
                                  const float* f, const float* o,
                                  const float* ci, const float* co,
                                  const float* cs_grad, const float* h_grad,
                                  float* dgates, float* cs_prev_grad,
                                  float* wci_g, float* wcf_g, float* wco_g) {
  int64_t r, C = s->c, oc, of;
  gate_offsets(s->ifco, C, &oc, &of);
  for (r = 0; r < s->b; r++) {
    float* dg = dgates + r * 4 * C;
    int64_t e = r * C;
    if (s->peep) {
      lstm_bwd_row(C, 1, cs_prev + e, i + e, cs + e, f + e, o + e, ci + e,
                   co + e, cs_grad + e, h_grad + e, s->wci, s->wcf, s->wco,
                   dg, dg + oc, dg + of, dg + 3 * C, cs_prev_grad + e, wci_g,
                   wcf_g, wco_g);
    } else {
      lstm_bwd_row(C, 0, cs_prev + e, i + e, cs + e, f + e, o + e, ci + e,
                   co + e, cs_grad + e, h_grad + e, s->wci, s->wcf, s->wco,
                   dg, dg + oc, dg + of, dg + 3 * C, cs_prev_grad + e, NULL,
                   NULL, NULL);
    }
  }
}

/* Reads forget_bias/cell_clip/use_peephole. */
static void lstm_attrs(tfe_kernel_context* k, lstm_step* s, int v2) {
  float fb = v2 ? 0.0f : 1.0f, clip = v2 ? 0.0f : 3.0f;
  if (k->attrs != NULL) {
    if (!v2) tfe_attrs_get_float(k->attrs, "forget_bias", &fb, NULL);
    tfe_attrs_get_float(k->attrs, "cell_clip", &clip, NULL);
  }
  s->forget_bias = fb;
  s->clip = clip;
  s->peep = kutil_attr_bool(k, "use_peephole", 0);
  s->ifco = v2;
}

/* ---- LSTMBlockCell ---- */

static int cell_checks(tfe_kernel_context* k, const char* op, int64_t* bsz,
                       int64_t* isz, int64_t* csz, int peep) {
  TF_Tensor* const* in = k->inputs;
  const char* names[8] = {"x_tensor",   "cs_prev_tensor", "h_prev_tensor",
                          "w_tensor",   "wci_tensor",     "wcf_tensor",
                          "wco_tensor", "b_tensor"};
  static const int ranks[8] = {2, 2, 2, 2, 1, 1, 1, 1};
  int q;
  (void)op;
  for (q = 0; q < 8; q++) {
    if (!want_rank(k, in[q], ranks[q], names[q])) return 0;
  }
  *bsz = in[0]->dims[0];
  *isz = in[0]->dims[1];
  *csz = in[1]->dims[1];
  if (!want_dim(k, in[1], 0, *bsz, "cs_prev.dims(0) != batch_size") ||
      !want_dim(k, in[2], 0, *bsz, "h_prev.dims(0) != batch_size") ||
      !want_dim(k, in[2], 1, *csz, "h_prev.dims(1) != cell_size") ||
      !want_dim(k, in[3], 0, *isz + *csz,
                "w.dim_size(0) != input_size + cell_size") ||
      !want_dim(k, in[3], 1, *csz * 4, "w.dim_size(1) != cell_size * 4") ||
      !want_dim(k, in[7], 0, *csz * 4, "b.dim_size(0) != cell_size * 4")) {
    return 0;
  }
  if (*bsz <= 0 || *csz <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "cs_prev_tensor is empty, has shape: (%lld,%lld).",
               (long long)*bsz, (long long)*csz);
    return 0;
  }
  if (peep) {
    for (q = 4; q < 7; q++) {
      if (in[q]->dims[0] != *csz) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "%s must have cell_size (%lld) elements with use_peephole, "
                   "got %lld",
                   q == 4 ? "wci" : q == 5 ? "wcf" : "wco", (long long)*csz,
                   (long long)in[q]->dims[0]);
        return 0;
      }
    }
  }
  return 1;
}

static void lstm_cell_compute(tfe_kernel_context* k) {
  lstm_step s;
  TF_Tensor* const* in = k->inputs;
  int64_t B, NI, C, dims[2], q, n;
  float* v[8] = {0};
  float *xh = NULL, *gates = NULL, *out = NULL, *ot[7];
  TF_Tensor* o[7];
  g_kctx = k;
  lstm_attrs(k, &s, 0);
  if (!cell_checks(k, "LSTMBlockCell", &B, &NI, &C, s.peep)) return;
  dims[0] = B;
  dims[1] = C;
  n = B * C;
  for (q = 0; q < 7; q++) {
    o[q] = tfe_kernel_alloc_output(k, (int)q, in[0]->dtype, dims, 2);
    if (o[q] == NULL) return;
  }
  for (q = 0; q < 8; q++) {
    v[q] = fview(in[q]);
    if (v[q] == NULL) {
      oom(k, "LSTMBlockCell");
      goto done;
    }
  }
  xh = (float*)tfe_malloc((size_t)(B * (NI + C)) * sizeof(float));
  gates = (float*)tfe_malloc((size_t)(B * 4 * C) * sizeof(float));
  /* float outputs are written in place; half goes through a float copy */
  if (in[0]->dtype != TF_FLOAT) {
    out = (float*)tfe_malloc((size_t)(7 * n) * sizeof(float));
  }
  if (xh == NULL || gates == NULL || (out == NULL && in[0]->dtype != TF_FLOAT)) {
    oom(k, "LSTMBlockCell");
    goto done;
  }
  for (q = 0; q < 7; q++) {
    ot[q] = out != NULL ? out + q * n : (float*)kutil_data(o[q]);
  }
  s.b = B;
  s.in = NI;
  s.c = C;
  s.w = v[3];
  s.wci = v[4];
  s.wcf = v[5];
  s.wco = v[6];
  s.bias = v[7];
  if (!lstm_fwd(&s, v[0], NULL, v[1], v[2], xh, gates, ot[0], ot[1], ot[2],
                ot[3], ot[4], ot[5], ot[6])) {
    oom(k, "LSTMBlockCell");
    goto done;
  }
  if (out != NULL) {
    for (q = 0; q < 7; q++) fstore(o[q], 0, out + q * n, n);
  }
done:
  for (q = 0; q < 8; q++) ffree(in[q], v[q]);
  tfe_free(xh);
  tfe_free(gates);
  tfe_free(out);
}

/* ---- LSTMBlockCellGrad ---- */

static void lstm_cell_grad_compute(tfe_kernel_context* k) {
  lstm_step s;
  TF_Tensor* const* in = k->inputs;
  int64_t B, NI, C, dims[2], q, n;
  float* v[16] = {0};
  float *dg = NULL, *cpg = NULL, *pg = NULL;
  TF_Tensor *o0, *o1, *o2, *o3, *o4;
  static const char* const kNames[8] = {"i", "cs", "f", "o", "ci", "co",
                                        "cs_grad", "h_grad"};
  memset(&s, 0, sizeof s);
  s.peep = kutil_attr_bool(k, "use_peephole", 0);
  if (!cell_checks(k, "LSTMBlockCellGrad", &B, &NI, &C, s.peep)) return;
  for (q = 8; q < 16; q++) {
    if (in[q]->num_dims != 2 || in[q]->dims[0] != B || in[q]->dims[1] != C) {
      kutil_shape_buf sb;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s must have shape [batch_size, cell_size] = [%lld,%lld], "
                 "got %s",
                 kNames[q - 8], (long long)B, (long long)C,
                 kutil_tshape(in[q], &sb));
      return;
    }
  }
  dims[0] = B;
  dims[1] = 4 * C;
  n = B * C;
  o0 = tfe_kernel_alloc_output(k, 0, in[0]->dtype, in[1]->dims, 2);
  if (o0 == NULL) return;
  o1 = tfe_kernel_alloc_output(k, 1, in[0]->dtype, dims, 2);
  if (o1 == NULL) return;
  o2 = tfe_kernel_alloc_output(k, 2, in[0]->dtype, in[4]->dims, 1);
  if (o2 == NULL) return;
  o3 = tfe_kernel_alloc_output(k, 3, in[0]->dtype, in[5]->dims, 1);
  if (o3 == NULL) return;
  o4 = tfe_kernel_alloc_output(k, 4, in[0]->dtype, in[6]->dims, 1);
  if (o4 == NULL) return;
  for (q = 0; q < 16; q++) {
    v[q] = fview(in[q]);
    if (v[q] == NULL) {
      oom(k, "LSTMBlockCellGrad");
      goto done;
    }
  }
  dg = (float*)tfe_malloc((size_t)(4 * n) * sizeof(float));
  cpg = (float*)tfe_malloc((size_t)n * sizeof(float));
  pg = (float*)tfe_calloc((size_t)(3 * C), sizeof(float));
  if (dg == NULL || cpg == NULL || pg == NULL) {
    oom(k, "LSTMBlockCellGrad");
    goto done;
  }
  s.b = B;
  s.in = NI;
  s.c = C;
  s.wci = v[4];
  s.wcf = v[5];
  s.wco = v[6];
  lstm_bwd(&s, v[1], v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15],
           dg, cpg, pg, pg + C, pg + 2 * C);
  fstore(o0, 0, cpg, n);
  fstore(o1, 0, dg, 4 * n);
  /* the peephole gradients are zero without peepholes; their shapes are
   * the peephole inputs' */
  fstore(o2, 0, pg, kutil_num_elements(o2) < C ? kutil_num_elements(o2) : C);
  fstore(o3, 0, pg + C,
         kutil_num_elements(o3) < C ? kutil_num_elements(o3) : C);
  fstore(o4, 0, pg + 2 * C,
         kutil_num_elements(o4) < C ? kutil_num_elements(o4) : C);
  {
    TF_Tensor* pgo[3] = {o2, o3, o4};
    int z;
    for (z = 0; z < 3; z++) {
      int64_t m = kutil_num_elements(pgo[z]), e;
      for (e = C; e < m; e++) nnl2_store(pgo[z]->dtype, kutil_data(pgo[z]), e, 0);
    }
  }
done:
  for (q = 0; q < 16; q++) ffree(in[q], v[q]);
  tfe_free(dg);
  tfe_free(cpg);
  tfe_free(pg);
}

/* ---- BlockLSTM / BlockLSTMV2 ---- */

static int seq_len(tfe_kernel_context* k, const TF_Tensor* t, int64_t* out) {
  if (t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "`seq_len_max_tensor` must be rank 0 but is rank %d",
               t->num_dims);
    return 0;
  }
  *out = kutil_get_int(t, 0);
  return 1;
}

static int block_checks(tfe_kernel_context* k, int64_t* T, int64_t* B,
                        int64_t* NI, int64_t* C) {
  TF_Tensor* const* in = k->inputs;
  const TF_Tensor *x = in[1], *cp = in[2], *hp = in[3], *w = in[4];
  int q;
  if (x->num_dims != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "x must be 3D");
    return 0;
  }
  *T = x->dims[0];
  *B = x->dims[1];
  *NI = x->dims[2];
  if (cp->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "cs_prev must be 2D");
    return 0;
  }
  if (!want_dim(k, cp, 0, *B, "cs_prev.dims(0) != batch_size")) return 0;
  *C = cp->dims[1];
  if (hp->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "h_prev must be 2D");
    return 0;
  }
  if (!want_dim(k, hp, 0, *B, "h_prev.dims(0) != batch_size") ||
      !want_dim(k, hp, 1, *C, "h_prev.dims(1) != cell_size")) {
    return 0;
  }
  if (w->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "w must be 2D");
    return 0;
  }
  if (!want_dim(k, w, 0, *NI + *C, "w.dim_size(0) != input_size + cell_size") ||
      !want_dim(k, w, 1, *C * 4, "w.dim_size(1) != cell_size * 4")) {
    return 0;
  }
  for (q = 5; q < 8; q++) {
    const char* nm = q == 5 ? "wci" : q == 6 ? "wcf" : "wco";
    char what[64];
    if (in[q]->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be 1D", nm);
      return 0;
    }
    snprintf(what, sizeof what, "%s.dim_size(0) != cell_size", nm);
    if (!want_dim(k, in[q], 0, *C, what)) return 0;
  }
  if (in[8]->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "b must be 1D");
    return 0;
  }
  return want_dim(k, in[8], 0, *C * 4, "b.dim_size(0) != cell_size * 4");
}

static void block_lstm(tfe_kernel_context* k, int v2) {
  lstm_step s;
  TF_Tensor* const* in = k->inputs;
  int64_t T, B, NI, C, sl, dims[3], q, t, n;
  float* v[9] = {0};
  float *xw = NULL, *gates = NULL, *out = NULL, *base[7];
  TF_Tensor* o[7];
  g_kctx = k;
  lstm_attrs(k, &s, v2);
  if (!seq_len(k, in[0], &sl)) return;
  if (!block_checks(k, &T, &B, &NI, &C)) return;
  dims[0] = T;
  dims[1] = B;
  dims[2] = C;
  for (q = 0; q < 7; q++) {
    o[q] = tfe_kernel_alloc_output(k, (int)q, in[1]->dtype, dims, 3);
    if (o[q] == NULL) return;
  }
  if (sl < 0 || sl > T) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "seq_len_max must be between 0 and %lld but is %lld",
               (long long)T, (long long)sl);
    return;
  }
  n = B * C;
  if (T == 0 || n == 0) return;
  /* steps past seq_len_max are zero (TF leaves the gates unset there) */
  for (q = 0; q < 7; q++) {
    size_t es = kutil_esize(o[q]->dtype);
    memset((char*)kutil_data(o[q]) + (size_t)(sl * n) * es, 0,
           (size_t)((T - sl) * n) * es);
  }
  if (sl == 0) return;
  for (q = 1; q < 9; q++) {
    v[q] = fview(in[q]);
    if (v[q] == NULL) {
      oom(k, "BlockLSTM");
      goto done;
    }
  }
  gates = (float*)tfe_malloc((size_t)(B * 4 * C) * sizeof(float));
  xw = (float*)tfe_malloc((size_t)(sl * B * 4 * C) * sizeof(float));
  /* float outputs are written in place; half goes through a float copy
   * laid out as [7][sl][B*C] */
  if (in[1]->dtype != TF_FLOAT) {
    out = (float*)tfe_malloc((size_t)(7 * n * sl) * sizeof(float));
  }
  if (gates == NULL || xw == NULL ||
      (out == NULL && in[1]->dtype != TF_FLOAT)) {
    oom(k, "BlockLSTM");
    goto done;
  }
  for (q = 0; q < 7; q++) {
    base[q] = out != NULL ? out + q * sl * n : (float*)kutil_data(o[q]);
  }
  s.b = B;
  s.in = NI;
  s.c = C;
  s.w = v[4];
  s.wci = v[5];
  s.wcf = v[6];
  s.wco = v[7];
  s.bias = v[8];
  /* the input part of every step's gates in one product: x w[:NI] */
  if (!gemm(0, 0, sl * B, 4 * C, NI, v[1], NI, s.w, 4 * C, xw, 4 * C)) {
    oom(k, "BlockLSTM");
    goto done;
  }
  /* base[z] + t*n: step t of i, cs, f, o, ci, co, h */
  for (t = 0; t < sl; t++) {
    if (!lstm_fwd(&s, NULL, xw + t * B * 4 * C,
                  t == 0 ? v[2] : base[1] + (t - 1) * n,
                  t == 0 ? v[3] : base[6] + (t - 1) * n, NULL, gates,
                  base[0] + t * n, base[1] + t * n, base[2] + t * n,
                  base[3] + t * n, base[4] + t * n, base[5] + t * n,
                  base[6] + t * n)) {
      oom(k, "BlockLSTM");
      goto done;
    }
  }
  if (out != NULL) {
    for (q = 0; q < 7; q++) fstore(o[q], 0, out + q * sl * n, sl * n);
  }
done:
  for (q = 1; q < 9; q++) ffree(in[q], v[q]);
  tfe_free(xw);
  tfe_free(gates);
  tfe_free(out);
}

static void block_lstm_compute(tfe_kernel_context* k) { block_lstm(k, 0); }
static void block_lstm_v2_compute(tfe_kernel_context* k) { block_lstm(k, 1); }

/* ---- BlockLSTMGrad / BlockLSTMGradV2 ---- */

static void block_lstm_grad(tfe_kernel_context* k, int v2) {
  lstm_step s;
  TF_Tensor* const* in = k->inputs;
  int64_t T, B, NI, C, sl, t, q, n, W;
  float* v[18] = {0};
  float *dga = NULL, *hpa = NULL, *csg = NULL, *hg = NULL, *cpg = NULL,
        *hpg = NULL, *wg = NULL, *bg = NULL, *pg = NULL, *xg = NULL;
  TF_Tensor* o[8];
  static const char* const kSaved[9] = {"i", "cs", "f",       "o",     "ci",
                                        "co", "h", "cs_grad", "h_grad"};
  g_kctx = k;
  memset(&s, 0, sizeof s);
  s.peep = kutil_attr_bool(k, "use_peephole", 0);
  s.ifco = v2;
  if (!seq_len(k, in[0], &sl)) return;
  if (in[1]->num_dims != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "x must be rank 3 but is rank %d",
               in[1]->num_dims);
    return;
  }
  T = in[1]->dims[0];
  B = in[1]->dims[1];
  NI = in[1]->dims[2];
  if (in[2]->num_dims != 2 || in[3]->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be rank 2 but is rank %d",
               in[2]->num_dims != 2 ? "cs_prev" : "h_prev",
               in[2]->num_dims != 2 ? in[2]->num_dims : in[3]->num_dims);
    return;
  }
  if (in[4]->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "w must be rank 2 but is rank %d",
               in[4]->num_dims);
    return;
  }
  if (!(in[4]->dims[1] > 0 && in[4]->dims[1] % 4 == 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "w matrix columns must be a positive multiple of 4, but got "
               "%lld",
               (long long)in[4]->dims[1]);
    return;
  }
  C = in[4]->dims[1] / 4;
  if (NI + C != in[4]->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "w matrix rows don't match: %lld vs. %lld",
               (long long)(NI + C), (long long)in[4]->dims[0]);
    return;
  }
  for (q = 5; q < 9; q++) {
    if (in[q]->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be rank 1 but is rank %d",
                 q == 5 ? "wci" : q == 6 ? "wcf" : q == 7 ? "wco" : "b",
                 in[q]->num_dims);
      return;
    }
  }
  if (C != in[8]->dims[0] / 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "w and b cell_size don't match: %lld vs. %lld", (long long)C,
               (long long)in[8]->dims[0]);
    return;
  }
  for (q = 9; q < 16; q++) {
    if (in[q]->num_dims != 3) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be rank 3. Received: %d",
                 kSaved[q - 9], in[q]->num_dims);
      return;
    }
  }
  /* what TF assumes without checking */
  if (in[2]->dims[0] != B || in[2]->dims[1] != C || in[3]->dims[0] != B ||
      in[3]->dims[1] != C || in[8]->dims[0] != 4 * C ||
      (s.peep && (in[5]->dims[0] != C || in[6]->dims[0] != C ||
                  in[7]->dims[0] != C))) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "cs_prev and h_prev must be [batch_size, cell_size], b "
               "[4 * cell_size] and the peephole weights [cell_size]");
    return;
  }
  for (q = 9; q < 18; q++) {
    if (in[q]->num_dims != 3 || in[q]->dims[0] != T || in[q]->dims[1] != B ||
        in[q]->dims[2] != C) {
      kutil_shape_buf sb;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s must have shape [timelen, batch_size, cell_size] = "
                 "[%lld,%lld,%lld], got %s",
                 kSaved[q - 9], (long long)T, (long long)B, (long long)C,
                 kutil_tshape(in[q], &sb));
      return;
    }
  }
  o[0] = tfe_kernel_alloc_output(k, 0, in[1]->dtype, in[1]->dims, 3);
  if (o[0] == NULL) return;
  for (q = 1; q < 8; q++) {
    const TF_Tensor* src = in[q + 1];
    o[q] = tfe_kernel_alloc_output(k, (int)q, in[1]->dtype, src->dims,
                                   src->num_dims);
    if (o[q] == NULL) return;
  }
  for (q = 0; q < 8; q++) {
    int64_t m = kutil_num_elements(o[q]);
    if (m > 0) memset(kutil_data(o[q]), 0, (size_t)m * kutil_esize(o[q]->dtype));
  }
  if (sl < 0 || sl > T) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "seq_len_max must be between 0 and %lld but is %lld",
               (long long)T, (long long)sl);
    return;
  }
  n = B * C;
  W = NI + C;
  if (sl == 0 || B == 0) return;
  for (q = 1; q < 18; q++) {
    v[q] = fview(in[q]);
    if (v[q] == NULL) {
      oom(k, "BlockLSTMGrad");
      goto done;
    }
  }
  dga = (float*)tfe_malloc((size_t)(sl * B * 4 * C) * sizeof(float));
  hpa = (float*)tfe_malloc((size_t)(sl * n) * sizeof(float));
  csg = (float*)tfe_malloc((size_t)n * sizeof(float));
  hg = (float*)tfe_malloc((size_t)n * sizeof(float));
  cpg = (float*)tfe_calloc((size_t)n, sizeof(float));
  hpg = (float*)tfe_calloc((size_t)n, sizeof(float));
  wg = (float*)tfe_malloc((size_t)(W * 4 * C) * sizeof(float));
  bg = (float*)tfe_calloc((size_t)(4 * C), sizeof(float));
  pg = (float*)tfe_calloc((size_t)(3 * C), sizeof(float));
  xg = (float*)tfe_malloc((size_t)(sl * B * NI + 1) * sizeof(float));
  if (dga == NULL || hpa == NULL || csg == NULL || hg == NULL ||
      cpg == NULL || hpg == NULL || wg == NULL || bg == NULL || pg == NULL ||
      xg == NULL) {
    oom(k, "BlockLSTMGrad");
    goto done;
  }
  s.b = B;
  s.in = NI;
  s.c = C;
  s.w = v[4];
  s.wci = v[5];
  s.wcf = v[6];
  s.wco = v[7];
  /* Backwards through time, only what the recurrence needs: each step's
   * gate gradients (kept, [sl][B][4C]), the cell state gradient and the
   * h_prev gradient dgates w[NI:]^T. The x, w and b gradients are then
   * products over all steps at once. */
  for (t = sl - 1; t >= 0; t--) {
    const float* csp = t == 0 ? v[2] : v[10] + (t - 1) * n;
    float* dg = dga + t * B * 4 * C;
    int64_t e;
    for (e = 0; e < n; e++) {
      csg[e] = cpg[e] + v[16][t * n + e];
      hg[e] = hpg[e] + v[17][t * n + e];
    }
    lstm_bwd(&s, csp, v[9] + t * n, v[10] + t * n, v[11] + t * n,
             v[12] + t * n, v[13] + t * n, v[14] + t * n, csg, hg, dg, cpg,
             pg, pg + C, pg + 2 * C);
    if (!gemm(0, 1, B, C, 4 * C, dg, 4 * C, s.w + NI * 4 * C, 4 * C, hpg,
              C)) {
      oom(k, "BlockLSTMGrad");
      goto done;
    }
  }
  /* h_{t-1} of every step: h_prev, then the saved h of steps 0..sl-2 */
  memcpy(hpa, v[3], (size_t)n * sizeof(float));
  if (sl > 1) memcpy(hpa + n, v[15], (size_t)((sl - 1) * n) * sizeof(float));
  if (!gemm(0, 1, sl * B, NI, 4 * C, dga, 4 * C, s.w, 4 * C, xg, NI) ||
      !gemm(1, 0, NI, 4 * C, sl * B, v[1], NI, dga, 4 * C, wg, 4 * C) ||
      !gemm(1, 0, C, 4 * C, sl * B, hpa, C, dga, 4 * C, wg + NI * 4 * C,
            4 * C)) {
    oom(k, "BlockLSTMGrad");
    goto done;
  }
  for (t = 0; t < sl * B; t++) {
    const float* restrict d = dga + t * 4 * C;
    float* restrict acc = bg;
    int64_t j;
    for (j = 0; j < 4 * C; j++) acc[j] += d[j];
  }
  fstore(o[0], 0, xg, sl * B * NI);
  fstore(o[1], 0, cpg, n);
  fstore(o[2], 0, hpg, n);
  fstore(o[3], 0, wg, W * 4 * C);
  if (s.peep) {
    fstore(o[4], 0, pg, C);
    fstore(o[5], 0, pg + C, C);
    fstore(o[6], 0, pg + 2 * C, C);
  }
  fstore(o[7], 0, bg, 4 * C);
done:
  for (q = 1; q < 18; q++) ffree(in[q], v[q]);
  tfe_free(dga);
  tfe_free(hpa);
  tfe_free(csg);
  tfe_free(hg);
  tfe_free(cpg);
  tfe_free(hpg);
  tfe_free(wg);
  tfe_free(bg);
  tfe_free(pg);
  tfe_free(xg);
}

static void block_lstm_grad_compute(tfe_kernel_context* k) {
  block_lstm_grad(k, 0);
}
static void block_lstm_grad_v2_compute(tfe_kernel_context* k) {
  block_lstm_grad(k, 1);
}

/* ---- GRUBlockCell / GRUBlockCellGrad ---- */

static int gru_checks(tfe_kernel_context* k, int64_t* B, int64_t* NI,
                      int64_t* C) {
  TF_Tensor* const* in = k->inputs;
  if (in[0]->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Rank of x must be 2, got %d",
               in[0]->num_dims);
    return 0;
  }
  *B = in[0]->dims[0];
  *NI = in[0]->dims[1];
  if (in[1]->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Rank of h_prev must be 2, got %d",
               in[1]->num_dims);
    return 0;
  }
  if (!want_dim(k, in[1], 0, *B, "h_prev.dims(0) != batch_size")) return 0;
  *C = in[1]->dims[1];
  if (in[2]->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Rank of w_ru_ must be 2, got %d",
               in[2]->num_dims);
    return 0;
  }
  if (!want_dim(k, in[2], 0, *NI + *C,
                "w_ru.dim_size(0) != input_size + cell_size") ||
      !want_dim(k, in[2], 1, *C * 2, "w_ru.dim_size(1) != cell_size * 2")) {
    return 0;
  }
  if (in[3]->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Rank of w_c must be 2, got %d",
               in[3]->num_dims);
    return 0;
  }
  if (!want_dim(k, in[3], 0, *NI + *C,
                "w_c.dim_size(0) != input_size + cell_size") ||
      !want_dim(k, in[3], 1, *C, "w_c.dim_size(1) != cell_size")) {
    return 0;
  }
  if (in[4]->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Rank of b_ru must be 1, got %d",
               in[4]->num_dims);
    return 0;
  }
  if (!want_dim(k, in[4], 0, *C * 2, "b_ru.dim_size(0) != cell_size * 2")) {
    return 0;
  }
  if (in[5]->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Rank of b_c must be 1, got %d",
               in[5]->num_dims);
    return 0;
  }
  return want_dim(k, in[5], 0, *C, "b_c.dim_size(0) != cell_size");
}

static void gru_cell_compute(tfe_kernel_context* k) {
  TF_Tensor* const* in = k->inputs;
  int64_t B, NI, C, W, dims[2], r, j;
  const float *x, *hp, *wru, *wc, *bru, *bc;
  float *xh = NULL, *ru = NULL, *cc = NULL;
  float *ro, *uo, *co, *ho;
  TF_Tensor* o[4];
  int q;
  g_kctx = k;
  if (!gru_checks(k, &B, &NI, &C)) return;
  dims[0] = B;
  dims[1] = C;
  for (q = 0; q < 4; q++) {
    o[q] = tfe_kernel_alloc_output(k, q, TF_FLOAT, dims, 2);
    if (o[q] == NULL) return;
  }
  if (B == 0 || C == 0) return;
  W = NI + C;
  x = (const float*)kutil_data(in[0]);
  hp = (const float*)kutil_data(in[1]);
  wru = (const float*)kutil_data(in[2]);
  wc = (const float*)kutil_data(in[3]);
  bru = (const float*)kutil_data(in[4]);
  bc = (const float*)kutil_data(in[5]);
  ro = (float*)kutil_data(o[0]);
  uo = (float*)kutil_data(o[1]);
  co = (float*)kutil_data(o[2]);
  ho = (float*)kutil_data(o[3]);
  xh = (float*)tfe_malloc((size_t)(B * W) * sizeof(float));
  ru = (float*)tfe_malloc((size_t)(B * 2 * C) * sizeof(float));
  cc = (float*)tfe_malloc((size_t)(B * C) * sizeof(float));
  if (xh == NULL || ru == NULL || cc == NULL) {
    oom(k, "GRUBlockCell");
    goto done;
  }
  for (r = 0; r < B; r++) {
    memcpy(xh + r * W, x + r * NI, (size_t)NI * sizeof(float));
    memcpy(xh + r * W + NI, hp + r * C, (size_t)C * sizeof(float));
  }
  if (!gemm(0, 0, B, 2 * C, W, xh, W, wru, 2 * C, ru, 2 * C)) {
    oom(k, "GRUBlockCell");
    goto done;
  }
  for (r = 0; r < B; r++) {
    for (j = 0; j < C; j++) {
      ro[r * C + j] = sigm(ru[r * 2 * C + j] + bru[j]);
      uo[r * C + j] = sigm(ru[r * 2 * C + C + j] + bru[C + j]);
      xh[r * W + NI + j] = ro[r * C + j] * hp[r * C + j];
    }
  }
  if (!gemm(0, 0, B, C, W, xh, W, wc, C, cc, C)) {
    oom(k, "GRUBlockCell");
    goto done;
  }
  for (r = 0; r < B; r++) {
    for (j = 0; j < C; j++) {
      int64_t e = r * C + j;
      co[e] = nl_tanhf(cc[e] + bc[j]);
      ho[e] = uo[e] * hp[e] + (1 - uo[e]) * co[e];
    }
  }
done:
  tfe_free(xh);
  tfe_free(ru);
  tfe_free(cc);
}

static void gru_cell_grad_compute(tfe_kernel_context* k) {
  TF_Tensor* const* in = k->inputs;
  int64_t B, NI, C, W, dims[2], r, j;
  const float *hp, *wru, *wc, *rr, *uu, *cc, *dh;
  float *dx, *dhp, *dcb, *drub, *c1 = NULL, *c2 = NULL;
  TF_Tensor* o[4];
  static const char* const kNames[4] = {"r", "u", "c", "d_h"};
  int q;
  g_kctx = k;
  if (!gru_checks(k, &B, &NI, &C)) return;
  for (q = 6; q < 10; q++) {
    const TF_Tensor* t = in[q];
    char what[48];
    if (t->num_dims != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Rank of %s must be 2, got %d",
                 q == 8 ? "w_c" : kNames[q - 6], t->num_dims);
      return;
    }
    snprintf(what, sizeof what, "%s.dims(0) != batch_size", kNames[q - 6]);
    if (!want_dim(k, t, 0, B, what)) return;
    snprintf(what, sizeof what, "%s.dims(1) != cell_size", kNames[q - 6]);
    if (!want_dim(k, t, 1, C, what)) return;
  }
  W = NI + C;
  dims[0] = B;
  dims[1] = NI;
  o[0] = tfe_kernel_alloc_output(k, 0, TF_FLOAT, dims, 2);
  if (o[0] == NULL) return;
  dims[1] = C;
  o[1] = tfe_kernel_alloc_output(k, 1, TF_FLOAT, dims, 2);
  if (o[1] == NULL) return;
  o[2] = tfe_kernel_alloc_output(k, 2, TF_FLOAT, dims, 2);
  if (o[2] == NULL) return;
  dims[1] = 2 * C;
  o[3] = tfe_kernel_alloc_output(k, 3, TF_FLOAT, dims, 2);
  if (o[3] == NULL) return;
  if (B == 0) return;
  hp = (const float*)kutil_data(in[1]);
  wru = (const float*)kutil_data(in[2]);
  wc = (const float*)kutil_data(in[3]);
  rr = (const float*)kutil_data(in[6]);
  uu = (const float*)kutil_data(in[7]);
  cc = (const float*)kutil_data(in[8]);
  dh = (const float*)kutil_data(in[9]);
  dx = (float*)kutil_data(o[0]);
  dhp = (float*)kutil_data(o[1]);
  dcb = (float*)kutil_data(o[2]);
  drub = (float*)kutil_data(o[3]);
  c1 = (float*)tfe_malloc((size_t)(B * W + 1) * sizeof(float));
  c2 = (float*)tfe_malloc((size_t)(B * W + 1) * sizeof(float));
  if (c1 == NULL || c2 == NULL) {
    oom(k, "GRUBlockCellGrad");
    goto done;
  }
  for (r = 0; r < B; r++) {
    for (j = 0; j < C; j++) {
      int64_t e = r * C + j;
      dcb[e] = dh[e] * (1 - uu[e]) * (1 - cc[e] * cc[e]);
      drub[r * 2 * C + C + j] = dh[e] * (hp[e] - cc[e]) * uu[e] * (1 - uu[e]);
    }
  }
  /* c2 = d_c_bar w_c^T: the x part and the (r * h_prev) part */
  if (!gemm(0, 1, B, W, C, dcb, C, wc, C, c2, W)) {
    oom(k, "GRUBlockCellGrad");
    goto done;
  }
  for (r = 0; r < B; r++) {
    for (j = 0; j < C; j++) {
      int64_t e = r * C + j;
      drub[r * 2 * C + j] = c2[r * W + NI + j] * hp[e] * rr[e] * (1 - rr[e]);
    }
  }
  if (!gemm(0, 1, B, W, 2 * C, drub, 2 * C, wru, 2 * C, c1, W)) {
    oom(k, "GRUBlockCellGrad");
    goto done;
  }
  for (r = 0; r < B; r++) {
    for (j = 0; j < NI; j++) dx[r * NI + j] = c1[r * W + j] + c2[r * W + j];
    for (j = 0; j < C; j++) {
      int64_t e = r * C + j;
      dhp[e] = c1[r * W + NI + j] + c2[r * W + NI + j] * rr[e] + dh[e] * uu[e];
    }
  }
done:
  tfe_free(c1);
  tfe_free(c2);
}

void tfe_nn_linalg2_register_rnn(void) {
  static const TF_DataType kFH[] = {TF_FLOAT, TF_HALF};
  static const TF_DataType kF[] = {TF_FLOAT};
  tfe_kutil_register("LSTMBlockCell", lstm_cell_compute, "T", kFH, 2, NULL,
                     NULL, 0);
  tfe_kutil_register("LSTMBlockCellGrad", lstm_cell_grad_compute, "T", kFH, 2,
                     NULL, NULL, 0);
  tfe_kutil_register("BlockLSTM", block_lstm_compute, "T", kFH, 2, NULL, NULL,
                     0);
  tfe_kutil_register("BlockLSTMV2", block_lstm_v2_compute, "T", kFH, 2, NULL,
                     NULL, 0);
  tfe_kutil_register("BlockLSTMGrad", block_lstm_grad_compute, "T", kFH, 2,
                     NULL, NULL, 0);
  tfe_kutil_register("BlockLSTMGradV2", block_lstm_grad_v2_compute, "T", kFH,
                     2, NULL, NULL, 0);
  tfe_kutil_register("GRUBlockCell", gru_cell_compute, "T", kF, 1, NULL, NULL,
                     0);
  tfe_kutil_register("GRUBlockCellGrad", gru_cell_grad_compute, "T", kF, 1,
                     NULL, NULL, 0);
}
