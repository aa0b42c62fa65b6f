/* Forward-mode accumulators (include/tfe/forward.h): tangents computed
 * right after each op runs.
 *
 * Bookkeeping. Every live accumulator is on one process-wide list, in
 * creation order, under g_fmu. A recording accumulator counts in its
 * context's num_tapes (the counter TFE_Execute already checks for tapes)
 * and in g_num_recording, so TFE_Execute pays nothing more when neither
 * exists, and the tapes' path one more atomic load when only tapes exist.
 * An accumulator maps tensor handles, by address, to their tangents; it
 * keeps a reference to each such handle, so no address it knows can be
 * reused while it lives, and owns a reference to each tangent.
 *
 * Accumulating. After an op ran, the accumulators of its context are
 * visited in creation order. One whose tangents are being computed in this
 * thread (the ops of that computation come back here) stops the visit: it
 * does not see its own tangent ops, and neither do the accumulators created
 * after it, which is TF's rule (an outer accumulator sees an inner one's
 * tangent computation, so nested accumulators give higher derivatives,
 * but not the other way round). Gradient tapes record every op, tangent
 * computations included.
 *
 * Tangents. A forward rule gives the tangents of the common ops directly:
 * ops linear in their floating inputs run again on the tangents (missing
 * ones as zeros); multilinear ops (Mul, MatMul, convolutions) sum one run
 * per input with a tangent; elementwise functions multiply by their
 * derivative, mostly with TF's *Grad ops, whose formula dy * f'(x) is the
 * same for real types. Every other op goes through the gradient registry
 * with the double-vjp trick: with u = zeros like the outputs, the op's
 * gradient function computes g(u) = J^T u, linear in u, on a private tape
 * watching u; the gradient of sum_i <g_i, t_i> with respect to u is J t. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/forward_internal.h"
#include "eager/grad_util.h"
#include "eager/tape.h"
#include "graph/function_internal.h"
#include "graph/function_lib.h"
#include "tensorflow/c/eager/c_api_experimental.h"

/* Handle address -> tangent (open addressing, linear probing). Keys hold
 * a reference to the handle; values own a reference to the tangent. */
typedef struct tmap {
  TFE_TensorHandle** keys;
  TFE_TensorHandle** vals;
  size_t cap, n;
} tmap;

struct TFE_ForwardAccumulator {
  TFE_ForwardAccumulator* next; /* on g_accs, in creation order */
  TFE_Context* ctx;
  int recording; /* counted in ctx->num_tapes and g_num_recording */
  int refs;      /* the owner's plus one per visit in flight (under g_fmu) */
  int deleted;   /* the owner let go: freed when refs drops to 0 */
  tmap tangents;
};

static pthread_mutex_t g_fmu = PTHREAD_MUTEX_INITIALIZER;
static TFE_ForwardAccumulator* g_accs;
static atomic_int g_num_recording;

/* The accumulators whose tangents this thread is computing, innermost
 * first (frames live on the computing calls' stacks). */
typedef struct busy_frame {
  const TFE_ForwardAccumulator* acc;
  struct busy_frame* prev;
} busy_frame;
static _Thread_local busy_frame* t_busy;

static size_t addr_hash(const void* p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (size_t)x;
}

/* The slot of key, or of the empty place it would go. NULL when the map
 * is empty. */
static size_t tmap_find(const tmap* m, const TFE_TensorHandle* key, int* found) {
  size_t i;
  *found = 0;
  for (i = addr_hash(key) & (m->cap - 1); m->keys[i] != NULL; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key) {
      *found = 1;
      break;
    }
  }
  return i;
}

static TFE_TensorHandle* tmap_get(const tmap* m, const TFE_TensorHandle* key) {
  int found;
  size_t i;
  if (m->cap == 0) return NULL;
  i = tmap_find(m, key, &found);
  return found ? m->vals[i] : NULL;
}

static int tmap_grow(tmap* m) {
  size_t cap = m->cap ? m->cap * 2 : 64, j, i;
  TFE_TensorHandle** keys = (TFE_TensorHandle**)tfe_calloc(cap, sizeof *keys);
  TFE_TensorHandle** vals = (TFE_TensorHandle**)tfe_calloc(cap, sizeof *vals);
  if (keys == NULL || vals == NULL) {
    tfe_free(keys);
    tfe_free(vals);
    return 0;
  }
  for (j = 0; j < m->cap; j++) {
    if (m->keys[j] == NULL) continue;
    for (i = addr_hash(m->keys[j]) & (cap - 1); keys[i] != NULL; i = (i + 1) & (cap - 1)) {
    }
    keys[i] = m->keys[j];
    vals[i] = m->vals[j];
  }
  tfe_free(m->keys);
  tfe_free(m->vals);
  m->keys = keys;
  m->vals = vals;
  m->cap = cap;
  return 1;
}

/* The value slot for key, added (with a reference to key and a NULL
 * value) when missing. NULL on allocation failure. */
static TFE_TensorHandle** tmap_slot(tmap* m, TFE_TensorHandle* key) {
  int found;
  size_t i;
  if ((m->n + 1) * 2 > m->cap && !tmap_grow(m)) return NULL;
  i = tmap_find(m, key, &found);
  if (!found) {
    tfe_handle_ref(key);
    m->keys[i] = key;
    m->vals[i] = NULL;
    m->n++;
  }
  return &m->vals[i];
}

static void tmap_free(tmap* m) {
  size_t i;
  for (i = 0; i < m->cap; i++) {
    if (m->keys[i] == NULL) continue;
    tfe_handle_unref(m->keys[i]);
    if (m->vals[i] != NULL) tfe_handle_unref(m->vals[i]);
  }
  tfe_free(m->keys);
  tfe_free(m->vals);
  memset(m, 0, sizeof *m);
}

