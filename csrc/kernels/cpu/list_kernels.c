/* CPU kernels of the TensorList and Optional ops (csrc/ops/defs_list.c)
 * and of AddN / ZerosLike for T=variant. Lists and optionals are
 * tfe_variant objects (csrc/core/variant.h) held by scalar DT_VARIANT
 * tensors; kernels never modify an input's object, they build a new one
 * that shares the element tensors' buffers. Error codes and messages
 * follow TensorFlow 2.21's list_kernels / optional_ops. */
#include <string.h>

#include "core/variant.h"
#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/elementwise_common.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"

void tfe_register_list_kernels(void);
/* csrc/kernels/cpu/variant_array.c */
void tfe_register_variant_array_kernels(void);

/* ------------------------------------------------------------------------
 * Helpers. */

static const char* dt_name(TF_DataType t) { return tfe_variant_dtype_name(t); }

/* Shape of a tensor as a (fully defined) partial shape view. */
static tfe_pshape tensor_pshape(const TF_Tensor* t) {
  tfe_pshape s;
  s.rank = t->num_dims;
  s.dims = t->dims;
  return s;
}

/* Merges element e's shape into *shape in place. On a mismatch returns 0
 * with k->status set and *shape freed. */
static int merge_element_shape(tfe_kernel_context* k, tfe_pshape* shape,
                               const TF_Tensor* e) {
  tfe_pshape es = tensor_pshape(e), tmp;
  tfe_pshape_init_unknown(&tmp);
  if (!tfe_pshape_merge(shape, &es, &tmp, k->status)) {
    tfe_pshape_free(shape);
    return 0;
  }
  tfe_pshape_free(shape);
  *shape = tmp;
  return 1;
}

/* The list held by scalar variant input i, or NULL with k->status set. */
static const tfe_variant* input_list(tfe_kernel_context* k, int i) {
  const TF_Tensor* t = k->inputs[i];
  const tfe_variant* v;
  int ok;
  char buf[256];
  if (t->num_dims != 0) {
    kutil_shape_buf sb;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input list must be a scalar saw: %s",
               kutil_tshape(t, &sb));
    return NULL;
  }
  v = tfe_variant_scalar(t, &ok);
  if (!ok || v == NULL || v->kind != TFE_VARIANT_LIST) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input handle is not a list. Saw: '%s'",
               tfe_variant_debug_string(ok ? v : NULL, buf, sizeof buf));
    return NULL;
  }
  return v;
}

static int check_dtype(tfe_kernel_context* k, TF_DataType op_dtype,
                       const tfe_variant* l) {
  if (op_dtype != l->element_dtype) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Invalid data types; op elements %s but list elements %s",
               dt_name(op_dtype), dt_name(l->element_dtype));
    return 0;
  }
  return 1;
}

static TF_DataType attr_type(tfe_kernel_context* k, const char* name) {
  TF_DataType t = TF_FLOAT;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, name, &t, NULL);
  return t;
}

/* Stores v (taking the reference) as output `index`. */
static void set_variant_output(tfe_kernel_context* k, int index,
                               tfe_variant* v) {
  TF_Tensor* t;
  if (v == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  t = tfe_variant_make_scalar(v);
  if (t == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  tfe_kernel_set_output(k, index, t);
}

/* A host tensor of dtype/shape; zeros (empty strings, empty variants). */
static TF_Tensor* new_zeros(TF_DataType dtype, const int64_t* dims, int nd,
                            TF_Status* s) {
  size_t esz = dtype == TF_VARIANT ? 0 : kutil_esize(dtype);
  int64_t n = tfe_shape_num_elements(dims, nd);
  size_t bytes = 0;
  TF_Tensor* t;
  if (n < 0 || (esz == 0 && dtype != TF_VARIANT) ||
      !tfe_mul_size((size_t)n, esz, &bytes)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "cannot make a tensor of dtype %s with that shape",
                    dt_name(dtype));
    return NULL;
  }
  t = TF_AllocateTensor(dtype, dims, nd, bytes);
  if (t == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  if (dtype != TF_STRING && dtype != TF_VARIANT && bytes > 0) {
    memset(t->buf->data, 0, bytes);
  }
  return t;
}

/* Copies n elements of dtype from src to dst (strings deep, variants by
 * taking references). */
static void copy_elems(TF_DataType dtype, void* dst, const void* src,
                       int64_t n) {
  if (dtype == TF_VARIANT) {
    tfe_variant** d = (tfe_variant**)dst;
    tfe_variant* const* s = (tfe_variant* const*)src;
    int64_t i;
    for (i = 0; i < n; i++) {
      tfe_variant_ref(s[i]);
      tfe_variant_unref(d[i]);
      d[i] = s[i];
    }
    return;
  }
  kutil_copy(dtype, dst, src, n);
}

static size_t elem_bytes(TF_DataType dtype) {
  return dtype == TF_VARIANT ? sizeof(tfe_variant*) : kutil_esize(dtype);
}

/* ------------------------------------------------------------------------
 * List construction. */

static void k_empty_tensor_list(tfe_kernel_context* k) {
  const TF_Tensor* max_t = k->inputs[1];
  tfe_pshape shape;
  int64_t max_n;
  if (max_t->num_dims != 0) {
    kutil_shape_buf sb;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "max_num_elements expected to be a scalar but got shape: %s",
               kutil_tshape(max_t, &sb));
    return;
  }
  max_n = kutil_get_int(max_t, 0);
  if (!tfe_pshape_from_tensor(k->inputs[0], &shape, k->status)) return;
  set_variant_output(
      k, 0, tfe_variant_new_list(attr_type(k, "element_dtype"), &shape, max_n));
  tfe_pshape_free(&shape);
}

static void k_tensor_list_reserve(tfe_kernel_context* k) {
  const TF_Tensor* num_t = k->inputs[1];
  tfe_pshape shape;
  tfe_variant* v;
  int64_t n;
  if (num_t->num_dims != 0) {
    kutil_shape_buf sb;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The num_elements to reserve must be a tensor size 1, but got "
               "%s",
               kutil_tshape(num_t, &sb));
    return;
  }
  n = kutil_get_int(num_t, 0);
  if (n < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The num_elements to reserve must be a non negative number, "
               "but got %lld",
               (long long)n);
    return;
  }
  if (!tfe_pshape_from_tensor(k->inputs[0], &shape, k->status)) return;
  v = tfe_variant_new_list(attr_type(k, "element_dtype"), &shape, -1);
  tfe_pshape_free(&shape);
  if (v != NULL && !tfe_variant_resize(v, n)) {
    tfe_variant_unref(v);
    v = NULL;
  }
  set_variant_output(k, 0, v);
}

