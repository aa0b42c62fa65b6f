/* Internal layout of the eager runtime's objects (TFE_Context, TFE_Op,
 * TFE_TensorHandle, TFE_Executor) and the functions the files of
 * csrc/eager/ share. Nothing outside csrc/eager/ should depend on the
 * struct fields; the Python binding and tests use the public API only.
 *
 * Files: context.c (contexts, options, per-thread settings, zombie
 * lifetime), config_proto.c (ConfigProto reader), tensor_handle.c,
 * op.c (ops, inputs, attr inference), op_attrs.c (attr setters and
 * snapshots), attr_proto.c (AttrValue/NameAttrList wire format),
 * kernel_cache.c, execute.c (TFE_Execute, placement), executor.c,
 * unimplemented.c (declared-only parts of the experimental API),
 * custom_device*.c (custom devices, see custom_device.h) and
 * parallel_device*.c (the parallel device built on them). */
#ifndef TFE_EAGER_EAGER_INTERNAL_H_
#define TFE_EAGER_EAGER_INTERNAL_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "core/tensor_internal.h"
#include "devices/device.h"
#include "kernels/kernel.h"
#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"

/* Values of the `magic` field of live objects; a freed or foreign pointer
 * is unlikely to carry them, which catches some misuse early. */
#define TFE_CTX_MAGIC 0x54434658u    /* live context */
#define TFE_OP_MAGIC 0x504f4658u     /* live op */
#define TFE_HANDLE_MAGIC 0x484e4458u /* live handle */
#define TFE_DEAD_MAGIC 0xdeadbeefu   /* freed (debug aid) */

/* ---- a tiny spinlock for short, rarely contended critical sections ---- */
typedef struct tfe_spin {
  atomic_flag f;
} tfe_spin;
#define TFE_SPIN_INIT \
  { ATOMIC_FLAG_INIT }
static inline void tfe_spin_lock(tfe_spin* l) {
  while (atomic_flag_test_and_set_explicit(&l->f, memory_order_acquire)) {
  }
}
static inline void tfe_spin_unlock(tfe_spin* l) {
  atomic_flag_clear_explicit(&l->f, memory_order_release);
}

/* ---- kernel cache (kernel_cache.c) ---- */

/* One cached kernel: everything TFE_Execute needs for an (op definition,
 * device, attrs-as-set) combination, so a hit skips attr completion,
 * validation, type computation and the kernel registry. Entries are
 * immutable once published. */
typedef struct tfe_kcache_entry {
  struct tfe_kcache_entry* next; /* bucket chain / retired list */
  const tfe_op_def* def;
  const tfe_device* device; /* device the op was placed on (the key) */
  uint64_t hash;            /* hash of def, device and key attrs */
  tfe_attrs key;            /* the op's attrs as set (owned copy) */
  tfe_attrs complete;       /* completed and validated (owned) */
  const tfe_kernel_reg* reg;
  void* state; /* from reg->create, released with reg->destroy */
  const tfe_device* run_device; /* where the kernel runs */
  int num_inputs;
  int num_outputs;
  TF_DataType* input_types;  /* num_inputs entries */
  TF_DataType* output_types; /* num_outputs entries */
  int has_ref; /* the op has Ref(T) args (kernels/ref_var.h) */
} tfe_kcache_entry;

typedef struct tfe_kcache {
  tfe_spin lock;
  tfe_kcache_entry** buckets;
  size_t nbuckets; /* power of two, or 0 before the first insert */
  size_t count;
  /* Entries dropped by TFE_ContextClearCaches; freed with the context so
   * that an execution running concurrently never sees freed memory. */
  tfe_kcache_entry* retired;
  /* Bumped by every clear: per-thread memos of older generations are
   * stale. */
  atomic_int gen;
} tfe_kcache;

void tfe_kcache_init(tfe_kcache* c);
/* Frees every entry (live and retired), destroying kernel states. */
void tfe_kcache_destroy(tfe_kcache* c);
/* Moves every live entry to the retired list. */
void tfe_kcache_clear(tfe_kcache* c);
uint64_t tfe_kcache_key_hash(const tfe_op_def* def, const tfe_device* device,
                             uint64_t attrs_hash);
/* Entry for (def, device, attrs) with precomputed hash, or NULL. */
tfe_kcache_entry* tfe_kcache_find(tfe_kcache* c, const tfe_op_def* def,
                                  const tfe_device* device,
                                  const tfe_attrs* attrs, uint64_t hash);
/* Publishes e (taking ownership). If an equal entry appeared meanwhile,
 * frees e and returns the existing one. Returns NULL only on OOM (e freed). */
