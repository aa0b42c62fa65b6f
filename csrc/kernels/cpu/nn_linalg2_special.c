/* CPU kernels: the Fresnel integrals FresnelCos and FresnelSin (float,
 * double; issue 18, session 8), C(x) = int_0^x cos(pi t^2 / 2) dt and
 * S(x) = int_0^x sin(pi t^2 / 2) dt, evaluated in double:
 *  - |x| < 1.5: their Maclaurin series (alternating, at most a few dozen
 *    terms);
 *  - larger |x|: C + iS = (1 + i)/2 * (1 - erfc(z)) with
 *    z = sqrt(pi)/2 (1 - i) |x|, erfc from its continued fraction (modified
 *    Lentz), which converges quickly there;
 *  - |x| beyond 1e15: the limit 1/2 (the oscillating correction is far
 *    below double resolution).
 * Both functions are odd; NaN stays NaN. */
#include <complex.h>
#include <math.h>

#include "core/complex_compat.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_linalg2_common.h"

static const double kPi = 3.14159265358979323846;

static void fresnel_series(double x, double* c, double* s) {
  double t = kPi / 2 * x * x, t2 = t * t;
  double sc = 0, ss = 0, pc, ps;
  int n;
  /* C: sum (-1)^n t^(2n) x / ((2n)! (4n+1));
   * S: sum (-1)^n t^(2n+1) x / ((2n+1)! (4n+3)) */
  pc = x;      /* (-1)^n t^(2n) x / (2n)! */
  ps = x * t;  /* (-1)^n t^(2n+1) x / (2n+1)! */
  for (n = 0; n < 60; n++) {
    double dc = pc / (4 * n + 1), ds = ps / (4 * n + 3);
    sc += dc;
    ss += ds;
    if (fabs(dc) < 1e-17 * fabs(sc) && fabs(ds) < 1e-17 * fabs(ss)) break;
    pc = -pc * t2 / ((2.0 * n + 1) * (2.0 * n + 2));
    ps = -ps * t2 / ((2.0 * n + 2) * (2.0 * n + 3));
  }
  *c = sc;
  *s = ss;
}

/* erfc(z) for Re z > 0 through the even continued fraction
 * erfc(z) = z e^{-z^2} / sqrt(pi) * 1 / (z^2 + 1/2 - (1*2/4) / (z^2 + 5/2 -
 * (3*4/4) / (z^2 + 9/2 - ...))). */
static double _Complex erfc_cf(double _Complex z) {
  double _Complex z2 = z * z, b, cc, d, f, del, a;
  const double tiny = 1e-300;
  int n;
  b = z2 + 0.5;
  f = b;
  if (cabs(f) == 0) f = tiny;
  cc = f;
  d = 0;
  for (n = 1; n < 500; n++) {
    a = -(double)n * (2.0 * n - 1) / 2.0;
    b = z2 + 0.5 + 2.0 * n;
    d = b + a * d;
    if (cabs(d) == 0) d = tiny;
    cc = b + a / cc;
    if (cabs(cc) == 0) cc = tiny;
    d = 1.0 / d;
    del = cc * d;
    f *= del;
    if (cabs(del - 1.0) < 1e-16) break;
  }
  return z * cexp(-z2) / sqrt(kPi) / f;
}

static void fresnel(double x, double* c, double* s) {
  double ax = fabs(x), sg = x < 0 ? -1 : 1;
  if (isnan(x)) {
    *c = *s = x;
    return;
  }
  if (ax < 1.5) {
    fresnel_series(ax, c, s);
  } else if (ax > 1e15) {
    *c = *s = 0.5;
  } else {
    double r = sqrt(kPi) / 2 * ax;
    double _Complex z = CMPLX(r, -r);
    double _Complex w = CMPLX(0.5, 0.5) * (1.0 - erfc_cf(z));
    *c = creal(w);
    *s = cimag(w);
  }
  *c *= sg;
  *s *= sg;
}

static void fresnel_kernel(tfe_kernel_context* k, int sin_part) {
  const TF_Tensor* x = k->inputs[0];
  int64_t n = kutil_num_elements(x), i;
  TF_Tensor* o = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (o == NULL) return;
  for (i = 0; i < n; i++) {
    double c, s;
    fresnel(nnl2_load(x->dtype, kutil_data(x), i), &c, &s);
    nnl2_store(x->dtype, kutil_data(o), i, sin_part ? s : c);
  }
}

static void fresnel_cos_compute(tfe_kernel_context* k) { fresnel_kernel(k, 0); }
static void fresnel_sin_compute(tfe_kernel_context* k) { fresnel_kernel(k, 1); }

void tfe_nn_linalg2_register_special(void) {
  static const TF_DataType kFD[] = {TF_FLOAT, TF_DOUBLE};
  tfe_kutil_register("FresnelCos", fresnel_cos_compute, "T", kFD, 2, NULL,
                     NULL, 0);
  tfe_kutil_register("FresnelSin", fresnel_sin_compute, "T", kFD, 2, NULL,
                     NULL, 0);
}
