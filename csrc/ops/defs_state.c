/* Built-in op definitions: TensorFlow 1 reference (Ref(T)) state ops --
 * VariableV2, temporary variables, assignment through a reference, RefIdentity.
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry;
 * how tfe runs them eagerly is in docs/REF_VARIABLES.md. */
#include "ops/ops_internal.h"

int tfe_ops_register_state_defs(void);

#define TFE_NUMBER_TYPES                                                    \
  "{float, double, int32, uint8, int16, int8, complex64, int64, qint8, "    \
  "quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, "   \
  "uint32, uint64}"

static const tfe_builtin_op kOps[] = {
    TFE_OP("VariableV2", "out: ref: Ref(dtype)",
           "attr: shape: shape",
           "attr: dtype: type",
           "attr: container: string = ''",
           "attr: shared_name: string = ''",
           "stateful"),
    TFE_OP("TemporaryVariable", "out: ref: Ref(dtype)",
           "attr: shape: shape",
           "attr: dtype: type",
           "attr: var_name: string = ''",
           "stateful"),
    TFE_OP("DestroyTemporaryVariable", "in: ref: Ref(T)",
           "out: value: T",
           "attr: T: type",
           "attr: var_name: string"),
    TFE_OP("Assign", "in: ref: Ref(T)",
           "in: value: T",
           "out: output_ref: Ref(T)",
           "attr: T: type",
           "attr: validate_shape: bool = true",
           "attr: use_locking: bool = true",
           "allows_uninitialized_input"),
    TFE_OP("AssignAdd", "in: ref: Ref(T)",
           "in: value: T",
           "out: output_ref: Ref(T)",
           "attr: T: " TFE_NUMBER_TYPES,
           "attr: use_locking: bool = false"),
    TFE_OP("AssignSub", "in: ref: Ref(T)",
           "in: value: T",
           "out: output_ref: Ref(T)",
           "attr: T: " TFE_NUMBER_TYPES,
           "attr: use_locking: bool = false"),
    TFE_OP("RefIdentity", "in: input: Ref(T)",
           "out: output: Ref(T)",
           "attr: T: type",
           "allows_uninitialized_input"),
    TFE_OP("IsVariableInitialized", "in: ref: Ref(dtype)",
           "out: is_initialized: bool",
           "attr: dtype: type",
           "allows_uninitialized_input"),
};

int tfe_ops_register_state_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]));
}
