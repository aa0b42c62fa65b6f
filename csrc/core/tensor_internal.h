/* Internal layout of TF_Tensor and its shared, refcounted data buffer.
 * The eager runtime builds tensor handles on top of these. */
#ifndef TFE_CORE_TENSOR_INTERNAL_H_
#define TFE_CORE_TENSOR_INTERNAL_H_

#include <stdatomic.h>
#include <stdint.h>

#include "tensorflow/c/tf_tensor.h"

/* Dimensions stored inside the tensor before a heap array is needed. */
#define TFE_INLINE_DIMS 6
/* Largest rank accepted (TensorFlow's limit). */
#define TFE_MAX_DIMS 254

typedef struct tfe_tensor_buffer {
  atomic_int refcount;
  void* data;
  size_t len;
  /* Called once when the last reference goes; NULL when nothing to free. */
  void (*dealloc)(void* data, size_t len, void* arg);
  void* dealloc_arg;
  /* 1 when the core allocated `data` (so TF_TensorMaybeMove may move it). */
  int owns_memory;
  /* For TF_STRING buffers the core allocated: elements to release. */
  int64_t string_count;
  /* For TF_VARIANT buffers the core allocated: the number of
   * `tfe_variant*` slots at the start of `data` (NULL = empty variant); the
   * buffer owns one reference to each and drops them when released. */
  int64_t variant_count;
} tfe_tensor_buffer;

struct TF_Tensor {
  TF_DataType dtype;
  int num_dims;
  int64_t* dims; /* points at dims_inline unless num_dims is large */
  int64_t dims_inline[TFE_INLINE_DIMS];
  tfe_tensor_buffer* buf;
};

/* Handing input tensors on as outputs. While the graph executor runs a
 * kernel, `inputs` is that kernel's tfe_kernel_context.inputs array and
 * bit i of `mask` is set when the executor owns inputs[i] alone and this
 * is its last use (a subset of the context's forwardable inputs). A
 * kernel may then return inputs[i] itself, struct and all, as its output
 * of the same dtype and shape instead of making a new tensor over the
 * same buffer; it clears the bit when it does, which tells the executor
 * that the struct is an output now. Elementwise kernels do this
 * (tfe_ew_forward_or_alloc). Anywhere else (eager, other callers)
 * `inputs` does not match and nothing changes. The executor saves and
 * restores the previous value around each kernel (runs nest). */
typedef struct tfe_hand_on {
  TF_Tensor* const* inputs;
  uint64_t mask;
} tfe_hand_on;
#if defined(__GNUC__)
extern _Thread_local tfe_hand_on tfe_t_hand_on
    __attribute__((tls_model("initial-exec")));
#else
extern _Thread_local tfe_hand_on tfe_t_hand_on;
#endif

/* Number of elements of a shape, or -1 on a negative dim or overflow. */
int64_t tfe_shape_num_elements(const int64_t* dims, int num_dims);

/* New buffer of `len` bytes allocated (aligned) by the core; refcount 1.
 * For TF_STRING, string_count elements are zeroed (empty strings) and
 * released with the buffer. NULL when memory runs out. */
tfe_tensor_buffer* tfe_buffer_alloc(size_t len, int64_t string_count);
void tfe_buffer_ref(tfe_tensor_buffer* b);
void tfe_buffer_unref(tfe_tensor_buffer* b);

/* New tensor over `buf` (takes one new reference on success; the caller's
 * reference is untouched). NULL when memory runs out or the rank is bad. */
TF_Tensor* tfe_tensor_from_buffer(TF_DataType dtype, const int64_t* dims,
                                  int num_dims, tfe_tensor_buffer* buf);

/* Sets tensor dims (copying); 0 on allocation failure. */
int tfe_tensor_set_dims(TF_Tensor* t, const int64_t* dims, int num_dims);

#endif /* TFE_CORE_TENSOR_INTERNAL_H_ */
