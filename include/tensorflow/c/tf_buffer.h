/* tfe: TF_Buffer, a length-delimited block of bytes (usually a serialized
 * protocol buffer) passed in and out of the C API. */
#ifndef TENSORFLOW_C_TF_BUFFER_H_
#define TENSORFLOW_C_TF_BUFFER_H_

#include <stddef.h>

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Public fields. If data_deallocator is set, TF_DeleteBuffer calls it once
 * with (data, length); otherwise the bytes are not freed by the buffer. */
typedef struct TF_Buffer {
  const void* data;
  size_t length;
  void (*data_deallocator)(void* data, size_t length);
} TF_Buffer;

/* New buffer holding a copy of proto[0, proto_len). The caller owns it and
 * frees it with TF_DeleteBuffer. Returns NULL when memory runs out, or when
 * proto is NULL and proto_len is not 0. */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBufferFromString(const void* proto,
                                                        size_t proto_len);

/* New empty buffer (data NULL, length 0, no deallocator), owned by the
 * caller. */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBuffer(void);

/* Frees the buffer, calling its data_deallocator if one is set. NULL is a
 * harmless no-op. */
TF_CAPI_EXPORT extern void TF_DeleteBuffer(TF_Buffer*);

/* Returns a copy of the struct; the data pointer still belongs to buffer. */
TF_CAPI_EXPORT extern TF_Buffer TF_GetBuffer(TF_Buffer* buffer);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_BUFFER_H_ */
