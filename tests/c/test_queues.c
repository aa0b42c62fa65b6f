/* Queues run eagerly (FIFOQueueV2, PaddingFIFOQueueV2, RandomShuffleQueueV2
 * and the enqueue/dequeue/close/size ops) with TensorFlow's semantics:
 * order, capacity, blocking across threads, closing, cancellation, padding,
 * seeded shuffling, shared names and TF's error codes and messages.
 * Tests whose name contains "thread" also run under TSan. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "eager_test_util.h"

/* ---- helpers ---- */

typedef struct qspec {
  const char* op;  /* FIFOQueueV2, ... */
  int n;
  TF_DataType types[4];
  int num_shapes;   /* 0: no shapes attr */
  int ranks[4];
  int64_t dims[4][4];
  int64_t capacity; /* -2: leave the default */
  const char* shared_name;
  int64_t min_after_dequeue, seed, seed2; /* RandomShuffleQueueV2 */
} qspec;

static TFE_TensorHandle* make_queue(TFE_Context* ctx, const qspec* q,
                                    TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, q->op, s);
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrTypeList(op, "component_types", q->types, q->n);
  if (q->num_shapes > 0) {
    const int64_t* dims[4];
    int i;
    for (i = 0; i < q->num_shapes; i++) dims[i] = q->dims[i];
    TFE_OpSetAttrShapeList(op, "shapes", dims, q->ranks, q->num_shapes, s);
    CHECK_CODE(s, TF_OK);
  }
  if (q->capacity != -2) TFE_OpSetAttrInt(op, "capacity", q->capacity);
  if (q->shared_name != NULL) {
    TFE_OpSetAttrString(op, "shared_name", q->shared_name,
                        strlen(q->shared_name));
  }
  if (strcmp(q->op, "RandomShuffleQueueV2") == 0) {
    TFE_OpSetAttrInt(op, "min_after_dequeue", q->min_after_dequeue);
    TFE_OpSetAttrInt(op, "seed", q->seed);
    TFE_OpSetAttrInt(op, "seed2", q->seed2);
  }
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK ? out[0] : NULL;
}

/* Runs `name` on the queue with extra inputs; fills outs (num_outs) and
 * returns the status code. cm may be NULL. timeout_ms -1 leaves the
 * default. */
static TF_Code run_op(TFE_Context* ctx, const char* name, TFE_TensorHandle* q,
                      TFE_TensorHandle* const* ins, int num_ins,
                      const TF_DataType* out_types, int num_outs,
                      TFE_TensorHandle** outs, TFE_CancellationManager* cm,
                      int64_t timeout_ms, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  int i, n = num_outs;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, q, s);
  CHECK_CODE(s, TF_OK);
  if (strncmp(name, "QueueEnqueue", 12) == 0) {
    /* components: a list(type) arg, added as a list so that Tcomponents is
     * inferred. */
    TFE_OpAddInputList(op, (TFE_TensorHandle**)ins, num_ins, s);
    CHECK_CODE(s, TF_OK);
  } else {
    for (i = 0; i < num_ins; i++) {
      TFE_OpAddInput(op, ins[i], s);
      CHECK_CODE(s, TF_OK);
    }
  }
  if (out_types != NULL) {
    TFE_OpSetAttrTypeList(op, "component_types", out_types, num_outs);
  }
  if (timeout_ms != -1) TFE_OpSetAttrInt(op, "timeout_ms", timeout_ms);
  if (cm != NULL) {
    TFE_OpSetCancellationManager(op, cm, s);
    CHECK_CODE(s, TF_OK);
  }
  for (i = 0; i < num_outs; i++) outs[i] = NULL;
  TFE_Execute(op, outs, &n, s);
  TFE_DeleteOp(op);
  if (getenv("QDEBUG") && TF_GetCode(s) != TF_OK) {
    fprintf(stderr, "%s: %s\n", name, TF_Message(s));
  }
  return TF_GetCode(s);
}

static TF_Code enqueue(TFE_Context* ctx, TFE_TensorHandle* q,
                       TFE_TensorHandle* const* comps, int n, TF_Status* s) {
  return run_op(ctx, "QueueEnqueueV2", q, comps, n, NULL, 0, NULL, NULL, -1,
                s);
}

static TF_Code enqueue_i32(TFE_Context* ctx, TFE_TensorHandle* q, int32_t v,
                           TF_Status* s) {
  TF_Status* s2 = TF_NewStatus();
  TFE_TensorHandle* h = scalar_i32(v, s2);
  TF_Code c = enqueue(ctx, q, &h, 1, s);
  TFE_DeleteTensorHandle(h);
  TF_DeleteStatus(s2);
  return c;
}

/* Dequeues one int32 scalar (returns the code; *v set on success). */
static TF_Code dequeue_i32(TFE_Context* ctx, TFE_TensorHandle* q, int32_t* v,
                           TFE_CancellationManager* cm, TF_Status* s) {
  static const TF_DataType t[1] = {TF_INT32};
  TFE_TensorHandle* out[1];
  TF_Code c = run_op(ctx, "QueueDequeueV2", q, NULL, 0, t, 1, out, cm, -1, s);
  if (c == TF_OK) {
    TF_Status* s2 = TF_NewStatus();
    *v = read_i32(out[0], s2);
    TFE_DeleteTensorHandle(out[0]);
    TF_DeleteStatus(s2);
  }
  return c;
}

static TF_Code close_queue(TFE_Context* ctx, TFE_TensorHandle* q,
                           int cancel_pending, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, "QueueCloseV2", s);
  int n = 0;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, q, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrBool(op, "cancel_pending_enqueues",
                    (unsigned char)cancel_pending);
  TFE_Execute(op, NULL, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s);
}

static int32_t queue_size(TFE_Context* ctx, TFE_TensorHandle* q,
                          TF_Status* s) {
  TFE_TensorHandle* out[1];
  int32_t v;
  CHECK_EQ_INT(run_op(ctx, "QueueSizeV2", q, NULL, 0, NULL, 1, out, NULL, -1,
                      s),
               TF_OK);
  v = read_i32(out[0], s);
  TFE_DeleteTensorHandle(out[0]);
  return v;
}

static int queue_is_closed(TFE_Context* ctx, TFE_TensorHandle* q,
                           TF_Status* s) {
  TFE_TensorHandle* out[1];
  TF_Tensor* t;
  int v;
  CHECK_EQ_INT(run_op(ctx, "QueueIsClosedV2", q, NULL, 0, NULL, 1, out, NULL,
                      -1, s),
               TF_OK);
  t = TFE_TensorHandleResolve(out[0], s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_BOOL);
  v = *(const unsigned char*)TF_TensorData(t);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out[0]);
  return v;
}