static void k_tensor_list_from_tensor(tfe_kernel_context* k) {
  const TF_Tensor* t = k->inputs[0];
  tfe_pshape shape, rest;
  tfe_variant* v;
  int64_t n, per, i;
  size_t esz = elem_bytes(t->dtype);
  char a[256], b[256];
  if (t->num_dims < 1) {
    kutil_shape_buf sb;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tensor must be at least a vector, but saw shape: %s",
               kutil_tshape(t, &sb));
    return;
  }
  if (!tfe_pshape_from_tensor(k->inputs[1], &shape, k->status)) return;
  rest.rank = t->num_dims - 1;
  rest.dims = t->dims + 1;
  if (!tfe_pshape_compatible(&shape, &rest)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Specified a list with shape %s from a tensor with shape %s",
               tfe_pshape_str(&shape, a, sizeof a),
               tfe_pshape_str(&rest, b, sizeof b));
    tfe_pshape_free(&shape);
    return;
  }
  if (esz == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorListFromTensor does not support dtype %s",
               dt_name(t->dtype));
    tfe_pshape_free(&shape);
    return;
  }
  v = tfe_variant_new_list(t->dtype, &shape, -1);
  tfe_pshape_free(&shape);
  if (v == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  n = t->dims[0];
  per = tfe_shape_num_elements(rest.dims, rest.rank);
  for (i = 0; i < n; i++) {
    TF_Tensor* e = new_zeros(t->dtype, rest.dims, rest.rank, k->status);
    if (e == NULL) break;
    copy_elems(t->dtype, e->buf->data,
               (const char*)kutil_data(t) + (size_t)(i * per) * esz, per);
    if (!tfe_variant_append(v, e)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
      break;
    }
  }
  if (!KUTIL_OK(k)) {
    tfe_variant_unref(v);
    return;
  }
  set_variant_output(k, 0, v);
}

/* ------------------------------------------------------------------------
 * Reading elements. */

/* The shape to use for uninitialised elements: `op` merged with the
 * list's shape and, when scan is set and still partial, with every
 * initialised element's shape. Returns 1 (out filled) or 0 with status. */
static int element_shape_for(tfe_kernel_context* k, const tfe_variant* l,
                             const tfe_pshape* op, int scan, tfe_pshape* out) {
  int64_t i;
  tfe_pshape_init_unknown(out);
  if (!tfe_pshape_merge(op, &l->element_shape, out, k->status)) return 0;
  if (!scan || tfe_pshape_fully_defined(out)) return 1;
  for (i = 0; i < l->num_tensors; i++) {
    if (l->tensors[i] == NULL) continue;
    if (!merge_element_shape(k, out, l->tensors[i])) return 0;
  }
  return 1;
}

static void k_tensor_list_stack(tfe_kernel_context* k) {
  const tfe_variant* l = input_list(k, 0);
  TF_DataType dtype = attr_type(k, "element_dtype");
  int32_t want;
  tfe_pshape op, shape;
  int64_t i, per, *dims;
  size_t esz = elem_bytes(dtype);
  TF_Tensor* out;
  char sbuf[256];
  if (!kutil_attr_int32(k, "num_elements", -1, &want)) return;
  if (l == NULL || !check_dtype(k, dtype, l)) return;
  if (want != -1 && want != l->num_tensors) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Operation expected a list with %lld elements but got a list "
               "with %lld elements.",
               (long long)want, (long long)l->num_tensors);
    return;
  }
  if (!tfe_pshape_from_tensor(k->inputs[1], &op, k->status)) return;
  tfe_pshape_init_unknown(&shape);
  if (!tfe_pshape_merge(&op, &l->element_shape, &shape, k->status)) {
    tfe_pshape_free(&op);
    return;
  }
  tfe_pshape_free(&op);
  if (!tfe_pshape_fully_defined(&shape) && l->num_tensors == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tried to stack elements of an empty list with "
               "non-fully-defined element_shape: %s",
               tfe_pshape_str(&shape, sbuf, sizeof sbuf));
    tfe_pshape_free(&shape);
    return;
  }
  for (i = 0; i < l->num_tensors; i++) {
    if (l->tensors[i] == NULL) continue;
    if (!merge_element_shape(k, &shape, l->tensors[i])) return;
  }
  if (!tfe_pshape_fully_defined(&shape)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tried to stack list which only contains uninitialized "
               "tensors and has a non-fully-defined element_shape: %s",
               tfe_pshape_str(&shape, sbuf, sizeof sbuf));
    tfe_pshape_free(&shape);
    return;
  }
  dims = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(shape.rank + 1));
  if (dims == NULL) {
    tfe_pshape_free(&shape);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  dims[0] = l->num_tensors;
  if (shape.rank > 0) memcpy(dims + 1, shape.dims, sizeof(int64_t) * (size_t)shape.rank);
  per = tfe_shape_num_elements(shape.dims, shape.rank);
  out = new_zeros(dtype, dims, shape.rank + 1, k->status);
  tfe_free(dims);
  tfe_pshape_free(&shape);
  if (out == NULL) return;
  for (i = 0; i < l->num_tensors; i++) {
    const TF_Tensor* e = l->tensors[i];
    if (e == NULL) continue; /* stays zero */
    copy_elems(dtype, (char*)out->buf->data + (size_t)(i * per) * esz,
               kutil_data(e), per);
  }
  tfe_kernel_set_output(k, 0, out);
}

/* Output `index` = element `e` of l, or zeros of the element shape when
 * uninitialised (scan: infer from other elements, as GetItem does). */
static void output_element(tfe_kernel_context* k, int index,
                           const tfe_variant* l, const TF_Tensor* e,
                           const TF_Tensor* op_shape_t, int scan) {
  tfe_pshape op, shape;
  char sbuf[256];
  TF_Tensor* out;
  if (e != NULL) {
    out = tfe_tensor_share(e);
    if (out == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
    tfe_kernel_set_output(k, index, out);
    return;
  }
  if (!tfe_pshape_from_tensor(op_shape_t, &op, k->status)) return;
  if (!element_shape_for(k, l, &op, scan, &shape)) {
    tfe_pshape_free(&op);
    return;
  }
  tfe_pshape_free(&op);
  if (!tfe_pshape_fully_defined(&shape)) {
    if (scan) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Trying to read an uninitialized tensor but element_shape is "
                 "not fully defined: %s and no list element is set.",
                 tfe_pshape_str(&shape, sbuf, sizeof sbuf));
    } else {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Trying to read an uninitialized tensor but element_shape is "
                 "not fully defined.%s",
                 tfe_pshape_str(&shape, sbuf, sizeof sbuf));
    }
    tfe_pshape_free(&shape);
    return;
  }
  out = new_zeros(l->element_dtype, shape.dims, shape.rank, k->status);
  tfe_pshape_free(&shape);
  if (out != NULL) tfe_kernel_set_output(k, index, out);
}

static void k_tensor_list_get_item(tfe_kernel_context* k) {
  const tfe_variant* l = input_list(k, 0);
  int64_t idx;
  if (l == NULL || !check_dtype(k, attr_type(k, "element_dtype"), l)) return;
  idx = kutil_get_int(k->inputs[1], 0);
  if (idx < 0 || idx >= l->num_tensors) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to access element %lld in a list with %lld elements.",
               (long long)idx, (long long)l->num_tensors);
    return;
  }
  output_element(k, 0, l, l->tensors[idx], k->inputs[2], 1);
}

