/* Internal structures of the graph half of tensorflow/c/c_api.h
 * (csrc/graph/). Several files share them:
 *   graph.c          TF_Graph: creation, lookup by name, iteration, shapes,
 *                    versions, GraphDef export, OpDefs.
 *   operation.c      TF_OperationDescription (TF_NewOperation, the
 *                    setters, TF_FinishOperation); operation_query.c and
 *                    operation_attrs.c: TF_Operation queries and attr
 *                    getters; graph_eval.c: TF_TryEvaluateConstant;
 *                    graph_debug.c: TF_GraphDebugString.
 *   import.c         TF_GraphImportGraphDef* and its options.
 *   function*.c      TF_Function and the function library (function_lib.h).
 *   while_loop.c     TF_NewWhile / TF_FinishWhile / TF_AbortWhile.
 *   session*.c, plan*.c, exec*.c  sessions and the graph executor (plan.h).
 * A graph is a flat array of operations in creation order; every operation
 * only ever refers to operations created before it (control flow cycles go
 * through NextIteration, whose input is added later by import/while code
 * with tfe_graph_set_input). */
#ifndef TFE_GRAPH_GRAPH_INTERNAL_H_
#define TFE_GRAPH_GRAPH_INTERNAL_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/alloc.h"
#include "core/unimplemented.h"
#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/logging.h"

#include "core/version.h" /* TFE_GRAPH_DEF_VERSION */

struct tfe_flib; /* function library (function_lib.h) */

/* One operation of a graph. Immutable once TF_FinishOperation returned it,
 * except: output_shapes (TF_GraphSetTensorShape refines them), the
 * consumer/control-output counts, and inputs of a NextIteration-style back
 * edge (tfe_graph_set_input). All reads and writes of those happen under
 * graph->mu. */
struct TF_Operation {
  TF_Graph* graph;
  int id;         /* index in graph->ops */
  char* name;     /* owned */
  char* op_type;  /* owned; the registered op or a library function name */
  char* device;   /* owned; requested device as given, "" when none */
  /* The op's definition: from the op registry, or a function's signature
   * (owned by the graph's function library, which lives as long as the
   * graph and never drops a signature while an operation uses it). */
  const tfe_op_def* def;
  /* Every attr of the node: the ones set, defaults TF adds at finish time,
   * and extra attrs such as "_class" (colocation) or "_output_shapes". */
  tfe_attrs attrs;
  /* Flat data inputs and their dtypes (the dtype the op expects). */
  int num_inputs;
  TF_Output* inputs;
  TF_DataType* input_types;
  /* Flat outputs: dtypes and the statically known shapes (num_dims -1:
   * unknown rank; dim -1: unknown size). */
  int num_outputs;
  TF_DataType* output_types;
  tfe_shape* output_shapes;
  /* Control inputs, in the order they were added, without duplicates. */
  int num_control_inputs;
  TF_Operation** control_inputs;
  /* Out-edges, kept up to date as operations are added:
   * consumers[i] lists the inputs fed by output i. */
  int* num_consumers;     /* num_outputs entries */
  TF_Input** consumers;   /* num_outputs arrays (owned) */
  int num_control_outputs;
  TF_Operation** control_outputs; /* owned */
  int cap_control_outputs;
  int* cap_consumers;     /* num_outputs entries */
  /* TF's handle data of resource / variant outputs: what a handle refers
   * to (dtypes and shapes). NULL when no output has any; otherwise
   * num_outputs entries, an unknown one with num == 0. Set by
   * TF_FinishOperation (VarHandleOp from its dtype/shape attrs; Identity-
   * like ops pass their input's along) and by TF_SetHandleShapeAndType;
   * read and written under graph->mu. Freed by tfe_graph_op_free. */
  struct tfe_handle_data* handle_data;
  /* Serialized FullTypeDef set by TF_SetFullType (NodeDef field 7,
   * experimental_type), or NULL. Owned; under graph->mu. */
  unsigned char* full_type;
  size_t full_type_len;
  /* 1 when name, op_type and the per-input / per-output arrays live in
   * the operation's own allocation (TF_FinishOperation makes every
   * operation so); tfe_graph_op_free then frees none of them separately.
   * op_type may also be the registered definition's name. */
  int packed; /* 2: the block is in the graph's arena (never freed alone) */
  /* Packed operations start every output's consumer list in this block
   * (TFE_OP_INLINE_CONSUMERS entries per output, part of the operation's
   * allocation); a longer list moves to its own allocation. NULL when
   * not packed. */
  TF_Input* consumers_inline;
  /* Operations built by GraphDef imports keep the dims of outputs of rank
   * <= TFE_OP_INLINE_DIMS in their own block: output i's at dims_inline +
   * i * TFE_OP_INLINE_DIMS. NULL otherwise. Such a dims pointer must never
   * be freed: write the existing dims in place, or drop them with
   * tfe_op_clear_dims before giving the output new ones. */
  int64_t* dims_inline;
};