/* Dequeues n elements with QueueDequeueManyV2 (up_to: QueueDequeueUpToV2)
 * of a one-component int32 queue; copies up to cap values into vals and
 * the output shape into dims/nd. */
static TF_Code dequeue_many_i32(TFE_Context* ctx, TFE_TensorHandle* q,
                                int32_t n, int up_to, int32_t* vals, int cap,
                                int64_t* dims, int* nd,
                                TFE_CancellationManager* cm, TF_Status* s) {
  static const TF_DataType t[1] = {TF_INT32};
  TF_Status* s2 = TF_NewStatus();
  TFE_TensorHandle* nh = scalar_i32(n, s2);
  TFE_TensorHandle* out[1];
  TF_Code c = run_op(ctx, up_to ? "QueueDequeueUpToV2" : "QueueDequeueManyV2",
                     q, &nh, 1, t, 1, out, cm, -1, s);
  TFE_DeleteTensorHandle(nh);
  if (c == TF_OK) {
    TF_Tensor* r = TFE_TensorHandleResolve(out[0], s2);
    int i;
    int64_t count;
    CHECK_CODE(s2, TF_OK);
    *nd = TF_NumDims(r);
    for (i = 0; i < *nd; i++) dims[i] = TF_Dim(r, i);
    count = TF_TensorElementCount(r);
    if (count > cap) count = cap;
    if (count > 0) memcpy(vals, TF_TensorData(r), (size_t)count * 4);
    TF_DeleteTensor(r);
    TFE_DeleteTensorHandle(out[0]);
  }
  TF_DeleteStatus(s2);
  return c;
}

static qspec fifo_i32(int64_t capacity) {
  qspec q;
  memset(&q, 0, sizeof q);
  q.op = "FIFOQueueV2";
  q.n = 1;
  q.types[0] = TF_INT32;
  q.num_shapes = 1;
  q.ranks[0] = 0;
  q.capacity = capacity;
  return q;
}

static void sleep_ms(int ms) {
  struct timespec ts;
  ts.tv_sec = ms / 1000;
  ts.tv_nsec = (long)(ms % 1000) * 1000000L;
  nanosleep(&ts, NULL);
}

/* ---- single-threaded semantics ---- */

