/* env.h: clocks, threads, temporary file names and shared libraries. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "fs/fs.h"
#include "plugins/dl.h"

/* --------------------------------------------------------------- clocks */

uint64_t TF_NowNanos(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t TF_NowMicros(void) { return TF_NowNanos() / 1000ULL; }

uint64_t TF_NowSeconds(void) { return TF_NowNanos() / 1000000000ULL; }

/* -------------------------------------------------------------- threads */

struct TF_Thread {
  pthread_t tid;
  void (*work)(void*);
  void* param;
  char name[16]; /* the kernel keeps 15 characters plus NUL */
};

void TF_DefaultThreadOptions(TF_ThreadOptions* options) {
  if (options == NULL) return;
  options->stack_size = 0;
  options->guard_size = 0;
  options->numa_node = -1;
}

static void* thread_main(void* arg) {
  TF_Thread* t = (TF_Thread*)arg;
  if (t->name[0] != '\0') (void)pthread_setname_np(pthread_self(), t->name);
  t->work(t->param);
  return NULL;
}

TF_Thread* TF_StartThread(const TF_ThreadOptions* options,
                          const char* thread_name, void (*work_func)(void*),
                          void* param) {
  TF_Thread* t;
  pthread_attr_t attr;
  int rc;
  if (work_func == NULL) return NULL;
  t = (TF_Thread*)tfe_calloc(1, sizeof(*t));
  if (t == NULL) return NULL;
  t->work = work_func;
  t->param = param;
  if (thread_name != NULL) {
    strncpy(t->name, thread_name, sizeof t->name - 1);
    t->name[sizeof t->name - 1] = '\0';
  }
  if (pthread_attr_init(&attr) != 0) {
    tfe_free(t);
    return NULL;
  }
  if (options != NULL && options->stack_size > 0) {
    size_t size = options->stack_size;
    if (size < (size_t)PTHREAD_STACK_MIN) size = (size_t)PTHREAD_STACK_MIN;
    (void)pthread_attr_setstacksize(&attr, size);
  }
  if (options != NULL && options->guard_size > 0) {
    (void)pthread_attr_setguardsize(&attr, options->guard_size);
  }
  rc = pthread_create(&t->tid, &attr, thread_main, t);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    tfe_free(t);
    return NULL;
  }
  return t;
}

void TF_JoinThread(TF_Thread* thread) {
  if (thread == NULL) return;
  (void)pthread_join(thread->tid, NULL);
  tfe_free(thread);
}

/* ------------------------------------------------------------ temp dirs */

static bool is_usable_dir(const char* d) {
  struct stat st;
  return d != NULL && d[0] == '/' && stat(d, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Candidate temporary directories, as TensorFlow orders them. */
static void temp_dirs(tfe_strvec* out) {
  const char* candidates[4];
  size_t i, j;
  candidates[0] = getenv("TEST_TMPDIR");
  candidates[1] = getenv("TMPDIR");
  candidates[2] = getenv("TMP");
  candidates[3] = "/tmp";
  for (i = 0; i < 4; i++) {
    bool seen = false;
    if (!is_usable_dir(candidates[i])) continue;
    for (j = 0; j < out->count; j++) {
      if (strcmp(out->items[j], candidates[i]) == 0) seen = true;
    }
    if (!seen && tfe_strvec_push(out, candidates[i]) != 0) return;
  }
}

TF_StringStream* TF_GetLocalTempDirectories(void) {
  tfe_strvec v = {NULL, 0, 0};
  temp_dirs(&v);
  return tfe_string_stream_take(v.items, v.count);
}

char* TF_GetTempFileName(const char* extension) {
  static atomic_uint_fast64_t counter;
  tfe_strvec dirs = {NULL, 0, 0};
  char host[64];
  char* result = NULL;
  size_t i;
  if (extension == NULL) extension = "";
  if (gethostname(host, sizeof host) != 0) strcpy(host, "localhost");
  host[sizeof host - 1] = '\0';
  temp_dirs(&dirs);
  for (i = 0; i < dirs.count && result == NULL; i++) {
    int attempt;
    if (access(dirs.items[i], W_OK) != 0) continue;
    for (attempt = 0; attempt < 16 && result == NULL; attempt++) {
      unsigned long long n =
          (unsigned long long)atomic_fetch_add(&counter, 1) + 1;
      int len = snprintf(NULL, 0, "%s/tempfile-%s-%d-%llx-%llu%s",
                         dirs.items[i], host, (int)getpid(),
                         (unsigned long long)TF_NowNanos(), n, extension);
      char* name;
      struct stat st;
      if (len < 0) break;
      /* Plain malloc: the caller releases the name with free(). */
      name = (char*)malloc((size_t)len + 1);
      if (name == NULL) break;
      snprintf(name, (size_t)len + 1, "%s/tempfile-%s-%d-%llx-%llu%s",
               dirs.items[i], host, (int)getpid(),
               (unsigned long long)TF_NowNanos(), n, extension);
      if (stat(name, &st) != 0 && errno == ENOENT) {
        result = name;
      } else {
        free(name);
      }
    }
  }
  tfe_strvec_free(&dirs);
  return result;
}

/* ------------------------------------------------------ shared libraries */

void* TF_LoadSharedLibrary(const char* library_filename, TF_Status* status) {
  void* h;
  if (library_filename == NULL || library_filename[0] == '\0') {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_LoadSharedLibrary: library_filename must be a "
                    "non-empty name");
    return NULL;
  }
  h = tfe_dl_open(library_filename, status);
  if (h != NULL) tfe_status_ok(status);
  return h;
}

void* TF_GetSymbolFromLibrary(void* handle, const char* symbol_name,
                              TF_Status* status) {
  void* sym;
  const char* why;
  if (handle == NULL || symbol_name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GetSymbolFromLibrary: %s is NULL",
                    handle == NULL ? "handle" : "symbol_name");
    return NULL;
  }
  dlerror();
  sym = dlsym(handle, symbol_name);
  why = dlerror();
  if (why != NULL) {
    tfe_status_setf(status, TF_NOT_FOUND, "symbol '%s' not found: %s",
                    symbol_name, why);
    return NULL;
  }
  tfe_status_ok(status);
  return sym;
}
