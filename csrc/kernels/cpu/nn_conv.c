/* Convolution CPU kernels (NHWC): Conv2D (groups, strides, dilations,
 * SAME/VALID/EXPLICIT padding), DepthwiseConv2dNative,
 * Conv2DBackpropInput and Conv2DBackpropFilter.
 *
 * float32 work (float, half, bfloat16) of Conv2D, of Conv2DBackpropFilter
 * and of Conv2DBackpropInput with stride 1 runs the direct kernels of
 * conv_direct.c when the CPU has AVX2 or AVX-512. Otherwise (double, int32,
 * other CPUs, strided input gradients):
 * Conv2D and the two gradients are im2col + GEMM: a tile of output pixels
 * has its input patches gathered into rows of a scratch matrix, which is
 * multiplied by the filter viewed as a [kh*kw*in_c, out_c] matrix (BLAS
 * when loaded, else the built-in GEMM). Tiles of about 4 MiB of patches
 * run on the intra-op pool when the GEMM is the built-in single-threaded
 * one; with a BLAS they run in order and the BLAS uses its own threads.
 * half and bfloat16 compute in float, int32 in double. */
#include <string.h>

#include "core/alloc.h"
#include "core/threadpool.h"
#include "kernels/cpu/conv_direct.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_common.h"

void tfe_register_nn_conv_kernels(void);

#define TILE_BYTES (4u << 20)

typedef struct conv_geom {
  int64_t n, ih, iw, ic;       /* input */
  int64_t kh, kw, fic, oc;     /* filter: fic = in channels per group */
  int64_t oh, ow;              /* output */
  int64_t pad_t, pad_l;
  nn_window w;
  int64_t groups;
} conv_geom;

/* Shape checks shared by Conv2D and its gradients; fills g. */
static int conv_geometry(tfe_kernel_context* k, const char* op,
                         const int64_t* in_dims, const int64_t* f_dims,
                         conv_geom* g) {
  memset(g, 0, sizeof *g);
  if (!nn_read_conv_window(k, op, &g->w, 1)) return 0;
  g->n = in_dims[0];
  g->ih = in_dims[1];
  g->iw = in_dims[2];
  g->ic = in_dims[3];
  g->kh = f_dims[0];
  g->kw = f_dims[1];
  g->fic = f_dims[2];
  g->oc = f_dims[3];
  if (g->fic <= 0 || g->ic % g->fic != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input depth must be evenly divisible by filter depth: %lld "
               "vs %lld",
               (long long)g->ic, (long long)g->fic);
    return 0;
  }
  g->groups = g->ic / g->fic;
  /* An input depth of 0 (sizes given by a tensor) leaves no group, and
   * the group count is a divisor below. */
  if (g->groups <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The number of groups must be positive: input depth %lld, "
               "filter depth %lld",
               (long long)g->ic, (long long)g->fic);
    return 0;
  }
  if (g->oc % g->groups != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "output depth must be evenly divisible by number of groups: "
               "%lld vs %lld",
               (long long)g->oc, (long long)g->groups);
    return 0;
  }
  if (!nn_out_size(k, g->ih, g->kh, g->w.dil_h, g->w.stride_h, g->w.padding,
                   g->w.pad_top, g->w.pad_bottom, &g->oh, &g->pad_t)) {
    return 0;
  }
  if (!nn_out_size(k, g->iw, g->kw, g->w.dil_w, g->w.stride_w, g->w.padding,
                   g->w.pad_left, g->w.pad_right, &g->ow, &g->pad_l)) {
    return 0;
  }
  return 1;
}

/* Rows [p0, p0+np) of the patch matrix of image b, channels
 * [c0, c0+cn) (one group), into col (row length kh*kw*cn). */