static int dtype_trainable(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT:
    case TF_DOUBLE:
    case TF_HALF:
    case TF_BFLOAT16:
    case TF_COMPLEX64:
    case TF_COMPLEX128:
    case TF_RESOURCE:
    case TF_VARIANT:
      return 1;
    default:
      return 0;
  }
}

static int dtype_real(TF_DataType dt) {
  return dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF || dt == TF_BFLOAT16;
}

/* Under g_fmu. */
static void set_recording(TFE_ForwardAccumulator* a, int on) {
  if (a->recording == on) return;
  a->recording = on;
  atomic_fetch_add_explicit(&a->ctx->num_tapes, on ? 1 : -1, memory_order_relaxed);
  atomic_fetch_add_explicit(&g_num_recording, on ? 1 : -1, memory_order_relaxed);
}

/* Under g_fmu: drops one reference. Returns a when it must be freed (it
 * was deleted and this was the last reference): the caller frees it with
 * free_acc after releasing g_fmu, since releasing handles may run a custom
 * device's deallocator, which may call back into tfe. */
static TFE_ForwardAccumulator* release_locked(TFE_ForwardAccumulator* a) {
  return --a->refs == 0 && a->deleted ? a : NULL;
}

static void free_acc(TFE_ForwardAccumulator* a) {
  if (a == NULL) return;
  tmap_free(&a->tangents);
  tfe_free(a);
}

/* ---- the public API ---- */

TFE_ForwardAccumulator* TFE_NewForwardAccumulator(TFE_Context* ctx, TF_Status* s) {
  TFE_ForwardAccumulator *a, **p;
  if (s == NULL) return NULL;
  if (ctx == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_NewForwardAccumulator: the context is NULL");
    return NULL;
  }
  if (!tfe_ctx_check(ctx, "TFE_NewForwardAccumulator", s)) return NULL;
  a = (TFE_ForwardAccumulator*)tfe_calloc(1, sizeof *a);
  if (a == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_NewForwardAccumulator: out of memory");
    return NULL;
  }
  a->ctx = ctx;
  a->refs = 1;
  pthread_mutex_lock(&g_fmu);
  for (p = &g_accs; *p != NULL; p = &(*p)->next) {
  }
  *p = a;
  set_recording(a, 1);
  pthread_mutex_unlock(&g_fmu);
  tfe_status_ok(s);
  return a;
}

void TFE_DeleteForwardAccumulator(TFE_ForwardAccumulator* a) {
  TFE_ForwardAccumulator **p, *dead;
  if (a == NULL) return;
  pthread_mutex_lock(&g_fmu);
  for (p = &g_accs; *p != NULL; p = &(*p)->next) {
    if (*p == a) {
      *p = a->next;
      break;
    }
  }
  set_recording(a, 0);
  a->deleted = 1;
  dead = release_locked(a);
  pthread_mutex_unlock(&g_fmu);
  free_acc(dead);
}

static int same_shape(TFE_TensorHandle* a, TFE_TensorHandle* b, TF_Status* s) {
  int n = TFE_TensorHandleNumDims(a, s), i;
  if (TF_GetCode(s) != TF_OK) return 0;
  if (TFE_TensorHandleNumDims(b, s) != n || TF_GetCode(s) != TF_OK) return 0;
  for (i = 0; i < n; i++) {
    int64_t da = TFE_TensorHandleDim(a, i, s), db;
    if (TF_GetCode(s) != TF_OK) return 0;
    db = TFE_TensorHandleDim(b, i, s);
    if (TF_GetCode(s) != TF_OK || da != db) return 0;
  }
  return 1;
}

/* Runs op_type(a[, b]) on ctx: a new handle, or NULL with s set. */
static TFE_TensorHandle* run2(TFE_Context* ctx, const char* op_type, TFE_TensorHandle* a,
                              TFE_TensorHandle* b, TF_Status* s) {
  TFE_TensorHandle* out = NULL;
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, op_type, s);
  if (op == NULL) return NULL;
  TFE_OpAddInput(op, a, s);
  if (b != NULL && TF_GetCode(s) == TF_OK) TFE_OpAddInput(op, b, s);
  if (TF_GetCode(s) == TF_OK) TFE_Execute(op, &out, &n, s);
  TFE_DeleteOp(op);
  if (TF_GetCode(s) != TF_OK) return NULL;
  return out;
}

void TFE_ForwardAccumulatorWatch(TFE_ForwardAccumulator* a, TFE_TensorHandle* primal,
                                 TFE_TensorHandle* tangent, TF_Status* s) {
  TFE_TensorHandle **slot, *sum = NULL, *old;
  TF_DataType pt, tt;
  if (s == NULL) return;
  if (a == NULL || primal == NULL || tangent == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_ForwardAccumulatorWatch: %s is NULL",
                    a == NULL ? "the accumulator" : primal == NULL ? "the primal" : "the tangent");
    return;
  }
  if (!tfe_handle_check(primal, "TFE_ForwardAccumulatorWatch", s) ||
      !tfe_handle_check(tangent, "TFE_ForwardAccumulatorWatch", s)) {
    return;
  }
  pt = TFE_TensorHandleDataType(primal);
  tt = TFE_TensorHandleDataType(tangent);
  if (pt != TF_RESOURCE) {
    if (pt != tt) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TFE_ForwardAccumulatorWatch: the tangent's dtype %s is not the "
                      "primal's %s",
                      tfe_dtype_enum_name(tt), tfe_dtype_enum_name(pt));
      return;
    }
    if (!same_shape(primal, tangent, s)) {
      if (TF_GetCode(s) == TF_OK) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "TFE_ForwardAccumulatorWatch: the tangent's shape is not the "
                        "primal's");
      }
      return;
    }
  }
  pthread_mutex_lock(&g_fmu);
  old = tmap_get(&a->tangents, primal);
  if (old != NULL) tfe_handle_ref(old);
  pthread_mutex_unlock(&g_fmu);
  if (old != NULL) {
    /* Watching again adds the tangents (TF's rule). */
    sum = run2(a->ctx, "AddV2", old, tangent, s);
    tfe_handle_unref(old);
    if (sum == NULL) return;
  } else {
    tfe_handle_ref(tangent);
    sum = tangent;
  }
  pthread_mutex_lock(&g_fmu);
  slot = tmap_slot(&a->tangents, primal);
  if (slot == NULL) {
    pthread_mutex_unlock(&g_fmu);
    tfe_handle_unref(sum);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_ForwardAccumulatorWatch: out of memory");
    return;
  }
  old = *slot; /* released after the lock (see release_locked) */
  *slot = sum;
  pthread_mutex_unlock(&g_fmu);
  if (old != NULL) tfe_handle_unref(old);
  tfe_status_ok(s);
}