tfe_kcache_entry* tfe_kcache_insert(tfe_kcache* c, tfe_kcache_entry* e);
/* Frees an entry that was never published. */
void tfe_kcache_entry_free(tfe_kcache_entry* e);

/* ---- executors (executor.c) ---- */

struct TFE_Executor {
  int is_async;
  int streaming_enqueue;
  int in_flight_nodes_limit;
  /* A wrapper returned by TFE_ContextGetExecutorForThread refers to
   * another executor and owns nothing; `target` is NULL for real ones. */
  TFE_Executor* target;
  /* Unused (the sticky error of an asynchronous executor is in `core`). */
  TF_Code error_code;
  /* Queue, worker thread and sticky error of an asynchronous executor
   * (executor.h); made on first use, NULL for synchronous executors. */
  struct tfe_exec_core* _Atomic core;
  /* Registry id (executor.c), 0 until the executor is registered. */
  _Atomic uint64_t id;
};

/* ---- contexts (context.c) ---- */

#define TFE_EXECUTED_NAMES_MAX 4096

struct TFE_ContextOptions {
  int async;
  TFE_ContextDevicePlacementPolicy policy;
  int use_tfrt;
  /* From the ConfigProto (-1 when not given). */
  int cpu_count;
  int intra_op_threads;
  int inter_op_threads;
  /* ConfigProto.allow_soft_placement (0 when not given, as in TF). */
  int soft_placement;
};

struct TFE_Context {
  uint32_t magic;
  /* One reference for the user plus one per live handle and op. */
  atomic_int refs;
  /* Set by TFE_DeleteContext: the context is a zombie until refs drop. */
  atomic_int deleted;
  uint64_t id;

  /* Settings. */
  TFE_ContextDevicePlacementPolicy policy;
  int is_async;
  int intra_op_threads;
  int inter_op_threads;
  atomic_int soft_placement;
  atomic_int log_placement;
  /* Only written (by setters that may race with each other). */
  atomic_int run_eager_op_as_function;
  atomic_int jit_compile_rewrite;
  atomic_int run_metadata;
  atomic_int step_depth;

  /* Devices: entries below num_devices are complete and never change. */
  tfe_device* devices[TFE_MAX_CONTEXT_DEVICES];
  atomic_int num_devices;
  const tfe_device* default_device;
  /* Bumped whenever devices are added (ops cache their placement). */
  atomic_int devices_gen;
  /* Gradient tapes recording on this context (tape.c): TFE_Execute hands
   * ops to the tapes only while this is non-zero. */
  atomic_int num_tapes;

  /* Guards device additions and the executed-op-name log. */
  pthread_mutex_t lock;
  char** executed_names; /* ring of TFE_EXECUTED_NAMES_MAX */
  int executed_start;
  int executed_count;

  tfe_kcache cache;

  TFE_Executor default_executor;

  /* Custom devices (custom_device.c): an append-only list, newest first,
   * whose entries never change once published and live until the context
   * is freed; num_custom lets TFE_Execute skip the custom-device checks
   * with one load when there are none. Additions take `lock`. */
  struct tfe_custom_device* _Atomic custom_devices;
  atomic_int num_custom;

  /* Functions TFE_NewOp finds by name (graph/function_lib.h): made on
   * first use (context_functions.c), or a session's graph library shared
   * through tfe_ctx_set_flib. One library reference; NULL until used. */
  struct tfe_flib* _Atomic flib;
};

/* Takes / drops a reference on ctx; the last drop of a deleted context
 * frees it. */
void tfe_ctx_ref(TFE_Context* ctx);
void tfe_ctx_unref(TFE_Context* ctx);
/* Checks that ctx is a usable (live, not deleted) context; otherwise sets
 * INVALID_ARGUMENT (NULL or not a context) or FAILED_PRECONDITION
 * (deleted) naming `fn` and returns 0. */
int tfe_ctx_check(TFE_Context* ctx, const char* fn, TF_Status* s);
/* Thread-local overrides (placement policy, executor). */
TFE_ContextDevicePlacementPolicy tfe_ctx_policy(TFE_Context* ctx);
TFE_Executor* tfe_ctx_thread_executor(TFE_Context* ctx);
void tfe_ctx_set_thread_executor(TFE_Context* ctx, TFE_Executor* ex);
/* Device by spec: the first matching device, or NULL. */
const tfe_device* tfe_ctx_find_device(TFE_Context* ctx,
                                      const tfe_device_spec* spec);
