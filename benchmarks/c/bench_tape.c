/* The cost a gradient tape adds to TFE_Execute per recorded op (issue 17).
 *
 * One TFE_Op, AddV2(x, c) on float scalars, executed repeatedly: once with
 * no tape, once with a tape watching x (so every execution is recorded).
 * A round runs `ops` executions; with a tape, the round also creates the
 * tape, watches x and deletes the tape (releasing its records), so that
 * cost is included, spread over the round's ops. The two variants
 * alternate round by round and each keeps its best round (least
 * disturbed by other load). Prints
 *   RESULT tfe plain_ns <ns per op without a tape, outputs deleted at once>
 *   RESULT tfe kept_ns <ns per op without a tape, outputs kept to the end>
 *   RESULT tfe taped_ns <ns per op with a tape>
 *   RESULT tfe tape_ns <taped - kept: the tape's own work per op>
 *   RESULT tfe tape_total_ns <taped - plain: also counting that the tape
 *                             keeps every output alive until released>
 *
 * Usage: bench_tape [--rounds N] [--ops N] */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tfe/gradients.h"

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void check(TF_Status* s, const char* what) {
  if (TF_GetCode(s) != TF_OK) {
    fprintf(stderr, "%s: %s\n", what, TF_Message(s));
    exit(1);
  }
}

static TFE_TensorHandle* scalar(float v, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  TFE_TensorHandle* h;
  memcpy(TF_TensorData(t), &v, sizeof v);
  h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  check(s, "TFE_NewTensorHandle");
  return h;
}

/* One round: ns per op. mode 0: no tape, each output deleted at once;
 * 1: no tape, outputs kept until the end of the round (as a tape keeps
 * them); 2: a tape records every op (the caller deletes its outputs at
 * once; the tape keeps them until it is deleted at the end of the round). */
static double round_ns(TFE_Context* ctx, TFE_Op* op, TFE_TensorHandle* x, int ops, int mode,
                       TFE_TensorHandle** kept, TF_Status* s) {
  TFE_GradientTape* tape = NULL;
  double t0 = now_ns();
  int i, taped = mode == 2;
  if (taped) {
    tape = TFE_NewGradientTape(ctx, 1, s);
    check(s, "TFE_NewGradientTape");
    TFE_GradientTapeWatch(tape, x, s);
    check(s, "TFE_GradientTapeWatch");
  }
  for (i = 0; i < ops; i++) {
    TFE_TensorHandle* out = NULL;
    int n = 1;
    TFE_Execute(op, &out, &n, s);
    if (TF_GetCode(s) != TF_OK) break;
    if (mode == 1) {
      kept[i] = out;
    } else {
      TFE_DeleteTensorHandle(out);
    }
  }
  check(s, "TFE_Execute");
  if (mode == 1) {
    for (i = 0; i < ops; i++) TFE_DeleteTensorHandle(kept[i]);
  }
  if (taped) {
    if (TFE_GradientTapeNumRecordedOps(tape) != ops) {
      fprintf(stderr, "the tape recorded %d ops, expected %d\n",
              TFE_GradientTapeNumRecordedOps(tape), ops);
      exit(1);
    }
    TFE_DeleteGradientTape(tape);
  }
  return (now_ns() - t0) / ops;
}

int main(int argc, char** argv) {
  int rounds = 30, ops = 2000, r, i;
  double best[3] = {1e30, 1e30, 1e30};
  TFE_TensorHandle** kept;
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  TFE_TensorHandle *x, *c;
  TFE_Op* op;
  for (i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--rounds") == 0) rounds = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--ops") == 0) ops = atoi(argv[i + 1]);
  }
  if (rounds < 1) rounds = 1;
  if (ops < 1) ops = 1;
  kept = (TFE_TensorHandle**)calloc((size_t)ops, sizeof *kept);
  if (kept == NULL) return 1;
  ctx = TFE_NewContext(o, s);
  check(s, "TFE_NewContext");
  TFE_DeleteContextOptions(o);
  x = scalar(1.5f, s);
  c = scalar(0.25f, s);
  op = TFE_NewOp(ctx, "AddV2", s);
  check(s, "TFE_NewOp");
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, c, s);
  check(s, "TFE_OpAddInput");
  for (i = 0; i < 3; i++) (void)round_ns(ctx, op, x, ops, i, kept, s); /* warm up */
  for (r = 0; r < rounds; r++) {
    for (i = 0; i < 3; i++) {
      int mode = (i + r) % 3; /* rotate which goes first */
      double v = round_ns(ctx, op, x, ops, mode, kept, s);
      if (v < best[mode]) best[mode] = v;
    }
  }
  printf("tape: AddV2 on scalars, %d ops per round, best of %d rounds: %.1f ns without a tape "
         "(outputs deleted at once), %.1f ns without a tape (outputs kept to the round's end), "
         "%.1f ns recorded on a tape\n", ops, rounds, best[0], best[1], best[2]);
  printf("RESULT tfe plain_ns %.2f\n", best[0]);
  printf("RESULT tfe kept_ns %.2f\n", best[1]);
  printf("RESULT tfe taped_ns %.2f\n", best[2]);
  /* The tape's own work (records, tracked set, references, release). */
  printf("RESULT tfe tape_ns %.2f\n", best[2] - best[1]);
  /* Also counting that the tape keeps the outputs alive. */
  printf("RESULT tfe tape_total_ns %.2f\n", best[2] - best[0]);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(c);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  free(kept);
  return 0;
}