#define IM2COL(T)                                                           \
  static void im2col_##T(const conv_geom* g, const T* x, int64_t b,         \
                         int64_t p0, int64_t np, int64_t c0, int64_t cn,    \
                         T* col) {                                          \
    int64_t p, i, j;                                                        \
    const int64_t K = g->kh * g->kw * cn;                                   \
    for (p = 0; p < np; p++) {                                              \
      int64_t oy = (p0 + p) / g->ow, ox = (p0 + p) % g->ow;                 \
      T* row = col + p * K;                                                 \
      for (i = 0; i < g->kh; i++) {                                         \
        int64_t y = oy * g->w.stride_h - g->pad_t + i * g->w.dil_h;         \
        for (j = 0; j < g->kw; j++) {                                       \
          int64_t xx = ox * g->w.stride_w - g->pad_l + j * g->w.dil_w;      \
          T* dst = row + (i * g->kw + j) * cn;                              \
          if (y < 0 || y >= g->ih || xx < 0 || xx >= g->iw) {               \
            memset(dst, 0, sizeof(T) * (size_t)cn);                         \
          } else {                                                          \
            memcpy(dst, x + ((b * g->ih + y) * g->iw + xx) * g->ic + c0,    \
                   sizeof(T) * (size_t)cn);                                 \
          }                                                                 \
        }                                                                   \
      }                                                                     \
    }                                                                       \
  }                                                                         \
  /* Adds the patch rows back into the image (the transpose of im2col). */  \
  static void col2im_##T(const conv_geom* g, const T* col, int64_t b,       \
                         int64_t p0, int64_t np, int64_t c0, int64_t cn,    \
                         T* x) {                                            \
    int64_t p, i, j, c;                                                     \
    const int64_t K = g->kh * g->kw * cn;                                   \
    for (p = 0; p < np; p++) {                                              \
      int64_t oy = (p0 + p) / g->ow, ox = (p0 + p) % g->ow;                 \
      const T* row = col + p * K;                                           \
      for (i = 0; i < g->kh; i++) {                                         \
        int64_t y = oy * g->w.stride_h - g->pad_t + i * g->w.dil_h;         \
        if (y < 0 || y >= g->ih) continue;                                  \
        for (j = 0; j < g->kw; j++) {                                       \
          int64_t xx = ox * g->w.stride_w - g->pad_l + j * g->w.dil_w;      \
          const T* src = row + (i * g->kw + j) * cn;                        \
          T* dst;                                                           \
          if (xx < 0 || xx >= g->iw) continue;                              \
          dst = x + ((b * g->ih + y) * g->iw + xx) * g->ic + c0;            \
          for (c = 0; c < cn; c++) dst[c] += src[c];                        \
        }                                                                   \
      }                                                                     \
    }                                                                       \
  }

IM2COL(float)
IM2COL(double)

static void im2col(int dbl, const conv_geom* g, const void* x, int64_t b,
                   int64_t p0, int64_t np, int64_t c0, int64_t cn,
                   void* col) {
  if (dbl) {
    im2col_double(g, (const double*)x, b, p0, np, c0, cn, (double*)col);
  } else {
    im2col_float(g, (const float*)x, b, p0, np, c0, cn, (float*)col);
  }
}

static void col2im(int dbl, const conv_geom* g, const void* col, int64_t b,
                   int64_t p0, int64_t np, int64_t c0, int64_t cn, void* x) {
  if (dbl) {
    col2im_double(g, (const double*)col, b, p0, np, c0, cn, (double*)x);
  } else {
    col2im_float(g, (const float*)col, b, p0, np, c0, cn, (float*)x);
  }
}

/* Output pixels per tile so that a tile's patches take ~TILE_BYTES. */
static int64_t tile_rows(int64_t K, size_t esz, int64_t P) {
  int64_t r = (int64_t)(TILE_BYTES / (esz * (size_t)(K > 0 ? K : 1)));
  if (r < 16) r = 16;
  if (r > P) r = P;
  return r < 1 ? 1 : r;
}

/* ---- Conv2D ---- */

/* The forward geometry as the direct kernel's descriptor. */
static void conv_desc_from_geom(const conv_geom* g, tfe_conv_desc* d) {
  d->n = g->n;
  d->ih = g->ih;
  d->iw = g->iw;
  d->ic = g->ic;
  d->kh = g->kh;
  d->kw = g->kw;
  d->oh = g->oh;
  d->ow = g->ow;
  d->oc = g->oc;
  d->groups = g->groups;
  d->sh = g->w.stride_h;
  d->sw = g->w.stride_w;
  d->dh = g->w.dil_h;
  d->dw = g->w.dil_w;
  d->pt = g->pad_t;
  d->pl = g->pad_l;
}

