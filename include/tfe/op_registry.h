/* tfe extension: read access to the op registry, for language bindings
 * that generate op wrappers (tfe_py builds tfe_py.ops from it).
 *
 * Nothing here exists in TensorFlow; guard its use with #ifdef TFE_VERSION.
 *
 * Ownership: each function fills a TF_Buffer the caller created with
 * TF_NewBuffer. On success the buffer's previous contents are released
 * (its data_deallocator is called, if set) and it then owns a new block:
 * `data` points to `length` bytes followed by a NUL byte (not counted in
 * `length`), and `data_deallocator` is set, so TF_DeleteBuffer frees it.
 * On failure the buffer is left untouched. */
#ifndef TFE_OP_REGISTRY_H_
#define TFE_OP_REGISTRY_H_

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the names of every registered op, built-in and plugin, one per
 * line ('\n'-terminated), in registration order, into `out`. A NULL `out`
 * is ignored. If memory runs out, `out` is left untouched and its length
 * is not changed (there is no status; check that length > 0). */
TF_CAPI_EXPORT extern void TFE_ListOpNames(TF_Buffer* out);

/* Writes the definition of op `op_name` into `out` as lines of tfe's op
 * grammar, one spec per line ('\n'-terminated):
 *   in: x: T            an input  ("values: N * T", "r: resource", ...)
 *   out: z: T           an output
 *   attr: T: {float, double} = DT_FLOAT
 *                       an attr: name, kind or allowed values, ">= min",
 *                       "= default" in TF's text format
 *   stateful | commutative | aggregate | allows_uninitialized_input
 * Inputs come first, then outputs, then attrs, each in definition order.
 * Errors: INVALID_ARGUMENT for a NULL op_name or out, NOT_FOUND for an
 * unknown op, RESOURCE_EXHAUSTED when memory runs out. */
TF_CAPI_EXPORT extern void TFE_GetOpDefSpecs(const char* op_name,
                                             TF_Buffer* out,
                                             TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TFE_OP_REGISTRY_H_ */
