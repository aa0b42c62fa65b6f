/* SavedModel benchmark (issue 15), one source for both runtimes:
 * benchmarks/bench_saved_model.py compiles it once against tfe and once
 * against TensorFlow's own C library (libtensorflow_cc.so.2 of the
 * tensorflow-cpu wheel). It uses only c_api.h.
 *
 *   bench_saved_model once DIR IN OUT DIMS
 *       loads DIR (tags "serve"), feeds one float batch of shape DIMS
 *       (comma-separated, e.g. 1,16) into tensor IN, fetches OUT, prints
 *       its peak RSS and exits: the driver times the whole process.
 *   bench_saved_model steady DIR IN OUT DIMS [ROUNDS] [MIN_ROUND_MS]
 *       loads once, then times TF_SessionRun of one batch; prints the best
 *       round's mean in microseconds.
 *   bench_saved_model load DIR [ROUNDS]
 *       times TF_LoadSessionFromSavedModel alone (a new graph and session
 *       per round; best of ROUNDS) in milliseconds.
 *
 * The input holds the values (i % 97) / 97 - 0.5. Output lines:
 * "RESULT <runtime> <case> <value>" and "CHECK <runtime> <sum of outputs>"
 * so that the driver can check that both runtimes computed the same. */
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

#define MAX_DIMS 8

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

typedef struct model {
  TF_Graph* graph;
  TF_Session* session;
} model;

static model load(const char* dir, TF_Status* s) {
  model m;
  const char* tags[] = {"serve"};
  TF_SessionOptions* opts = TF_NewSessionOptions();
  m.graph = TF_NewGraph();
  m.session = TF_LoadSessionFromSavedModel(opts, NULL, dir, tags, 1, m.graph,
                                           NULL, s);
  TF_DeleteSessionOptions(opts);
  check(s, "TF_LoadSessionFromSavedModel");
  return m;
}

static void unload(model* m, TF_Status* s) {
  TF_CloseSession(m->session, s);
  TF_DeleteSession(m->session, s);
  TF_DeleteGraph(m->graph);
}

/* This process's peak resident set in kB (VmHWM of /proc/self/status:
 * counted from exec on, unlike getrusage, which also counts the parent
 * that forked it); -1 where /proc is missing. */
static long peak_rss_kb(void) {
  char line[256];
  long kb = -1;
  FILE* f = fopen("/proc/self/status", "r");
  if (f == NULL) return -1;
  while (fgets(line, sizeof line, f) != NULL) {
    if (strncmp(line, "VmHWM:", 6) == 0) {
      kb = atol(line + 6);
      break;
    }
  }
  fclose(f);
  return kb;
}

static TF_Output output_named(TF_Graph* g, const char* name) {
  char op[256];
  const char* colon = strrchr(name, ':');
  size_t n = colon != NULL ? (size_t)(colon - name) : strlen(name);
  TF_Output out;
  if (n >= sizeof op) n = sizeof op - 1;
  memcpy(op, name, n);
  op[n] = '\0';
  out.oper = TF_GraphOperationByName(g, op);
  out.index = colon != NULL ? atoi(colon + 1) : 0;
  if (out.oper == NULL) {
    fprintf(stderr, "%s: no tensor %s in the graph\n", BENCH_RUNTIME, name);
    exit(1);
  }
  return out;
}

static int parse_dims(const char* text, int64_t* dims) {
  int n = 0;
  while (*text != '\0' && n < MAX_DIMS) {
    char* end;
    dims[n++] = strtoll(text, &end, 10);
    text = *end == ',' ? end + 1 : end;
    if (*end != ',' && *end != '\0') break;
  }
  return n;
}

static TF_Tensor* make_input(const int64_t* dims, int ndims) {
  int64_t count = 1;
  int i;
  TF_Tensor* t;
  float* p;
  for (i = 0; i < ndims; i++) count *= dims[i];
  t = TF_AllocateTensor(TF_FLOAT, dims, ndims, (size_t)count * sizeof(float));
  p = (float*)TF_TensorData(t);
  for (i = 0; i < count; i++) p[i] = (float)(i % 97) / 97.0f - 0.5f;
  return t;
}

static double run_once(model* m, TF_Output in, TF_Tensor* x, TF_Output out,
                       TF_Status* s) {
  TF_Tensor* y = NULL;
  double sum = 0;
  TF_SessionRun(m->session, NULL, &in, &x, 1, &out, &y, 1, NULL, 0, NULL, s);
  check(s, "TF_SessionRun");
  if (TF_TensorType(y) == TF_FLOAT) {
    const float* p = (const float*)TF_TensorData(y);
    size_t i, n = TF_TensorByteSize(y) / sizeof(float);
    for (i = 0; i < n; i++) sum += p[i];
  }
  TF_DeleteTensor(y);
  return sum;
}

int main(int argc, char** argv) {
  TF_Status* s = TF_NewStatus();
  const char* mode = argc > 2 ? argv[1] : "";
  if (strcmp(mode, "load") == 0) {
    int r, rounds = argc > 3 ? atoi(argv[3]) : 3;
    double best = 1e300;
    for (r = 0; r < rounds; r++) {
      double t0 = now_ns(), dt;
      model m = load(argv[2], s);
      dt = now_ns() - t0;
      unload(&m, s);
      if (dt < best) best = dt;
    }
    printf("RESULT %s load %.3f\n", BENCH_RUNTIME, best / 1e6);
  } else if ((strcmp(mode, "once") == 0 || strcmp(mode, "steady") == 0) &&
             argc >= 6) {
    int64_t dims[MAX_DIMS];
    int ndims = parse_dims(argv[5], dims);
    model m = load(argv[2], s);
    TF_Output in = output_named(m.graph, argv[3]);
    TF_Output out = output_named(m.graph, argv[4]);
    TF_Tensor* x = make_input(dims, ndims);
    double sum = run_once(&m, in, x, out, s);
    if (strcmp(mode, "steady") == 0) {
      int r, rounds = argc > 6 ? atoi(argv[6]) : 7;
      double min_round = (argc > 7 ? atof(argv[7]) : 200.0) * 1e6, best = 1e300;
      for (r = 0; r < rounds; r++) {
        long n = 0;
        double t0 = now_ns(), dt;
        do {
          run_once(&m, in, x, out, s);
          n++;
          dt = now_ns() - t0;
        } while (dt < min_round);
        if (dt / (double)n < best) best = dt / (double)n;
      }
      printf("RESULT %s steady %.3f\n", BENCH_RUNTIME, best / 1e3);
    }
    printf("CHECK %s %.6g\n", BENCH_RUNTIME, sum);
    printf("RESULT %s rss_kb %ld\n", BENCH_RUNTIME, peak_rss_kb());
    TF_DeleteTensor(x);
    unload(&m, s);
  } else {
    fprintf(stderr,
            "usage: bench_saved_model once|steady DIR IN OUT DIMS [ROUNDS "
            "MIN_ROUND_MS]\n       bench_saved_model load DIR [ROUNDS]\n");
    TF_DeleteStatus(s);
    return 2;
  }
  TF_DeleteStatus(s);
  return 0;
}