TFE_TensorHandle* TFE_ForwardAccumulatorJvp(TFE_ForwardAccumulator* a, TFE_TensorHandle* h,
                                            TF_Status* s) {
  TFE_TensorHandle* t;
  if (s == NULL) return NULL;
  if (a == NULL || h == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_ForwardAccumulatorJvp: %s is NULL",
                    a == NULL ? "the accumulator" : "the tensor");
    return NULL;
  }
  if (!tfe_handle_check(h, "TFE_ForwardAccumulatorJvp", s)) return NULL;
  pthread_mutex_lock(&g_fmu);
  t = tmap_get(&a->tangents, h);
  if (t != NULL) tfe_handle_ref(t);
  pthread_mutex_unlock(&g_fmu);
  tfe_status_ok(s);
  return t;
}

void TFE_ForwardAccumulatorStopRecording(TFE_ForwardAccumulator* a, TF_Status* s) {
  if (s == NULL) return;
  if (a == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_ForwardAccumulatorStopRecording: the accumulator is NULL");
    return;
  }
  pthread_mutex_lock(&g_fmu);
  if (!a->recording) {
    pthread_mutex_unlock(&g_fmu);
    tfe_status_setf(s, TF_FAILED_PRECONDITION, "the accumulator is not recording");
    return;
  }
  set_recording(a, 0);
  pthread_mutex_unlock(&g_fmu);
  tfe_status_ok(s);
}

void TFE_ForwardAccumulatorResumeRecording(TFE_ForwardAccumulator* a, TF_Status* s) {
  if (s == NULL) return;
  if (a == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_ForwardAccumulatorResumeRecording: the accumulator is NULL");
    return;
  }
  pthread_mutex_lock(&g_fmu);
  if (a->recording) {
    pthread_mutex_unlock(&g_fmu);
    tfe_status_setf(s, TF_FAILED_PRECONDITION, "Accumulator is already recording.");
    return;
  }
  set_recording(a, 1);
  pthread_mutex_unlock(&g_fmu);
  tfe_status_ok(s);
}

int TFE_ForwardAccumulatorNumTangents(const TFE_ForwardAccumulator* a) {
  int n;
  if (a == NULL) return 0;
  pthread_mutex_lock(&g_fmu);
  n = (int)a->tangents.n;
  pthread_mutex_unlock(&g_fmu);
  return n;
}

/* ---- forward rules ---- */

typedef enum rule_kind {
  K_PASS,     /* output 0's tangent is input 0's (Identity, ReadVariableOp) */
  K_LINEAR,   /* linear in all floating inputs jointly: rerun on tangents */
  K_ADD,      /* AddV2/Add/Sub: K_LINEAR, with a shortcut for one tangent */
  K_MULTI,    /* linear in each floating input: one rerun per tangent */
  K_GRAD_YT,  /* aux(y, t): the *Grad op of a function of its output */
  K_GRAD_TX,  /* aux(t, x) with the op's attrs */
  K_GRAD_TY,  /* aux(t, y) */
  K_EXP,      /* t * y */
  K_LOG,      /* t / x */
  K_SQUARE,   /* t * (x + x) */
  K_SIN,      /* t * cos(x) */
  K_COS,      /* -(t * sin(x)) */
  K_ABS,      /* t * sign(x) */
  K_DIV,      /* tx / y - (ty * out) / y */
  K_SOFTMAX,  /* y * (t - sum(t * y, -1)) */
  K_LOGSOFTMAX, /* t - sum(t * exp(y), -1) */
} rule_kind;

typedef struct fwd_rule {
  const char* op_type;
  rule_kind kind;
  const char* aux; /* the *Grad op, for the K_GRAD_* kinds */
  int real_only;   /* complex types go through the registry instead */
} fwd_rule;

