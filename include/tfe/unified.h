/* tfe extension to TensorFlow's unified execution API
 * (tensorflow/c/eager/c_api_unified_experimental.h).
 *
 * TensorFlow's header can set only type attrs and only single-tensor
 * inputs, which is too little to write real ops with it (a Sum needs
 * keep_dims, a ConcatV2 a list input). These functions fill the gap; each
 * works on eager ops and on traced ops alike, with the same rules as the
 * rest of the API: a traced op takes attrs and inputs only after it has a
 * type and a name (TF_FAILED_PRECONDITION otherwise), an op that has run
 * takes nothing more (TF_FAILED_PRECONDITION), and an eager op reports a
 * bad attr when it runs, as TFE_OpSetAttr* do.
 *
 * Inputs added here come before the ones TF_ExecuteOperation is given, so
 * an op built entirely with TFE_AbstractOpAddInput / ...AddInputList runs
 * with TF_ExecuteOperation(op, 0, NULL, outputs, status).
 *
 * Nothing here exists in TensorFlow; guard its use with #ifdef TFE_VERSION.
 * Ownership: nothing is taken over; strings and arrays are copied. */
#ifndef TFE_UNIFIED_H_
#define TFE_UNIFIED_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api_unified_experimental.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- inputs ---- */

/* Adds one single-tensor input. */
TF_CAPI_EXPORT extern void TFE_AbstractOpAddInput(TF_AbstractOp* op,
                                                  TF_AbstractTensor* input,
                                                  TF_Status* status);
/* Adds one list input ("N * T" or a list(type) input) of n tensors. */
TF_CAPI_EXPORT extern void TFE_AbstractOpAddInputList(
    TF_AbstractOp* op, TF_AbstractTensor* const* inputs, int n, TF_Status* status);

/* ---- attrs ---- */

TF_CAPI_EXPORT extern void TFE_AbstractOpSetAttrInt(TF_AbstractOp* op,
                                                    const char* attr_name,
                                                    int64_t value, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_AbstractOpSetAttrFloat(TF_AbstractOp* op,
                                                      const char* attr_name,
                                                      float value, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_AbstractOpSetAttrBool(TF_AbstractOp* op,
                                                     const char* attr_name,
                                                     unsigned char value,
                                                     TF_Status* status);
TF_CAPI_EXPORT extern void TFE_AbstractOpSetAttrString(TF_AbstractOp* op,
                                                       const char* attr_name,
                                                       const void* value, size_t length,
                                                       TF_Status* status);
/* num_dims -1 for an unknown rank; a dimension -1 for an unknown size. */
TF_CAPI_EXPORT extern void TFE_AbstractOpSetAttrShape(TF_AbstractOp* op,
                                                      const char* attr_name,
                                                      const int64_t* dims, int num_dims,
                                                      TF_Status* status);
TF_CAPI_EXPORT extern void TFE_AbstractOpSetAttrIntList(TF_AbstractOp* op,
                                                        const char* attr_name,
                                                        const int64_t* values,
                                                        int num_values, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_AbstractOpSetAttrFloatList(TF_AbstractOp* op,
                                                          const char* attr_name,
                                                          const float* values,
                                                          int num_values, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_AbstractOpSetAttrTypeList(TF_AbstractOp* op,
                                                         const char* attr_name,
                                                         const TF_DataType* values,
                                                         int num_values,
                                                         TF_Status* status);
/* A tensor attr (Const's value): the tensor stays the caller's. */
TF_CAPI_EXPORT extern void TFE_AbstractOpSetAttrTensor(TF_AbstractOp* op,
                                                       const char* attr_name,
                                                       TF_Tensor* value, TF_Status* status);
/* A function attr naming a function the context knows (If, While,
 * PartitionedCall). */
TF_CAPI_EXPORT extern void TFE_AbstractOpSetAttrFunctionName(TF_AbstractOp* op,
                                                             const char* attr_name,
                                                             const char* function_name,
                                                             TF_Status* status);

/* ---- values ---- */

/* The dtype of a value (TF_INVALID_ARGUMENT, and 0, for NULL). */
TF_CAPI_EXPORT extern TF_DataType TFE_AbstractTensorDataType(TF_AbstractTensor* t,
                                                             TF_Status* status);
/* The rank of a value, or -1 when a traced value's rank is unknown. */
TF_CAPI_EXPORT extern int TFE_AbstractTensorNumDims(TF_AbstractTensor* t,
                                                    TF_Status* status);
/* Size of dimension i, -1 when a traced value's size is unknown. */
TF_CAPI_EXPORT extern int64_t TFE_AbstractTensorDim(TF_AbstractTensor* t, int i,
                                                    TF_Status* status);
/* A second reference to the same value (for an eager one, the same
 * TFE_TensorHandle), freed on its own with TF_DeleteAbstractTensor. */
TF_CAPI_EXPORT extern TF_AbstractTensor* TFE_AbstractTensorCopy(TF_AbstractTensor* t,
                                                                TF_Status* status);
/* 1 for a value of an eager context, 0 for a traced one. */
TF_CAPI_EXPORT extern int TFE_AbstractTensorIsEager(const TF_AbstractTensor* t);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TFE_UNIFIED_H_ */
