/* CPU kernels: TF 1's TensorArray ops (TensorArrayV3 and the ops that use
 * its handle), with TensorFlow 2.21's semantics and messages.
 *
 * A TensorArray is a resource (kernels/resource.h, kind
 * TFE_RESOURCE_TENSOR_ARRAY) whose object is a tfe_tensor_array: a
 * growable vector of slots, each holding a tensor (a share of the written
 * tensor's buffer) plus the slot's shape and state (written, read,
 * cleared by a read, aggregated locally). TensorArrayV3 makes a new array
 * every time it runs; the resource is anonymous (never registered), so it
 * lives exactly as long as the handle tensors that refer to it: for a
 * graph, until the run that made it ends, like TF's per-step container.
 *
 * Semantics kept from TF:
 *  - writing an index twice is an error (gradient arrays instead add the
 *    new value to the old one), and so is writing an index after it was
 *    read; writes outside [0, size) fail unless dynamic_size lets the
 *    array grow;
 *  - a written value must match the element shape known so far
 *    (element_shape attr, merged with the shapes gathers ask for); with
 *    identical_element_shapes the first write fixes it;
 *  - reading an index that was never written gives zeros when the element
 *    shape is fully known (else an error); with clear_after_read a second
 *    read of the same index fails;
 *  - TensorArrayGradV3 (and TensorArrayGradWithShape) return one gradient
 *    array per (array, source), made on first use with the forward
 *    array's size and the shapes of its written slots (read as zeros),
 *    and freeze the forward array's size;
 *  - after TensorArrayCloseV3 every op on the array fails.
 * The flow tensors carry no data: ops that produce one pass flow_in on.
 * The TF 1 stack ops (StackV2 & co.) are here too (end of the file). */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/checked.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "core/variant.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"

/* ------------------------------------------------------------------------
 * Partial shapes (rank -1: unknown rank; a dim of -1: unknown size). */

typedef struct ta_pshape {
  int rank;
  int64_t* dims; /* owned; NULL when rank <= 0 */
} ta_pshape;

static void pshape_clear(ta_pshape* p) {
  tfe_free(p->dims);
  p->dims = NULL;
  p->rank = -1;
}

/* *dst = a copy of (rank, dims); 0 on OOM (dst then unknown). */
static int pshape_set(ta_pshape* dst, int rank, const int64_t* dims) {
  int64_t* d = NULL;
  if (rank > 0) {
    d = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)rank);
    if (d == NULL) {
      pshape_clear(dst);
      return 0;
    }
    memcpy(d, dims, sizeof(int64_t) * (size_t)rank);
  }
  tfe_free(dst->dims);
  dst->dims = d;
  dst->rank = rank;
  return 1;
}

static int pshape_fully_defined(const ta_pshape* p) {
  int i;
  if (p->rank < 0) return 0;
  for (i = 0; i < p->rank; i++) {
    if (p->dims[i] < 0) return 0;
  }
  return 1;
}

/* TF's PartialTensorShape::IsCompatibleWith(a full shape). */
static int pshape_compatible(const ta_pshape* p, const int64_t* dims,
                             int rank) {
  int i;
  if (p->rank < 0) return 1;
  if (p->rank != rank) return 0;
  for (i = 0; i < rank; i++) {
    if (p->dims[i] >= 0 && p->dims[i] != dims[i]) return 0;
  }
  return 1;
}

/* TF's PartialTensorShape::DebugString: "<unknown>", "[2,?]". */
static const char* pshape_str(int rank, const int64_t* dims, char* buf,
                              size_t cap) {
  size_t len;
  int i;
  if (rank < 0) {
    snprintf(buf, cap, "<unknown>");
    return buf;
  }
  len = (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < rank && len < cap; i++) {
    if (dims[i] < 0) {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",?" : "?");
    } else {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                              (long long)dims[i]);
    }
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

/* ------------------------------------------------------------------------
 * The array. */

typedef struct ta_slot {
  TF_Tensor* t;   /* NULL: only a shape is stored (reads give zeros) */
  int rank;       /* the slot's shape (valid when written) */
  int64_t* dims;  /* owned */
  unsigned char written, read, cleared, local_copy;
} ta_slot;

typedef struct ta_grad {
  char* source;
  tfe_resource* r; /* reference held */
} ta_grad;

typedef struct tfe_tensor_array {
  pthread_mutex_t mu;
  char* name; /* the handle's name, as TF's messages show it */
  TF_DataType dtype;
  int closed;
  int dynamic_size;
  int multiple_writes_aggregate;
  int gradients_disallowed;
  int clear_after_read;
  int is_grad;
  int identical_element_shapes;
  int32_t marked_size;
  ta_pshape element_shape;
  ta_slot* slots;
  int64_t size, cap;
  ta_grad* grads;
  int num_grads;
} tfe_tensor_array;

static void slot_reset(ta_slot* s) {
  if (s->t != NULL) TF_DeleteTensor(s->t);
  tfe_free(s->dims);
  memset(s, 0, sizeof(*s));
}

static void ta_free(void* obj) {
  tfe_tensor_array* ta = (tfe_tensor_array*)obj;
  int64_t i;
  int g;
  if (ta == NULL) return;
  for (i = 0; i < ta->size; i++) slot_reset(&ta->slots[i]);
  tfe_free(ta->slots);
  for (g = 0; g < ta->num_grads; g++) {
    tfe_free(ta->grads[g].source);
    tfe_resource_unref(ta->grads[g].r);
  }
  tfe_free(ta->grads);
  pshape_clear(&ta->element_shape);
  tfe_free(ta->name);
  pthread_mutex_destroy(&ta->mu);
  tfe_free(ta);
}

/* Grows the slot vector to n slots (new ones unwritten); 0 on OOM. */
static int ta_resize(tfe_tensor_array* ta, int64_t n) {
  if (n > ta->cap) {
    int64_t ncap = ta->cap * 2 > n ? ta->cap * 2 : n;
    ta_slot* ns =
        (ta_slot*)tfe_realloc(ta->slots, sizeof(ta_slot) * (size_t)ncap);
    if (ns == NULL) return 0;
    ta->slots = ns;
    ta->cap = ncap;
  }
  if (n > ta->size) {
    memset(ta->slots + ta->size, 0,
           sizeof(ta_slot) * (size_t)(n - ta->size));
    ta->size = n;
  }
  return 1;
}

static tfe_tensor_array* ta_new(const char* name, TF_DataType dtype,
                                int64_t size, const ta_pshape* elem) {
  tfe_tensor_array* ta =
      (tfe_tensor_array*)tfe_calloc(1, sizeof(tfe_tensor_array));
  if (ta == NULL) return NULL;
  ta->element_shape.rank = -1;
  ta->marked_size = -1;
  ta->dtype = dtype;
  if (pthread_mutex_init(&ta->mu, NULL) != 0) {
    tfe_free(ta);
    return NULL;
  }
  ta->name = tfe_strdup(name);
  if (ta->name == NULL || !ta_resize(ta, size) ||
      !pshape_set(&ta->element_shape, elem->rank, elem->dims)) {
    ta_free(ta);
    return NULL;
  }
  return ta;
}

/* Under ta->mu. */
static int ta_check_open(tfe_kernel_context* k, const tfe_tensor_array* ta) {
  if (ta->closed) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "TensorArray %s has already been closed.",
               ta->name);
    return 0;
  }
  return 1;
}

/* A tensor sharing t's buffer; NULL on OOM. */
static TF_Tensor* share_tensor(const TF_Tensor* t) {
  if (t->buf == NULL) {
    return TF_AllocateTensor(t->dtype, t->dims, t->num_dims, 0);
  }
  return tfe_tensor_from_buffer(t->dtype, t->dims, t->num_dims, t->buf);
}

