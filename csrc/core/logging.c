/* TF_Log, TF_VLog, TF_DVLog: printf-style messages to stderr with the
 * thresholds documented in logging.h. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "tensorflow/c/logging.h"

/* -1 until read from the environment. */
static atomic_int g_min_level = -1;
static atomic_int g_max_vlog = -1;

static int env_int(const char* name, int fallback) {
  const char* v = getenv(name);
  char* end;
  long x;
  if (v == NULL || *v == '\0') return fallback;
  x = strtol(v, &end, 10);
  if (*end != '\0') return fallback;
  return (int)x;
}

static int min_level(void) {
  int v = atomic_load_explicit(&g_min_level, memory_order_relaxed);
  if (v < 0) {
    v = env_int("TF_CPP_MIN_LOG_LEVEL", 0);
    if (v < 0) v = 0;
    atomic_store(&g_min_level, v);
  }
  return v;
}

static int max_vlog(void) {
  int v = atomic_load_explicit(&g_max_vlog, memory_order_relaxed);
  if (v < 0) {
    v = env_int("TF_CPP_MAX_VLOG_LEVEL", 0);
    if (v < 0) v = 0;
    atomic_store(&g_max_vlog, v);
  }
  return v;
}

static void emit(char tag, const char* fmt, va_list ap) {
  char line[1024];
  if (fmt == NULL) fmt = "(null)";
  vsnprintf(line, sizeof line, fmt, ap);
  fprintf(stderr, "%c tfe] %s\n", tag, line);
}

void TF_Log(TF_LogLevel level, const char* fmt, ...) {
  static const char tags[] = "IWEF";
  va_list ap;
  int lv = (int)level;
  if (lv < 0) lv = 0;
  if (lv > 3) lv = 3;
  /* Fatal messages are always shown. */
  if (lv < 3 && lv < min_level()) return;
  va_start(ap, fmt);
  emit(tags[lv], fmt, ap);
  va_end(ap);
}

void TF_VLog(int level, const char* fmt, ...) {
  va_list ap;
  if (level > max_vlog() || min_level() > 0) return;
  va_start(ap, fmt);
  emit('I', fmt, ap);
  va_end(ap);
}

void TF_DVLog(int level, const char* fmt, ...) {
#ifdef NDEBUG
  (void)level;
  (void)fmt;
#else
  va_list ap;
  if (level > max_vlog() || min_level() > 0) return;
  va_start(ap, fmt);
  emit('I', fmt, ap);
  va_end(ap);
#endif
}
