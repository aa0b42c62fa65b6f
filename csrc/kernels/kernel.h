/* The one kernel registry and the interface between the eager runtime and
 * kernels. Built-in CPU kernels (csrc/kernels/cpu/) and kernels from plugins
 * (kernels.h, through an adapter) register here the same way.
 * Implementation: csrc/kernels/registry.c, csrc/kernels/context.c. */
#ifndef TFE_KERNELS_KERNEL_H_
#define TFE_KERNELS_KERNEL_H_

#include <stdint.h>

#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#define TFE_KERNEL_MAX_CONSTRAINTS 4

typedef struct tfe_kernel_context tfe_kernel_context;

/* What a kernel sees while it runs. The eager runtime fills it; kernels
 * only read the inputs and set the outputs. */
struct tfe_kernel_context {
  const tfe_op_def* op_def;
  const tfe_attrs* attrs; /* complete: defaults and inferred attrs included */
  /* Flat inputs, borrowed; the kernel must not delete them. */
  TF_Tensor* const* inputs;
  int num_inputs;
  /* Flat outputs: the runtime passes an array of NULLs; the kernel stores a
   * new tensor in each (ownership goes to the runtime). Use
   * tfe_kernel_alloc_output or tfe_kernel_set_output. */
  TF_Tensor** outputs;
  int num_outputs;
  /* Expected dtype of each output, from the op definition. */
  const TF_DataType* output_types;
  /* Set on failure; a kernel that fails must leave outputs it made to the
   * runtime (they are freed). */
  TF_Status* status;
  /* Per-kernel-instance state from tfe_kernel_reg.create, or NULL. */
  void* state;
  /* Registration's user_data (plugin adapters use it). */
  void* user_data;
  /* Owning context (opaque to kernels; may be NULL in unit tests). */
  void* eager_ctx;
  /* Name of the device the kernel runs on (full TF name). */
  const char* device_name;
  /* Ref(T) args (kernels/ref_var.h); both NULL when the op has none.
   * input_refs[i] is the cell behind flat input i (borrowed), or NULL for
   * a plain input; inputs[i] is then a view of the cell's value taken
   * before the kernel ran (NULL while uninitialized). For a Ref output j
   * the kernel stores a cell reference in output_refs[j] (ownership goes
   * to the runtime; tfe_kernel_set_output_ref) and leaves outputs[j]
   * NULL. */
  struct tfe_ref_cell* const* input_refs;
  struct tfe_ref_cell** output_refs;
  /* Bit i (i < 64) set by the runtime when nothing but inputs[i] can
   * observe that input's buffer: its tensor handle is held only by the
   * executing op (the caller deleted its own handle after adding it), the
   * buffer is core-allocated host memory, and no other tensor, handle,
   * variable, reference or export shares it. Such a buffer may become an
   * output's (TF's input forwarding, tfe_kernel_forward_or_alloc_output);
   * 0 when the runtime allows none (kernels called directly, tests). */
  uint64_t forwardable;
  /* Bit i set by the forwarding helpers when input i's buffer became an
   * output's: the runtime then marks that input's handle as consumed. */
  uint64_t forwarded;
  /* Cancellation manager of the eager op (TFE_OpSetCancellationManager)
   * or of the graph run (tfe_plan_run's `cancel`); NULL when none.
   * Borrowed, alive while the kernel runs. A kernel that blocks (queue
   * enqueue/dequeue) registers a callback on it and fails with CANCELLED
   * when it fires. Builders of a context must set it (NULL is fine). */
  struct TFE_CancellationManager* cancel;
  /* Name of the graph node the kernel runs for; NULL in eager, where TF
   * names the node after the op type. Builders must set it. */
  const char* node_name;
};

typedef struct tfe_kernel_constraint {
  const char* attr;           /* type attr name, e.g. "T" */
  const TF_DataType* types;   /* allowed dtypes */
  int num_types;
} tfe_kernel_constraint;

typedef struct tfe_kernel_reg {
  const char* op_name;
  const char* device_type; /* "CPU", or a plugin's device type */
  tfe_kernel_constraint constraints[TFE_KERNEL_MAX_CONSTRAINTS];
  int num_constraints;
  /* Names of input/output args kept in host memory (device kernels). */
  const char* const* host_memory_args;
  int num_host_memory_args;
  int priority; /* higher wins among matching kernels */
  const char* label;
  /* Optional: build per-instance state for one (op, attrs) combination; it
   * is cached with the kernel and released with destroy. Seeded stateful
   * ops (seed/seed2 attrs) get one state per graph node instead when run in
   * a plan (graph/plan.c), as TF's kernel instances; eager calls share the
   * cached one. */
  void* (*create)(const tfe_op_def* def, const tfe_attrs* attrs,
                  void* user_data, TF_Status* status);
  void (*compute)(tfe_kernel_context* k);
  void (*destroy)(void* state, void* user_data);
  void* user_data;
} tfe_kernel_reg;