static void k_tensor_list_length(tfe_kernel_context* k) {
  const tfe_variant* l = input_list(k, 0);
  TF_Tensor* out;
  if (l == NULL) return;
  out = tfe_kernel_alloc_output(k, 0, TF_INT32, NULL, 0);
  if (out != NULL) ((int32_t*)out->buf->data)[0] = (int32_t)l->num_tensors;
}

static void k_tensor_list_element_shape(tfe_kernel_context* k) {
  const tfe_variant* l = input_list(k, 0);
  TF_DataType st = attr_type(k, "shape_type");
  TF_Tensor* out;
  int64_t n;
  int i;
  if (l == NULL) return;
  if (l->element_shape.rank < 0) {
    out = tfe_kernel_alloc_output(k, 0, st, NULL, 0);
    if (out == NULL) return;
    if (st == TF_INT32) {
      ((int32_t*)out->buf->data)[0] = -1;
    } else {
      ((int64_t*)out->buf->data)[0] = -1;
    }
    return;
  }
  n = l->element_shape.rank;
  out = tfe_kernel_alloc_output(k, 0, st, &n, 1);
  if (out == NULL) return;
  for (i = 0; i < l->element_shape.rank; i++) {
    if (st == TF_INT32) {
      ((int32_t*)out->buf->data)[i] = (int32_t)l->element_shape.dims[i];
    } else {
      ((int64_t*)out->buf->data)[i] = l->element_shape.dims[i];
    }
  }
}

/* ------------------------------------------------------------------------
 * Building modified lists. */

static void k_tensor_list_set_item(tfe_kernel_context* k) {
  const tfe_variant* l = input_list(k, 0);
  const TF_Tensor* item = k->inputs[2];
  int resize = kutil_attr_bool(k, "resize_if_index_out_of_bounds", 0);
  tfe_pshape is;
  tfe_variant* out;
  TF_Tensor* e;
  int64_t idx, len;
  char a[256], b[256];
  if (l == NULL || !check_dtype(k, item->dtype, l)) return;
  idx = kutil_get_int(k->inputs[1], 0);
  len = l->num_tensors;
  if (idx < 0 || (idx >= len && !resize)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to modify element %lld in a list with %lld elements.",
               (long long)idx, (long long)len);
    return;
  }
  is = tensor_pshape(item);
  if (!tfe_pshape_compatible(&is, &l->element_shape)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tried to set a tensor with incompatible shape at a list "
               "index. Item element shape: %s list shape: %s",
               tfe_pshape_str(&is, a, sizeof a),
               tfe_pshape_str(&l->element_shape, b, sizeof b));
    return;
  }
  out = tfe_variant_copy(l);
  e = tfe_tensor_share(item);
  if (out == NULL || e == NULL ||
      (idx >= len && !tfe_variant_resize(out, idx + 1))) {
    TF_DeleteTensor(e);
    tfe_variant_unref(out);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  tfe_variant_set(out, idx, e);
  set_variant_output(k, 0, out);
}

static void k_tensor_list_push_back(tfe_kernel_context* k) {
  const tfe_variant* l = input_list(k, 0);
  const TF_Tensor* item = k->inputs[1];
  tfe_pshape is;
  tfe_variant* out;
  TF_Tensor* e;
  char a[256], b[256];
  if (l == NULL || !check_dtype(k, item->dtype, l)) return;
  is = tensor_pshape(item);
  if (!tfe_pshape_compatible(&is, &l->element_shape)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tried to append a tensor with incompatible shape to a list. "
               "Op element shape: %s list shape: %s",
               tfe_pshape_str(&is, a, sizeof a),
               tfe_pshape_str(&l->element_shape, b, sizeof b));
    return;
  }
  if (l->max_num_elements != -1 && l->num_tensors >= l->max_num_elements) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tried to push item into a full list list size: %lld "
               "max_num_elements: %lld",
               (long long)l->num_tensors, (long long)l->max_num_elements);
    return;
  }
  out = tfe_variant_copy(l);
  e = tfe_tensor_share(item);
  if (out == NULL || e == NULL) {
    TF_DeleteTensor(e);
    tfe_variant_unref(out);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  if (!tfe_variant_append(out, e)) {
    tfe_variant_unref(out);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  set_variant_output(k, 0, out);
}

static void k_tensor_list_pop_back(tfe_kernel_context* k) {
  const tfe_variant* l = input_list(k, 0);
  tfe_variant* out;
  if (l == NULL ||
      !check_dtype(k, attr_type(k, "element_dtype"), l)) {
    return;
  }
  if (l->num_tensors == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Trying to pop from an empty list.");
    return;
  }
  output_element(k, 1, l, l->tensors[l->num_tensors - 1], k->inputs[1], 0);
  if (!KUTIL_OK(k)) return;
  out = tfe_variant_copy(l);
  if (out != NULL && !tfe_variant_resize(out, l->num_tensors - 1)) {
    tfe_variant_unref(out);
    out = NULL;
  }
  set_variant_output(k, 0, out);
}

/* ------------------------------------------------------------------------
 * Whole-list ops: concat / split / gather / scatter / resize / batches. */

/* A new host tensor with rows [start, start + count) of t (t has rank >= 1).
 * keep_dim: the result keeps the leading dimension (shape [count, ...]);
 * otherwise count must be 1 and the result has t's shape without it. */
static TF_Tensor* copy_rows(const TF_Tensor* t, int64_t start, int64_t count,
                            int keep_dim, TF_Status* s) {
  int64_t per = tfe_shape_num_elements(t->dims + 1, t->num_dims - 1);
  size_t esz = elem_bytes(t->dtype);
  int64_t* dims;
  TF_Tensor* e;
  int nd = keep_dim ? t->num_dims : t->num_dims - 1;
  dims = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(t->num_dims));
  if (dims == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  memcpy(dims, t->dims, sizeof(int64_t) * (size_t)t->num_dims);
  dims[0] = count;
  e = new_zeros(t->dtype, keep_dim ? dims : dims + 1, nd, s);
  tfe_free(dims);
  if (e == NULL) return NULL;
  copy_elems(t->dtype, e->buf->data,
             (const char*)kutil_data(t) + (size_t)(start * per) * esz,
             count * per);
  return e;
}

/* Fails unless elements of dtype can be copied by these kernels. */
static int check_copyable(tfe_kernel_context* k, const char* op,
                          TF_DataType dtype) {
  if (elem_bytes(dtype) == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s does not support dtype %s", op,
               dt_name(dtype));
    return 0;
  }
  return 1;
}

/* TensorListConcat (v2 = 0: element_shape attr, no leading_dims) and
 * TensorListConcatV2: the elements joined along their first dimension,
 * plus each element's length. */
