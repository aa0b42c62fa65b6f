/* tfe: TF_Status, the error channel of the whole C API.
 *
 * Every fallible call takes a TF_Status* that it sets to TF_OK on success or
 * to an error code plus message on failure. A status is owned by whoever
 * created it with TF_NewStatus and must be released with TF_DeleteStatus. */
#ifndef TENSORFLOW_C_TF_STATUS_H_
#define TENSORFLOW_C_TF_STATUS_H_

#include "tensorflow/c/c_api_macros.h"
#include "tsl/c/tsl_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TSL_Status TF_Status;

/* Error codes; the values match TensorFlow's error_codes.proto. */
typedef TSL_Code TF_Code;
#define TF_OK TSL_OK
#define TF_CANCELLED TSL_CANCELLED
#define TF_UNKNOWN TSL_UNKNOWN
#define TF_INVALID_ARGUMENT TSL_INVALID_ARGUMENT
#define TF_DEADLINE_EXCEEDED TSL_DEADLINE_EXCEEDED
#define TF_NOT_FOUND TSL_NOT_FOUND
#define TF_ALREADY_EXISTS TSL_ALREADY_EXISTS
#define TF_PERMISSION_DENIED TSL_PERMISSION_DENIED
#define TF_UNAUTHENTICATED TSL_UNAUTHENTICATED
#define TF_RESOURCE_EXHAUSTED TSL_RESOURCE_EXHAUSTED
#define TF_FAILED_PRECONDITION TSL_FAILED_PRECONDITION
#define TF_ABORTED TSL_ABORTED
#define TF_OUT_OF_RANGE TSL_OUT_OF_RANGE
#define TF_UNIMPLEMENTED TSL_UNIMPLEMENTED
#define TF_INTERNAL TSL_INTERNAL
#define TF_UNAVAILABLE TSL_UNAVAILABLE
#define TF_DATA_LOSS TSL_DATA_LOSS

/* Returns a new status set to TF_OK with an empty message. The caller owns
 * it and frees it with TF_DeleteStatus. Returns NULL only when memory is
 * exhausted. */
TF_CAPI_EXPORT extern TF_Status* TF_NewStatus(void);

/* Frees a status and everything it holds. NULL is a harmless no-op. */
TF_CAPI_EXPORT extern void TF_DeleteStatus(TF_Status*);

/* Replaces the code and message of *s; earlier contents, payloads included,
 * are dropped. The message is copied. With TF_OK the message is ignored and
 * the status is cleared. A NULL msg counts as "". A NULL s does nothing. */
TF_CAPI_EXPORT extern void TF_SetStatus(TF_Status* s, TF_Code code,
                                        const char* msg);

/* Attaches a key/value payload (both copied) to an error status, replacing
 * any payload with the same key. Does nothing while the status is TF_OK, or
 * when any argument is NULL. */
TF_CAPI_EXPORT void TF_SetPayload(TF_Status* s, const char* key,
                                  const char* value);

/* Calls visitor(key, value, capture) once per payload. The strings are owned
 * by the status and live until its next mutation. The visitor type is
 * tsl_status.h's TSL_PayloadVisitor; TF_PayloadVisitor is another name for
 * it, as in TensorFlow. */
#define TF_PayloadVisitor TSL_PayloadVisitor
TF_CAPI_EXPORT extern void TF_ForEachPayload(const TF_Status* s,
                                             TF_PayloadVisitor visitor,
                                             void* capture);

/* Sets *s from an errno value, using TensorFlow's errno-to-code table; the
 * message contains `context` and the system's description of the error.
 * error_code 0 sets TF_OK. */
TF_CAPI_EXPORT extern void TF_SetStatusFromIOError(TF_Status* s, int error_code,
                                                   const char* context);

/* The code held by *s. A NULL status reads as TF_OK. */
TF_CAPI_EXPORT extern TF_Code TF_GetCode(const TF_Status* s);

/* The message held by *s, NUL-terminated and owned by the status: it stays
 * valid until the next change to *s. Always "" while the code is TF_OK. */
TF_CAPI_EXPORT extern const char* TF_Message(const TF_Status* s);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_STATUS_H_ */
