/* Neural-network kernels through the kernel registry: Conv2D (padding
 * modes, strides, dilations, groups, dtypes) and its two gradients against
 * direct-loop references, DepthwiseConv2dNative, MaxPool/AvgPool, and
 * FusedBatchNormV3, ResizeBilinear/NearestNeighbor and the cross-entropy
 * ops against values recorded from TensorFlow 2.21's CPU kernels; plus
 * the errors each op raises, with TF's codes. */
#include <math.h>
#include <stdlib.h>

#include "kernel_test_util.h"

static TF_Status* S;
static tfe_attrs A;
static TF_Tensor* OUT[KT_MAX_IO];

static void begin(void) {
  if (S == NULL) S = TF_NewStatus();
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
}

static void free_outs(int n) {
  int i;
  for (i = 0; i < n; i++) {
    TF_DeleteTensor(OUT[i]);
    OUT[i] = NULL;
  }
}

static uint32_t rng_state = 12345;
static double urand(void) {
  rng_state = rng_state * 1664525u + 1013904223u;
  return (double)(rng_state >> 8) / 16777216.0 * 2.0 - 1.0;
}

static TF_Tensor* rand_tensor(TF_DataType dt, const int64_t* dims, int nd,
                              double** copy, int ints) {
  int64_t n = tfe_shape_num_elements(dims, nd), i;
  double* v = (double*)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  TF_Tensor* t;
  for (i = 0; i < n; i++) {
    v[i] = ints ? (double)((int)(urand() * 4)) : urand();
    if (dt == TF_HALF) v[i] = kutil_f16_to_f32(kutil_f32_to_f16((float)v[i]));
    if (dt == TF_FLOAT) v[i] = (float)v[i];
  }
  t = kt_tensor(dt, dims, nd, v);
  *copy = v;
  return t;
}

static void set_window(const int64_t* strides, const char* padding,
                       const int64_t* dil, const int64_t* explicit_pads) {
  kt_attr_ints(&A, "strides", strides, 4);
  kt_attr_string(&A, "padding", padding);
  if (dil != NULL) kt_attr_ints(&A, "dilations", dil, 4);
  if (explicit_pads != NULL) kt_attr_ints(&A, "explicit_paddings", explicit_pads, 8);
}

/* Output size and leading pad as TF computes them. */
static void out_size(int64_t in, int64_t k, int64_t s, int64_t d,
                     const char* pad, int64_t eb, int64_t ea, int64_t* out,
                     int64_t* before) {
  int64_t eff = (k - 1) * d + 1;
  if (strcmp(pad, "VALID") == 0) {
    *out = (in - eff + s) / s;
    *before = 0;
  } else if (strcmp(pad, "SAME") == 0) {
    int64_t tot;
    *out = (in + s - 1) / s;
    tot = (*out - 1) * s + eff - in;
    *before = tot > 0 ? tot / 2 : 0;
  } else {
    *out = (in + eb + ea - eff + s) / s;
    *before = eb;
  }
}

typedef struct geom {
  int64_t n, ih, iw, ic, kh, kw, fic, oc, oh, ow, pt, pl, sh, sw, dh, dw;
} geom;

static void make_geom(geom* g, const int64_t* x, const int64_t* f,
                      const int64_t* st, const int64_t* dil, const char* pad,
                      const int64_t* ep) {
  g->n = x[0];
  g->ih = x[1];
  g->iw = x[2];
  g->ic = x[3];
  g->kh = f[0];
  g->kw = f[1];
  g->fic = f[2];
  g->oc = f[3];
  g->sh = st[1];
  g->sw = st[2];
  g->dh = dil ? dil[1] : 1;
  g->dw = dil ? dil[2] : 1;
  out_size(g->ih, g->kh, g->sh, g->dh, pad, ep ? ep[2] : 0, ep ? ep[3] : 0,
           &g->oh, &g->pt);
  out_size(g->iw, g->kw, g->sw, g->dw, pad, ep ? ep[4] : 0, ep ? ep[5] : 0,
           &g->ow, &g->pl);
}

/* Direct convolution (grouped) in double: y[n,oh,ow,oc]. */
static double* ref_conv(const geom* g, const double* x, const double* f) {
  int64_t groups = g->ic / g->fic, ocg = g->oc / groups;
  double* y = (double*)calloc((size_t)(g->n * g->oh * g->ow * g->oc + 1), sizeof(double));
  int64_t b, oy, ox, o, i, j, c;
  for (b = 0; b < g->n; b++)
    for (oy = 0; oy < g->oh; oy++)
      for (ox = 0; ox < g->ow; ox++)
        for (o = 0; o < g->oc; o++) {
          double acc = 0;
          int64_t grp = o / ocg;
          for (i = 0; i < g->kh; i++)
            for (j = 0; j < g->kw; j++) {
              int64_t iy = oy * g->sh - g->pt + i * g->dh;
              int64_t ix = ox * g->sw - g->pl + j * g->dw;
              if (iy < 0 || iy >= g->ih || ix < 0 || ix >= g->iw) continue;
              for (c = 0; c < g->fic; c++) {
                acc += x[((b * g->ih + iy) * g->iw + ix) * g->ic + grp * g->fic + c] *
                       f[((i * g->kw + j) * g->fic + c) * g->oc + o];
              }
            }
          y[((b * g->oh + oy) * g->ow + ox) * g->oc + o] = acc;
        }
  return y;
}

static void check_close(const TF_Tensor* t, const double* want, int64_t n,
                        double tol, const char* what) {
  int64_t i;
  CHECK(t != NULL);
  for (i = 0; i < n; i++) {
    double g = kt_get(t, i);
    if (fabs(g - want[i]) > tol * (1 + fabs(want[i]))) {
      TFE_FAIL("%s: element %lld is %.9g, expected %.9g", what, (long long)i,
               g, want[i]);
    }
  }
}

static void conv_case(TF_DataType dt, const int64_t* xd, const int64_t* fd,
                      const int64_t* st, const int64_t* dil, const char* pad,
                      const int64_t* ep, double tol) {
  double *xv, *fv, *want;
  TF_Tensor* in[2];
  geom g;
  int n;
  begin();
  in[0] = rand_tensor(dt, xd, 4, &xv, dt == TF_INT32);
  in[1] = rand_tensor(dt, fd, 4, &fv, dt == TF_INT32);
  set_window(st, pad, dil, ep);
  make_geom(&g, xd, fd, st, dil, pad, ep);
  want = ref_conv(&g, xv, fv);
  n = kt_run("Conv2D", &A, in, 2, OUT, S);
  CHECK_CODE(S, TF_OK);
  CHECK_EQ_INT(n, 1);
  CHECK_EQ_INT(OUT[0]->dtype, dt);
  kt_check_shape(OUT[0], (const int64_t[]){g.n, g.oh, g.ow, g.oc}, 4,
                 __FILE__, __LINE__);
  check_close(OUT[0], want, g.n * g.oh * g.ow * g.oc, tol, "Conv2D");
  free_outs(1);
  free(xv);
  free(fv);
  free(want);
}