static void concat_list(tfe_kernel_context* k, int v2) {
  const tfe_variant* l = input_list(k, 0);
  TF_DataType dtype = attr_type(k, "element_dtype");
  const TF_Tensor* lead = v2 ? k->inputs[2] : NULL;
  int64_t nlead = lead != NULL ? kutil_num_elements(lead) : 0;
  tfe_pshape rest; /* the element shape without its first dimension */
  int64_t first_dim = -1, total = 0, per, i, *dims = NULL, *lens;
  size_t esz = elem_bytes(dtype);
  TF_Tensor *lengths, *out;
  char sbuf[256];
  if (l == NULL || !check_dtype(k, dtype, l)) return;
  if (!check_copyable(k, v2 ? "TensorListConcatV2" : "TensorListConcat",
                      dtype)) {
    return;
  }
  tfe_pshape_init_unknown(&rest);
  if (v2) {
    tfe_pshape op, es;
    if (!tfe_pshape_from_tensor(k->inputs[1], &op, k->status)) return;
    tfe_pshape_init_unknown(&es);
    i = tfe_pshape_merge(&op, &l->element_shape, &es, k->status);
    tfe_pshape_free(&op);
    if (!i) return;
    if (es.rank == 0) {
      tfe_pshape_free(&es);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Concat requires elements to be at least vectors, found "
                 "scalars instead.");
      return;
    }
    if (es.rank > 0) {
      first_dim = es.dims[0];
      if (!tfe_pshape_set(&rest, es.rank - 1, es.dims + 1)) {
        tfe_pshape_free(&es);
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
        return;
      }
    }
    tfe_pshape_free(&es);
  } else {
    const tfe_shape* attr = NULL;
    if (k->attrs != NULL &&
        tfe_attrs_get_shape(k->attrs, "element_shape", &attr, NULL) &&
        attr->num_dims >= 0 &&
        !tfe_pshape_set(&rest, attr->num_dims > 0 ? attr->num_dims - 1 : 0,
                        attr->num_dims > 0 ? attr->dims + 1 : NULL)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
  }
  if (l->num_tensors == 0 && !tfe_pshape_fully_defined(&rest)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "All except the first dimension must be fully defined when "
               "concating an empty tensor list. element_shape: %s",
               tfe_pshape_str(&rest, sbuf, sizeof sbuf));
    goto done;
  }
  {
    /* TensorFlow checks the elements against the shape (and infers the
     * first dimension) only when the list's shape is partial; with a fully
     * defined list shape tfe still checks them, so that an element that
     * does not fit fails instead of being copied out of bounds. */
    int partial = !tfe_pshape_fully_defined(&l->element_shape);
    int check_dim = first_dim == -1;
    int64_t inferred = first_dim;
    for (i = 0; i < l->num_tensors; i++) {
      const TF_Tensor* t = l->tensors[i];
      tfe_pshape ts, merged;
      if (t == NULL) continue;
      if (t->num_dims < 1) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Concat saw a scalar shape at index %lld but requires at "
                   "least vectors.",
                   (long long)i);
        goto done;
      }
      ts.rank = t->num_dims - 1;
      ts.dims = t->dims + 1;
      if (partial) {
        tfe_pshape_init_unknown(&merged);
        if (!tfe_pshape_merge(&rest, &ts, &merged, k->status)) goto done;
        tfe_pshape_free(&rest);
        rest = merged;
      } else if (!tfe_pshape_compatible(&rest, &ts)) {
        char a[256];
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "List element at index %lld has shape %s, which does not "
                   "fit the list's element shape %s",
                   (long long)i, kutil_shape_str(t->dims, t->num_dims, a,
                                                 sizeof a),
                   tfe_pshape_str(&l->element_shape, sbuf, sizeof sbuf));
        goto done;
      }
      if (first_dim != -1 && first_dim != t->dims[0]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "First entry of element_shape input does not match the "
                   "first dim of list element at index: %lld Expected: %lld "
                   "Actual: %lld",
                   (long long)i, (long long)first_dim, (long long)t->dims[0]);
        goto done;
      }
      if (partial && check_dim) {
        if (inferred == -1) {
          inferred = t->dims[0];
        } else if (inferred != t->dims[0]) {
          inferred = -1;
          check_dim = 0;
        }
      }
    }
    if (partial) first_dim = inferred;
  }
  if (!tfe_pshape_fully_defined(&rest)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to concat list with only uninitialized tensors but "
               "element_shape_except_first_dim is not fully defined: %s",
               tfe_pshape_str(&rest, sbuf, sizeof sbuf));
    goto done;
  }
  lengths = tfe_kernel_alloc_output(k, 1, TF_INT64, &l->num_tensors, 1);
  if (lengths == NULL) goto done;
  lens = (int64_t*)lengths->buf->data;
  for (i = 0; i < l->num_tensors; i++) {
    int64_t dim;
    if (l->tensors[i] != NULL) {
      dim = l->tensors[i]->dims[0];
    } else if (i >= nlead && first_dim != -1) {
      dim = first_dim;
    } else if (!v2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Concating lists with uninitialized tensors is not supported "
                 "in this version of TensorListConcat. Consider updating your "
                 "GraphDef to run the newer version.");
      goto done;
    } else if (i >= nlead) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "List contains uninitialized tensor at index %lld but "
                 "leading_dims has only %lld elements.",
                 (long long)i, (long long)nlead);
      goto done;
    } else {
      dim = kutil_get_int(lead, i);
      if (dim < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "leading_dims[%lld] must be non-negative, got %lld",
                   (long long)i, (long long)dim);
        goto done;
      }
    }
    lens[i] = dim;
    total += dim;
  }
  dims = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(rest.rank + 1));
  if (dims == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  dims[0] = total;
  if (rest.rank > 0) {
    memcpy(dims + 1, rest.dims, sizeof(int64_t) * (size_t)rest.rank);
  }
  out = new_zeros(dtype, dims, rest.rank + 1, k->status);
  if (out == NULL) goto done;
  per = tfe_shape_num_elements(rest.dims, rest.rank);
  total = 0;
  for (i = 0; i < l->num_tensors; i++) {
    const TF_Tensor* e = l->tensors[i];
    if (e != NULL) {
      copy_elems(dtype, (char*)out->buf->data + (size_t)(total * per) * esz,
                 kutil_data(e), lens[i] * per);
    }
    total += lens[i];
  }
  tfe_kernel_set_output(k, 0, out);
done:
  tfe_free(dims);
  tfe_pshape_free(&rest);
}

static void k_tensor_list_concat(tfe_kernel_context* k) { concat_list(k, 0); }

static void k_tensor_list_concat_v2(tfe_kernel_context* k) {
  concat_list(k, 1);
}

