/* CPU kernels: spectral ops of tf.signal (the FFT family) and, through
 * signal_color.c, the image colour ops of tf.image.
 *
 * The FFT engine below is tfe's own. Every transform runs in double
 * precision (complex64 inputs are widened and the result rounded once), so
 * results agree with TensorFlow's to float precision for any length:
 *  - a length whose prime factors are all small (<= SIG_MAX_RADIX) runs as a
 *    recursive mixed-radix Cooley-Tukey transform (radix-2 and radix-4
 *    butterflies written out, other primes through a generic butterfly);
 *  - any other length runs as Bluestein's chirp-z transform, a circular
 *    convolution computed with a power-of-two transform.
 * Multi-dimensional transforms apply the 1-D transform along each axis in
 * turn. Real-to-complex transforms run the complex transform on the real
 * data and keep the non-redundant half; complex-to-real transforms complete
 * the Hermitian half-spectrum along the last transformed axis (the
 * imaginary parts of the DC and Nyquist bins are ignored, as TF does) after
 * the inverse complex transform along the other axes. */
#include <math.h>
#include <stdlib.h>

#include "kernels/cpu/kutil.h"
#include "kernels/cpu/signal_kernels.h"

void tfe_register_cpu_signal_kernels(void);

typedef struct sig_cd {
  double re, im;
} sig_cd;

#define SIG_MAX_RADIX 64
#define SIG_PI 3.14159265358979323846
#define SIG_MAX_FACTORS 64
/* Largest tensor rank the kernels handle (TF's limit). */
#define SI_MAX_RANK_K 254

/* ---- 1-D plans ---- */

typedef struct sig_plan sig_plan;
struct sig_plan {
  int64_t n;
  int sign; /* -1 forward, +1 inverse (unnormalised) */
  int nfac;
  int fac[SIG_MAX_FACTORS];
  sig_cd* tw; /* tw[k] = exp(sign * 2 pi i k / n), k < n (mixed radix) */
  sig_cd* tmp; /* n values of scratch */
  /* Bluestein: n is transformed through a length-m (power of two) plan. */
  int64_t m;
  sig_plan* sub;
  sig_cd* chirp; /* n values exp(sign * pi i k^2 / n) */
  sig_cd* bhat;  /* m values: transform of the conjugate chirp sequence */
  sig_cd* work;  /* m values of scratch */
};

static void sig_plan_free(sig_plan* p) {
  if (p == NULL) return;
  tfe_free(p->tw);
  tfe_free(p->tmp);
  tfe_free(p->chirp);
  tfe_free(p->bhat);
  tfe_free(p->work);
  sig_plan_free(p->sub);
  tfe_free(p);
}

/* Factors n into primes (4s first, then 2, 3, 5, ...); returns 0 when a
 * factor exceeds SIG_MAX_RADIX. */
static int sig_factor(int64_t n, int* fac, int* nfac) {
  int k = 0;
  int64_t p;
  while (n % 4 == 0 && k < SIG_MAX_FACTORS) {
    fac[k++] = 4;
    n /= 4;
  }
  for (p = 2; n > 1 && p <= SIG_MAX_RADIX; p++) {
    while (n % p == 0 && k < SIG_MAX_FACTORS) {
      fac[k++] = (int)p;
      n /= p;
    }
  }
  *nfac = k;
  return n == 1;
}

/* exp(sign * 2 pi i num / den) with num reduced into [0, den). */
static sig_cd sig_expi(int sign, int64_t num, int64_t den) {
  sig_cd r;
  double a;
  num %= den;
  if (num < 0) num += den;
  /* The angle folded into (-pi, pi], so cos/sin get small arguments. */
  a = 2.0 * SIG_PI * ((double)num / (double)den);
  if (2 * num > den) a = -2.0 * SIG_PI * ((double)(den - num) / (double)den);
  r.re = cos(a);
  r.im = (double)sign * sin(a);
  return r;
}

