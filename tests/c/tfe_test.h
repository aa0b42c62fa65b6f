/* A tiny test harness for tfe's C tests.
 *
 *   TEST(name) { CHECK(...); CHECK_EQ_INT(a, b); CHECK_CODE(status, TF_OK); }
 *   TFE_TEST_MAIN
 *
 * Run with a test name to run just that test (ctest does this, one process
 * per test); with no argument every test runs. A failed check prints the
 * file, line and values, and the process exits 1. */
#ifndef TFE_TEST_H_
#define TFE_TEST_H_

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/tf_status.h"

typedef void (*tfe_test_fn)(void);
static struct {
  const char* name;
  tfe_test_fn fn;
} tfe_tests[256];
static int tfe_ntests;

static inline void tfe_test_register(const char* name, tfe_test_fn fn) {
  if (tfe_ntests < 256) {
    tfe_tests[tfe_ntests].name = name;
    tfe_tests[tfe_ntests].fn = fn;
    tfe_ntests++;
  }
}

#define TEST(name)                                                        \
  static void test_##name(void);                                          \
  __attribute__((constructor)) static void tfe_register_##name(void) {    \
    tfe_test_register(#name, test_##name);                                \
  }                                                                       \
  static void test_##name(void)

#define TFE_FAIL(...)                                          \
  do {                                                         \
    fprintf(stderr, "%s:%d: check failed: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__);                              \
    fprintf(stderr, "\n");                                     \
    exit(1);                                                   \
  } while (0)

#define CHECK(cond) \
  do {              \
    if (!(cond)) TFE_FAIL("%s", #cond); \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                  \
  do {                                                                      \
    long long va_ = (long long)(a), vb_ = (long long)(b);                   \
    if (va_ != vb_) TFE_FAIL("%s == %s (%lld vs %lld)", #a, #b, va_, vb_);  \
  } while (0)

#define CHECK_EQ_SIZE(a, b)                                                \
  do {                                                                     \
    size_t va_ = (size_t)(a), vb_ = (size_t)(b);                           \
    if (va_ != vb_) TFE_FAIL("%s == %s (%zu vs %zu)", #a, #b, va_, vb_);   \
  } while (0)

#define CHECK_STR_EQ(a, b)                                                 \
  do {                                                                     \
    const char *sa_ = (a), *sb_ = (b);                                     \
    if (sa_ == NULL || sb_ == NULL || strcmp(sa_, sb_) != 0)               \
      TFE_FAIL("%s == %s (\"%s\" vs \"%s\")", #a, #b, sa_ ? sa_ : "(null)", \
               sb_ ? sb_ : "(null)");                                      \
  } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                     \
  do {                                                                      \
    const char *h_ = (hay), *n_ = (needle);                                 \
    if (h_ == NULL || strstr(h_, n_) == NULL)                               \
      TFE_FAIL("\"%s\" contains \"%s\"", h_ ? h_ : "(null)", n_);           \
  } while (0)

/* Checks a TF_Status code; prints the status message on failure. */
#define CHECK_CODE(status, expected)                                        \
  do {                                                                      \
    int got_ = (int)TF_GetCode(status), want_ = (int)(expected);            \
    if (got_ != want_)                                                      \
      TFE_FAIL("status code %d, expected %d (%s): %s", got_, want_,         \
               #expected, TF_Message(status));                              \
  } while (0)

#define TFE_TEST_MAIN                                                  \
  int main(int argc, char** argv) {                                    \
    int i, ran = 0;                                                    \
    for (i = 0; i < tfe_ntests; i++) {                                 \
      if (argc > 1 && strcmp(argv[1], tfe_tests[i].name) != 0) continue; \
      tfe_tests[i].fn();                                               \
      ran++;                                                           \
    }                                                                  \
    if (ran == 0) {                                                    \
      fprintf(stderr, "no test named %s\n", argc > 1 ? argv[1] : "");  \
      return 2;                                                        \
    }                                                                  \
    printf("%d test(s) passed\n", ran);                                \
    return 0;                                                          \
  }

#endif /* TFE_TEST_H_ */