static void k_tensor_list_split(tfe_kernel_context* k) {
  const TF_Tensor* t = k->inputs[0];
  const TF_Tensor* lengths = k->inputs[2];
  tfe_pshape shape, rest_spec, rest_t;
  tfe_variant* v;
  int64_t i, n, start = 0, end = 0;
  char a[256], b[256];
  kutil_shape_buf sb;
  if (!tfe_pshape_from_tensor(k->inputs[1], &shape, k->status)) return;
  if (shape.rank == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorListSplit requires element_shape to be at least of "
               "rank 1, but saw: %s",
               tfe_pshape_str(&shape, a, sizeof a));
    goto fail;
  }
  if (t->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tensor must be at least a vector, but saw shape: %s",
               kutil_tshape(t, &sb));
    goto fail;
  }
  rest_t.rank = t->num_dims - 1;
  rest_t.dims = t->dims + 1;
  rest_spec.rank = shape.rank < 0 ? -1 : shape.rank - 1;
  rest_spec.dims = shape.rank > 0 ? shape.dims + 1 : NULL;
  if (!tfe_pshape_compatible(&rest_spec, &rest_t)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "tensor shape %s is not compatible with element_shape %s",
               kutil_shape_str(t->dims, t->num_dims, a, sizeof a),
               tfe_pshape_str(&shape, b, sizeof b));
    goto fail;
  }
  if (lengths->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected lengths to be a vector, received shape: %s",
               kutil_tshape(lengths, &sb));
    goto fail;
  }
  if (!check_copyable(k, "TensorListSplit", t->dtype)) goto fail;
  v = tfe_variant_new_list(t->dtype, &shape, -1);
  tfe_pshape_free(&shape);
  if (v == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  n = lengths->dims[0];
  for (i = 0; i < n; i++) {
    int64_t len = kutil_get_int(lengths, i);
    TF_Tensor* e;
    if (len < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid value in lengths: %lld",
                 (long long)len);
      break;
    }
    end = start + len;
    if (end > t->dims[0]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Attempting to slice [%lld, %lld] from tensor with length "
                 "%lld",
                 (long long)start, (long long)end, (long long)t->dims[0]);
      break;
    }
    e = copy_rows(t, start, len, 1, k->status);
    if (e == NULL) break;
    if (!tfe_variant_append(v, e)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
      break;
    }
    start = end;
  }
  if (KUTIL_OK(k) && end != t->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Unused values in tensor. Length of tensor: %lld Values used: "
               "%lld",
               (long long)t->dims[0], (long long)end);
  }
  if (!KUTIL_OK(k)) {
    tfe_variant_unref(v);
    return;
  }
  set_variant_output(k, 0, v);
  return;
fail:
  tfe_pshape_free(&shape);
}

static void k_tensor_list_gather(tfe_kernel_context* k) {
  const tfe_variant* l = input_list(k, 0);
  const TF_Tensor* indices = k->inputs[1];
  TF_DataType dtype = attr_type(k, "element_dtype");
  int64_t n = kutil_num_elements(indices), i, per, *dims;
  size_t esz = elem_bytes(dtype);
  tfe_pshape op, shape;
  TF_Tensor* out;
  char sbuf[256];
  if (l == NULL || !check_dtype(k, dtype, l)) return;
  if (!check_copyable(k, "TensorListGather", dtype)) return;
  if (!tfe_pshape_from_tensor(k->inputs[2], &op, k->status)) return;
  tfe_pshape_init_unknown(&shape);
  i = tfe_pshape_merge(&op, &l->element_shape, &shape, k->status);
  tfe_pshape_free(&op);
  if (!i) return;
  if (!tfe_pshape_fully_defined(&shape) && n == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tried to gather 0-elements from a list with non-fully-defined "
               "shape: %s",
               tfe_pshape_str(&shape, sbuf, sizeof sbuf));
    tfe_pshape_free(&shape);
    return;
  }
  for (i = 0; i < n; i++) {
    int64_t idx = kutil_get_int(indices, i);
    const TF_Tensor* e;
    if (idx < 0 || idx >= l->num_tensors) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Trying to gather element %lld in a list with %lld "
                 "elements.",
                 (long long)idx, (long long)l->num_tensors);
      tfe_pshape_free(&shape);
      return;
    }
    /* Merged whatever the list's shape says (TensorFlow skips this for a
     * fully defined list shape), so a stray element cannot overflow. */
    e = l->tensors[idx];
    if (e == NULL) continue;
    if (!merge_element_shape(k, &shape, e)) return;
  }
  if (!tfe_pshape_fully_defined(&shape)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tried to gather uninitialized tensors from a list with "
               "non-fully-defined element_shape: %s",
               tfe_pshape_str(&shape, sbuf, sizeof sbuf));
    tfe_pshape_free(&shape);
    return;
  }
  dims = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(shape.rank + 1));
  if (dims == NULL) {
    tfe_pshape_free(&shape);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  dims[0] = n;
  if (shape.rank > 0) {
    memcpy(dims + 1, shape.dims, sizeof(int64_t) * (size_t)shape.rank);
  }
  per = tfe_shape_num_elements(shape.dims, shape.rank);
  out = new_zeros(dtype, dims, shape.rank + 1, k->status);
  tfe_free(dims);
  tfe_pshape_free(&shape);
  if (out == NULL) return;
  for (i = 0; i < n; i++) {
    const TF_Tensor* e = l->tensors[kutil_get_int(indices, i)];
    if (e == NULL) continue;
    copy_elems(dtype, (char*)out->buf->data + (size_t)(i * per) * esz,
               kutil_data(e), per);
  }
  tfe_kernel_set_output(k, 0, out);
}

/* Stores row r of `value` as element indices[r] of v (a later duplicate
 * index wins, as in TensorFlow). Indices are already checked. */
static int scatter_rows(tfe_kernel_context* k, tfe_variant* v,
                        const TF_Tensor* value, const TF_Tensor* indices) {
  int64_t n = kutil_num_elements(indices), r;
  for (r = 0; r < n; r++) {
    TF_Tensor* e = copy_rows(value, r, 1, 0, k->status);
    if (e == NULL) return 0;
    tfe_variant_set(v, kutil_get_int(indices, r), e);
  }
  return 1;
}

/* TensorListScatter and TensorListScatterV2 (with num_elements). */
static void scatter_new_list(tfe_kernel_context* k, int v2) {
  const TF_Tensor* t = k->inputs[0];
  const TF_Tensor* indices = k->inputs[1];
  int64_t num = -1, n = kutil_num_elements(indices), i, highest = -1;
  tfe_pshape shape, rest;
  tfe_variant* v;
  char a[256], b[256];
  kutil_shape_buf sb;
  if (!tfe_pshape_from_tensor(k->inputs[2], &shape, k->status)) return;
  if (v2) {
    const TF_Tensor* nt = k->inputs[3];
    if (nt->num_dims != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "num_elements must be a scalar, but saw shape: %s",
                 kutil_tshape(nt, &sb));
      goto fail;
    }
    num = kutil_get_int(nt, 0);
    if (num < -1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "TensorListScatter expects num_elements >= -1, found: %lld",
                 (long long)num);
      goto fail;
    }
  }
  if (t->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tensor must be at least a vector, but saw shape: %s",
               kutil_tshape(t, &sb));
    goto fail;
  }
  rest.rank = t->num_dims - 1;
  rest.dims = t->dims + 1;
  if (!tfe_pshape_compatible(&shape, &rest)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Specified a list with shape %s from a tensor with shape %s",
               tfe_pshape_str(&shape, a, sizeof a),
               tfe_pshape_str(&rest, b, sizeof b));
    goto fail;
  }
  if (n != t->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Invalid number of rows in input tensor. Expected: %lld "
               "Actual: %lld",
               (long long)n, (long long)t->dims[0]);
    goto fail;
  }
  for (i = 0; i < n; i++) {
    int64_t idx = kutil_get_int(indices, i);
    if (idx < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Indices in TensorListScatter must all be non-negative.");
      goto fail;
    }
    if (num != -1 && idx >= num) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "TensorListScatter: Trying to scatter at index %lld in list "
                 "with size %lld",
                 (long long)idx, (long long)num);
      goto fail;
    }
    if (idx > highest) highest = idx;
  }
  if (!check_copyable(k, v2 ? "TensorListScatterV2" : "TensorListScatter",
                      t->dtype)) {
    goto fail;
  }
  v = tfe_variant_new_list(t->dtype, &shape, -1);
  tfe_pshape_free(&shape);
  if (v == NULL || !tfe_variant_resize(v, highest + 1 > num ? highest + 1
                                                             : num)) {
    tfe_variant_unref(v);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  if (!scatter_rows(k, v, t, indices)) {
    tfe_variant_unref(v);
    return;
  }
  set_variant_output(k, 0, v);
  return;
fail:
  tfe_pshape_free(&shape);
}