/* The context's device that is the same as d (d may belong to another
 * context or to no context), or NULL. */
const tfe_device* tfe_ctx_same_device(TFE_Context* ctx, const tfe_device* d);
/* Records an executed op name (when log placement is on). */
void tfe_ctx_record_op(TFE_Context* ctx, const char* name,
                       const tfe_device* device);

/* Function library (context_functions.c). tfe_ctx_set_flib makes ctx use
 * `lib` (takes a reference; e.g. a session's context shares its graph's
 * library) and clears the kernel cache; it drops the previous library, so
 * call it before other threads use the context. tfe_ctx_flib_free drops the
 * context's library (ctx_free). tfe_ctx_lookup_def finds an op definition
 * or, failing that, a function of the context by name (NOT_FOUND with
 * TF's message when neither exists). */
void tfe_ctx_set_flib(TFE_Context* ctx, struct tfe_flib* lib);
void tfe_ctx_flib_free(TFE_Context* ctx);
const tfe_op_def* tfe_ctx_lookup_def(TFE_Context* ctx, const char* name,
                                     TF_Status* s);

/* Parses a serialized ConfigProto into opts (config_proto.c). Returns 0 and
 * sets INVALID_ARGUMENT for malformed bytes (opts unchanged). */
int tfe_config_proto_parse(const void* data, size_t len,
                           TFE_ContextOptions* opts, TF_Status* s);

/* ---- tensor handles (tensor_handle.c) ---- */

typedef enum tfe_handle_state {
  TFE_HANDLE_READY = 0,   /* value available */
  TFE_HANDLE_PENDING = 1, /* produced by an op that has not run yet */
  TFE_HANDLE_ERROR = 2,   /* the producing op failed: error_* tell why */
} tfe_handle_state;

struct TFE_TensorHandle {
  uint32_t magic;
  /* References: the API pointer plus one per op holding it as input. */
  atomic_int refs;
  atomic_int state; /* tfe_handle_state */
  TF_DataType dtype;
  /* Owning context (holds a reference) or NULL for TFE_NewTensorHandle. */
  TFE_Context* ctx;
  const tfe_device* device;  /* device of the producing op */
  const tfe_device* backing; /* device holding the memory */
  /* The value when READY: either &storage or a tensor a kernel made. */
  TF_Tensor* t;
  TF_Code error_code;
  char* error_msg;
  TF_Tensor storage;
  /* Non-NULL for a handle on a custom device (then `t` is NULL): the
   * device-owned data, shared by TFE_TensorHandleCopySharingTensor
   * (custom_device.h). */
  struct tfe_custom_payload* custom;
  /* A handle for a Ref(T) output (docs/REF_VARIABLES.md): is_ref is set
   * from creation (also while PENDING) and `ref` (one cell reference,
   * kernels/ref_var.h) once READY; `t` stays NULL, readers see the cell's
   * current value. */
  int is_ref;
  struct tfe_ref_cell* ref;
};

/* New READY handle adopting tensor `t` (ownership moves to the handle; on
 * failure t is deleted). ctx may be NULL; takes a context reference. */
TFE_TensorHandle* tfe_handle_adopt(TFE_Context* ctx, TF_Tensor* t,
                                   const tfe_device* device);
/* New READY handle sharing t's buffer (caller keeps t). */
TFE_TensorHandle* tfe_handle_share(TFE_Context* ctx, const TF_Tensor* t,
                                   const tfe_device* device,
                                   const tfe_device* backing);
/* New READY handle on custom device `device` over payload p (adopting one
 * payload reference on success; on failure the caller keeps it). ctx must
 * not be NULL; takes a context reference. */
TFE_TensorHandle* tfe_handle_new_custom(TFE_Context* ctx, TF_DataType dtype,
                                        const tfe_device* device,
                                        struct tfe_custom_payload* p);
/* New READY handle referring to reference cell `cell` (takes a new cell
 * reference) with base dtype `dtype`, on `device`. NULL on OOM. */
TFE_TensorHandle* tfe_handle_new_ref(TFE_Context* ctx, TF_DataType dtype,
                                     const tfe_device* device,
                                     struct tfe_ref_cell* cell);
void tfe_handle_ref(TFE_TensorHandle* h);
void tfe_handle_unref(TFE_TensorHandle* h);
/* Checks h is a live handle; INVALID_ARGUMENT naming fn otherwise. */
int tfe_handle_check(const TFE_TensorHandle* h, const char* fn, TF_Status* s);
/* Waits while h is PENDING (its producing op is queued on an asynchronous
 * executor). For a READY handle then returns 1; otherwise copies its error
 * into s and returns 0. */