static const int64_t S1[4] = {1, 1, 1, 1}, S2[4] = {1, 2, 2, 1},
                     S21[4] = {1, 2, 1, 1}, D2[4] = {1, 2, 2, 1};

TEST(conv2d_matches_direct_convolution) {
  const int64_t x[4] = {2, 7, 6, 3}, f[4] = {3, 3, 3, 4};
  const int64_t ep[8] = {0, 0, 1, 2, 0, 3, 0, 0};
  conv_case(TF_FLOAT, x, f, S1, NULL, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S1, NULL, "VALID", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S2, NULL, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S21, NULL, "VALID", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S1, D2, "SAME", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S2, D2, "VALID", NULL, 1e-5);
  conv_case(TF_FLOAT, x, f, S1, NULL, "EXPLICIT", ep, 1e-5);
  conv_case(TF_FLOAT, x, f, S2, NULL, "EXPLICIT", ep, 1e-5);
  conv_case(TF_DOUBLE, x, f, S2, D2, "SAME", NULL, 1e-12);
  conv_case(TF_HALF, x, f, S1, NULL, "SAME", NULL, 1e-2);
  conv_case(TF_BFLOAT16, x, f, S1, NULL, "SAME", NULL, 1e-1);
  conv_case(TF_INT32, x, f, S1, NULL, "SAME", NULL, 0);
}

TEST(conv2d_pointwise_grouped_and_large) {
  /* 1x1 stride 1: the input is used directly as the GEMM operand */
  conv_case(TF_FLOAT, (const int64_t[]){2, 5, 4, 6}, (const int64_t[]){1, 1, 6, 3},
            S1, NULL, "VALID", NULL, 1e-5);
  /* groups: input depth 4, filter depth 2 -> 2 groups */
  conv_case(TF_FLOAT, (const int64_t[]){1, 5, 5, 4}, (const int64_t[]){3, 3, 2, 6},
            S1, NULL, "SAME", NULL, 1e-5);
  conv_case(TF_DOUBLE, (const int64_t[]){1, 5, 5, 6}, (const int64_t[]){2, 2, 2, 3},
            S2, NULL, "SAME", NULL, 1e-12);
  /* several tiles per image and several images (parallel tiles) */
  conv_case(TF_FLOAT, (const int64_t[]){3, 40, 37, 16}, (const int64_t[]){3, 3, 16, 8},
            S1, NULL, "SAME", NULL, 1e-4);
}

TEST(conv2d_tf_value_and_empty_shapes) {
  TF_Tensor* in[2];
  begin();
  /* TF: ones[1,4,4,4] * ones[3,3,2,4] SAME (2 groups): corners 8 */
  in[0] = kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 4), NULL);
  in[1] = kt_tensor(TF_FLOAT, KT_DIMS(3, 3, 2, 4), NULL);
  {
    int64_t i;
    for (i = 0; i < 64; i++) ((float*)TF_TensorData(in[0]))[i] = 1;
    for (i = 0; i < 72; i++) ((float*)TF_TensorData(in[1]))[i] = 1;
  }
  set_window(S1, "SAME", NULL, NULL);
  CHECK_EQ_INT(kt_run("Conv2D", &A, in, 2, OUT, S), 1);
  CHECK(kt_get(OUT[0], 0) == 8 && kt_get(OUT[0], 4) == 12 &&
        kt_get(OUT[0], 20) == 18);
  free_outs(1);
  /* empty batch and zero output channels */
  begin();
  in[0] = kt_tensor(TF_FLOAT, KT_DIMS(0, 4, 4, 2), NULL);
  in[1] = kt_tensor(TF_FLOAT, KT_DIMS(3, 3, 2, 3), NULL);
  set_window(S1, "SAME", NULL, NULL);
  CHECK_EQ_INT(kt_run("Conv2D", &A, in, 2, OUT, S), 1);
  kt_check_shape(OUT[0], KT_DIMS(0, 4, 4, 3), __FILE__, __LINE__);
  free_outs(1);
  begin();
  in[0] = kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 2), NULL);
  in[1] = kt_tensor(TF_FLOAT, KT_DIMS(5, 5, 2, 3), NULL);
  set_window(S1, "VALID", NULL, NULL);
  CHECK_EQ_INT(kt_run("Conv2D", &A, in, 2, OUT, S), 1);
  kt_check_shape(OUT[0], KT_DIMS(1, 0, 0, 3), __FILE__, __LINE__);
  free_outs(1);
}

static void conv_error(const int64_t* xd, int xn, const int64_t* fd, int fn,
                       const int64_t* st, int stn, const char* pad,
                       const char* fmt, const int64_t* dil,
                       const int64_t* ep, int epn, TF_Code code,
                       const char* msg) {
  TF_Tensor* in[2];
  begin();
  in[0] = kt_tensor(TF_FLOAT, xd, xn, NULL);
  in[1] = kt_tensor(TF_FLOAT, fd, fn, NULL);
  kt_attr_ints(&A, "strides", st, stn);
  kt_attr_string(&A, "padding", pad);
  if (fmt) kt_attr_string(&A, "data_format", fmt);
  if (dil) kt_attr_ints(&A, "dilations", dil, 4);
  if (ep) kt_attr_ints(&A, "explicit_paddings", ep, epn);
  CHECK_EQ_INT(kt_run("Conv2D", &A, in, 2, OUT, S), -1);
  CHECK_CODE(S, code);
  CHECK_STR_CONTAINS(TF_Message(S), msg);
}