static void k_tensor_list_scatter(tfe_kernel_context* k) {
  scatter_new_list(k, 0);
}

static void k_tensor_list_scatter_v2(tfe_kernel_context* k) {
  scatter_new_list(k, 1);
}

static void k_tensor_list_scatter_into_existing(tfe_kernel_context* k) {
  const tfe_variant* l = input_list(k, 0);
  const TF_Tensor* t = k->inputs[1];
  const TF_Tensor* indices = k->inputs[2];
  int64_t n, i, highest = -1;
  tfe_variant* out;
  kutil_shape_buf sb;
  if (l == NULL) return;
  if (t->dtype != l->element_dtype) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Invalid data types; input tensor type: %s list element_type: "
               "%s",
               dt_name(t->dtype), dt_name(l->element_dtype));
    return;
  }
  if (t->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tensor must be at least a vector, but saw shape: %s",
               kutil_tshape(t, &sb));
    return;
  }
  if (indices->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected indices to be a vector, but received shape: %s",
               kutil_tshape(indices, &sb));
    return;
  }
  n = indices->dims[0];
  if (n != t->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected len(indices) == tensor.shape[0], but saw: %lld vs. "
               "%lld",
               (long long)n, (long long)t->dims[0]);
    return;
  }
  for (i = 0; i < n; i++) {
    int64_t idx = kutil_get_int(indices, i);
    /* TensorFlow does not check this (and writes out of bounds). */
    if (idx < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Indices in TensorListScatterIntoExistingList must all be "
                 "non-negative, saw %lld at position %lld.",
                 (long long)idx, (long long)i);
      return;
    }
    if (idx > highest) highest = idx;
  }
  if (!check_copyable(k, "TensorListScatterIntoExistingList", t->dtype)) {
    return;
  }
  out = tfe_variant_copy(l);
  if (out == NULL ||
      (highest + 1 > out->num_tensors &&
       !tfe_variant_resize(out, highest + 1))) {
    tfe_variant_unref(out);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  if (!scatter_rows(k, out, t, indices)) {
    tfe_variant_unref(out);
    return;
  }
  set_variant_output(k, 0, out);
}

static void k_tensor_list_resize(tfe_kernel_context* k) {
  const tfe_variant* l = input_list(k, 0);
  const TF_Tensor* size_t_ = k->inputs[1];
  tfe_variant* out;
  int64_t size;
  if (l == NULL) return;
  if (size_t_->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "size must be a scalar");
    return;
  }
  size = kutil_get_int(size_t_, 0);
  if (size < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorListSlice expects size to be non-negative. Got: %lld",
               (long long)size);
    return;
  }
  out = tfe_variant_copy(l);
  if (out != NULL && !tfe_variant_resize(out, size)) {
    tfe_variant_unref(out);
    out = NULL;
  }
  set_variant_output(k, 0, out);
}

static int pshape_identical(const tfe_pshape* a, const tfe_pshape* b) {
  int i;
  if (a->rank != b->rank) return 0;
  for (i = 0; i < a->rank; i++) {
    if (a->dims[i] != b->dims[i]) return 0;
  }
  return 1;
}

/* A new variant tensor shaped like `like`, with empty slots; NULL (status
 * set) on failure. */
static TF_Tensor* new_variant_tensor(tfe_kernel_context* k,
                                     const TF_Tensor* like,
                                     tfe_variant*** slots) {
  TF_Tensor* t = TF_AllocateTensor(TF_VARIANT, like->dims, like->num_dims, 0);
  *slots = tfe_variant_slots(t);
  if (t != NULL && kutil_num_elements(like) == 0) return t;
  if (*slots == NULL) {
    TF_DeleteTensor(t);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  return t;
}

static void k_tensor_list_concat_lists(tfe_kernel_context* k) {
  const TF_Tensor* ta = k->inputs[0];
  const TF_Tensor* tb = k->inputs[1];
  TF_DataType dtype = attr_type(k, "element_dtype");
  tfe_variant **sa = tfe_variant_slots(ta), **sb = tfe_variant_slots(tb);
  tfe_variant** so;
  TF_Tensor* out;
  int64_t n, i, j;
  char a[256], b[256];
  if (!tfe_ew_same_shape(ta, tb)) {
    kutil_shape_buf x, y;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Incompatible input TensorList tensor shapes: %s vs. %s",
               kutil_tshape(ta, &x), kutil_tshape(tb, &y));
    return;
  }
  n = kutil_num_elements(ta);
  for (i = 0; i < n; i++) {
    const tfe_variant* la = sa != NULL ? sa[i] : NULL;
    const tfe_variant* lb = sb != NULL ? sb[i] : NULL;
    if (la == NULL || la->kind != TFE_VARIANT_LIST) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "input_a is not a TensorList at index %lld.  Saw: '%s'",
                 (long long)i, tfe_variant_debug_string(la, a, sizeof a));
      return;
    }
    if (lb == NULL || lb->kind != TFE_VARIANT_LIST) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "input_b is not a TensorList at index %lld.  Saw: '%s'",
                 (long long)i, tfe_variant_debug_string(lb, a, sizeof a));
      return;
    }
    if (la->element_dtype != dtype) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "input_a[%lld].dtype != element_dtype.  Saw: %s vs. %s",
                 (long long)i, dt_name(la->element_dtype), dt_name(dtype));
      return;
    }
    if (lb->element_dtype != dtype) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "input_b[%lld].dtype != element_dtype.  Saw: %s vs. %s",
                 (long long)i, dt_name(lb->element_dtype), dt_name(dtype));
      return;
    }
    if (!pshape_identical(&la->element_shape, &lb->element_shape)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "input_a and input_b TensorList element shapes are not "
                 "identical at index %lld.  Saw %s vs. %s",
                 (long long)i,
                 tfe_pshape_str(&la->element_shape, a, sizeof a),
                 tfe_pshape_str(&lb->element_shape, b, sizeof b));
      return;
    }
  }
  out = new_variant_tensor(k, ta, &so);
  if (out == NULL) return;
  for (i = 0; i < n; i++) {
    const tfe_variant* lb = sb[i];
    tfe_variant* c = tfe_variant_copy(sa[i]);
    so[i] = c;
    if (c == NULL) break;
    for (j = 0; j < lb->num_tensors; j++) {
      TF_Tensor* e = NULL;
      if (lb->tensors[j] != NULL) {
        e = tfe_tensor_share(lb->tensors[j]);
        if (e == NULL) break;
      }
      if (!tfe_variant_append(c, e)) break;
    }
    if (j < lb->num_tensors) break;
  }
  if (i < n) {
    TF_DeleteTensor(out);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  tfe_kernel_set_output(k, 0, out);
}