static sig_plan* sig_plan_new(int64_t n, int sign) {
  sig_plan* p = (sig_plan*)tfe_calloc(1, sizeof *p);
  int64_t k;
  if (p == NULL) return NULL;
  p->n = n;
  p->sign = sign;
  if (n <= 1) return p;
  p->tmp = (sig_cd*)tfe_malloc((size_t)n * sizeof(sig_cd));
  if (p->tmp == NULL) goto fail;
  if (sig_factor(n, p->fac, &p->nfac)) {
    p->tw = (sig_cd*)tfe_malloc((size_t)n * sizeof(sig_cd));
    if (p->tw == NULL) goto fail;
    for (k = 0; k < n; k++) p->tw[k] = sig_expi(sign, k, n);
    return p;
  }
  /* Bluestein */
  p->nfac = 0;
  p->m = 1;
  while (p->m < 2 * n - 1) p->m *= 2;
  p->sub = sig_plan_new(p->m, -1);
  p->chirp = (sig_cd*)tfe_malloc((size_t)n * sizeof(sig_cd));
  p->bhat = (sig_cd*)tfe_calloc((size_t)p->m, sizeof(sig_cd));
  p->work = (sig_cd*)tfe_malloc((size_t)p->m * sizeof(sig_cd));
  if (p->sub == NULL || p->chirp == NULL || p->bhat == NULL ||
      p->work == NULL) {
    goto fail;
  }
  for (k = 0; k < n; k++) {
    /* exp(sign * pi i k^2 / n) = exp(sign * 2 pi i (k^2 mod 2n) / 2n) */
    uint64_t kk = ((uint64_t)k * (uint64_t)k) % (uint64_t)(2 * n);
    p->chirp[k] = sig_expi(sign, (int64_t)kk, 2 * n);
  }
  p->bhat[0].re = p->chirp[0].re;
  p->bhat[0].im = -p->chirp[0].im;
  for (k = 1; k < n; k++) {
    sig_cd c = p->chirp[k];
    c.im = -c.im;
    p->bhat[k] = c;
    p->bhat[p->m - k] = c;
  }
  return p;
fail:
  sig_plan_free(p);
  return NULL;
}

/* out[0..n) = DFT of in[0], in[is], in[2 is], ... using factors fac[0..]. */
static void sig_rec(const sig_plan* p, const sig_cd* in, int64_t is,
                    sig_cd* out, int64_t n, int fi, int64_t twstep) {
  int r, q;
  int64_t m, k;
  int radix;
  if (n == 1) {
    out[0] = in[0];
    return;
  }
  radix = p->fac[fi];
  m = n / radix;
  for (r = 0; r < radix; r++) {
    sig_rec(p, in + r * is, is * radix, out + r * m, m, fi + 1,
            twstep * radix);
  }
  /* Now out[r*m + k] holds sub-transform r at bin k; combine. */
  if (radix == 2) {
    for (k = 0; k < m; k++) {
      sig_cd a = out[k], b = out[m + k], w = p->tw[k * twstep], t;
      t.re = b.re * w.re - b.im * w.im;
      t.im = b.re * w.im + b.im * w.re;
      out[k].re = a.re + t.re;
      out[k].im = a.im + t.im;
      out[m + k].re = a.re - t.re;
      out[m + k].im = a.im - t.im;
    }
    return;
  }
  if (radix == 4) {
    double s = (double)p->sign;
    for (k = 0; k < m; k++) {
      sig_cd x0 = out[k], x1, x2, x3, w, a0, a1, a2, a3;
      w = p->tw[k * twstep];
      x1.re = out[m + k].re * w.re - out[m + k].im * w.im;
      x1.im = out[m + k].re * w.im + out[m + k].im * w.re;
      w = p->tw[2 * k * twstep];
      x2.re = out[2 * m + k].re * w.re - out[2 * m + k].im * w.im;
      x2.im = out[2 * m + k].re * w.im + out[2 * m + k].im * w.re;
      w = p->tw[3 * k * twstep];
      x3.re = out[3 * m + k].re * w.re - out[3 * m + k].im * w.im;
      x3.im = out[3 * m + k].re * w.im + out[3 * m + k].im * w.re;
      a0.re = x0.re + x2.re;
      a0.im = x0.im + x2.im;
      a1.re = x0.re - x2.re;
      a1.im = x0.im - x2.im;
      a2.re = x1.re + x3.re;
      a2.im = x1.im + x3.im;
      /* a3 = (x1 - x3) * (sign * i) */
      a3.re = -s * (x1.im - x3.im);
      a3.im = s * (x1.re - x3.re);
      out[k].re = a0.re + a2.re;
      out[k].im = a0.im + a2.im;
      out[m + k].re = a1.re + a3.re;
      out[m + k].im = a1.im + a3.im;
      out[2 * m + k].re = a0.re - a2.re;
      out[2 * m + k].im = a0.im - a2.im;
      out[3 * m + k].re = a1.re - a3.re;
      out[3 * m + k].im = a1.im - a3.im;
    }
    return;
  }
  {
    sig_cd t[SIG_MAX_RADIX], u[SIG_MAX_RADIX];
    int64_t wstep = m * twstep; /* W_radix = tw[wstep] */
    int64_t nn = p->n;
    for (k = 0; k < m; k++) {
      for (r = 0; r < radix; r++) {
        sig_cd x = out[r * m + k];
        sig_cd w = p->tw[((int64_t)r * k * twstep) % nn];
        t[r].re = x.re * w.re - x.im * w.im;
        t[r].im = x.re * w.im + x.im * w.re;
      }
      for (q = 0; q < radix; q++) {
        double sr = 0.0, si = 0.0;
        for (r = 0; r < radix; r++) {
          sig_cd w = p->tw[(int64_t)((r * q) % radix) * wstep];
          sr += t[r].re * w.re - t[r].im * w.im;
          si += t[r].re * w.im + t[r].im * w.re;
        }
        u[q].re = sr;
        u[q].im = si;
      }
      for (q = 0; q < radix; q++) out[q * m + k] = u[q];
    }
  }
}

