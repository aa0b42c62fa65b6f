/* The first versions of two common ops: Gather (GatherV2 along axis 0,
 * indices always checked on CPU) and Concat (concat_dim first). */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/arrayops_common.h"
#include "kernels/cpu/kutil.h"

/* -------------------------------------------------------------- Gather */

static void k_gather(tfe_kernel_context* k) {
  const TF_Tensor* p = k->inputs[0];
  const TF_Tensor* ix = k->inputs[1];
  size_t esz = kutil_esize(p->dtype);
  int64_t dims[TFE_MAX_DIMS], n, slice = 1, i;
  int nd = 0, d;
  TF_Tensor* y;
  if (p->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "params must be at least 1 dimensional");
    return;
  }
  if (ix->num_dims + p->num_dims - 1 > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Gather: too many dimensions");
    return;
  }
  for (d = 0; d < ix->num_dims; d++) dims[nd++] = ix->dims[d];
  for (d = 1; d < p->num_dims; d++) dims[nd++] = p->dims[d];
  slice = kutil_dims_prod(p->dims, 1, p->num_dims);
  n = kutil_num_elements(ix);
  for (i = 0; i < n; i++) {
    int64_t v = kutil_get_int(ix, i);
    if (v < 0 || v >= p->dims[0]) {
      char pos[512];
      int64_t q = i, at[TFE_MAX_DIMS];
      for (d = ix->num_dims - 1; d >= 0; d--) {
        at[d] = q % ix->dims[d];
        q /= ix->dims[d];
      }
      if (ix->num_dims > 0) {
        kutil_shape_str(at, ix->num_dims, pos, sizeof pos);
      } else {
        pos[0] = '\0';
      }
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices%s = %lld is not in [0, %lld)",
                 pos, (long long)v, (long long)p->dims[0]);
      return;
    }
  }
  y = tfe_kernel_alloc_output(k, 0, p->dtype, dims, nd);
  if (y == NULL) return;
  for (i = 0; i < n && slice > 0; i++) {
    kutil_copy(p->dtype, (char*)kutil_data(y) + (size_t)(i * slice) * esz,
               (const char*)kutil_data(p) +
                   (size_t)(kutil_get_int(ix, i) * slice) * esz,
               slice);
  }
}

/* -------------------------------------------------------------- Concat */

static void k_concat(tfe_kernel_context* k) {
  int n = k->num_inputs - 1, i, j, nd;
  const TF_Tensor* dim_t = k->inputs[0];
  const TF_Tensor* first = k->inputs[1];
  kutil_shape_buf sa, sb;
  int64_t cd, axis, odims[TFE_MAX_DIMS], outer = 1, o, pos;
  size_t esz = kutil_esize(first->dtype);
  TF_Tensor* y;
  char* dst;
  if (!(dim_t->num_dims == 0 ||
        (dim_t->num_dims == 1 && dim_t->dims[0] == 1))) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "concat_dim tensor should be a scalar integer, but got shape %s",
               kutil_tshape(dim_t, &sa));
    return;
  }
  cd = kutil_get_int(dim_t, 0);
  nd = first->num_dims;
  axis = cd < 0 ? cd + nd : cd;
  /* concat_dim 0 passes this check even for scalars, which are refused
   * next with their own message */
  if (!((0 <= axis && axis < nd) || cd == 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "ConcatOp : Expected concatenating dimensions in the range "
               "[%d, %d), but got %lld",
               -nd, nd, (long long)cd);
    return;
  }
  for (i = 0; i < n; i++) {
    const TF_Tensor* in = k->inputs[1 + i];
    if (in->num_dims != nd) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "ConcatOp : Ranks of all input tensors should match: "
                 "shape[0] = %s vs. shape[%d] = %s",
                 kutil_tshape(first, &sa), i, kutil_tshape(in, &sb));
      return;
    }
    if (nd == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "ConcatOp : Can't concatenate scalars (use tf.stack instead)");
      return;
    }
    for (j = 0; j < nd; j++) {
      if (j != axis && in->dims[j] != first->dims[j]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "ConcatOp : Dimension %d in both shapes must be equal: "
                   "shape[0] = %s vs. shape[%d] = %s",
                   j, kutil_tshape(first, &sa), i, kutil_tshape(in, &sb));
        return;
      }
    }
  }
  memcpy(odims, first->dims, sizeof(int64_t) * (size_t)nd);
  odims[axis] = 0;
  for (i = 0; i < n; i++) {
    if (!tfe_checked_add_i64(odims[axis], k->inputs[1 + i]->dims[axis],
                             &odims[axis])) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "ConcatOp : output dimension %d overflows an int64", (int)axis);
      return;
    }
  }
  y = tfe_kernel_alloc_output(k, 0, first->dtype, odims, nd);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  for (j = 0; j < axis; j++) outer *= odims[j];
  dst = (char*)kutil_data(y);
  pos = 0;
  for (o = 0; o < outer; o++) {
    for (i = 0; i < n; i++) {
      const TF_Tensor* in = k->inputs[1 + i];
      int64_t run = kutil_dims_prod(in->dims, (int)axis, nd);
      if (run > 0) {
        kutil_copy(first->dtype, dst + (size_t)pos * esz,
                   (const char*)kutil_data(in) + (size_t)(o * run) * esz, run);
      }
      pos += run;
    }
  }
}

