/* The per-file harness shared by the white-box kernel tests: a status, an
 * attr set A that each run consumes, an output array, and helpers.
 *   begin();  A gets attrs;  n = run("Op", nin, t0, t1, ...);  check OUT[..];
 *   drop(n);
 * run() takes ownership of its input tensors and returns the number of
 * outputs, or -1 with S holding the error. Include once per test file. */
#ifndef TFE_TESTS_KERNEL_TEST_HARNESS_H_
#define TFE_TESTS_KERNEL_TEST_HARNESS_H_

#include <stdarg.h>

#include "kernel_test_ops.h"
#include "kernel_test_util.h"

static TF_Status* S;
static tfe_attrs A;
static TF_Tensor* OUT[KT_MAX_IO];

static void begin(void) {
  kt_register_fallback_ops();
  if (S == NULL) S = TF_NewStatus();
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
}

static int run(const char* op, int nin, ...) {
  TF_Tensor* in[KT_MAX_IO];
  va_list ap;
  int i, n;
  va_start(ap, nin);
  for (i = 0; i < nin; i++) in[i] = va_arg(ap, TF_Tensor*);
  va_end(ap);
  n = kt_run(op, &A, in, nin, OUT, S);
  tfe_attrs_clear(&A);
  return n;
}

static void drop(int n) {
  int i;
  for (i = 0; i < n; i++) {
    TF_DeleteTensor(OUT[i]);
    OUT[i] = NULL;
  }
}

#define EXPECT_ERR(n, code, frag)              \
  do {                                         \
    CHECK_EQ_INT((n), -1);                     \
    CHECK_CODE(S, (code));                     \
    CHECK_STR_CONTAINS(TF_Message(S), (frag)); \
  } while (0)

#define EXPECT_OK(n, want)                                                \
  do {                                                                    \
    if ((n) != (want)) {                                                  \
      TFE_FAIL("run returned %d, expected %d: %s", (n), (want),           \
               TF_Message(S));                                            \
    }                                                                     \
  } while (0)

#endif /* TFE_TESTS_KERNEL_TEST_HARNESS_H_ */
