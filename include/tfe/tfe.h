/* tfe's own extensions to the TensorFlow C API.
 *
 * Nothing here exists in TensorFlow; code that must also build against TF
 * should guard its use with #ifdef TFE_VERSION. */
#ifndef TFE_TFE_H_
#define TFE_TFE_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of tfe itself (not of the TF API it implements; see TF_Version).
 * The binding checks that it matches the Python package. */
#define TFE_VERSION "0.1.0"
#define TFE_VERSION_MAJOR 0
#define TFE_VERSION_MINOR 1
#define TFE_VERSION_PATCH 0

/* Version string of the loaded libtfe. Static storage. */
TF_CAPI_EXPORT extern const char* TFE_RuntimeVersion(void);

/* Kinds of object whose live instances the core counts. Tests use the
 * counts to prove that nothing leaks. */
typedef enum TFE_ObjectKind {
  TFE_OBJ_STATUS = 0,
  TFE_OBJ_TENSOR = 1,
  TFE_OBJ_TENSOR_BUFFER = 2,
  TFE_OBJ_BUFFER = 3,
  TFE_OBJ_LIBRARY = 4,
  TFE_OBJ_CONTEXT = 5,
  TFE_OBJ_TENSOR_HANDLE = 6,
  TFE_OBJ_OP = 7,
  /* Reference cells behind Ref(T) tensors (docs/REF_VARIABLES.md). */
  TFE_OBJ_REF_CELL = 8,
  TFE_OBJ_KIND_COUNT = 16
} TFE_ObjectKind;

/* Number of objects of `kind` alive in this process right now; -1 for an
 * unknown kind. */
TF_CAPI_EXPORT extern int64_t TFE_LiveObjectCount(TFE_ObjectKind kind);

/* Fault injection for tests: after `n` more successful allocations made by
 * the core, the next one fails (and every later one, until reset). A
 * negative n switches the injection off. Allocation failures surface as
 * TF_RESOURCE_EXHAUSTED or a NULL return, as each function documents. */
TF_CAPI_EXPORT extern void TFE_TestFailAllocationsAfter(int64_t n);

/* Maps a code to its canonical name ("OK", "INVALID_ARGUMENT", ...).
 * Static storage; "UNKNOWN_CODE" for values outside the table. */
TF_CAPI_EXPORT extern const char* TFE_CodeName(TF_Code code);

#ifdef __cplusplus
}
#endif

#endif /* TFE_TFE_H_ */