#define TFE_OP_INLINE_CONSUMERS 2
#define TFE_OP_INLINE_DIMS 4

/* 1 when output i's dims are in the operation's own block. */
static inline int tfe_op_dims_are_inline(const TF_Operation* op, int i) {
  return op->dims_inline != NULL &&
         op->output_shapes[i].dims ==
             op->dims_inline + (size_t)i * TFE_OP_INLINE_DIMS;
}

/* Makes output i's shape unknown rank (frees heap dims). */
static inline void tfe_op_clear_dims(TF_Operation* op, int i) {
  if (!tfe_op_dims_are_inline(op, i)) tfe_free(op->output_shapes[i].dims);
  op->output_shapes[i].dims = NULL;
  op->output_shapes[i].num_dims = -1;
}

/* One output's handle data: num (dtype, shape) pairs (usually one). */
typedef struct tfe_handle_data {
  int num;
  TF_DataType* dtypes; /* owned, num entries */
  tfe_shape* shapes;   /* owned, num entries (each dims owned) */
} tfe_handle_data;

struct TF_Graph {
  uint32_t magic;
  /* Guards everything below (the "Locked" API variants expect the caller
   * to hold it). Recursive is not needed: public functions take it once. */
  pthread_mutex_t mu;
  TF_Operation** ops; /* creation order */
  int num_ops;
  int cap_ops;
  /* Name -> operation index (open addressing, owned by graph.c). */
  int* name_index;
  size_t name_index_cap;
  /* Names reserved by descriptions not yet finished: TF rejects a second
   * TF_NewOperation with a pending name only at finish time, so this is
   * only consulted by TF_FinishOperation. */
  /* Functions added to the graph (TF_GraphCopyFunction, imports); created
   * on first use. */
  struct tfe_flib* flib;
  /* GraphDef versions (imports may lower them). */
  int producer;
  int min_consumer;
  /* TF_SetRequireShapeInferenceFns: when set, finishing an op that has no
   * shape function fails (off by default, as in TF's C API). */
  int require_shape_fns;
  /* Sessions holding the graph: TF_DeleteGraph while a session is alive
   * only marks it, the last session frees it. */
  int sessions;
  int delete_requested;
  /* Bumped whenever an operation is added or a shape changes, so that
   * sessions notice the graph grew (TF extends a session's graph before
   * each run). */
  atomic_uint_fast64_t generation;
  /* Set only on the cond and body graphs TF_NewWhile makes (while_loop.c):
   * the graph the loop goes into and the loop's inputs (the caller's
   * array, borrowed until TF_FinishWhile/TF_AbortWhile, as in TF). */
  TF_Graph* while_parent;
  const TF_Output* while_parent_inputs;
  /* Memory for operations that imports reserve up front (graph.c
   * tfe_graph_arena_*): chunks freed (or kept for the next graph) only
   * when the graph is deleted. NULL when none. */
  struct tfe_graph_chunk* arena;
};

/* Graph helpers (graph.c). Callers hold g->mu unless noted. */

/* The operation named `name` (exact), or NULL. */
TF_Operation* tfe_graph_find(TF_Graph* g, const char* name);
/* Appends a finished operation and indexes its name; updates the
 * consumer/control-output lists of its producers. 0 on OOM (op untouched). */
int tfe_graph_add_op(TF_Graph* g, TF_Operation* op);
/* One probe of the name index serving both the duplicate check and the
 * later insert: tfe_graph_probe makes room for one more name, then returns
 * the operation named `name` (or NULL) and, when there is none, remembers
 * in *p the free slot the name hashes to. tfe_graph_add_op_probed uses that
 * slot if the index has not changed since (else it probes again). 0 from
 * tfe_graph_probe means OOM (*found untouched). */
typedef struct tfe_name_probe {
  size_t slot, cap;
  uint32_t hash;
} tfe_name_probe;
int tfe_graph_probe(TF_Graph* g, const char* name, TF_Operation** found,
                    tfe_name_probe* p);
int tfe_graph_add_op_probed(TF_Graph* g, TF_Operation* op,
                            const tfe_name_probe* p);
/* A hint only: starts loading the name-index slot `name` hashes to, so
 * that a tfe_graph_probe for it a little later does not wait on memory
 * (the importer calls it once a node's name is known). */
void tfe_graph_prefetch_name(const TF_Graph* g, const char* name);
/* Makes room for `extra` more operations in the operation array and the
 * name index (imports know their node count). 0 on OOM (graph unchanged
 * apart from grown tables). */