TEST(conv2d_errors) {
  const int64_t x[4] = {1, 4, 4, 2}, w[4] = {3, 3, 2, 3};
  conv_error(x, 4, w, 4, S1, 4, "SAME", "NCHW", NULL, NULL, 0,
             TF_UNIMPLEMENTED,
             "The Conv2D op currently only supports the NHWC tensor format "
             "on the CPU. The op was given the format: NCHW");
  conv_error(x, 3, w, 4, S1, 4, "SAME", NULL, NULL, NULL, 0,
             TF_INVALID_ARGUMENT,
             "convolution input must be 4-dimensional: [1,4,4]");
  conv_error(x, 4, w, 3, S1, 4, "SAME", NULL, NULL, NULL, 0,
             TF_INVALID_ARGUMENT,
             "convolution filter must be 4-dimensional: [3,3,2]");
  conv_error(x, 4, w, 4, S1, 3, "SAME", NULL, NULL, NULL, 0,
             TF_INVALID_ARGUMENT,
             "Sliding window strides field must specify 4 dimensions");
  conv_error(x, 4, w, 4, (const int64_t[]){2, 1, 1, 1}, 4, "SAME", NULL, NULL,
             NULL, 0, TF_UNIMPLEMENTED,
             "does not yet support strides in the batch and depth");
  conv_error(x, 4, w, 4, S1, 4, "SAME", NULL, (const int64_t[]){2, 1, 1, 1},
             NULL, 0, TF_UNIMPLEMENTED,
             "does not yet support dilations in the batch and depth");
  conv_error(x, 4, w, 4, (const int64_t[]){1, 0, 1, 1}, 4, "SAME", NULL, NULL,
             NULL, 0, TF_INVALID_ARGUMENT,
             "Row and column strides should be larger than 0.");
  conv_error(x, 4, w, 4, S1, 4, "SAME", NULL, (const int64_t[]){1, 0, 1, 1},
             NULL, 0, TF_INVALID_ARGUMENT,
             "Dilated rates should be larger than 0.");
  conv_error(x, 4, (const int64_t[]){3, 3, 3, 3}, 4, S1, 4, "SAME", NULL,
             NULL, NULL, 0, TF_INVALID_ARGUMENT,
             "input depth must be evenly divisible by filter depth: 2 vs 3");
  conv_error((const int64_t[]){1, 4, 4, 4}, 4, (const int64_t[]){3, 3, 2, 3},
             4, S1, 4, "SAME", NULL, NULL, NULL, 0, TF_INVALID_ARGUMENT,
             "output depth must be evenly divisible by number of groups: 3 "
             "vs 2");
  conv_error(x, 4, w, 4, S1, 4, "EXPLICIT", NULL, NULL,
             (const int64_t[]){0, 0, 1, 1}, 4, TF_INVALID_ARGUMENT,
             "explicit_paddings attribute must contain 8 values, but got: 4");
  conv_error(x, 4, w, 4, S1, 4, "EXPLICIT", NULL, NULL,
             (const int64_t[]){1, 0, 1, 1, 1, 1, 0, 0}, 8, TF_INVALID_ARGUMENT,
             "Nonzero explicit padding in the batch or depth dimensions");
  conv_error(x, 4, w, 4, S1, 4, "EXPLICIT", NULL, NULL,
             (const int64_t[]){0, 0, -1, 1, 1, 1, 0, 0}, 8,
             TF_INVALID_ARGUMENT,
             "All elements of explicit_paddings must be nonnegative");
  conv_error(x, 4, w, 4, S1, 4, "SAME", NULL, NULL,
             (const int64_t[]){0, 0, 1, 1, 1, 1, 0, 0}, 8,
             TF_INVALID_ARGUMENT,
             "explicit_paddings attribute must be empty if the padding "
             "attribute is not EXPLICIT");
  conv_error(x, 4, (const int64_t[]){7, 3, 2, 3}, 4, S1, 4, "VALID", NULL,
             NULL, NULL, 0, TF_INVALID_ARGUMENT,
             "Computed output size would be negative: -2");
}

/* ---- gradients ---- */

static void backprop_case(TF_DataType dt, const int64_t* xd, const int64_t* fd,
                          const int64_t* st, const int64_t* dil,
                          const char* pad, double tol) {
  geom g;
  double *xv, *fv, *dyv;
  double *dx, *dw;
  int64_t b, oy, ox, o, i, j, c, groups, ocg;
  TF_Tensor* in[3];
  make_geom(&g, xd, fd, st, dil, pad, NULL);
  groups = g.ic / g.fic;
  ocg = g.oc / groups;
  begin();
  in[0] = rand_tensor(dt, xd, 4, &xv, 0);
  in[1] = rand_tensor(dt, fd, 4, &fv, 0);
  in[2] = rand_tensor(dt, (const int64_t[]){g.n, g.oh, g.ow, g.oc}, 4, &dyv, 0);
  dx = (double*)calloc((size_t)(g.n * g.ih * g.iw * g.ic + 1), sizeof(double));
  dw = (double*)calloc((size_t)(g.kh * g.kw * g.fic * g.oc + 1), sizeof(double));
  for (b = 0; b < g.n; b++)
    for (oy = 0; oy < g.oh; oy++)
      for (ox = 0; ox < g.ow; ox++)
        for (o = 0; o < g.oc; o++) {
          double d = dyv[((b * g.oh + oy) * g.ow + ox) * g.oc + o];
          int64_t grp = o / ocg;
          for (i = 0; i < g.kh; i++)
            for (j = 0; j < g.kw; j++) {
              int64_t iy = oy * g.sh - g.pt + i * g.dh;
              int64_t ix = ox * g.sw - g.pl + j * g.dw;
              if (iy < 0 || iy >= g.ih || ix < 0 || ix >= g.iw) continue;
              for (c = 0; c < g.fic; c++) {
                int64_t xi = ((b * g.ih + iy) * g.iw + ix) * g.ic + grp * g.fic + c;
                int64_t fi = ((i * g.kw + j) * g.fic + c) * g.oc + o;
                dx[xi] += d * fv[fi];
                dw[fi] += d * xv[xi];
              }
            }
        }
  /* Conv2DBackpropInput(input_sizes, filter, dy) */
  {
    TF_Tensor* bi[3];
    double sizes[4] = {(double)xd[0], (double)xd[1], (double)xd[2], (double)xd[3]};
    bi[0] = kt_vec(TF_INT32, 4, sizes);
    bi[1] = in[1];
    bi[2] = in[2];
    set_window(st, pad, dil, NULL);
    CHECK_EQ_INT(kt_run("Conv2DBackpropInput", &A, bi, 3, OUT, S), 1);
    CHECK_CODE(S, TF_OK);
    kt_check_shape(OUT[0], xd, 4, __FILE__, __LINE__);
    check_close(OUT[0], dx, g.n * g.ih * g.iw * g.ic, tol, "BackpropInput");
    free_outs(1);
  }
  begin();
  {
    TF_Tensor* bf[3];
    double sizes[4] = {(double)fd[0], (double)fd[1], (double)fd[2], (double)fd[3]};
    bf[0] = in[0];
    bf[1] = kt_vec(TF_INT32, 4, sizes);
    bf[2] = kt_tensor(dt, (const int64_t[]){g.n, g.oh, g.ow, g.oc}, 4, dyv);
    set_window(st, pad, dil, NULL);
    CHECK_EQ_INT(kt_run("Conv2DBackpropFilter", &A, bf, 3, OUT, S), 1);
    CHECK_CODE(S, TF_OK);
    kt_check_shape(OUT[0], fd, 4, __FILE__, __LINE__);
    check_close(OUT[0], dw, g.kh * g.kw * g.fic * g.oc, tol, "BackpropFilter");
    free_outs(1);
  }
  free(xv);
  free(fv);
  free(dyv);
  free(dx);
  free(dw);
}