/* In-place unnormalised transform of data[0..n). */
static void sig_exec(sig_plan* p, sig_cd* data) {
  int64_t n = p->n, k;
  if (n <= 1) return;
  if (p->sub == NULL) {
    memcpy(p->tmp, data, (size_t)n * sizeof(sig_cd));
    sig_rec(p, p->tmp, 1, data, n, 0, 1);
    return;
  }
  /* Bluestein: a_k = x_k chirp_k, convolve with the conjugate chirp. */
  {
    sig_cd* w = p->work;
    int64_t m = p->m;
    double inv_m = 1.0 / (double)m;
    for (k = 0; k < n; k++) {
      sig_cd x = data[k], c = p->chirp[k];
      w[k].re = x.re * c.re - x.im * c.im;
      w[k].im = x.re * c.im + x.im * c.re;
    }
    for (k = n; k < m; k++) w[k].re = w[k].im = 0.0;
    sig_exec(p->sub, w);
    /* multiply by bhat, then inverse through conj(forward(conj(.))) */
    for (k = 0; k < m; k++) {
      sig_cd a = w[k], b = p->bhat[k];
      w[k].re = a.re * b.re - a.im * b.im;
      w[k].im = -(a.re * b.im + a.im * b.re);
    }
    sig_exec(p->sub, w);
    for (k = 0; k < n; k++) {
      sig_cd a, c = p->chirp[k];
      a.re = w[k].re * inv_m;
      a.im = -w[k].im * inv_m;
      data[k].re = a.re * c.re - a.im * c.im;
      data[k].im = a.re * c.im + a.im * c.re;
    }
  }
}

/* Plans with their Bluestein kernel transformed (sig_plan_new leaves bhat
 * in the time domain). */
static sig_plan* sig_plan_make(int64_t n, int sign) {
  sig_plan* p = sig_plan_new(n, sign);
  if (p != NULL && p->sub != NULL) sig_exec(p->sub, p->bhat);
  return p;
}

/* ---- N-D transforms over a double complex work array ---- */

/* Transforms every line of work (dims[0..rank)) along axis `ax` (sign -1
 * forward, +1 inverse, unnormalised). Returns 0 on allocation failure. */