/* A zero-filled tensor (empty strings); NULL on OOM. */
static TF_Tensor* zeros_tensor(TF_DataType dt, const int64_t* dims, int rank) {
  int64_t n = tfe_shape_num_elements(dims, rank);
  size_t esz = kutil_esize(dt);
  TF_Tensor* t;
  if (n < 0) return NULL;
  t = TF_AllocateTensor(dt, dims, rank, (size_t)n * esz);
  if (t == NULL) return NULL;
  if (dt != TF_STRING && dt != TF_VARIANT && n > 0 && kutil_data(t) != NULL) {
    memset(kutil_data(t), 0, (size_t)n * esz);
  }
  return t;
}

static int same_dims(const int64_t* a, int ra, const int64_t* b, int rb) {
  int i;
  if (ra != rb) return 0;
  for (i = 0; i < ra; i++) {
    if (a[i] != b[i]) return 0;
  }
  return 1;
}

static int aggregatable(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: case TF_DOUBLE: case TF_HALF: case TF_BFLOAT16:
    case TF_INT8: case TF_INT16: case TF_INT32: case TF_INT64:
    case TF_UINT8: case TF_UINT16: case TF_UINT32: case TF_UINT64:
    case TF_COMPLEX64: case TF_COMPLEX128:
      return 1;
    default:
      return 0;
  }
}

/* TF's TensorArray::LockedWriteOrAggregate: stores value (a share of it) at
 * index. Under ta->mu. */
static int ta_write_locked(tfe_kernel_context* k, tfe_tensor_array* ta,
                           int32_t index, const TF_Tensor* value) {
  ta_slot* t;
  char b1[512], b2[512];
  if (!ta_check_open(k, ta)) return 0;
  if (index < 0 || (!ta->dynamic_size && (int64_t)index >= ta->size)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray %s: Tried to write to index %d but array is not "
               "resizeable and size is: %lld",
               ta->name, (int)index, (long long)ta->size);
    return 0;
  }
  if (ta->dynamic_size && (int64_t)index >= ta->size &&
      !ta_resize(ta, (int64_t)index + 1)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return 0;
  }
  t = &ta->slots[index];
  if (value->dtype != ta->dtype) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray %s: Could not write to TensorArray index %d "
               "because the value dtype is %s but TensorArray dtype is %s.",
               ta->name, (int)index, tfe_variant_dtype_name(value->dtype),
               tfe_variant_dtype_name(ta->dtype));
    return 0;
  }
  if (!pshape_compatible(&ta->element_shape, value->dims, value->num_dims)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray %s: Could not write to TensorArray index %d "
               "because the value shape is %s which is incompatible with the "
               "TensorArray's inferred element shape: %s (consider setting "
               "infer_shape=False).",
               ta->name, (int)index,
               kutil_shape_str(value->dims, value->num_dims, b1, sizeof b1),
               pshape_str(ta->element_shape.rank, ta->element_shape.dims, b2,
                          sizeof b2));
    return 0;
  } else if (ta->identical_element_shapes &&
             !pshape_fully_defined(&ta->element_shape)) {
    if (!pshape_set(&ta->element_shape, value->num_dims, value->dims)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      return 0;
    }
  }
  if (t->read) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray %s: Could not write to TensorArray index %d "
               "because it has already been read.",
               ta->name, (int)index);
    return 0;
  }
  if (!ta->multiple_writes_aggregate && t->written) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray %s: Could not write to TensorArray index %d "
               "because it has already been written to.",
               ta->name, (int)index);
    return 0;
  }
  if (t->written) {
    /* Gradient arrays: add to what is there. */
    if (!same_dims(value->dims, value->num_dims, t->dims, t->rank)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "TensorArray %s: Could not aggregate to TensorArray index %d "
                 "because the existing shape is %s but the new input shape "
                 "is %s.",
                 ta->name, (int)index,
                 kutil_shape_str(t->dims, t->rank, b1, sizeof b1),
                 kutil_shape_str(value->dims, value->num_dims, b2, sizeof b2));
      return 0;
    }
    if (t->t == NULL || kutil_num_elements(t->t) == 0) {
      /* Only a shape was stored (zeros): the value replaces it. */
      TF_Tensor* s = share_tensor(value);
      if (s == NULL) goto oom;
      if (t->t != NULL) TF_DeleteTensor(t->t);
      t->t = s;
      return 1;
    }
    if (!aggregatable(ta->dtype)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "tensor_array::AddToTensor type not supported: %s",
                 tfe_variant_dtype_name(ta->dtype));
      return 0;
    }
    if (!t->local_copy) {
      /* The stored buffer may be shared with other tensors: add into a
       * fresh one that only the array owns. */
      TF_Tensor* c = zeros_tensor(ta->dtype, t->dims, t->rank);
      if (c == NULL) goto oom;
      kutil_copy(ta->dtype, kutil_data(c), kutil_data(t->t),
                 kutil_num_elements(t->t));
      TF_DeleteTensor(t->t);
      t->t = c;
      t->local_copy = 1;
    }
    tfe_cpu_add_sub_inplace(ta->dtype, kutil_data(t->t), kutil_data(value),
                            kutil_num_elements(value), 0);
    ta->gradients_disallowed = 1;
    return 1;
  }
  {
    TF_Tensor* s = share_tensor(value);
    int64_t* d = NULL;
    if (s == NULL) goto oom;
    if (value->num_dims > 0) {
      d = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)value->num_dims);
      if (d == NULL) {
        TF_DeleteTensor(s);
        goto oom;
      }
      memcpy(d, value->dims, sizeof(int64_t) * (size_t)value->num_dims);
    }
    tfe_free(t->dims);
    if (t->t != NULL) TF_DeleteTensor(t->t);
    t->t = s;
    t->dims = d;
    t->rank = value->num_dims;
    t->written = 1;
  }
  return 1;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", k->op_def->name);
  return 0;
}

/* Sets the shape of slot t (already written-as-shape or fresh). */
static int slot_set_shape(ta_slot* t, int rank, const int64_t* dims) {
  int64_t* d = NULL;
  if (rank > 0) {
    d = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)rank);
    if (d == NULL) return 0;
    memcpy(d, dims, sizeof(int64_t) * (size_t)rank);
  }
  tfe_free(t->dims);
  t->dims = d;
  t->rank = rank;
  return 1;
}

/* TF's TensorArray::LockedRead: *out = a new tensor sharing the slot's
 * value (zeros for a slot that holds only a shape). Under ta->mu. */