TEST(conv2d_gradients_match_direct_loops) {
  backprop_case(TF_FLOAT, (const int64_t[]){2, 6, 5, 3}, (const int64_t[]){3, 3, 3, 4},
                S1, NULL, "SAME", 1e-4);
  backprop_case(TF_FLOAT, (const int64_t[]){1, 7, 7, 2}, (const int64_t[]){3, 2, 2, 3},
                S2, NULL, "VALID", 1e-4);
  backprop_case(TF_DOUBLE, (const int64_t[]){1, 8, 8, 2}, (const int64_t[]){3, 3, 2, 2},
                S1, D2, "SAME", 1e-10);
  backprop_case(TF_DOUBLE, (const int64_t[]){1, 6, 6, 4}, (const int64_t[]){3, 3, 2, 4},
                S2, NULL, "SAME", 1e-10);
}

TEST(conv2d_gradient_errors) {
  TF_Tensor* in[3];
  begin();
  in[0] = kt_vec(TF_INT32, 3, KT_V(1, 4, 4));
  in[1] = kt_tensor(TF_FLOAT, KT_DIMS(3, 3, 2, 3), NULL);
  in[2] = kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 3), NULL);
  set_window(S1, "SAME", NULL, NULL);
  CHECK_EQ_INT(kt_run("Conv2DBackpropInput", &A, in, 3, OUT, S), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Conv2DBackpropInput requires input_sizes to contain 4 "
                     "values or 2 values, but got: 3");
  begin();
  in[0] = kt_vec(TF_INT32, 4, KT_V(1, 4, 4, 2));
  in[1] = kt_tensor(TF_FLOAT, KT_DIMS(3, 3, 2, 3), NULL);
  in[2] = kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 4, 3), NULL);
  set_window(S1, "SAME", NULL, NULL);
  CHECK_EQ_INT(kt_run("Conv2DBackpropInput", &A, in, 3, OUT, S), -1);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Conv2DCustomBackpropInput: Size of out_backprop doesn't "
                     "match computed: actual = 3, computed = 4 spatial_dim: 1 "
                     "input: 4 filter: 3 output: 3 stride: 1 dilation: 1");
  begin();
  in[0] = kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 2), NULL);
  in[1] = kt_vec(TF_INT32, 4, KT_V(3, 3, 2, 3));
  in[2] = kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 4, 3), NULL);
  set_window(S1, "SAME", NULL, NULL);
  CHECK_EQ_INT(kt_run("Conv2DBackpropFilter", &A, in, 3, OUT, S), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Conv2DCustomBackpropFilter: Size of out_backprop");
  /* two input_sizes values: batch from out_backprop, depth from filter */
  begin();
  in[0] = kt_vec(TF_INT32, 2, KT_V(4, 4));
  in[1] = kt_tensor(TF_FLOAT, KT_DIMS(3, 3, 2, 3), NULL);
  in[2] = kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 3), NULL);
  memset(TF_TensorData(in[1]), 0, 54 * 4);
  memset(TF_TensorData(in[2]), 0, 48 * 4);
  set_window(S1, "SAME", NULL, NULL);
  CHECK_EQ_INT(kt_run("Conv2DBackpropInput", &A, in, 3, OUT, S), 1);
  kt_check_shape(OUT[0], KT_DIMS(1, 4, 4, 2), __FILE__, __LINE__);
  free_outs(1);
}

/* ---- depthwise ---- */

TEST(depthwise_conv_matches_direct_loops) {
  const int64_t xd[4] = {2, 6, 7, 3}, fd[4] = {3, 2, 3, 2};
  const char* pads[2] = {"SAME", "VALID"};
  int p, s;
  for (p = 0; p < 2; p++) {
    for (s = 0; s < 2; s++) {
      double *xv, *fv;
      TF_Tensor* in[2];
      geom g;
      int64_t b, oy, ox, c, m, i, j;
      const int64_t* st = s ? S2 : S1;
      begin();
      in[0] = rand_tensor(TF_FLOAT, xd, 4, &xv, 0);
      in[1] = rand_tensor(TF_FLOAT, fd, 4, &fv, 0);
      set_window(st, pads[p], NULL, NULL);
      make_geom(&g, xd, (const int64_t[]){3, 2, 3, 6}, st, NULL, pads[p], NULL);
      CHECK_EQ_INT(kt_run("DepthwiseConv2dNative", &A, in, 2, OUT, S), 1);
      kt_check_shape(OUT[0], (const int64_t[]){2, g.oh, g.ow, 6}, 4, __FILE__, __LINE__);
      for (b = 0; b < 2; b++)
        for (oy = 0; oy < g.oh; oy++)
          for (ox = 0; ox < g.ow; ox++)
            for (c = 0; c < 3; c++)
              for (m = 0; m < 2; m++) {
                double acc = 0;
                for (i = 0; i < 3; i++)
                  for (j = 0; j < 2; j++) {
                    int64_t iy = oy * g.sh - g.pt + i, ix = ox * g.sw - g.pl + j;
                    if (iy < 0 || iy >= 6 || ix < 0 || ix >= 7) continue;
                    acc += xv[((b * 6 + iy) * 7 + ix) * 3 + c] *
                           fv[((i * 2 + j) * 3 + c) * 2 + m];
                  }
                CHECK(fabs(kt_get(OUT[0], ((b * g.oh + oy) * g.ow + ox) * 6 + c * 2 + m) - acc) < 1e-5);
              }
      free_outs(1);
      free(xv);
      free(fv);
    }
  }
  /* errors */
  {
    TF_Tensor* in[2];
    begin();
    in[0] = kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 2), NULL);
    in[1] = kt_tensor(TF_FLOAT, KT_DIMS(3, 3, 3, 2), NULL);
    set_window(S1, "SAME", NULL, NULL);
    CHECK_EQ_INT(kt_run("DepthwiseConv2dNative", &A, in, 2, OUT, S), -1);
    CHECK_CODE(S, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(S),
                       "input and filter must have the same depth: 2 vs 3");
    begin();
    in[0] = kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 2), NULL);
    in[1] = kt_tensor(TF_FLOAT, KT_DIMS(3, 3, 2, 2), NULL);
    set_window((const int64_t[]){1, 1, 2, 1}, "SAME", NULL, NULL);
    CHECK_EQ_INT(kt_run("DepthwiseConv2dNative", &A, in, 2, OUT, S), -1);
    CHECK_STR_CONTAINS(TF_Message(S), "equal length strides in the row and column");
  }
}