static int sig_axis(sig_cd* work, const int64_t* dims, int rank, int ax,
                    int sign) {
  int64_t outer = kutil_dims_prod(dims, 0, ax);
  int64_t len = dims[ax];
  int64_t inner = kutil_dims_prod(dims, ax + 1, rank);
  int64_t o, i, j;
  sig_plan* p;
  sig_cd* line;
  if (len <= 1 || outer == 0 || inner == 0) return 1;
  p = sig_plan_make(len, sign);
  line = (sig_cd*)tfe_malloc((size_t)len * sizeof(sig_cd));
  if (p == NULL || line == NULL) {
    sig_plan_free(p);
    tfe_free(line);
    return 0;
  }
  for (o = 0; o < outer; o++) {
    sig_cd* base = work + o * len * inner;
    if (inner == 1) {
      sig_exec(p, base);
      continue;
    }
    for (i = 0; i < inner; i++) {
      for (j = 0; j < len; j++) line[j] = base[j * inner + i];
      sig_exec(p, line);
      for (j = 0; j < len; j++) base[j * inner + i] = line[j];
    }
  }
  sig_plan_free(p);
  tfe_free(line);
  return 1;
}

enum { SIG_C2C_FWD, SIG_C2C_INV, SIG_R2C, SIG_C2R };

/* Reads element `idx` of a real or complex input as a complex double. */
static sig_cd sig_load(const TF_Tensor* t, int64_t idx) {
  sig_cd v = {0.0, 0.0};
  const void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: v.re = ((const float*)d)[idx]; break;
    case TF_DOUBLE: v.re = ((const double*)d)[idx]; break;
    case TF_COMPLEX64:
      v.re = ((const float*)d)[2 * idx];
      v.im = ((const float*)d)[2 * idx + 1];
      break;
    case TF_COMPLEX128:
      v.re = ((const double*)d)[2 * idx];
      v.im = ((const double*)d)[2 * idx + 1];
      break;
    default: break;
  }
  return v;
}

static void sig_store(TF_Tensor* t, int64_t idx, sig_cd v) {
  void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: ((float*)d)[idx] = (float)v.re; break;
    case TF_DOUBLE: ((double*)d)[idx] = v.re; break;
    case TF_COMPLEX64:
      ((float*)d)[2 * idx] = (float)v.re;
      ((float*)d)[2 * idx + 1] = (float)v.im;
      break;
    case TF_COMPLEX128:
      ((double*)d)[2 * idx] = v.re;
      ((double*)d)[2 * idx + 1] = v.im;
      break;
    default: break;
  }
}

/* The transform of `in` along the distinct axes ax[0..r) with lengths
 * len[0..r) (already validated: in's dims along them are >= the work
 * lengths). For SIG_R2C/SIG_C2R, ax[r-1] is the real axis. The output
 * (already allocated with the right shape) is filled. */
