/* Internal layout of TF_Function and the FunctionDef model shared by
 * csrc/graph/function*.c.
 *
 * A TF_Function is its FunctionDef, kept field by field (no graph): the
 * signature's name, the rest of the signature as its serialized OpDef
 * fields (so descriptions, arg attrs and unknown fields survive a round
 * trip), function attrs, nodes, the ret / control_ret maps and the
 * arg_attr / resource_arg_unique_id entries verbatim. The signature is
 * also parsed into an op definition (`sig`), which is how callers find a
 * function like an op. The body graph is built only when a function is
 * instantiated to run (function_exec.c), against the library it is called
 * from, as TF does. */
#ifndef TFE_GRAPH_FUNCTION_INTERNAL_H_
#define TFE_GRAPH_FUNCTION_INTERNAL_H_

#include <stddef.h>
#include <stdint.h>

#include "core/pb.h"
#include "graph/function_lib.h"
#include "kernels/kernel.h"
#include "ops/op_registry.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"

#define TFE_FUNCTION_MAGIC 0x464e4354u /* "FNCT" */

/* A map entry: NUL-terminated key, value bytes (an AttrValue message for
 * attr maps, a NUL-terminated string for ret / control_ret). Both owned. */
typedef struct tfe_fkv {
  char* key;
  char* val;
  size_t len;
} tfe_fkv;

/* One NodeDef of a function body. Inputs use FunctionDef spelling:
 * "arg", "node:out_arg:i", "node:out_arg" (a whole list), "^node". */
typedef struct tfe_fnode {
  char* name;
  char* op;
  char* device;
  int num_inputs;
  char** inputs;
  int num_attrs;
  tfe_fkv* attrs; /* sorted by key */
  /* Other NodeDef fields (debug info, experimental type), verbatim. */
  unsigned char* extra;
  size_t extra_len;
} tfe_fnode;

/* A raw map entry with an integer key (arg_attr, resource_arg_unique_id):
 * the whole serialized entry message. */
typedef struct tfe_fraw {
  uint32_t key;
  int field;
  unsigned char* data;
  size_t len;
} tfe_fraw;

typedef struct tfe_fdef {
  char* name;
  /* Serialized OpDef fields other than `name` (field 1), in order. */
  unsigned char* sig_rest;
  size_t sig_rest_len;
  int num_attrs;
  tfe_fkv* attrs; /* FunctionDef.attr, sorted */
  int num_nodes;
  tfe_fnode* nodes;
  int num_ret;
  tfe_fkv* ret; /* sorted */
  int num_control_ret;
  tfe_fkv* control_ret; /* sorted */
  int num_raw;
  tfe_fraw* raw; /* arg_attr (7) and resource_arg_unique_id (8) entries */
  /* Signature control outputs (OpDef.control_output) in order. */
  int num_control_outputs;
  char** control_outputs;
} tfe_fdef;

struct TF_Function {
  uint32_t magic;
  tfe_fdef fd;
  /* The signature as an op definition (owned, never registered). */
  tfe_op_def* sig;
};

/* AttrValue decoding (eager/attr_proto.c; declared in eager_internal.h,
 * repeated here so that graph/ does not need the eager structures). */
int tfe_attr_proto_decode(const void* data, size_t len, tfe_attr_value* out,
                          TF_Status* s);

/* ---- FunctionDef model (function_def.c) ---- */

/* Parses a serialized FunctionDef into fd (zeroed first). INVALID_ARGUMENT
 * "Invalid FunctionDef given to <who>" on malformed bytes. */
int tfe_fdef_parse(const void* data, size_t len, tfe_fdef* fd,
                   const char* who, TF_Status* s);
void tfe_fdef_clear(tfe_fdef* fd);
/* Serialized FunctionDef (fields in number order, maps sorted). */
void tfe_fdef_encode(const tfe_fdef* fd, tfe_pbw* out);
/* TF's FunctionDefsEqual: same signature, attrs, nodes (matched by name),
 * rets and control rets. */
int tfe_fdef_equal(const tfe_fdef* a, const tfe_fdef* b);
/* Sorts a map by key (after building it in another order). */
void tfe_fkv_sort(tfe_fkv* kv, int n);
/* Looks a key up in a sorted map. */
const tfe_fkv* tfe_fkv_find(const tfe_fkv* kv, int n, const char* key);
/* Sets key = bytes in a sorted map (replacing). 0 on OOM. */
int tfe_fkv_set(tfe_fkv** kv, int* n, const char* key, const void* val,
                size_t len);
void tfe_fkv_free(tfe_fkv* kv, int n);

/* Builds the op definition of fd's signature. INVALID_ARGUMENT for a
 * signature that is not a valid op definition. */
tfe_op_def* tfe_fdef_signature(const tfe_fdef* fd, TF_Status* s);
/* Frees a definition made by tfe_fdef_signature (NULL is fine). */
void tfe_fdef_signature_free(tfe_op_def* def);