typedef struct conv_job {
  const conv_geom* g;
  int dbl;
  const void* x;
  const void* f;
  void* y;
  int64_t tiles_per_image, rows;
  int failed; /* set (racily, only ever to 1) when scratch runs out */
} conv_job;

static void conv_tiles(void* arg, int64_t t0, int64_t t1) {
  conv_job* j = (conv_job*)arg;
  const conv_geom* g = j->g;
  const size_t esz = j->dbl ? 8 : 4;
  const int64_t P = g->oh * g->ow, cn = g->fic, ocg = g->oc / g->groups;
  const int64_t K = g->kh * g->kw * cn;
  int direct = g->kh == 1 && g->kw == 1 && g->w.stride_h == 1 &&
               g->w.stride_w == 1 && g->pad_t == 0 && g->pad_l == 0 &&
               g->groups == 1 && g->oh == g->ih && g->ow == g->iw;
  void* col = NULL;
  int64_t t;
  if (!direct) {
    col = tfe_malloc((size_t)(j->rows * K) * esz + 64);
    if (col == NULL) {
      j->failed = 1;
      return;
    }
  }
  for (t = t0; t < t1; t++) {
    int64_t b = t / j->tiles_per_image;
    int64_t p0 = (t % j->tiles_per_image) * j->rows;
    int64_t np = P - p0 < j->rows ? P - p0 : j->rows, grp;
    for (grp = 0; grp < g->groups; grp++) {
      const char* a;
      char* yout = (char*)j->y + (size_t)((b * P + p0) * g->oc + grp * ocg) * esz;
      const char* fb = (const char*)j->f + (size_t)(grp * ocg) * esz;
      if (direct) {
        a = (const char*)j->x + (size_t)((b * P + p0) * g->ic) * esz;
      } else {
        im2col(j->dbl, g, j->x, b, p0, np, grp * cn, cn, col);
        a = (const char*)col;
      }
      if (!nn_gemm(j->dbl, 0, 0, np, ocg, K, a, direct ? g->ic : K, fb, g->oc,
                   yout, g->oc)) {
        j->failed = 1;
      }
    }
  }
  tfe_free(col);
}

static void conv2d_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* fl = k->inputs[1];
  conv_geom g;
  kutil_shape_buf sb;
  int64_t od[4];
  TF_Tensor* out;
  int dbl, ox = 0, of = 0;
  void *xw = NULL, *fw = NULL, *yw = NULL;
  conv_job j;
  int64_t P;
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "convolution input must be 4-dimensional: %s",
               kutil_tshape(in, &sb));
    return;
  }
  if (fl->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "convolution filter must be 4-dimensional: %s",
               kutil_tshape(fl, &sb));
    return;
  }
  /* As TF: a filter with no taps is refused, after the depth checks (left
   * to conv_geometry) and before any output size is worked out. */
  if (kutil_num_elements(fl) == 0 && fl->dims[2] > 0 &&
      in->dims[3] % fl->dims[2] == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "filter must not have zero elements (i.e. all dimensions must "
               "be non-zero)");
    return;
  }
  if (!conv_geometry(k, "Conv2D", in->dims, fl->dims, &g)) return;
  od[0] = g.n;
  od[1] = g.oh;
  od[2] = g.ow;
  od[3] = g.oc;
  out = tfe_kernel_alloc_output(k, 0, in->dtype, od, 4);
  if (out == NULL) return;
  P = g.oh * g.ow;
  if (kutil_num_elements(out) == 0) return;
  dbl = nn_work_is_double(in->dtype);
  xw = nn_to_work(in, dbl, &ox);
  fw = nn_to_work(fl, dbl, &of);
  if ((in->dtype == TF_FLOAT || in->dtype == TF_DOUBLE)) {
    yw = kutil_data(out);
  } else {
    yw = tfe_malloc((size_t)kutil_num_elements(out) * (dbl ? 8 : 4));
  }
  if (xw == NULL || fw == NULL || yw == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Conv2D");
    goto done;
  }
  if (!dbl && tfe_conv_direct_available()) {
    tfe_conv_desc d;
    conv_desc_from_geom(&g, &d);
    if (!tfe_conv_direct_f32(&d, (const float*)xw, (const float*)fw,
                             (float*)yw, tfe_kernel_threadpool(k))) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Conv2D");
      goto done;
    }
    goto convert;
  }
  j.g = &g;
  j.dbl = dbl;
  j.x = xw;
  j.f = fw;
  j.y = yw;
  j.rows = tile_rows(g.kh * g.kw * g.fic, dbl ? 8 : 4, P);
  j.tiles_per_image = (P + j.rows - 1) / j.rows;
  j.failed = 0;
  tfe_parallel_for(nn_have_blas() ? NULL : tfe_kernel_threadpool(k),
                   g.n * j.tiles_per_image, 1, conv_tiles, &j);
  if (j.failed) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Conv2D");
    goto done;
  }