static void sig_transform(tfe_kernel_context* k, int kind, const TF_Tensor* in,
                          TF_Tensor* out, const int* ax, const int64_t* len,
                          int r) {
  int rank = in->num_dims;
  int64_t wd[SI_MAX_RANK_K];
  int64_t cnt[SI_MAX_RANK_K];
  int64_t istr[SI_MAX_RANK_K];
  int64_t nwork, nout, idx, i;
  int a, last = ax[r - 1];
  sig_cd* work;
  double scale = 1.0;

  nout = kutil_num_elements(out);
  for (a = 0; a < rank; a++) wd[a] = in->dims[a];
  for (a = 0; a < r; a++) wd[ax[a]] = len[a];
  if (nout == 0) return;
  nwork = kutil_dims_prod(wd, 0, rank);
  if (nwork == 0 || kutil_num_elements(in) == 0) {
    memset(kutil_data(out), 0, TF_TensorByteSize(out));
    return;
  }
  work = (sig_cd*)tfe_malloc((size_t)nwork * sizeof(sig_cd));
  if (work == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  /* Fill the work array from the input, cropped to the work dims. For C2R
   * only the first len/2+1 entries along the real axis come from the input
   * (the rest are completed later). */
  istr[rank - 1] = 1;
  for (a = rank - 2; a >= 0; a--) istr[a] = istr[a + 1] * in->dims[a + 1];
  for (a = 0; a < rank; a++) cnt[a] = 0;
  {
    int64_t half = len[r - 1] / 2 + 1;
    for (idx = 0; idx < nwork; idx++) {
      int64_t off = 0;
      if (kind == SIG_C2R && cnt[last] >= half) {
        work[idx].re = work[idx].im = 0.0;
      } else {
        for (a = 0; a < rank; a++) off += cnt[a] * istr[a];
        work[idx] = sig_load(in, off);
      }
      for (a = rank - 1; a >= 0; a--) {
        if (++cnt[a] < wd[a]) break;
        cnt[a] = 0;
      }
    }
  }
  /* Transform. */
  {
    int sign = (kind == SIG_C2C_FWD || kind == SIG_R2C) ? -1 : 1;
    int nax = kind == SIG_C2R ? r - 1 : r;
    for (a = 0; a < nax; a++) {
      if (!sig_axis(work, wd, rank, ax[a], sign)) goto oom;
    }
    if (kind == SIG_C2R) {
      int64_t L = len[r - 1];
      int64_t outer = kutil_dims_prod(wd, 0, last);
      int64_t inner = kutil_dims_prod(wd, last + 1, rank);
      int64_t o, j, q;
      sig_plan* p = sig_plan_make(L, 1);
      sig_cd* line = (sig_cd*)tfe_malloc((size_t)(L > 0 ? L : 1) *
                                         sizeof(sig_cd));
      if (p == NULL || line == NULL) {
        sig_plan_free(p);
        tfe_free(line);
        goto oom;
      }
      for (o = 0; o < outer; o++) {
        sig_cd* base = work + o * L * inner;
        for (i = 0; i < inner; i++) {
          for (j = 0; j < L; j++) line[j] = base[j * inner + i];
          /* Hermitian completion */
          line[0].im = 0.0;
          if (L % 2 == 0) line[L / 2].im = 0.0;
          for (q = L / 2 + 1; q < L; q++) {
            line[q].re = line[L - q].re;
            line[q].im = -line[L - q].im;
          }
          sig_exec(p, line);
          for (j = 0; j < L; j++) base[j * inner + i] = line[j];
        }
      }
      sig_plan_free(p);
      tfe_free(line);
    }
  }
  if (kind == SIG_C2C_INV || kind == SIG_C2R) {
    double prod = 1.0;
    for (a = 0; a < r; a++) prod *= (double)len[a];
    if (prod > 0) scale = 1.0 / prod;
  }
  /* Write the output: for R2C keep the first len/2+1 along the real axis. */
  {
    int64_t od[SI_MAX_RANK_K], wstr[SI_MAX_RANK_K];
    for (a = 0; a < rank; a++) od[a] = out->dims[a];
    wstr[rank - 1] = 1;
    for (a = rank - 2; a >= 0; a--) wstr[a] = wstr[a + 1] * wd[a + 1];
    for (a = 0; a < rank; a++) cnt[a] = 0;
    for (idx = 0; idx < nout; idx++) {
      int64_t off = 0;
      sig_cd v;
      for (a = 0; a < rank; a++) off += cnt[a] * wstr[a];
      v = work[off];
      v.re *= scale;
      v.im *= scale;
      sig_store(out, idx, v);
      for (a = rank - 1; a >= 0; a--) {
        if (++cnt[a] < od[a]) break;
        cnt[a] = 0;
      }
    }
  }
  tfe_free(work);
  return;
oom:
  tfe_free(work);
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
             k->op_def->name);
}

/* ---- op kernels ---- */

/* FFT, IFFT, FFT2D, IFFT2D, FFT3D, IFFT3D: rank from the op name. */
static int sig_rank_of(const char* name) {
  size_t n = strlen(name);
  if (n >= 2 && name[n - 1] == 'D' && name[n - 2] >= '1' &&
      name[n - 2] <= '9') {
    return name[n - 2] - '0';
  }
  return 1;
}

static int sig_check_rank(tfe_kernel_context* k, const TF_Tensor* in,
                          int r) {
  if (in->num_dims < r) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input must have rank of at least %d but got: %s", r,
               kutil_tshape(in, &b));
    return 0;
  }
  if (in->num_dims > SI_MAX_RANK_K) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: input rank %d is too large",
               k->op_def->name, in->num_dims);
    return 0;
  }
  return 1;
}

