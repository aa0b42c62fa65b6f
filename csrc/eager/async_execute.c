/* Queued ops ("nodes"): what TFE_Execute leaves for an asynchronous
 * executor's worker. A node holds references on everything it needs, so
 * the caller may delete the op, the inputs, the outputs, the cancellation
 * manager and even the context (a zombie then) while it is pending:
 *   - a context reference (the kernel-cache entry lives as long as it);
 *   - one reference per input and per output handle;
 *   - a reference on the op's cancellation manager, if any.
 * One allocation per node; the handle arrays follow the struct. */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/executor.h"
#include "kernels/host_memory.h"
#include "kernels/ref_var.h"

#define INLINE_TENSORS 8

struct tfe_async_node {
  tfe_async_node* next;
  TFE_Context* ctx;
  const tfe_kcache_entry* e;
  struct TFE_CancellationManager* cancel;
  int num_inputs;
  int num_outputs;
  TFE_TensorHandle** inputs;  /* num_inputs, then the outputs */
  TFE_TensorHandle** outputs; /* num_outputs */
  TFE_TensorHandle* handles[1];
};

tfe_async_node** tfe_async_node_next(tfe_async_node* node) {
  return &node->next;
}

void tfe_async_execute(TFE_Executor* ex, TFE_Op* op,
                       const tfe_kcache_entry* e, TFE_TensorHandle** retvals,
                       int* num_retvals, TF_Status* status) {
  const int n_in = op->num_inputs, n_out = e->num_outputs;
  size_t bytes = sizeof(tfe_async_node) +
                 sizeof(TFE_TensorHandle*) * (size_t)(n_in + n_out);
  tfe_async_node* node = (tfe_async_node*)tfe_calloc(1, bytes);
  const int has_ref = e->has_ref;
  int i;
  if (node == NULL) goto oom;
  node->ctx = op->ctx;
  node->e = e;
  node->num_inputs = n_in;
  node->num_outputs = n_out;
  node->inputs = node->handles;
  node->outputs = node->handles + n_in;
  for (i = 0; i < n_out; i++) {
    node->outputs[i] =
        tfe_handle_new_pending(op->ctx, e->output_types[i], e->run_device);
    /* A device kernel's host-memory output is backed by the host. */
    if (node->outputs[i] != NULL && !e->run_device->is_host &&
        tfe_kernel_arg_in_host_memory(e->reg, e->def, &e->complete, 1, i)) {
      node->outputs[i]->backing = op->ctx->devices[0];
    }
    /* A Ref output: known to be a reference before it is computed. */
    if (node->outputs[i] != NULL && has_ref &&
        tfe_op_def_flat_is_ref(e->def, &e->complete, 1, i)) {
      node->outputs[i]->is_ref = 1;
    }
    if (node->outputs[i] == NULL) {
      while (--i >= 0) tfe_handle_unref(node->outputs[i]);
      tfe_free(node);
      goto oom;
    }
  }
  tfe_ctx_ref(op->ctx);
  for (i = 0; i < n_in; i++) {
    node->inputs[i] = op->inputs[i];
    tfe_handle_ref(op->inputs[i]);
  }
  if (op->cancel != NULL) {
    node->cancel = op->cancel;
    tfe_cancel_ref(node->cancel);
  }
  /* The node keeps the outputs until it ran; the caller gets its own
   * references. Once pushed the node may already be running (or freed),
   * so the caller's copies are made first. */
  for (i = 0; i < n_out; i++) {
    tfe_handle_ref(node->outputs[i]);
    retvals[i] = node->outputs[i];
  }
  if (!tfe_executor_push(ex, node, status)) {
    for (i = 0; i < n_out; i++) {
      tfe_handle_unref(retvals[i]);
      retvals[i] = NULL;
    }
    tfe_async_node_abort(node, TF_GetCode(status), TF_Message(status));
    tfe_async_node_free(node);
    return;
  }
  *num_retvals = n_out;
  if (atomic_load_explicit(&op->ctx->log_placement, memory_order_relaxed)) {
    tfe_ctx_record_op(op->ctx, e->def->name, e->run_device);
  }
  tfe_status_ok(status);
  return;

oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "TFE_Execute: out of memory queueing %s", e->def->name);
}

void tfe_async_node_run(tfe_async_node* node, TF_Status* s) {
  const tfe_kcache_entry* e = node->e;
  TF_Tensor* out_inline[INLINE_TENSORS];
  TF_Tensor** outs = out_inline;
  tfe_ref_cell** out_refs = NULL; /* ops with Ref(T) args only */
  int i;

  if (node->num_outputs > INLINE_TENSORS) {
    outs = (TF_Tensor**)tfe_calloc((size_t)node->num_outputs,
                                   sizeof(TF_Tensor*));
    if (outs == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "out of memory running %s asynchronously",
                      e->def->name);
      goto done;
    }
  } else {
    for (i = 0; i < node->num_outputs; i++) outs[i] = NULL;
  }
  /* The manager is checked once the op is due to run: an op queued before
   * the cancellation fails too. */
  if (!tfe_cancel_check(node->cancel, e->def->name, s)) goto done;
  if (e->has_ref) {
    out_refs = (tfe_ref_cell**)tfe_calloc((size_t)node->num_outputs + 1,
                                          sizeof(*out_refs));
    if (out_refs == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "out of memory running %s asynchronously",
                      e->def->name);
      goto done;
    }
  }
  /* Waits for inputs produced by earlier nodes (of this or another
   * executor); an input whose op failed fails this op with that error. */
  if (!tfe_execute_kernel(node->ctx, e, node->inputs, outs, out_refs,
                          node->cancel, s)) {
    goto done;
  }
  for (i = 0; i < node->num_outputs; i++) {
    if (out_refs != NULL && out_refs[i] != NULL) {
      /* The handle adopts the cell reference; publishing READY makes it
       * visible to readers. */
      node->outputs[i]->ref = out_refs[i];
      out_refs[i] = NULL;
    }
    tfe_handle_fulfil(node->outputs[i], outs[i]);
    outs[i] = NULL;
  }

done:
  if (TF_GetCode(s) != TF_OK) {
    tfe_async_node_abort(node, TF_GetCode(s), TF_Message(s));
  }
  tfe_free(out_refs);
  if (outs != out_inline) tfe_free(outs);
}

void tfe_async_node_abort(tfe_async_node* node, TF_Code code,
                          const char* msg) {
  int i;
  for (i = 0; i < node->num_outputs; i++) {
    if (atomic_load_explicit(&node->outputs[i]->state,
                             memory_order_acquire) == TFE_HANDLE_PENDING) {
      tfe_handle_poison(node->outputs[i], code, msg);
    }
  }
}

void tfe_async_node_free(tfe_async_node* node) {
  int i;
  TFE_Context* ctx = node->ctx;
  for (i = 0; i < node->num_inputs; i++) tfe_handle_unref(node->inputs[i]);
  for (i = 0; i < node->num_outputs; i++) tfe_handle_unref(node->outputs[i]);
  if (node->cancel != NULL) tfe_cancel_unref(node->cancel);
  tfe_free(node);
  tfe_ctx_unref(ctx);
}
