/* CPU kernels: stateful containers: v1/v2 TensorArrays, stacks, staging areas, barriers and accumulators (issue 18).
 *
 * The v1 and v2 TensorArray ops (TensorArray, TensorArrayV2, ...Read,
 * ...ReadV2, ...) are deprecated in TF's registry (removed in GraphDef
 * versions 16..26). TF 2.21 registers CPU kernels for them but refuses to
 * create one at its GraphDef version (2474, the version of eager ops and of
 * every graph it builds): running any of them fails with UNIMPLEMENTED,
 * naming the op's replacement. These kernels report exactly that. (A graph
 * imported with an old producer version would run them in TF; tfe's kernels
 * do not see the producer version, so they refuse there too.)
 *
 * TF 1's Stack, StackPush, StackPop and StackClose are served by the
 * StackV2 kernels in tensor_array_kernels.c.
 *
 * TensorArrayConcatV2 is the one v2 op TF did not deprecate, but no op TF
 * 2.21 can run makes the string-handled array it reads (TF looks it up in
 * the per-step container, which only TensorArrayV2 filled): TF's kernel
 * checks the handle and then finds nothing. This one does the same.
 *
 * Staging areas (Stage, Unstage, StagePeek, StageSize, StageClear): a FIFO
 * of tuples registered under (context, device, container, shared_name or
 * the node's name). Stage waits while the area is at capacity or over its
 * memory_limit, Unstage while it is empty, StagePeek while it holds no
 * element at the index; a wait ends when the run's cancellation manager
 * cancels it (CANCELLED), as queue waits do. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_internal.h"
#include "kernels/cpu/dataflow2_common.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "kernels/resource.h"
#include "ops/attr_value.h"
#include "tensorflow/c/eager/c_api_experimental.h"

void tfe_register_cpu_containers_kernels(void);

/* The GraphDef version TF 2.21 runs ops at (eager and new graphs). */
#define CONTAINERS_GRAPH_DEF_VERSION 2474

/* The deprecated TensorArray ops: the version that removed each and TF's
 * advice (from TF 2.21's op registry). */
typedef struct removed_op {
  const char* name;
  int version;
  const char* advice;
} removed_op;

static const removed_op kRemoved[] = {
    {"TensorArray", 16, "Use TensorArrayV3"},
    {"TensorArrayGrad", 16, "Use TensorArrayGradV3"},
    {"TensorArrayWrite", 16, "Use TensorArrayWriteV3"},
    {"TensorArrayRead", 16, "Use TensorArrayReadV3"},
    {"TensorArrayPack", 16, "Use TensorArrayGatherV3 with RangeOp"},
    {"TensorArrayUnpack", 20, "Use TensorArrayScatterV3 with RangeOp"},
    {"TensorArrayGather", 16, "Use TensorArrayGatherV3"},
    {"TensorArrayScatter", 19, "Use TensorArrayGradV3"},
    {"TensorArrayConcat", 16, "Use TensorArrayGradV3"},
    {"TensorArraySplit", 16, "Use TensorArraySplitV3"},
    {"TensorArraySize", 16, "Use TensorArraySizeV3"},
    {"TensorArrayClose", 16, "Use TensorArrayCloseV3"},
    {"TensorArrayV2", 26, "Use TensorArrayV3"},
    {"TensorArrayGradV2", 26, "Use TensorArrayGradV3"},
    {"TensorArrayWriteV2", 26, "Use TensorArrayWriteV3"},
    {"TensorArrayReadV2", 26, "Use TensorArrayReadV3"},
    {"TensorArrayGatherV2", 26, "Use TensorArrayGatherV3"},
    {"TensorArrayScatterV2", 26, "Use TensorArrayScatterV3"},
    {"TensorArraySplitV2", 26, "Use TensorArraySplitV3"},
    {"TensorArraySizeV2", 26, "Use TensorArraySizeV3"},
    {"TensorArrayCloseV2", 26, "Use TensorArrayCloseV3"},
};

/* Fails with TF's refusal of a removed op (one kernel for all of them;
 * the op's name picks the entry). */