TEST(fifo_order_size_and_two_components) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  qspec spec;
  TFE_TensorHandle* q;
  int i;
  memset(&spec, 0, sizeof spec);
  spec.op = "FIFOQueueV2";
  spec.n = 2;
  spec.types[0] = TF_INT32;
  spec.types[1] = TF_FLOAT;
  spec.capacity = 10;
  q = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  CHECK(q != NULL);
  CHECK(TFE_TensorHandleDataType(q) == TF_RESOURCE);
  CHECK_EQ_INT(queue_size(ctx, q, s), 0);
  CHECK_EQ_INT(queue_is_closed(ctx, q, s), 0);
  for (i = 0; i < 3; i++) {
    float f[2] = {(float)i, (float)i + 0.5f};
    int64_t d[1] = {2};
    TFE_TensorHandle* c[2];
    c[0] = scalar_i32(10 + i, s);
    c[1] = make_handle(TF_FLOAT, d, 1, f, sizeof f, s);
    CHECK_EQ_INT(enqueue(ctx, q, c, 2, s), TF_OK);
    TFE_DeleteTensorHandle(c[0]);
    TFE_DeleteTensorHandle(c[1]);
  }
  CHECK_EQ_INT(queue_size(ctx, q, s), 3);
  for (i = 0; i < 3; i++) {
    static const TF_DataType t[2] = {TF_INT32, TF_FLOAT};
    TFE_TensorHandle* out[2];
    TF_Tensor* r;
    CHECK_EQ_INT(run_op(ctx, "QueueDequeueV2", q, NULL, 0, t, 2, out, NULL,
                        -1, s),
                 TF_OK);
    CHECK_EQ_INT(read_i32(out[0], s), 10 + i);
    r = TFE_TensorHandleResolve(out[1], s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_NumDims(r), 1);
    CHECK_EQ_INT(TF_Dim(r, 0), 2);
    CHECK(((const float*)TF_TensorData(r))[1] == (float)i + 0.5f);
    TF_DeleteTensor(r);
    TFE_DeleteTensorHandle(out[0]);
    TFE_DeleteTensorHandle(out[1]);
  }
  CHECK_EQ_INT(queue_size(ctx, q, s), 0);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(closed_queue_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(-2);
  TFE_TensorHandle* q = make_queue(ctx, &spec, s);
  int32_t v = 0;
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(enqueue_i32(ctx, q, 7, s), TF_OK);
  CHECK_EQ_INT(close_queue(ctx, q, 0, s), TF_OK);
  CHECK_EQ_INT(queue_is_closed(ctx, q, s), 1);
  /* Enqueue on a closed queue: CANCELLED. */
  CHECK_EQ_INT(enqueue_i32(ctx, q, 8, s), TF_CANCELLED);
  CHECK_STR_CONTAINS(TF_Message(s), "FIFOQueue '_");
  CHECK_STR_CONTAINS(TF_Message(s), "_FIFOQueueV2' is closed.");
  /* Elements still there are dequeued... */
  CHECK_EQ_INT(dequeue_i32(ctx, q, &v, NULL, s), TF_OK);
  CHECK_EQ_INT(v, 7);
  /* ...then the closed empty queue is OUT_OF_RANGE. */
  CHECK_EQ_INT(dequeue_i32(ctx, q, &v, NULL, s), TF_OUT_OF_RANGE);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "_FIFOQueueV2' is closed and has insufficient elements "
                     "(requested 1, current size 0)");
  /* Closing twice. */
  CHECK_EQ_INT(close_queue(ctx, q, 0, s), TF_CANCELLED);
  CHECK_STR_CONTAINS(TF_Message(s), "' is already closed.");
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(enqueue_many_dequeue_many_and_up_to) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec;
  TFE_TensorHandle* q;
  TFE_TensorHandle* batch;
  int32_t data[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  int64_t d[2] = {5, 2};
  int32_t got[16];
  int64_t dims[4];
  int nd = 0;
  memset(&spec, 0, sizeof spec);
  spec.op = "FIFOQueueV2";
  spec.n = 1;
  spec.types[0] = TF_INT32;
  spec.num_shapes = 1;
  spec.ranks[0] = 1;
  spec.dims[0][0] = 2;
  spec.capacity = -2;
  q = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  batch = make_handle(TF_INT32, d, 2, data, sizeof data, s);
  CHECK_EQ_INT(run_op(ctx, "QueueEnqueueManyV2", q, &batch, 1, NULL, 0, NULL,
                      NULL, -1, s),
               TF_OK);
  CHECK_EQ_INT(queue_size(ctx, q, s), 5);
  CHECK_EQ_INT(dequeue_many_i32(ctx, q, 3, 0, got, 16, dims, &nd, NULL, s),
               TF_OK);
  CHECK_EQ_INT(nd, 2);
  CHECK_EQ_INT(dims[0], 3);
  CHECK_EQ_INT(dims[1], 2);
  CHECK_EQ_INT(got[0], 0);
  CHECK_EQ_INT(got[5], 5);
  /* n = 0: an empty batch at once. */
  CHECK_EQ_INT(dequeue_many_i32(ctx, q, 0, 0, got, 16, dims, &nd, NULL, s),
               TF_OK);
  CHECK_EQ_INT(dims[0], 0);
  CHECK_EQ_INT(dims[1], 2);
  /* Closed with 2 left: DequeueMany(3) fails and puts them back... */
  CHECK_EQ_INT(close_queue(ctx, q, 0, s), TF_OK);
  CHECK_EQ_INT(dequeue_many_i32(ctx, q, 3, 0, got, 16, dims, &nd, NULL, s),
               TF_OUT_OF_RANGE);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "is closed and has insufficient elements (requested 3, "
                     "current size 2)");
  CHECK_EQ_INT(queue_size(ctx, q, s), 2);
  /* ...and DequeueUpTo(3) returns the 2 that are left, in order. */
  CHECK_EQ_INT(dequeue_many_i32(ctx, q, 3, 1, got, 16, dims, &nd, NULL, s),
               TF_OK);
  CHECK_EQ_INT(dims[0], 2);
  CHECK_EQ_INT(got[0], 6);
  CHECK_EQ_INT(got[3], 9);
  CHECK_EQ_INT(dequeue_many_i32(ctx, q, 3, 1, got, 16, dims, &nd, NULL, s),
               TF_OUT_OF_RANGE);
  CHECK_STR_CONTAINS(TF_Message(s), "(requested 3, current size 0)");
  TFE_DeleteTensorHandle(batch);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(strings_enqueue_many_and_dequeue_many) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec;
  TFE_TensorHandle* q;
  TFE_TensorHandle* batch;
  TFE_TensorHandle* out[1];
  TFE_TensorHandle* nh;
  static const TF_DataType st[1] = {TF_STRING};
  int64_t d[1] = {3};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, d, 1, 3 * sizeof(TF_TString));
  TF_TString* ts = (TF_TString*)TF_TensorData(t);
  TF_Tensor* r;
  const char* words[3] = {"alpha", "a rather long string beyond inline size",
                          ""};
  int i;
  memset(&spec, 0, sizeof spec);
  spec.op = "FIFOQueueV2";
  spec.n = 1;
  spec.types[0] = TF_STRING;
  spec.num_shapes = 1;
  spec.ranks[0] = 0;
  spec.capacity = -2;
  q = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 3; i++) TF_TString_Copy(&ts[i], words[i], strlen(words[i]));
  batch = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(run_op(ctx, "QueueEnqueueManyV2", q, &batch, 1, NULL, 0, NULL,
                      NULL, -1, s),
               TF_OK);
  TFE_DeleteTensorHandle(batch);
  nh = scalar_i32(3, s);
  CHECK_EQ_INT(run_op(ctx, "QueueDequeueManyV2", q, &nh, 1, st, 1, out, NULL,
                      -1, s),
               TF_OK);
  r = TFE_TensorHandleResolve(out[0], s);
  CHECK_CODE(s, TF_OK);
  ts = (TF_TString*)TF_TensorData(r);
  for (i = 0; i < 3; i++) {
    CHECK_EQ_SIZE(TF_TString_GetSize(&ts[i]), strlen(words[i]));
    CHECK(memcmp(TF_TString_GetDataPointer(&ts[i]), words[i],
                 strlen(words[i])) == 0);
  }
  TF_DeleteTensor(r);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(nh);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(padding_fifo_pads_dequeue_many) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec;
  TFE_TensorHandle* q;
  int32_t got[16];
  int64_t dims[4];
  int nd = 0, i;
  memset(&spec, 0, sizeof spec);
  spec.op = "PaddingFIFOQueueV2";
  spec.n = 1;
  spec.types[0] = TF_INT32;
  spec.num_shapes = 1;
  spec.ranks[0] = 1;
  spec.dims[0][0] = -1;
  spec.capacity = -2;
  q = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  for (i = 1; i <= 3; i += 2) { /* vectors of 1 and 3 elements */
    int32_t v[3] = {i, i + 10, i + 20};
    int64_t d[1] = {i};
    TFE_TensorHandle* h = make_handle(TF_INT32, d, 1, v, (size_t)i * 4, s);
    CHECK_EQ_INT(enqueue(ctx, q, &h, 1, s), TF_OK);
    TFE_DeleteTensorHandle(h);
  }
  {
    /* A matrix does not match the rank-1 shape. */
    int32_t v[4] = {0};
    int64_t d[2] = {2, 2};
    TFE_TensorHandle* h = make_handle(TF_INT32, d, 2, v, sizeof v, s);
    CHECK_EQ_INT(enqueue(ctx, q, &h, 1, s), TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "Shape mismatch in tuple component 0. Expected [?], "
                       "got [2,2]");
    TFE_DeleteTensorHandle(h);
  }
  CHECK_EQ_INT(dequeue_many_i32(ctx, q, 2, 0, got, 16, dims, &nd, NULL, s),
               TF_OK);
  CHECK_EQ_INT(nd, 2);
  CHECK_EQ_INT(dims[0], 2);
  CHECK_EQ_INT(dims[1], 3);
  /* [[1,0,0],[3,13,23]] */
  CHECK_EQ_INT(got[0], 1);
  CHECK_EQ_INT(got[1], 0);
  CHECK_EQ_INT(got[2], 0);
  CHECK_EQ_INT(got[3], 3);
  CHECK_EQ_INT(got[4], 13);
  CHECK_EQ_INT(got[5], 23);
  TFE_DeleteTensorHandle(q);
  /* Padding queues need a shape per component. */
  spec.num_shapes = 0;
  q = make_queue(ctx, &spec, s);
  CHECK(q == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Shapes must be provided for all components, but "
                     "received 1 dtypes and 0 shapes.");
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(padding_fifo_pads_matrices) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec;
  TFE_TensorHandle* q;
  int32_t got[32];
  int64_t dims[4];
  int nd = 0;
  int32_t a[2] = {1, 2};             /* [1,2] */
  int32_t b[6] = {3, 4, 5, 6, 7, 8}; /* [3,2]... as [2,3]? no: [3,2] */
  int64_t da[2] = {1, 2}, db[2] = {3, 2};
  TFE_TensorHandle* h;
  memset(&spec, 0, sizeof spec);
  spec.op = "PaddingFIFOQueueV2";
  spec.n = 1;
  spec.types[0] = TF_INT32;
  spec.num_shapes = 1;
  spec.ranks[0] = 2;
  spec.dims[0][0] = -1;
  spec.dims[0][1] = 2;
  spec.capacity = -2;
  q = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  h = make_handle(TF_INT32, da, 2, a, sizeof a, s);
  CHECK_EQ_INT(enqueue(ctx, q, &h, 1, s), TF_OK);
  TFE_DeleteTensorHandle(h);
  h = make_handle(TF_INT32, db, 2, b, sizeof b, s);
  CHECK_EQ_INT(enqueue(ctx, q, &h, 1, s), TF_OK);
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_INT(dequeue_many_i32(ctx, q, 2, 0, got, 32, dims, &nd, NULL, s),
               TF_OK);
  CHECK_EQ_INT(nd, 3);
  CHECK_EQ_INT(dims[0], 2);
  CHECK_EQ_INT(dims[1], 3);
  CHECK_EQ_INT(dims[2], 2);
  {
    static const int32_t want[12] = {1, 2, 0, 0, 0, 0, 3, 4, 5, 6, 7, 8};
    int i;
    for (i = 0; i < 12; i++) CHECK_EQ_INT(got[i], want[i]);
  }
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