/* ConcatOffset(concat_dim, shapes...): where each input starts along the
 * concat axis in Concat's output (the gradient of Concat slices with it).
 * TF's checks and messages. */
static void k_concat_offset(tfe_kernel_context* k) {
  const TF_Tensor* cd = k->inputs[0];
  const TF_Tensor* s0;
  const int n = k->num_inputs - 1;
  kutil_shape_buf b;
  int64_t dims, axis, offset = 0;
  int i, j;
  if (cd->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Concat dim tensor should be a scalar integer, but got shape "
               "%s",
               kutil_tshape(cd, &b));
    return;
  }
  if (n < 1) return;
  s0 = k->inputs[1];
  dims = kutil_num_elements(s0);
  for (i = 0; i < n; i++) {
    const TF_Tensor* si = k->inputs[1 + i];
    if (si->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "input %d should be a vector, but got shape %s", i,
                 kutil_tshape(si, &b));
      return;
    }
    if (si->dims[0] != dims) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "input %d should contain %lld elements, but got %lld", i,
                 (long long)dims, (long long)si->dims[0]);
      return;
    }
  }
  axis = *(const int32_t*)kutil_data(cd);
  if (axis < 0) axis += dims;
  if (axis < 0 || axis >= dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Concat dim is out of range: %d vs. %lld",
               (int)*(const int32_t*)kutil_data(cd), (long long)dims);
    return;
  }
  for (i = 0; i < n; i++) {
    const TF_Tensor* si = k->inputs[1 + i];
    TF_Tensor* out = tfe_kernel_alloc_output(k, i, si->dtype, &dims, 1);
    if (out == NULL) return;
    for (j = 0; j < dims; j++) {
      int64_t v = kutil_get_int(si, j), v0 = kutil_get_int(s0, j);
      int64_t o = 0;
      if (j == axis) {
        o = offset;
        offset += v;
      } else if (v != v0) {
        char a[512], c[512];
        size_t la = 0, lc = 0;
        int m;
        /* TF prints these shapes as "[2 2 7]". */
        for (m = 0; m < dims && la < sizeof a - 24; m++) {
          la += (size_t)snprintf(a + la, sizeof a - la, m ? " %lld" : "%lld",
                                 (long long)kutil_get_int(si, m));
        }
        for (m = 0; m < dims && lc < sizeof c - 24; m++) {
          lc += (size_t)snprintf(c + lc, sizeof c - lc, m ? " %lld" : "%lld",
                                 (long long)kutil_get_int(s0, m));
        }
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "All dimensions except %lld must match. Input %d has shape "
                   "[%s] and doesn't match input 0 with shape [%s].",
                   (long long)axis, i, a, c);
        return;
      }
      if (si->dtype == TF_INT32) {
        ((int32_t*)kutil_data(out))[j] = (int32_t)o;
      } else {
        ((int64_t*)kutil_data(out))[j] = o;
      }
    }
  }
}

void tfe_register_arrayops_v1_kernels(void) {
  static const TF_DataType all[] = {KUTIL_POD_TYPES, TF_STRING,
                                    KUTIL_QUANTIZED_TYPES, TF_FLOAT8_E4M3FN,
                                    TF_FLOAT8_E5M2};
  tfe_kutil_register("Gather", k_gather, "Tparams", all, KUTIL_COUNT(all),
                     NULL, NULL, 0);
  tfe_kutil_register("Concat", k_concat, "T", all, KUTIL_COUNT(all), NULL,
                     NULL, 0);
  {
    static const TF_DataType idx[] = {TF_INT32, TF_INT64};
    tfe_kutil_register("ConcatOffset", k_concat_offset, "shape_type", idx,
                       KUTIL_COUNT(idx), NULL, NULL, 0);
  }
}