static void removed_op_compute(tfe_kernel_context* k) {
  const char* name = k->op_def != NULL ? k->op_def->name : "";
  int i;
  for (i = 0; i < KUTIL_COUNT(kRemoved); i++) {
    if (strcmp(kRemoved[i].name, name) == 0) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "Op %s is not available in GraphDef version %d. It has "
                 "been removed in version %d. %s.",
                 name, CONTAINERS_GRAPH_DEF_VERSION, kRemoved[i].version,
                 kRemoved[i].advice);
      return;
    }
  }
  KUTIL_FAIL(k, TF_INTERNAL, "%s: not a removed TensorArray op", name);
}

/* TensorArrayConcatV2(handle: string, flow_in) -> NOT_FOUND for any
 * well-formed handle (see the top of the file). */
static void ta_concat_v2_compute(tfe_kernel_context* k) {
  const TF_Tensor* h = k->num_inputs > 0 ? k->inputs[0] : NULL;
  const TF_TString* v;
  kutil_shape_buf b;
  if (h == NULL || h->dtype != TF_STRING) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorArrayConcatV2: the handle must be a string tensor");
    return;
  }
  if (kutil_num_elements(h) != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tensor array handle must be 2-element vector, but had "
               "shape: %s",
               kutil_tshape(h, &b));
    return;
  }
  v = (const TF_TString*)kutil_data(h);
  /* Eager ops run as step 0 (as TF's single-op steps do). */
  KUTIL_FAIL(k, TF_NOT_FOUND,
             "Container __per_step_0 does not exist. (Could not find "
             "resource: __per_step_0/%.*s%.*s)",
             (int)TF_TString_GetSize(&v[0]), TF_TString_GetDataPointer(&v[0]),
             (int)TF_TString_GetSize(&v[1]),
             TF_TString_GetDataPointer(&v[1]));
}

/* ------------------------------------------------------------------------
 * Staging areas. */

typedef struct stage_tuple {
  TF_Tensor** t;
  int n;
  size_t bytes;
} stage_tuple;

typedef struct stage_area {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int64_t capacity;     /* 0: unbounded */
  int64_t memory_limit; /* 0: unbounded */
  size_t bytes;
  stage_tuple* items;
  int64_t n, cap;
} stage_area;

static void tuple_free(stage_tuple* tu) {
  int i;
  for (i = 0; i < tu->n; i++) TF_DeleteTensor(tu->t[i]);
  tfe_free(tu->t);
  tu->t = NULL;
  tu->n = 0;
}

static void stage_free(void* obj) {
  stage_area* a = (stage_area*)obj;
  int64_t i;
  if (a == NULL) return;
  for (i = 0; i < a->n; i++) tuple_free(&a->items[i]);
  tfe_free(a->items);
  pthread_cond_destroy(&a->cv);
  pthread_mutex_destroy(&a->mu);
  tfe_free(a);
}

/* A new, empty area with the node's capacity and memory_limit; NULL on
 * OOM (k->status untouched). */
static void* stage_make(tfe_kernel_context* k, const char* name) {
  stage_area* a = (stage_area*)tfe_calloc(1, sizeof(*a));
  (void)name;
  if (a == NULL) return NULL;
  if (!df2_sync_init(&a->mu, &a->cv)) {
    tfe_free(a);
    return NULL;
  }
  a->capacity = kutil_attr_int64(k, "capacity", 0);
  a->memory_limit = kutil_attr_int64(k, "memory_limit", 0);
  return a;
}

static const df2_kind kStage = {"StagingArea", stage_make, NULL, stage_free};

/* The area this kernel names, made on first use; a new reference in *res,
 * or NULL with k->status set. */
static stage_area* stage_lookup(tfe_kernel_context* k, tfe_resource** res) {
  const char *container, *shared;
  df2_container_attrs(k, &container, &shared);
  /* TF names an unnamed area after the node. */
  if (shared[0] == '\0') {
    shared = k->node_name != NULL ? k->node_name : k->op_def->name;
  }
  *res = df2_find_or_make(k, &kStage, container, shared, "staging area",
                          shared);
  return *res != NULL ? (stage_area*)(*res)->object : NULL;
}