static int ta_read_locked(tfe_kernel_context* k, tfe_tensor_array* ta,
                          int32_t index, TF_Tensor** out) {
  ta_slot* t;
  char b1[512];
  *out = NULL;
  if (!ta_check_open(k, ta)) return 0;
  if (index < 0 || (!ta->is_grad && (int64_t)index >= ta->size)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tried to read from index %d but array size is: %lld",
               (int)index, (long long)ta->size);
    return 0;
  }
  if ((ta->is_grad &&
       ((int64_t)index >= ta->size || !ta->slots[index].written)) ||
      (!ta->is_grad && !ta->slots[index].written)) {
    /* Never written: zeros of a known shape. */
    const int64_t* dims;
    int rank;
    if (ta->is_grad && (int64_t)index < ta->size &&
        ta->slots[index].rank > 0) {
      rank = ta->slots[index].rank;
      dims = ta->slots[index].dims;
    } else if (!pshape_fully_defined(&ta->element_shape)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "TensorArray %s: Could not read from TensorArray index %d.  "
                 "Furthermore, the element shape is not fully defined: %s.  "
                 "It is possible you are working with a resizeable "
                 "TensorArray and stop_gradients is not allowing the "
                 "gradients to be written.  If you set the full "
                 "element_shape property on the forward TensorArray, the "
                 "proper all-zeros tensor will be returned instead of "
                 "incurring this error.",
                 ta->name, (int)index,
                 pshape_str(ta->element_shape.rank, ta->element_shape.dims,
                            b1, sizeof b1));
      return 0;
    } else {
      rank = ta->element_shape.rank;
      dims = ta->element_shape.dims;
    }
    if ((int64_t)index >= ta->size) {
      int64_t i, old = ta->size;
      if (!ta_resize(ta, (int64_t)index + 1)) goto oom;
      for (i = old; i <= index; i++) {
        if (!slot_set_shape(&ta->slots[i], rank, dims)) goto oom;
        ta->slots[i].written = 1;
      }
    } else {
      /* (dims may already be the slot's own shape: then keep it.) */
      if (dims != ta->slots[index].dims &&
          !slot_set_shape(&ta->slots[index], rank, dims)) {
        goto oom;
      }
      ta->slots[index].written = 1;
    }
  }
  t = &ta->slots[index];
  if (t->cleared) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray %s: Could not read index %d twice because it was "
               "cleared after a previous read (perhaps try setting "
               "clear_after_read = false?).",
               ta->name, (int)index);
    return 0;
  }
  if (t->t == NULL || kutil_num_elements(t->t) == 0) {
    TF_Tensor* z = zeros_tensor(ta->dtype, t->dims, t->rank);
    if (z == NULL) goto oom;
    if (t->t != NULL) TF_DeleteTensor(t->t);
    t->t = z;
  }
  *out = share_tensor(t->t);
  if (*out == NULL) goto oom;
  if (ta->clear_after_read) {
    TF_DeleteTensor(t->t);
    t->t = NULL;
    t->cleared = 1;
  }
  t->read = 1;
  return 1;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", k->op_def->name);
  return 0;
}

/* ------------------------------------------------------------------------
 * Kernel helpers. */

/* The array behind input 0 with a new reference on its resource (*res), or
 * NULL with k->status set. */
static tfe_tensor_array* ta_from_input(tfe_kernel_context* k,
                                       tfe_resource** res) {
  tfe_resource* h;
  tfe_resource* r;
  *res = NULL;
  if (k->num_inputs < 1 || k->inputs[0] == NULL ||
      (h = tfe_resource_of_tensor(k->inputs[0])) == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: input 0 is not a TensorArray handle (expected a "
               "DT_RESOURCE tensor made by TensorArrayV3)",
               k->op_def->name);
    return NULL;
  }
  r = tfe_resources_lookup_handle(h);
  if (r == NULL) {
    KUTIL_FAIL(k, TF_NOT_FOUND, "Resource %s/%s/N10tensorflow11TensorArrayE "
               "does not exist.",
               h->container, h->name);
    return NULL;
  }
  if (r->kind != TFE_RESOURCE_TENSOR_ARRAY || r->object == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to access resource %s located in device %s as a "
               "TensorArray, but it is not one",
               r->name, r->device);
    tfe_resource_unref(r);
    return NULL;
  }
  *res = r;
  return (tfe_tensor_array*)r->object;
}

/* Output `index` = a share of input `input` (the flow passes through). */
static void pass_flow(tfe_kernel_context* k, int input, int index) {
  TF_Tensor* t;
  if (input >= k->num_inputs || k->inputs[input] == NULL) return;
  t = share_tensor(k->inputs[input]);
  if (t == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  tfe_kernel_set_output(k, index, t);
}

static int check_scalar_index(tfe_kernel_context* k, const TF_Tensor* t) {
  kutil_shape_buf b;
  if (t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray index must be scalar, but had shape: %s",
               kutil_tshape(t, &b));
    return 0;
  }
  return 1;
}

static int check_vector(tfe_kernel_context* k, const TF_Tensor* t,
                        const char* what) {
  kutil_shape_buf b;
  if (t->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected %s to be a vector, but received shape: %s", what,
               kutil_tshape(t, &b));
    return 0;
  }
  return 1;
}

static int check_op_dtype(tfe_kernel_context* k, const tfe_tensor_array* ta,
                          TF_DataType want) {
  if (want != ta->dtype) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray dtype is %s but Op requested dtype %s.",
               tfe_variant_dtype_name(ta->dtype),
               tfe_variant_dtype_name(want));
    return 0;
  }
  return 1;
}

static int check_write_dtype(tfe_kernel_context* k,
                             const tfe_tensor_array* ta, TF_DataType have) {
  if (have != ta->dtype) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray dtype is %s but Op is trying to write dtype %s.",
               tfe_variant_dtype_name(ta->dtype),
               tfe_variant_dtype_name(have));
    return 0;
  }
  return 1;
}

static TF_DataType attr_type(const tfe_kernel_context* k, const char* name) {
  const tfe_attr_value* v = tfe_attrs_find(k->attrs, name);
  return v != NULL && v->type == TF_ATTR_TYPE && !v->is_list ? v->v.type
                                                              : TF_FLOAT;
}

/* A shape attr as a partial shape (borrowed dims); unknown when absent. */
static ta_pshape attr_pshape(const tfe_kernel_context* k, const char* name) {
  const tfe_attr_value* v = tfe_attrs_find(k->attrs, name);
  ta_pshape p;
  p.rank = -1;
  p.dims = NULL;
  if (v != NULL && v->type == TF_ATTR_SHAPE && !v->is_list) {
    p.rank = v->v.shape.num_dims;
    p.dims = v->v.shape.dims;
  }
  return p;
}

static const char* attr_string(const tfe_kernel_context* k, const char* name) {
  const tfe_attr_value* v = tfe_attrs_find(k->attrs, name);
  return v != NULL && v->type == TF_ATTR_STRING && !v->is_list ? v->v.s.data
                                                                : "";
}

/* A new anonymous TensorArray resource holding ta (which it then owns);
 * NULL with k->status set (ta freed). */
static tfe_resource* ta_resource(tfe_kernel_context* k, tfe_tensor_array* ta,
                                 const char* container) {
  char key[1024];
  tfe_resource* r;
  snprintf(key, sizeof key, "%s%s", container, ta->name);
  r = tfe_plugin_resource_new(tfe_resource_kernel_ctx_id(k),
                              k->device_name != NULL ? k->device_name : "",
                              container, key, ta, ta_free);
  if (r == NULL) {
    ta_free(ta);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return NULL;
  }
  r->kind = TFE_RESOURCE_TENSOR_ARRAY;
  r->anonymous = 1;
  return r;
}

/* Sets output 0 to a handle of r and output 1 to the flow (flow_in when
 * given, else 0.0f). Drops the caller's reference on r. */