/* ---- pooling ---- */

static TF_Tensor* range_img(TF_DataType dt, int64_t n) {
  double v[64];
  int64_t i;
  for (i = 0; i < n; i++) v[i] = (double)i;
  return kt_tensor(dt, (const int64_t[]){1, 4, 4, 1}, 4, v);
}

static void pool_attrs(const int64_t* ks, const int64_t* st, const char* pad) {
  kt_attr_ints(&A, "ksize", ks, 4);
  kt_attr_ints(&A, "strides", st, 4);
  kt_attr_string(&A, "padding", pad);
}

TEST(pooling_values_match_tensorflow) {
  static const TF_DataType kMaxTypes[] = {TF_FLOAT, TF_DOUBLE, TF_HALF,
                                          TF_BFLOAT16, TF_INT32, TF_INT64,
                                          TF_UINT8, TF_INT16, TF_INT8,
                                          TF_UINT16};
  TF_Tensor* in[1];
  size_t t;
  for (t = 0; t < sizeof kMaxTypes / sizeof kMaxTypes[0]; t++) {
    /* TF: MaxPool 2x2/2 EXPLICIT pads (1,1,1,1) over range(16) */
    begin();
    in[0] = range_img(kMaxTypes[t], 16);
    pool_attrs((const int64_t[]){1, 2, 2, 1}, S2, "EXPLICIT");
    kt_attr_ints(&A, "explicit_paddings", (const int64_t[]){0, 0, 1, 1, 1, 1, 0, 0}, 8);
    CHECK_EQ_INT(kt_run("MaxPool", &A, in, 1, OUT, S), 1);
    KT_CHECK(OUT[0], kMaxTypes[t], KT_DIMS(1, 3, 3, 1),
             KT_V(0, 2, 3, 8, 10, 11, 12, 14, 15));
    free_outs(1);
  }
  /* MaxPool SAME 3x3/2 and VALID 2x2/1 */
  begin();
  in[0] = range_img(TF_FLOAT, 16);
  pool_attrs((const int64_t[]){1, 3, 3, 1}, S2, "SAME");
  CHECK_EQ_INT(kt_run("MaxPool", &A, in, 1, OUT, S), 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 2, 2, 1), KT_V(10, 11, 14, 15));
  free_outs(1);
  /* AvgPool SAME 3x3/2 (TF: 5, 6.5, 11, 12.5): padding not counted */
  begin();
  in[0] = range_img(TF_FLOAT, 16);
  pool_attrs((const int64_t[]){1, 3, 3, 1}, S2, "SAME");
  CHECK_EQ_INT(kt_run("AvgPool", &A, in, 1, OUT, S), 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 2, 2, 1), KT_V(5, 6.5, 11, 12.5));
  free_outs(1);
  begin();
  in[0] = range_img(TF_DOUBLE, 16);
  pool_attrs((const int64_t[]){1, 2, 2, 1}, S1, "VALID");
  CHECK_EQ_INT(kt_run("AvgPool", &A, in, 1, OUT, S), 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(1, 3, 3, 1),
           KT_V(2.5, 3.5, 4.5, 6.5, 7.5, 8.5, 10.5, 11.5, 12.5));
  free_outs(1);
  /* window larger than the input with VALID: empty output (TF) */
  begin();
  in[0] = range_img(TF_FLOAT, 16);
  pool_attrs((const int64_t[]){1, 5, 5, 1}, S1, "VALID");
  CHECK_EQ_INT(kt_run("MaxPool", &A, in, 1, OUT, S), 1);
  kt_check_shape(OUT[0], KT_DIMS(1, 0, 0, 1), __FILE__, __LINE__);
  free_outs(1);
}

static void pool_error(const char* op, const int64_t* ks, const int64_t* st,
                       const char* fmt, int rank, TF_Code code,
                       const char* msg) {
  TF_Tensor* in[1];
  begin();
  in[0] = rank == 4 ? kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 2), NULL)
                    : kt_tensor(TF_FLOAT, KT_DIMS(4, 4, 2), NULL);
  pool_attrs(ks, st, "VALID");
  if (fmt) kt_attr_string(&A, "data_format", fmt);
  CHECK_EQ_INT(kt_run(op, &A, in, 1, OUT, S), -1);
  CHECK_CODE(S, code);
  CHECK_STR_CONTAINS(TF_Message(S), msg);
}

TEST(pooling_errors) {
  const int64_t k2[4] = {1, 2, 2, 1};
  pool_error("MaxPool", k2, S2, "NCHW", 4, TF_INVALID_ARGUMENT,
             "Default MaxPoolingOp only supports NHWC on device type CPU");
  pool_error("AvgPool", k2, S2, "NCHW", 4, TF_INVALID_ARGUMENT,
             "Default AvgPoolingOp only supports NHWC on device type CPU");
  pool_error("MaxPool", (const int64_t[]){2, 2, 2, 1}, S2, NULL, 4,
             TF_UNIMPLEMENTED, "Pooling is not yet supported on the batch dimension.");
  pool_error("AvgPool", k2, (const int64_t[]){2, 2, 2, 1}, NULL, 4,
             TF_UNIMPLEMENTED, "Pooling is not yet supported on the batch dimension.");
  pool_error("MaxPool", (const int64_t[]){1, 2, 2, 2}, S2, NULL, 4,
             TF_UNIMPLEMENTED,
             "MaxPooling supports exactly one of pooling across depth or "
             "pooling across width/height.");
  pool_error("MaxPool", (const int64_t[]){1, 0, 2, 1}, S2, NULL, 4,
             TF_INVALID_ARGUMENT,
             "Sliding window ksize must be positive. The specified or "
             "inferred ksize is: 1,0,2,1");
  pool_error("MaxPool", k2, S2, NULL, 3, TF_INVALID_ARGUMENT,
             "tensor_in_shape must have 2 spatial dimensions. 3 0");
}

/* ---- FusedBatchNormV3 (values recorded from TF 2.21) ---- */

static TF_Tensor* fbn_x(TF_DataType dt) {
  double v[24];
  int i;
  for (i = 0; i < 24; i++) v[i] = i;
  return kt_tensor(dt, (const int64_t[]){2, 2, 3, 2}, 4, v);
}

