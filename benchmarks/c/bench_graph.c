/* Graph and session benchmark (issue 14), one source for both runtimes:
 * benchmarks/bench_graphs.py compiles it once against tfe and once against
 * TensorFlow's own C API library (libtensorflow_cc.so.2 from the
 * tensorflow-cpu wheel) and prints the ratios. It uses only c_api.h.
 *
 *   session_run   TF_SessionRun of a one-node graph: two scalar float
 *                 placeholders fed, their AddV2 fetched (and the output
 *                 tensor deleted) per run. Reports ns per run.
 *   graph1000     one run of a 1,000-node elementwise graph on a float
 *                 vector (placeholder fed, last node fetched). Reports us.
 *   import10k     TF_GraphImportGraphDef of a 10,000-node GraphDef into an
 *                 empty graph (deleting the graph is not timed). Reports ms.
 *
 * Both GraphDefs are encoded here byte by byte (the protobuf wire format of
 * GraphDef/NodeDef/AttrValue), so both runtimes import the same bytes. The
 * elementwise graph is a chain of nodes n1, n2, ... on placeholder x (n0):
 * by k % 5, node k is n(k-1) * 0.5, n(k-1) + n(j), max(n(k-1), n(j)),
 * min(n(k-1), n(j)) or n(k-1) - 0.5, where j = max(0, k-2-(k % 7)) and 0.5
 * is one scalar Const; values stay bounded (about -2..1). bench_graphs.py
 * runs the same structure with numpy for the reference and the checksum.
 *
 * Usage: bench_graph [--elements N] [--min-round-ms MS] [--rounds R] [CASE...]
 *        bench_graph --dump FILE   (writes import10k's GraphDef and exits)
 * Output: human-readable lines, then "RESULT <runtime> <case> <value>" and
 * "CHECK <runtime> <case> <checksum>" lines for the driver. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tensorflow/c/c_api.h"

#ifndef BENCH_RUNTIME
#define BENCH_RUNTIME "tfe"
#endif

static int g_rounds = 7;
static double g_min_round_ms = 200.0;
static int64_t g_elements = 1024;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void check(TF_Status* s, const char* what) {
  if (TF_GetCode(s) != TF_OK) {
    fprintf(stderr, "%s: %s failed: %s\n", BENCH_RUNTIME, what, TF_Message(s));
    exit(1);
  }
}

static int cmp_double(const void* x, const void* y) {
  double a = *(const double*)x, b = *(const double*)y;
  return a < b ? -1 : a > b;
}

/* ------------------------------------------------------ wire encoding */
typedef struct {
  unsigned char* p;
  size_t n, cap;
} buf;

static void put(buf* b, const void* src, size_t n) {
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    while (cap < b->n + n) cap *= 2;
    b->p = realloc(b->p, cap);
    if (!b->p) {
      fprintf(stderr, "out of memory\n");
      exit(1);
    }
    b->cap = cap;
  }
  memcpy(b->p + b->n, src, n);
  b->n += n;
}

static void put_varint(buf* b, uint64_t v) {
  unsigned char tmp[10];
  size_t n = 0;
  do {
    tmp[n] = (unsigned char)(v & 0x7f);
    v >>= 7;
    if (v) tmp[n] |= 0x80;
    n++;
  } while (v);
  put(b, tmp, n);
}

/* Field with wire type 2 (length-delimited). */
static void put_bytes(buf* b, int field, const void* data, size_t n) {
  put_varint(b, ((uint64_t)field << 3) | 2);
  put_varint(b, n);
  put(b, data, n);
}

static void put_str(buf* b, int field, const char* s) {
  put_bytes(b, field, s, strlen(s));
}

static void put_int(buf* b, int field, uint64_t v) {
  put_varint(b, (uint64_t)field << 3);
  put_varint(b, v);
}

/* NodeDef.attr map entry {key, AttrValue}. */
static void put_attr(buf* node, const char* key, const buf* value) {
  buf e = {0};
  put_str(&e, 1, key);
  put_bytes(&e, 2, value->p, value->n);
  put_bytes(node, 5, e.p, e.n);
  free(e.p);
}

static void put_type_attr(buf* node, const char* key, TF_DataType t) {
  buf v = {0};
  put_int(&v, 6, (uint64_t)t); /* AttrValue.type */
  put_attr(node, key, &v);
  free(v.p);
}

static void node_name(char* out, size_t cap, int k) {
  if (k == 0)
    snprintf(out, cap, "x");
  else
    snprintf(out, cap, "n%d", k);
}