static void set_handle_and_flow(tfe_kernel_context* k, tfe_resource* r,
                                int flow_input) {
  TF_Tensor* h = tfe_resource_new_handle(r);
  tfe_resource_unref(r);
  if (h == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  tfe_kernel_set_output(k, 0, h);
  if (k->num_outputs < 2) return;
  if (flow_input >= 0) {
    pass_flow(k, flow_input, 1);
  } else {
    TF_Tensor* f = tfe_kernel_alloc_output(k, 1, TF_FLOAT, NULL, 0);
    if (f != NULL) *(float*)kutil_data(f) = 0.0f;
  }
}

/* ------------------------------------------------------------------------
 * Kernels. */

static _Atomic int64_t g_ta_counter;

/* TensorArrayV3(size) -> (handle, flow). */
static void ta_create_compute(tfe_kernel_context* k) {
  const TF_Tensor* size_t_ = k->inputs[0];
  kutil_shape_buf b;
  ta_pshape elem = attr_pshape(k, "element_shape");
  const char* ta_name = attr_string(k, "tensor_array_name");
  char name[1024];
  int32_t size;
  tfe_tensor_array* ta;
  tfe_resource* r;
  if (size_t_->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray size must be scalar, but had shape: %s",
               kutil_tshape(size_t_, &b));
    return;
  }
  size = *(const int32_t*)kutil_data(size_t_);
  if (size < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Size should be >= 0.");
    return;
  }
  if (ta_name[0] == '\0') {
    ta_name = k->node_name != NULL ? k->node_name : k->op_def->name;
  }
  snprintf(name, sizeof name, "%s_%lld", ta_name,
           (long long)atomic_fetch_add(&g_ta_counter, 1));
  ta = ta_new(name, attr_type(k, "dtype"), size, &elem);
  if (ta == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  ta->dynamic_size = kutil_attr_bool(k, "dynamic_size", 0);
  ta->clear_after_read = kutil_attr_bool(k, "clear_after_read", 1);
  ta->identical_element_shapes =
      kutil_attr_bool(k, "identical_element_shapes", 0);
  r = ta_resource(k, ta, "_tensor_arrays");
  if (r == NULL) return;
  set_handle_and_flow(k, r, -1);
}

/* TensorArrayGradV3(handle, flow_in) and TensorArrayGradWithShape(handle,
 * flow_in, shape_to_prepend) -> (grad_handle, flow_out). */
static void ta_grad_compute(tfe_kernel_context* k) {
  const char* source = attr_string(k, "source");
  const int with_shape = k->num_inputs >= 3;
  tfe_resource* res;
  tfe_tensor_array* fwd = ta_from_input(k, &res);
  tfe_tensor_array* g;
  tfe_resource* gr = NULL;
  const int32_t* prep = NULL;
  int nprep = 0, i;
  ta_pshape elem;
  char name[1024];
  if (fwd == NULL) return;
  if (with_shape) {
    const TF_Tensor* s = k->inputs[2];
    if (s->num_dims != 1) {
      /* TF's wording when shape_to_prepend is not a vector. */
      char shp[128];
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "shape must be a vector of {int32,int64}, got shape %s",
                 kutil_shape_str(s->dims, s->num_dims, shp, sizeof shp));
      goto done;
    }
    prep = (const int32_t*)kutil_data(s);
    nprep = (int)s->dims[0];
    for (i = 0; i < nprep; i++) {
      if (prep[i] < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Dimension %d must be >= 0, but shape_to_prepend has %d",
                   i, (int)prep[i]);
        goto done;
      }
    }
    if (nprep > TFE_MAX_DIMS) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape_to_prepend has too many dims");
      goto done;
    }
  }
  pthread_mutex_lock(&fwd->mu);
  fwd->dynamic_size = 0;
  if (!ta_check_open(k, fwd)) goto unlock;
  if (fwd->gradients_disallowed) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Unable to create a gradients TensorArray for %s.  Perhaps "
               "you used the multiple_writes_aggregate flag on a previous "
               "write?  Gradient calculation is impossible when multiple "
               "writes are performed to the same index.",
               fwd->name);
    goto unlock;
  }
  for (i = 0; i < fwd->num_grads; i++) {
    if (strcmp(fwd->grads[i].source, source) == 0) {
      gr = fwd->grads[i].r;
      tfe_resource_ref(gr);
      break;
    }
  }
  if (gr == NULL) {
    ta_grad* ng;
    int64_t j;
    int64_t edims[TFE_MAX_DIMS * 2];
    snprintf(name, sizeof name, "%s@%s", fwd->name, source);
    /* Element shape: the forward one, behind the prepended dims. */
    elem.rank = fwd->element_shape.rank;
    elem.dims = fwd->element_shape.dims;
    if (with_shape && elem.rank >= 0 && nprep + elem.rank <= TFE_MAX_DIMS) {
      for (i = 0; i < nprep; i++) edims[i] = prep[i];
      for (i = 0; i < elem.rank; i++) edims[nprep + i] = elem.dims[i];
      elem.rank += nprep;
      elem.dims = edims;
    } else if (with_shape) {
      elem.rank = -1;
      elem.dims = NULL;
    }
    g = ta_new(name, fwd->dtype, fwd->size, &elem);
    if (g == NULL) goto oom;
    g->identical_element_shapes = fwd->identical_element_shapes;
    g->multiple_writes_aggregate = 1;
    g->is_grad = 1;
    g->marked_size = fwd->marked_size;
    g->clear_after_read = 1;
    /* TF's CopyShapesFrom: every written forward slot becomes a slot that
     * holds only its (prefixed) shape, read as zeros until written. */
    for (j = 0; j < fwd->size; j++) {
      const ta_slot* f = &fwd->slots[j];
      int rank;
      if (!f->written) continue;
      rank = f->rank + nprep;
      if (rank > TFE_MAX_DIMS) {
        ta_free(g);
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "shape_to_prepend makes a shape of more than %d dims",
                   TFE_MAX_DIMS);
        goto unlock;
      }
      for (i = 0; i < nprep; i++) edims[i] = prep[i];
      for (i = 0; i < f->rank; i++) edims[nprep + i] = f->dims[i];
      if (!slot_set_shape(&g->slots[j], rank, edims)) {
        ta_free(g);
        goto oom;
      }
      g->slots[j].written = 1;
    }
    ng = (ta_grad*)tfe_realloc(fwd->grads,
                               sizeof(ta_grad) * (size_t)(fwd->num_grads + 1));
    if (ng == NULL) {
      ta_free(g);
      goto oom;
    }
    fwd->grads = ng;
    gr = ta_resource(k, g, "_tensor_array_grads");
    if (gr == NULL) goto unlock;
    ng[fwd->num_grads].source = tfe_strdup(source);
    if (ng[fwd->num_grads].source == NULL) {
      tfe_resource_unref(gr);
      gr = NULL;
      goto oom;
    }
    ng[fwd->num_grads].r = gr;
    fwd->num_grads++;
    tfe_resource_ref(gr);
  }
  pthread_mutex_unlock(&fwd->mu);
  set_handle_and_flow(k, gr, 1);
  goto done;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", k->op_def->name);
unlock:
  pthread_mutex_unlock(&fwd->mu);
done:
  tfe_resource_unref(res);
}

/* TensorArrayWriteV3(handle, index, value, flow_in) -> flow_out. */
static void ta_write_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_tensor_array* ta;
  const TF_Tensor* index = k->inputs[1];
  const TF_Tensor* value = k->inputs[2];
  int ok;
  pass_flow(k, 3, 0);
  if (!KUTIL_OK(k)) return;
  if (!check_scalar_index(k, index)) return;
  ta = ta_from_input(k, &res);
  if (ta == NULL) return;
  if (check_write_dtype(k, ta, value->dtype)) {
    pthread_mutex_lock(&ta->mu);
    ok = ta_write_locked(k, ta, *(const int32_t*)kutil_data(index), value);
    pthread_mutex_unlock(&ta->mu);
    (void)ok;
  }
  tfe_resource_unref(res);
}

/* TensorArrayReadV3(handle, index, flow_in) -> value. */
static void ta_read_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_tensor_array* ta;
  const TF_Tensor* index = k->inputs[1];
  TF_Tensor* out = NULL;
  if (!check_scalar_index(k, index)) return;
  ta = ta_from_input(k, &res);
  if (ta == NULL) return;
  if (check_op_dtype(k, ta, attr_type(k, "dtype"))) {
    pthread_mutex_lock(&ta->mu);
    ta_read_locked(k, ta, *(const int32_t*)kutil_data(index), &out);
    pthread_mutex_unlock(&ta->mu);
    if (out != NULL) tfe_kernel_set_output(k, 0, out);
  }
  tfe_resource_unref(res);
}

/* Merges the partial shape p into ta's element shape (TF's SetElemShape).
 * Under ta->mu. */
