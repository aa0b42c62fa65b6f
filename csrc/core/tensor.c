/* TF_Tensor: creation, shape, sharing. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "core/variant.h"
#include "tensorflow/c/logging.h"
#include "tensorflow/c/tf_tstring.h"

#if defined(__GNUC__)
_Thread_local tfe_hand_on tfe_t_hand_on
    __attribute__((tls_model("initial-exec")));
#else
_Thread_local tfe_hand_on tfe_t_hand_on;
#endif

int64_t tfe_shape_num_elements(const int64_t* dims, int num_dims) {
  int64_t n = 1;
  int i;
  /* Vectors are the common case on the kernel hot paths: no loops. */
  if (num_dims == 1 && dims != NULL) return dims[0] < 0 ? -1 : dims[0];
  if (num_dims < 0) return -1;
  if (num_dims > 0 && dims == NULL) return -1;
  for (i = 0; i < num_dims; i++) {
    if (dims[i] < 0) return -1;
  }
  /* An overflow check by multiplication, not division: this runs for every
   * kernel output on the graph and eager hot paths. */
  for (i = 0; i < num_dims; i++) {
    if (dims[i] == 0) return 0;
    if (__builtin_mul_overflow(n, dims[i], &n)) return -1;
  }
  return n;
}

tfe_tensor_buffer* tfe_buffer_alloc(size_t len, int64_t string_count) {
  tfe_tensor_buffer* b;
  size_t extra = sizeof(tfe_tensor_buffer) + TFE_ALIGNMENT - 1;
  /* Header and data share one plain malloc block (one allocation per tensor
   * buffer on the dispatch hot path, and no memalign, which is slow and
   * fragments the heap); the data starts at the first aligned address after
   * the header. Freeing the header frees both, so no deallocator. */
  if (len > SIZE_MAX - extra) return NULL;
  b = (tfe_tensor_buffer*)tfe_malloc(extra + len);
  if (b == NULL) return NULL;
  memset(b, 0, sizeof(*b));
  b->data = (void*)(((uintptr_t)(b + 1) + TFE_ALIGNMENT - 1) &
                    ~(uintptr_t)(TFE_ALIGNMENT - 1));
  if (string_count > 0) {
    memset(b->data, 0, (size_t)string_count * sizeof(TF_TString));
  }
  atomic_init(&b->refcount, 1);
  b->len = len;
  b->dealloc = NULL;
  b->owns_memory = 1;
  b->string_count = string_count;
  tfe_count_inc(TFE_OBJ_TENSOR_BUFFER);
  return b;
}

void tfe_buffer_ref(tfe_tensor_buffer* b) {
  if (b != NULL) atomic_fetch_add_explicit(&b->refcount, 1, memory_order_relaxed);
}

void tfe_buffer_unref(tfe_tensor_buffer* b) {
  if (b == NULL) return;
  if (atomic_fetch_sub_explicit(&b->refcount, 1, memory_order_acq_rel) != 1) {
    return;
  }
  if (b->string_count > 0) {
    TF_TString* s = (TF_TString*)b->data;
    int64_t i;
    for (i = 0; i < b->string_count; i++) TF_TString_Dealloc(&s[i]);
  }
  if (b->variant_count > 0) {
    tfe_variant** v = (tfe_variant**)b->data;
    int64_t i;
    for (i = 0; i < b->variant_count; i++) tfe_variant_unref(v[i]);
  }
  if (b->dealloc != NULL) b->dealloc(b->data, b->len, b->dealloc_arg);
  tfe_free(b);
  tfe_count_dec(TFE_OBJ_TENSOR_BUFFER);
}

