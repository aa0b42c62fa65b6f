/* DT_VARIANT values: refcounted objects that one element of a TF_VARIANT
 * tensor points at. A variant tensor's buffer holds one `tfe_variant*` per
 * element (NULL = an empty variant); the buffer owns one reference to each
 * and drops them when it is released (csrc/core/tensor.c), the way
 * TF_STRING buffers free their strings.
 *
 * Two kinds exist, the ones TensorFlow's C API can add and zero:
 *  - a TensorList: element dtype, a partial element shape, an optional
 *    maximum length and a vector of tensors, where a NULL entry is an
 *    uninitialised element (TensorFlow's DT_INVALID tensor);
 *  - an Optional: no value, or a vector of component tensors.
 * Objects are treated as immutable once a tensor holds them: kernels that
 * "modify" a list build a new one (tfe_variant_copy shares the element
 * tensors' buffers), so a variant may be shared freely between tensors.
 *
 * The element-wise machinery for AddN and ZerosLike of variants lives here
 * too, so that the built-in CPU kernels and TF_AddNVariant /
 * TF_ZerosLikeVariant (csrc/kernels/capi_variant.c) behave the same. */
#ifndef TFE_CORE_VARIANT_H_
#define TFE_CORE_VARIANT_H_

#include <stdatomic.h>
#include <stdint.h>

#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

typedef enum tfe_variant_kind {
  TFE_VARIANT_LIST = 1,
  TFE_VARIANT_OPTIONAL = 2,
  /* A TensorMap (csrc/kernels/cpu/dataflow2_tensor_map.c): `tensors` holds
   * num_tensors / 2 (key, value) pairs, key at 2i and value at 2i + 1. */
  TFE_VARIANT_MAP = 3,
  /* A held mutex lock (MutexLock; csrc/kernels/cpu/dataflow2_mutex.c):
   * `release(opaque)` runs when the last reference goes. Not copyable,
   * no AddN / ZerosLike (as in TF). */
  TFE_VARIANT_LOCK = 4
} tfe_variant_kind;

/* A partial shape: rank -1 when unknown, dims -1 where unknown. */
typedef struct tfe_pshape {
  int rank;
  int64_t* dims; /* rank entries (NULL when rank <= 0) */
} tfe_pshape;

typedef struct tfe_variant {
  atomic_int refcount;
  tfe_variant_kind kind;
  /* TensorList */
  TF_DataType element_dtype;
  tfe_pshape element_shape;
  int64_t max_num_elements; /* -1: no limit */
  /* Optional */
  int has_value;
  /* Elements (list) or components (optional); NULL = uninitialised. Each
   * non-NULL tensor is owned by the variant. */
  TF_Tensor** tensors;
  int64_t num_tensors;
  int64_t cap;
  /* TFE_VARIANT_LOCK */
  void* opaque;
  void (*release)(void* opaque);
} tfe_variant;

/* ---- partial shapes ---- */

/* Unknown rank. */
void tfe_pshape_init_unknown(tfe_pshape* s);
/* Copies rank/dims; 0 when memory runs out (s is then unknown). */
int tfe_pshape_set(tfe_pshape* s, int rank, const int64_t* dims);
void tfe_pshape_free(tfe_pshape* s);
int tfe_pshape_fully_defined(const tfe_pshape* s);
/* 1 when a and b could describe the same shape. */
int tfe_pshape_compatible(const tfe_pshape* a, const tfe_pshape* b);
/* out = the most specific shape compatible with a and b (out may alias
 * neither). On incompatibility INVALID_ARGUMENT with TensorFlow's
 * "PartialTensorShape: Incompatible ..." text. Returns 1 on success. */
int tfe_pshape_merge(const tfe_pshape* a, const tfe_pshape* b,
                     tfe_pshape* out, TF_Status* status);
/* TensorFlow's rendering: "<unknown>", "[]", "[?,3]". */
const char* tfe_pshape_str(const tfe_pshape* s, char* buf, size_t cap);
/* Reads a shape tensor (scalar -1 = unknown rank, or an int32/int64
 * vector with -1 for unknown dims) the way list ops do; INVALID_ARGUMENT
 * with TF's messages. Returns 1 on success (caller frees *out). */
int tfe_pshape_from_tensor(const TF_Tensor* t, tfe_pshape* out,
                           TF_Status* status);

/* ---- objects ---- */

/* New objects with refcount 1, or NULL when memory runs out. */
tfe_variant* tfe_variant_new_list(TF_DataType element_dtype,
                                  const tfe_pshape* element_shape,
                                  int64_t max_num_elements);
tfe_variant* tfe_variant_new_optional(int has_value);
tfe_variant* tfe_variant_new_map(void);
/* A lock variant owning `opaque`, released by release(opaque). */
tfe_variant* tfe_variant_new_lock(void* opaque, void (*release)(void*));
/* Index of the pair of map m whose key equals `key` (same dtype, shape and
 * values; strings by content), or -1. */