/* A GraphDef: placeholder "x" (float, [elements]), scalar const "half",
 * then nodes n1..n(total-2) as described at the top. The fetch is
 * n(total-2). */
static buf encode_graph(int total) {
  buf g = {0};
  char name[32], in1[32], in2[32];
  int k;
  {
    buf node = {0}, shape = {0}, dim = {0}, v = {0};
    put_str(&node, 1, "x");
    put_str(&node, 2, "Placeholder");
    put_type_attr(&node, "dtype", TF_FLOAT);
    put_int(&dim, 1, (uint64_t)g_elements); /* Dim.size */
    put_bytes(&shape, 2, dim.p, dim.n);     /* TensorShapeProto.dim */
    put_bytes(&v, 7, shape.p, shape.n);     /* AttrValue.shape */
    put_attr(&node, "shape", &v);
    put_bytes(&g, 1, node.p, node.n);
    free(node.p);
    free(shape.p);
    free(dim.p);
    free(v.p);
  }
  {
    buf node = {0}, tensor = {0}, v = {0}, shape = {0};
    float half = 0.5f;
    put_str(&node, 1, "half");
    put_str(&node, 2, "Const");
    put_type_attr(&node, "dtype", TF_FLOAT);
    put_int(&tensor, 1, TF_FLOAT);                /* TensorProto.dtype */
    put_bytes(&tensor, 2, shape.p, shape.n);      /* scalar shape */
    put_bytes(&tensor, 4, &half, sizeof half);    /* tensor_content */
    put_bytes(&v, 8, tensor.p, tensor.n);         /* AttrValue.tensor */
    put_attr(&node, "value", &v);
    put_bytes(&g, 1, node.p, node.n);
    free(node.p);
    free(tensor.p);
    free(v.p);
  }
  for (k = 1; k <= total - 2; k++) {
    static const char* const kOps[] = {"Mul", "AddV2", "Maximum", "Minimum",
                                       "Sub"};
    const char* op = kOps[k % 5];
    int other = k - 2 - (k % 7);
    buf node = {0};
    if (other < 0) other = 0;
    node_name(name, sizeof name, k);
    node_name(in1, sizeof in1, k - 1);
    if (k % 5 == 0 || k % 5 == 4)
      snprintf(in2, sizeof in2, "half");
    else
      node_name(in2, sizeof in2, other);
    put_str(&node, 1, name);
    put_str(&node, 2, op);
    put_str(&node, 3, in1);
    put_str(&node, 3, in2);
    put_type_attr(&node, "T", TF_FLOAT);
    put_bytes(&g, 1, node.p, node.n);
    free(node.p);
  }
  {
    buf versions = {0};
    put_int(&versions, 1, 2474); /* producer */
    put_bytes(&g, 4, versions.p, versions.n);
    free(versions.p);
  }
  return g;
}

static TF_Graph* import_graph(const buf* gd, TF_Status* s) {
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* b = TF_NewBufferFromString(gd->p, gd->n);
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g, b, o, s);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteBuffer(b);
  check(s, "TF_GraphImportGraphDef");
  return g;
}

static TF_Session* new_session(TF_Graph* g, TF_Status* s) {
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, o, s);
  TF_DeleteSessionOptions(o);
  check(s, "TF_NewSession");
  return sess;
}

static void close_session(TF_Session* sess, TF_Status* s) {
  TF_CloseSession(sess, s);
  check(s, "TF_CloseSession");
  TF_DeleteSession(sess, s);
  check(s, "TF_DeleteSession");
}

/* Times fn(arg) repeated: iterations are doubled until one batch takes at
 * least 1/4 of a round, then g_rounds rounds of about g_min_round_ms each.
 * Returns the best time per call in ns; *median gets the median. */
typedef void (*bench_fn)(void* arg, long n);
static double time_it(bench_fn fn, void* arg, double* median) {
  double per[64];
  long iters = 1;
  int r;
  for (;;) {
    double t0 = now_ns();
    fn(arg, iters);
    if (now_ns() - t0 >= g_min_round_ms * 1e6 / 4 || iters >= (1L << 30))
      break;
    iters *= 2;
  }
  iters *= 4;
  for (r = 0; r < g_rounds; r++) {
    double t0 = now_ns();
    fn(arg, iters);
    per[r] = (now_ns() - t0) / (double)iters;
  }
  qsort(per, (size_t)g_rounds, sizeof(double), cmp_double);
  *median = per[g_rounds / 2];
  return per[0];
}