static void sig_c2c_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const char* name = k->op_def->name;
  int r = sig_rank_of(name);
  int inverse = name[0] == 'I';
  int ax[3];
  int64_t len[3];
  int a;
  TF_Tensor* out;
  if (!sig_check_rank(k, in, r)) return;
  out = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims, in->num_dims);
  if (out == NULL) return;
  for (a = 0; a < r; a++) {
    ax[a] = in->num_dims - r + a;
    len[a] = in->dims[ax[a]];
  }
  sig_transform(k, inverse ? SIG_C2C_INV : SIG_C2C_FWD, in, out, ax, len, r);
}

/* Reads fft_length (input 1): a vector of r int32 values >= 0. */
static int sig_fft_length(tfe_kernel_context* k, int r, int64_t* len) {
  const TF_Tensor* fl = k->inputs[1];
  int i;
  if (fl->num_dims != 1 || fl->dims[0] != r) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "fft_length must have shape [%d]", r);
    return 0;
  }
  for (i = 0; i < r; i++) {
    len[i] = kutil_get_int(fl, i);
    if (len[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "fft_length[%d] must >= 0, but got: %lld", i,
                 (long long)len[i]);
      return 0;
    }
  }
  return 1;
}

/* Checks the input's transformed dims against the lengths the transform
 * reads (the real axis of C2R reads len/2+1) and computes the output dims. */
static int sig_real_dims(tfe_kernel_context* k, const TF_Tensor* in, int kind,
                         const int* ax, const int64_t* len, int r,
                         int64_t* od) {
  int a;
  for (a = 0; a < in->num_dims; a++) od[a] = in->dims[a];
  for (a = 0; a < r; a++) {
    int64_t need = len[a];
    int64_t have = in->dims[ax[a]];
    if (kind == SIG_C2R && a == r - 1) need = len[a] / 2 + 1;
    if (have != 0 && have < need) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input dimension %d must have length of at least %lld but "
                 "got: %lld",
                 ax[a], (long long)need, (long long)have);
      return 0;
    }
    od[ax[a]] = (kind == SIG_R2C && a == r - 1) ? len[a] / 2 + 1 : len[a];
  }
  return 1;
}

/* TF registers the real transforms for every (Treal, Tcomplex) pair and
 * refuses mismatched precisions when they run. */
static int sig_real_types(tfe_kernel_context* k, int kind) {
  TF_DataType rt = kind == SIG_R2C ? k->inputs[0]->dtype : k->output_types[0];
  TF_DataType ct = kind == SIG_R2C ? k->output_types[0] : k->inputs[0]->dtype;
  if ((rt == TF_FLOAT && ct == TF_COMPLEX64) ||
      (rt == TF_DOUBLE && ct == TF_COMPLEX128)) {
    return 1;
  }
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Wrong types for %s real FFT: in=%d out=%d",
             kind == SIG_R2C ? "forward" : "backward",
             (int)k->inputs[0]->dtype, (int)k->output_types[0]);
  return 0;
}

static void sig_real_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const char* name = k->op_def->name;
  int r = sig_rank_of(name);
  int kind = name[0] == 'I' ? SIG_C2R : SIG_R2C;
  int ax[3];
  int64_t len[3], od[SI_MAX_RANK_K];
  int a;
  TF_Tensor* out;
  if (!sig_real_types(k, kind)) return;
  if (!sig_check_rank(k, in, r)) return;
  if (!sig_fft_length(k, r, len)) return;
  for (a = 0; a < r; a++) ax[a] = in->num_dims - r + a;
  if (!sig_real_dims(k, in, kind, ax, len, r, od)) return;
  out = tfe_kernel_alloc_output(k, 0, k->output_types[0], od, in->num_dims);
  if (out == NULL) return;
  sig_transform(k, kind, in, out, ax, len, r);
}

/* FFTND, IFFTND, RFFTND, IRFFTND(input, fft_length, axes). TF registers no
 * CPU kernel for these; tfe's follow the GPU kernels' contract: axes are
 * distinct (negative values count from the end), fft_length gives one
 * length per axis, and the last listed axis is the real one. */
