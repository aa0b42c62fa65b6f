/* v1 control flow in sessions: Switch/Merge conditionals with dead-value
 * propagation, while loops built from Enter/Merge/LoopCond/Switch/
 * NextIteration/Exit (0, 1 and many iterations, loop invariants, several
 * loop variables, nested loops), Ref variants, errors. The graphs are built
 * as tf.compat.v1.while_loop builds them. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "graph_test_util.h"

/* ------------------------------------------------------------------------
 * A while-loop builder. */

typedef struct loop_ctx {
  TF_Graph* g;
  const char* prefix;
  TF_Operation* pivot; /* ops created in the body depend on it */
  int depth;
} loop_ctx;

typedef TF_Output (*cond_fn)(loop_ctx* c, const TF_Output* vars,
                             const TF_Output* inv, void* arg);
typedef void (*body_fn)(loop_ctx* c, const TF_Output* vars,
                        const TF_Output* inv, TF_Output* next, void* arg);

static char* nm(const char* prefix, const char* what) {
  static char bufs[64][128];
  static int k;
  char* b = bufs[k++ % 64];
  snprintf(b, 128, "%s/%s", prefix, what);
  return b;
}

static TF_Operation* enter(TF_Graph* g, const char* name, TF_Output x,
                           const char* frame, int is_constant) {
  TF_OperationDescription* d = TF_NewOperation(g, "Enter", name);
  TF_AddInput(d, x);
  TF_SetAttrString(d, "frame_name", frame, strlen(frame));
  TF_SetAttrBool(d, "is_constant", (unsigned char)is_constant);
  return gt_finish(d);
}

/* Builds while(cond(vars)) vars = body(vars) in frame `prefix`; writes the
 * loop's results (Exit outputs) to exits. */
static void build_while(TF_Graph* g, const char* prefix, int nvars,
                        const TF_Output* init, int ninv, const TF_Output* inv,
                        cond_fn cond, body_fn body, void* arg,
                        TF_Output* exits) {
  TF_Operation* merges[8];
  TF_Output mv[8], iv[8], ids[8], next[8];
  TF_Operation* sw[8];
  TF_Status* s = TF_NewStatus();
  loop_ctx c;
  int i;
  char name[128];
  CHECK(nvars <= 8 && ninv <= 8);
  for (i = 0; i < nvars; i++) {
    TF_Operation* en;
    TF_Output two[2];
    TF_OperationDescription* d;
    snprintf(name, sizeof name, "%s/enter%d", prefix, i);
    en = enter(g, name, init[i], prefix, 0);
    two[0] = gt_out(en, 0);
    two[1] = gt_out(en, 0); /* replaced by the NextIteration below */
    snprintf(name, sizeof name, "%s/merge%d", prefix, i);
    d = TF_NewOperation(g, "Merge", name);
    TF_AddInputList(d, two, 2);
    merges[i] = gt_finish(d);
    mv[i] = gt_out(merges[i], 0);
  }
  for (i = 0; i < ninv; i++) {
    snprintf(name, sizeof name, "%s/inv%d", prefix, i);
    iv[i] = gt_out(enter(g, name, inv[i], prefix, 1), 0);
  }
  c.g = g;
  c.prefix = prefix;
  c.pivot = NULL;
  {
    TF_Output pred = cond(&c, mv, iv, arg);
    TF_Operation* lc = gt_unop(g, "LoopCond", nm(prefix, "cond"), pred);
    for (i = 0; i < nvars; i++) {
      snprintf(name, sizeof name, "%s/switch%d", prefix, i);
      sw[i] = gt_binop(g, "Switch", name, mv[i], gt_out(lc, 0));
      snprintf(name, sizeof name, "%s/exit%d", prefix, i);
      exits[i] = gt_out(gt_unop(g, "Exit", name, gt_out(sw[i], 0)), 0);
      snprintf(name, sizeof name, "%s/body%d", prefix, i);
      ids[i] = gt_out(gt_unop(g, "Identity", name, gt_out(sw[i], 1)), 0);
    }
  }
  c.pivot = ids[0].oper;
  body(&c, ids, iv, next, arg);
  for (i = 0; i < nvars; i++) {
    TF_Input dst;
    TF_Operation* ni;
    snprintf(name, sizeof name, "%s/next%d", prefix, i);
    ni = gt_unop(g, "NextIteration", name, next[i]);
    dst.oper = merges[i];
    dst.index = 1;
    TF_UpdateEdge(g, gt_out(ni, 0), dst, s);
    CHECK_CODE(s, TF_OK);
  }
  TF_DeleteStatus(s);
}