static int merge_elem_shape(tfe_kernel_context* k, tfe_tensor_array* ta,
                            const ta_pshape* p) {
  ta_pshape* e = &ta->element_shape;
  int64_t merged[TFE_MAX_DIMS];
  char b1[512], b2[512];
  int i;
  if (p->rank < 0) return 1;
  if (e->rank < 0) {
    if (!pshape_set(e, p->rank, p->dims)) goto oom;
    return 1;
  }
  if (e->rank != p->rank) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "PartialTensorShape: Incompatible ranks during merge: %d vs. "
               "%d",
               e->rank, p->rank);
    return 0;
  }
  for (i = 0; i < e->rank; i++) {
    if (e->dims[i] >= 0 && p->dims[i] >= 0 && e->dims[i] != p->dims[i]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "PartialTensorShape: Incompatible shapes during merge: %s vs. "
                 "%s",
                 pshape_str(e->rank, e->dims, b1, sizeof b1),
                 pshape_str(p->rank, p->dims, b2, sizeof b2));
      return 0;
    }
    merged[i] = e->dims[i] >= 0 ? e->dims[i] : p->dims[i];
  }
  if (!pshape_set(e, e->rank, merged)) goto oom;
  return 1;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", k->op_def->name);
  return 0;
}

static void free_values(TF_Tensor** v, int64_t n) {
  int64_t i;
  if (v == NULL) return;
  for (i = 0; i < n; i++) {
    if (v[i] != NULL) TF_DeleteTensor(v[i]);
  }
  tfe_free(v);
}

/* Reads n indices in order (stopping at the first failure, as TF's
 * ReadMany does). Under ta->mu. Returns the values or NULL. */
static TF_Tensor** read_many_locked(tfe_kernel_context* k,
                                    tfe_tensor_array* ta,
                                    const int32_t* indices, int64_t n) {
  TF_Tensor** v;
  int64_t i;
  v = (TF_Tensor**)tfe_calloc((size_t)(n > 0 ? n : 1), sizeof(TF_Tensor*));
  if (v == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return NULL;
  }
  for (i = 0; i < n; i++) {
    int32_t ix = indices != NULL ? indices[i] : (int32_t)i;
    if (!ta_read_locked(k, ta, ix, &v[i])) {
      free_values(v, n);
      return NULL;
    }
  }
  return v;
}

/* Output `index` = the values stacked along a new dim 0 (all the same
 * shape as values[0]; checked by the caller) or concatenated along dim 0
 * (concat). */
static TF_Tensor* join_values(tfe_kernel_context* k, int out_index,
                              TF_Tensor** v, int64_t n, const int64_t* dims,
                              int rank) {
  TF_Tensor* out = tfe_kernel_alloc_output(k, out_index, v[0]->dtype, dims,
                                           rank);
  size_t esz = kutil_esize(v[0]->dtype);
  char* dst;
  int64_t i;
  if (out == NULL) return NULL;
  dst = (char*)kutil_data(out);
  for (i = 0; i < n; i++) {
    int64_t m = kutil_num_elements(v[i]);
    if (m > 0) {
      kutil_copy(v[i]->dtype, dst, kutil_data(v[i]), m);
      dst += (size_t)m * esz;
    }
  }
  return out;
}

/* TensorArrayGatherV3(handle, indices, flow_in) -> value. */
static void ta_gather_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_tensor_array* ta;
  const TF_Tensor* idx = k->inputs[1];
  ta_pshape want = attr_pshape(k, "element_shape");
  TF_Tensor** v = NULL;
  int64_t n = 0, i;
  int64_t dims[TFE_MAX_DIMS + 1];
  char b1[512], b2[512];
  ta = ta_from_input(k, &res);
  if (ta == NULL) return;
  if (!check_op_dtype(k, ta, attr_type(k, "dtype"))) goto done;
  pthread_mutex_lock(&ta->mu);
  if (!merge_elem_shape(k, ta, &want)) {
    pthread_mutex_unlock(&ta->mu);
    goto done;
  }
  pthread_mutex_unlock(&ta->mu);
  if (!check_vector(k, idx, "indices")) goto done;
  n = idx->dims[0];
  if (n == 0) {
    if (!pshape_fully_defined(&want) || want.rank > TFE_MAX_DIMS - 1) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "TensorArray has size zero, but element shape %s is not "
                 "fully defined. Currently only static shapes are supported "
                 "when packing zero-size TensorArrays.",
                 pshape_str(want.rank, want.dims, b1, sizeof b1));
      goto done;
    }
    dims[0] = 0;
    for (i = 0; i < want.rank; i++) dims[i + 1] = want.dims[i];
    tfe_kernel_alloc_output(k, 0, ta->dtype, dims, want.rank + 1);
    goto done;
  }
  pthread_mutex_lock(&ta->mu);
  v = read_many_locked(k, ta, (const int32_t*)kutil_data(idx), n);
  pthread_mutex_unlock(&ta->mu);
  if (v == NULL) goto done;
  if (!pshape_compatible(&want, v[0]->dims, v[0]->num_dims)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray was passed element_shape %s which does not match "
               "the Tensor at index 0: %s",
               pshape_str(want.rank, want.dims, b1, sizeof b1),
               kutil_shape_str(v[0]->dims, v[0]->num_dims, b2, sizeof b2));
    goto done;
  }
  for (i = 1; i < n; i++) {
    if (!same_dims(v[0]->dims, v[0]->num_dims, v[i]->dims, v[i]->num_dims)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "TensorArray has inconsistent shapes.  Index 0 has shape: "
                 "%s but index %lld has shape: %s",
                 kutil_shape_str(v[0]->dims, v[0]->num_dims, b1, sizeof b1),
                 (long long)i,
                 kutil_shape_str(v[i]->dims, v[i]->num_dims, b2, sizeof b2));
      goto done;
    }
  }
  if (v[0]->num_dims >= TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray elements have too many dims to stack");
    goto done;
  }
  dims[0] = n;
  for (i = 0; i < v[0]->num_dims; i++) dims[i + 1] = v[0]->dims[i];
  join_values(k, 0, v, n, dims, v[0]->num_dims + 1);
done:
  free_values(v, n);
  tfe_resource_unref(res);
}

/* TensorArrayConcatV3(handle, flow_in) -> (value, lengths). */
static void ta_concat_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_tensor_array* ta;
  ta_pshape want = attr_pshape(k, "element_shape_except0");
  TF_Tensor** v = NULL;
  TF_Tensor* lengths;
  int64_t n = 0, i, total = 0;
  int64_t dims[TFE_MAX_DIMS + 1];
  char b1[512], b2[512];
  ta = ta_from_input(k, &res);
  if (ta == NULL) return;
  if (!check_op_dtype(k, ta, attr_type(k, "dtype"))) goto done;
  pthread_mutex_lock(&ta->mu);
  if (ta_check_open(k, ta)) {
    n = ta->is_grad ? ta->marked_size : ta->size;
    if (n > 0) v = read_many_locked(k, ta, NULL, n);
  }
  pthread_mutex_unlock(&ta->mu);
  if (!KUTIL_OK(k)) goto done;
  if (n <= 0) {
    n = 0;
    if (!pshape_fully_defined(&want) || want.rank > TFE_MAX_DIMS - 1) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "TensorArray has size zero, but element_shape_except0 %s is "
                 "not fully defined. Currently only static shapes are "
                 "supported when concatenating zero-size TensorArrays.",
                 pshape_str(want.rank, want.dims, b1, sizeof b1));
      goto done;
    }
    dims[0] = 0;
    for (i = 0; i < want.rank; i++) dims[i + 1] = want.dims[i];
    if (tfe_kernel_alloc_output(k, 0, ta->dtype, dims, want.rank + 1) ==
        NULL) {
      goto done;
    }
    tfe_kernel_alloc_output(k, 1, TF_INT64, dims, 1);
    goto done;
  }
  lengths = tfe_kernel_alloc_output(k, 1, TF_INT64, &n, 1);
  if (lengths == NULL) goto done;
  for (i = 0; i < n; i++) {
    const TF_Tensor* t = v[i];
    if (t->num_dims < 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Concat saw a scalar shape at index %lld but requires at "
                 "least vectors.  Did you mean to call pack?",
                 (long long)i);
      goto done;
    }
    ((int64_t*)kutil_data(lengths))[i] = t->dims[0];
    if (i == 0) {
      if (!pshape_compatible(&want, t->dims + 1, t->num_dims - 1)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "TensorArray was passed element_shape_except0 %s but index "
                   "0 has (excepting dimension 0) shape: %s which does not "
                   "match.",
                   pshape_str(want.rank, want.dims, b1, sizeof b1),
                   kutil_shape_str(t->dims + 1, t->num_dims - 1, b2,
                                   sizeof b2));
        goto done;
      }
    } else if (!same_dims(v[0]->dims + 1, v[0]->num_dims - 1, t->dims + 1,
                          t->num_dims - 1)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "TensorArray has inconsistent shapes.  Index 0 has "
                 "(excepting dimension 0) shape: %s but index %lld has "
                 "(excepting dimension 0) shape: %s",
                 kutil_shape_str(v[0]->dims + 1, v[0]->num_dims - 1, b1,
                                 sizeof b1),
                 (long long)i,
                 kutil_shape_str(t->dims + 1, t->num_dims - 1, b2, sizeof b2));
      goto done;
    }
    if (!tfe_checked_add_i64(total, t->dims[0], &total)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "TensorArray concat is too large");
      goto done;
    }
  }
  dims[0] = total;
  for (i = 1; i < v[0]->num_dims; i++) dims[i] = v[0]->dims[i];
  join_values(k, 0, v, n, dims, v[0]->num_dims);
