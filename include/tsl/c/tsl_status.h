/* tfe: the status type and error codes shared by TensorFlow's C headers.
 *
 * TF_Status (tensorflow/c/tf_status.h) is a typedef of TSL_Status, and the
 * TF_* codes are aliases of the TSL_* codes declared here. The numeric values
 * are fixed by TensorFlow's error_codes.proto and never change. */
#ifndef TENSORFLOW_TSL_C_TSL_STATUS_H_
#define TENSORFLOW_TSL_C_TSL_STATUS_H_

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque. Create with TSL_NewStatus/TF_NewStatus, free with the matching
 * Delete function. */
typedef struct TSL_Status TSL_Status;

typedef enum TSL_Code {
  TSL_OK = 0,
  TSL_CANCELLED = 1,
  TSL_UNKNOWN = 2,
  TSL_INVALID_ARGUMENT = 3,
  TSL_DEADLINE_EXCEEDED = 4,
  TSL_NOT_FOUND = 5,
  TSL_ALREADY_EXISTS = 6,
  TSL_PERMISSION_DENIED = 7,
  TSL_UNAUTHENTICATED = 16,
  TSL_RESOURCE_EXHAUSTED = 8,
  TSL_FAILED_PRECONDITION = 9,
  TSL_ABORTED = 10,
  TSL_OUT_OF_RANGE = 11,
  TSL_UNIMPLEMENTED = 12,
  TSL_INTERNAL = 13,
  TSL_UNAVAILABLE = 14,
  TSL_DATA_LOSS = 15
} TSL_Code;

/* The TSL_* functions behave exactly as their TF_* twins in tf_status.h;
 * both names reach the same implementation. */
TF_CAPI_EXPORT extern TSL_Status* TSL_NewStatus(void);
TF_CAPI_EXPORT extern void TSL_DeleteStatus(TSL_Status* s);
TF_CAPI_EXPORT extern void TSL_SetStatus(TSL_Status* s, TSL_Code code,
                                         const char* msg);
TF_CAPI_EXPORT extern void TSL_SetPayload(TSL_Status* s, const char* key,
                                          const char* value);
typedef void (*TSL_PayloadVisitor)(const char* key, const char* value,
                                   void* capture);
TF_CAPI_EXPORT extern void TSL_ForEachPayload(const TSL_Status* s,
                                              TSL_PayloadVisitor visitor,
                                              void* capture);
TF_CAPI_EXPORT extern void TSL_SetStatusFromIOError(TSL_Status* s,
                                                    int error_code,
                                                    const char* context);
TF_CAPI_EXPORT extern TSL_Code TSL_GetCode(const TSL_Status* s);
TF_CAPI_EXPORT extern const char* TSL_Message(const TSL_Status* s);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_TSL_C_TSL_STATUS_H_ */