convert:
  if (yw != kutil_data(out)) nn_from_work(out, yw, dbl, kutil_num_elements(out));
done:
  if (ox) tfe_free(xw);
  if (of) tfe_free(fw);
  if (yw != NULL && yw != kutil_data(out)) tfe_free(yw);
}

/* ---- Conv2DBackpropInput ---- */

/* Validates that out_backprop matches the forward geometry. */
static int check_backprop_dims(tfe_kernel_context* k, const char* op,
                               const conv_geom* g, const TF_Tensor* dy,
                               const int64_t* in_dims) {
  kutil_shape_buf sb;
  int d;
  const int64_t comp[2] = {g->oh, g->ow};
  const int64_t inp[2] = {in_dims[1], in_dims[2]};
  const int64_t fs[2] = {g->kh, g->kw};
  const int64_t str[2] = {g->w.stride_h, g->w.stride_w};
  const int64_t dil[2] = {g->w.dil_h, g->w.dil_w};
  if (dy->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: out_backprop must be 4-dimensional, got %s", op,
               kutil_tshape(dy, &sb));
    return 0;
  }
  if (dy->dims[0] != in_dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: input and out_backprop must have the same batch size. "
               "Input batch: %lld, outbackprop batch: %lld",
               op, (long long)in_dims[0], (long long)dy->dims[0]);
    return 0;
  }
  for (d = 0; d < 2; d++) {
    if (dy->dims[1 + d] != comp[d]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s: Size of out_backprop doesn't match computed: actual = "
                 "%lld, computed = %lld spatial_dim: %d input: %lld filter: "
                 "%lld output: %lld stride: %lld dilation: %lld",
                 op, (long long)dy->dims[1 + d], (long long)comp[d], d + 1,
                 (long long)inp[d], (long long)fs[d],
                 (long long)dy->dims[1 + d], (long long)str[d],
                 (long long)dil[d]);
      return 0;
    }
  }
  if (dy->dims[3] != g->oc) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: depth of out_backprop (%lld) doesn't match filter output "
               "depth (%lld)",
               op, (long long)dy->dims[3], (long long)g->oc);
    return 0;
  }
  return 1;
}

/* Stride-1 input gradient as a forward convolution of dy with the filter
 * turned by 180 degrees and its in/out channels swapped (per group):
 * dx[y] = sum_i dy[y + pad_t - i*dil] w[i] is a convolution whose leading
 * padding is (k-1)*dil - pad_t. Runs on the direct kernel (float work). */