/* Doubles the tuple array; 0 on OOM (unchanged). Under a->mu. */
static int stage_grow(stage_area* a) {
  int64_t ncap = a->cap ? a->cap * 2 : 4;
  stage_tuple* ni;
  if (ncap > (int64_t)(SIZE_MAX / sizeof(stage_tuple) / 2)) return 0;
  ni = (stage_tuple*)tfe_realloc(a->items, sizeof(stage_tuple) * (size_t)ncap);
  if (ni == NULL) return 0;
  a->items = ni;
  a->cap = ncap;
  return 1;
}

static int stage_full(const stage_area* a, size_t add) {
  return (a->capacity > 0 && a->n >= a->capacity) ||
         (a->memory_limit > 0 && a->bytes + add > (size_t)a->memory_limit);
}

/* Stage(values): appends the tuple, waiting for room. */
static void stage_put_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  stage_area* a = stage_lookup(k, &res);
  stage_tuple tu = {NULL, 0, 0};
  df2_wait w;
  int i;
  if (a == NULL) return;
  tu.t = (TF_Tensor**)tfe_calloc(k->num_inputs > 0 ? (size_t)k->num_inputs : 1,
                                 sizeof(TF_Tensor*));
  if (tu.t == NULL) goto oom;
  for (i = 0; i < k->num_inputs; i++) {
    tu.t[i] = df2_share(k->inputs[i]);
    if (tu.t[i] == NULL) goto oom;
    tu.n++;
    tu.bytes += TF_TensorByteSize(k->inputs[i]);
  }
  if (a->memory_limit > 0 && tu.bytes > (size_t)a->memory_limit) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "Attempted to insert tensors with combined size of '%zu' "
               "bytes into Staging Area with a memory limit of '%lld'.",
               tu.bytes, (long long)a->memory_limit);
    goto done;
  }
  if (!df2_wait_begin(k, &w, &a->mu, &a->cv, "staging area wait")) {
    KUTIL_FAIL(k, TF_CANCELLED, "Stage operation was cancelled");
    goto done;
  }
  pthread_mutex_lock(&a->mu);
  while (stage_full(a, tu.bytes) && !w.cancelled) {
    pthread_cond_wait(&a->cv, &a->mu);
  }
  if (w.cancelled) {
    KUTIL_FAIL(k, TF_CANCELLED, "Stage operation was cancelled");
  } else if (a->n == a->cap && !stage_grow(a)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Stage");
  } else {
    a->items[a->n++] = tu;
    a->bytes += tu.bytes;
    tu.t = NULL;
    tu.n = 0;
    pthread_cond_broadcast(&a->cv);
  }
  pthread_mutex_unlock(&a->mu);
  df2_wait_end(k, &w);
  goto done;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
             k->op_def->name);
done:
  tuple_free(&tu);
  tfe_resource_unref(res);
}
/* Checks a tuple against the op's outputs (count and dtypes, TF's
 * messages) and sets shares of its tensors as outputs; 0 on failure. */
static int stage_emit(tfe_kernel_context* k, const stage_tuple* tu) {
  const TF_DataType* types = NULL;
  int i, nt = 0;
  if (tu->n != k->num_outputs) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Mismatch stage/unstage: %d vs. %d",
               tu->n, k->num_outputs);
    return 0;
  }
  if (!tfe_attrs_get_type_list(k->attrs, "dtypes", &types, &nt, NULL) ||
      nt != tu->n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: bad dtypes attr",
               k->op_def->name);
    return 0;
  }
  for (i = 0; i < tu->n; i++) {
    TF_DataType want = types[i];
    if (tu->t[i]->dtype != want) {
      /* TF's executor rejects the output's type. */
      KUTIL_FAIL(k, TF_INTERNAL,
                 "Output %d of type %s does not match declared output type "
                 "%s for node {{node %s}}",
                 i, tfe_dtype_short_name(tu->t[i]->dtype), tfe_dtype_short_name(want),
                 k->node_name != NULL ? k->node_name : k->op_def->name);
      return 0;
    }
  }
  for (i = 0; i < tu->n; i++) {
    TF_Tensor* o = df2_share(tu->t[i]);
    if (o == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      return 0;
    }
    tfe_kernel_set_output(k, i, o);
  }
  return 1;
}

