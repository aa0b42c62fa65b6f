/* CPU kernels: the session-tensor ops (GetSessionHandle, GetSessionHandleV2,
 * GetSessionTensor, DeleteSessionTensor).
 *
 * TF keeps such tensors in the session's state; eager ops have none, and
 * TF 2.21 fails every one of these ops eagerly with FAILED_PRECONDITION
 * ("<op> called on null session state"), which these kernels report too.
 * tfe's graph sessions keep no session tensors either: in a graph the ops
 * fail with UNIMPLEMENTED naming themselves (TF would store, return or
 * delete the tensor there). */
#include <string.h>

#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"

void tfe_register_cpu_dataflow2_session_kernels(void);

static void k_session_op(tfe_kernel_context* k) {
  const char* name = k->op_def->name;
  /* TF's V2 handle op reports under the V1 name. */
  const char* shown =
      strcmp(name, "GetSessionHandleV2") == 0 ? "GetSessionHandle" : name;
  if (k->node_name == NULL) {
    KUTIL_FAIL(k, TF_FAILED_PRECONDITION, "%s called on null session state",
               shown);
    return;
  }
  KUTIL_FAIL(k, TF_UNIMPLEMENTED,
             "%s: tfe's graph sessions keep no session tensors (TF's "
             "session state is not implemented)",
             name);
}

void tfe_register_cpu_dataflow2_session_kernels(void) {
  tfe_kutil_register("GetSessionHandle", k_session_op, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("GetSessionHandleV2", k_session_op, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("GetSessionTensor", k_session_op, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("DeleteSessionTensor", k_session_op, NULL, NULL, 0, NULL,
                     NULL, 0);
}