static void backprop_input_direct(tfe_kernel_context* k, const conv_geom* g,
                                  const TF_Tensor* fl, const TF_Tensor* dy,
                                  TF_Tensor* out) {
  const int64_t ocg = g->oc / g->groups;
  int of = 0, od = 0;
  float *fw, *dyw, *dxw, *ft = NULL;
  tfe_conv_desc d;
  int64_t i, j, c, o, grp;
  fw = (float*)nn_to_work(fl, 0, &of);
  dyw = (float*)nn_to_work(dy, 0, &od);
  dxw = out->dtype == TF_FLOAT
            ? (float*)kutil_data(out)
            : (float*)tfe_malloc(sizeof(float) *
                                 (size_t)kutil_num_elements(out));
  ft = (float*)tfe_malloc(sizeof(float) *
                          (size_t)(g->kh * g->kw * g->fic * g->oc + 1));
  if (fw == NULL || dyw == NULL || dxw == NULL || ft == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Conv2DBackpropInput");
    goto done;
  }
  /* ft[kh-1-i][kw-1-j][o][grp*fic + c] = f[i][j][c][grp*ocg + o] */
  for (i = 0; i < g->kh; i++) {
    for (j = 0; j < g->kw; j++) {
      const float* src = fw + (i * g->kw + j) * g->fic * g->oc;
      float* dst = ft + ((g->kh - 1 - i) * g->kw + (g->kw - 1 - j)) * ocg * g->ic;
      for (grp = 0; grp < g->groups; grp++) {
        for (c = 0; c < g->fic; c++) {
          for (o = 0; o < ocg; o++) {
            dst[o * g->ic + grp * g->fic + c] = src[c * g->oc + grp * ocg + o];
          }
        }
      }
    }
  }
  d.n = g->n;
  d.ih = g->oh;
  d.iw = g->ow;
  d.ic = g->oc;
  d.kh = g->kh;
  d.kw = g->kw;
  d.oh = g->ih;
  d.ow = g->iw;
  d.oc = g->ic;
  d.groups = g->groups;
  d.sh = 1;
  d.sw = 1;
  d.dh = g->w.dil_h;
  d.dw = g->w.dil_w;
  d.pt = (g->kh - 1) * g->w.dil_h - g->pad_t;
  d.pl = (g->kw - 1) * g->w.dil_w - g->pad_l;
  if (!tfe_conv_direct_f32(&d, dyw, ft, dxw, tfe_kernel_threadpool(k))) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Conv2DBackpropInput");
    goto done;
  }
  if (dxw != kutil_data(out)) {
    nn_from_work(out, dxw, 0, kutil_num_elements(out));
  }
done:
  if (of) tfe_free(fw);
  if (od) tfe_free(dyw);
  if (dxw != NULL && dxw != kutil_data(out)) tfe_free(dxw);
  tfe_free(ft);
}

static void conv2d_backprop_input_compute(tfe_kernel_context* k) {
  const TF_Tensor* sizes = k->inputs[0];
  const TF_Tensor* fl = k->inputs[1];
  const TF_Tensor* dy = k->inputs[2];
  int64_t in_dims[4] = {0, 0, 0, 0};
  conv_geom g;
  kutil_shape_buf sb;
  TF_Tensor* out;
  int dbl, of = 0, od = 0;
  void *fw = NULL, *dyw = NULL, *dxw = NULL, *col = NULL;
  int64_t P, rows, b, p0, grp, ocg, K;
  size_t esz;
  if (fl->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "filter must be 4-dimensional: %s",
               kutil_tshape(fl, &sb));
    return;
  }
  {
    int64_t ns = kutil_num_elements(sizes), i;
    if (sizes->num_dims != 1 || (ns != 4 && ns != 2)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Conv2DBackpropInput requires input_sizes to contain 4 "
                 "values or 2 values, but got: %lld",
                 (long long)ns);
      return;
    }
    if (ns == 4) {
      for (i = 0; i < 4; i++) in_dims[i] = kutil_get_int(sizes, i);
    } else {
      /* spatial dims only: batch from out_backprop, depth from filter */
      in_dims[0] = dy->num_dims == 4 ? dy->dims[0] : 0;
      in_dims[1] = kutil_get_int(sizes, 0);
      in_dims[2] = kutil_get_int(sizes, 1);
      in_dims[3] = fl->dims[2];
    }
    for (i = 0; i < 4; i++) {
      if (in_dims[i] < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                   (long long)in_dims[i]);
        return;
      }
    }
  }
  if (!conv_geometry(k, "Conv2DBackpropInput", in_dims, fl->dims, &g)) return;
  if (!check_backprop_dims(k, "Conv2DCustomBackpropInput", &g, dy, in_dims)) {
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, fl->dtype, in_dims, 4);
  if (out == NULL) return;
  if (kutil_num_elements(out) == 0) return;
  dbl = nn_work_is_double(fl->dtype);
  esz = dbl ? 8 : 4;
  if (!dbl && g.w.stride_h == 1 && g.w.stride_w == 1 &&
      tfe_conv_direct_available()) {
    backprop_input_direct(k, &g, fl, dy, out);
    return;
  }
  fw = nn_to_work(fl, dbl, &of);
  dyw = nn_to_work(dy, dbl, &od);
  dxw = tfe_calloc((size_t)kutil_num_elements(out), esz);
  P = g.oh * g.ow;
  ocg = g.oc / g.groups;
  K = g.kh * g.kw * g.fic;
  rows = tile_rows(K, esz, P > 0 ? P : 1);
  col = tfe_malloc((size_t)(rows * K) * esz + 64);
  if (fw == NULL || dyw == NULL || dxw == NULL || col == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Conv2DBackpropInput");
    goto done;
  }
  for (b = 0; b < g.n; b++) {
    for (p0 = 0; p0 < P; p0 += rows) {
      int64_t np = P - p0 < rows ? P - p0 : rows;
      for (grp = 0; grp < g.groups; grp++) {
        /* col[np, K] = dy[np, ocg] * filter_g[K, ocg]^T */
        const char* a = (const char*)dyw + (size_t)((b * P + p0) * g.oc + grp * ocg) * esz;
        const char* fb = (const char*)fw + (size_t)(grp * ocg) * esz;
        if (!nn_gemm(dbl, 0, 1, np, K, ocg, a, g.oc, fb, g.oc, col, K)) {
          KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                     "out of memory in Conv2DBackpropInput");
          goto done;
        }
        col2im(dbl, &g, col, b, p0, np, grp * g.fic, g.fic, dxw);
      }
    }
  }
  nn_from_work(out, dxw, dbl, kutil_num_elements(out));