static int run_fbn(TF_DataType dt, const double* mean, int nm,
                   const double* var, int nv, int training, float factor,
                   const char* fmt) {
  TF_Tensor* in[5];
  tfe_attr_value v;
  in[0] = fbn_x(dt);
  in[1] = kt_vec(TF_FLOAT, 2, KT_V(1, 2));
  in[2] = kt_vec(TF_FLOAT, 2, KT_V(0.5, 0));
  in[3] = kt_vec(TF_FLOAT, nm, mean);
  in[4] = kt_vec(TF_FLOAT, nv, var);
  kt_attr_bool(&A, "is_training", training);
  /* the NCHW values were recorded with TF's default epsilon */
  tfe_attr_value_set_float(&v, fmt != NULL ? 0.0001f : 0.001f);
  tfe_attrs_put(&A, "epsilon", &v);
  tfe_attr_value_set_float(&v, factor);
  tfe_attrs_put(&A, "exponential_avg_factor", &v);
  if (fmt) kt_attr_string(&A, "data_format", fmt);
  return kt_run("FusedBatchNormV3", &A, in, 5, OUT, S);
}

TEST(fused_batch_norm_matches_tensorflow) {
  begin();
  CHECK_EQ_INT(run_fbn(TF_FLOAT, KT_V(0, 0), 2, KT_V(1, 1), 2, 1, 1.0f, NULL), 6);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(2, 2, 3, 2),
               KT_V(-1.0932382345, -3.186476469, -0.8035585880, -2.607117176,
                    -0.5138788223, -2.0277576446, -0.2241991758, -1.4483983516,
                    0.0654804706, -0.8690390586, 0.3551601767, -0.2896796762,
                    0.6448398232, 0.2896796762, 0.9345195293, 0.8690390586,
                    1.2241991758, 1.4483983516, 1.5138788223, 2.0277576446,
                    1.8035585880, 2.607117176, 2.0932383537, 3.186476469),
               2e-6);
  KT_CHECK_TOL(OUT[1], TF_FLOAT, KT_DIMS(2), KT_V(11, 12), 1e-6);
  KT_CHECK_TOL(OUT[2], TF_FLOAT, KT_DIMS(2), KT_V(52.0000038, 52.0000038), 1e-4);
  KT_CHECK_TOL(OUT[3], TF_FLOAT, KT_DIMS(2), KT_V(11, 12), 1e-6);
  KT_CHECK_TOL(OUT[4], TF_FLOAT, KT_DIMS(2), KT_V(47.666668, 47.666668), 1e-4);
  KT_CHECK(OUT[5], TF_FLOAT, KT_DIMS(0), NULL); /* TF 2.21 gives an empty vector */
  free_outs(6);
  /* exponential_avg_factor 0.5 blends the running statistics */
  begin();
  CHECK_EQ_INT(run_fbn(TF_FLOAT, KT_V(1, 2), 2, KT_V(3, 4), 2, 1, 0.5f, NULL), 6);
  KT_CHECK_TOL(OUT[1], TF_FLOAT, KT_DIMS(2), KT_V(6, 7), 1e-6);
  KT_CHECK_TOL(OUT[2], TF_FLOAT, KT_DIMS(2), KT_V(27.5, 28), 1e-4);
  free_outs(6);
  /* training with empty running statistics */
  begin();
  CHECK_EQ_INT(run_fbn(TF_FLOAT, NULL, 0, NULL, 0, 1, 1.0f, NULL), 6);
  KT_CHECK_TOL(OUT[1], TF_FLOAT, KT_DIMS(2), KT_V(11, 12), 1e-6);
  free_outs(6);
  /* inference */
  begin();
  CHECK_EQ_INT(run_fbn(TF_FLOAT, KT_V(1, 2), 2, KT_V(3, 4), 2, 0, 1.0f, NULL), 6);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(2, 2, 3, 2),
               KT_V(-0.0772541165, -0.9998750686, 1.0772540569, 0.9998750686,
                    2.2317624092, 2.9996252059, 3.3862705230, 4.9993753433,
                    4.5407786369, 6.9991254806, 5.6952872276, 8.9988756179,
                    6.8497953415, 10.998625755, 8.0043029785, 12.998375892,
                    9.1588115692, 14.998126029, 10.313320159, 16.997875213,
                    11.467827796, 18.997627258, 12.622336387, 20.997375488),
               3e-6);
  KT_CHECK(OUT[1], TF_FLOAT, KT_DIMS(2), KT_V(1, 2));
  KT_CHECK(OUT[2], TF_FLOAT, KT_DIMS(2), KT_V(3, 4));
  free_outs(6);
  /* NCHW inference (channels on axis 1) */
  begin();
  CHECK_EQ_INT(run_fbn(TF_FLOAT, KT_V(1, 2), 2, KT_V(3, 4), 2, 0, 1.0f, "NCHW"), 6);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(2, 2, 3, 2),
               KT_V(-0.0773406624, 0.5, 1.0773406028, 1.6546813249,
                    2.2320220470, 2.8093626499, 3.9999499320, 4.9999375343,
                    5.9999246597, 6.9999122619, 7.9998998641, 8.9998874664,
                    6.8507471084, 7.4280881881, 8.0054283142, 8.5827693939,
                    9.1601095199, 9.7374505996, 15.999799728, 16.999786376,
                    17.999774932, 18.999761581, 19.999750137, 20.999736785),
               3e-6);
  free_outs(6);
  /* NCHW training */
  begin();
  CHECK_EQ_INT(run_fbn(TF_FLOAT, KT_V(1, 2), 2, KT_V(3, 4), 2, 1, 1.0f, "NCHW"), 6);
  KT_CHECK_TOL(OUT[1], TF_FLOAT, KT_DIMS(2), KT_V(8.5, 14.5), 1e-5);
  KT_CHECK_TOL(OUT[2], TF_FLOAT, KT_DIMS(2), KT_V(42.454547, 42.454547), 1e-4);
  KT_CHECK_TOL(OUT[4], TF_FLOAT, KT_DIMS(2), KT_V(38.916668, 38.916668), 1e-4);
  free_outs(6);
  /* half input, float statistics */
  begin();
  CHECK_EQ_INT(run_fbn(TF_HALF, KT_V(1, 2), 2, KT_V(3, 4), 2, 0, 1.0f, NULL), 6);
  KT_CHECK_TOL(OUT[0], TF_HALF, KT_DIMS(2, 2, 3, 2),
               KT_V(-0.07733154296875, -1.0, 1.0771484375, 1.0, 2.232421875, 3.0,
                    3.38671875, 5.0, 4.54296875, 7.0, 5.6953125, 9.0, 6.8515625,
                    11.0, 8.0078125, 13.0, 9.15625, 15.0, 10.3125, 17.0, 11.46875,
                    19.0, 12.625, 21.0),
               1e-2);
  free_outs(6);
}