/* Unstage (peek < 0) and StagePeek(index): wait for the element, emit it;
 * Unstage also removes it. */
static void stage_get(tfe_kernel_context* k, int64_t peek) {
  tfe_resource* res;
  stage_area* a = stage_lookup(k, &res);
  df2_wait w;
  const int64_t need = peek < 0 ? 1 : peek + 1;
  if (a == NULL) return;
  if (!df2_wait_begin(k, &w, &a->mu, &a->cv, "staging area wait")) {
    KUTIL_FAIL(k, TF_CANCELLED, "%s operation was cancelled",
               k->op_def->name);
    tfe_resource_unref(res);
    return;
  }
  pthread_mutex_lock(&a->mu);
  while (a->n < need && !w.cancelled) pthread_cond_wait(&a->cv, &a->mu);
  if (w.cancelled) {
    KUTIL_FAIL(k, TF_CANCELLED, "%s operation was cancelled",
               k->op_def->name);
  } else if (peek >= 0) {
    stage_emit(k, &a->items[peek]);
  } else {
    /* TF removes the tuple before checking it against the outputs. */
    stage_tuple tu = a->items[0];
    memmove(a->items, a->items + 1, sizeof(stage_tuple) * (size_t)(a->n - 1));
    a->n--;
    a->bytes -= tu.bytes;
    pthread_cond_broadcast(&a->cv);
    stage_emit(k, &tu);
    tuple_free(&tu);
  }
  pthread_mutex_unlock(&a->mu);
  df2_wait_end(k, &w);
  tfe_resource_unref(res);
}

static void unstage_compute(tfe_kernel_context* k) { stage_get(k, -1); }

static void stage_peek_compute(tfe_kernel_context* k) {
  const TF_Tensor* idx = k->inputs[0];
  int32_t i;
  if (idx->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "index must be scalar");
    return;
  }
  i = *(const int32_t*)kutil_data(idx);
  if (i < 0) {
    /* TF would wait forever (its index compares as unsigned). */
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "index must be >= 0, got %d", (int)i);
    return;
  }
  stage_get(k, i);
}

static void stage_size_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  stage_area* a = stage_lookup(k, &res);
  TF_Tensor* o;
  int64_t n;
  if (a == NULL) return;
  pthread_mutex_lock(&a->mu);
  n = a->n;
  pthread_mutex_unlock(&a->mu);
  tfe_resource_unref(res);
  o = tfe_kernel_alloc_output(k, 0, TF_INT32, NULL, 0);
  if (o != NULL) *(int32_t*)kutil_data(o) = (int32_t)n;
}

static void stage_clear_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  stage_area* a = stage_lookup(k, &res);
  int64_t i;
  if (a == NULL) return;
  pthread_mutex_lock(&a->mu);
  for (i = 0; i < a->n; i++) tuple_free(&a->items[i]);
  a->n = 0;
  a->bytes = 0;
  pthread_cond_broadcast(&a->cv);
  pthread_mutex_unlock(&a->mu);
  tfe_resource_unref(res);
}

void tfe_register_cpu_containers_kernels(void) {
  int i;
  tfe_kutil_register("TensorArrayConcatV2", ta_concat_v2_compute, NULL, NULL,
                     0, NULL, NULL, 0);
  tfe_kutil_register("Stage", stage_put_compute, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("Unstage", unstage_compute, NULL, NULL, 0, NULL, NULL,
                     0);
  tfe_kutil_register("StagePeek", stage_peek_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("StageSize", stage_size_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("StageClear", stage_clear_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  for (i = 0; i < KUTIL_COUNT(kRemoved); i++) {
    tfe_kutil_register(kRemoved[i].name, removed_op_compute, NULL, NULL, 0,
                       NULL, NULL, 0);
  }
}