done:
  if (of) tfe_free(fw);
  if (od) tfe_free(dyw);
  tfe_free(dxw);
  tfe_free(col);
}

/* ---- Conv2DBackpropFilter ---- */

/* float work on the direct filter-gradient kernel of conv_direct.c. */
static void backprop_filter_direct(tfe_kernel_context* k, const conv_geom* g,
                                   const TF_Tensor* in, const TF_Tensor* dy,
                                   TF_Tensor* out) {
  int ox = 0, od = 0;
  float *xw, *dyw, *dfw;
  tfe_conv_desc d;
  xw = (float*)nn_to_work(in, 0, &ox);
  dyw = (float*)nn_to_work(dy, 0, &od);
  dfw = out->dtype == TF_FLOAT
            ? (float*)kutil_data(out)
            : (float*)tfe_malloc(sizeof(float) *
                                 (size_t)kutil_num_elements(out));
  if (xw == NULL || dyw == NULL || dfw == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "out of memory in Conv2DBackpropFilter");
    goto done;
  }
  conv_desc_from_geom(g, &d);
  if (!tfe_conv_direct_filter_grad_f32(&d, xw, dyw, dfw,
                                       tfe_kernel_threadpool(k))) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "out of memory in Conv2DBackpropFilter");
    goto done;
  }
  if (dfw != kutil_data(out)) {
    nn_from_work(out, dfw, 0, kutil_num_elements(out));
  }
done:
  if (ox) tfe_free(xw);
  if (od) tfe_free(dyw);
  if (dfw != NULL && dfw != kutil_data(out)) tfe_free(dfw);
}