TEST(fused_batch_norm_errors) {
  TF_Tensor* in[5];
  begin();
  CHECK_EQ_INT(run_fbn(TF_FLOAT, KT_V(1), 1, KT_V(3, 4), 2, 0, 1.0f, NULL), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "When is_training=false, mean must have the same number "
                     "of elements as the channels of x, got 1 and 2");
  begin();
  CHECK_EQ_INT(run_fbn(TF_FLOAT, KT_V(1, 2), 2, KT_V(3), 1, 0, 1.0f, NULL), -1);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "When is_training=false, variance must have the same "
                     "number of elements as the channels of x, got 1 and 2");
  begin();
  in[0] = kt_tensor(TF_FLOAT, KT_DIMS(2, 3, 2), NULL);
  in[1] = kt_vec(TF_FLOAT, 2, KT_V(1, 2));
  in[2] = kt_vec(TF_FLOAT, 2, KT_V(1, 2));
  in[3] = kt_vec(TF_FLOAT, 2, KT_V(1, 2));
  in[4] = kt_vec(TF_FLOAT, 2, KT_V(1, 2));
  CHECK_EQ_INT(kt_run("FusedBatchNormV3", &A, in, 5, OUT, S), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "input must be 4 or 5-dimensional[2,3,2]");
  begin();
  in[0] = fbn_x(TF_FLOAT);
  in[1] = kt_vec(TF_FLOAT, 3, KT_V(1, 2, 3));
  in[2] = kt_vec(TF_FLOAT, 2, KT_V(1, 2));
  in[3] = kt_vec(TF_FLOAT, 2, KT_V(1, 2));
  in[4] = kt_vec(TF_FLOAT, 2, KT_V(1, 2));
  CHECK_EQ_INT(kt_run("FusedBatchNormV3", &A, in, 5, OUT, S), -1);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "scale must have the same number of elements as the "
                     "channels of x, got 3 and 2");
}

/* ---- resizing (values recorded from TF 2.21) ---- */

static int run_resize(const char* op, TF_DataType dt, int h, int w,
                      int align, int half) {
  TF_Tensor* in[2];
  in[0] = range_img(dt, 16);
  in[1] = kt_vec(TF_INT32, 2, (const double[]){h, w});
  kt_attr_bool(&A, "align_corners", align);
  kt_attr_bool(&A, "half_pixel_centers", half);
  return kt_run(op, &A, in, 2, OUT, S);
}

TEST(resize_matches_tensorflow) {
  static const TF_DataType kTypes[] = {TF_FLOAT, TF_INT32, TF_UINT8,
                                       TF_DOUBLE, TF_HALF};
  size_t t;
  for (t = 0; t < sizeof kTypes / sizeof kTypes[0]; t++) {
    begin();
    CHECK_EQ_INT(run_resize("ResizeBilinear", kTypes[t], 3, 5, 0, 0), 1);
    KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(1, 3, 5, 1),
                 KT_V(0.0, 0.8, 1.6, 2.4, 3.0, 5.3333335, 6.1333337, 6.9333334,
                      7.7333336, 8.333334, 10.666667, 11.466667, 12.266667,
                      13.066667, 13.666667),
                 1e-5);
    free_outs(1);
    begin();
    CHECK_EQ_INT(run_resize("ResizeNearestNeighbor", kTypes[t], 3, 5, 0, 0), 1);
    KT_CHECK(OUT[0], kTypes[t], KT_DIMS(1, 3, 5, 1),
             KT_V(0, 0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9, 10, 11));
    free_outs(1);
  }
  begin();
  CHECK_EQ_INT(run_resize("ResizeBilinear", TF_FLOAT, 3, 5, 1, 0), 1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(1, 3, 5, 1),
               KT_V(0, 0.75, 1.5, 2.25, 3, 6, 6.75, 7.5, 8.25, 9, 12, 12.75,
                    13.5, 14.25, 15),
               1e-6);
  free_outs(1);
  begin();
  CHECK_EQ_INT(run_resize("ResizeBilinear", TF_FLOAT, 3, 5, 0, 1), 1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(1, 3, 5, 1),
               KT_V(0.6666667, 1.3666668, 2.1666667, 2.9666667, 3.6666667, 6.0,
                    6.6999998, 7.5, 8.3000002, 9.0, 11.333334, 12.033334,
                    12.833334, 13.633334, 14.333334),
               1e-5);
  free_outs(1);
  begin();
  CHECK_EQ_INT(run_resize("ResizeNearestNeighbor", TF_FLOAT, 3, 5, 1, 0), 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 3, 5, 1),
           KT_V(0, 1, 2, 2, 3, 8, 9, 10, 10, 11, 12, 13, 14, 14, 15));
  free_outs(1);
  begin();
  CHECK_EQ_INT(run_resize("ResizeNearestNeighbor", TF_FLOAT, 3, 5, 0, 1), 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 3, 5, 1),
           KT_V(0, 1, 2, 2, 3, 8, 9, 10, 10, 11, 12, 13, 14, 14, 15));
  free_outs(1);
  begin();
  CHECK_EQ_INT(run_resize("ResizeNearestNeighbor", TF_FLOAT, 7, 9, 0, 1), 1);
  {
    /* rows: 0,0,1,2,2,3,3 of the 4x4 image; columns 0,0,1,1,2,2,2,3,3 */
    static const int rows[7] = {0, 0, 1, 2, 2, 3, 3};
    static const int cols[9] = {0, 0, 1, 1, 2, 2, 2, 3, 3};
    int y, x;
    for (y = 0; y < 7; y++)
      for (x = 0; x < 9; x++) CHECK(kt_get(OUT[0], y * 9 + x) == rows[y] * 4 + cols[x]);
  }
  free_outs(1);
}