/* ------------------------------------------------------ session_run */
typedef struct {
  TF_Session* sess;
  TF_Output in[2], out;
  TF_Tensor* vals[2];
  TF_Status* s;
} run_state;

static void session_run_loop(void* arg, long n) {
  run_state* st = arg;
  long i;
  for (i = 0; i < n; i++) {
    TF_Tensor* out = NULL;
    TF_SessionRun(st->sess, NULL, st->in, st->vals, 2, &st->out, &out, 1,
                  NULL, 0, NULL, st->s);
    TF_DeleteTensor(out);
  }
  check(st->s, "TF_SessionRun");
}

static TF_Operation* placeholder(TF_Graph* g, const char* name,
                                 TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_Operation* op;
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", NULL, 0);
  op = TF_FinishOperation(d, s);
  check(s, "TF_FinishOperation(Placeholder)");
  return op;
}

static TF_Tensor* scalar(float v) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof v);
  memcpy(TF_TensorData(t), &v, sizeof v);
  return t;
}

static void bench_session_run(TF_Status* s) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation *a = placeholder(g, "a", s), *b = placeholder(g, "b", s), *add;
  TF_OperationDescription* d = TF_NewOperation(g, "AddV2", "sum");
  run_state st;
  double best, median;
  TF_Tensor* out = NULL;
  TF_AddInput(d, (TF_Output){a, 0});
  TF_AddInput(d, (TF_Output){b, 0});
  add = TF_FinishOperation(d, s);
  check(s, "TF_FinishOperation(AddV2)");
  st.sess = new_session(g, s);
  st.in[0] = (TF_Output){a, 0};
  st.in[1] = (TF_Output){b, 0};
  st.out = (TF_Output){add, 0};
  st.vals[0] = scalar(1.5f);
  st.vals[1] = scalar(2.25f);
  st.s = s;
  TF_SessionRun(st.sess, NULL, st.in, st.vals, 2, &st.out, &out, 1, NULL, 0,
                NULL, s);
  check(s, "TF_SessionRun");
  if (*(float*)TF_TensorData(out) != 3.75f) {
    fprintf(stderr, "%s: wrong sum %g\n", BENCH_RUNTIME,
            *(float*)TF_TensorData(out));
    exit(1);
  }
  TF_DeleteTensor(out);
  best = time_it(session_run_loop, &st, &median);
  printf("%s: TF_SessionRun, one AddV2 node, 2 scalar feeds + 1 fetch: "
         "%.0f ns/run (best of %d rounds; median %.0f)\n",
         BENCH_RUNTIME, best, g_rounds, median);
  printf("RESULT %s session_run %.1f\n", BENCH_RUNTIME, best);
  TF_DeleteTensor(st.vals[0]);
  TF_DeleteTensor(st.vals[1]);
  close_session(st.sess, s);
  TF_DeleteGraph(g);
}

/* ------------------------------------------------------- graph1000 */
typedef struct {
  TF_Session* sess;
  TF_Output in, out;
  TF_Tensor* val;
  TF_Status* s;
  double checksum;
} graph_state;

static void graph_run_loop(void* arg, long n) {
  graph_state* st = arg;
  long i;
  for (i = 0; i < n; i++) {
    TF_Tensor* out = NULL;
    TF_SessionRun(st->sess, NULL, &st->in, &st->val, 1, &st->out, &out, 1,
                  NULL, 0, NULL, st->s);
    check(st->s, "TF_SessionRun");
    if (i == 0) {
      const float* f = TF_TensorData(out);
      int64_t j;
      st->checksum = 0;
      for (j = 0; j < g_elements; j++) st->checksum += f[j];
    }
    TF_DeleteTensor(out);
  }
}

