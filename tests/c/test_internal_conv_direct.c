/* The direct float32 convolution kernel (csrc/kernels/cpu/conv_direct.c)
 * against a double-precision loop: through the Conv2D and
 * Conv2DBackpropInput kernels (odd sizes, padding edges, strides,
 * dilations, groups, batches, channel counts that are not multiples of
 * the register block, half precision) and called directly on pools of
 * several sizes, including pixel tiles that cross rows and images and
 * windows that lie wholly in the padding. */
#include <math.h>
#include <stdlib.h>

#include "core/threadpool.h"
#define CONV_TEST_SEED 777u
#include "conv_test_util.h"
#include "kernels/cpu/conv_direct.h"

static TF_Status* S;
static tfe_attrs A;
static TF_Tensor* OUT[KT_MAX_IO];

static void begin(void) {
  if (S == NULL) S = TF_NewStatus();
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
}

/* Forward convolution and the input gradient in double. */
static void ref_conv(const geom* g, const double* x, const double* f,
                     double* y, const double* dy, double* dx) {
  int64_t groups = g->ic / g->fic, ocg = g->oc / groups;
  int64_t b, oy, ox, o, i, j, c;
  for (b = 0; b < g->n; b++)
    for (oy = 0; oy < g->oh; oy++)
      for (ox = 0; ox < g->ow; ox++)
        for (o = 0; o < g->oc; o++) {
          int64_t yi = ((b * g->oh + oy) * g->ow + ox) * g->oc + o;
          double acc = 0;
          int64_t grp = o / ocg;
          for (i = 0; i < g->kh; i++)
            for (j = 0; j < g->kw; j++) {
              int64_t iy = oy * g->sh - g->pt + i * g->dh;
              int64_t ix = ox * g->sw - g->pl + j * g->dw;
              if (iy < 0 || iy >= g->ih || ix < 0 || ix >= g->iw) continue;
              for (c = 0; c < g->fic; c++) {
                int64_t xi = ((b * g->ih + iy) * g->iw + ix) * g->ic + grp * g->fic + c;
                int64_t fi = ((i * g->kw + j) * g->fic + c) * g->oc + o;
                acc += x[xi] * f[fi];
                if (dx != NULL) dx[xi] += dy[yi] * f[fi];
              }
            }
          if (y != NULL) y[yi] = acc;
        }
}

/* |got - want| within tol scaled by the magnitude of the products summed
 * (sum of |terms| is bounded by fic*kh*kw for values in [-1, 1]). */
static void check_close(const TF_Tensor* t, const double* want, int64_t n,
                        double tol, const char* what) {
  int64_t i;
  CHECK(t != NULL);
  for (i = 0; i < n; i++) {
    double got = kt_get(t, i);
    if (!(fabs(got - want[i]) <= tol * (1 + fabs(want[i])))) {
      TFE_FAIL("%s: element %lld is %.9g, expected %.9g", what, (long long)i,
               got, want[i]);
      return;
    }
  }
}

static void set_window(const int64_t* st, const char* pad, const int64_t* dil,
                       const int64_t* ep) {
  kt_attr_ints(&A, "strides", st, 4);
  kt_attr_string(&A, "padding", pad);
  if (dil != NULL) kt_attr_ints(&A, "dilations", dil, 4);
  if (ep != NULL) kt_attr_ints(&A, "explicit_paddings", ep, 8);
}

