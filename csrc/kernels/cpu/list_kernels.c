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
    tfe_pshape tmp, es;
    if (l->tensors[i] == NULL) continue;
    es = tensor_pshape(l->tensors[i]);
    tfe_pshape_init_unknown(&tmp);
    if (!tfe_pshape_merge(out, &es, &tmp, k->status)) {
      tfe_pshape_free(out);
      return 0;
    }
    tfe_pshape_free(out);
    *out = tmp;
  }
  return 1;
}

static void k_tensor_list_stack(tfe_kernel_context* k) {
  const tfe_variant* l = input_list(k, 0);
  TF_DataType dtype = attr_type(k, "element_dtype");
  int64_t want = kutil_attr_int(k, "num_elements", -1);
  tfe_pshape op, shape;
  int64_t i, per, *dims;
  size_t esz = elem_bytes(dtype);
  TF_Tensor* out;
  char sbuf[256];
  int any_set = 0;
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
    tfe_pshape tmp, es;
    if (l->tensors[i] == NULL) continue;
    any_set = 1;
    es = tensor_pshape(l->tensors[i]);
    tfe_pshape_init_unknown(&tmp);
    if (!tfe_pshape_merge(&shape, &es, &tmp, k->status)) {
      tfe_pshape_free(&shape);
      return;
    }
    tfe_pshape_free(&shape);
    shape = tmp;
  }
  if (!tfe_pshape_fully_defined(&shape)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tried to stack list which only contains uninitialized "
               "tensors and has a non-fully-defined element_shape: %s",
               tfe_pshape_str(&shape, sbuf, sizeof sbuf));
    tfe_pshape_free(&shape);
    return;
  }
  (void)any_set;
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
}
