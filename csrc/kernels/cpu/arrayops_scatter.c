/* TensorScatterAdd, TensorScatterSub, TensorScatterMax, TensorScatterMin:
 * a copy of `tensor` with slices at `indices` ([..., K] coordinates into
 * the first K dimensions) folded with `updates`. Repeated indices fold
 * repeatedly. */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/arrayops_common.h"
#include "kernels/cpu/kutil.h"

/* bad_indices_policy: "" / "DEFAULT" / "ERROR" report, "IGNORE" skips.
 * Returns -1 (after setting the status) for an unknown policy. */
static int read_policy(tfe_kernel_context* k) {
  const char* s = "";
  size_t len = 0;
  if (k->attrs != NULL) {
    tfe_attrs_get_string(k->attrs, "bad_indices_policy", &s, &len, NULL);
  }
  if (len == 0 || (len == 7 && memcmp(s, "DEFAULT", 7) == 0) ||
      (len == 5 && memcmp(s, "ERROR", 5) == 0)) {
    return 0;
  }
  if (len == 6 && memcmp(s, "IGNORE", 6) == 0) return 1;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Unknown bad indices handling attribute: %.*s", (int)len, s);
  return -1;
}

/* The two shape complaints, worded as TF words them. */
static void shape_err_outer(tfe_kernel_context* k, const TF_Tensor* ix,
                            const TF_Tensor* up) {
  kutil_shape_buf a, b;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Outer dimensions of indices and update must match. Indices "
             "shape: %s, updates shape:%s",
             kutil_tshape(ix, &a), kutil_tshape(up, &b));
}

static void shape_err_inner(tfe_kernel_context* k, const TF_Tensor* x,
                            const TF_Tensor* up) {
  kutil_shape_buf a, b;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Inner dimensions of output shape must match inner dimensions "
             "of updates shape. Output: %s updates: %s",
             kutil_tshape(x, &a), kutil_tshape(up, &b));
}

static void tensor_scatter(tfe_kernel_context* k, tfe_ao_kind kind) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* ix = k->inputs[1];
  const TF_Tensor* up = k->inputs[2];
  size_t esz = kutil_esize(x->dtype);
  int ignore = read_policy(k), d;
  int64_t kdim, batch, rows, slice, r, j;
  kutil_shape_buf sb;
  TF_Tensor* y;
  char* o;
  if (ignore < 0) return;
  if (ix->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Indices shape must have rank at least one. Found:%s",
               kutil_tshape(ix, &sb));
    return;
  }
  if (up->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Updates shape must have rank at least one. Found:%s",
               kutil_tshape(up, &sb));
    return;
  }
  /* indices and updates both empty, or tensor, indices and updates all
   * non-empty */
  {
    int64_t nx = kutil_num_elements(x), ni = kutil_num_elements(ix);
    int64_t nu = kutil_num_elements(up);
    if (!((ni == 0 && nu == 0) || (nx != 0 && ni != 0 && nu != 0))) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Indices and updates specified for empty output shape");
      return;
    }
  }
  /* indices [b0..bn, K]; updates [b0..bn] + tensor.shape[K:] */
  kdim = ix->dims[ix->num_dims - 1];
  batch = ix->num_dims - 1;
  for (d = 0; d < batch; d++) {
    if (d >= up->num_dims || up->dims[d] != ix->dims[d]) {
      shape_err_outer(k, ix, up);
      return;
    }
  }
  if (up->num_dims - batch != x->num_dims - kdim) {
    shape_err_inner(k, x, up);
    return;
  }
  for (d = 0; d + batch < up->num_dims; d++) {
    if (up->dims[batch + d] != x->dims[kdim + d]) {
      kutil_shape_buf a, b;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "The inner %lld dimensions of output.shape=%s must match the "
                 "inner %lld dimensions of updates.shape=%s",
                 (long long)(x->num_dims - kdim), kutil_tshape(x, &a),
                 (long long)(up->num_dims - batch), kutil_tshape(up, &b));
      return;
    }
  }
  rows = 1;
  for (d = 0; d < batch; d++) rows *= ix->dims[d];
  slice = 1;
  for (d = (int)kdim; d < x->num_dims; d++) slice *= x->dims[d];
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL) return;
  o = (char*)kutil_data(y);
  memcpy(o, kutil_data(x), (size_t)kutil_num_elements(x) * esz);
  for (r = 0; r < rows; r++) {
    int64_t off = 0;
    int bad = 0;
    /* The offset is built only from coordinates already known to be in
     * range, so it stays below the element count of x. */
    for (j = 0; j < kdim; j++) {
      int64_t v = kutil_get_int(ix, r * kdim + j);
      if (v < 0 || v >= x->dims[j]) {
        bad = 1;
        break;
      }
      off = off * x->dims[j] + v;
    }
    if (bad) {
      char pos[512], vals[512];
      size_t len = 0;
      if (ignore) continue;
      /* position of the index row, then its coordinates */
      {
        int64_t p[TFE_MAX_DIMS], q = r;
        for (d = batch - 1; d >= 0; d--) {
          p[d] = ix->dims[d] > 0 ? q % ix->dims[d] : 0;
          q = ix->dims[d] > 0 ? q / ix->dims[d] : 0;
        }
        if (batch > 0) {
          kutil_shape_str(p, (int)batch, pos, sizeof pos);
        } else {
          pos[0] = '\0';
        }
      }
      vals[0] = '\0';
      for (j = 0; j < kdim && len < sizeof vals; j++) {
        len += (size_t)snprintf(vals + len, sizeof vals - len,
                                j ? ", %lld" : "%lld",
                                (long long)kutil_get_int(ix, r * kdim + j));
      }
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "indices%s = [%s] does not index into shape %s", pos, vals,
                 kutil_tshape(x, &sb));
      return;
    }
    tfe_ao_combine(x->dtype, kind, o + (size_t)(off * slice) * esz,
                   (const char*)kutil_data(up) + (size_t)(r * slice) * esz,
                   slice);
  }
}

static void k_add(tfe_kernel_context* k) { tensor_scatter(k, TFE_AO_SUM); }
static void k_sub(tfe_kernel_context* k) { tensor_scatter(k, TFE_AO_SUB); }
static void k_max(tfe_kernel_context* k) {
  tensor_scatter(k, TFE_AO_MAX_KEEP);
}
static void k_min(tfe_kernel_context* k) {
  tensor_scatter(k, TFE_AO_MIN_KEEP);
}

void tfe_register_arrayops_scatter_kernels(void) {
  static const TF_DataType num[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType real[] = {KUTIL_REAL_TYPES};
  tfe_kutil_register("TensorScatterAdd", k_add, "T", num, KUTIL_COUNT(num),
                     NULL, NULL, 0);
  tfe_kutil_register("TensorScatterSub", k_sub, "T", num, KUTIL_COUNT(num),
                     NULL, NULL, 0);
  tfe_kutil_register("TensorScatterMax", k_max, "T", real, KUTIL_COUNT(real),
                     NULL, NULL, 0);
  tfe_kutil_register("TensorScatterMin", k_min, "T", real, KUTIL_COUNT(real),
                     NULL, NULL, 0);
}
