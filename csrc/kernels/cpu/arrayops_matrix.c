/* MatrixDiagPart (V1, V2, V3) and MatrixSetDiag (V1, V2, V3): reading and
 * replacing a band of diagonals k = lo..hi of the innermost [M, N]
 * matrices. Diagonal d is stored as row (hi - d) of the packed form, of
 * length max_len (the longest diagonal in the band); shorter diagonals are
 * padded on the left or the right according to `align` (V2 always packs
 * to the left, V1 has only the main diagonal). */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/arrayops_common.h"
#include "kernels/cpu/kutil.h"

typedef struct band {
  int64_t lo, hi, rows, cols, batch, max_len, num;
  int left_super, left_sub; /* alignment of super- and subdiagonals */
} band;

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Reads `align` (V3) or uses the version's fixed alignment. */
static void read_align(const tfe_kernel_context* k, int version, band* b) {
  const char* s = "RIGHT_LEFT";
  size_t len = 0;
  if (version < 3) {
    b->left_super = b->left_sub = 1;
    return;
  }
  if (k->attrs != NULL) tfe_attrs_get_string(k->attrs, "align", &s, &len, NULL);
  b->left_super = strncmp(s, "LEFT_", 5) == 0;
  b->left_sub = strcmp(s, "LEFT_LEFT") == 0 || strcmp(s, "RIGHT_LEFT") == 0;
}

/* Parses k (a scalar or one/two-element vector). */
static int read_k(tfe_kernel_context* k, const TF_Tensor* kt, band* b,
                  const char* empty_msg) {
  kutil_shape_buf sb;
  if (kt->num_dims > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "diag_index must be a scalar or vector, received shape: %s",
               kutil_tshape(kt, &sb));
    return 0;
  }
  if (kutil_num_elements(kt) == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s", empty_msg);
    return 0;
  }
  b->lo = b->hi = kutil_get_int(kt, 0);
  if (kt->num_dims == 1) {
    if (kt->dims[0] > 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "diag_index must have only one or two elements, received "
                 "%lld elements.",
                 (long long)kt->dims[0]);
      return 0;
    }
    if (kt->dims[0] == 2) b->hi = kutil_get_int(kt, 1);
  }
  return 1;
}

/* Checks the band against the matrix size; `lo_sep` is the separator TF puts
 * after the lower index in its message (it differs between the ops). */
static int check_band(tfe_kernel_context* k, band* b, const char* lo_sep) {
  if (!((-b->rows < b->lo && b->lo < b->cols) || b->lo == 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "lower_diag_index is out of bound: %lld%s It must be between "
               "%lld and %lld",
               (long long)b->lo, lo_sep, (long long)-b->rows,
               (long long)b->cols);
    return 0;
  }
  if (!((-b->rows < b->hi && b->hi < b->cols) || b->hi == 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "upper_diag_index is out of bound: %lld It must be between "
               "%lld and %lld",
               (long long)b->hi, (long long)-b->rows, (long long)b->cols);
    return 0;
  }
  if (b->lo > b->hi) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "lower_diag_index must not be larger than upper_diag_index: "
               "%lld > %lld",
               (long long)b->lo, (long long)b->hi);
    return 0;
  }
  b->num = b->hi - b->lo + 1;
  b->max_len = min64(b->rows + min64(b->hi, 0), b->cols - max64(b->lo, 0));
  if (b->max_len < 0) b->max_len = 0;
  return 1;
}

static int matrix_dims(tfe_kernel_context* k, const TF_Tensor* x, band* b) {
  kutil_shape_buf sb;
  int i;
  if (x->num_dims < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input must be at least 2-dim, received shape: %s",
               kutil_tshape(x, &sb));
    return 0;
  }
  b->rows = x->dims[x->num_dims - 2];
  b->cols = x->dims[x->num_dims - 1];
  b->batch = 1;
  for (i = 0; i < x->num_dims - 2; i++) b->batch *= x->dims[i];
  return 1;
}

/* Length of diagonal d and where it starts in its packed row. */
static int64_t diag_len(const band* b, int64_t d) {
  return min64(b->rows + min64(d, 0), b->cols - max64(d, 0));
}
static int64_t diag_offset(const band* b, int64_t d) {
  int left = d >= 0 ? b->left_super : b->left_sub;
  return left ? 0 : b->max_len - diag_len(b, d);
}