/* Sorted by op_type (bsearch). */
static const fwd_rule k_rules[] = {
    {"Abs", K_ABS, NULL, 1},
    {"Add", K_ADD, NULL, 0},
    {"AddN", K_LINEAR, NULL, 0},
    {"AddV2", K_ADD, NULL, 0},
    {"BatchMatMul", K_MULTI, NULL, 0},
    {"BatchMatMulV2", K_MULTI, NULL, 0},
    {"BatchMatMulV3", K_MULTI, NULL, 0},
    {"BiasAdd", K_LINEAR, NULL, 0},
    {"BiasAddV1", K_LINEAR, NULL, 0},
    {"BroadcastTo", K_LINEAR, NULL, 0},
    {"Cast", K_LINEAR, NULL, 0},
    {"Complex", K_LINEAR, NULL, 0},
    {"Concat", K_LINEAR, NULL, 0},
    {"ConcatV2", K_LINEAR, NULL, 0},
    {"Conj", K_LINEAR, NULL, 0},
    {"ConjugateTranspose", K_LINEAR, NULL, 0},
    {"Conv2D", K_MULTI, NULL, 0},
    {"Conv2DBackpropInput", K_MULTI, NULL, 0},
    {"Conv3D", K_MULTI, NULL, 0},
    {"Cos", K_COS, NULL, 0},
    {"Cross", K_MULTI, NULL, 0},
    {"Cumsum", K_LINEAR, NULL, 0},
    {"DepthToSpace", K_LINEAR, NULL, 0},
    {"DepthwiseConv2dNative", K_MULTI, NULL, 0},
    {"Div", K_DIV, NULL, 1},
    {"Einsum", K_MULTI, NULL, 0},
    {"Elu", K_GRAD_TY, "EluGrad", 1},
    {"EnsureShape", K_PASS, NULL, 0},
    {"Exp", K_EXP, NULL, 0},
    {"ExpandDims", K_LINEAR, NULL, 0},
    {"Fill", K_LINEAR, NULL, 0},
    {"Gather", K_LINEAR, NULL, 0},
    {"GatherNd", K_LINEAR, NULL, 0},
    {"GatherV2", K_LINEAR, NULL, 0},
    {"Identity", K_PASS, NULL, 0},
    {"IdentityN", K_LINEAR, NULL, 0},
    {"Imag", K_LINEAR, NULL, 0},
    {"Inv", K_GRAD_YT, "InvGrad", 1},
    {"LeakyRelu", K_GRAD_TX, "LeakyReluGrad", 1},
    {"Log", K_LOG, NULL, 0},
    {"LogSoftmax", K_LOGSOFTMAX, NULL, 1},
    {"MatMul", K_MULTI, NULL, 0},
    {"Mean", K_LINEAR, NULL, 0},
    {"MirrorPad", K_LINEAR, NULL, 0},
    {"Mul", K_MULTI, NULL, 0},
    {"MulNoNan", K_MULTI, NULL, 0},
    {"Neg", K_LINEAR, NULL, 0},
    {"Pack", K_LINEAR, NULL, 0},
    {"Pad", K_LINEAR, NULL, 0},
    {"PadV2", K_LINEAR, NULL, 0},
    {"ReadVariableOp", K_PASS, NULL, 0},
    {"Real", K_LINEAR, NULL, 0},
    {"RealDiv", K_DIV, NULL, 1},
    {"Reciprocal", K_GRAD_YT, "ReciprocalGrad", 1},
    {"Relu", K_GRAD_TX, "ReluGrad", 1},
    {"Relu6", K_GRAD_TX, "Relu6Grad", 1},
    {"Reshape", K_LINEAR, NULL, 0},
    {"Reverse", K_LINEAR, NULL, 0},
    {"ReverseSequence", K_LINEAR, NULL, 0},
    {"ReverseV2", K_LINEAR, NULL, 0},
    {"Roll", K_LINEAR, NULL, 0},
    {"Rsqrt", K_GRAD_YT, "RsqrtGrad", 1},
    {"ScatterNd", K_LINEAR, NULL, 0},
    {"SegmentSum", K_LINEAR, NULL, 0},
    {"Select", K_LINEAR, NULL, 0},
    {"SelectV2", K_LINEAR, NULL, 0},
    {"Selu", K_GRAD_TY, "SeluGrad", 1},
    {"Sigmoid", K_GRAD_YT, "SigmoidGrad", 1},
    {"Sin", K_SIN, NULL, 0},
    {"Slice", K_LINEAR, NULL, 0},
    {"Snapshot", K_PASS, NULL, 0},
    {"Softmax", K_SOFTMAX, NULL, 1},
    {"Softplus", K_GRAD_TX, "SoftplusGrad", 1},
    {"Softsign", K_GRAD_TX, "SoftsignGrad", 1},
    {"SpaceToDepth", K_LINEAR, NULL, 0},
    {"Split", K_LINEAR, NULL, 0},
    {"SplitV", K_LINEAR, NULL, 0},
    {"Sqrt", K_GRAD_YT, "SqrtGrad", 1},
    {"Square", K_SQUARE, NULL, 0},
    {"Squeeze", K_LINEAR, NULL, 0},
    {"StridedSlice", K_LINEAR, NULL, 0},
    {"Sub", K_ADD, NULL, 0},
    {"Sum", K_LINEAR, NULL, 0},
    {"Tanh", K_GRAD_YT, "TanhGrad", 1},
    {"TensorScatterAdd", K_LINEAR, NULL, 0},
    {"TensorScatterUpdate", K_LINEAR, NULL, 0},
    {"Tile", K_LINEAR, NULL, 0},
    {"Transpose", K_LINEAR, NULL, 0},
    {"Unpack", K_LINEAR, NULL, 0},
    {"UnsortedSegmentSum", K_LINEAR, NULL, 0},
    {"ZerosLike", K_LINEAR, NULL, 0},
};

static int rule_cmp(const void* key, const void* elem) {
  return strcmp((const char*)key, ((const fwd_rule*)elem)->op_type);
}

static const fwd_rule* find_rule(const char* op_type) {
  return (const fwd_rule*)bsearch(op_type, k_rules, sizeof k_rules / sizeof k_rules[0],
                                  sizeof k_rules[0], rule_cmp);
}

/* Runs a copy of op (type, attrs, device) on inputs ins[0..op->num_inputs)
 * into outs[0..n). Returns 1, or 0 with s set. */
static int rerun(TFE_Op* op, TFE_TensorHandle* const* ins, TFE_TensorHandle** outs, int n,
                 TF_Status* s) {
  TFE_Op* c = TFE_NewOp(op->ctx, op->def->name, s);
  int i, m = n;
  if (c == NULL) return 0;
  TFE_OpAddAttrs(c, TFE_OpGetAttrs(op));
  if (op->has_device) TFE_OpSetDevice(c, op->device_name, s);
  for (i = 0; i < op->num_inputs && TF_GetCode(s) == TF_OK; i++) TFE_OpAddInput(c, ins[i], s);
  if (TF_GetCode(s) == TF_OK) TFE_Execute(c, outs, &m, s);
  TFE_DeleteOp(c);
  if (TF_GetCode(s) != TF_OK) return 0;
  if (m != n) {
    for (i = 0; i < m; i++) TFE_DeleteTensorHandle(outs[i]);
    tfe_status_setf(s, TF_INTERNAL, "forward mode: rerunning %s gave %d outputs, not %d",
                    op->def->name, m, n);
    return 0;
  }
  return 1;
}