static void k_tensor_list_push_back_batch(tfe_kernel_context* k) {
  const TF_Tensor* handles = k->inputs[0];
  const TF_Tensor* t = k->inputs[1];
  TF_DataType dtype = attr_type(k, "element_dtype");
  tfe_variant **sh = tfe_variant_slots(handles), **so;
  tfe_pshape es;
  TF_Tensor* out;
  int64_t n, b;
  char a[256], c[256];
  kutil_shape_buf sb;
  if (t->dtype != dtype) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Invalid data types; list elements %s but tried to append %s",
               dt_name(dtype), dt_name(t->dtype));
    return;
  }
  if (t->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected tensor to be at least a vector, but saw shape: %s",
               kutil_tshape(t, &sb));
    return;
  }
  if (handles->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected input_handles to be a vector, but saw shape: %s",
               kutil_tshape(handles, &sb));
    return;
  }
  n = handles->dims[0];
  if (t->dims[0] != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected tensor.shape[0] == input_handles.size, but saw %lld "
               "vs. %lld",
               (long long)t->dims[0], (long long)n);
    return;
  }
  es.rank = t->num_dims - 1;
  es.dims = t->dims + 1;
  for (b = 0; b < n; b++) {
    const tfe_variant* l = sh != NULL ? sh[b] : NULL;
    if (l == NULL || l->kind != TFE_VARIANT_LIST) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input handle at index %lld is not a list. Saw: '%s'",
                 (long long)b, tfe_variant_debug_string(l, a, sizeof a));
      return;
    }
    if (!tfe_pshape_compatible(&l->element_shape, &es)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Tried to append a tensor with incompatible shape to a list "
                 "at index %lld. Op element shape: %s list shape: %s",
                 (long long)b, tfe_pshape_str(&es, a, sizeof a),
                 tfe_pshape_str(&l->element_shape, c, sizeof c));
      return;
    }
    if (l->element_dtype != dtype) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Invalid data type at index %lld; op elements %s but list "
                 "elements %s",
                 (long long)b, dt_name(dtype), dt_name(l->element_dtype));
      return;
    }
  }
  if (!check_copyable(k, "TensorListPushBackBatch", dtype)) return;
  out = new_variant_tensor(k, handles, &so);
  if (out == NULL) return;
  for (b = 0; b < n; b++) {
    TF_Tensor* e;
    so[b] = tfe_variant_copy(sh[b]);
    if (so[b] == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
      break;
    }
    e = copy_rows(t, b, 1, 0, k->status);
    if (e == NULL) break;
    if (!tfe_variant_append(so[b], e)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
      break;
    }
  }
  if (!KUTIL_OK(k)) {
    TF_DeleteTensor(out);
    return;
  }
  tfe_kernel_set_output(k, 0, out);
}

/* ------------------------------------------------------------------------
 * Optionals. */

/* The optional held by scalar variant input 0, or NULL with status. */
static const tfe_variant* input_optional(tfe_kernel_context* k,
                                         const char* op) {
  const TF_Tensor* t = k->inputs[0];
  const tfe_variant* v;
  int ok;
  if (t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input to %s must be a scalar tensor containing an "
               "OptionalVariant object.",
               op);
    return NULL;
  }
  v = tfe_variant_scalar(t, &ok);
  if (!ok || v == NULL || v->kind != TFE_VARIANT_OPTIONAL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input to %s must be an OptionalVariant object.", op);
    return NULL;
  }
  return v;
}

static void k_optional_from_value(tfe_kernel_context* k) {
  tfe_variant* v = tfe_variant_new_optional(1);
  int i;
  if (v == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  for (i = 0; i < k->num_inputs; i++) {
    TF_Tensor* c = tfe_tensor_share(k->inputs[i]);
    if (c == NULL || !tfe_variant_append(v, c)) {
      tfe_variant_unref(v);
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
  }
  set_variant_output(k, 0, v);
}

static void k_optional_none(tfe_kernel_context* k) {
  set_variant_output(k, 0, tfe_variant_new_optional(0));
}

static void k_optional_has_value(tfe_kernel_context* k) {
  const tfe_variant* v = input_optional(k, "OptionalHasValue");
  TF_Tensor* out;
  if (v == NULL) return;
  out = tfe_kernel_alloc_output(k, 0, TF_BOOL, NULL, 0);
  if (out != NULL) ((unsigned char*)out->buf->data)[0] = v->has_value ? 1 : 0;
}

static void k_optional_get_value(tfe_kernel_context* k) {
  const tfe_variant* v = input_optional(k, "OptionalGetValue");
  const tfe_attr_value* shapes =
      k->attrs != NULL ? tfe_attrs_find(k->attrs, "output_shapes") : NULL;
  int i;
  char a[256], b[256];
  if (v == NULL) return;
  if (!v->has_value) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The given optional does not have a value.");
    return;
  }
  if (v->num_tensors != k->num_outputs) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The given optional has %lld components, expected %d",
               (long long)v->num_tensors, k->num_outputs);
    return;
  }
  for (i = 0; i < k->num_outputs; i++) {
    const TF_Tensor* c = v->tensors[i];
    TF_DataType want = k->output_types != NULL ? k->output_types[i] : c->dtype;
    TF_Tensor* out;
    if (c->dtype != want) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "The given optional does not match the expected type for "
                 "component %d. Expected: %s. Actual: %s.",
                 i, dt_name(want), dt_name(c->dtype));
      return;
    }
    if (shapes != NULL && shapes->is_list && i < shapes->list_size) {
      tfe_pshape ws, cs = tensor_pshape(c);
      ws.rank = shapes->list.shape[i].num_dims;
      ws.dims = shapes->list.shape[i].dims;
      if (!tfe_pshape_compatible(&ws, &cs)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "The given optional does not match the expected shape for "
                   "component %d. Expected: %s. Actual: %s.",
                   i, tfe_pshape_str(&ws, a, sizeof a),
                   tfe_pshape_str(&cs, b, sizeof b));
        return;
      }
    }
    out = tfe_tensor_share(c);
    if (out == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
    tfe_kernel_set_output(k, i, out);
  }
}

/* ------------------------------------------------------------------------
 * AddN / ZerosLike for T=variant with tfe's own element arithmetic. */

