/* The scheme registry: which filesystem serves which URI scheme. */
#include <pthread.h>
#include <string.h>

#include "core/alloc.h"
#include "fs/fs.h"
#include "fs/uri.h"
#include "plugins/fs_loader.h"
#include "tensorflow/c/logging.h"

static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static tfe_fs** g_entries;
static size_t g_count, g_cap;
static pthread_once_t g_builtins_once = PTHREAD_ONCE_INIT;

void tfe_fs_free_entry(tfe_fs* fs) {
  if (fs == NULL) return;
  tfe_free(fs->scheme);
  tfe_free(fs->origin);
  tfe_free(fs);
}

/* Caller holds the lock. */
static tfe_fs* find_locked(const char* scheme, size_t len);

/* Gives the entries registered by `origin` (a built-in) the tfe-only
 * exclusive-create operation, which the ABI's tables cannot carry. */
static void attach_exclusive(const char* origin, tfe_fs_open_fn fn) {
  size_t i;
  pthread_rwlock_wrlock(&g_lock);
  for (i = 0; i < g_count; i++) {
    if (strcmp(g_entries[i]->origin, origin) == 0) {
      g_entries[i]->new_exclusive_file = fn;
    }
  }
  pthread_rwlock_unlock(&g_lock);
}

static void register_builtin(void (*init)(TF_FilesystemPluginInfo*),
                             const char* origin, tfe_fs_open_fn exclusive) {
  TF_FilesystemPluginInfo info;
  TF_Status st;
  memset(&info, 0, sizeof info);
  tfe_scratch_init(&st);
  init(&info);
  tfe_fs_register_plugin_info(&info, origin, &st);
  if (st.code != TF_OK) {
    TF_Log(TF_ERROR, "tfe: could not register the %s: %s", origin,
           TF_Message(&st));
  } else {
    attach_exclusive(origin, exclusive);
  }
  tfe_scratch_release(&st);
}

static void register_builtins(void) {
  tfe_alloc_benign_begin();
  register_builtin(tfe_local_fs_init_plugin, "built-in local filesystem",
                   tfe_local_fs_new_exclusive_file);
  register_builtin(tfe_ram_fs_init_plugin, "built-in ram filesystem",
                   tfe_ram_fs_new_exclusive_file);
  tfe_alloc_benign_end();
}

void tfe_fs_builtins_ensure(void) {
  pthread_once(&g_builtins_once, register_builtins);
}

static tfe_fs* find_locked(const char* scheme, size_t len) {
  size_t i;
  for (i = 0; i < g_count; i++) {
    const char* s = g_entries[i]->scheme;
    if (strlen(s) == len && memcmp(s, scheme, len) == 0) return g_entries[i];
  }
  return NULL;
}

const tfe_fs* tfe_fs_lookup(const char* scheme, size_t len) {
  tfe_fs* fs;
  tfe_fs_builtins_ensure();
  pthread_rwlock_rdlock(&g_lock);
  fs = find_locked(scheme, len);
  pthread_rwlock_unlock(&g_lock);
  return fs;
}

const tfe_fs* tfe_fs_for_uri(const char* uri, TF_Status* status) {
  tfe_uri u;
  const tfe_fs* fs;
  if (uri == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "path is NULL");
    return NULL;
  }
  tfe_uri_parse(uri, &u);
  fs = tfe_fs_lookup(u.scheme, u.scheme_len);
  if (fs == NULL) {
    tfe_status_setf(status, TF_UNIMPLEMENTED,
                    "File system scheme '%.*s' not implemented (file: '%s'); "
                    "register a filesystem plugin for it first",
                    (int)u.scheme_len, u.scheme, uri);
  }
  return fs;
}

bool tfe_fs_registry_has(const char* scheme, const char** origin) {
  tfe_fs* fs;
  pthread_rwlock_rdlock(&g_lock);
  fs = find_locked(scheme, strlen(scheme));
  pthread_rwlock_unlock(&g_lock);
  if (fs != NULL && origin != NULL) *origin = fs->origin;
  return fs != NULL;
}

bool tfe_fs_registry_add(tfe_fs** entries, size_t n, const char* origin,
                         TF_Status* status) {
  size_t i;
  pthread_rwlock_wrlock(&g_lock);
  for (i = 0; i < n; i++) {
    tfe_fs* other = find_locked(entries[i]->scheme, strlen(entries[i]->scheme));
    if (other != NULL) {
      tfe_status_setf(status, TF_ALREADY_EXISTS,
                      "filesystem plugin '%s': scheme '%s' is already "
                      "registered (by %s)",
                      origin, entries[i]->scheme, other->origin);
      pthread_rwlock_unlock(&g_lock);
      return false;
    }
  }
  if (g_count + n > g_cap) {
    size_t cap = g_cap ? g_cap : 8;
    tfe_fs** grown;
    while (cap < g_count + n) cap *= 2;
    grown = (tfe_fs**)tfe_realloc(g_entries, cap * sizeof(*grown));
    if (grown == NULL) {
      pthread_rwlock_unlock(&g_lock);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "filesystem plugin '%s': out of memory while "
                      "registering its schemes",
                      origin);
      return false;
    }
    g_entries = grown;
    g_cap = cap;
  }
  for (i = 0; i < n; i++) g_entries[g_count++] = entries[i];
  pthread_rwlock_unlock(&g_lock);
  tfe_status_ok(status);
  return true;
}

bool tfe_fs_registry_schemes(tfe_strvec* out) {
  size_t i;
  bool ok = true;
  tfe_fs_builtins_ensure();
  pthread_rwlock_rdlock(&g_lock);
  for (i = 0; i < g_count && ok; i++) {
    ok = tfe_strvec_push(out, g_entries[i]->scheme) == 0;
  }
  pthread_rwlock_unlock(&g_lock);
  if (ok) tfe_strvec_sort_unique(out);
  return ok;
}