int tfe_tensor_set_dims(TF_Tensor* t, const int64_t* dims, int num_dims) {
  int64_t* d = t->dims_inline;
  if (num_dims > TFE_INLINE_DIMS) {
    d = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)num_dims);
    if (d == NULL) return 0;
  }
  if (num_dims > 0) memmove(d, dims, sizeof(int64_t) * (size_t)num_dims);
  if (t->dims != t->dims_inline && t->dims != d) tfe_free(t->dims);
  t->dims = d;
  t->num_dims = num_dims;
  return 1;
}

/* One released TF_Tensor struct kept per thread for the next tensor made on
 * that thread: kernels run one after another make an output and release an
 * input each time (a graph of 1,000 elementwise ops does 1,000 of both), so
 * this skips a calloc/free pair per op. Not in sanitizer builds, where every
 * struct must come from the allocator so use-after-free is still caught. A
 * thread's spare is freed when the thread exits (key destructor). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TFE_TENSOR_SPARE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define TFE_TENSOR_SPARE 0
#endif
#endif
#ifndef TFE_TENSOR_SPARE
#if defined(__GNUC__)
#define TFE_TENSOR_SPARE 1
#else
#define TFE_TENSOR_SPARE 0
#endif
#endif

#if TFE_TENSOR_SPARE
static __thread TF_Tensor* t_spare __attribute__((tls_model("initial-exec")));
static __thread int t_spare_key_set __attribute__((tls_model("initial-exec")));
static pthread_key_t g_spare_key;
static pthread_once_t g_spare_once = PTHREAD_ONCE_INIT;
static int g_spare_key_ok;

static void spare_release(void* unused) {
  TF_Tensor* t = t_spare;
  (void)unused;
  t_spare = NULL;
  t_spare_key_set = 0;
  tfe_free(t);
}

static void spare_make_key(void) {
  g_spare_key_ok = pthread_key_create(&g_spare_key, spare_release) == 0;
}

/* Keeps t (dims already released) as this thread's spare; 0 when the
 * thread has one already (or no destructor can be registered). */
static int spare_put(TF_Tensor* t) {
  if (t_spare != NULL) return 0;
  if (!t_spare_key_set) {
    pthread_once(&g_spare_once, spare_make_key);
    if (!g_spare_key_ok || pthread_setspecific(g_spare_key, (void*)1) != 0) {
      return 0;
    }
    t_spare_key_set = 1;
  }
  t_spare = t;
  return 1;
}
#endif

TF_Tensor* tfe_tensor_from_buffer(TF_DataType dtype, const int64_t* dims,
                                  int num_dims, tfe_tensor_buffer* buf) {
  TF_Tensor* t;
  if (num_dims < 0 || num_dims > TFE_MAX_DIMS) return NULL;
#if TFE_TENSOR_SPARE
  t = t_spare;
  if (t != NULL && !tfe_alloc_injecting()) {
    t_spare = NULL;
    memset(t, 0, sizeof(*t));
  } else {
    /* Also while allocation failures are injected: each tensor made is
     * then an allocation that may fail, with or without a spare. */
    t = (TF_Tensor*)tfe_calloc(1, sizeof(*t));
  }
#else
  t = (TF_Tensor*)tfe_calloc(1, sizeof(*t));
#endif
  if (t == NULL) return NULL;
  t->dims = t->dims_inline;
  if (!tfe_tensor_set_dims(t, dims, num_dims)) {
    tfe_free(t);
    return NULL;
  }
  t->dtype = dtype;
  t->buf = buf;
  tfe_buffer_ref(buf);
  tfe_count_inc(TFE_OBJ_TENSOR);
  return t;
}

/* Bytes a shape needs for dtype, or 0 with *ok = 0 on a bad shape. */
static size_t needed_bytes(TF_DataType dtype, const int64_t* dims,
                           int num_dims, int* ok) {
  int64_t n = tfe_shape_num_elements(dims, num_dims);
  size_t esz = dtype == TF_STRING ? sizeof(TF_TString) : TF_DataTypeSize(dtype);
  size_t bytes = 0;
  *ok = n >= 0 && num_dims <= TFE_MAX_DIMS &&
        tfe_mul_size((size_t)(n < 0 ? 0 : n), esz, &bytes);
  return bytes;
}

