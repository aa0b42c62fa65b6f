/* Internal interface of the gradient tape (tape.c), the gradient registry
 * (grad_registry.c) and the unified API helpers they use (unified.c). */
#ifndef TFE_EAGER_TAPE_H_
#define TFE_EAGER_TAPE_H_

#include "eager/eager_internal.h"
#include "ops/attr_value.h"
#include "tensorflow/c/eager/c_api_unified_experimental.h"
#include "tfe/gradients.h"

/* Called by TFE_Execute after op ran and produced outs[0..n) when
 * ctx->num_tapes is non-zero: every recording tape of op's context that
 * tracks one of op's inputs records the op. */
void tfe_tape_record(TFE_Op* op, TFE_TensorHandle* const* outs, int n);
/* 1 when a recording tape of op's context tracks one of op's inputs (the
 * op, once run, would be recorded). */
int tfe_tape_would_record(const TFE_Op* op);
/* grad_func.c: under a tape that would record op, a call of a library
 * function by its own name whose body has stateful ops runs through the
 * function's forward variant instead (TFE_ContextAddForwardFunction): the
 * tape records the variant's call, whose gradient reads the saved values,
 * and the caller gets the original outputs. Returns 1 when it ran the op
 * (status set), 0 when TFE_Execute should run op as usual. */
int tfe_grad_eager_forward(TFE_Op* op, TFE_TensorHandle** retvals, int* num_retvals,
                           TF_Status* status);

/* The same for an op a custom device ran (custom_device_execute.c):
 * `device` (the custom device's full name, living as long as the context)
 * is where the record's gradient ops are placed, as TF places them under
 * the device scope the forward op ran in. */
void tfe_tape_record_on_device(TFE_Op* op, TFE_TensorHandle* const* outs, int n,
                               const char* device);

/* Records on the tapes of ctx that track `from` that `to` is a copy of
 * it (its gradient passes through unchanged): custom_device_execute.c,
 * when an op's input is copied off a custom device. */
void tfe_tape_record_copy(TFE_Context* ctx, TFE_TensorHandle* from, TFE_TensorHandle* to);

/* An eager execution context over ctx that does not own it. */
TF_ExecutionContext* tfe_unified_borrow_eager(TFE_Context* ctx);
/* Places the ops an eager context builds from now on on `device`
 * (borrowed; NULL: no explicit placement). No-op on a tracing context. */
void tfe_unified_set_eager_device(TF_ExecutionContext* c, const char* device);
/* A new abstract tensor holding its own reference to h. */
TF_AbstractTensor* tfe_unified_wrap_handle(TFE_TensorHandle* h);
/* The handle of an eager abstract tensor (borrowed), else NULL. */
TFE_TensorHandle* tfe_unified_handle_of(const TF_AbstractTensor* at);

/* A tracing context that adds nodes to the caller's graph g (not owned)
 * under node-name prefix `prefix` (copied): TF_AddGradients. */
TF_ExecutionContext* tfe_unified_borrow_graph(TF_Graph* g, const char* prefix);
/* A new traced value for output `out` of a graph context's graph. */
TF_AbstractTensor* tfe_unified_wrap_output(TF_ExecutionContext* c, TF_Output out);
/* The graph output of a traced value: 1, or 0 for an eager value. */
int tfe_unified_output_of(const TF_AbstractTensor* at, TF_Output* out);
/* A node name "<prefix>/<type>[_k]" not yet used in a tracing context's
 * graph, in buf[0..n). 0 for an eager context. */
int tfe_unified_node_name(TF_ExecutionContext* c, const char* type, char* buf, size_t n);
/* Sets a list(string) attr on an abstract op (the unified API has no
 * public setter for one); status as the TFE_AbstractOpSetAttr* setters. */
void tfe_unified_op_set_attr_string_list(TF_AbstractOp* op, const char* attr_name,
                                         const void* const* values, const size_t* lengths,
                                         int num_values, TF_Status* s);

/* What the registry knows of an op type: its gradient function (NULL when
 * none), and whether it is marked not differentiable. Returns 0 when the
 * type is unknown to the registry. */
int tfe_grad_lookup(const char* op_type, TFE_GradientFunction* fn, int* not_differentiable);

/* The context a gradient function sees (grad_registry.c defines the
 * accessors; tape.c fills it). Arrays hold borrowed tensors except
 * in_grads, which the tape takes over after the call. */
struct TFE_GradientContext {
  TF_ExecutionContext* ec;
  const char* op_type;
  const tfe_attrs* attrs;
  int num_inputs, num_outputs;
  TF_AbstractTensor** inputs;
  TF_AbstractTensor** outputs;
  TF_AbstractTensor** out_grads;
  TF_AbstractTensor** in_grads;
};

/* Registers the built-in gradient functions (grad_math.c); called once by
 * the registry. Returns 0 on allocation failure. */
int tfe_grad_register_builtins(void);

#endif /* TFE_EAGER_TAPE_H_ */