static void conv2d_backprop_filter_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* sizes = k->inputs[1];
  const TF_Tensor* dy = k->inputs[2];
  int64_t f_dims[4] = {0, 0, 0, 0};
  conv_geom g;
  kutil_shape_buf sb;
  TF_Tensor* out;
  int dbl, ox = 0, od = 0;
  void *xw = NULL, *dyw = NULL, *dfw = NULL, *col = NULL, *tmp = NULL;
  int64_t P, rows, b, p0, grp, ocg, K, i;
  size_t esz;
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4-dimensional: %s",
               kutil_tshape(in, &sb));
    return;
  }
  if (sizes->num_dims != 1 || kutil_num_elements(sizes) != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Conv2DBackpropFilter: filter_sizes input must be 1-dim with "
               "4 elements, not %s",
               kutil_tshape(sizes, &sb));
    return;
  }
  for (i = 0; i < 4; i++) f_dims[i] = kutil_get_int(sizes, i);
  if (!conv_geometry(k, "Conv2DBackpropFilter", in->dims, f_dims, &g)) return;
  if (!check_backprop_dims(k, "Conv2DCustomBackpropFilter", &g, dy,
                           in->dims)) {
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, in->dtype, f_dims, 4);
  if (out == NULL) return;
  if (kutil_num_elements(out) == 0) return;
  dbl = nn_work_is_double(in->dtype);
  if (!dbl && tfe_conv_direct_available()) {
    backprop_filter_direct(k, &g, in, dy, out);
    return;
  }
  esz = dbl ? 8 : 4;
  P = g.oh * g.ow;
  ocg = g.oc / g.groups;
  K = g.kh * g.kw * g.fic;
  rows = tile_rows(K, esz, P > 0 ? P : 1);
  xw = nn_to_work(in, dbl, &ox);
  dyw = nn_to_work(dy, dbl, &od);
  dfw = tfe_calloc((size_t)kutil_num_elements(out), esz);
  col = tfe_malloc((size_t)(rows * K) * esz + 64);
  tmp = tfe_malloc((size_t)(K * ocg) * esz + 64);
  if (xw == NULL || dyw == NULL || dfw == NULL || col == NULL || tmp == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "out of memory in Conv2DBackpropFilter");
    goto done;
  }
  for (b = 0; b < g.n; b++) {
    for (p0 = 0; p0 < P; p0 += rows) {
      int64_t np = P - p0 < rows ? P - p0 : rows;
      for (grp = 0; grp < g.groups; grp++) {
        const char* a = (const char*)dyw + (size_t)((b * P + p0) * g.oc + grp * ocg) * esz;
        int64_t r, c;
        im2col(dbl, &g, xw, b, p0, np, grp * g.fic, g.fic, col);
        /* tmp[K, ocg] = col[np, K]^T * dy[np, ocg] */
        if (!nn_gemm(dbl, 1, 0, K, ocg, np, col, K, a, g.oc, tmp, ocg)) {
          KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                     "out of memory in Conv2DBackpropFilter");
          goto done;
        }
        for (r = 0; r < K; r++) {
          for (c = 0; c < ocg; c++) {
            if (dbl) {
              ((double*)dfw)[r * g.oc + grp * ocg + c] +=
                  ((double*)tmp)[r * ocg + c];
            } else {
              ((float*)dfw)[r * g.oc + grp * ocg + c] +=
                  ((float*)tmp)[r * ocg + c];
            }
          }
        }
      }
    }
  }
  nn_from_work(out, dfw, dbl, kutil_num_elements(out));
done:
  if (ox) tfe_free(xw);
  if (od) tfe_free(dyw);
  tfe_free(dfw);
  tfe_free(col);
  tfe_free(tmp);
}

/* ---- DepthwiseConv2dNative ---- */

typedef struct dw_job {
  conv_geom g;
  int64_t mult;
  int dbl;
  const void* x;
  const void* f;
  void* y;
} dw_job;

/* Output rows (b, oy) in [r0, r1). */
static void dw_rows(void* arg, int64_t r0, int64_t r1) {
  const dw_job* j = (const dw_job*)arg;
  const conv_geom* g = &j->g;
  const int64_t oc = g->ic * j->mult;
  int64_t r;
  for (r = r0; r < r1; r++) {
    int64_t b = r / g->oh, oy = r % g->oh, ox, i, jj, c, m;
    for (ox = 0; ox < g->ow; ox++) {
      int64_t base = ((b * g->oh + oy) * g->ow + ox) * oc;
      if (j->dbl) {
        double* y = (double*)j->y + base;
        for (c = 0; c < oc; c++) y[c] = 0;
      } else {
        float* y = (float*)j->y + base;
        for (c = 0; c < oc; c++) y[c] = 0;
      }
      for (i = 0; i < g->kh; i++) {
        int64_t iy = oy * g->w.stride_h - g->pad_t + i * g->w.dil_h;
        if (iy < 0 || iy >= g->ih) continue;
        for (jj = 0; jj < g->kw; jj++) {
          int64_t ix = ox * g->w.stride_w - g->pad_l + jj * g->w.dil_w;
          int64_t xo, fo;
          if (ix < 0 || ix >= g->iw) continue;
          xo = ((b * g->ih + iy) * g->iw + ix) * g->ic;
          fo = (i * g->kw + jj) * oc;
          if (j->dbl) {
            const double* x = (const double*)j->x + xo;
            const double* f = (const double*)j->f + fo;
            double* y = (double*)j->y + base;
            for (c = 0; c < g->ic; c++) {
              for (m = 0; m < j->mult; m++) {
                y[c * j->mult + m] += x[c] * f[c * j->mult + m];
              }
            }
          } else {
            const float* x = (const float*)j->x + xo;
            const float* f = (const float*)j->f + fo;
            float* y = (float*)j->y + base;
            for (c = 0; c < g->ic; c++) {
              for (m = 0; m < j->mult; m++) {
                y[c * j->mult + m] += x[c] * f[c * j->mult + m];
              }
            }
          }
        }
      }
    }
  }
}

