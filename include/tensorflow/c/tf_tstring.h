/* tfe: exported functions over TF_TString (see ctstring_internal.h for the
 * layout and the inline TF_TString_* family, which this also brings in).
 *
 * A TF_TString owns its bytes unless it is a VIEW. Call TF_StringDealloc
 * before discarding a string you initialised yourself; strings inside a
 * TF_STRING tensor made by TF_AllocateTensor are released with the tensor. */
#ifndef TENSORFLOW_C_TF_TSTRING_H_
#define TENSORFLOW_C_TF_TSTRING_H_

#include <stddef.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/core/platform/ctstring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes *t an empty string. Does not free anything *t held before. */
TF_CAPI_EXPORT extern void TF_StringInit(TF_TString* t);

/* Replaces the contents of *dst with a copy of src[0, size). *dst is left
 * unchanged when size exceeds TF_TSTRING_MAX_SIZE or memory runs out. */
TF_CAPI_EXPORT extern void TF_StringCopy(TF_TString* dst, const char* src,
                                         size_t size);

/* Makes *dst refer to src[0, size) without copying; the caller keeps src
 * alive for as long as *dst refers to it. Sizes above TF_TSTRING_MAX_SIZE
 * leave *dst unchanged. */
TF_CAPI_EXPORT extern void TF_StringAssignView(TF_TString* dst, const char* src,
                                               size_t size);

/* Pointer to the bytes; owned by the string (or, for a view, by whoever
 * owns the viewed memory). Valid until the string changes. */
TF_CAPI_EXPORT extern const char* TF_StringGetDataPointer(
    const TF_TString* tstr);

/* SMALL, LARGE, OFFSET or VIEW. */
TF_CAPI_EXPORT extern TF_TString_Type TF_StringGetType(const TF_TString* str);

/* Number of bytes, not counting any terminator. */
TF_CAPI_EXPORT extern size_t TF_StringGetSize(const TF_TString* tstr);

/* Bytes the string can hold without allocating (0 for views). */
TF_CAPI_EXPORT extern size_t TF_StringGetCapacity(const TF_TString* str);

/* Frees any buffer the string owns and leaves it empty. */
TF_CAPI_EXPORT extern void TF_StringDealloc(TF_TString* tstr);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_TSTRING_H_ */