/* aux(a, b) with op's attrs (LeakyReluGrad's alpha). */
static TFE_TensorHandle* run_with_attrs(TFE_Op* op, const char* aux, TFE_TensorHandle* a,
                                        TFE_TensorHandle* b, TF_Status* s) {
  TFE_TensorHandle* out = NULL;
  int n = 1;
  TFE_Op* c = TFE_NewOp(op->ctx, aux, s);
  if (c == NULL) return NULL;
  TFE_OpAddAttrs(c, TFE_OpGetAttrs(op));
  TFE_OpAddInput(c, a, s);
  if (TF_GetCode(s) == TF_OK) TFE_OpAddInput(c, b, s);
  if (TF_GetCode(s) == TF_OK) TFE_Execute(c, &out, &n, s);
  TFE_DeleteOp(c);
  return TF_GetCode(s) == TF_OK ? out : NULL;
}

/* Accumulates term (taken over) into *sum. */
static void add_term(TFE_Context* ctx, TFE_TensorHandle** sum, TFE_TensorHandle* term,
                     TF_Status* s) {
  TFE_TensorHandle* r;
  if (*sum == NULL) {
    *sum = term;
    return;
  }
  r = run2(ctx, "AddV2", *sum, term, s);
  TFE_DeleteTensorHandle(term);
  TFE_DeleteTensorHandle(*sum);
  *sum = r;
}

/* Linear ops: the op on the tangents, zeros for floating inputs without
 * one, the other inputs (shapes, indices, axes) as they were. */
static int rule_linear(TFE_Op* op, TFE_TensorHandle* const* tin, TFE_TensorHandle** tout,
                       int n, TF_Status* s) {
  TFE_TensorHandle* small[8];
  TFE_TensorHandle** ins = small;
  int i, ok = 0, ni = op->num_inputs;
  if (ni > 8) {
    ins = (TFE_TensorHandle**)tfe_calloc((size_t)ni, sizeof *ins);
    if (ins == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "forward mode: out of memory");
      return 0;
    }
  }
  memset(ins, 0, (size_t)ni * sizeof *ins);
  for (i = 0; i < ni; i++) {
    TFE_TensorHandle* x = op->inputs[i];
    if (tin[i] != NULL) {
      tfe_handle_ref(tin[i]);
      ins[i] = tin[i];
    } else if (dtype_trainable(TFE_TensorHandleDataType(x)) &&
               TFE_TensorHandleDataType(x) != TF_RESOURCE &&
               TFE_TensorHandleDataType(x) != TF_VARIANT) {
      ins[i] = run2(op->ctx, "ZerosLike", x, NULL, s);
      if (ins[i] == NULL) goto done;
    } else {
      tfe_handle_ref(x);
      ins[i] = x;
    }
  }
  ok = rerun(op, ins, tout, n, s);
done:
  for (i = 0; i < ni; i++) {
    if (ins[i] != NULL) tfe_handle_unref(ins[i]);
  }
  if (ins != small) tfe_free(ins);
  return ok;
}

/* Multilinear ops: sum over inputs i with a tangent of the op with input
 * i replaced by its tangent. */
static int rule_multi(TFE_Op* op, TFE_TensorHandle* const* tin, TFE_TensorHandle** tout,
                      int n, TF_Status* s) {
  TFE_TensorHandle* small[8];
  TFE_TensorHandle** ins = small;
  int i;
  if (n != 1) {
    tfe_status_setf(s, TF_INTERNAL, "forward mode: %s has %d outputs", op->def->name, n);
    return 0;
  }
  if (op->num_inputs > 8) {
    ins = (TFE_TensorHandle**)tfe_calloc((size_t)op->num_inputs, sizeof *ins);
    if (ins == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "forward mode: out of memory");
      return 0;
    }
  }
  memcpy(ins, op->inputs, (size_t)op->num_inputs * sizeof *ins);
  tout[0] = NULL;
  for (i = 0; i < op->num_inputs && TF_GetCode(s) == TF_OK; i++) {
    TFE_TensorHandle* term = NULL;
    if (tin[i] == NULL) continue;
    ins[i] = tin[i];
    if (rerun(op, ins, &term, 1, s)) add_term(op->ctx, &tout[0], term, s);
    ins[i] = op->inputs[i];
  }
  if (ins != small) tfe_free(ins);
  if (TF_GetCode(s) != TF_OK) {
    TFE_DeleteTensorHandle(tout[0]);
    tout[0] = NULL;
    return 0;
  }
  return 1;
}

/* AddV2, Add, Sub. One tangent shaped like the output is the answer (or
 * its negation); otherwise the linear rule. */
static int rule_add(TFE_Op* op, TFE_TensorHandle* const* tin, TFE_TensorHandle** out,
                    TFE_TensorHandle** tout, TF_Status* s) {
  int only = tin[0] != NULL && tin[1] == NULL ? 0 : tin[0] == NULL && tin[1] != NULL ? 1 : -1;
  if (only >= 0 && op->num_inputs == 2) {
    int same = same_shape(tin[only], out[0], s);
    if (TF_GetCode(s) != TF_OK) return 0;
    if (same) {
      if (only == 1 && strcmp(op->def->name, "Sub") == 0) {
        tout[0] = run2(op->ctx, "Neg", tin[1], NULL, s);
        return tout[0] != NULL;
      }
      tfe_handle_ref(tin[only]);
      tout[0] = tin[only];
      return 1;
    }
  }
  return rule_linear(op, tin, tout, 1, s);
}