done:
  free_values(v, n);
  tfe_resource_unref(res);
}

/* New tensor holding rows [row, row + len) of t (dim 0 becomes len); NULL
 * on OOM. */
static TF_Tensor* rows_of(const TF_Tensor* t, int64_t row, int64_t len,
                          int keep_dim0) {
  size_t esz = kutil_esize(t->dtype);
  int64_t per = kutil_dims_prod(t->dims, 1, t->num_dims);
  int64_t dims[TFE_MAX_DIMS];
  TF_Tensor* out;
  int i, rank;
  if (keep_dim0) {
    dims[0] = len;
    for (i = 1; i < t->num_dims; i++) dims[i] = t->dims[i];
    rank = t->num_dims;
  } else {
    for (i = 1; i < t->num_dims; i++) dims[i - 1] = t->dims[i];
    rank = t->num_dims - 1;
  }
  out = TF_AllocateTensor(t->dtype, dims, rank, (size_t)(per * len) * esz);
  if (out == NULL) return NULL;
  if (per * len > 0) {
    kutil_copy(t->dtype, kutil_data(out),
               (const char*)kutil_data(t) + (size_t)(row * per) * esz,
               per * len);
  }
  return out;
}

/* Writes values[i] at indices[i] (in order, stopping at the first
 * failure, as TF's WriteOrAggregateMany). Under ta->mu. */
static void write_many_locked(tfe_kernel_context* k, tfe_tensor_array* ta,
                              const int32_t* indices, TF_Tensor** values,
                              int64_t n) {
  int64_t i;
  for (i = 0; i < n; i++) {
    if (!ta_write_locked(k, ta, indices != NULL ? indices[i] : (int32_t)i,
                         values[i])) {
      return;
    }
  }
}

/* TensorArrayScatterV3(handle, indices, value, flow_in) -> flow_out. */
static void ta_scatter_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_tensor_array* ta;
  const TF_Tensor* idx = k->inputs[1];
  const TF_Tensor* value = k->inputs[2];
  TF_Tensor** parts = NULL;
  kutil_shape_buf b;
  int64_t n = 0, i, size;
  int32_t max_index = -1;
  pass_flow(k, 3, 0);
  if (!KUTIL_OK(k)) return;
  ta = ta_from_input(k, &res);
  if (ta == NULL) return;
  if (value->num_dims > 0 && value->dims[0] > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "tensor dim0 too large to unpack");
    goto done;
  }
  if (!check_write_dtype(k, ta, value->dtype)) goto done;
  if (value->num_dims == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input value for unpack must be at least a vector but "
               "received shape: %s",
               kutil_tshape(value, &b));
    goto done;
  }
  pthread_mutex_lock(&ta->mu);
  size = ta->closed ? -1 : ta->size;
  if (size < 0) ta_check_open(k, ta);
  pthread_mutex_unlock(&ta->mu);
  if (!KUTIL_OK(k)) goto done;
  if (!check_vector(k, idx, "indices")) goto done;
  if (idx->dims[0] != value->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected len(indices) == values.shape[0], but saw: %lld vs. "
               "%lld",
               (long long)idx->dims[0], (long long)value->dims[0]);
    goto done;
  }
  n = idx->dims[0];
  for (i = 0; i < n; i++) {
    int32_t ix = ((const int32_t*)kutil_data(idx))[i];
    if (ix > max_index) max_index = ix;
  }
  pthread_mutex_lock(&ta->mu);
  if (ta->dynamic_size && size < (int64_t)max_index + 1) {
    size = (int64_t)max_index + 1;
  }
  pthread_mutex_unlock(&ta->mu);
  if ((int64_t)max_index >= size) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Max scatter index must be < array size (%d vs. %lld)",
               (int)max_index, (long long)size);
    goto done;
  }
  parts = (TF_Tensor**)tfe_calloc((size_t)(n > 0 ? n : 1), sizeof(TF_Tensor*));
  if (parts == NULL) goto oom;
  for (i = 0; i < n; i++) {
    parts[i] = rows_of(value, i, 1, 0);
    if (parts[i] == NULL) goto oom;
  }
  pthread_mutex_lock(&ta->mu);
  write_many_locked(k, ta, (const int32_t*)kutil_data(idx), parts, n);
  pthread_mutex_unlock(&ta->mu);
  goto done;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", k->op_def->name);
done:
  free_values(parts, n);
  tfe_resource_unref(res);
}

/* TensorArraySplitV3(handle, value, lengths, flow_in) -> flow_out. */
static void ta_split_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_tensor_array* ta;
  const TF_Tensor* value = k->inputs[1];
  const TF_Tensor* lt = k->inputs[2];
  const int64_t* len;
  TF_Tensor** parts = NULL;
  kutil_shape_buf b;
  int64_t n = 0, i, total = 0, size, row = 0;
  pass_flow(k, 3, 0);
  if (!KUTIL_OK(k)) return;
  ta = ta_from_input(k, &res);
  if (ta == NULL) return;
  if (lt->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected lengths to be a vector, received shape: %s",
               kutil_tshape(lt, &b));
    goto done;
  }
  if (lt->dims[0] > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected lengths to have < max int32 entries");
    goto done;
  }
  len = (const int64_t*)kutil_data(lt);
  for (i = 0; i < lt->dims[0]; i++) {
    if (len[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected lengths to be non-negative, but lengths[%lld] is "
                 "%lld",
                 (long long)i, (long long)len[i]);
      goto done;
    }
    if (!tfe_checked_add_i64(total, len[i], &total)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sum of lengths overflows");
      goto done;
    }
  }
  if (value->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected value to be at least a vector, but received shape: "
               "%s",
               kutil_tshape(value, &b));
    goto done;
  }
  if (total != value->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected sum of lengths to be equal to values.shape[0], but "
               "sum of lengths is %lld and value's shape is: %s",
               (long long)total, kutil_tshape(value, &b));
    goto done;
  }
  pthread_mutex_lock(&ta->mu);
  size = ta->closed ? -1 : ta->size;
  if (size < 0) ta_check_open(k, ta);
  if (size >= 0 && ta->dynamic_size && size < lt->dims[0]) size = lt->dims[0];
  pthread_mutex_unlock(&ta->mu);
  if (!KUTIL_OK(k)) goto done;
  if (size != lt->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArray's size is not equal to the size of lengths "
               "(%lld vs. %lld), and the TensorArray is not marked as "
               "dynamically resizeable",
               (long long)size, (long long)lt->dims[0]);
    goto done;
  }
  if (!check_write_dtype(k, ta, value->dtype)) goto done;
  n = size;
  parts = (TF_Tensor**)tfe_calloc((size_t)(n > 0 ? n : 1), sizeof(TF_Tensor*));
  if (parts == NULL) goto oom;
  for (i = 0; i < n; i++) {
    parts[i] = rows_of(value, row, len[i], 1);
    if (parts[i] == NULL) goto oom;
    row += len[i];
  }
  pthread_mutex_lock(&ta->mu);
  if (ta_check_open(k, ta)) {
    if (!ta->is_grad) ta->marked_size = (int32_t)n;
    write_many_locked(k, ta, NULL, parts, n);
  }
  pthread_mutex_unlock(&ta->mu);
  goto done;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", k->op_def->name);