/* Copies *reg (all strings and arrays) into the registry. INVALID_ARGUMENT
 * for a missing op_name/device_type/compute; ALREADY_EXISTS when a kernel
 * with the same op, device type, constraints, label and priority exists. */
int tfe_kernel_register(const tfe_kernel_reg* reg, TF_Status* status);

/* Registers every built-in CPU kernel exactly once (safe to call often). */
void tfe_kernels_ensure_builtins(void);

/* Best kernel for op `def` on `device_type` given complete attrs: among
 * registrations whose constraints all hold, the highest priority. When none
 * matches: NOT_FOUND with TF's wording, e.g. "Could not find device for
 * node: {{node X}} = X[T=DT_STRING]\nAll kernels registered for op X:\n
 *   device='CPU'; T in [DT_FLOAT, DT_DOUBLE]\n". The result lives for the
 * life of the process. */
/* Sets TF's graph-placement error for a node whose op has no kernel that
 * matches attrs on any device (INVALID_ARGUMENT, "No OpKernel was
 * registered to support Op ... Registered kernels: ..."). device_types:
 * the context's device types, comma-separated. */
void tfe_kernel_set_no_kernel_for_node(const tfe_op_def* def, const char* node,
                                       const tfe_attrs* attrs, const char* device_types,
                                       TF_Status* status);

const tfe_kernel_reg* tfe_kernel_find(const tfe_op_def* def,
                                      const char* device_type,
                                      const tfe_attrs* attrs,
                                      TF_Status* status);

/* Number of registrations and the i-th (for listings and `doctor`). */
int tfe_kernel_count(void);
const tfe_kernel_reg* tfe_kernel_at(int i);

/* Undoing a library's registrations (its load failed): between
 * tfe_kernels_mark_begin and tfe_kernels_mark_end, kernels registered on
 * the calling thread carry the returned tag; tfe_kernels_remove_marked
 * takes every kernel with that tag out of lookups and listings (the
 * records stay allocated, since pointers to them may have been handed
 * out) and returns how many it removed. */
unsigned tfe_kernels_mark_begin(void);
void tfe_kernels_mark_end(void);
int tfe_kernels_remove_marked(unsigned tag);

/* ---- helpers for kernel implementations ---- */

/* Allocates output `index` on the host (aligned, contents unspecified,
 * string elements empty) and stores it in k->outputs[index]. Returns it, or
 * NULL with k->status set (RESOURCE_EXHAUSTED, INVALID_ARGUMENT for a bad
 * shape or index). */
TF_Tensor* tfe_kernel_alloc_output(tfe_kernel_context* k, int index,
                                   TF_DataType dtype, const int64_t* dims,
                                   int num_dims);
/* Makes output `index` share input `input_index`'s buffer with the given
 * dtype/shape (no copy; byte sizes must match). Returns the output or NULL
 * with k->status set. */
TF_Tensor* tfe_kernel_alias_input(tfe_kernel_context* k, int index,
                                  int input_index, const int64_t* dims,
                                  int num_dims);
/* 1 when input `input`'s buffer may be reused for an output of `dtype`
 * with `num_elements` elements (TF's OpKernelContext::forward_input
 * rules): the runtime marked it forwardable (k->forwardable), it is a
 * plain (non-reference) input of that same dtype (not a string, variant or
 * resource) and element count, and its buffer still has a single
 * reference (a kernel that took its own share of the input, e.g. through
 * TF_GetInput, has made it unforwardable). */
int tfe_kernel_can_forward(const tfe_kernel_context* k, int input,
                           TF_DataType dtype, int64_t num_elements);
/* TF's forward_input_or_allocate_output: makes output `index` (of dtype,
 * dims) share the buffer of the first input among candidates[0..n) that
 * tfe_kernel_can_forward accepts, else allocates it as
 * tfe_kernel_alloc_output does. *forwarded (may be NULL) gets the input
 * used, or -1. The kernel then writes the output in place: it must read
 * input element j before writing output element j and never read input
 * element j after writing output element j. NULL with k->status set on
 * failure. */
TF_Tensor* tfe_kernel_forward_or_alloc_output(tfe_kernel_context* k,
                                              const int* candidates,
                                              int num_candidates, int index,
                                              TF_DataType dtype,
                                              const int64_t* dims,
                                              int num_dims, int* forwarded);
/* Stores an existing tensor as output `index`, taking ownership of it. */
void tfe_kernel_set_output(tfe_kernel_context* k, int index, TF_Tensor* t);

#endif /* TFE_KERNELS_KERNEL_H_ */
