/* CPU kernels: stateful containers: v1/v2 TensorArrays, stacks, staging areas, barriers and accumulators (issue 18).
 *
 * The v1 and v2 TensorArray ops (TensorArray, TensorArrayV2, ...Read,
 * ...ReadV2, ...) are deprecated in TF's registry (removed in GraphDef
 * versions 16..26). TF 2.21 registers CPU kernels for them but refuses to
 * create one at its GraphDef version (2474, the version of eager ops and of
 * every graph it builds): running any of them fails with UNIMPLEMENTED,
 * naming the op's replacement. These kernels report exactly that. (A graph
 * imported with an old producer version would run them in TF; tfe's kernels
 * do not see the producer version, so they refuse there too.)
 *
 * TF 1's Stack, StackPush, StackPop and StackClose are served by the
 * StackV2 kernels in tensor_array_kernels.c.
 *
 * TensorArrayConcatV2 is the one v2 op TF did not deprecate, but no op TF
 * 2.21 can run makes the string-handled array it reads (TF looks it up in
 * the per-step container, which only TensorArrayV2 filled): TF's kernel
 * checks the handle and then finds nothing. This one does the same. */
#include <string.h>

#include "kernels/cpu/kutil.h"

void tfe_register_cpu_containers_kernels(void);

/* The GraphDef version TF 2.21 runs ops at (eager and new graphs). */
#define CONTAINERS_GRAPH_DEF_VERSION 2474

/* The deprecated TensorArray ops: the version that removed each and TF's
 * advice (from TF 2.21's op registry). */
typedef struct removed_op {
  const char* name;
  int version;
  const char* advice;
} removed_op;

static const removed_op kRemoved[] = {
    {"TensorArray", 16, "Use TensorArrayV3"},
    {"TensorArrayGrad", 16, "Use TensorArrayGradV3"},
    {"TensorArrayWrite", 16, "Use TensorArrayWriteV3"},
    {"TensorArrayRead", 16, "Use TensorArrayReadV3"},
    {"TensorArrayPack", 16, "Use TensorArrayGatherV3 with RangeOp"},
    {"TensorArrayUnpack", 20, "Use TensorArrayScatterV3 with RangeOp"},
    {"TensorArrayGather", 16, "Use TensorArrayGatherV3"},
    {"TensorArrayScatter", 19, "Use TensorArrayGradV3"},
    {"TensorArrayConcat", 16, "Use TensorArrayGradV3"},
    {"TensorArraySplit", 16, "Use TensorArraySplitV3"},
    {"TensorArraySize", 16, "Use TensorArraySizeV3"},
    {"TensorArrayClose", 16, "Use TensorArrayCloseV3"},
    {"TensorArrayV2", 26, "Use TensorArrayV3"},
    {"TensorArrayGradV2", 26, "Use TensorArrayGradV3"},
    {"TensorArrayWriteV2", 26, "Use TensorArrayWriteV3"},
    {"TensorArrayReadV2", 26, "Use TensorArrayReadV3"},
    {"TensorArrayGatherV2", 26, "Use TensorArrayGatherV3"},
    {"TensorArrayScatterV2", 26, "Use TensorArrayScatterV3"},
    {"TensorArraySplitV2", 26, "Use TensorArraySplitV3"},
    {"TensorArraySizeV2", 26, "Use TensorArraySizeV3"},
    {"TensorArrayCloseV2", 26, "Use TensorArrayCloseV3"},
};

/* Fails with TF's refusal of a removed op (one kernel for all of them;
 * the op's name picks the entry). */
static void removed_op_compute(tfe_kernel_context* k) {
  const char* name = k->op_def != NULL ? k->op_def->name : "";
  int i;
  for (i = 0; i < KUTIL_COUNT(kRemoved); i++) {
    if (strcmp(kRemoved[i].name, name) == 0) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "Op %s is not available in GraphDef version %d. It has "
                 "been removed in version %d. %s.",
                 name, CONTAINERS_GRAPH_DEF_VERSION, kRemoved[i].version,
                 kRemoved[i].advice);
      return;
    }
  }
  KUTIL_FAIL(k, TF_INTERNAL, "%s: not a removed TensorArray op", name);
}

/* TensorArrayConcatV2(handle: string, flow_in) -> NOT_FOUND for any
 * well-formed handle (see the top of the file). */
static void ta_concat_v2_compute(tfe_kernel_context* k) {
  const TF_Tensor* h = k->num_inputs > 0 ? k->inputs[0] : NULL;
  const TF_TString* v;
  kutil_shape_buf b;
  if (h == NULL || h->dtype != TF_STRING) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArrayConcatV2: the handle must be a string tensor");
    return;
  }
  if (kutil_num_elements(h) != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tensor array handle must be 2-element vector, but had "
               "shape: %s",
               kutil_tshape(h, &b));
    return;
  }
  v = (const TF_TString*)kutil_data(h);
  /* Eager ops run as step 0 (as TF's single-op steps do). */
  KUTIL_FAIL(k, TF_NOT_FOUND,
             "Container __per_step_0 does not exist. (Could not find "
             "resource: __per_step_0/%.*s%.*s)",
             (int)TF_TString_GetSize(&v[0]), TF_TString_GetDataPointer(&v[0]),
             (int)TF_TString_GetSize(&v[1]),
             TF_TString_GetDataPointer(&v[1]));
}

void tfe_register_cpu_containers_kernels(void) {
  int i;
  tfe_kutil_register("TensorArrayConcatV2", ta_concat_v2_compute, NULL, NULL,
                     0, NULL, NULL, 0);
  for (i = 0; i < KUTIL_COUNT(kRemoved); i++) {
    tfe_kutil_register(kRemoved[i].name, removed_op_compute, NULL, NULL, 0,
                       NULL, NULL, 0);
  }
}