int64_t tfe_variant_map_find(const tfe_variant* m, const TF_Tensor* key);
void tfe_variant_ref(tfe_variant* v);
void tfe_variant_unref(tfe_variant* v); /* NULL is fine */
/* A new object with v's metadata whose tensors share v's tensors' buffers
 * (the "copy" TensorFlow makes of a list). NULL on OOM. */
tfe_variant* tfe_variant_copy(const tfe_variant* v);
/* Appends t (taking ownership; NULL appends an uninitialised element).
 * 0 on OOM (t is then deleted). */
int tfe_variant_append(tfe_variant* v, TF_Tensor* t);
/* Grows or shrinks to n elements (new ones uninitialised); 0 on OOM. */
int tfe_variant_resize(tfe_variant* v, int64_t n);
/* Replaces element i (taking ownership of t). */
void tfe_variant_set(tfe_variant* v, int64_t i, TF_Tensor* t);
/* TensorFlow's C++ type name of an element's object, for messages:
 * "tensorflow::TensorList", "tensorflow::data::Optional", or "void" for an
 * empty variant (v NULL). */
const char* tfe_variant_type_name(const tfe_variant* v);
/* TensorFlow's debug rendering of a variant element, for messages. */
const char* tfe_variant_debug_string(const tfe_variant* v, char* buf,
                                     size_t cap);

/* ---- variant tensors ---- */

/* The element slots of a TF_VARIANT tensor, or NULL when t is not a
 * variant tensor whose buffer holds a slot for each element (for example
 * one made by TF_NewTensor over caller memory). */
tfe_variant** tfe_variant_slots(const TF_Tensor* t);
/* The object of a scalar variant tensor's single element (may be NULL for
 * an empty variant); *ok is 0 when t is not a usable scalar variant. */
tfe_variant* tfe_variant_scalar(const TF_Tensor* t, int* ok);
/* A new scalar TF_VARIANT tensor holding v (takes over the caller's
 * reference, also on failure). NULL on OOM. */
TF_Tensor* tfe_variant_make_scalar(tfe_variant* v);
/* A new variant tensor of t's shape whose elements share t's objects (the
 * copy TensorFlow makes of a DT_VARIANT tensor: each Variant is copied,
 * and tfe's objects are immutable, so sharing is the same). NULL when t
 * holds no variant slots or memory runs out. */
TF_Tensor* tfe_variant_tensor_copy(const TF_Tensor* t);
/* A new TF_Tensor sharing t's buffer (dtype, shape); NULL on OOM. */
TF_Tensor* tfe_tensor_share(const TF_Tensor* t);

/* ---- AddN / ZerosLike of variants ---- */

/* Adds two initialised element tensors a and b (same dtype) into a new
 * tensor *out. Returns 1, or 0 with status set. */
typedef int (*tfe_variant_add_fn)(void* arg, const TF_Tensor* a,
                                  const TF_Tensor* b, TF_Tensor** out,
                                  TF_Status* status);
/* Makes *out, a tensor of zeros like `in` (an initialised, non-variant
 * element). Returns 1, or 0 with status set. */
typedef int (*tfe_variant_zeros_fn)(void* arg, const TF_Tensor* in,
                                    TF_Tensor** out, TF_Status* status);

/* Sum of two variants of the same kind (TensorFlow's TensorListBinaryAdd /
 * OptionalBinaryAdd, with its messages); an uninitialised element on one
 * side gives the other side's element. device_name is used in messages.
 * New object (refcount 1), or NULL with status set. */
tfe_variant* tfe_variant_add(const tfe_variant* a, const tfe_variant* b,
                             tfe_variant_add_fn add, void* arg,
                             const char* device_name, TF_Status* status);
/* Zeros like x. Element tensors of dtype TF_VARIANT are handled here by
 * recursion; others go to `zeros`. New object or NULL with status set. */
tfe_variant* tfe_variant_zeros_like(const tfe_variant* x,
                                    tfe_variant_zeros_fn zeros, void* arg,
                                    const char* device_name,
                                    TF_Status* status);
/* AddN over n >= 1 variant tensors: with one input the result shares it;
 * otherwise every input must be a scalar (TF's message) and the variants
 * are summed pairwise in a tree. Returns a new tensor or NULL + status. */
TF_Tensor* tfe_variant_add_n(TF_Tensor* const* inputs, int n,
                             tfe_variant_add_fn add, void* arg,
                             const char* device_name, TF_Status* status);
/* ZerosLike of a scalar variant tensor (TF's message otherwise). */
TF_Tensor* tfe_variant_zeros_like_tensor(const TF_Tensor* in,
                                         tfe_variant_zeros_fn zeros,
                                         void* arg, const char* device_name,
                                         TF_Status* status);

/* TensorFlow's lower-case dtype name ("float", "int32"). */
const char* tfe_variant_dtype_name(TF_DataType t);

#endif /* TFE_CORE_VARIANT_H_ */
