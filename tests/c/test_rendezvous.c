/* TF_GetRendezvous: the in-process rendezvous of a kernel's eager context.
 * A kernel defined here (as a kernel library would) records the thunk it
 * gets; the test then sends and receives through it: pairing in order,
 * shared buffers, receives waiting for sends, byte-wise keys, abort, and
 * receives still waiting when the context is deleted. */
#define _GNU_SOURCE 1
#include <string.h>

#include "se_test_util.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"

static TF_RendezvousThunk g_thunk;

static void get_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* out;
  (void)kernel;
  g_thunk = TF_GetRendezvous(ctx);
  out = TF_AllocateOutput(ctx, 0, TF_INT32, NULL, 0, sizeof(int32_t), s);
  if (out != NULL) *(int32_t*)TF_TensorData(out) = 1;
  TF_DeleteTensor(out);
  TF_DeleteStatus(s);
}

static void register_op_once(void) {
  static int done;
  TF_Status* s;
  TF_OpDefinitionBuilder* b;
  if (done) return;
  done = 1;
  s = TF_NewStatus();
  b = TF_NewOpDefinitionBuilder("TfeRendezvousGet");
  TF_OpDefinitionBuilderAddOutput(b, "y: int32");
  TF_OpDefinitionBuilderSetIsStateful(b, true);
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_OK);
  TF_RegisterKernelBuilder(
      "TfeRendezvousGetCpu",
      TF_NewKernelBuilder("TfeRendezvousGet", "CPU", NULL, get_compute, NULL),
      s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

/* The thunk a kernel of ctx gets. */
static TF_RendezvousThunk thunk_of(TFE_Context* ctx) {
  TF_Status* s = TF_NewStatus();
  TFE_Op* op;
  TFE_TensorHandle* out = NULL;
  int n = 1;
  register_op_once();
  memset(&g_thunk, 0, sizeof g_thunk);
  op = TFE_NewOp(ctx, "TfeRendezvousGet", s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteOp(op);
  TF_DeleteStatus(s);
  CHECK(g_thunk.rendezvous != NULL);
  return g_thunk;
}

/* ---- sending and receiving ---- */

typedef struct received {
  int calls;
  TF_Code code;
  char message[128];
  float values[4];
  const void* data;
  int has_tensor;
  bool is_dead;
} received;

static void on_done(void* context, TF_RendezvousDoneCallback_Params* p) {
  received* r = (received*)context;
  r->calls++;
  r->code = TF_GetCode(p->status);
  snprintf(r->message, sizeof r->message, "%s", TF_Message(p->status));
  r->has_tensor = p->tensor != NULL;
  r->is_dead = p->is_dead;
  if (p->tensor != NULL) {
    size_t n = TF_TensorByteSize(p->tensor);
    r->data = TF_TensorData(p->tensor);
    memcpy(r->values, TF_TensorData(p->tensor),
           n < sizeof r->values ? n : sizeof r->values);
  }
}

static TF_Code send(TF_RendezvousThunk t, const char* key, size_t key_len,
                    TF_Tensor* tensor, bool is_dead) {
  TF_RendezvousParsedKey k;
  TF_RendezvousArgsStruct args;
  TF_RendezvousSend_Params p;
  TF_Status* s = TF_NewStatus();
  TF_Code code;
  memset(&args, 0, sizeof args);
  k.full_key = (char*)key;
  k.full_key_size = (uint32_t)key_len;
  p.key = &k;
  p.args = &args;
  p.tensor = tensor;
  p.is_dead = is_dead;
  p.status = s;
  t.send_func(t.rendezvous, &p);
  code = TF_GetCode(s);
  TF_DeleteStatus(s);
  return code;
}

static void recv(TF_RendezvousThunk t, const char* key, size_t key_len,
                 received* into) {
  TF_RendezvousParsedKey k;
  TF_RendezvousArgsStruct args;
  TF_RendezvousAsyncRecv_Params p;
  memset(&args, 0, sizeof args);
  k.full_key = (char*)key;
  k.full_key_size = (uint32_t)key_len;
  p.context = NULL;
  p.key = &k;
  p.args = &args;
  p.on_done.context = into;
  p.on_done.callback = on_done;
  t.async_recv_func(t.rendezvous, &p);
}

static TF_Tensor* floats(float a, float b) {
  int64_t dims[1] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 2 * sizeof(float));
  ((float*)TF_TensorData(t))[0] = a;
  ((float*)TF_TensorData(t))[1] = b;
  return t;
}

TEST(null_context_gives_an_empty_thunk) {
  TF_RendezvousThunk t = TF_GetRendezvous(NULL);
  CHECK(t.rendezvous == NULL && t.send_func == NULL &&
        t.async_recv_func == NULL && t.start_abort_func == NULL);
}

TEST(one_rendezvous_per_context) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* a = new_ctx(s);
  TFE_Context* b = new_ctx(s);
  TF_RendezvousThunk ta = thunk_of(a), ta2 = thunk_of(a), tb = thunk_of(b);
  CHECK(ta.rendezvous == ta2.rendezvous);
  CHECK(ta.rendezvous != tb.rendezvous);
  CHECK(ta.send_func != NULL && ta.async_recv_func != NULL &&
        ta.start_abort_func != NULL);
  TFE_DeleteContext(a);
  TFE_DeleteContext(b);
  TF_DeleteStatus(s);
}