/* Conv2D, and Conv2DBackpropInput when the padding is not EXPLICIT. */
static void conv_case(TF_DataType dt, const int64_t* xd, const int64_t* fd,
                      const int64_t* st, const int64_t* dil, const char* pad,
                      const int64_t* ep, double tol) {
  geom g;
  double *xv, *fv, *dyv, *y, *dx;
  TF_Tensor *in[3], *dyt;
  int64_t ny, nx;
  make_geom(&g, xd, fd, st, dil, pad, ep);
  ny = g.n * g.oh * g.ow * g.oc;
  nx = g.n * g.ih * g.iw * g.ic;
  begin();
  in[0] = rand_tensor(dt, xd, &xv);
  in[1] = rand_tensor(dt, fd, &fv);
  dyt = rand_tensor(dt, (const int64_t[]){g.n, g.oh, g.ow, g.oc}, &dyv);
  y = (double*)calloc((size_t)(ny + 1), sizeof(double));
  dx = (double*)calloc((size_t)(nx + 1), sizeof(double));
  ref_conv(&g, xv, fv, y, dyv, dx);
  set_window(st, pad, dil, ep);
  CHECK_EQ_INT(kt_run("Conv2D", &A, in, 2, OUT, S), 1);
  CHECK_CODE(S, TF_OK);
  kt_check_shape(OUT[0], (const int64_t[]){g.n, g.oh, g.ow, g.oc}, 4,
                 __FILE__, __LINE__);
  check_close(OUT[0], y, ny, tol, "Conv2D");
  TF_DeleteTensor(OUT[0]);
  OUT[0] = NULL;
  if (ep == NULL) {
    TF_Tensor* bi[3];
    double sizes[4] = {(double)xd[0], (double)xd[1], (double)xd[2],
                       (double)xd[3]};
    begin();
    bi[0] = kt_vec(TF_INT32, 4, sizes);
    bi[1] = kt_tensor(dt, fd, 4, fv); /* the forward run consumed in[1] */
    bi[2] = dyt;
    set_window(st, pad, dil, NULL);
    CHECK_EQ_INT(kt_run("Conv2DBackpropInput", &A, bi, 3, OUT, S), 1);
    CHECK_CODE(S, TF_OK);
    kt_check_shape(OUT[0], xd, 4, __FILE__, __LINE__);
    check_close(OUT[0], dx, nx, tol, "Conv2DBackpropInput");
    TF_DeleteTensor(OUT[0]);
    OUT[0] = NULL;
  } else {
    TF_DeleteTensor(dyt);
  }
  free(xv);
  free(fv);
  free(dyv);
  free(y);
  free(dx);
}

static const int64_t S1[4] = {1, 1, 1, 1}, S2[4] = {1, 2, 2, 1},
                     S12[4] = {1, 1, 2, 1}, S3[4] = {1, 3, 3, 1},
                     D2[4] = {1, 2, 2, 1}, D31[4] = {1, 3, 1, 1};

TEST(direct_conv_odd_sizes_and_channel_tails) {
  /* out channels below, at and past the register block (16/32/64 wide) */
  conv_case(TF_FLOAT, (const int64_t[]){2, 17, 19, 13},
            (const int64_t[]){3, 3, 13, 21}, S1, NULL, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, (const int64_t[]){1, 9, 11, 5},
            (const int64_t[]){3, 3, 5, 70}, S1, NULL, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, (const int64_t[]){1, 6, 7, 3},
            (const int64_t[]){2, 2, 3, 1}, S1, NULL, "VALID", NULL, 1e-5);
  conv_case(TF_FLOAT, (const int64_t[]){1, 5, 8, 1},
            (const int64_t[]){3, 3, 1, 33}, S1, NULL, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, (const int64_t[]){1, 10, 10, 16},
            (const int64_t[]){3, 3, 16, 64}, S1, NULL, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, (const int64_t[]){1, 4, 4, 7},
            (const int64_t[]){1, 1, 7, 129}, S1, NULL, "VALID", NULL, 1e-5);
  /* even filters (asymmetric SAME padding) */
  conv_case(TF_FLOAT, (const int64_t[]){1, 8, 9, 4},
            (const int64_t[]){4, 2, 4, 6}, S1, NULL, "SAME", NULL, 1e-5);
}

TEST(direct_conv_strides_dilations_and_padding_edges) {
  const int64_t x[4] = {2, 11, 13, 6}, f[4] = {3, 3, 6, 40};
  /* pads larger than the filter: whole output rows see only padding */
  const int64_t ep_big[8] = {0, 0, 5, 1, 4, 6, 0, 0};
  const int64_t ep_small[8] = {0, 0, 0, 2, 1, 0, 0, 0};
  conv_case(TF_FLOAT, x, f, S2, NULL, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S2, NULL, "VALID", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S12, NULL, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S3, NULL, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S1, D2, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S1, D31, "VALID", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S2, D2, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S1, NULL, "EXPLICIT", ep_big, 1e-5);
  conv_case(TF_FLOAT, x, f, S2, NULL, "EXPLICIT", ep_small, 1e-5);
  /* a 7x7 stride-2 stem on three channels */
  conv_case(TF_FLOAT, (const int64_t[]){1, 23, 21, 3},
            (const int64_t[]){7, 7, 3, 16}, S2, NULL, "SAME", NULL, 1e-5);
  /* filter as large as the image */
  conv_case(TF_FLOAT, (const int64_t[]){1, 5, 5, 2},
            (const int64_t[]){5, 5, 2, 3}, S1, NULL, "VALID", NULL, 1e-5);
}