/* cond: vars[0] < inv[0] */
static TF_Output cond_less(loop_ctx* c, const TF_Output* vars,
                           const TF_Output* inv, void* arg) {
  (void)arg;
  return gt_out(gt_binop(c->g, "Less", nm(c->prefix, "less"), vars[0], inv[0]),
                0);
}

/* body: i + 1, acc + i */
static void body_count_sum(loop_ctx* c, const TF_Output* vars,
                           const TF_Output* inv, TF_Output* next, void* arg) {
  TF_Operation* one =
      gt_const(c->g, nm(c->prefix, "one"), gt_scalar_i32(1), c->pivot);
  (void)inv, (void)arg;
  next[0] = gt_out(gt_binop(c->g, "AddV2", nm(c->prefix, "inc"), vars[0],
                            gt_out(one, 0)),
                   0);
  next[1] = gt_out(
      gt_binop(c->g, "AddV2", nm(c->prefix, "acc"), vars[1], vars[0]), 0);
}

/* ------------------------------------------------------------------------
 * Conditionals. */

TEST(switch_merge_cond) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_FLOAT);
  TF_Operation* p = gt_placeholder(g, "p", TF_BOOL);
  TF_Operation* sw = gt_binop(g, "Switch", "sw", gt_out(x, 0), gt_out(p, 0));
  TF_Operation* neg = gt_unop(g, "Neg", "neg", gt_out(sw, 0));
  TF_Operation* two = gt_const(g, "two", gt_scalar_f32(2.0f), NULL);
  TF_Operation* dbl = gt_binop(g, "Mul", "dbl", gt_out(sw, 1), gt_out(two, 0));
  TF_Output m_in[2] = {gt_out(neg, 0), gt_out(dbl, 0)};
  TF_OperationDescription* d = TF_NewOperation(g, "Merge", "m");
  TF_Operation* m;
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  int pv;
  TF_AddInputList(d, m_in, 2);
  m = gt_finish(d);
  sess = gt_session(g);
  for (pv = 0; pv < 2; pv++) {
    TF_Output feeds[2] = {gt_out(x, 0), gt_out(p, 0)};
    TF_Tensor* vals[2] = {gt_scalar_f32(3.0f), gt_scalar_bool(pv)};
    TF_Output fetches[2] = {gt_out(m, 0), gt_out(m, 1)};
    TF_Tensor* outs[2] = {NULL, NULL};
    TF_SessionRun(sess, NULL, feeds, vals, 2, fetches, outs, 2, NULL, 0, NULL,
                  s);
    CHECK_CODE(s, TF_OK);
    CHECK(*(float*)TF_TensorData(outs[0]) == (pv ? 6.0f : -3.0f));
    CHECK_EQ_INT(*(int32_t*)TF_TensorData(outs[1]), pv ? 1 : 0);
    TF_DeleteTensor(outs[0]);
    TF_DeleteTensor(outs[1]);
    /* the untaken branch is dead: fetching it fails */
    {
      TF_Output dead = gt_out(pv ? neg : dbl, 0);
      TF_Tensor* o = NULL;
      TF_SessionRun(sess, NULL, feeds, vals, 2, &dead, &o, 1, NULL, 0, NULL,
                    s);
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
      CHECK(o == NULL);
    }
    TF_DeleteTensor(vals[0]);
    TF_DeleteTensor(vals[1]);
  }
  /* the taken branch's op as a target runs; the dead one is skipped */
  {
    TF_Output feeds[2] = {gt_out(x, 0), gt_out(p, 0)};
    TF_Tensor* vals[2] = {gt_scalar_f32(1.0f), gt_scalar_bool(1)};
    TF_Operation* tg[2] = {neg, dbl};
    TF_SessionRun(sess, NULL, feeds, vals, 2, NULL, NULL, 0,
                  (const TF_Operation* const*)tg, 2, NULL, s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteTensor(vals[0]);
    TF_DeleteTensor(vals[1]);
  }
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

TEST(switch_pred_must_be_scalar) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_FLOAT);
  TF_Operation* p = gt_placeholder(g, "p", TF_BOOL);
  TF_Operation* sw = gt_binop(g, "Switch", "sw", gt_out(x, 0), gt_out(p, 0));
  TF_Session* sess = gt_session(g);
  TF_Status* s = TF_NewStatus();
  TF_Output feeds[2] = {gt_out(x, 0), gt_out(p, 0)};
  int64_t dims[1] = {2};
  TF_Tensor* pv = TF_AllocateTensor(TF_BOOL, dims, 1, 2);
  TF_Tensor* vals[2] = {gt_scalar_f32(1.0f), pv};
  TF_Output f = gt_out(sw, 1);
  TF_Tensor* o = NULL;
  memset(TF_TensorData(pv), 1, 2);
  TF_SessionRun(sess, NULL, feeds, vals, 2, &f, &o, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "sw");
  TF_DeleteTensor(vals[0]);
  TF_DeleteTensor(vals[1]);
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