/* RealDiv / Div: tx / y - (ty * out) / y. */
static int rule_div(TFE_Op* op, TFE_TensorHandle* const* tin, TFE_TensorHandle** out,
                    TFE_TensorHandle** tout, TF_Status* s) {
  TFE_Context* ctx = op->ctx;
  const char* div = op->def->name;
  TFE_TensorHandle *a = NULL, *b = NULL, *m;
  if (tin[0] != NULL) {
    a = run2(ctx, div, tin[0], op->inputs[1], s);
    if (a == NULL) return 0;
  }
  if (tin[1] != NULL) {
    m = run2(ctx, "Mul", tin[1], out[0], s);
    if (m != NULL) {
      b = run2(ctx, div, m, op->inputs[1], s);
      TFE_DeleteTensorHandle(m);
    }
    if (b == NULL) {
      TFE_DeleteTensorHandle(a);
      return 0;
    }
  }
  if (a != NULL && b != NULL) {
    tout[0] = run2(ctx, "Sub", a, b, s);
  } else if (a != NULL) {
    tout[0] = a;
    a = NULL;
  } else {
    tout[0] = run2(ctx, "Neg", b, NULL, s);
  }
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  return tout[0] != NULL;
}

/* sum(a, axis -1, keep_dims): a new handle, or NULL with s set. */
static TFE_TensorHandle* sum_last(TFE_Context* ctx, TFE_TensorHandle* a, TF_Status* s) {
  TFE_TensorHandle *axis, *out = NULL;
  TFE_Op* op;
  int32_t minus_one = -1;
  int n = 1;
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof minus_one);
  if (t == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "forward mode: out of memory");
    return NULL;
  }
  memcpy(TF_TensorData(t), &minus_one, sizeof minus_one);
  axis = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  if (axis == NULL) return NULL;
  op = TFE_NewOp(ctx, "Sum", s);
  if (op != NULL) {
    TFE_OpSetAttrBool(op, "keep_dims", 1);
    TFE_OpAddInput(op, a, s);
    if (TF_GetCode(s) == TF_OK) TFE_OpAddInput(op, axis, s);
    if (TF_GetCode(s) == TF_OK) TFE_Execute(op, &out, &n, s);
    TFE_DeleteOp(op);
  }
  TFE_DeleteTensorHandle(axis);
  return TF_GetCode(s) == TF_OK ? out : NULL;
}

/* Softmax: y * (t - sum(t * y)); LogSoftmax: t - sum(t * exp(y)); sums
 * over the last axis. */
static int rule_softmax(int log, TFE_Context* ctx, TFE_TensorHandle* t, TFE_TensorHandle* y,
                        TFE_TensorHandle** tout, TF_Status* s) {
  TFE_TensorHandle *p = log ? run2(ctx, "Exp", y, NULL, s) : y, *ty = NULL, *sum = NULL,
                   *d = NULL;
  if (p != NULL) ty = run2(ctx, "Mul", t, p, s);
  if (ty != NULL) sum = sum_last(ctx, ty, s);
  if (sum != NULL) d = run2(ctx, "Sub", t, sum, s);
  if (d != NULL) {
    if (log) {
      tout[0] = d;
      d = NULL;
    } else {
      tout[0] = run2(ctx, "Mul", y, d, s);
    }
  }
  if (log) TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(ty);
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(d);
  return tout[0] != NULL;
}

/* Elementwise functions of one input: t * f'(x). */
static int rule_unary(const fwd_rule* r, TFE_Op* op, TFE_TensorHandle* t, TFE_TensorHandle* y,
                      TFE_TensorHandle** tout, TF_Status* s) {
  TFE_Context* ctx = op->ctx;
  TFE_TensorHandle *x = op->inputs[0], *d = NULL;
  switch (r->kind) {
    case K_GRAD_YT:
      tout[0] = run2(ctx, r->aux, y, t, s);
      break;
    case K_GRAD_TX:
      tout[0] = run_with_attrs(op, r->aux, t, x, s);
      break;
    case K_GRAD_TY:
      tout[0] = run_with_attrs(op, r->aux, t, y, s);
      break;
    case K_EXP:
      tout[0] = run2(ctx, "Mul", t, y, s);
      break;
    case K_LOG:
      tout[0] = run2(ctx, "RealDiv", t, x, s);
      break;
    case K_SQUARE:
      d = run2(ctx, "AddV2", x, x, s);
      if (d != NULL) tout[0] = run2(ctx, "Mul", t, d, s);
      break;
    case K_SIN:
      d = run2(ctx, "Cos", x, NULL, s);
      if (d != NULL) tout[0] = run2(ctx, "Mul", t, d, s);
      break;
    case K_ABS:
      d = run2(ctx, "Sign", x, NULL, s);
      if (d != NULL) tout[0] = run2(ctx, "Mul", t, d, s);
      break;
    case K_COS: {
      TFE_TensorHandle* p;
      d = run2(ctx, "Sin", x, NULL, s);
      p = d != NULL ? run2(ctx, "Mul", t, d, s) : NULL;
      if (p != NULL) {
        tout[0] = run2(ctx, "Neg", p, NULL, s);
        TFE_DeleteTensorHandle(p);
      }
      break;
    }
    default:
      tfe_status_setf(s, TF_INTERNAL, "forward mode: bad rule for %s", r->op_type);
  }
  TFE_DeleteTensorHandle(d);
  return tout[0] != NULL;
}

/* ---- the double-vjp trick through the gradient registry ---- */