TEST(direct_conv_groups_batches_and_half) {
  /* 3 groups of 2 input and 3 output channels */
  conv_case(TF_FLOAT, (const int64_t[]){2, 8, 7, 6},
            (const int64_t[]){3, 3, 2, 9}, S1, NULL, "SAME", NULL, 1e-5);
  /* 2 groups with 40 output channels each (wide block plus a tail) */
  conv_case(TF_FLOAT, (const int64_t[]){3, 6, 5, 8},
            (const int64_t[]){3, 3, 4, 80}, S2, NULL, "SAME", NULL, 1e-5);
  /* many tiles over several images */
  conv_case(TF_FLOAT, (const int64_t[]){3, 30, 31, 8},
            (const int64_t[]){3, 3, 8, 64}, S1, NULL, "SAME", NULL, 1e-5);
  conv_case(TF_HALF, (const int64_t[]){2, 9, 7, 5},
            (const int64_t[]){3, 3, 5, 18}, S1, NULL, "SAME", NULL, 1e-2);
  conv_case(TF_BFLOAT16, (const int64_t[]){1, 6, 6, 4},
            (const int64_t[]){3, 3, 4, 8}, S1, NULL, "VALID", NULL, 1e-1);
}

/* The kernel called directly on pools of 1..3 threads: the same bits
 * whatever the split, and the double reference within tolerance. */
TEST(direct_conv_same_result_on_any_pool) {
  tfe_conv_desc d;
  geom g;
  const int64_t xd[4] = {2, 13, 9, 10}, fd[4] = {3, 3, 10, 50};
  double *xv, *fv, *y;
  float *x, *f, *y1, *y2;
  TF_Tensor *tx, *tf;
  int64_t nx, nf, ny, i;
  int threads;
  if (!tfe_conv_direct_available()) return; /* CPU without AVX2 */
  make_geom(&g, xd, fd, S1, NULL, "SAME", NULL);
  tx = rand_tensor(TF_FLOAT, xd, &xv);
  tf = rand_tensor(TF_FLOAT, fd, &fv);
  nx = tfe_shape_num_elements(xd, 4);
  nf = tfe_shape_num_elements(fd, 4);
  ny = g.n * g.oh * g.ow * g.oc;
  x = (float*)TF_TensorData(tx);
  f = (float*)TF_TensorData(tf);
  y = (double*)calloc((size_t)ny, sizeof(double));
  y1 = (float*)malloc(sizeof(float) * (size_t)ny);
  y2 = (float*)malloc(sizeof(float) * (size_t)ny);
  ref_conv(&g, xv, fv, y, NULL, NULL);
  d.n = g.n;
  d.ih = g.ih;
  d.iw = g.iw;
  d.ic = g.ic;
  d.kh = g.kh;
  d.kw = g.kw;
  d.oh = g.oh;
  d.ow = g.ow;
  d.oc = g.oc;
  d.groups = 1;
  d.sh = d.sw = d.dh = d.dw = 1;
  d.pt = g.pt;
  d.pl = g.pl;
  CHECK_EQ_INT(tfe_conv_direct_f32(&d, x, f, y1, NULL), 1);
  for (i = 0; i < ny; i++) {
    if (fabs(y1[i] - y[i]) > 1e-5 * (1 + fabs(y[i]))) {
      TFE_FAIL("element %lld: %.9g vs %.9g", (long long)i, y1[i], y[i]);
      break;
    }
  }
  for (threads = 2; threads <= 3; threads++) {
    tfe_threadpool* pool = tfe_threadpool_new(threads);
    CHECK(pool != NULL);
    for (i = 0; i < ny; i++) y2[i] = -1234.5f;
    CHECK_EQ_INT(tfe_conv_direct_f32(&d, x, f, y2, pool), 1);
    CHECK(memcmp(y1, y2, sizeof(float) * (size_t)ny) == 0);
    tfe_threadpool_delete(pool);
  }
  /* no output pixels: nothing is written, success */
  d.n = 0;
  CHECK_EQ_INT(tfe_conv_direct_f32(&d, x, f, y2, NULL), 1);
  /* bad grouping is refused */
  d.n = g.n;
  d.groups = 3;
  CHECK_EQ_INT(tfe_conv_direct_f32(&d, x, f, y2, NULL), 0);
  (void)nx;
  (void)nf;
  TF_DeleteTensor(tx);
  TF_DeleteTensor(tf);
  free(xv);
  free(fv);
  free(y);
  free(y1);
  free(y2);
}

TFE_TEST_MAIN