done:
  free_values(parts, n);
  tfe_resource_unref(res);
}

/* TensorArraySizeV3(handle, flow_in) -> size. */
static void ta_size_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_tensor_array* ta = ta_from_input(k, &res);
  TF_Tensor* out;
  if (ta == NULL) return;
  out = tfe_kernel_alloc_output(k, 0, TF_INT32, NULL, 0);
  if (out != NULL) {
    pthread_mutex_lock(&ta->mu);
    if (ta_check_open(k, ta)) *(int32_t*)kutil_data(out) = (int32_t)ta->size;
    pthread_mutex_unlock(&ta->mu);
  }
  tfe_resource_unref(res);
}

/* TensorArrayCloseV3(handle): drops the stored tensors; later ops on the
 * array fail. */
static void ta_close_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_tensor_array* ta = ta_from_input(k, &res);
  int64_t i;
  if (ta == NULL) return;
  pthread_mutex_lock(&ta->mu);
  for (i = 0; i < ta->size; i++) slot_reset(&ta->slots[i]);
  ta->size = 0;
  ta->closed = 1;
  pthread_mutex_unlock(&ta->mu);
  tfe_resource_unref(res);
}

/* ------------------------------------------------------------------------
 * TF 1 stacks (StackV2, StackPushV2, StackPopV2, StackCloseV2), which the
 * gradients of v1 while loops use to keep forward values for the backward
 * loop. Like TensorArrays, each StackV2 run makes a new anonymous resource
 * (kind TFE_RESOURCE_STACK) that lives as long as its handles. */

typedef struct tfe_stack {
  pthread_mutex_t mu;
  char* name; /* "<stack_name>_<n>", as TF's messages show it */
  TF_DataType elem_type;
  int64_t max_size; /* -1: unbounded */
  int closed;
  TF_Tensor** items;
  int64_t n, cap;
} tfe_stack;

static void stack_clear(tfe_stack* st) {
  int64_t i;
  for (i = 0; i < st->n; i++) TF_DeleteTensor(st->items[i]);
  st->n = 0;
}

static void stack_free(void* obj) {
  tfe_stack* st = (tfe_stack*)obj;
  if (st == NULL) return;
  stack_clear(st);
  tfe_free(st->items);
  tfe_free(st->name);
  pthread_mutex_destroy(&st->mu);
  tfe_free(st);
}

/* Doubles the item array; 0 on OOM (the stack is unchanged). */
static int stack_grow(tfe_stack* st) {
  int64_t ncap = st->cap ? st->cap * 2 : 8;
  TF_Tensor** ni =
      (TF_Tensor**)tfe_realloc(st->items, sizeof(TF_Tensor*) * (size_t)ncap);
  if (ni == NULL) return 0;
  st->items = ni;
  st->cap = ncap;
  return 1;
}

static _Atomic int64_t g_stack_counter;

/* A TF 1 stack handle: a cell holding the string[2] tensor [container,
 * name] of r; NULL on OOM. */
static tfe_ref_cell* stack_handle_cell(const tfe_resource* r) {
  static const int64_t dims[1] = {2};
  TF_Tensor* t =
      TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  TF_TString* v;
  tfe_ref_cell* c;
  if (t == NULL) return NULL;
  v = (TF_TString*)kutil_data(t);
  TF_TString_Init(&v[0]);
  TF_TString_Init(&v[1]);
  TF_TString_Copy(&v[0], r->container, strlen(r->container));
  TF_TString_Copy(&v[1], r->name, strlen(r->name));
  c = tfe_ref_cell_new(TF_STRING, t);
  if (c == NULL) TF_DeleteTensor(t);
  return c;
}

/* The stack a TF 1 handle (input 0: Ref(string) [container, name]) names,
 * with a new reference on its resource (*res), or NULL with k->status set. */
static tfe_resource* stack_lookup_by_name(tfe_kernel_context* k) {
  const TF_Tensor* t = k->inputs[0];
  const TF_TString* v;
  char container[512], name[512];
  tfe_resource* r;
  if (t == NULL || t->dtype != TF_STRING) {
    KUTIL_FAIL(k, TF_FAILED_PRECONDITION,
               "%s: the stack handle is not initialized", k->op_def->name);
    return NULL;
  }
  if (kutil_num_elements(t) != 2) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Resource handle must have 2 elements, but had shape: %s",
               kutil_tshape(t, &b));
    return NULL;
  }
  v = (const TF_TString*)kutil_data(t);
  snprintf(container, sizeof container, "%.*s",
           (int)TF_TString_GetSize(&v[0]), TF_TString_GetDataPointer(&v[0]));
  snprintf(name, sizeof name, "%.*s", (int)TF_TString_GetSize(&v[1]),
           TF_TString_GetDataPointer(&v[1]));
  r = tfe_resources_lookup(tfe_resource_kernel_ctx_id(k),
                           k->device_name != NULL ? k->device_name : "",
                           container, name);
  if (r == NULL) {
    KUTIL_FAIL(k, TF_NOT_FOUND,
               "Resource %s/%s/N10tensorflow5StackE does not exist.",
               container, name);
  }
  return r;
}

/* StackV2(max_size) -> handle. */
static void stack_create_compute(tfe_kernel_context* k) {
  /* TF 1's Stack has no max_size input: unbounded. */
  const TF_Tensor* ms = k->num_inputs > 0 ? k->inputs[0] : NULL;
  const char* base = attr_string(k, "stack_name");
  kutil_shape_buf b;
  char name[1024];
  tfe_stack* st;
  tfe_resource* r;
  TF_Tensor* h;
  int32_t v;
  if (ms != NULL && ms->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Stack size must be a scalar, but had shape: %s",
               kutil_tshape(ms, &b));
    return;
  }
  v = ms != NULL ? *(const int32_t*)kutil_data(ms) : -1;
  if (base[0] == '\0') {
    base = k->node_name != NULL ? k->node_name : k->op_def->name;
  }
  snprintf(name, sizeof name, "%s_%lld", base,
           (long long)atomic_fetch_add(&g_stack_counter, 1));
  st = (tfe_stack*)tfe_calloc(1, sizeof(tfe_stack));
  if (st == NULL) goto oom;
  if (pthread_mutex_init(&st->mu, NULL) != 0) {
    tfe_free(st);
    goto oom;
  }
  st->name = tfe_strdup(name);
  if (st->name == NULL) {
    stack_free(st);
    goto oom;
  }
  /* A negative max_size means no bound (TF uses INT32_MAX then). */
  st->max_size = v >= 0 ? v : INT32_MAX;
  st->elem_type = attr_type(k, "elem_type");
  snprintf(name, sizeof name, "_stacks%s", st->name);
  r = tfe_plugin_resource_new(tfe_resource_kernel_ctx_id(k),
                              k->device_name != NULL ? k->device_name : "",
                              "_stacks", name, st, stack_free);
  if (r == NULL) {
    stack_free(st);
    goto oom;
  }
  r->kind = TFE_RESOURCE_STACK;
  if (k->op_def->num_outputs > 0 && k->op_def->outputs[0].is_ref) {
    /* TF 1's Stack: the stack is registered by name and the output is a
     * Ref(string) cell holding [container, name] (the access ops look the
     * name up). It stays registered (closed or not) until the context ends;
     * TF drops it with the step, and tfe has no per-step container. */
    tfe_ref_cell* cell;
    if (!tfe_resources_insert(r, k->status)) {
      tfe_resource_unref(r);
      return;
    }
    cell = stack_handle_cell(r);
    tfe_resource_unref(r);
    if (cell == NULL) goto oom;
    tfe_kernel_set_output_ref(k, 0, cell);
    tfe_ref_cell_unref(cell);
    return;
  }
  r->anonymous = 1;
  h = tfe_resource_new_handle(r);
  tfe_resource_unref(r);
  if (h == NULL) goto oom;
  tfe_kernel_set_output(k, 0, h);
  return;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", k->op_def->name);
}

