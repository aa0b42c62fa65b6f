#define _POSIX_C_SOURCE 200809L
/* Sessions across threads: concurrent runs of one session (a small graph
 * and a wide one that uses the inter-op pool), a run blocked in a queue
 * dequeue woken by another thread's enqueue run, and TF_CloseSession
 * cancelling a blocked run. Run under TSan by tools/test_all.sh. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "graph_test_util.h"
#include "tensorflow/c/c_api_experimental.h"

static void sleep_ms(int ms) {
  struct timespec ts;
  ts.tv_sec = ms / 1000;
  ts.tv_nsec = (long)(ms % 1000) * 1000000L;
  nanosleep(&ts, NULL);
}

typedef struct shared_graph {
  TF_Graph* g;
  TF_Session* sess;
  TF_Operation* x;
  TF_Operation* y;   /* (x + 1) * 2 */
  TF_Operation* sum; /* sum over 64 branches of (x * i + i) */
} shared_graph;

static void make_graph(shared_graph* sg) {
  TF_Output parts[64];
  TF_OperationDescription* d;
  TF_Operation* one;
  TF_Operation* two;
  TF_Operation* a;
  int i;
  char name[32];
  sg->g = TF_NewGraph();
  sg->x = gt_placeholder(sg->g, "x", TF_FLOAT);
  one = gt_const(sg->g, "one", gt_scalar_f32(1.0f), NULL);
  two = gt_const(sg->g, "two", gt_scalar_f32(2.0f), NULL);
  a = gt_binop(sg->g, "AddV2", "a", gt_out(sg->x, 0), gt_out(one, 0));
  sg->y = gt_binop(sg->g, "Mul", "y", gt_out(a, 0), gt_out(two, 0));
  for (i = 0; i < 64; i++) {
    TF_Operation* c;
    TF_Operation* m;
    snprintf(name, sizeof name, "c%d", i);
    c = gt_const(sg->g, name, gt_scalar_f32((float)i), NULL);
    snprintf(name, sizeof name, "m%d", i);
    m = gt_binop(sg->g, "Mul", name, gt_out(sg->x, 0), gt_out(c, 0));
    snprintf(name, sizeof name, "q%d", i);
    parts[i] = gt_out(gt_binop(sg->g, "AddV2", name, gt_out(m, 0),
                               gt_out(c, 0)),
                      0);
  }
  d = TF_NewOperation(sg->g, "AddN", "sum");
  TF_AddInputList(d, parts, 64);
  sg->sum = gt_finish(d);
  sg->sess = gt_session(sg->g);
}

typedef struct worker_arg {
  shared_graph* sg;
  int id;
  int failures;
} worker_arg;

static void* worker(void* p) {
  worker_arg* w = (worker_arg*)p;
  TF_Status* s = TF_NewStatus();
  int i;
  for (i = 0; i < 300; i++) {
    float xv = (float)(w->id * 1000 + i);
    TF_Output feed = gt_out(w->sg->x, 0);
    TF_Tensor* v = gt_scalar_f32(xv);
    TF_Output fetch[2] = {gt_out(w->sg->y, 0), gt_out(w->sg->sum, 0)};
    TF_Tensor* outs[2] = {NULL, NULL};
    /* alternate: small fetch only, then both */
    TF_SessionRun(w->sg->sess, NULL, &feed, &v, 1, fetch, outs, 1 + (i & 1),
                  NULL, 0, NULL, s);
    if (TF_GetCode(s) != TF_OK) {
      w->failures++;
    } else {
      if (*(float*)TF_TensorData(outs[0]) != (xv + 1.0f) * 2.0f) w->failures++;
      if (i & 1) {
        /* sum of x*i + i over i < 64 = (x + 1) * 2016 */
        double want = ((double)xv + 1.0) * 2016.0;
        double got = *(float*)TF_TensorData(outs[1]);
        if (got < want * 0.999 || got > want * 1.001) w->failures++;
      }
    }
    if (outs[0] != NULL) TF_DeleteTensor(outs[0]);
    if (outs[1] != NULL) TF_DeleteTensor(outs[1]);
    TF_DeleteTensor(v);
  }
  TF_DeleteStatus(s);
  return NULL;
}

TEST(concurrent_runs_of_one_session) {
  shared_graph sg;
  pthread_t th[8];
  worker_arg args[8];
  int i;
  make_graph(&sg);
  for (i = 0; i < 8; i++) {
    args[i].sg = &sg;
    args[i].id = i;
    args[i].failures = 0;
    CHECK(pthread_create(&th[i], NULL, worker, &args[i]) == 0);
  }
  for (i = 0; i < 8; i++) {
    pthread_join(th[i], NULL);
    CHECK_EQ_INT(args[i].failures, 0);
  }
  gt_close(sg.sess);
  TF_DeleteGraph(sg.g);
}

