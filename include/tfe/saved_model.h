/* tfe's SavedModel helpers (extensions; TensorFlow has no such function).
 * Loading itself is TF's TF_LoadSessionFromSavedModel (tensorflow/c/
 * c_api.h); see docs/SAVED_MODEL.md. */
#ifndef TFE_SAVED_MODEL_H_
#define TFE_SAVED_MODEL_H_

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the SavedModel in `export_dir` as TF_LoadSessionFromSavedModel
 * does (saved_model.pb, else saved_model.pbtxt converted from the text
 * format; through the filesystem registry, so ram:// and plugin schemes
 * work) and stores the serialized tensorflow.SavedModel (every
 * MetaGraphDef, with its tags and signatures) in `out`, for tools that
 * list a model's tag sets and signatures without loading it. `out` must
 * be empty (data NULL; else INVALID_ARGUMENT) and receives memory its
 * data_deallocator frees. Errors: NOT_FOUND when neither file exists,
 * DATA_LOSS / OUT_OF_RANGE for malformed contents (the top level is
 * checked), INVALID_ARGUMENT for NULL arguments. */
TF_CAPI_EXPORT extern void TFE_ReadSavedModel(const char* export_dir,
                                              TF_Buffer* out,
                                              TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TFE_SAVED_MODEL_H_ */