static int builtin_add(void* arg, const TF_Tensor* a, const TF_Tensor* b,
                       TF_Tensor** out, TF_Status* s);

/* Element-wise sum of two variant tensors of one shape. */
static int add_variant_elements(const TF_Tensor* a, const TF_Tensor* b,
                                TF_Tensor** out, const char* dev,
                                TF_Status* s) {
  tfe_variant **sa = tfe_variant_slots(a), **sb = tfe_variant_slots(b), **so;
  int64_t n = tfe_shape_num_elements(a->dims, a->num_dims), i;
  TF_Tensor* t;
  if (sa == NULL || sb == NULL) {
    tfe_status_setf(s, TF_INTERNAL,
                    "AddN: a DT_VARIANT element holds no variant objects");
    return 0;
  }
  t = TF_AllocateTensor(TF_VARIANT, a->dims, a->num_dims, 0);
  so = tfe_variant_slots(t);
  if (so == NULL) {
    TF_DeleteTensor(t);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  for (i = 0; i < n; i++) {
    so[i] = tfe_variant_add(sa[i], sb[i], builtin_add, (void*)dev, dev, s);
    if (so[i] == NULL) {
      TF_DeleteTensor(t);
      return 0;
    }
  }
  *out = t;
  return 1;
}

static int builtin_add(void* arg, const TF_Tensor* a, const TF_Tensor* b,
                       TF_Tensor** out, TF_Status* s) {
  const tfe_ew_op* add = tfe_ew_addv2_op();
  tfe_bcast bc;
  const int64_t* dims[2];
  int ranks[2];
  const void* in[2];
  tfe_ew_params prm;
  TF_Tensor* t;
  kutil_shape_buf x, y;
  memset(&prm, 0, sizeof prm);
  if (a->dtype != b->dtype || !tfe_ew_same_shape(a, b)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Trying to add two tensors with incompatible element "
                    "shapes. One is %s and the other is %s",
                    kutil_tshape(a, &x), kutil_tshape(b, &y));
    return 0;
  }
  if (a->dtype == TF_VARIANT) {
    return add_variant_elements(a, b, out, (const char*)arg, s);
  }
  if ((int)a->dtype >= TFE_EW_NTYPES || add->fns[a->dtype] == NULL ||
      a->dtype == TF_STRING || a->dtype == TF_BOOL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Trying to add two tensors of unsupported dtype %s",
                    dt_name(a->dtype));
    return 0;
  }
  t = new_zeros(a->dtype, a->dims, a->num_dims, s);
  if (t == NULL) return 0;
  dims[0] = a->dims;
  dims[1] = b->dims;
  ranks[0] = a->num_dims;
  ranks[1] = b->num_dims;
  if (tfe_bcast_init(&bc, 2, dims, ranks) != TFE_BCAST_OK) {
    TF_DeleteTensor(t);
    tfe_status_setf(s, TF_INTERNAL, "AddN: cannot iterate element shapes");
    return 0;
  }
  in[0] = kutil_data(a);
  in[1] = kutil_data(b);
  if (bc.out_elems > 0) {
    add->fns[a->dtype](&bc, in, t->buf->data, 0, bc.out_elems, &prm);
  }
  *out = t;
  return 1;
}

static int builtin_zeros(void* arg, const TF_Tensor* in, TF_Tensor** out,
                         TF_Status* s) {
  (void)arg;
  if (in->dtype == TF_RESOURCE) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "ZerosLike of a DT_RESOURCE element is not supported");
    return 0;
  }
  *out = new_zeros(in->dtype, in->dims, in->num_dims, s);
  return *out != NULL;
}

static void k_addn_variant(tfe_kernel_context* k) {
  TF_Tensor* out = tfe_variant_add_n(k->inputs, k->num_inputs, builtin_add,
                                     (void*)k->device_name, k->device_name,
                                     k->status);
  if (out != NULL) tfe_kernel_set_output(k, 0, out);
}

static void k_zeros_like_variant(tfe_kernel_context* k) {
  TF_Tensor* out = tfe_variant_zeros_like_tensor(
      k->inputs[0], builtin_zeros, NULL, k->device_name, k->status);
  if (out != NULL) tfe_kernel_set_output(k, 0, out);
}

/* ------------------------------------------------------------------------ */

void tfe_register_list_kernels(void) {
  static const TF_DataType variant[] = {TF_VARIANT};
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("EmptyTensorList", k_empty_tensor_list, "shape_type",
                     idx, 2, NULL, NULL, 0);
  tfe_kutil_register("TensorListReserve", k_tensor_list_reserve, "shape_type",
                     idx, 2, NULL, NULL, 0);
  tfe_kutil_register("TensorListFromTensor", k_tensor_list_from_tensor,
                     "shape_type", idx, 2, NULL, NULL, 0);
  tfe_kutil_register("TensorListStack", k_tensor_list_stack, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("TensorListGetItem", k_tensor_list_get_item, NULL, NULL,
                     0, NULL, NULL, 0);
  tfe_kutil_register("TensorListSetItem", k_tensor_list_set_item, NULL, NULL,
                     0, NULL, NULL, 0);
  tfe_kutil_register("TensorListPushBack", k_tensor_list_push_back, NULL,
                     NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("TensorListPopBack", k_tensor_list_pop_back, NULL, NULL,
                     0, NULL, NULL, 0);
  tfe_kutil_register("TensorListLength", k_tensor_list_length, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("TensorListElementShape", k_tensor_list_element_shape,
                     "shape_type", idx, 2, NULL, NULL, 0);
  tfe_kutil_register("TensorListConcat", k_tensor_list_concat, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("TensorListConcatV2", k_tensor_list_concat_v2,
                     "shape_type", idx, 2, NULL, NULL, 0);
  tfe_kutil_register("TensorListSplit", k_tensor_list_split, "shape_type",
                     idx, 2, NULL, NULL, 0);
  tfe_kutil_register("TensorListGather", k_tensor_list_gather, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("TensorListScatter", k_tensor_list_scatter, "shape_type",
                     idx, 2, NULL, NULL, 0);
  tfe_kutil_register("TensorListScatterV2", k_tensor_list_scatter_v2,
                     "shape_type", idx, 2, NULL, NULL, 0);
  tfe_kutil_register("TensorListScatterIntoExistingList",
                     k_tensor_list_scatter_into_existing, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("TensorListResize", k_tensor_list_resize, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("TensorListConcatLists", k_tensor_list_concat_lists,
                     NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("TensorListPushBackBatch", k_tensor_list_push_back_batch,
                     NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("OptionalFromValue", k_optional_from_value, NULL, NULL,
                     0, NULL, NULL, 0);
  tfe_kutil_register("OptionalNone", k_optional_none, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("OptionalHasValue", k_optional_has_value, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("OptionalGetValue", k_optional_get_value, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("AddN", k_addn_variant, "T", variant, 1, NULL, NULL, 0);
  tfe_kutil_register("ZerosLike", k_zeros_like_variant, "T", variant, 1,
                     NULL, NULL, 0);
  tfe_register_variant_array_kernels();
}