/* New TF_Function adopting *fd (zeroed on success); builds the signature.
 * NULL with the status set on failure (fd then cleared). */
TF_Function* tfe_function_from_fdef(tfe_fdef* fd, TF_Status* s);
/* Deep copy of fn; NULL on OOM or failure (status set). */
TF_Function* tfe_function_copy(const TF_Function* fn, TF_Status* s);
/* 1 when fn is a live TF_Function. */
int tfe_function_valid(const TF_Function* fn);

/* ---- library internals (function_lib.c) ---- */

/* Takes another reference on lib (returns lib; NULL is fine). The library
 * is freed when the last reference is dropped with tfe_flib_free. */
tfe_flib* tfe_flib_ref(tfe_flib* lib);
/* Like tfe_flib_remove, but counting adds: a function added n times is
 * removed by the n-th release (eager contexts, as TF's EagerContext). */
int tfe_flib_release(tfe_flib* lib, const char* name, TF_Status* s);
/* Gradient function recorded for `name` ("" or NULL when none). The
 * returned string lives as long as the library. */
const char* tfe_flib_gradient(const tfe_flib* lib, const char* name);
/* Records a gradient (TF's GradientDef rule: a different gradient for a
 * function that has one is INVALID_ARGUMENT). */
int tfe_flib_add_gradient(tfe_flib* lib, const char* fn, const char* grad,
                          TF_Status* s);
/* The stored function whose signature definition is `def` (also retired
 * ones), or NULL. */
const TF_Function* tfe_flib_find_def(const tfe_flib* lib,
                                     const tfe_op_def* def);

/* ---- execution (function_exec.c) ---- */

/* Registers the CPU kernel that runs calls of function `name` (an op
 * whose type is the function); once per name, process-wide. */
int tfe_fn_register_call_kernel(const char* name, TF_Status* s);

/* Registers the kernels of PartitionedCall, StatefulPartitionedCall, If,
 * StatelessIf, While, StatelessWhile, Case and StatelessCase (called once
 * by the built-in kernel registration). */
void tfe_fn_register_builtin_kernels(void);

/* A function instantiated for one context: its body graph and the plan
 * that runs it. */
typedef struct tfe_fn_inst tfe_fn_inst;
/* Instantiates fn (from library lib, for context ctx) with call attrs
 * `attrs` (for functions with attrs; may be NULL). */
tfe_fn_inst* tfe_fn_inst_new(const TF_Function* fn, tfe_flib* lib,
                             TFE_Context* ctx, const tfe_attrs* attrs,
                             TF_Status* s);
void tfe_fn_inst_free(tfe_fn_inst* inst);
/* Builds only the body graph of fn (no plan, no context), flat argument
 * k < num_arg_shapes carrying arg_shapes[k] (when arg_shapes is not NULL;
 * num_dims < 0 leaves it unknown) and the handle data arg_handles[k]
 * (when not NULL; copied); an argument with a small constant value
 * arg_values[k] (when not NULL) becomes a Const of it. For shape
 * inference through calls
 * (function_shapes.c). Free with tfe_fn_inst_free. */
struct tfe_handle_data;
tfe_fn_inst* tfe_fn_body_new(const TF_Function* fn, tfe_flib* lib,
                             const tfe_attrs* attrs, int num_arg_shapes,
                             const tfe_shape* arg_shapes,
                             const struct tfe_handle_data* const* arg_handles,
                             TF_Tensor* const* arg_values, TF_Status* s);
/* The body graph (borrowed) and the flat return values as its outputs
 * (borrowed, tfe_fn_inst_num_rets of them). */
TF_Graph* tfe_fn_inst_body(const tfe_fn_inst* inst);
const TF_Output* tfe_fn_inst_ret_outputs(const tfe_fn_inst* inst);
int tfe_fn_inst_num_args(const tfe_fn_inst* inst);
int tfe_fn_inst_num_rets(const tfe_fn_inst* inst);
const TF_DataType* tfe_fn_inst_arg_types(const tfe_fn_inst* inst);
const TF_DataType* tfe_fn_inst_ret_types(const tfe_fn_inst* inst);
/* Runs an instance: args[0..num_args) borrowed, rets[0..num_rets) receive
 * new tensors (all NULL on failure). `cancel` (may be NULL) is the
 * caller's cancellation manager, passed to the body's plan. */
int tfe_fn_inst_run(tfe_fn_inst* inst, TF_Tensor* const* args,
                    TF_Tensor** rets, struct TFE_CancellationManager* cancel,
                    TF_Status* s);

/* The function library of an eager context (borrowed; NULL when ctx is
 * NULL). Defined in csrc/eager/context_functions.c. */
tfe_flib* tfe_ctx_flib(TFE_Context* ctx);

#endif /* TFE_GRAPH_FUNCTION_INTERNAL_H_ */
