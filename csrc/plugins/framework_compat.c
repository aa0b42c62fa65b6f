/* Loading tfe's libtensorflow_framework.so.2 before plugins. */
#include "plugins/framework_compat.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/dl.h"
#include "tensorflow/c/logging.h"

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static char g_loaded[PATH_MAX];

/* Directory of the object that contains this function (libtfe). */
static int libtfe_dir(char* out, size_t cap) {
  Dl_info info;
  const char* slash;
  size_t n;
  if (dladdr((void*)&tfe_framework_compat_ensure, &info) == 0 ||
      info.dli_fname == NULL) {
    return 0;
  }
  slash = strrchr(info.dli_fname, '/');
  if (slash == NULL) return 0;
  n = (size_t)(slash - info.dli_fname);
  if (n + 1 > cap) return 0;
  memcpy(out, info.dli_fname, n);
  out[n] = '\0';
  return 1;
}

static void load_once(void) {
  char path[PATH_MAX];
  const char* env = getenv("TFE_FRAMEWORK_COMPAT_LIBRARY");
  void* h;
  tfe_dl_promote_self();
  /* Something with that SONAME is already loaded: nothing to do. */
  h = dlopen(TFE_FRAMEWORK_COMPAT_SONAME, RTLD_NOW | RTLD_NOLOAD);
  if (h != NULL) {
    TF_VLog(1, "tfe: %s is already loaded; not loading tfe's copy",
            TFE_FRAMEWORK_COMPAT_SONAME);
    return;
  }
  if (env != NULL) {
    if (env[0] == '\0') return; /* explicitly disabled */
    if (strlen(env) >= sizeof path) return;
    strcpy(path, env);
  } else {
    char dir[PATH_MAX];
    int n;
    if (!libtfe_dir(dir, sizeof dir)) return;
    n = snprintf(path, sizeof path, "%s/%s", dir, TFE_FRAMEWORK_COMPAT_SONAME);
    if (n < 0 || (size_t)n >= sizeof path) return;
  }
  h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    const char* why = dlerror();
    TF_VLog(1, "tfe: no compatibility %s loaded (%s); plugins built for "
            "TensorFlow that need it will not load",
            TFE_FRAMEWORK_COMPAT_SONAME, why ? why : path);
    return;
  }
  /* The handle is kept for the life of the process on purpose. */
  strcpy(g_loaded, path);
}

void tfe_framework_compat_ensure(void) { pthread_once(&g_once, load_once); }

const char* tfe_framework_compat_loaded_path(void) {
  return g_loaded[0] ? g_loaded : NULL;
}
