/* Reference cells: what a Ref(T) argument carries (TensorFlow 1's
 * reference-typed tensors), and the per-context registry of temporary
 * variables (TemporaryVariable / DestroyTemporaryVariable).
 *
 * A cell is a mutable slot holding one tensor value behind a mutex. A
 * kernel with a Ref(T) input receives the cell (tfe_kernel_context's
 * input_refs) and may replace or update its value in place; a kernel with
 * a Ref(T) output stores a cell reference (output_refs) instead of a
 * tensor. The eager runtime wraps such outputs in tensor handles that refer
 * to the cell, so later ops see its current value.
 *
 * Cells are reference counted: by handles, by running kernels and by the
 * temporary-variable registry. Implementation: csrc/kernels/ref_var.c. */
#ifndef TFE_KERNELS_REF_VAR_H_
#define TFE_KERNELS_REF_VAR_H_

#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

#include "ops/op_registry.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

struct tfe_kernel_context;

typedef struct tfe_ref_cell {
  atomic_int refs;
  pthread_mutex_t mu; /* guards value */
  TF_DataType dtype;  /* the base dtype (T of Ref(T)) */
  /* Current value (owned), or NULL while uninitialized. */
  TF_Tensor* value;
} tfe_ref_cell;

/* New cell with one reference (the caller's) adopting `value` (may be
 * NULL: uninitialized). NULL when memory runs out (value is then deleted). */
tfe_ref_cell* tfe_ref_cell_new(TF_DataType dtype, TF_Tensor* value);
void tfe_ref_cell_ref(tfe_ref_cell* c);
/* Drops a reference; the last one frees the value and the cell. NULL is
 * ignored. */
void tfe_ref_cell_unref(tfe_ref_cell* c);

/* A new tensor sharing the current value's buffer (caller owns it). When
 * the cell is uninitialized: NULL with FAILED_PRECONDITION (TF's
 * "Attempting to use uninitialized value"); RESOURCE_EXHAUSTED on OOM.
 * lock_held says the caller holds c->mu. */
TF_Tensor* tfe_ref_cell_read(tfe_ref_cell* c, int lock_held, TF_Status* s);

/* Replaces the value (hold c->mu), adopting `value`. */
void tfe_ref_cell_set_locked(tfe_ref_cell* c, TF_Tensor* value);

/* Gives cell c (hold c->mu) the value of rhs as TF's Assign does: with
 * validate_shape an initialized value must have rhs's shape
 * (INVALID_ARGUMENT, TF's message); when the element counts match, rhs is
 * copied into the existing buffer (the value reshaped if needed), else
 * into a new tensor from alloc(user, like, s). copy(user, src, dst, s)
 * copies the elements and returns 0 with s set on failure. Returns 1 on
 * success. */
typedef TF_Tensor* (*tfe_ref_alloc_fn)(void* user, const TF_Tensor* like,
                                       TF_Status* s);
typedef int (*tfe_ref_copy_fn)(void* user, const TF_Tensor* src,
                               const TF_Tensor* dst, TF_Status* s);
int tfe_ref_assign_locked(tfe_ref_cell* c, const TF_Tensor* rhs,
                          int validate_shape, tfe_ref_alloc_fn alloc,
                          tfe_ref_copy_fn copy, void* user, TF_Status* s);

/* TF's text for a shape ("[2,3]", "[]") into buf. */
void tfe_ref_shape_str(const TF_Tensor* t, char* buf, size_t cap);

/* ---- Ref(T) args of an op definition ---- */

/* 1 when any input or output arg of def is a Ref(T). */
int tfe_op_def_has_ref(const tfe_op_def* def);
/* 1 when flat input (is_output 0) or output (1) `index` belongs to a Ref
 * arg, given the complete attrs (list lengths); 0 otherwise. */
int tfe_op_def_flat_is_ref(const tfe_op_def* def, const tfe_attrs* attrs,
                           int is_output, int index);

/* ---- the kernel side ---- */

/* The cell behind flat input i of a running kernel, or NULL when input i
 * is not a reference (borrowed). */
tfe_ref_cell* tfe_kernel_input_ref(const struct tfe_kernel_context* k, int i);
/* Makes ref output `index` refer to cell c (takes a new reference).
 * INVALID_ARGUMENT in k->status when the index is bad or the output is not
 * a Ref(T) output. Returns 1 on success. */
int tfe_kernel_set_output_ref(struct tfe_kernel_context* k, int index,
                              tfe_ref_cell* c);

/* ---- temporary variables, per eager context ---- */

/* Registers c under (ctx_id, name), taking a new reference.
 * ALREADY_EXISTS when the name is taken, RESOURCE_EXHAUSTED on OOM. */
int tfe_tmpvar_create(uint64_t ctx_id, const char* name, tfe_ref_cell* c,
                      TF_Status* s);
/* Unregisters (ctx_id, name) and drops the registry's reference. NOT_FOUND
 * when there is no such temporary variable. */
int tfe_tmpvar_delete(uint64_t ctx_id, const char* name, TF_Status* s);
/* The cell registered under (ctx_id, name) with a new reference, or NULL. */
tfe_ref_cell* tfe_tmpvar_lookup(uint64_t ctx_id, const char* name);
/* Drops every temporary variable of a context (at context deletion). */
void tfe_tmpvars_clear_context(uint64_t ctx_id);
/* Number of registered temporary variables (all contexts). */
int tfe_tmpvars_count(void);

#endif /* TFE_KERNELS_REF_VAR_H_ */
