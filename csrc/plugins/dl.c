/* dlopen helpers shared by every plugin loader. */
#include "plugins/dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#include "core/status_internal.h"

static pthread_once_t g_promote_once = PTHREAD_ONCE_INIT;

static void promote(void) {
  Dl_info info;
  /* Find the file this function lives in, then re-open it globally. The
   * extra reference is kept for the life of the process on purpose. */
  if (dladdr((void*)&tfe_dl_promote_self, &info) != 0 &&
      info.dli_fname != NULL) {
    (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
  }
}

void tfe_dl_promote_self(void) { pthread_once(&g_promote_once, promote); }

void* tfe_dl_open(const char* path, TF_Status* status) {
  void* h;
  tfe_dl_promote_self();
  h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    const char* why = dlerror();
    tfe_status_setf(status, TF_NOT_FOUND, "could not load '%s': %s", path,
                    why ? why : "unknown reason");
  }
  return h;
}