TEST(resize_errors) {
  TF_Tensor* in[2];
  const char* ops[2] = {"ResizeBilinear", "ResizeNearestNeighbor"};
  int i;
  for (i = 0; i < 2; i++) {
    begin();
    CHECK_EQ_INT(run_resize(ops[i], TF_FLOAT, 3, 5, 1, 1), -1);
    CHECK_CODE(S, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(S),
                       "If half_pixel_centers is True, align_corners must be "
                       "False.");
    begin();
    CHECK_EQ_INT(run_resize(ops[i], TF_FLOAT, 0, 5, 0, 0), -1);
    CHECK_STR_CONTAINS(TF_Message(S), "output dimensions must be positive");
    begin();
    in[0] = kt_tensor(TF_FLOAT, KT_DIMS(4, 4, 1), NULL);
    in[1] = kt_vec(TF_INT32, 2, KT_V(3, 5));
    CHECK_EQ_INT(kt_run(ops[i], &A, in, 2, OUT, S), -1);
    CHECK_STR_CONTAINS(TF_Message(S), "input must be 4-dimensional[4,4,1]");
    begin();
    in[0] = kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 1), NULL);
    in[1] = kt_vec(TF_INT32, 3, KT_V(3, 5, 1));
    CHECK_EQ_INT(kt_run(ops[i], &A, in, 2, OUT, S), -1);
    CHECK_STR_CONTAINS(TF_Message(S), "shape_t must have two elements[3]");
    begin();
    in[0] = kt_tensor(TF_FLOAT, KT_DIMS(1, 0, 4, 1), NULL);
    in[1] = kt_vec(TF_INT32, 2, KT_V(3, 5));
    CHECK_EQ_INT(kt_run(ops[i], &A, in, 2, OUT, S), -1);
    CHECK_STR_CONTAINS(TF_Message(S), "input image must be of non-zero size");
  }
}

/* ---- cross entropy (values recorded from TF 2.21) ---- */

TEST(cross_entropy_matches_tensorflow) {
  static const TF_DataType kTypes[] = {TF_FLOAT, TF_DOUBLE, TF_HALF, TF_BFLOAT16};
  size_t t;
  for (t = 0; t < 4; t++) {
    TF_Tensor* in[2];
    double tol = kTypes[t] == TF_BFLOAT16 ? 2e-2 : kTypes[t] == TF_HALF ? 2e-3 : 1e-6;
    begin();
    in[0] = kt_tensor(kTypes[t], KT_DIMS(2, 3), KT_V(1, 2, 3, 1, 1, 1));
    in[1] = kt_vec(TF_INT64, 2, KT_V(2, 0));
    CHECK_EQ_INT(kt_run("SparseSoftmaxCrossEntropyWithLogits", &A, in, 2, OUT, S), 2);
    KT_CHECK_TOL(OUT[0], kTypes[t], KT_DIMS(2), KT_V(0.40760594606, 1.0986123085), tol);
    KT_CHECK_TOL(OUT[1], kTypes[t], KT_DIMS(2, 3),
                 KT_V(0.0900305733, 0.2447284758, -0.3347590565, -0.6666666269,
                      0.3333333432, 0.3333333432),
                 tol);
    free_outs(2);
    begin();
    in[0] = kt_tensor(kTypes[t], KT_DIMS(2, 3), KT_V(1, 2, 3, 1, 1, 1));
    in[1] = kt_tensor(kTypes[t], KT_DIMS(2, 3), KT_V(0, 0, 1, 0.5, 0.5, 0));
    CHECK_EQ_INT(kt_run("SoftmaxCrossEntropyWithLogits", &A, in, 2, OUT, S), 2);
    KT_CHECK_TOL(OUT[0], kTypes[t], KT_DIMS(2), KT_V(0.40760594606, 1.0986123085), tol);
    KT_CHECK_TOL(OUT[1], kTypes[t], KT_DIMS(2, 3),
                 KT_V(0.0900305733, 0.2447284758, -0.3347590565, -0.1666666567,
                      -0.1666666567, 0.3333333432),
                 tol);
    free_outs(2);
  }
  /* labels broadcast over the batch */
  {
    TF_Tensor* in[2];
    begin();
    in[0] = kt_tensor(TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 2, 3, 1, 1, 1));
    in[1] = kt_tensor(TF_FLOAT, KT_DIMS(1, 3), KT_V(0, 0, 1));
    CHECK_EQ_INT(kt_run("SoftmaxCrossEntropyWithLogits", &A, in, 2, OUT, S), 2);
    KT_CHECK_TOL(OUT[1], TF_FLOAT, KT_DIMS(2, 3),
                 KT_V(0.0900305733, 0.2447284758, -0.3347590565, 0.3333333432,
                      0.3333333432, -0.6666666269),
                 1e-6);
    free_outs(2);
  }
}

static void xent_error(const char* op, TF_Tensor* a, TF_Tensor* b,
                       const char* msg) {
  TF_Tensor* in[2] = {a, b};
  CHECK_EQ_INT(kt_run(op, &A, in, 2, OUT, S), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), msg);
}

TEST(cross_entropy_errors) {
  const char* sp = "SparseSoftmaxCrossEntropyWithLogits";
  begin();
  xent_error(sp, kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL), kt_vec(TF_INT32, 2, KT_V(5, 0)),
             "Received a label value of 5 which is outside the valid range "
             "of [0, 3).  Label values: 5 0");
  begin();
  xent_error(sp, kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL), kt_vec(TF_INT64, 2, KT_V(-1, 0)),
             "Received a label value of -1 which is outside the valid range");
  begin();
  xent_error(sp, kt_vec(TF_FLOAT, 2, KT_V(1, 2)), kt_vec(TF_INT64, 1, KT_V(0)),
             "logits must be 2-D, but got shape [2]");
  begin();
  xent_error(sp, kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL),
             kt_tensor(TF_INT64, KT_DIMS(2, 1), KT_V(0, 1)),
             "labels must be 1-D, but got shape [2,1]");
  begin();
  xent_error(sp, kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL), kt_vec(TF_INT64, 3, KT_V(0, 1, 2)),
             "logits and labels must have the same first dimension, got "
             "logits shape [2,3] and labels shape [3]");
  begin();
  xent_error(sp, kt_tensor(TF_FLOAT, KT_DIMS(2, 0), NULL), kt_vec(TF_INT64, 2, KT_V(0, 0)),
             "Must have at least one class, but got logits shape [2,0]");
  begin();
  xent_error("SoftmaxCrossEntropyWithLogits", kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL),
             kt_tensor(TF_FLOAT, KT_DIMS(2, 2), NULL),
             "logits and labels must be broadcastable: logits_size=[2,3] "
             "labels_size=[2,2]");
  begin();
  xent_error("SoftmaxCrossEntropyWithLogits", kt_vec(TF_FLOAT, 2, KT_V(1, 2)),
             kt_vec(TF_FLOAT, 2, KT_V(0, 1)),
             "logits and labels must be either 2-dimensional, or broadcasted "
             "to be 2-dimensional");
}

TFE_TEST_MAIN
