/* TF_Log, TF_VLog, TF_DVLog: output goes to stderr, filtered by
 * TF_CPP_MIN_LOG_LEVEL and TF_CPP_MAX_VLOG_LEVEL as logging.h documents.
 *
 * The thresholds are read from the environment on first use, so each case
 * runs in a forked child: the child sets the variables before its first
 * log call, points fd 2 at a temporary file, logs, and exits. The parent
 * reads the file back. That way every test is independent even when all
 * tests run in one process. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tensorflow/c/logging.h"
#include "tfe_test.h"

typedef void (*log_body)(void);

static char g_out[65536];
static char g_stdout[4096];

/* Reads the whole file behind fd into buf (NUL-terminated), closes it. */
static void slurp(int fd, char* buf, size_t cap) {
  size_t used = 0;
  ssize_t n;
  lseek(fd, 0, SEEK_SET);
  while (used + 1 < cap && (n = read(fd, buf + used, cap - 1 - used)) > 0) {
    used += (size_t)n;
  }
  buf[used] = '\0';
  close(fd);
}

/* Runs body in a child with the given environment (NULL: unset) and
 * returns everything it wrote to stderr; its stdout goes to g_stdout.
 * Fails the test if the child does not exit normally with status 0. */
static const char* run_logged(const char* min_level, const char* max_vlog,
                              log_body body) {
  char path[] = "/tmp/tfe_test_logging_XXXXXX";
  char out_path[] = "/tmp/tfe_test_logging_out_XXXXXX";
  int fd = mkstemp(path);
  int out_fd = mkstemp(out_path);
  pid_t pid;
  int wstatus = 0;
  if (fd < 0 || out_fd < 0) TFE_FAIL("mkstemp failed");
  fflush(NULL);
  pid = fork();
  if (pid < 0) TFE_FAIL("fork failed");
  if (pid == 0) {
    if (min_level) setenv("TF_CPP_MIN_LOG_LEVEL", min_level, 1);
    else unsetenv("TF_CPP_MIN_LOG_LEVEL");
    if (max_vlog) setenv("TF_CPP_MAX_VLOG_LEVEL", max_vlog, 1);
    else unsetenv("TF_CPP_MAX_VLOG_LEVEL");
    if (dup2(fd, 2) < 0 || dup2(out_fd, 1) < 0) _exit(3);
    close(fd);
    close(out_fd);
    body();
    fflush(stdout);
    fflush(stderr);
    exit(0); /* exit, not _exit: let sanitizers run their checks */
  }
  if (waitpid(pid, &wstatus, 0) != pid) TFE_FAIL("waitpid failed");
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    TFE_FAIL("logging child did not exit cleanly (wait status %d)", wstatus);
  }
  slurp(fd, g_out, sizeof g_out);
  slurp(out_fd, g_stdout, sizeof g_stdout);
  unlink(path);
  unlink(out_path);
  return g_out;
}

