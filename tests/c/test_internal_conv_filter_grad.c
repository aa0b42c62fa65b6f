/* Conv2DBackpropFilter's direct float32 kernel
 * (tfe_conv_direct_filter_grad_f32 in csrc/kernels/cpu/conv_direct.c)
 * against a double-precision loop: odd sizes, strides, dilations,
 * SAME/VALID/EXPLICIT padding, batches, groups, channel counts that are
 * not multiples of the register blocks, half/bfloat16 (float work) and
 * double (the im2col path); and called directly on pools of 1..3 threads,
 * which must give the same bits. */
#include <math.h>
#include <stdlib.h>

#include "core/threadpool.h"
#define CONV_TEST_SEED 4242u
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

/* df in double, and the sum of |terms| of each element (error scale). */
static void ref_filter_grad(const geom* g, const double* x, const double* dy,
                            double* df, double* mag) {
  int64_t groups = g->ic / g->fic, ocg = g->oc / groups;
  int64_t b, oy, ox, o, i, j, c;
  for (b = 0; b < g->n; b++)
    for (oy = 0; oy < g->oh; oy++)
      for (ox = 0; ox < g->ow; ox++)
        for (o = 0; o < g->oc; o++) {
          const double gy = dy[((b * g->oh + oy) * g->ow + ox) * g->oc + o];
          const int64_t grp = o / ocg;
          for (i = 0; i < g->kh; i++)
            for (j = 0; j < g->kw; j++) {
              int64_t iy = oy * g->sh - g->pt + i * g->dh;
              int64_t ix = ox * g->sw - g->pl + j * g->dw;
              if (iy < 0 || iy >= g->ih || ix < 0 || ix >= g->iw) continue;
              for (c = 0; c < g->fic; c++) {
                double xv = x[((b * g->ih + iy) * g->iw + ix) * g->ic +
                              grp * g->fic + c];
                int64_t fi = ((i * g->kw + j) * g->fic + c) * g->oc + o;
                df[fi] += xv * gy;
                mag[fi] += fabs(xv * gy);
              }
            }
        }
}

static int check_close(const TF_Tensor* t, const double* want,
                       const double* mag, int64_t n, double rel, double abs_mag,
                       const char* what) {
  int64_t i;
  CHECK(t != NULL);
  for (i = 0; i < n; i++) {
    double got = kt_get(t, i);
    double tol = rel * fabs(want[i]) + abs_mag * mag[i] + 1e-6;
    if (!(fabs(got - want[i]) <= tol)) {
      TFE_FAIL("%s: element %lld is %.9g, expected %.9g", what, (long long)i,
               got, want[i]);
      return 0;
    }
  }
  return 1;
}

static void filter_case(TF_DataType dt, const int64_t* xd, const int64_t* fd,
                        const int64_t* st, const int64_t* dil, const char* pad,
                        const int64_t* ep) {
  geom g;
  double *xv, *dyv, *df, *mag;
  TF_Tensor* in[3];
  int64_t nf = tfe_shape_num_elements(fd, 4);
  double sizes[4] = {(double)fd[0], (double)fd[1], (double)fd[2],
                     (double)fd[3]};
  double rel = dt == TF_HALF ? 1e-3 : dt == TF_BFLOAT16 ? 8e-3 : 0;
  make_geom(&g, xd, fd, st, dil, pad, ep);
  begin();
  in[0] = rand_tensor(dt, xd, &xv);
  in[1] = kt_vec(TF_INT32, 4, sizes);
  in[2] = rand_tensor(dt, (const int64_t[]){g.n, g.oh, g.ow, g.oc}, &dyv);
  df = (double*)calloc((size_t)(nf + 1), sizeof(double));
  mag = (double*)calloc((size_t)(nf + 1), sizeof(double));
  ref_filter_grad(&g, xv, dyv, df, mag);
  kt_attr_ints(&A, "strides", st, 4);
  kt_attr_string(&A, "padding", pad);
  if (dil != NULL) kt_attr_ints(&A, "dilations", dil, 4);
  if (ep != NULL) kt_attr_ints(&A, "explicit_paddings", ep, 8);
  CHECK_EQ_INT(kt_run("Conv2DBackpropFilter", &A, in, 3, OUT, S), 1);
  CHECK_CODE(S, TF_OK);
  kt_check_shape(OUT[0], fd, 4, __FILE__, __LINE__);
  check_close(OUT[0], df, mag, nf, rel, dt == TF_DOUBLE ? 1e-12 : 2e-6,
              "Conv2DBackpropFilter");
  TF_DeleteTensor(OUT[0]);
  OUT[0] = NULL;
  free(xv);
  free(dyv);
  free(df);
  free(mag);
}