/* ------------------------------------------------------------------------
 * Loops. */

/* for (i = 0, acc = 0; i < n; i++) acc += i;  -> (n, n*(n-1)/2) */
static void check_count_sum(TF_Session* sess, TF_Operation* n, TF_Output* ex,
                            int nv) {
  TF_Status* s = TF_NewStatus();
  TF_Output feed = gt_out(n, 0);
  TF_Tensor* v = gt_scalar_i32(nv);
  TF_Tensor* outs[2] = {NULL, NULL};
  TF_SessionRun(sess, NULL, &feed, &v, 1, ex, outs, 2, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(*(int32_t*)TF_TensorData(outs[0]), nv > 0 ? nv : 0);
  CHECK_EQ_INT(*(int32_t*)TF_TensorData(outs[1]),
               nv > 0 ? nv * (nv - 1) / 2 : 0);
  TF_DeleteTensor(outs[0]);
  TF_DeleteTensor(outs[1]);
  TF_DeleteTensor(v);
  TF_DeleteStatus(s);
}

TEST(while_loop_0_1_many_iterations) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* n = gt_placeholder(g, "n", TF_INT32);
  TF_Operation* zero = gt_const(g, "zero", gt_scalar_i32(0), NULL);
  TF_Output init[2] = {gt_out(zero, 0), gt_out(zero, 0)};
  TF_Output inv[1] = {gt_out(n, 0)};
  TF_Output ex[2];
  TF_Session* sess;
  build_while(g, "loop", 2, init, 1, inv, cond_less, body_count_sum, NULL, ex);
  sess = gt_session(g);
  check_count_sum(sess, n, ex, 0);
  check_count_sum(sess, n, ex, 1);
  check_count_sum(sess, n, ex, 2);
  check_count_sum(sess, n, ex, 1000);
  check_count_sum(sess, n, ex, -5);
  gt_close(sess);
  TF_DeleteGraph(g);
}

/* Outer loop over i < n, inner loop over j < m adding 1 to a total: the
 * result is n*m; the inner frame is a new frame per outer iteration. */
typedef struct nested_arg {
  TF_Output m; /* the inner bound, entered into the outer frame */
} nested_arg;