static void depthwise_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* fl = k->inputs[1];
  kutil_shape_buf sb;
  dw_job j;
  int64_t od[4];
  TF_Tensor* out;
  int ox = 0, of = 0;
  void* yw = NULL;
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4-dimensional%s",
               kutil_tshape(in, &sb));
    return;
  }
  if (fl->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "filter must be 4-dimensional: %s",
               kutil_tshape(fl, &sb));
    return;
  }
  memset(&j, 0, sizeof j);
  if (!nn_read_conv_window(k, "DepthwiseConv2dNative", &j.g.w, 1)) return;
  if (j.g.w.stride_h != j.g.w.stride_w) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Current implementation only supports equal length strides in "
               "the row and column dimensions.");
    return;
  }
  if (in->dims[3] != fl->dims[2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input and filter must have the same depth: %lld vs %lld",
               (long long)in->dims[3], (long long)fl->dims[2]);
    return;
  }
  j.g.n = in->dims[0];
  j.g.ih = in->dims[1];
  j.g.iw = in->dims[2];
  j.g.ic = in->dims[3];
  j.g.kh = fl->dims[0];
  j.g.kw = fl->dims[1];
  j.mult = fl->dims[3];
  if (!nn_out_size(k, j.g.ih, j.g.kh, j.g.w.dil_h, j.g.w.stride_h,
                   j.g.w.padding, j.g.w.pad_top, j.g.w.pad_bottom, &j.g.oh,
                   &j.g.pad_t) ||
      !nn_out_size(k, j.g.iw, j.g.kw, j.g.w.dil_w, j.g.w.stride_w,
                   j.g.w.padding, j.g.w.pad_left, j.g.w.pad_right, &j.g.ow,
                   &j.g.pad_l)) {
    return;
  }
  od[0] = j.g.n;
  od[1] = j.g.oh;
  od[2] = j.g.ow;
  od[3] = j.g.ic * j.mult;
  out = tfe_kernel_alloc_output(k, 0, in->dtype, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  j.dbl = nn_work_is_double(in->dtype);
  j.x = nn_to_work(in, j.dbl, &ox);
  j.f = nn_to_work(fl, j.dbl, &of);
  yw = (in->dtype == TF_FLOAT || in->dtype == TF_DOUBLE)
           ? kutil_data(out)
           : tfe_malloc((size_t)kutil_num_elements(out) * (j.dbl ? 8 : 4));
  if (j.x == NULL || j.f == NULL || yw == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "out of memory in DepthwiseConv2dNative");
    goto done;
  }
  j.y = yw;
  tfe_parallel_for(tfe_kernel_threadpool(k), j.g.n * j.g.oh,
                   1 + 65536 / (1 + j.g.ow * od[3] * j.g.kh * j.g.kw), dw_rows,
                   &j);
  if (yw != kutil_data(out)) nn_from_work(out, yw, j.dbl, kutil_num_elements(out));
done:
  if (ox) tfe_free((void*)j.x);
  if (of) tfe_free((void*)j.f);
  if (yw != NULL && yw != kutil_data(out)) tfe_free(yw);
}

/* ---- registration ---- */

void tfe_register_nn_conv_kernels(void) {
  static const TF_DataType kConv[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT,
                                      TF_DOUBLE, TF_INT32};
  static const TF_DataType kFloat[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT,
                                       TF_DOUBLE};
  tfe_kutil_register("Conv2D", conv2d_compute, "T", kConv, 5, NULL, NULL, 0);
  tfe_kutil_register("Conv2DBackpropInput", conv2d_backprop_input_compute,
                     "T", kConv, 5, NULL, NULL, 0);
  tfe_kutil_register("Conv2DBackpropFilter", conv2d_backprop_filter_compute,
                     "T", kFloat, 4, NULL, NULL, 0);
  tfe_kutil_register("DepthwiseConv2dNative", depthwise_compute, "T", kFloat,
                     4, NULL, NULL, 0);
}