static void bench_graph1000(TF_Status* s) {
  buf gd = encode_graph(1002); /* x, half and 1,000 elementwise nodes */
  TF_Graph* g = import_graph(&gd, s);
  graph_state st;
  int64_t dims[1];
  int64_t j;
  float* x;
  char last[32];
  double best, median;
  dims[0] = g_elements;
  node_name(last, sizeof last, 1000);
  st.sess = new_session(g, s);
  st.in = (TF_Output){TF_GraphOperationByName(g, "x"), 0};
  st.out = (TF_Output){TF_GraphOperationByName(g, last), 0};
  if (!st.in.oper || !st.out.oper) {
    fprintf(stderr, "%s: imported graph lacks x or %s\n", BENCH_RUNTIME, last);
    exit(1);
  }
  st.val = TF_AllocateTensor(TF_FLOAT, dims, 1,
                             (size_t)g_elements * sizeof(float));
  x = TF_TensorData(st.val);
  for (j = 0; j < g_elements; j++) x[j] = (float)((j * 37) % 101) / 50.0f - 1;
  st.s = s;
  graph_run_loop(&st, 1);
  best = time_it(graph_run_loop, &st, &median);
  printf("%s: 1,000-node elementwise graph on %lld floats: %.1f us/run "
         "(best of %d rounds; median %.1f)\n",
         BENCH_RUNTIME, (long long)g_elements, best / 1e3, g_rounds,
         median / 1e3);
  printf("RESULT %s graph1000 %.3f\n", BENCH_RUNTIME, best / 1e3);
  printf("CHECK %s graph1000 %.6g\n", BENCH_RUNTIME, st.checksum);
  TF_DeleteTensor(st.val);
  close_session(st.sess, s);
  TF_DeleteGraph(g);
  free(gd.p);
}

/* ------------------------------------------------------- import10k */
typedef struct {
  buf gd;
  TF_Status* s;
  double ns; /* time spent importing only */
} import_state;

static void import_loop(void* arg, long n) {
  import_state* st = arg;
  long i;
  for (i = 0; i < n; i++) {
    double t0 = now_ns();
    TF_Graph* g = import_graph(&st->gd, st->s);
    st->ns += now_ns() - t0;
    TF_DeleteGraph(g);
  }
}

static void bench_import10k(TF_Status* s) {
  import_state st;
  double per[64];
  int r;
  long iters = 1;
  st.gd = encode_graph(10000);
  st.s = s;
  /* Like time_it, but only the import itself is counted. */
  for (;;) {
    st.ns = 0;
    import_loop(&st, iters);
    if (st.ns >= g_min_round_ms * 1e6 / 4) break;
    iters *= 2;
  }
  iters *= 4;
  for (r = 0; r < g_rounds; r++) {
    st.ns = 0;
    import_loop(&st, iters);
    per[r] = st.ns / (double)iters;
  }
  qsort(per, (size_t)g_rounds, sizeof(double), cmp_double);
  {
    TF_Graph* g = import_graph(&st.gd, s);
    size_t pos = 0;
    int count = 0;
    while (TF_GraphNextOperation(g, &pos)) count++;
    TF_DeleteGraph(g);
    printf("%s: TF_GraphImportGraphDef of a %d-node GraphDef (%zu bytes): "
           "%.2f ms (best of %d rounds; median %.2f)\n",
           BENCH_RUNTIME, count, st.gd.n, per[0] / 1e6, g_rounds,
           per[g_rounds / 2] / 1e6);
    printf("CHECK %s import10k %d\n", BENCH_RUNTIME, count);
  }
  printf("RESULT %s import10k %.3f\n", BENCH_RUNTIME, per[0] / 1e6);
  free(st.gd.p);
}

int main(int argc, char** argv) {
  TF_Status* s = TF_NewStatus();
  int i, ran = 0, all = 1;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--elements") && i + 1 < argc) {
      g_elements = atoll(argv[++i]);
    } else if (!strcmp(argv[i], "--min-round-ms") && i + 1 < argc) {
      g_min_round_ms = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--dump") && i + 1 < argc) {
      /* Writes the 10,000-node GraphDef of import10k and exits. */
      buf gd = encode_graph(10000);
      FILE* f = fopen(argv[++i], "wb");
      if (!f || fwrite(gd.p, 1, gd.n, f) != gd.n || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", argv[i]);
        return 1;
      }
      free(gd.p);
      TF_DeleteStatus(s);
      return 0;
    } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
      g_rounds = atoi(argv[++i]);
      if (g_rounds < 1) g_rounds = 1;
      if (g_rounds > 64) g_rounds = 64;
    } else {
      all = 0;
    }
  }
  if (g_elements < 1) g_elements = 1;
  for (i = 1; i < argc; i++) {
    if (argv[i][0] == '-') {
      i++;
      continue;
    }
    if (!strcmp(argv[i], "session_run")) {
      bench_session_run(s);
    } else if (!strcmp(argv[i], "graph1000")) {
      bench_graph1000(s);
    } else if (!strcmp(argv[i], "import10k")) {
      bench_import10k(s);
    } else {
      fprintf(stderr, "unknown case %s\n", argv[i]);
      return 2;
    }
    ran++;
  }
  if (all || !ran) {
    bench_session_run(s);
    bench_graph1000(s);
    bench_import10k(s);
  }
  TF_DeleteStatus(s);
  return 0;
}