static void diag_part(tfe_kernel_context* k, int version) {
  const TF_Tensor* x = k->inputs[0];
  size_t esz = kutil_esize(x->dtype);
  int64_t dims[TFE_MAX_DIMS], bi, d, j;
  int nd = 0, i;
  band b;
  TF_Tensor* y;
  char* o;
  const char* s;
  const char* pad = NULL;
  memset(&b, 0, sizeof b);
  read_align(k, version, &b);
  if (version >= 2) {
    if (!read_k(k, k->inputs[1], &b,
                "Expected diag_index to have at least 1 element")) {
      return;
    }
    if (kutil_num_elements(k->inputs[2]) < 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "padding_value must have at least one element");
      return;
    }
    pad = (const char*)kutil_data(k->inputs[2]);
  }
  if (!matrix_dims(k, x, &b) || !check_band(k, &b, ".")) return;
  for (i = 0; i < x->num_dims - 2; i++) dims[nd++] = x->dims[i];
  if (b.num > 1) dims[nd++] = b.num;
  dims[nd++] = b.max_len;
  y = tfe_kernel_alloc_output(k, 0, x->dtype, dims, nd);
  if (y == NULL) return;
  o = (char*)kutil_data(y);
  s = (const char*)kutil_data(x);
  for (bi = 0; bi < b.batch; bi++) {
    const char* m = s + (size_t)(bi * b.rows * b.cols) * esz;
    for (d = b.hi; d >= b.lo; d--) {
      char* row = o + (size_t)((bi * b.num + (b.hi - d)) * b.max_len) * esz;
      int64_t len = diag_len(&b, d), off = diag_offset(&b, d);
      for (j = 0; j < b.max_len; j++) {
        int64_t n = j - off;
        char* dst = row + (size_t)j * esz;
        if (n >= 0 && n < len) {
          int64_t r = n - min64(d, 0), c = n + max64(d, 0);
          kutil_copy1(x->dtype, esz, dst, m + (size_t)(r * b.cols + c) * esz);
        } else if (pad != NULL) {
          kutil_copy1(x->dtype, esz, dst, pad);
        } else {
          memset(dst, 0, esz);
        }
      }
    }
  }
}

static void set_diag(tfe_kernel_context* k, int version) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* dg = k->inputs[1];
  size_t esz = kutil_esize(x->dtype);
  int64_t want[TFE_MAX_DIMS], bi, d, n;
  int nd = 0, i, ok;
  band b;
  kutil_shape_buf s1, s2, s3;
  TF_Tensor* y;
  char* o;
  const char* src;
  memset(&b, 0, sizeof b);
  read_align(k, version, &b);
  if (version >= 2 &&
      !read_k(k, k->inputs[2], &b, "diag_index must have at least one element")) {
    return;
  }
  if (!matrix_dims(k, x, &b)) return;
  if (dg->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "diagonal must be at least 1-dim, received shape: %s",
               kutil_tshape(dg, &s1));
    return;
  }
  if (!check_band(k, &b, "")) return;
  if (b.num > 1 && (dg->num_dims < 2 || dg->dims[dg->num_dims - 2] != b.num)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The number of diagonals provided in `diag` is not consistent "
               "with `lower_diag_index` and `upper_diag_index`");
    return;
  }
  for (i = 0; i < x->num_dims - 2; i++) want[nd++] = x->dims[i];
  if (b.num > 1) want[nd++] = b.num;
  want[nd++] = b.max_len;
  ok = dg->num_dims == nd;
  for (i = 0; ok && i < nd; i++) ok = dg->dims[i] == want[i];
  if (!ok) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Either first dimensions of diagonal don't match "
               "input.shape[:-2], or diagonal.shape[:-1] is not equal to the "
               "longests diagonal in range [lower_diag_index:"
               "upper_diag_index].\nInput shape: %s\nDiagonal shape: %s\n"
               "Expected diagonal shape: %s",
               kutil_tshape(x, &s1), kutil_tshape(dg, &s2),
               kutil_shape_str(want, nd, s3.s, sizeof s3.s));
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL) return;
  o = (char*)kutil_data(y);
  kutil_copy(x->dtype, o, kutil_data(x), kutil_num_elements(x));
  src = (const char*)kutil_data(dg);
  for (bi = 0; bi < b.batch; bi++) {
    char* m = o + (size_t)(bi * b.rows * b.cols) * esz;
    for (d = b.hi; d >= b.lo; d--) {
      const char* row =
          src + (size_t)((bi * b.num + (b.hi - d)) * b.max_len) * esz;
      int64_t len = diag_len(&b, d), off = diag_offset(&b, d);
      for (n = 0; n < len; n++) {
        int64_t r = n - min64(d, 0), c = n + max64(d, 0);
        kutil_copy1(x->dtype, esz, m + (size_t)(r * b.cols + c) * esz,
                    row + (size_t)(n + off) * esz);
      }
    }
  }
}

static void k_diag_part1(tfe_kernel_context* k) { diag_part(k, 1); }
static void k_diag_part2(tfe_kernel_context* k) { diag_part(k, 2); }
static void k_diag_part3(tfe_kernel_context* k) { diag_part(k, 3); }
static void k_set_diag1(tfe_kernel_context* k) { set_diag(k, 1); }
static void k_set_diag2(tfe_kernel_context* k) { set_diag(k, 2); }
static void k_set_diag3(tfe_kernel_context* k) { set_diag(k, 3); }

void tfe_register_arrayops_matrix_kernels(void) {
  static const TF_DataType t[] = {KUTIL_POD_TYPES};
  int n = KUTIL_COUNT(t);
  tfe_kutil_register("MatrixDiagPart", k_diag_part1, "T", t, n, NULL, NULL, 0);
  tfe_kutil_register("MatrixDiagPartV2", k_diag_part2, "T", t, n, NULL, NULL,
                     0);
  tfe_kutil_register("MatrixDiagPartV3", k_diag_part3, "T", t, n, NULL, NULL,
                     0);
  tfe_kutil_register("MatrixSetDiag", k_set_diag1, "T", t, n, NULL, NULL, 0);
  tfe_kutil_register("MatrixSetDiagV2", k_set_diag2, "T", t, n, NULL, NULL, 0);
  tfe_kutil_register("MatrixSetDiagV3", k_set_diag3, "T", t, n, NULL, NULL, 0);
}