static const int64_t S1[4] = {1, 1, 1, 1}, S2[4] = {1, 2, 2, 1},
                     S12[4] = {1, 1, 2, 1}, S3[4] = {1, 3, 3, 1},
                     D2[4] = {1, 2, 2, 1}, D31[4] = {1, 3, 1, 1};

TEST(filter_grad_odd_sizes_and_channel_tails) {
  /* out channels below, at and past the 16/32/64-wide panels; in channels
   * not multiples of the 6/12/24-row blocks */
  filter_case(TF_FLOAT, (const int64_t[]){2, 17, 19, 13},
              (const int64_t[]){3, 3, 13, 21}, S1, NULL, "SAME", NULL);
  filter_case(TF_FLOAT, (const int64_t[]){1, 9, 11, 5},
              (const int64_t[]){3, 3, 5, 70}, S1, NULL, "SAME", NULL);
  filter_case(TF_FLOAT, (const int64_t[]){1, 6, 7, 3},
              (const int64_t[]){2, 2, 3, 1}, S1, NULL, "VALID", NULL);
  filter_case(TF_FLOAT, (const int64_t[]){1, 5, 8, 1},
              (const int64_t[]){3, 3, 1, 33}, S1, NULL, "SAME", NULL);
  filter_case(TF_FLOAT, (const int64_t[]){1, 10, 10, 16},
              (const int64_t[]){3, 3, 16, 64}, S1, NULL, "SAME", NULL);
  filter_case(TF_FLOAT, (const int64_t[]){2, 12, 10, 40},
              (const int64_t[]){3, 3, 40, 112}, S1, NULL, "SAME", NULL);
  filter_case(TF_FLOAT, (const int64_t[]){1, 4, 4, 7},
              (const int64_t[]){1, 1, 7, 129}, S1, NULL, "VALID", NULL);
  filter_case(TF_FLOAT, (const int64_t[]){1, 8, 9, 4},
              (const int64_t[]){4, 2, 4, 6}, S1, NULL, "SAME", NULL);
  /* wide rows (one output row per tile) */
  filter_case(TF_FLOAT, (const int64_t[]){1, 3, 150, 8},
              (const int64_t[]){3, 3, 8, 16}, S1, NULL, "SAME", NULL);
}

TEST(filter_grad_strides_dilations_and_padding) {
  const int64_t x[4] = {2, 11, 13, 6}, f[4] = {3, 3, 6, 40};
  const int64_t ep_big[8] = {0, 0, 5, 1, 4, 6, 0, 0};
  const int64_t ep_small[8] = {0, 0, 0, 2, 1, 0, 0, 0};
  filter_case(TF_FLOAT, x, f, S2, NULL, "SAME", NULL);
  filter_case(TF_FLOAT, x, f, S2, NULL, "VALID", NULL);
  filter_case(TF_FLOAT, x, f, S12, NULL, "SAME", NULL);
  filter_case(TF_FLOAT, x, f, S3, NULL, "SAME", NULL);
  filter_case(TF_FLOAT, x, f, S1, D2, "SAME", NULL);
  filter_case(TF_FLOAT, x, f, S1, D31, "VALID", NULL);
  filter_case(TF_FLOAT, x, f, S2, D2, "SAME", NULL);
  filter_case(TF_FLOAT, x, f, S1, NULL, "EXPLICIT", ep_big);
  filter_case(TF_FLOAT, x, f, S2, NULL, "EXPLICIT", ep_small);
  filter_case(TF_FLOAT, (const int64_t[]){1, 23, 21, 3},
              (const int64_t[]){7, 7, 3, 16}, S2, NULL, "SAME", NULL);
  filter_case(TF_FLOAT, (const int64_t[]){1, 5, 5, 2},
              (const int64_t[]){5, 5, 2, 3}, S1, NULL, "VALID", NULL);
  /* up to 4 input channels: the padded-input path (blocks span taps) */
  {
    const int64_t xs[4] = {2, 11, 13, 3}, fs[4] = {3, 3, 3, 20};
    const int64_t x1[4] = {3, 9, 10, 1}, f1[4] = {4, 3, 1, 70};
    filter_case(TF_FLOAT, xs, fs, S2, D2, "SAME", NULL);
    filter_case(TF_FLOAT, xs, fs, S1, D31, "VALID", NULL);
    filter_case(TF_FLOAT, xs, fs, S1, NULL, "EXPLICIT", ep_big);
    filter_case(TF_FLOAT, xs, fs, S2, NULL, "EXPLICIT", ep_small);
    filter_case(TF_FLOAT, xs, fs, S3, NULL, "SAME", NULL);
    filter_case(TF_FLOAT, x1, f1, S12, NULL, "SAME", NULL);
    filter_case(TF_HALF, x1, f1, S1, D2, "SAME", NULL);
  }
}

