/* An op library for the TF_LoadLibrary tests that defines AddV2 (a
 * built-in op: the registration reports ALREADY_EXISTS to it, and the load
 * still succeeds, as in TF) and an op of its own, TfeRedefOwn. */
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_status.h"

__attribute__((constructor)) static void lib_redefines_builtin_init(void) {
  TF_Status* s = TF_NewStatus();
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("AddV2");
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_RegisterOpDefinition(b, s);
  b = TF_NewOpDefinitionBuilder("TfeRedefOwn");
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_RegisterOpDefinition(b, s);
  TF_DeleteStatus(s);
}