int tfe_graph_reserve(TF_Graph* g, int extra);
/* Operation memory reserved by imports: tfe_graph_arena_reserve makes
 * sure `bytes` more can be handed out without allocating (0 on OOM);
 * tfe_graph_arena_alloc returns n zeroed bytes (8-aligned) from the
 * reservation, or NULL when it does not have them (use the heap then).
 * Arena memory is released only by TF_DeleteGraph (operations removed
 * earlier, e.g. by a failed import, leave theirs unused until then).
 * Deleted graphs' chunks are kept (up to a few MB in total) for the next
 * graph, so repeated imports do not fault fresh pages in every time. */
int tfe_graph_arena_reserve(TF_Graph* g, size_t bytes);
void* tfe_graph_arena_alloc(TF_Graph* g, size_t n);
/* Gives back the n bytes at p when they are the last ones handed out
 * (a TF_FinishOperation that failed after taking its block). */
void tfe_graph_arena_unalloc(TF_Graph* g, void* p, size_t n);
/* Adds a chunk of at least `need` bytes (twice the last one, 4 KB to
 * 1 MB), for operations built one by one. 0 on OOM. */
int tfe_graph_arena_grow(TF_Graph* g, size_t need);
/* Rewires data input `index` of `op` to `src` (used for back edges of
 * loops), keeping consumer lists right. 0 on OOM. */
int tfe_graph_set_input(TF_Graph* g, TF_Operation* op, int index,
                        TF_Output src);
/* Removes and frees the operations with id >= first (an import that
 * failed undoes itself this way): takes them out of the name index and out
 * of the consumer / control-output lists of older operations, sets
 * g->num_ops = first and bumps g->generation. An older operation whose
 * (back-edge) input pointed at a removed one gets a NULL input there. */
void tfe_graph_remove_ops_from(TF_Graph* g, int first);
/* Frees an operation that was never added. */
void tfe_graph_op_free(TF_Operation* op);
/* Frees a description that will never be finished (TF's API has no such
 * call: an abandoned TF_OperationDescription leaks there). */
void tfe_desc_discard(TF_OperationDescription* d);
/* Takes/drops a session's hold on the graph (locks g->mu itself). */
void tfe_graph_hold(TF_Graph* g);
void tfe_graph_release(TF_Graph* g);
/* The graph's function library, created when missing (NULL on OOM). */
struct tfe_flib* tfe_graph_flib(TF_Graph* g);

/* Appends a serialized NodeDef body for `op` (name, op, inputs with
 * "name:i" / "^name" spelling, device, attrs) to `out` (core/pb.h
 * writer). Defined in graph.c; used by TF_OperationToNodeDef, GraphDef
 * export and functions. */
struct tfe_pbw;
void tfe_graph_encode_node_def(struct tfe_pbw* out, const TF_Operation* op);
/* Moves the bytes written to `w` into `buf`, releasing what `buf` held
 * (its deallocator runs), and sets OK; on out of memory sets
 * RESOURCE_EXHAUSTED naming `fn` and leaves `buf` as it was. `w` is
 * released either way. Used by every function that fills a caller's
 * TF_Buffer with a serialized proto. */
void tfe_graph_put_buffer(struct tfe_pbw* w, TF_Buffer* buf, TF_Status* s,
                          const char* fn);

/* Sets `s` to the error TF reports for a Placeholder that nothing fed:
 * INVALID_ARGUMENT "You must feed a value for placeholder tensor 'x' with
 * dtype float and shape [?,3]" (no shape part when the shape attr is
 * unknown rank or a scalar). Sessions call it with the node's name; the
 * Placeholder kernel uses tfe_kernel_context.node_name, or the op's name
 * in eager mode.
 * Defined in csrc/kernels/cpu/graph_kernels.c. */
void tfe_graph_placeholder_unfed(TF_Status* s, const char* node_name,
                                 TF_DataType dtype, const tfe_shape* shape);

/* 1 when data[0..len) is a well-formed protobuf message on the wire:
 * every tag has a non-zero field number and a known wire type, varints
 * end within 10 bytes, lengths and fixed-size values fit in the data, and
 * groups are balanced (nesting at most 64 deep). Nested messages inside
 * length-delimited fields are not inspected (without the schema they
 * cannot be told apart from bytes). An empty message is valid. */
int tfe_proto_wire_valid(const void* data, size_t len);

/* For stubs without a TF_Status: logs "<name> is not implemented in tfe"
 * as a warning the first time the calling function runs, then stays
 * quiet. `name` must be a string literal. */
#define TFE_GRAPH_WARN_ONCE(name)                                        \
  do {                                                                   \
    static atomic_flag tfe_warned_ = ATOMIC_FLAG_INIT;                   \
    if (!atomic_flag_test_and_set(&tfe_warned_)) {                       \
      TF_Log(TF_WARNING, "%s", name " is not implemented in tfe");       \
    }                                                                    \
  } while (0)

#endif /* TFE_GRAPH_GRAPH_INTERNAL_H_ */