static void body_inner(loop_ctx* c, const TF_Output* vars,
                       const TF_Output* inv, TF_Output* next, void* arg) {
  TF_Operation* one =
      gt_const(c->g, nm(c->prefix, "one"), gt_scalar_i32(1), c->pivot);
  (void)inv, (void)arg;
  next[0] = gt_out(gt_binop(c->g, "AddV2", nm(c->prefix, "inc"), vars[0],
                            gt_out(one, 0)),
                   0);
  next[1] = gt_out(gt_binop(c->g, "AddV2", nm(c->prefix, "tot"), vars[1],
                            gt_out(one, 0)),
                   0);
}

static void body_outer(loop_ctx* c, const TF_Output* vars,
                       const TF_Output* inv, TF_Output* next, void* arg) {
  TF_Operation* one =
      gt_const(c->g, nm(c->prefix, "one"), gt_scalar_i32(1), c->pivot);
  TF_Operation* jz =
      gt_const(c->g, nm(c->prefix, "jzero"), gt_scalar_i32(0), c->pivot);
  TF_Output init[2] = {gt_out(jz, 0), vars[1]};
  TF_Output iinv[1] = {inv[1]};
  TF_Output ex[2];
  (void)arg;
  build_while(c->g, "outer/inner", 2, init, 1, iinv, cond_less, body_inner,
              NULL, ex);
  next[0] = gt_out(gt_binop(c->g, "AddV2", nm(c->prefix, "inc"), vars[0],
                            gt_out(one, 0)),
                   0);
  next[1] = ex[1];
}

TEST(nested_while_loops) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* n = gt_placeholder(g, "n", TF_INT32);
  TF_Operation* m = gt_placeholder(g, "m", TF_INT32);
  TF_Operation* zero = gt_const(g, "zero", gt_scalar_i32(0), NULL);
  TF_Output init[2] = {gt_out(zero, 0), gt_out(zero, 0)};
  TF_Output inv[2] = {gt_out(n, 0), gt_out(m, 0)};
  TF_Output ex[2];
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  int cases[][2] = {{0, 5}, {3, 0}, {1, 1}, {4, 7}, {30, 20}};
  size_t k;
  build_while(g, "outer", 2, init, 2, inv, cond_less, body_outer, NULL, ex);
  sess = gt_session(g);
  for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    TF_Output feeds[2] = {gt_out(n, 0), gt_out(m, 0)};
    TF_Tensor* vals[2] = {gt_scalar_i32(cases[k][0]),
                          gt_scalar_i32(cases[k][1])};
    TF_Tensor* outs[2] = {NULL, NULL};
    TF_SessionRun(sess, NULL, feeds, vals, 2, ex, outs, 2, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(*(int32_t*)TF_TensorData(outs[0]), cases[k][0]);
    CHECK_EQ_INT(*(int32_t*)TF_TensorData(outs[1]), cases[k][0] * cases[k][1]);
    TF_DeleteTensor(outs[0]);
    TF_DeleteTensor(outs[1]);
    TF_DeleteTensor(vals[0]);
    TF_DeleteTensor(vals[1]);
  }
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

/* A loop whose body fails stops the run with the kernel's error; the
 * session stays usable. */
static void body_fail_at_3(loop_ctx* c, const TF_Output* vars,
                           const TF_Output* inv, TF_Output* next, void* arg) {
  TF_Operation* one =
      gt_const(c->g, nm(c->prefix, "one"), gt_scalar_i32(1), c->pivot);
  TF_Operation* three =
      gt_const(c->g, nm(c->prefix, "three"), gt_scalar_i32(3), c->pivot);
  TF_Operation* d = gt_binop(c->g, "Sub", nm(c->prefix, "d"), vars[0],
                             gt_out(three, 0));
  /* 1 / (i - 3) in int32: division by zero at i == 3 */
  TF_Operation* q = gt_binop(c->g, "FloorDiv", nm(c->prefix, "q"),
                             gt_out(one, 0), gt_out(d, 0));
  (void)inv, (void)arg;
  next[0] = gt_out(gt_binop(c->g, "AddV2", nm(c->prefix, "inc"), vars[0],
                            gt_out(one, 0)),
                   0);
  next[1] = gt_out(gt_binop(c->g, "AddV2", nm(c->prefix, "acc"), vars[1],
                            gt_out(q, 0)),
                   0);
}