static void sig_nd_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* fl = k->inputs[1];
  const TF_Tensor* axt = k->inputs[2];
  const char* name = k->op_def->name;
  int kind;
  int r, a, b;
  int* ax;
  int64_t* len;
  int64_t od[SI_MAX_RANK_K];
  TF_Tensor* out;
  if (name[0] == 'R') {
    kind = SIG_R2C;
  } else if (name[0] == 'F') {
    kind = SIG_C2C_FWD;
  } else {
    kind = name[1] == 'R' ? SIG_C2R : SIG_C2C_INV;
  }
  if ((kind == SIG_R2C || kind == SIG_C2R) && !sig_real_types(k, kind)) {
    return;
  }
  if (axt->num_dims != 1 || fl->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "fft_length and axes must be vectors");
    return;
  }
  if (fl->dims[0] != axt->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "fft_length and axes must have the same length, got %lld "
               "and %lld",
               (long long)fl->dims[0], (long long)axt->dims[0]);
    return;
  }
  if (!sig_check_rank(k, in, (int)(axt->dims[0] < 1 ? 1 : axt->dims[0]))) {
    return;
  }
  r = (int)axt->dims[0];
  if (r == 0) {
    /* no axes: the identity */
    out = tfe_kernel_alloc_output(k, 0, k->output_types[0], in->dims,
                                  in->num_dims);
    if (out == NULL) return;
    if (in->dtype == out->dtype) {
      memcpy(kutil_data(out), kutil_data(in), TF_TensorByteSize(in));
    } else {
      int64_t i, n = kutil_num_elements(in);
      for (i = 0; i < n; i++) sig_store(out, i, sig_load(in, i));
    }
    return;
  }
  ax = (int*)tfe_malloc((size_t)r * sizeof(int));
  len = (int64_t*)tfe_malloc((size_t)r * sizeof(int64_t));
  if (ax == NULL || len == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", name);
    goto done;
  }
  for (a = 0; a < r; a++) {
    int64_t v = kutil_get_int(axt, a);
    if (v < -in->num_dims || v >= in->num_dims) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "axes[%d] = %lld is out of range for an input of rank %d", a,
                 (long long)v, in->num_dims);
      goto done;
    }
    ax[a] = (int)(v < 0 ? v + in->num_dims : v);
    for (b = 0; b < a; b++) {
      if (ax[b] == ax[a]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "axes must be distinct, got %d twice",
                   ax[a]);
        goto done;
      }
    }
    len[a] = kutil_get_int(fl, a);
    if (len[a] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "fft_length[%d] must >= 0, but got: %lld", a,
                 (long long)len[a]);
      goto done;
    }
  }
  if (!sig_real_dims(k, in, kind, ax, len, r, od)) goto done;
  out = tfe_kernel_alloc_output(k, 0, k->output_types[0], od, in->num_dims);
  if (out != NULL) sig_transform(k, kind, in, out, ax, len, r);
done:
  tfe_free(ax);
  tfe_free(len);
}

void tfe_register_cpu_signal_kernels(void) {
  static const TF_DataType cplx[] = {TF_COMPLEX64, TF_COMPLEX128};
  static const TF_DataType real[] = {TF_FLOAT, TF_DOUBLE};
  static const char* const c2c[] = {"FFT",   "IFFT",   "FFT2D",
                                    "IFFT2D", "FFT3D", "IFFT3D"};
  static const char* const r2c[] = {"RFFT",   "IRFFT",  "RFFT2D",
                                    "IRFFT2D", "RFFT3D", "IRFFT3D"};
  static const char* const nd[] = {"FFTND", "IFFTND"};
  static const char* const rnd[] = {"RFFTND", "IRFFTND"};
  size_t i;
  for (i = 0; i < sizeof c2c / sizeof c2c[0]; i++) {
    tfe_kutil_register(c2c[i], sig_c2c_compute, "Tcomplex", cplx, 2, NULL,
                       NULL, 0);
  }
  for (i = 0; i < sizeof r2c / sizeof r2c[0]; i++) {
    tfe_kutil_register(r2c[i], sig_real_compute, "Tcomplex", cplx, 2, "Treal",
                       real, 2);
  }
  for (i = 0; i < 2; i++) {
    tfe_kutil_register(nd[i], sig_nd_compute, "Tcomplex", cplx, 2, NULL, NULL,
                       0);
    tfe_kutil_register(rnd[i], sig_nd_compute, "Tcomplex", cplx, 2, "Treal",
                       real, 2);
  }
  tfe_register_cpu_signal_color_kernels();
  tfe_register_cpu_signal_image_kernels();
}