TEST(filter_grad_groups_batches_and_other_types) {
  filter_case(TF_FLOAT, (const int64_t[]){2, 8, 7, 6},
              (const int64_t[]){3, 3, 2, 9}, S1, NULL, "SAME", NULL);
  filter_case(TF_FLOAT, (const int64_t[]){3, 6, 5, 8},
              (const int64_t[]){3, 3, 4, 80}, S2, NULL, "SAME", NULL);
  filter_case(TF_FLOAT, (const int64_t[]){3, 30, 31, 8},
              (const int64_t[]){3, 3, 8, 64}, S1, NULL, "SAME", NULL);
  filter_case(TF_HALF, (const int64_t[]){2, 9, 7, 5},
              (const int64_t[]){3, 3, 5, 18}, S1, NULL, "SAME", NULL);
  filter_case(TF_BFLOAT16, (const int64_t[]){1, 6, 6, 4},
              (const int64_t[]){3, 3, 4, 8}, S1, NULL, "VALID", NULL);
  filter_case(TF_DOUBLE, (const int64_t[]){2, 7, 9, 5},
              (const int64_t[]){3, 3, 5, 7}, S2, NULL, "SAME", NULL);
}

/* Direct calls on pools of 1..3 threads give the same bits. */
TEST(filter_grad_same_bits_on_any_pool) {
  tfe_conv_desc d;
  geom g;
  const int64_t xd[4] = {3, 13, 9, 30}, fd[4] = {3, 3, 30, 50};
  double *xv, *dyv, *want, *mag;
  float *df1, *df2;
  TF_Tensor *tx, *tdy;
  int64_t nf = tfe_shape_num_elements(fd, 4), i;
  int threads;
  if (!tfe_conv_direct_available()) return; /* CPU without AVX2 */
  make_geom(&g, xd, fd, S1, NULL, "SAME", NULL);
  tx = rand_tensor(TF_FLOAT, xd, &xv);
  tdy = rand_tensor(TF_FLOAT, (const int64_t[]){g.n, g.oh, g.ow, g.oc}, &dyv);
  want = (double*)calloc((size_t)nf, sizeof(double));
  mag = (double*)calloc((size_t)nf, sizeof(double));
  df1 = (float*)malloc(sizeof(float) * (size_t)nf);
  df2 = (float*)malloc(sizeof(float) * (size_t)nf);
  ref_filter_grad(&g, xv, dyv, want, mag);
  memset(&d, 0, sizeof d);
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
  for (i = 0; i < nf; i++) df1[i] = -99.0f;
  CHECK_EQ_INT(tfe_conv_direct_filter_grad_f32(&d, (const float*)TF_TensorData(tx),
                                               (const float*)TF_TensorData(tdy),
                                               df1, NULL),
               1);
  for (i = 0; i < nf; i++) {
    if (!(fabs(df1[i] - want[i]) <= 2e-6 * mag[i] + 1e-6)) {
      TFE_FAIL("element %lld: %.9g vs %.9g", (long long)i, df1[i], want[i]);
      break;
    }
  }
  for (threads = 1; threads <= 3; threads++) {
    tfe_threadpool* pool = tfe_threadpool_new(threads);
    CHECK(pool != NULL);
    for (i = 0; i < nf; i++) df2[i] = 12345.0f;
    CHECK_EQ_INT(tfe_conv_direct_filter_grad_f32(
                     &d, (const float*)TF_TensorData(tx),
                     (const float*)TF_TensorData(tdy), df2, pool),
                 1);
    CHECK(memcmp(df1, df2, sizeof(float) * (size_t)nf) == 0);
    tfe_threadpool_delete(pool);
  }
  /* no output pixels: the gradient is all zeros */
  d.n = 0;
  CHECK_EQ_INT(tfe_conv_direct_filter_grad_f32(&d, (const float*)TF_TensorData(tx),
                                               (const float*)TF_TensorData(tdy),
                                               df2, NULL),
               1);
  for (i = 0; i < nf; i++) CHECK(df2[i] == 0.0f);
  /* bad grouping is refused */
  d.n = g.n;
  d.groups = 4;
  CHECK_EQ_INT(tfe_conv_direct_filter_grad_f32(&d, (const float*)TF_TensorData(tx),
                                               (const float*)TF_TensorData(tdy),
                                               df2, NULL),
               0);
  TF_DeleteTensor(tx);
  TF_DeleteTensor(tdy);
  free(xv);
  free(dyv);
  free(want);
  free(mag);
  free(df1);
  free(df2);
}