TEST(while_loop_kernel_error_stops_run) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* n = gt_placeholder(g, "n", TF_INT32);
  TF_Operation* zero = gt_const(g, "zero", gt_scalar_i32(0), NULL);
  TF_Output init[2] = {gt_out(zero, 0), gt_out(zero, 0)};
  TF_Output inv[1] = {gt_out(n, 0)};
  TF_Output ex[2];
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  TF_Output feed;
  TF_Tensor* v;
  TF_Tensor* outs[2] = {NULL, NULL};
  build_while(g, "loop", 2, init, 1, inv, cond_less, body_fail_at_3, NULL, ex);
  sess = gt_session(g);
  feed = gt_out(n, 0);
  v = gt_scalar_i32(10);
  TF_SessionRun(sess, NULL, &feed, &v, 1, ex, outs, 2, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "loop/q");
  CHECK(outs[0] == NULL && outs[1] == NULL);
  TF_DeleteTensor(v);
  v = gt_scalar_i32(3); /* stops before i == 3 */
  TF_SessionRun(sess, NULL, &feed, &v, 1, ex, outs, 2, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(*(int32_t*)TF_TensorData(outs[0]), 3);
  /* 1/-3 + 1/-2 + 1/-1 with floor division: -1 + -1 + -1 */
  CHECK_EQ_INT(*(int32_t*)TF_TensorData(outs[1]), -3);
  TF_DeleteTensor(outs[0]);
  TF_DeleteTensor(outs[1]);
  TF_DeleteTensor(v);
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

/* A loop on an untaken branch of a conditional: its Exit is dead, and a
 * Merge after it takes the other branch. */
TEST(loop_inside_untaken_branch) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* n = gt_placeholder(g, "n", TF_INT32);
  TF_Operation* p = gt_placeholder(g, "p", TF_BOOL);
  TF_Operation* sw = gt_binop(g, "Switch", "sw", gt_out(n, 0), gt_out(p, 0));
  TF_Operation* zero = gt_const(g, "zero", gt_scalar_i32(0), NULL);
  TF_Output init[2] = {gt_out(zero, 0), gt_out(zero, 0)};
  TF_Output inv[1] = {gt_out(sw, 1)};
  TF_Output ex[2];
  TF_Operation* other;
  TF_Operation* m;
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  int pv;
  build_while(g, "loop", 2, init, 1, inv, cond_less, body_count_sum, NULL, ex);
  other = gt_unop(g, "Neg", "other", gt_out(sw, 0));
  {
    TF_Output ins[2] = {ex[1], gt_out(other, 0)};
    TF_OperationDescription* d = TF_NewOperation(g, "Merge", "m");
    TF_AddInputList(d, ins, 2);
    m = gt_finish(d);
  }
  sess = gt_session(g);
  for (pv = 0; pv < 2; pv++) {
    TF_Output feeds[2] = {gt_out(n, 0), gt_out(p, 0)};
    TF_Tensor* vals[2] = {gt_scalar_i32(5), gt_scalar_bool(pv)};
    TF_Output f = gt_out(m, 0);
    TF_Tensor* o = NULL;
    TF_SessionRun(sess, NULL, feeds, vals, 2, &f, &o, 1, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(*(int32_t*)TF_TensorData(o), pv ? 10 : -5);
    TF_DeleteTensor(o);
    TF_DeleteTensor(vals[0]);
    TF_DeleteTensor(vals[1]);
  }
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

/* Control flow ops in eager: no dead values there, the data is forwarded. */
TEST(control_flow_ops_registered) {
  TF_Status* s = TF_NewStatus();
  const char* ops[] = {"Switch", "RefSwitch", "Merge", "RefMerge", "Enter",
                       "RefEnter", "Exit", "RefExit", "NextIteration",
                       "RefNextIteration", "LoopCond", "ControlTrigger", "Abort"};
  size_t i;
  TF_Graph* g = TF_NewGraph();
  for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
    TF_Buffer* b = TF_NewBuffer();
    TF_GraphGetOpDef(g, ops[i], b, s);
    CHECK_CODE(s, TF_OK);
    CHECK(b->length > 0);
    TF_DeleteBuffer(b);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(control_trigger_and_ref_switch) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Operation* var;
  TF_Operation* init;
  TF_Operation* rs;
  TF_Operation* rd;
  TF_Operation* ct;
  TF_Operation* p = gt_placeholder(g, "p", TF_BOOL);
  TF_Session* sess;
  {
    TF_OperationDescription* d = TF_NewOperation(g, "VariableV2", "v");
    int64_t dims[1] = {2};
    TF_SetAttrType(d, "dtype", TF_FLOAT);
    TF_SetAttrShape(d, "shape", dims, 1);
    var = gt_finish(d);
  }
  {
    float vals[2] = {1.0f, 2.0f};
    int64_t dims[1] = {2};
    TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, sizeof(vals));
    TF_OperationDescription* d;
    TF_Operation* c;
    memcpy(TF_TensorData(t), vals, sizeof(vals));
    c = gt_const(g, "c", t, NULL);
    d = TF_NewOperation(g, "Assign", "assign");
    TF_AddInput(d, gt_out(var, 0));
    TF_AddInput(d, gt_out(c, 0));
    init = gt_finish(d);
  }
  rs = gt_binop(g, "RefSwitch", "rs", gt_out(var, 0), gt_out(p, 0));
  rd = gt_unop(g, "Identity", "rd", gt_out(rs, 1));
  {
    TF_OperationDescription* d = TF_NewOperation(g, "ControlTrigger", "ct");
    TF_AddControlInput(d, rd);
    ct = gt_finish(d);
  }
  sess = gt_session(g);
  {
    TF_Operation* tg[1] = {init};
    TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0,
                  (const TF_Operation* const*)tg, 1, NULL, s);
    CHECK_CODE(s, TF_OK);
  }
  {
    TF_Output feed = gt_out(p, 0);
    TF_Tensor* v = gt_scalar_bool(1);
    TF_Output f = gt_out(rd, 0);
    TF_Tensor* o = NULL;
    TF_Operation* tg[1] = {ct};
    TF_SessionRun(sess, NULL, &feed, &v, 1, &f, &o, 1,
                  (const TF_Operation* const*)tg, 1, NULL, s);
    CHECK_CODE(s, TF_OK);
    CHECK(((float*)TF_TensorData(o))[1] == 2.0f);
    TF_DeleteTensor(o);
    TF_DeleteTensor(v);
  }
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

/* Abort ends the process: normally with exit_without_error, else with
 * SIGABRT (run in a child process). */
static void run_abort(int quiet) {
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "Abort", "abort");
  TF_Operation* a;
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  TF_SetAttrString(d, "error_msg", "stop here", 9);
  TF_SetAttrBool(d, "exit_without_error", (unsigned char)quiet);
  a = gt_finish(d);
  sess = gt_session(g);
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0,
                (const TF_Operation* const*)&a, 1, NULL, s);
  _exit(3); /* not reached */
}