/* ------------------------------------------------------------------------
 * Queues: a blocked dequeue run. */

typedef struct queue_graph {
  TF_Graph* g;
  TF_Session* sess;
  TF_Operation* v;   /* placeholder for the enqueued value */
  TF_Operation* enq; /* QueueEnqueueV2 */
  TF_Operation* deq; /* QueueDequeueV2 */
} queue_graph;

static void make_queue_graph(queue_graph* qg) {
  TF_DataType types[1] = {TF_FLOAT};
  TF_OperationDescription* d;
  TF_Operation* q;
  qg->g = TF_NewGraph();
  d = TF_NewOperation(qg->g, "FIFOQueueV2", "q");
  TF_SetAttrTypeList(d, "component_types", types, 1);
  TF_SetAttrInt(d, "capacity", 10);
  q = gt_finish(d);
  qg->v = gt_placeholder(qg->g, "v", TF_FLOAT);
  d = TF_NewOperation(qg->g, "QueueEnqueueV2", "enq");
  TF_AddInput(d, gt_out(q, 0));
  {
    TF_Output comps[1] = {gt_out(qg->v, 0)};
    TF_AddInputList(d, comps, 1);
  }
  qg->enq = gt_finish(d);
  d = TF_NewOperation(qg->g, "QueueDequeueV2", "deq");
  TF_AddInput(d, gt_out(q, 0));
  TF_SetAttrTypeList(d, "component_types", types, 1);
  qg->deq = gt_finish(d);
  qg->sess = gt_session(qg->g);
}

typedef struct deq_arg {
  queue_graph* qg;
  TF_Code code;
  float value;
} deq_arg;

static void* dequeue_thread(void* p) {
  deq_arg* a = (deq_arg*)p;
  TF_Status* s = TF_NewStatus();
  TF_Output f = gt_out(a->qg->deq, 0);
  TF_Tensor* o = NULL;
  TF_SessionRun(a->qg->sess, NULL, NULL, NULL, 0, &f, &o, 1, NULL, 0, NULL,
                s);
  a->code = TF_GetCode(s);
  if (o != NULL) {
    a->value = *(float*)TF_TensorData(o);
    TF_DeleteTensor(o);
  }
  TF_DeleteStatus(s);
  return NULL;
}