/* The stack behind input 0 with a new reference on its resource. */
static tfe_stack* stack_from_input(tfe_kernel_context* k, tfe_resource** res) {
  tfe_resource* h;
  tfe_resource* r;
  *res = NULL;
  if (k->num_inputs >= 1 && k->op_def->num_inputs > 0 &&
      k->op_def->inputs[0].is_ref) {
    r = stack_lookup_by_name(k);
    if (r == NULL) return NULL;
  } else if (k->num_inputs < 1 || k->inputs[0] == NULL ||
             (h = tfe_resource_of_tensor(k->inputs[0])) == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: input 0 is not a stack handle (expected a DT_RESOURCE "
               "tensor made by StackV2)",
               k->op_def->name);
    return NULL;
  } else if ((r = tfe_resources_lookup_handle(h)) == NULL) {
    KUTIL_FAIL(k, TF_NOT_FOUND,
               "Resource %s/%s/N10tensorflow5StackE does not exist.",
               h->container, h->name);
    return NULL;
  }
  if (r->kind != TFE_RESOURCE_STACK || r->object == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to access resource %s located in device %s as a "
               "Stack, but it is not one",
               r->name, r->device);
    tfe_resource_unref(r);
    return NULL;
  }
  *res = r;
  return (tfe_stack*)r->object;
}

static int stack_check_open(tfe_kernel_context* k, const tfe_stack* st) {
  if (st->closed) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Stack[%s] has already been closed.",
               st->name);
    return 0;
  }
  return 1;
}

/* StackPushV2(handle, elem) -> elem (the pushed value). */
static void stack_push_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_stack* st = stack_from_input(k, &res);
  const TF_Tensor* e = k->inputs[1];
  TF_Tensor* kept = NULL;
  if (st == NULL) return;
  if (e->dtype != st->elem_type) {
    /* TF prints the DataType enum values here. */
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Must have type %d but got %d",
               (int)st->elem_type, (int)e->dtype);
    goto done;
  }
  pthread_mutex_lock(&st->mu);
  if (stack_check_open(k, st)) {
    if (st->n >= st->max_size) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Stack[%s] overflowed its max_size (%lld)", st->name,
                 (long long)st->max_size);
    } else if (st->n == st->cap && !stack_grow(st)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
    } else if ((kept = share_tensor(e)) == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
    } else {
      st->items[st->n++] = kept;
    }
  }
  pthread_mutex_unlock(&st->mu);
  if (kept != NULL) pass_flow(k, 1, 0);
done:
  tfe_resource_unref(res);
}

/* StackPopV2(handle) -> the last pushed value. */
static void stack_pop_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_stack* st = stack_from_input(k, &res);
  TF_Tensor* top = NULL;
  TF_DataType want = attr_type(k, "elem_type");
  if (st == NULL) return;
  pthread_mutex_lock(&st->mu);
  if (stack_check_open(k, st)) {
    if (st->n == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Stack[%s] is empty when calling Pop().", st->name);
    } else if (st->items[st->n - 1]->dtype != want &&
               k->op_def->inputs[0].is_ref) {
      /* TF 1's StackPop: TF's executor rejects the output's type. */
      KUTIL_FAIL(k, TF_INTERNAL,
                 "Output 0 of type %s does not match declared output type "
                 "%s for node {{node %s}}",
                 tfe_variant_dtype_name(st->items[st->n - 1]->dtype),
                 tfe_variant_dtype_name(want),
                 k->node_name != NULL ? k->node_name : k->op_def->name);
    } else if (st->items[st->n - 1]->dtype != want) {
      /* TF's wording for a popped element of another dtype. */
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Type mismatch: actual %s vs. expect %s",
                 tfe_variant_dtype_name(st->items[st->n - 1]->dtype),
                 tfe_variant_dtype_name(want));
    } else {
      top = st->items[--st->n];
    }
  }
  pthread_mutex_unlock(&st->mu);
  if (top != NULL) tfe_kernel_set_output(k, 0, top);
  tfe_resource_unref(res);
}

/* StackCloseV2(handle): drops the elements; later pushes and pops fail. */
static void stack_close_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_stack* st = stack_from_input(k, &res);
  if (st == NULL) return;
  pthread_mutex_lock(&st->mu);
  stack_clear(st);
  st->closed = 1;
  pthread_mutex_unlock(&st->mu);
  tfe_resource_unref(res);
}

/* ------------------------------------------------------------------------
 * Registration. */

void tfe_register_cpu_tensor_array_kernels(void) {
  /* Gather/concat/scatter/split copy elements: plain data and strings
   * (TF's POD, string and quantized types). Reads and writes share
   * buffers, so they take any dtype. */
  static const TF_DataType kCopyable[] = {KUTIL_POD_TYPES, TF_STRING,
                                          KUTIL_QUANTIZED_TYPES};
  const int n = KUTIL_COUNT(kCopyable);
  tfe_kutil_register("TensorArrayV3", ta_create_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("TensorArrayGradV3", ta_grad_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("TensorArrayGradWithShape", ta_grad_compute, NULL, NULL,
                     0, NULL, NULL, 0);
  tfe_kutil_register("TensorArrayWriteV3", ta_write_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("TensorArrayReadV3", ta_read_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("TensorArrayGatherV3", ta_gather_compute, "dtype",
                     kCopyable, n, NULL, NULL, 0);
  tfe_kutil_register("TensorArrayConcatV3", ta_concat_compute, "dtype",
                     kCopyable, n, NULL, NULL, 0);
  tfe_kutil_register("TensorArrayScatterV3", ta_scatter_compute, "T",
                     kCopyable, n, NULL, NULL, 0);
  tfe_kutil_register("TensorArraySplitV3", ta_split_compute, "T", kCopyable,
                     n, NULL, NULL, 0);
  tfe_kutil_register("TensorArraySizeV3", ta_size_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("TensorArrayCloseV3", ta_close_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("StackV2", stack_create_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("StackPushV2", stack_push_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("StackPopV2", stack_pop_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("StackCloseV2", stack_close_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  /* TF 1's stack ops: Ref(string) handles over the same stacks. */
  tfe_kutil_register("Stack", stack_create_compute, NULL, NULL, 0, NULL, NULL,
                     0);
  tfe_kutil_register("StackPush", stack_push_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("StackPop", stack_pop_compute, NULL, NULL, 0, NULL, NULL,
                     0);
  tfe_kutil_register("StackClose", stack_close_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
}