static int double_vjp(TFE_Op* op, TFE_GradientFunction fn, TFE_TensorHandle* const* outs,
                      int n, TFE_TensorHandle* const* tin, TFE_TensorHandle** tout,
                      TF_Status* s) {
  TFE_Context* ctx = op->ctx;
  int ni = op->num_inputs, total = 2 * ni + 2 * n, i, nt = 0, nu = 0, ok = 0;
  TFE_GradientTape* tape = NULL;
  TF_ExecutionContext* ec = NULL;
  TFE_GradientContext g;
  TF_AbstractTensor** buf;
  TFE_TensorHandle** u; /* n zeros (NULL for outputs without a tangent) */
  TFE_TensorHandle** hs; /* targets [ni], seeds [ni], sources [n], results [n] */
  tfe_attrs attrs;
  tfe_attrs_init(&attrs);
  buf = (TF_AbstractTensor**)tfe_calloc((size_t)total + 1, sizeof *buf);
  u = (TFE_TensorHandle**)tfe_calloc((size_t)n + 1, sizeof *u);
  hs = (TFE_TensorHandle**)tfe_calloc((size_t)(2 * ni + 2 * n) + 1, sizeof *hs);
  if (buf == NULL || u == NULL || hs == NULL || !tfe_attrs_merge(&attrs, &op->attrs)) goto oom;
  tfe_op_def_complete_attrs(op->def, &attrs, s);
  if (TF_GetCode(s) == TF_RESOURCE_EXHAUSTED) goto done;
  tfe_status_ok(s);
  ec = tfe_unified_borrow_eager(ctx);
  if (ec == NULL) goto oom;
  tape = TFE_NewGradientTape(ctx, 0, s);
  if (tape == NULL) goto done;
  for (i = 0; i < n; i++) {
    TF_DataType dt = TFE_TensorHandleDataType(outs[i]);
    if (!dtype_trainable(dt) || dt == TF_RESOURCE || dt == TF_VARIANT) continue;
    u[i] = run2(ctx, "ZerosLike", outs[i], NULL, s);
    if (u[i] == NULL) goto done;
    TFE_GradientTapeWatch(tape, u[i], s);
    if (TF_GetCode(s) != TF_OK) goto done;
  }
  memset(&g, 0, sizeof g);
  g.ec = ec;
  g.op_type = op->def->name;
  g.attrs = &attrs;
  g.num_inputs = ni;
  g.num_outputs = n;
  g.inputs = buf;
  g.in_grads = buf + ni;
  g.outputs = buf + 2 * ni;
  g.out_grads = buf + 2 * ni + n;
  for (i = 0; i < ni; i++) {
    if ((g.inputs[i] = tfe_unified_wrap_handle(op->inputs[i])) == NULL) goto oom;
  }
  for (i = 0; i < n; i++) {
    if ((g.outputs[i] = tfe_unified_wrap_handle(outs[i])) == NULL) goto oom;
    if (u[i] != NULL && (g.out_grads[i] = tfe_unified_wrap_handle(u[i])) == NULL) goto oom;
  }
  fn(&g, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  /* targets: the vjps of the inputs with tangents; seeds: the tangents. */
  for (i = 0; i < ni; i++) {
    TFE_TensorHandle* h = tfe_unified_handle_of(g.in_grads[i]);
    if (h == NULL || tin[i] == NULL) continue;
    hs[nt] = h;
    hs[ni + nt] = tin[i];
    nt++;
  }
  for (i = 0; i < n; i++) {
    if (u[i] != NULL) hs[2 * ni + nu++] = u[i];
  }
  if (nt > 0 && nu > 0) {
    TFE_TensorHandle** res = hs + 2 * ni + n;
    int k = 0;
    TFE_GradientTapeGradient(tape, nt, hs, hs + ni, nu, hs + 2 * ni, TFE_UNCONNECTED_NONE,
                             res, s);
    if (TF_GetCode(s) != TF_OK) goto done;
    for (i = 0; i < n; i++) {
      if (u[i] != NULL) tout[i] = res[k++];
    }
  }
  ok = 1;
  goto done;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "forward mode: out of memory");
done:
  if (buf != NULL) {
    for (i = 0; i < total; i++) TF_DeleteAbstractTensor(buf[i]);
  }
  if (u != NULL) {
    for (i = 0; i < n; i++) TFE_DeleteTensorHandle(u[i]);
  }
  TFE_DeleteGradientTape(tape);
  TF_DeleteExecutionContext(ec);
  tfe_attrs_destroy(&attrs);
  tfe_free(buf);
  tfe_free(u);
  tfe_free(hs);
  if (!ok && TF_GetCode(s) == TF_OK) {
    tfe_status_setf(s, TF_INTERNAL, "forward mode: the tangents of %s failed", op->def->name);
  }
  return ok;
}

/* The tangents of op's outputs from those of its inputs (tin[i] NULL for
 * none). tout[0..n) is zeroed by the caller; entries it fills are new
 * handles. Returns 1, or 0 with s set. */
static int compute_tangents(TFE_Op* op, TFE_TensorHandle* const* outs, int n,
                            TFE_TensorHandle* const* tin, TFE_TensorHandle** tout,
                            TF_Status* s) {
  const fwd_rule* r = find_rule(op->def->name);
  TFE_GradientFunction fn = NULL;
  int nd = 0, i, first = -1;
  for (i = 0; i < op->num_inputs; i++) {
    if (tin[i] != NULL) {
      first = i;
      break;
    }
  }
  if (r != NULL && r->real_only &&
      !dtype_real(TFE_TensorHandleDataType(op->inputs[first < 0 ? 0 : first]))) {
    r = NULL;
  }
  if (r != NULL && n >= 1) {
    switch (r->kind) {
      case K_PASS:
        if (tin[0] == NULL) return 1;
        tfe_handle_ref(tin[0]);
        tout[0] = tin[0];
        return 1;
      case K_LINEAR:
        return rule_linear(op, tin, tout, n, s);
      case K_ADD:
        return rule_add(op, tin, (TFE_TensorHandle**)outs, tout, s);
      case K_MULTI:
        return rule_multi(op, tin, tout, n, s);
      case K_DIV:
        return rule_div(op, tin, (TFE_TensorHandle**)outs, tout, s);
      case K_SOFTMAX:
      case K_LOGSOFTMAX:
        if (tin[0] == NULL) return 1;
        return rule_softmax(r->kind == K_LOGSOFTMAX, op->ctx, tin[0], outs[0], tout, s);
      default:
        if (tin[0] == NULL) return 1;
        return rule_unary(r, op, tin[0], outs[0], tout, s);
    }
  }
  if (!tfe_grad_lookup(op->def->name, &fn, &nd) &&
      tfe_flib_find(tfe_ctx_flib(op->ctx), op->def->name) != NULL) {
    fn = tfe_grad_function_call; /* a call of a context function, as the tape */
    nd = 0;
  } else if (fn == NULL && !nd) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "No gradient defined for operation of type %s: forward mode (a "
                    "ForwardAccumulator) needs its gradient (TFE_RegisterGradient adds one)",
                    op->def->name);
    return 0;
  }
  if (nd) return 1; /* not differentiable: no tangents, as in TF */
  return double_vjp(op, fn, outs, n, tin, tout, s);
}