TEST(send_then_receive_shares_the_buffer) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TF_RendezvousThunk t = thunk_of(ctx);
  TF_Tensor* x = floats(1.5f, -2.0f);
  received r;
  memset(&r, 0, sizeof r);
  CHECK_EQ_INT(send(t, "edge;0", 6, x, true), TF_OK);
  /* The sender keeps its tensor; the rendezvous shares the buffer. */
  TF_DeleteTensor(x);
  recv(t, "edge;0", 6, &r);
  CHECK_EQ_INT(r.calls, 1);
  CHECK_EQ_INT(r.code, TF_OK);
  CHECK(r.has_tensor);
  CHECK(r.is_dead);
  CHECK(r.values[0] == 1.5f && r.values[1] == -2.0f);
  /* Sharing, not copying: the data pointer is the sender's. */
  x = floats(3.0f, 4.0f);
  CHECK_EQ_INT(send(t, "edge;1", 6, x, false), TF_OK);
  memset(&r, 0, sizeof r);
  recv(t, "edge;1", 6, &r);
  CHECK(r.data == TF_TensorData(x));
  CHECK(!r.is_dead);
  TF_DeleteTensor(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(receive_waits_for_the_send_and_keys_pair_in_order) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TF_RendezvousThunk t = thunk_of(ctx);
  received first, second, other;
  TF_Tensor *x = floats(1, 1), *y = floats(2, 2), *z = floats(9, 9);
  memset(&first, 0, sizeof first);
  memset(&second, 0, sizeof second);
  memset(&other, 0, sizeof other);
  recv(t, "k", 1, &first);
  recv(t, "k", 1, &second);
  /* Keys are bytes: "k\0" is another key than "k". */
  recv(t, "k\0", 2, &other);
  CHECK_EQ_INT(first.calls + second.calls + other.calls, 0);
  CHECK_EQ_INT(send(t, "k", 1, x, false), TF_OK);
  CHECK_EQ_INT(first.calls, 1);
  CHECK_EQ_INT(second.calls, 0);
  CHECK(first.values[0] == 1.0f);
  CHECK_EQ_INT(send(t, "k", 1, y, false), TF_OK);
  CHECK_EQ_INT(second.calls, 1);
  CHECK(second.values[0] == 2.0f);
  CHECK_EQ_INT(other.calls, 0);
  CHECK_EQ_INT(send(t, "k\0", 2, z, false), TF_OK);
  CHECK_EQ_INT(other.calls, 1);
  CHECK(other.values[0] == 9.0f);
  TF_DeleteTensor(x);
  TF_DeleteTensor(y);
  TF_DeleteTensor(z);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(abort_completes_waiting_receives_and_fails_later_calls) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TF_RendezvousThunk t = thunk_of(ctx);
  TF_Status* why = TF_NewStatus();
  TF_Tensor* x = floats(1, 2);
  received waiting, late;
  memset(&waiting, 0, sizeof waiting);
  memset(&late, 0, sizeof late);
  recv(t, "a", 1, &waiting);
  CHECK_EQ_INT(send(t, "unclaimed", 9, x, false), TF_OK); /* dropped */
  TF_SetStatus(why, TF_UNAVAILABLE, "peer went away");
  t.start_abort_func(t.rendezvous, why);
  CHECK_EQ_INT(waiting.calls, 1);
  CHECK_EQ_INT(waiting.code, TF_UNAVAILABLE);
  CHECK_STR_EQ(waiting.message, "peer went away");
  CHECK(!waiting.has_tensor);
  CHECK_EQ_INT(send(t, "a", 1, x, false), TF_UNAVAILABLE);
  recv(t, "unclaimed", 9, &late);
  CHECK_EQ_INT(late.calls, 1);
  CHECK_EQ_INT(late.code, TF_UNAVAILABLE);
  /* A second abort changes nothing. */
  t.start_abort_func(t.rendezvous, NULL);
  CHECK_EQ_INT(send(t, "a", 1, x, false), TF_UNAVAILABLE);
  TF_DeleteTensor(x);
  TF_DeleteStatus(why);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(deleting_the_context_cancels_waiting_receives) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TF_RendezvousThunk t = thunk_of(ctx);
  TF_Tensor* x = floats(5, 6);
  received r;
  memset(&r, 0, sizeof r);
  recv(t, "never", 5, &r);
  CHECK_EQ_INT(send(t, "left over", 9, x, false), TF_OK);
  TF_DeleteTensor(x);
  TFE_DeleteContext(ctx); /* frees the left-over tensor too (ASan) */
  CHECK_EQ_INT(r.calls, 1);
  CHECK_EQ_INT(r.code, TF_CANCELLED);
  TF_DeleteStatus(s);
}

TEST(bad_arguments) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TF_RendezvousThunk t = thunk_of(ctx);
  TF_RendezvousSend_Params p;
  received r;
  memset(&p, 0, sizeof p);
  p.status = s;
  t.send_func(t.rendezvous, &p); /* no key, no tensor */
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  t.send_func(t.rendezvous, NULL); /* nothing to report to: ignored */
  memset(&r, 0, sizeof r);
  {
    TF_RendezvousAsyncRecv_Params rp;
    memset(&rp, 0, sizeof rp);
    rp.on_done.context = &r;
    rp.on_done.callback = on_done;
    t.async_recv_func(t.rendezvous, &rp); /* no key */
    CHECK_EQ_INT(r.calls, 1);
    CHECK_EQ_INT(r.code, TF_INVALID_ARGUMENT);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