static int count_lines(const char* s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

#define CHECK_NOT_CONTAINS(hay, needle)                                \
  do {                                                                 \
    if (strstr((hay), (needle)) != NULL)                               \
      TFE_FAIL("\"%s\" should not contain \"%s\"", (hay), (needle));   \
  } while (0)

/* ---- bodies run inside the child ---------------------------------------- */

static void log_all_levels(void) {
  TF_Log(TF_INFO, "msg-info %d", 0);
  TF_Log(TF_WARNING, "msg-warning %d", 1);
  TF_Log(TF_ERROR, "msg-error %d", 2);
  TF_Log(TF_FATAL, "msg-fatal %d", 3);
}

static void vlog_levels(void) {
  TF_VLog(0, "vlog-0");
  TF_VLog(1, "vlog-1");
  TF_VLog(2, "vlog-2");
  TF_VLog(3, "vlog-3");
}

static void dvlog_levels(void) {
  TF_DVLog(0, "dvlog-0");
  TF_DVLog(1, "dvlog-1");
  TF_DVLog(2, "dvlog-2");
}

static void log_formats(void) {
  TF_Log(TF_WARNING, "int=%d str=%s hex=%x pct=%%", 42, "abc", 255);
  TF_VLog(0, "vlog %s=%ld", "value", 1234567890L);
}

static void log_null_fmt(void) {
  TF_Log(TF_ERROR, NULL);
  TF_VLog(0, NULL);
  TF_DVLog(0, NULL);
  TF_Log(TF_ERROR, "after-null");
}

static void log_long_message(void) {
  static char big[5000];
  memset(big, 'L', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  TF_Log(TF_ERROR, "start:%s", big);
  TF_Log(TF_ERROR, "next-line-intact");
}

static void log_fatal_then_continue(void) {
  TF_Log(TF_FATAL, "fatal-but-alive");
  TF_Log(TF_ERROR, "still-running");
}

static void log_odd_levels(void) {
  TF_Log((TF_LogLevel)-5, "odd-low");
  TF_Log((TF_LogLevel)42, "odd-high");
}

static void env_read_once(void) {
  TF_Log(TF_INFO, "first-info");
  /* Changing the variable after the first call has no effect. */
  setenv("TF_CPP_MIN_LOG_LEVEL", "3", 1);
  TF_Log(TF_INFO, "second-info");
}

/* ---- tests -------------------------------------------------------------- */

TEST(default_shows_every_level) {
  const char* out = run_logged(NULL, NULL, log_all_levels);
  CHECK_STR_CONTAINS(out, "msg-info 0");
  CHECK_STR_CONTAINS(out, "msg-warning 1");
  CHECK_STR_CONTAINS(out, "msg-error 2");
  CHECK_STR_CONTAINS(out, "msg-fatal 3");
  CHECK_EQ_INT(count_lines(out), 4);
  /* Messages come out in order, one per line. */
  CHECK(strstr(out, "msg-info") < strstr(out, "msg-warning"));
  CHECK(strstr(out, "msg-error") < strstr(out, "msg-fatal"));
}

TEST(min_log_level_1_hides_info) {
  const char* out = run_logged("1", NULL, log_all_levels);
  CHECK_NOT_CONTAINS(out, "msg-info");
  CHECK_STR_CONTAINS(out, "msg-warning 1");
  CHECK_STR_CONTAINS(out, "msg-error 2");
  CHECK_STR_CONTAINS(out, "msg-fatal 3");
  CHECK_EQ_INT(count_lines(out), 3);
}

TEST(min_log_level_2_hides_warnings) {
  const char* out = run_logged("2", NULL, log_all_levels);
  CHECK_NOT_CONTAINS(out, "msg-info");
  CHECK_NOT_CONTAINS(out, "msg-warning");
  CHECK_STR_CONTAINS(out, "msg-error 2");
  CHECK_STR_CONTAINS(out, "msg-fatal 3");
  CHECK_EQ_INT(count_lines(out), 2);
}

TEST(min_log_level_3_shows_only_fatal) {
  const char* out = run_logged("3", NULL, log_all_levels);
  CHECK_NOT_CONTAINS(out, "msg-info");
  CHECK_NOT_CONTAINS(out, "msg-warning");
  CHECK_NOT_CONTAINS(out, "msg-error");
  CHECK_STR_CONTAINS(out, "msg-fatal 3");
  CHECK_EQ_INT(count_lines(out), 1);
}

TEST(min_log_level_0_explicit_and_garbage) {
  const char* out = run_logged("0", NULL, log_all_levels);
  CHECK_EQ_INT(count_lines(out), 4);
  /* A value that is not a number falls back to the default. */
  out = run_logged("abc", NULL, log_all_levels);
  CHECK_EQ_INT(count_lines(out), 4);
  out = run_logged("", NULL, log_all_levels);
  CHECK_EQ_INT(count_lines(out), 4);
}

TEST(vlog_default_shows_level_0_only) {
  const char* out = run_logged(NULL, NULL, vlog_levels);
  CHECK_STR_CONTAINS(out, "vlog-0");
  CHECK_NOT_CONTAINS(out, "vlog-1");
  CHECK_NOT_CONTAINS(out, "vlog-2");
  CHECK_EQ_INT(count_lines(out), 1);
}

TEST(vlog_max_level_2) {
  const char* out = run_logged(NULL, "2", vlog_levels);
  CHECK_STR_CONTAINS(out, "vlog-0");
  CHECK_STR_CONTAINS(out, "vlog-1");
  CHECK_STR_CONTAINS(out, "vlog-2");
  CHECK_NOT_CONTAINS(out, "vlog-3");
  CHECK_EQ_INT(count_lines(out), 3);
}

TEST(vlog_is_info_and_hidden_by_min_log_level) {
  /* As in TensorFlow, verbose messages have INFO severity. */
  const char* out = run_logged("1", "5", vlog_levels);
  CHECK_EQ_INT(count_lines(out), 0);
}

TEST(dvlog_follows_build_type) {
  const char* out = run_logged(NULL, "1", dvlog_levels);
#ifdef NDEBUG
  /* Release builds (the test and libtfe share CMake's flags) drop them. */
  CHECK_EQ_INT(count_lines(out), 0);
#else
  CHECK_STR_CONTAINS(out, "dvlog-0");
  CHECK_STR_CONTAINS(out, "dvlog-1");
  CHECK_NOT_CONTAINS(out, "dvlog-2");
  CHECK_EQ_INT(count_lines(out), 2);
#endif
}

TEST(formats_arguments_like_printf) {
  const char* out = run_logged(NULL, NULL, log_formats);
  CHECK_STR_CONTAINS(out, "int=42 str=abc hex=ff pct=%");
  CHECK_STR_CONTAINS(out, "vlog value=1234567890");
  CHECK_EQ_INT(count_lines(out), 2);
}

TEST(null_format_is_harmless) {
  const char* out = run_logged(NULL, NULL, log_null_fmt);
  CHECK_STR_CONTAINS(out, "after-null");
}

TEST(long_message_does_not_overflow) {
  const char* out = run_logged(NULL, NULL, log_long_message);
  CHECK_STR_CONTAINS(out, "start:LLLLLLLLLL");
  CHECK_STR_CONTAINS(out, "next-line-intact");
}

TEST(fatal_does_not_abort) {
  const char* out = run_logged(NULL, NULL, log_fatal_then_continue);
  CHECK_STR_CONTAINS(out, "fatal-but-alive");
  CHECK_STR_CONTAINS(out, "still-running");
}

TEST(out_of_range_levels_are_clamped) {
  const char* out = run_logged(NULL, NULL, log_odd_levels);
  CHECK_STR_CONTAINS(out, "odd-low");
  CHECK_STR_CONTAINS(out, "odd-high");
  /* Clamped to FATAL, the high one survives the strictest threshold. */
  out = run_logged("3", NULL, log_odd_levels);
  CHECK_NOT_CONTAINS(out, "odd-low");
  CHECK_STR_CONTAINS(out, "odd-high");
}

TEST(environment_is_read_on_first_use) {
  const char* out = run_logged(NULL, NULL, env_read_once);
  CHECK_STR_CONTAINS(out, "first-info");
  CHECK_STR_CONTAINS(out, "second-info");
}

TEST(logging_goes_to_stderr_not_stdout) {
  const char* out = run_logged(NULL, "3", log_all_levels);
  CHECK_EQ_INT(count_lines(out), 4);
  CHECK_STR_EQ(g_stdout, "");
  out = run_logged(NULL, "3", vlog_levels);
  CHECK_EQ_INT(count_lines(out), 4);
  CHECK_STR_EQ(g_stdout, "");
}

TFE_TEST_MAIN