/* Computes and stores a's tangents for op's outputs. Returns 0 with s set
 * on failure. */
static int accumulate(TFE_ForwardAccumulator* a, TFE_Op* op, TFE_TensorHandle** outs, int n,
                      TF_Status* s) {
  TFE_TensorHandle* small[16];
  TFE_TensorHandle** buf = small;
  TFE_TensorHandle **tin, **tout;
  busy_frame frame;
  int i, any = 0, ok = 1, ni = op->num_inputs;
  size_t total = (size_t)ni + (size_t)n;
  if (total > sizeof small / sizeof small[0]) {
    buf = (TFE_TensorHandle**)tfe_calloc(total, sizeof *buf);
    if (buf == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "forward mode: out of memory");
      return 0;
    }
  } else {
    memset(small, 0, sizeof small);
  }
  tin = buf;
  tout = buf + ni;
  pthread_mutex_lock(&g_fmu);
  for (i = 0; i < ni; i++) {
    TFE_TensorHandle* t;
    if (!dtype_trainable(TFE_TensorHandleDataType(op->inputs[i]))) continue;
    t = tmap_get(&a->tangents, op->inputs[i]);
    if (t == NULL) continue;
    tfe_handle_ref(t);
    tin[i] = t;
    any = 1;
  }
  pthread_mutex_unlock(&g_fmu);
  if (!any) goto done;

  frame.acc = a;
  frame.prev = t_busy;
  t_busy = &frame;
  ok = compute_tangents(op, outs, n, tin, tout, s);
  t_busy = frame.prev;

  if (ok) {
    pthread_mutex_lock(&g_fmu);
    for (i = 0; i < n; i++) {
      TFE_TensorHandle** slot;
      TF_DataType dt = TFE_TensorHandleDataType(outs[i]);
      if (tout[i] == NULL || !dtype_trainable(dt) || dt == TF_RESOURCE || dt == TF_VARIANT) {
        continue;
      }
      slot = tmap_slot(&a->tangents, outs[i]);
      if (slot == NULL) {
        ok = 0;
        break;
      }
      if (*slot == NULL) { /* an output is a new handle; keep a first tangent */
        *slot = tout[i];
        tout[i] = NULL;
      }
    }
    pthread_mutex_unlock(&g_fmu);
    if (!ok) tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "forward mode: out of memory");
  }
done:
  for (i = 0; i < ni + n; i++) {
    if (buf[i] != NULL) tfe_handle_unref(buf[i]);
  }
  if (buf != small) tfe_free(buf);
  return ok;
}

static int is_busy(const TFE_ForwardAccumulator* a) {
  const busy_frame* f;
  for (f = t_busy; f != NULL; f = f->prev) {
    if (f->acc == a) return 1;
  }
  return 0;
}

void tfe_forward_record(TFE_Op* op, TFE_TensorHandle** outs, int n, TF_Status* status) {
  TFE_ForwardAccumulator* small[8];
  TFE_ForwardAccumulator** list = small;
  TFE_ForwardAccumulator* a;
  int count = 0, cap = 8, i, any_float = 0;
  if (atomic_load_explicit(&g_num_recording, memory_order_relaxed) == 0) return;
  if (op == NULL || op->def == NULL || n <= 0 || outs == NULL) return;
  for (i = 0; i < n; i++) {
    TF_DataType dt = outs[i] != NULL ? TFE_TensorHandleDataType(outs[i]) : (TF_DataType)0;
    if (dtype_trainable(dt) && dt != TF_RESOURCE && dt != TF_VARIANT) any_float = 1;
  }
  if (!any_float) return; /* no output can carry a tangent */
  /* Snapshot the recording accumulators of the context, in creation
   * order, holding a reference to each while the lock is released. */
  pthread_mutex_lock(&g_fmu);
  for (a = g_accs; a != NULL; a = a->next) {
    if (!a->recording || a->ctx != op->ctx) continue;
    if (count == cap) {
      TFE_ForwardAccumulator** bigger = (TFE_ForwardAccumulator**)tfe_malloc(
          (size_t)cap * 2 * sizeof *bigger);
      if (bigger == NULL) break;
      memcpy(bigger, list, (size_t)count * sizeof *bigger);
      if (list != small) tfe_free(list);
      list = bigger;
      cap *= 2;
    }
    a->refs++;
    list[count++] = a;
  }
  pthread_mutex_unlock(&g_fmu);

  for (i = 0; i < count; i++) {
    if (is_busy(list[i])) break; /* TF's rule: see the file comment */
    if (!accumulate(list[i], op, outs, n, status)) break;
  }

  pthread_mutex_lock(&g_fmu);
  for (i = 0; i < count; i++) list[i] = release_locked(list[i]);
  pthread_mutex_unlock(&g_fmu);
  for (i = 0; i < count; i++) free_acc(list[i]);
  if (list != small) tfe_free(list);
  if (TF_GetCode(status) != TF_OK) {
    for (i = 0; i < n; i++) {
      TFE_DeleteTensorHandle(outs[i]);
      outs[i] = NULL;
    }
  }
}