int tfe_handle_ready(TFE_TensorHandle* h, TF_Status* s);
/* Marks h as consumed: a kernel of op `op_name` reused the buffer of its
 * input #`input` (h, which only the executing op or node held) for an
 * output. h then reads as an error (FAILED_PRECONDITION), so executing the
 * same op again, or reading the input back through TFE_OpGetFlatInput,
 * fails instead of seeing the output's values. */
void tfe_handle_consume(TFE_TensorHandle* h, const char* op_name, int input);

/* ---- ops (op.c, op_attrs.c) ---- */

#define TFE_OP_INLINE_INPUTS 8

struct TFE_OpAttrs {
  const TFE_Op* op;
};

struct TFE_Op {
  uint32_t magic;
  TFE_Context* ctx;
  const tfe_op_def* def; /* NULL after a failed TFE_OpReset */
  TFE_Op* pool_next;

  /* Device request: raw string as given, and its parse. */
  char* device_name; /* owned; "" when none */
  size_t device_cap;
  int has_device;
  tfe_device_spec spec;
  /* Placement cached for devices_gen == placed_gen. */
  const tfe_device* placed;
  int placed_gen;

  /* Flat inputs (each holds a handle reference). */
  TFE_TensorHandle** inputs;
  int num_inputs;
  int cap_inputs;
  TFE_TensorHandle* inputs_inline[TFE_OP_INLINE_INPUTS];
  /* Index of the input arg the next TFE_OpAddInput fills (for attr
   * inference), or -1 once inference is off. */
  int infer_arg;

  /* Attrs of the definition, plus a string "_kernel" (the kernel label a
   * call asks for, see op_attrs.c). Entry names point at the definition's
   * attr names or a static string (never freed; definitions live for the
   * process); values are owned. Only op_attrs.c and op.c touch this set. */
  tfe_attrs attrs;
  /* Attrs that the definition does not have (ignored by kernels, kept for
   * snapshots): an ordinary owned set. */
  tfe_attrs extra;
  /* Hash of `attrs`, maintained by tfe_op_put_attr (0 when empty). */
  uint64_t attrs_hash;
  /* First allocation failure in a setter without status (reported by
   * TFE_Execute), TF_OK otherwise. */
  TF_Code deferred_error;

  int xla;
  TFE_OpAttrs attrs_view;
  /* Set by TFE_OpSetCancellationManager (borrowed; cleared with the op). */
  struct TFE_CancellationManager* cancel;
};

/* Releases inputs and attrs, making `op` empty (keeps its arrays). */
void tfe_op_clear(TFE_Op* op);
/* Frees everything (op must be cleared first or is cleared here). */
void tfe_op_free(TFE_Op* op);
/* Checks op is a live op; INVALID_ARGUMENT naming fn otherwise. */
int tfe_op_check(const TFE_Op* op, const char* fn, TF_Status* s);
/* Sets attr `name` to *value unless it is already set (TF keeps the first
 * value). Takes ownership of *value's contents (zeroed on return).
 * Returns 0 on OOM. */
int tfe_op_put_attr(TFE_Op* op, const char* name, tfe_attr_value* value);
/* Hash of one entry of op->attrs: attr `index` of the definition with
 * value v. The set's hash is the sum of its entries'. */
uint64_t tfe_op_attr_entry_hash(int index, const tfe_attr_value* v);
/* Releases every attr value of op->attrs (names are borrowed). */
void tfe_op_attrs_reset(TFE_Op* op);
/* Sets the device request; INVALID_ARGUMENT for a malformed name. */
int tfe_op_set_device(TFE_Op* op, const char* name, TF_Status* s);
/* Looks up `name` (NOT_FOUND with TF's message when unknown). */
const tfe_op_def* tfe_op_lookup_def(const char* name, TF_Status* s);

/* AttrValue / NameAttrList wire format (attr_proto.c). */
/* Appends a serialized NameAttrList{name, attrs...} to a new buffer; returns
 * the malloc'd bytes and length, or NULL on OOM. */
void* tfe_attr_proto_encode_name_attr_list(const char* name,
                                           const tfe_attrs* const* sets,
                                           int num_sets, size_t* len);
/* Decodes a serialized AttrValue into *out. 0 + INVALID_ARGUMENT when
 * malformed or unsupported. */
int tfe_attr_proto_decode(const void* data, size_t len, tfe_attr_value* out,
                          TF_Status* s);

#endif /* TFE_EAGER_EAGER_INTERNAL_H_ */