TF_Tensor* TF_AllocateTensor(TF_DataType dtype, const int64_t* dims,
                             int num_dims, size_t len) {
  int ok;
  size_t need = needed_bytes(dtype, dims, num_dims, &ok);
  int64_t nstr = 0, nvar = 0;
  tfe_tensor_buffer* b;
  TF_Tensor* t;
  if (!ok) return NULL;
  if (dtype == TF_STRING) {
    /* Every whole slot of the buffer is a string, so spare room that a
     * later TF_SetShape grows into also starts empty and is freed. */
    if (len < need) len = need;
    nstr = (int64_t)(len / sizeof(TF_TString));
  } else if (dtype == TF_VARIANT) {
    /* Same idea for variants: every whole slot is an empty variant (a NULL
     * object pointer) that the buffer releases. TF_DataTypeSize stays 0,
     * as in TensorFlow. */
    int64_t n = tfe_shape_num_elements(dims, num_dims);
    if (!tfe_mul_size((size_t)n, sizeof(tfe_variant*), &need)) return NULL;
    if (len < need) len = need;
    nvar = (int64_t)(len / sizeof(tfe_variant*));
  } else if (len < need) {
    return NULL;
  }
  b = tfe_buffer_alloc(len, nstr);
  if (b == NULL) return NULL;
  if (nvar > 0) {
    memset(b->data, 0, (size_t)nvar * sizeof(tfe_variant*));
    b->variant_count = nvar;
  }
  t = tfe_tensor_from_buffer(dtype, dims, num_dims, b);
  tfe_buffer_unref(b);
  return t;
}

TF_Tensor* TF_NewTensor(TF_DataType dtype, const int64_t* dims, int num_dims,
                        void* data, size_t len,
                        void (*deallocator)(void* data, size_t len, void* arg),
                        void* deallocator_arg) {
  int ok;
  size_t need = needed_bytes(dtype, dims, num_dims, &ok);
  tfe_tensor_buffer* b;
  TF_Tensor* t;
  int can_copy = dtype != TF_STRING && dtype != TF_RESOURCE &&
                 dtype != TF_VARIANT;

  if (!ok || len < need || (data == NULL && len > 0)) goto fail;

  if (can_copy && ((uintptr_t)data % TFE_ALIGNMENT) != 0) {
    /* Unaligned caller memory: work on an aligned copy and hand the
     * original straight back. */
    b = tfe_buffer_alloc(len, 0);
    if (b == NULL) goto fail;
    if (len) memcpy(b->data, data, len);
    if (deallocator != NULL) deallocator(data, len, deallocator_arg);
  } else {
    b = (tfe_tensor_buffer*)tfe_calloc(1, sizeof(*b));
    if (b == NULL) goto fail;
    atomic_init(&b->refcount, 1);
    b->data = data;
    b->len = len;
    b->dealloc = deallocator;
    b->dealloc_arg = deallocator_arg;
    tfe_count_inc(TFE_OBJ_TENSOR_BUFFER);
  }
  t = tfe_tensor_from_buffer(dtype, dims, num_dims, b);
  tfe_buffer_unref(b); /* on failure this runs the deallocator */
  return t;

fail:
  if (deallocator != NULL) deallocator(data, len, deallocator_arg);
  return NULL;
}

TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor) {
  if (tensor == NULL || tensor->buf == NULL) return NULL;
  if (!tensor->buf->owns_memory) return NULL;
  if (atomic_load(&tensor->buf->refcount) != 1) return NULL;
  /* Sole owner of core memory: the tensor itself is the moved result. */
  return tensor;
}