/* The padded-input path (3 input channels, stride 2, 7x7) on pools of
 * 1..3 threads: the same bits. */
TEST(filter_grad_few_channels_same_bits_on_any_pool) {
  tfe_conv_desc d;
  geom g;
  const int64_t xd[4] = {2, 23, 21, 3}, fd[4] = {7, 7, 3, 40};
  double *xv, *dyv, *want, *mag;
  float *df1, *df2;
  TF_Tensor *tx, *tdy;
  int64_t nf = tfe_shape_num_elements(fd, 4), i;
  int threads;
  if (!tfe_conv_direct_available()) return;
  make_geom(&g, xd, fd, S2, NULL, "SAME", NULL);
  tx = rand_tensor(TF_FLOAT, xd, &xv);
  tdy = rand_tensor(TF_FLOAT, (const int64_t[]){g.n, g.oh, g.ow, g.oc}, &dyv);
  want = (double*)calloc((size_t)nf, sizeof(double));
  mag = (double*)calloc((size_t)nf, sizeof(double));
  df1 = (float*)malloc(sizeof(float) * (size_t)nf);
  df2 = (float*)malloc(sizeof(float) * (size_t)nf);
  ref_filter_grad(&g, xv, dyv, want, mag);
  memset(&d, 0, sizeof d);
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
  d.sh = d.sw = 2;
  d.dh = d.dw = 1;
  d.pt = g.pt;
  d.pl = g.pl;
  CHECK_EQ_INT(tfe_conv_direct_filter_grad_f32(&d, (const float*)TF_TensorData(tx),
                                               (const float*)TF_TensorData(tdy),
                                               df1, NULL),
               1);
  for (i = 0; i < nf; i++) {
    if (!(fabs(df1[i] - want[i]) <= 2e-6 * mag[i] + 1e-6)) {
      TFE_FAIL("element %lld: %.9g vs %.9g", (long long)i, df1[i], want[i]);
      break;
    }
  }
  for (threads = 1; threads <= 3; threads++) {
    tfe_threadpool* pool = tfe_threadpool_new(threads);
    CHECK(pool != NULL);
    CHECK_EQ_INT(tfe_conv_direct_filter_grad_f32(
                     &d, (const float*)TF_TensorData(tx),
                     (const float*)TF_TensorData(tdy), df2, pool),
                 1);
    CHECK(memcmp(df1, df2, sizeof(float) * (size_t)nf) == 0);
    tfe_threadpool_delete(pool);
  }
  TF_DeleteTensor(tx);
  TF_DeleteTensor(tdy);
  free(xv);
  free(dyv);
  free(want);
  free(mag);
  free(df1);
  free(df2);
}

TFE_TEST_MAIN