TEST(abort_op_ends_the_process) {
  int quiet;
  for (quiet = 0; quiet < 2; quiet++) {
    int status = 0;
    pid_t pid;
    fflush(NULL);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) run_abort(quiet);
    CHECK(waitpid(pid, &status, 0) == pid);
    if (quiet) {
      CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    } else {
      CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    }
  }
}

/* A loop invariant that arrives late (after a long chain in the parent
 * frame) still reaches every iteration: acc += k for i < n. */
static void body_add_late(loop_ctx* c, const TF_Output* vars,
                          const TF_Output* inv, TF_Output* next, void* arg) {
  TF_Operation* one =
      gt_const(c->g, nm(c->prefix, "one"), gt_scalar_i32(1), c->pivot);
  (void)arg;
  next[0] = gt_out(gt_binop(c->g, "AddV2", nm(c->prefix, "inc"), vars[0],
                            gt_out(one, 0)),
                   0);
  next[1] = gt_out(
      gt_binop(c->g, "AddV2", nm(c->prefix, "acc"), vars[1], inv[1]), 0);
}

TEST(late_loop_invariant) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* n = gt_placeholder(g, "n", TF_INT32);
  TF_Operation* k = gt_placeholder(g, "k", TF_INT32);
  TF_Operation* zero = gt_const(g, "zero", gt_scalar_i32(0), NULL);
  TF_Output chain = gt_out(k, 0);
  TF_Output init[2] = {gt_out(zero, 0), gt_out(zero, 0)};
  TF_Output inv[2];
  TF_Output ex[2];
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  int i;
  char name[32];
  for (i = 0; i < 300; i++) {
    snprintf(name, sizeof name, "chain%d", i);
    chain = gt_out(gt_unop(g, "Identity", name, chain), 0);
  }
  inv[0] = gt_out(n, 0);
  inv[1] = chain;
  build_while(g, "loop", 2, init, 2, inv, cond_less, body_add_late, NULL, ex);
  sess = gt_session(g);
  {
    TF_Output feeds[2] = {gt_out(n, 0), gt_out(k, 0)};
    TF_Tensor* vals[2] = {gt_scalar_i32(50), gt_scalar_i32(3)};
    TF_Tensor* outs[2] = {NULL, NULL};
    TF_SessionRun(sess, NULL, feeds, vals, 2, ex, outs, 2, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(*(int32_t*)TF_TensorData(outs[0]), 50);
    CHECK_EQ_INT(*(int32_t*)TF_TensorData(outs[1]), 150);
    TF_DeleteTensor(outs[0]);
    TF_DeleteTensor(outs[1]);
    TF_DeleteTensor(vals[0]);
    TF_DeleteTensor(vals[1]);
  }
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

/* A body that reads a value of the parent frame without an Enter: TF's
 * executor refuses the graph ("inputs from different frames"); so does
 * tfe, with INVALID_ARGUMENT, and fetching a value inside the loop too. */
static TF_Output g_outside;

static void body_bad_edge(loop_ctx* c, const TF_Output* vars,
                          const TF_Output* inv, TF_Output* next, void* arg) {
  (void)inv, (void)arg;
  next[0] = gt_out(
      gt_binop(c->g, "AddV2", nm(c->prefix, "inc"), vars[0], g_outside), 0);
  next[1] = vars[1];
}

TEST(edges_across_frames_are_rejected) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* n = gt_placeholder(g, "n", TF_INT32);
  TF_Operation* one = gt_const(g, "one", gt_scalar_i32(1), NULL);
  TF_Operation* zero = gt_const(g, "zero", gt_scalar_i32(0), NULL);
  TF_Output init[2] = {gt_out(zero, 0), gt_out(zero, 0)};
  TF_Output inv[1] = {gt_out(n, 0)};
  TF_Output ex[2];
  TF_Session* sess;
  TF_Code code;
  TF_Output feed = gt_out(n, 0);
  TF_Tensor* v = gt_scalar_i32(3);
  TF_Tensor* o;
  g_outside = gt_out(one, 0);
  build_while(g, "loop", 2, init, 1, inv, cond_less, body_bad_edge, NULL, ex);
  sess = gt_session(g);
  o = gt_run1(sess, &feed, v, ex[0], &code);
  CHECK_EQ_INT(code, TF_INVALID_ARGUMENT);
  CHECK(o == NULL);
  o = gt_run1(sess, &feed, v,
              gt_out(TF_GraphOperationByName(g, "loop/inc"), 0), &code);
  CHECK_EQ_INT(code, TF_INVALID_ARGUMENT);
  CHECK(o == NULL);
  TF_DeleteTensor(v);
  gt_close(sess);
  TF_DeleteGraph(g);
}

TFE_TEST_MAIN