static void shuffle_order(TFE_Context* ctx, int64_t seed, int64_t seed2,
                          int32_t* order, TF_Status* s) {
  qspec spec = fifo_i32(-2);
  TFE_TensorHandle* q;
  int i;
  spec.op = "RandomShuffleQueueV2";
  spec.seed = seed;
  spec.seed2 = seed2;
  q = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 20; i++) CHECK_EQ_INT(enqueue_i32(ctx, q, i, s), TF_OK);
  for (i = 0; i < 20; i++) {
    CHECK_EQ_INT(dequeue_i32(ctx, q, &order[i], NULL, s), TF_OK);
  }
  TFE_DeleteTensorHandle(q);
}

TEST(random_shuffle_is_a_seeded_permutation) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int32_t a[20], b[20], c[20];
  int seen[20] = {0};
  int i, same = 1, sorted = 1;
  shuffle_order(ctx, 87654321, 12, a, s);
  /* A second context: the kernel (and its queue) is not shared. */
  {
    TFE_Context* ctx2 = new_ctx(s);
    shuffle_order(ctx2, 87654321, 12, b, s);
    TFE_DeleteContext(ctx2);
  }
  shuffle_order(ctx, 1, 2, c, s);
  for (i = 0; i < 20; i++) {
    CHECK(a[i] >= 0 && a[i] < 20);
    seen[a[i]]++;
    CHECK_EQ_INT(a[i], b[i]);
    if (a[i] != c[i]) same = 0;
    if (a[i] != i) sorted = 0;
  }
  for (i = 0; i < 20; i++) CHECK_EQ_INT(seen[i], 1);
  CHECK(!same);
  CHECK(!sorted);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(random_shuffle_attr_checks) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(5);
  spec.op = "RandomShuffleQueueV2";
  spec.min_after_dequeue = 5;
  CHECK(make_queue(ctx, &spec, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "min_after_dequeue 5 must be < capacity 5");
  spec.min_after_dequeue = -1;
  CHECK(make_queue(ctx, &spec, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "min_after_dequeue -1 must be >= 0");
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(shared_name_shares_and_checks_the_queue) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(10);
  TFE_TensorHandle* q1;
  TFE_TensorHandle* q2;
  int32_t v = 0;
  spec.shared_name = "shared_q";
  q1 = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  /* Another op with other attrs but the same name finds the same queue. */
  spec.ranks[0] = 0;
  spec.num_shapes = 1;
  {
    TFE_Op* op = TFE_NewOp(ctx, "FIFOQueueV2", s);
    TFE_TensorHandle* out[1];
    int n = 1;
    const int64_t* dims[1] = {spec.dims[0]};
    TFE_OpSetAttrTypeList(op, "component_types", spec.types, 1);
    TFE_OpSetAttrShapeList(op, "shapes", dims, spec.ranks, 1, s);
    TFE_OpSetAttrInt(op, "capacity", 10);
    TFE_OpSetAttrString(op, "shared_name", "shared_q", 8);
    TFE_OpSetAttrString(op, "container", "localhost", 9);
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_OK);
    q2 = out[0];
    TFE_DeleteOp(op);
  }
  CHECK_EQ_INT(enqueue_i32(ctx, q1, 42, s), TF_OK);
  CHECK_EQ_INT(queue_size(ctx, q2, s), 1);
  CHECK_EQ_INT(dequeue_i32(ctx, q2, &v, NULL, s), TF_OK);
  CHECK_EQ_INT(v, 42);
  /* A different capacity under the same name is refused. */
  spec.capacity = 5;
  CHECK(make_queue(ctx, &spec, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Shared queue 'shared_q' has capacity 10 but requested "
                     "capacity was 5");
  spec.capacity = 10;
  spec.types[0] = TF_FLOAT;
  CHECK(make_queue(ctx, &spec, s) == NULL);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Shared queue 'shared_q' has component types int32 but "
                     "requested component types were float");
  spec.types[0] = TF_INT32;
  spec.op = "PaddingFIFOQueueV2";
  CHECK(make_queue(ctx, &spec, s) == NULL);
  CHECK_STR_CONTAINS(TF_Message(s), "Expected FIFOQueue, found PaddingFIFOQueueV2");
  TFE_DeleteTensorHandle(q1);
  TFE_DeleteTensorHandle(q2);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(same_unnamed_kernel_returns_the_same_queue) {
  /* As in TF: the kernel keeps the queue it made, so running the same op
   * with the same attrs again in one context gives the same queue (TF's
   * Python layer passes a unique shared_name in eager mode for that
   * reason). */
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(-2);
  TFE_TensorHandle* q1 = make_queue(ctx, &spec, s);
  TFE_TensorHandle* q2 = make_queue(ctx, &spec, s);
  TFE_TensorHandle* q3;
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(enqueue_i32(ctx, q1, 1, s), TF_OK);
  CHECK_EQ_INT(queue_size(ctx, q2, s), 1);
  spec.capacity = 3; /* other attrs: another kernel, another queue */
  q3 = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(queue_size(ctx, q3, s), 0);
  TFE_DeleteTensorHandle(q1);
  TFE_DeleteTensorHandle(q2);
  TFE_DeleteTensorHandle(q3);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(argument_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec;
  TFE_TensorHandle* q;
  TFE_TensorHandle* h;
  TFE_TensorHandle* out[1];
  int32_t got[4];
  int64_t dims[4];
  int nd;
  static const TF_DataType f32[1] = {TF_FLOAT};
  memset(&spec, 0, sizeof spec);
  spec.op = "FIFOQueueV2";
  spec.n = 1;
  spec.types[0] = TF_INT32;
  spec.num_shapes = 1;
  spec.ranks[0] = 1;
  spec.dims[0][0] = 2;
  spec.capacity = -2;
  q = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  /* Wrong dtype. */
  h = scalar_f32(1.0f, s);
  CHECK_EQ_INT(enqueue(ctx, q, &h, 1, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Signature mismatch, have: resource, float-> expected: "
                     "resource, int32->");
  TFE_DeleteTensorHandle(h);
  /* Wrong shape. */
  {
    int32_t v[3] = {1, 2, 3};
    int64_t d[1] = {3};
    h = make_handle(TF_INT32, d, 1, v, sizeof v, s);
    CHECK_EQ_INT(enqueue(ctx, q, &h, 1, s), TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "Shape mismatch in tuple component 0. Expected [2], "
                       "got [3]");
    CHECK_EQ_INT(run_op(ctx, "QueueEnqueueManyV2", q, &h, 1, NULL, 0, NULL,
                        NULL, -1, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "Shape mismatch in tuple component 0. Expected [3,2], "
                       "got [3]");
    TFE_DeleteTensorHandle(h);
  }
  /* Dequeue with other component types. */
  CHECK_EQ_INT(run_op(ctx, "QueueDequeueV2", q, NULL, 0, f32, 1, out, NULL,
                      -1, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Signature mismatch, have: resource->float expected: "
                     "resource->int32");
  /* timeout_ms is refused as TF refuses it. */
  {
    static const TF_DataType i32[1] = {TF_INT32};
    CHECK_EQ_INT(run_op(ctx, "QueueDequeueV2", q, NULL, 0, i32, 1, out, NULL,
                        100, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "Timeout not supported yet.");
  }
  /* Negative n. */
  CHECK_EQ_INT(dequeue_many_i32(ctx, q, -1, 0, got, 4, dims, &nd, NULL, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "DequeueManyOp requested -1 < 0 elements");
  CHECK_EQ_INT(dequeue_many_i32(ctx, q, -2, 1, got, 4, dims, &nd, NULL, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "DequeueUpToOp requested -2 < 0 elements");
  TFE_DeleteTensorHandle(q);
  /* DequeueMany needs shapes. */
  spec.num_shapes = 0;
  spec.ranks[0] = 0;
  q = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(dequeue_many_i32(ctx, q, 1, 0, got, 4, dims, &nd, NULL, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "FIFOQueue's DequeueMany and DequeueUpTo require the "
                     "components to have specified shapes.");
  /* A FIFO queue's shapes must be fully defined. */
  TFE_DeleteTensorHandle(q);
  spec.num_shapes = 1;
  spec.ranks[0] = 1;
  spec.dims[0][0] = -1;
  CHECK(make_queue(ctx, &spec, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Shape [?] is not fully defined");
  /* Shapes and types must pair up. */
  spec.n = 2;
  spec.types[1] = TF_FLOAT;
  spec.dims[0][0] = 2;
  CHECK(make_queue(ctx, &spec, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Different number of component types.  Types: int32, "
                     "float, Shapes: [[2]]");
  /* A handle that is not a queue. */
  h = scalar_i32(3, s);
  CHECK_EQ_INT(run_op(ctx, "QueueSizeV2", h, NULL, 0, NULL, 1, out, NULL, -1,
                      s),
               TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(eager_v1_ref_handle_queue) {
  /* TF 1's ops eagerly: FIFOQueue hands out a Ref(string) handle naming
   * [container, name]; the V1 access ops find the queue by that name. */
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(-2);
  TFE_TensorHandle* q;
  TFE_TensorHandle* out[1];
  TF_Tensor* t;
  int32_t v = 0;
  spec.op = "FIFOQueue";
  q = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(q, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_STRING);
  CHECK_EQ_INT(TF_TensorElementCount(t), 2);
  {
    const TF_TString* hv = (const TF_TString*)TF_TensorData(t);
    CHECK(TF_TString_GetSize(&hv[0]) == 9);
    CHECK(memcmp(TF_TString_GetDataPointer(&hv[0]), "localhost", 9) == 0);
    CHECK(memcmp(TF_TString_GetDataPointer(&hv[1]), "_0_FIFOQueue", 12) == 0);
  }
  TF_DeleteTensor(t);
  {
    TFE_TensorHandle* h = scalar_i32(5, s);
    CHECK_EQ_INT(run_op(ctx, "QueueEnqueue", q, &h, 1, NULL, 0, NULL, NULL,
                        -1, s),
                 TF_OK);
    TFE_DeleteTensorHandle(h);
  }
  CHECK_EQ_INT(run_op(ctx, "QueueSize", q, NULL, 0, NULL, 1, out, NULL, -1,
                      s),
               TF_OK);
  CHECK_EQ_INT(read_i32(out[0], s), 1);
  TFE_DeleteTensorHandle(out[0]);
  {
    static const TF_DataType i32[1] = {TF_INT32};
    CHECK_EQ_INT(run_op(ctx, "QueueDequeue", q, NULL, 0, i32, 1, out, NULL,
                        -1, s),
                 TF_OK);
    v = read_i32(out[0], s);
    TFE_DeleteTensorHandle(out[0]);
  }
  CHECK_EQ_INT(v, 5);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- threads ---- */

typedef struct worker {
  TFE_Context* ctx;
  TFE_TensorHandle* q;
  TFE_CancellationManager* cm;
  int count;
  int first;
  TF_Code code;
  char msg[512];
  int32_t value;
  int32_t many[64];
  int64_t dims[4];
  int nd;
} worker;

static void worker_done(worker* w, TF_Status* s) {
  w->code = TF_GetCode(s);
  snprintf(w->msg, sizeof w->msg, "%s", TF_Message(s));
}

static void* producer(void* arg) {
  worker* w = (worker*)arg;
  TF_Status* s = TF_NewStatus();
  int i;
  w->code = TF_OK;
  for (i = 0; i < w->count; i++) {
    if (enqueue_i32(w->ctx, w->q, w->first + i, s) != TF_OK) break;
  }
  worker_done(w, s);
  TF_DeleteStatus(s);
  return NULL;
}

static void* one_dequeue(void* arg) {
  worker* w = (worker*)arg;
  TF_Status* s = TF_NewStatus();
  dequeue_i32(w->ctx, w->q, &w->value, w->cm, s);
  worker_done(w, s);
  TF_DeleteStatus(s);
  return NULL;
}

static void* many_dequeue(void* arg) {
  worker* w = (worker*)arg;
  TF_Status* s = TF_NewStatus();
  dequeue_many_i32(w->ctx, w->q, w->count, 0, w->many, 64, w->dims, &w->nd,
                   w->cm, s);
  worker_done(w, s);
  TF_DeleteStatus(s);
  return NULL;
}

static void* one_enqueue(void* arg) {
  worker* w = (worker*)arg;
  TF_Status* s = TF_NewStatus();
  TFE_TensorHandle* h = scalar_i32(w->first, s);
  run_op(w->ctx, "QueueEnqueueV2", w->q, &h, 1, NULL, 0, NULL, w->cm, -1, s);
  worker_done(w, s);
  TFE_DeleteTensorHandle(h);
  TF_DeleteStatus(s);
  return NULL;
}

TEST(thread_producer_consumer_through_a_small_queue) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(2);
  TFE_TensorHandle* q = make_queue(ctx, &spec, s);
  worker w[2];
  pthread_t th[2];
  int i, next[2] = {0, 1000};
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 2; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].ctx = ctx;
    w[i].q = q;
    w[i].count = 100;
    w[i].first = i * 1000;
    CHECK(pthread_create(&th[i], NULL, producer, &w[i]) == 0);
  }
  /* Each producer's elements come out in its order; the queue never holds
   * more than its capacity. */
  for (i = 0; i < 200; i++) {
    int32_t v = -1;
    CHECK_EQ_INT(dequeue_i32(ctx, q, &v, NULL, s), TF_OK);
    if (v < 1000) {
      CHECK_EQ_INT(v, next[0]);
      next[0]++;
    } else {
      CHECK_EQ_INT(v, next[1]);
      next[1]++;
    }
    CHECK(queue_size(ctx, q, s) <= 2);
  }
  for (i = 0; i < 2; i++) {
    pthread_join(th[i], NULL);
    CHECK_EQ_INT(w[i].code, TF_OK);
  }
  CHECK_EQ_INT(next[0], 100);
  CHECK_EQ_INT(next[1], 1100);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(thread_blocked_dequeue_ends_out_of_range_on_close) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(-2);
  TFE_TensorHandle* q = make_queue(ctx, &spec, s);
  worker w;
  pthread_t th;
  CHECK_CODE(s, TF_OK);
  memset(&w, 0, sizeof w);
  w.ctx = ctx;
  w.q = q;
  CHECK(pthread_create(&th, NULL, one_dequeue, &w) == 0);
  sleep_ms(50);
  CHECK_EQ_INT(close_queue(ctx, q, 0, s), TF_OK);
  pthread_join(th, NULL);
  CHECK_EQ_INT(w.code, TF_OUT_OF_RANGE);
  CHECK_STR_CONTAINS(w.msg, "(requested 1, current size 0)");
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(thread_blocked_dequeue_gets_a_later_enqueue) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(-2);
  TFE_TensorHandle* q = make_queue(ctx, &spec, s);
  worker w;
  pthread_t th;
  CHECK_CODE(s, TF_OK);
  memset(&w, 0, sizeof w);
  w.ctx = ctx;
  w.q = q;
  CHECK(pthread_create(&th, NULL, one_dequeue, &w) == 0);
  sleep_ms(30);
  CHECK_EQ_INT(enqueue_i32(ctx, q, 99, s), TF_OK);
  pthread_join(th, NULL);
  CHECK_EQ_INT(w.code, TF_OK);
  CHECK_EQ_INT(w.value, 99);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(thread_cancel_wakes_blocked_dequeue_and_enqueue) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(1);
  TFE_TensorHandle* q = make_queue(ctx, &spec, s);
  TFE_CancellationManager* cm = TFE_NewCancellationManager();
  worker w;
  pthread_t th;
  int32_t v = 0;
  CHECK_CODE(s, TF_OK);
  /* A dequeue on the empty queue waits until the manager cancels it. */
  memset(&w, 0, sizeof w);
  w.ctx = ctx;
  w.q = q;
  w.cm = cm;
  CHECK(pthread_create(&th, NULL, one_dequeue, &w) == 0);
  sleep_ms(50);
  TFE_CancellationManagerStartCancel(cm);
  pthread_join(th, NULL);
  CHECK_EQ_INT(w.code, TF_CANCELLED);
  TFE_DeleteCancellationManager(cm);
  /* The queue still works; an enqueue into the full queue is cancelled the
   * same way. */
  CHECK_EQ_INT(enqueue_i32(ctx, q, 5, s), TF_OK);
  cm = TFE_NewCancellationManager();
  memset(&w, 0, sizeof w);
  w.ctx = ctx;
  w.q = q;
  w.cm = cm;
  w.first = 6;
  CHECK(pthread_create(&th, NULL, one_enqueue, &w) == 0);
  sleep_ms(50);
  TFE_CancellationManagerStartCancel(cm);
  pthread_join(th, NULL);
  CHECK_EQ_INT(w.code, TF_CANCELLED);
  TFE_DeleteCancellationManager(cm);
  CHECK_EQ_INT(queue_size(ctx, q, s), 1);
  CHECK_EQ_INT(dequeue_i32(ctx, q, &v, NULL, s), TF_OK);
  CHECK_EQ_INT(v, 5);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(thread_cancelled_dequeue_message) {
  /* The manager fires while the dequeue is known to wait: the message is
   * TF's queue message. */
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(-2);
  TFE_TensorHandle* q = make_queue(ctx, &spec, s);
  TFE_CancellationManager* cm = TFE_NewCancellationManager();
  worker w;
  pthread_t th;
  CHECK_CODE(s, TF_OK);
  memset(&w, 0, sizeof w);
  w.ctx = ctx;
  w.q = q;
  w.cm = cm;
  CHECK(pthread_create(&th, NULL, one_dequeue, &w) == 0);
  sleep_ms(200);
  TFE_CancellationManagerStartCancel(cm);
  pthread_join(th, NULL);
  CHECK_EQ_INT(w.code, TF_CANCELLED);
  CHECK_STR_EQ(w.msg, "Dequeue operation was cancelled");
  TFE_DeleteCancellationManager(cm);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(thread_close_cancels_pending_enqueues) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(1);
  TFE_TensorHandle* q = make_queue(ctx, &spec, s);
  worker w;
  pthread_t th;
  int32_t v = 0;
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(enqueue_i32(ctx, q, 1, s), TF_OK);
  memset(&w, 0, sizeof w);
  w.ctx = ctx;
  w.q = q;
  w.first = 2;
  CHECK(pthread_create(&th, NULL, one_enqueue, &w) == 0);
  sleep_ms(50);
  CHECK_EQ_INT(close_queue(ctx, q, 1, s), TF_OK);
  pthread_join(th, NULL);
  CHECK_EQ_INT(w.code, TF_CANCELLED);
  /* Either the enqueue was waiting (cancelled) or it came after the close
   * (the queue is closed). */
  CHECK(strcmp(w.msg, "Enqueue operation was cancelled") == 0 ||
        strstr(w.msg, "is closed.") != NULL);
  CHECK_EQ_INT(dequeue_i32(ctx, q, &v, NULL, s), TF_OK);
  CHECK_EQ_INT(v, 1);
  CHECK_EQ_INT(dequeue_i32(ctx, q, &v, NULL, s), TF_OUT_OF_RANGE);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

static void* plain_close(void* arg) {
  worker* w = (worker*)arg;
  TF_Status* s = TF_NewStatus();
  close_queue(w->ctx, w->q, 0, s);
  worker_done(w, s);
  TF_DeleteStatus(s);
  return NULL;
}

TEST(thread_plain_close_waits_for_pending_enqueue) {
  /* Without cancel_pending_enqueues a close is served after the enqueues
   * that came before it (TF orders them): it waits for a blocked enqueue,
   * which then still gets its element in. */
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(1);
  TFE_TensorHandle* q = make_queue(ctx, &spec, s);
  worker we, wc;
  pthread_t te, tc;
  int32_t v = 0;
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(enqueue_i32(ctx, q, 1, s), TF_OK);
  memset(&we, 0, sizeof we);
  we.ctx = ctx;
  we.q = q;
  we.first = 2;
  CHECK(pthread_create(&te, NULL, one_enqueue, &we) == 0);
  sleep_ms(50);
  wc = we;
  CHECK(pthread_create(&tc, NULL, plain_close, &wc) == 0);
  sleep_ms(50);
  /* Both wait: the queue is full and the close is behind the enqueue. */
  CHECK_EQ_INT(queue_is_closed(ctx, q, s), 0);
  CHECK_EQ_INT(dequeue_i32(ctx, q, &v, NULL, s), TF_OK);
  CHECK_EQ_INT(v, 1);
  pthread_join(te, NULL);
  pthread_join(tc, NULL);
  CHECK_EQ_INT(we.code, TF_OK);
  CHECK_EQ_INT(wc.code, TF_OK);
  CHECK_EQ_INT(queue_is_closed(ctx, q, s), 1);
  CHECK_EQ_INT(dequeue_i32(ctx, q, &v, NULL, s), TF_OK);
  CHECK_EQ_INT(v, 2);
  CHECK_EQ_INT(dequeue_i32(ctx, q, &v, NULL, s), TF_OUT_OF_RANGE);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(thread_dequeue_many_larger_than_capacity) {
  /* DequeueMany(5) on a queue of capacity 2 takes elements as they come,
   * so producers are never stuck behind it. */
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(2);
  TFE_TensorHandle* q = make_queue(ctx, &spec, s);
  worker w;
  pthread_t th;
  int i;
  CHECK_CODE(s, TF_OK);
  memset(&w, 0, sizeof w);
  w.ctx = ctx;
  w.q = q;
  w.count = 5;
  CHECK(pthread_create(&th, NULL, many_dequeue, &w) == 0);
  for (i = 0; i < 5; i++) CHECK_EQ_INT(enqueue_i32(ctx, q, 10 + i, s), TF_OK);
  pthread_join(th, NULL);
  CHECK_EQ_INT(w.code, TF_OK);
  CHECK_EQ_INT(w.nd, 1);
  CHECK_EQ_INT(w.dims[0], 5);
  for (i = 0; i < 5; i++) CHECK_EQ_INT(w.many[i], 10 + i);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(thread_min_after_dequeue_holds_elements_until_close) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  qspec spec = fifo_i32(10);
  TFE_TensorHandle* q;
  worker w;
  pthread_t th;
  int i, seen = 0;
  spec.op = "RandomShuffleQueueV2";
  spec.min_after_dequeue = 3;
  spec.seed = 7;
  q = make_queue(ctx, &spec, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 3; i++) CHECK_EQ_INT(enqueue_i32(ctx, q, i, s), TF_OK);
  /* 3 elements, min_after_dequeue 3: a dequeue waits. */
  memset(&w, 0, sizeof w);
  w.ctx = ctx;
  w.q = q;
  CHECK(pthread_create(&th, NULL, one_dequeue, &w) == 0);
  sleep_ms(50);
  CHECK_EQ_INT(queue_size(ctx, q, s), 3);
  /* One more lets it through. */
  CHECK_EQ_INT(enqueue_i32(ctx, q, 3, s), TF_OK);
  pthread_join(th, NULL);
  CHECK_EQ_INT(w.code, TF_OK);
  seen |= 1 << w.value;
  CHECK_EQ_INT(queue_size(ctx, q, s), 3);
  /* Once closed, the rest comes out. */
  CHECK_EQ_INT(close_queue(ctx, q, 0, s), TF_OK);
  for (i = 0; i < 3; i++) {
    int32_t v = -1;
    CHECK_EQ_INT(dequeue_i32(ctx, q, &v, NULL, s), TF_OK);
    seen |= 1 << v;
  }
  CHECK_EQ_INT(seen, 0xF);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- sessions: a queue node runs in graphs, and persists across runs ---- */

typedef struct qgraph {
  TF_Graph* g;
  TF_Operation *q, *x, *enq, *deq, *close, *size;
} qgraph;

static TF_Operation* finish(TF_OperationDescription* d, TF_Status* s) {
  TF_Operation* op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  return op;
}

/* v1: TF 1's ops (FIFOQueue, QueueEnqueue, ...) with a Ref(string)
 * handle instead of the V2 ops' resource handle. */
static void make_qgraph_ops(qgraph* qg, int64_t capacity, int v1,
                            TF_Status* s) {
  static const TF_DataType i32[1] = {TF_INT32};
  TF_OperationDescription* d;
  TF_Output in;
  const char* sfx = v1 ? "" : "V2";
  char op[64];
  qg->g = TF_NewGraph();
  snprintf(op, sizeof op, "FIFOQueue%s", sfx);
  d = TF_NewOperation(qg->g, op, "q");
  TF_SetAttrTypeList(d, "component_types", i32, 1);
  TF_SetAttrInt(d, "capacity", capacity);
  qg->q = finish(d, s);
  d = TF_NewOperation(qg->g, "Placeholder", "x");
  TF_SetAttrType(d, "dtype", TF_INT32);
  qg->x = finish(d, s);
  snprintf(op, sizeof op, "QueueEnqueue%s", sfx);
  d = TF_NewOperation(qg->g, op, "enq");
  in.oper = qg->q;
  in.index = 0;
  TF_AddInput(d, in);
  in.oper = qg->x;
  TF_AddInputList(d, &in, 1);
  qg->enq = finish(d, s);
  snprintf(op, sizeof op, "QueueDequeue%s", sfx);
  d = TF_NewOperation(qg->g, op, "deq");
  in.oper = qg->q;
  TF_AddInput(d, in);
  TF_SetAttrTypeList(d, "component_types", i32, 1);
  qg->deq = finish(d, s);
  snprintf(op, sizeof op, "QueueClose%s", sfx);
  d = TF_NewOperation(qg->g, op, "close");
  TF_AddInput(d, in);
  qg->close = finish(d, s);
  snprintf(op, sizeof op, "QueueSize%s", sfx);
  d = TF_NewOperation(qg->g, op, "size");
  TF_AddInput(d, in);
  qg->size = finish(d, s);
}

static void make_qgraph(qgraph* qg, int64_t capacity, TF_Status* s) {
  make_qgraph_ops(qg, capacity, 0, s);
}

static TF_Session* new_session(TF_Graph* g, TF_Status* s) {
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, o, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSessionOptions(o);
  return sess;
}

static void run_enqueue(TF_Session* sess, const qgraph* qg, int32_t v,
                        TF_Status* s) {
  TF_Output feed;
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
  const TF_Operation* target = qg->enq;
  *(int32_t*)TF_TensorData(t) = v;
  feed.oper = qg->x;
  feed.index = 0;
  TF_SessionRun(sess, NULL, &feed, &t, 1, NULL, NULL, 0, &target, 1, NULL, s);
  TF_DeleteTensor(t);
}

/* Runs deq; returns the code and the value in *v. */
static TF_Code run_dequeue(TF_Session* sess, const qgraph* qg, int32_t* v,
                           TF_Status* s) {
  TF_Output fetch;
  TF_Tensor* out = NULL;
  fetch.oper = qg->deq;
  fetch.index = 0;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fetch, &out, 1, NULL, 0, NULL, s);
  if (TF_GetCode(s) == TF_OK) {
    CHECK(out != NULL);
    *v = *(int32_t*)TF_TensorData(out);
    TF_DeleteTensor(out);
  } else {
    CHECK(out == NULL);
  }
  return TF_GetCode(s);
}

static int32_t run_size(TF_Session* sess, const qgraph* qg, TF_Status* s) {
  TF_Output fetch;
  TF_Tensor* out = NULL;
  int32_t v;
  fetch.oper = qg->size;
  fetch.index = 0;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fetch, &out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  v = *(int32_t*)TF_TensorData(out);
  TF_DeleteTensor(out);
  return v;
}

static void session_queue_test(int v1) {
  TF_Status* s = TF_NewStatus();
  qgraph qg;
  TF_Session* sess;
  TF_Session* other;
  int32_t v = 0;
  make_qgraph_ops(&qg, -1, v1, s);
  sess = new_session(qg.g, s);
  run_enqueue(sess, &qg, 1, s);
  CHECK_CODE(s, TF_OK);
  run_enqueue(sess, &qg, 2, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(run_size(sess, &qg, s), 2);
  /* Another session of the same graph has its own queue. */
  other = new_session(qg.g, s);
  CHECK_EQ_INT(run_size(other, &qg, s), 0);
  CHECK_EQ_INT(run_dequeue(sess, &qg, &v, s), TF_OK);
  CHECK_EQ_INT(v, 1);
  CHECK_EQ_INT(run_dequeue(sess, &qg, &v, s), TF_OK);
  CHECK_EQ_INT(v, 2);
  /* Closed and empty: OUT_OF_RANGE with TF's name for the node's queue. */
  {
    const TF_Operation* target = qg.close;
    TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, &target, 1, NULL,
                  s);
  }
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(run_dequeue(sess, &qg, &v, s), TF_OUT_OF_RANGE);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "FIFOQueue '_0_q' is closed and has insufficient "
                     "elements (requested 1, current size 0)");
  TF_CloseSession(other, s);
  TF_DeleteSession(other, s);
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteGraph(qg.g);
  TF_DeleteStatus(s);
}

TEST(session_queue_persists_across_runs) { session_queue_test(0); }

/* TF 1's FIFOQueue/QueueEnqueue/... with a Ref(string) handle behave the
 * same. */
TEST(session_v1_ref_handle_queue) { session_queue_test(1); }

typedef struct srun {
  TF_Session* sess;
  const qgraph* qg;
  TF_Code code;
  char msg[512];
  int32_t value;
} srun;

static void* session_dequeue(void* arg) {
  srun* r = (srun*)arg;
  TF_Status* s = TF_NewStatus();
  r->code = run_dequeue(r->sess, r->qg, &r->value, s);
  snprintf(r->msg, sizeof r->msg, "%s", TF_Message(s));
  TF_DeleteStatus(s);
  return NULL;
}

TEST(thread_session_dequeue_fed_by_another_run) {
  TF_Status* s = TF_NewStatus();
  qgraph qg;
  TF_Session* sess;
  srun r;
  pthread_t th;
  make_qgraph(&qg, 1, s);
  sess = new_session(qg.g, s);
  memset(&r, 0, sizeof r);
  r.sess = sess;
  r.qg = &qg;
  CHECK(pthread_create(&th, NULL, session_dequeue, &r) == 0);
  sleep_ms(50);
  run_enqueue(sess, &qg, 77, s);
  CHECK_CODE(s, TF_OK);
  pthread_join(th, NULL);
  CHECK_EQ_INT(r.code, TF_OK);
  CHECK_EQ_INT(r.value, 77);
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteGraph(qg.g);
  TF_DeleteStatus(s);
}

TEST(thread_session_close_cancels_blocked_dequeue) {
  TF_Status* s = TF_NewStatus();
  qgraph qg;
  TF_Session* sess;
  srun r;
  pthread_t th;
  make_qgraph(&qg, -1, s);
  sess = new_session(qg.g, s);
  memset(&r, 0, sizeof r);
  r.sess = sess;
  r.qg = &qg;
  CHECK(pthread_create(&th, NULL, session_dequeue, &r) == 0);
  sleep_ms(100);
  TF_CloseSession(sess, s);
  CHECK_CODE(s, TF_OK);
  pthread_join(th, NULL);
  CHECK_EQ_INT(r.code, TF_CANCELLED);
  TF_DeleteSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteGraph(qg.g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