TEST(dequeue_run_waits_for_enqueue_run) {
  queue_graph qg;
  pthread_t th;
  deq_arg a;
  TF_Status* s = TF_NewStatus();
  make_queue_graph(&qg);
  a.qg = &qg;
  a.code = TF_UNKNOWN;
  a.value = 0;
  CHECK(pthread_create(&th, NULL, dequeue_thread, &a) == 0);
  sleep_ms(100);
  {
    TF_Output feed = gt_out(qg.v, 0);
    TF_Tensor* v = gt_scalar_f32(42.0f);
    TF_Operation* tg[1] = {qg.enq};
    TF_SessionRun(qg.sess, NULL, &feed, &v, 1, NULL, NULL, 0,
                  (const TF_Operation* const*)tg, 1, NULL, s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteTensor(v);
  }
  pthread_join(th, NULL);
  CHECK_EQ_INT(a.code, TF_OK);
  CHECK(a.value == 42.0f);
  gt_close(qg.sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(qg.g);
}

TEST(close_cancels_blocked_run) {
  queue_graph qg;
  pthread_t th;
  deq_arg a;
  TF_Status* s = TF_NewStatus();
  make_queue_graph(&qg);
  a.qg = &qg;
  a.code = TF_OK;
  a.value = 0;
  CHECK(pthread_create(&th, NULL, dequeue_thread, &a) == 0);
  sleep_ms(150);
  TF_CloseSession(qg.sess, s);
  CHECK_CODE(s, TF_OK);
  pthread_join(th, NULL);
  CHECK_EQ_INT(a.code, TF_CANCELLED);
  /* later runs fail at once */
  dequeue_thread(&a);
  CHECK_EQ_INT(a.code, TF_CANCELLED);
  TF_DeleteSession(qg.sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  TF_DeleteGraph(qg.g);
}

/* TF_EnqueueNamedTensor / TF_DequeueNamedTensor on the nodes named after
 * the tensor id; a dequeue blocks until another thread enqueues. */
typedef struct named_arg {
  TF_Session* sess;
  TF_Code code;
  float value;
} named_arg;

static void* named_dequeue(void* p) {
  named_arg* a = (named_arg*)p;
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TF_DequeueNamedTensor(a->sess, 7, s);
  a->code = TF_GetCode(s);
  if (t != NULL) {
    a->value = *(float*)TF_TensorData(t);
    TF_DeleteTensor(t);
  }
  TF_DeleteStatus(s);
  return NULL;
}

TEST(named_tensor_queue) {
  TF_DataType types[1] = {TF_FLOAT};
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d;
  TF_Operation* q;
  TF_Operation* arg;
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  pthread_t th;
  named_arg a;
  TF_Tensor* v;
  d = TF_NewOperation(g, "FIFOQueueV2", "fifo_queue_7");
  TF_SetAttrTypeList(d, "component_types", types, 1);
  q = gt_finish(d);
  arg = gt_placeholder(g, "arg_tensor_enqueue_7", TF_FLOAT);
  d = TF_NewOperation(g, "QueueEnqueueV2", "fifo_queue_enqueue_7");
  TF_AddInput(d, gt_out(q, 0));
  {
    TF_Output comps[1] = {gt_out(arg, 0)};
    TF_AddInputList(d, comps, 1);
  }
  gt_finish(d);
  d = TF_NewOperation(g, "QueueDequeueV2", "fifo_queue_dequeue_7");
  TF_AddInput(d, gt_out(q, 0));
  TF_SetAttrTypeList(d, "component_types", types, 1);
  gt_finish(d);
  sess = gt_session(g);
  a.sess = sess;
  a.code = TF_UNKNOWN;
  a.value = 0;
  CHECK(pthread_create(&th, NULL, named_dequeue, &a) == 0);
  sleep_ms(50);
  v = gt_scalar_f32(7.5f);
  TF_EnqueueNamedTensor(sess, 7, v, s);
  CHECK_CODE(s, TF_OK);
  pthread_join(th, NULL);
  CHECK_EQ_INT(a.code, TF_OK);
  CHECK(a.value == 7.5f);
  /* other ids have no nodes */
  CHECK(TF_DequeueNamedTensor(sess, 8, s) == NULL);
  CHECK_CODE(s, TF_INTERNAL);
  TF_EnqueueNamedTensor(sess, 8, v, s);
  CHECK_CODE(s, TF_INTERNAL);
  TF_DeleteTensor(v);
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

/* RunOptions.timeout_in_ms: a dequeue on an empty queue ends with
 * DEADLINE_EXCEEDED at the deadline, a run that finishes in time is not
 * affected, and ConfigProto.operation_timeout_in_ms is the default. */
TEST(run_deadline) {
  queue_graph qg;
  TF_Status* s = TF_NewStatus();
  TF_Buffer* ro = TF_NewBufferFromString("\x10\x64", 2); /* 100 ms */
  TF_Output f;
  TF_Tensor* o = NULL;
  make_queue_graph(&qg);
  f = gt_out(qg.deq, 0);
  TF_SessionRun(qg.sess, ro, NULL, NULL, 0, &f, &o, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_DEADLINE_EXCEEDED);
  CHECK(o == NULL);
  {
    TF_Output feed = gt_out(qg.v, 0);
    TF_Tensor* v = gt_scalar_f32(3.0f);
    TF_Operation* tg[1] = {qg.enq};
    TF_SessionRun(qg.sess, ro, &feed, &v, 1, NULL, NULL, 0,
                  (const TF_Operation* const*)tg, 1, NULL, s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteTensor(v);
  }
  TF_SessionRun(qg.sess, ro, NULL, NULL, 0, &f, &o, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK(*(float*)TF_TensorData(o) == 3.0f);
  TF_DeleteTensor(o);
  o = NULL;
  gt_close(qg.sess);
  /* the session's default deadline */
  {
    TF_SessionOptions* opts = TF_NewSessionOptions();
    TF_Session* sess;
    TF_SetConfig(opts, "\x58\x32", 2, s); /* operation_timeout_in_ms 50 */
    CHECK_CODE(s, TF_OK);
    sess = TF_NewSession(qg.g, opts, s);
    CHECK_CODE(s, TF_OK);
    TF_SessionRun(sess, NULL, NULL, NULL, 0, &f, &o, 1, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_DEADLINE_EXCEEDED);
    gt_close(sess);
    TF_DeleteSessionOptions(opts);
  }
  TF_DeleteBuffer(ro);
  TF_DeleteStatus(s);
  TF_DeleteGraph(qg.g);
}

/* Closing the session cancels a run that has a deadline too. */
typedef struct timed_deq {
  queue_graph* qg;
  TF_Code code;
} timed_deq;

static void* timed_dequeue(void* p) {
  timed_deq* a = (timed_deq*)p;
  TF_Status* s = TF_NewStatus();
  TF_Buffer* ro = TF_NewBufferFromString("\x10\xa0\x9c\x01", 4); /* 20 s */
  TF_Output f = gt_out(a->qg->deq, 0);
  TF_Tensor* o = NULL;
  TF_SessionRun(a->qg->sess, ro, NULL, NULL, 0, &f, &o, 1, NULL, 0, NULL, s);
  a->code = TF_GetCode(s);
  if (o != NULL) TF_DeleteTensor(o);
  TF_DeleteBuffer(ro);
  TF_DeleteStatus(s);
  return NULL;
}

TEST(close_cancels_run_with_deadline) {
  queue_graph qg;
  pthread_t th;
  timed_deq a;
  TF_Status* s = TF_NewStatus();
  make_queue_graph(&qg);
  a.qg = &qg;
  a.code = TF_OK;
  CHECK(pthread_create(&th, NULL, timed_dequeue, &a) == 0);
  sleep_ms(100);
  TF_CloseSession(qg.sess, s);
  CHECK_CODE(s, TF_OK);
  pthread_join(th, NULL);
  CHECK_EQ_INT(a.code, TF_CANCELLED);
  TF_DeleteSession(qg.sess, s);
  TF_DeleteStatus(s);
  TF_DeleteGraph(qg.g);
}

/* Runs of a v1 while loop (a GraphDef written by TF 2.21) from several
 * threads at once: each run has its own frames and iterations. */
typedef struct loop_arg {
  TF_Session* sess;
  TF_Operation* n;
  TF_Output fetch[2];
  const float* want; /* 2 values per n, n = 0..39 */
  int failures;
  int id;
} loop_arg;

static int run_loop(TF_Session* sess, TF_Operation* n, TF_Output* fetch,
                    int nv, float* got) {
  TF_Status* s = TF_NewStatus();
  TF_Output feed = gt_out(n, 0);
  TF_Tensor* v = gt_scalar_i32(nv);
  TF_Tensor* outs[2] = {NULL, NULL};
  int ok, i;
  TF_SessionRun(sess, NULL, &feed, &v, 1, fetch, outs, 2, NULL, 0, NULL, s);
  ok = TF_GetCode(s) == TF_OK;
  for (i = 0; ok && i < 2; i++) {
    TF_DataType dt = TF_TensorType(outs[i]);
    got[i] = dt == TF_FLOAT ? *(float*)TF_TensorData(outs[i])
                            : (float)*(int32_t*)TF_TensorData(outs[i]);
  }
  for (i = 0; i < 2; i++) {
    if (outs[i] != NULL) TF_DeleteTensor(outs[i]);
  }
  TF_DeleteTensor(v);
  TF_DeleteStatus(s);
  return ok;
}

static void* loop_worker(void* p) {
  loop_arg* a = (loop_arg*)p;
  int i;
  for (i = 0; i < 60; i++) {
    int nv = (i * 7 + a->id * 3) % 40;
    float got[2];
    if (!run_loop(a->sess, a->n, a->fetch, nv, got) ||
        got[0] != a->want[2 * nv] || got[1] != a->want[2 * nv + 1]) {
      a->failures++;
    }
  }
  return NULL;
}

TEST(concurrent_v1_loop_runs) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_ImportGraphDefOptions* io = TF_NewImportGraphDefOptions();
  FILE* f = fopen(TFE_TEST_DATA_DIR "/graphs/while_v1.pb", "rb");
  char buf[1 << 16];
  size_t len;
  TF_Buffer* gd;
  TF_Session* sess;
  loop_arg args[4];
  pthread_t th[4];
  float want[80];
  TF_Output fetch[2];
  TF_Operation* n;
  int i;
  CHECK(f != NULL);
  len = fread(buf, 1, sizeof buf, f);
  fclose(f);
  gd = TF_NewBufferFromString(buf, len);
  TF_GraphImportGraphDef(g, gd, io, s);
  CHECK_CODE(s, TF_OK);
  n = TF_GraphOperationByName(g, "n");
  fetch[0] = gt_out(TF_GraphOperationByName(g, "result"), 0);
  fetch[1] = gt_out(TF_GraphOperationByName(g, "total"), 0);
  CHECK(n != NULL && fetch[0].oper != NULL && fetch[1].oper != NULL);
  sess = gt_session(g);
  for (i = 0; i < 40; i++) CHECK(run_loop(sess, n, fetch, i, &want[2 * i]));
  for (i = 0; i < 4; i++) {
    args[i].sess = sess;
    args[i].n = n;
    args[i].fetch[0] = fetch[0];
    args[i].fetch[1] = fetch[1];
    args[i].want = want;
    args[i].failures = 0;
    args[i].id = i;
    CHECK(pthread_create(&th[i], NULL, loop_worker, &args[i]) == 0);
  }
  for (i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    CHECK_EQ_INT(args[i].failures, 0);
  }
  gt_close(sess);
  TF_DeleteBuffer(gd);
  TF_DeleteImportGraphDefOptions(io);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