void TF_DeleteTensor(TF_Tensor* t) {
  if (t == NULL) return;
  tfe_buffer_unref(t->buf);
  if (t->dims != t->dims_inline) tfe_free(t->dims);
#if TFE_TENSOR_SPARE
  if (!spare_put(t)) tfe_free(t);
#else
  tfe_free(t);
#endif
  tfe_count_dec(TFE_OBJ_TENSOR);
}

TF_DataType TF_TensorType(const TF_Tensor* t) {
  return t == NULL ? (TF_DataType)0 : t->dtype;
}

int TF_NumDims(const TF_Tensor* t) { return t == NULL ? -1 : t->num_dims; }

int64_t TF_Dim(const TF_Tensor* t, int dim_index) {
  if (t == NULL || dim_index < 0 || dim_index >= t->num_dims) return -1;
  return t->dims[dim_index];
}

size_t TF_TensorByteSize(const TF_Tensor* t) {
  return t == NULL || t->buf == NULL ? 0 : t->buf->len;
}

void* TF_TensorData(const TF_Tensor* t) {
  return t == NULL || t->buf == NULL ? NULL : t->buf->data;
}

int64_t TF_TensorElementCount(const TF_Tensor* t) {
  if (t == NULL) return -1;
  return tfe_shape_num_elements(t->dims, t->num_dims);
}

void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type,
                          TF_Tensor* to, const int64_t* new_dims,
                          int num_new_dims, TF_Status* status) {
  size_t from_size, to_size, from_bytes, to_bytes;
  int64_t from_n, to_n;
  if (from == NULL || to == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_TensorBitcastFrom: `from` and `to` must not be NULL");
    return;
  }
  from_size = TF_DataTypeSize(from->dtype);
  to_size = TF_DataTypeSize(type);
  if (from_size == 0 || to_size == 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_TensorBitcastFrom: both element types need a fixed "
                    "size (got types %d and %d)",
                    (int)from->dtype, (int)type);
    return;
  }
  to_n = tfe_shape_num_elements(new_dims, num_new_dims);
  if (to_n < 0 || num_new_dims > TFE_MAX_DIMS) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_TensorBitcastFrom: invalid new shape");
    return;
  }
  from_n = TF_TensorElementCount(from);
  if (!tfe_mul_size((size_t)from_n, from_size, &from_bytes) ||
      !tfe_mul_size((size_t)to_n, to_size, &to_bytes) ||
      from_bytes != to_bytes) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_TensorBitcastFrom: the source holds %lld elements of "
                    "%zu bytes but the new shape needs %lld elements of %zu "
                    "bytes",
                    (long long)from_n, from_size, (long long)to_n, to_size);
    return;
  }
  if (!tfe_tensor_set_dims(to, new_dims, num_new_dims)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_TensorBitcastFrom: out of memory");
    return;
  }
  if (to->buf != from->buf) {
    tfe_buffer_ref(from->buf);
    tfe_buffer_unref(to->buf);
    to->buf = from->buf;
  }
  to->dtype = type;
  tfe_status_ok(status);
}

bool TF_TensorIsAligned(const TF_Tensor* t) {
  if (t == NULL || t->buf == NULL) return false;
  return ((uintptr_t)t->buf->data % TFE_ALIGNMENT) == 0;
}

size_t TF_TensorDefaultAlignment(void) { return TFE_ALIGNMENT; }

void TF_SetShape(TF_Tensor* t, const int64_t* dims, int num_dims) {
  int ok;
  size_t need;
  if (t == NULL) return;
  need = needed_bytes(t->dtype, dims, num_dims, &ok);
  if (!ok || need > TF_TensorByteSize(t)) {
    TF_Log(TF_WARNING,
           "TF_SetShape: new shape does not fit the tensor's %zu bytes; "
           "shape left unchanged",
           TF_TensorByteSize(t));
    return;
  }
  if (!tfe_tensor_set_dims(t, dims, num_dims)) {
    TF_Log(TF_WARNING, "TF_SetShape: out of memory; shape left unchanged");
  }
}
