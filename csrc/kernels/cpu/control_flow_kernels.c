/* CPU kernels: v1 control flow (Switch, Merge, Enter, Exit, NextIteration,
 * LoopCond, ControlTrigger and the Ref variants), and Abort.
 *
 * In a graph these ops never reach their kernels: the executor
 * (csrc/graph/exec.c) routes their values itself (dead outputs of Switch,
 * Merge firing on its first live input, frames for Enter/Exit/
 * NextIteration). The kernels exist so that placement finds a CPU kernel,
 * and give an eager call, where nothing is ever dead, a plain meaning:
 * Switch forwards its data to both outputs, Merge forwards its first input
 * (value_index 0), the frame ops and LoopCond forward their input. */
#include <stdlib.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/kutil.h"
#include "kernels/ref_var.h"
#include "tensorflow/c/logging.h"

static void k_forward0(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int i;
  for (i = 0; i < k->num_outputs; i++) {
    if (k->output_types[i] != x->dtype) continue; /* Merge's value_index */
    if (tfe_kutil_forward(k, i, 0, x->dims, x->num_dims) == NULL) return;
  }
}

static void k_merge(tfe_kernel_context* k) {
  TF_Tensor* idx;
  k_forward0(k);
  if (TF_GetCode(k->status) != TF_OK) return;
  idx = tfe_kernel_alloc_output(k, 1, TF_INT32, NULL, 0);
  if (idx != NULL) *(int32_t*)TF_TensorData(idx) = 0;
}

/* Ref variants: every Ref output refers to the cell of input 0. */
static void k_ref_forward0(tfe_kernel_context* k) {
  tfe_ref_cell* c = tfe_kernel_input_ref(k, 0);
  int i;
  if (c == NULL) {
    TF_SetStatus(k->status, TF_INVALID_ARGUMENT,
                 "the data input must be a reference");
    return;
  }
  for (i = 0; i < k->num_outputs; i++) {
    if (!tfe_op_def_flat_is_ref(k->op_def, k->attrs, 1, i)) {
      /* RefMerge's value_index */
      TF_Tensor* idx = tfe_kernel_alloc_output(k, i, TF_INT32, NULL, 0);
      if (idx == NULL) return;
      *(int32_t*)TF_TensorData(idx) = 0;
      continue;
    }
    if (!tfe_kernel_set_output_ref(k, i, c)) return;
  }
}

static void k_noop(tfe_kernel_context* k) { (void)k; }

/* Abort ends the process, as TF's kernel does: normally (exit status 0)
 * with exit_without_error, else with SIGABRT after logging error_msg. */
static void k_abort(tfe_kernel_context* k) {
  const char* msg = "";
  size_t len = 0;
  int quiet = 0;
  tfe_attrs_get_string(k->attrs, "error_msg", &msg, &len, NULL);
  tfe_attrs_get_bool(k->attrs, "exit_without_error", &quiet, NULL);
  if (quiet) {
    TF_Log(TF_WARNING, "Exiting the process: %s", msg);
    exit(0);
  }
  TF_Log(TF_ERROR, "Abort_op intentional failure; %s", msg);
  abort();
}

void tfe_register_cpu_control_flow_kernels(void) {
  static const char* const fwd[] = {"Switch", "Enter", "Exit",
                                    "NextIteration", "LoopCond"};
  static const char* const ref_fwd[] = {"RefSwitch", "RefMerge", "RefEnter",
                                        "RefExit", "RefNextIteration"};
  size_t i;
  for (i = 0; i < sizeof(fwd) / sizeof(fwd[0]); i++) {
    tfe_kutil_register(fwd[i], k_forward0, NULL, NULL, 0, NULL, NULL, 0);
  }
  for (i = 0; i < sizeof(ref_fwd) / sizeof(ref_fwd[0]); i++) {
    tfe_kutil_register(ref_fwd[i], k_ref_forward0, NULL, NULL, 0, NULL, NULL,
                       0);
  }
  tfe_kutil_register("Merge", k_merge, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("ControlTrigger", k_noop, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("Abort", k_abort, NULL, NULL, 0, NULL, NULL, 0);
}
