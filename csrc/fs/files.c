/* Open files: writable, random-access and read-only memory regions, each a
 * core-owned wrapper around the plugin's object plus its filesystem. */
#include <string.h>

#include "core/alloc.h"
#include "fs/fs.h"

/* Opens a writable file of `fs` with `open_op` (named `op_name`). */
static TF_WritableFileHandle* open_with(const tfe_fs* fs, const char* uri,
                                        tfe_fs_open_fn open_op,
                                        const char* op_name,
                                        TF_Status* status) {
  TF_WritableFileHandle* h;
  char* path;
  if (open_op == NULL) {
    tfe_fs_unimplemented(fs, op_name, uri, status);
    return NULL;
  }
  h = (TF_WritableFileHandle*)tfe_calloc(1, sizeof(*h));
  if (h == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory opening '%s'", uri);
    return NULL;
  }
  path = tfe_fs_translate(fs, uri, status);
  if (path == NULL) {
    tfe_free(h);
    return NULL;
  }
  h->fs = fs;
  h->file.plugin_file = NULL;
  tfe_status_ok(status);
  open_op(&fs->filesystem, path, &h->file, status);
  tfe_free(path);
  if (TF_GetCode(status) != TF_OK) {
    /* The plugin keeps nothing for a file it failed to open. */
    tfe_free(h);
    return NULL;
  }
  return h;
}

TF_WritableFileHandle* tfe_fs_open_writable(const char* uri, bool append,
                                            TF_Status* status) {
  const tfe_fs* fs = tfe_fs_for_uri(uri, status);
  if (fs == NULL) return NULL;
  if (append) {
    return open_with(fs, uri, fs->ops.new_appendable_file,
                     "new_appendable_file", status);
  }
  return open_with(fs, uri, fs->ops.new_writable_file, "new_writable_file",
                   status);
}

TF_WritableFileHandle* tfe_fs_open_exclusive(const char* uri,
                                             TF_Status* status) {
  const tfe_fs* fs = tfe_fs_for_uri(uri, status);
  TF_Status probe;
  bool exists;
  if (fs == NULL) return NULL;
  if (fs->new_exclusive_file != NULL) {
    return open_with(fs, uri, fs->new_exclusive_file, "new_exclusive_file",
                     status);
  }
  /* A plugin's tables have no exclusive create: the best it allows is to
   * look first, which a concurrent creator can race. */
  tfe_scratch_init(&probe);
  tfe_fs_exists(uri, &probe);
  exists = probe.code == TF_OK;
  tfe_scratch_release(&probe);
  if (exists) {
    tfe_status_setf(status, TF_ALREADY_EXISTS, "file already exists: '%s'",
                    uri);
    return NULL;
  }
  return open_with(fs, uri, fs->ops.new_writable_file, "new_writable_file",
                   status);
}

void tfe_fs_writable_release(TF_WritableFileHandle* h, bool close_first,
                             TF_Status* status) {
  if (h == NULL) return;
  tfe_status_ok(status);
  if (close_first && h->fs->wf_ops.close != NULL) {
    h->fs->wf_ops.close(&h->file, status);
  }
  h->fs->wf_ops.cleanup(&h->file);
  tfe_free(h);
}

tfe_raf* tfe_fs_open_raf(const char* uri, TF_Status* status) {
  const tfe_fs* fs = tfe_fs_for_uri(uri, status);
  tfe_raf* f;
  char* path;
  if (fs == NULL) return NULL;
  if (fs->ops.new_random_access_file == NULL) {
    tfe_fs_unimplemented(fs, "new_random_access_file", uri, status);
    return NULL;
  }
  f = (tfe_raf*)tfe_calloc(1, sizeof(*f));
  if (f == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory opening '%s'", uri);
    return NULL;
  }
  path = tfe_fs_translate(fs, uri, status);
  if (path == NULL) {
    tfe_free(f);
    return NULL;
  }
  f->fs = fs;
  tfe_status_ok(status);
  fs->ops.new_random_access_file(&fs->filesystem, path, &f->file, status);
  tfe_free(path);
  if (TF_GetCode(status) != TF_OK) {
    tfe_free(f);
    return NULL;
  }
  return f;
}

int64_t tfe_fs_raf_read(const tfe_raf* f, uint64_t offset, size_t n,
                        char* buffer, TF_Status* status) {
  int64_t got;
  if (f->fs->raf_ops.read == NULL) {
    tfe_fs_unimplemented(f->fs, "read", NULL, status);
    return -1;
  }
  tfe_status_ok(status);
  if (n == 0) return 0;
  got = f->fs->raf_ops.read(&f->file, offset, n, buffer, status);
  if (TF_GetCode(status) == TF_OK || TF_GetCode(status) == TF_OUT_OF_RANGE) {
    if (got < 0 || (uint64_t)got > (uint64_t)n) {
      tfe_status_setf(status, TF_INTERNAL,
                      "filesystem for scheme '%s' (%s): read returned %lld "
                      "for a request of %zu bytes",
                      f->fs->scheme, f->fs->origin, (long long)got, n);
      return -1;
    }
    if (TF_GetCode(status) == TF_OK && (size_t)got < n) {
      /* A plugin that reports a short read as OK: the ABI says the end of
       * the file makes it OUT_OF_RANGE. */
      tfe_status_setf(status, TF_OUT_OF_RANGE,
                      "Read less bytes than requested");
    }
    return got;
  }
  return -1;
}

void tfe_fs_raf_release(tfe_raf* f) {
  if (f == NULL) return;
  f->fs->raf_ops.cleanup(&f->file);
  tfe_free(f);
}

tfe_romr* tfe_fs_open_romr(const char* uri, TF_Status* status) {
  const tfe_fs* fs = tfe_fs_for_uri(uri, status);
  tfe_romr* r;
  char* path;
  if (fs == NULL) return NULL;
  if (fs->ops.new_read_only_memory_region_from_file == NULL) {
    tfe_fs_unimplemented(fs, "new_read_only_memory_region_from_file", uri,
                         status);
    return NULL;
  }
  r = (tfe_romr*)tfe_calloc(1, sizeof(*r));
  if (r == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory opening '%s'", uri);
    return NULL;
  }
  path = tfe_fs_translate(fs, uri, status);
  if (path == NULL) {
    tfe_free(r);
    return NULL;
  }
  r->fs = fs;
  tfe_status_ok(status);
  fs->ops.new_read_only_memory_region_from_file(&fs->filesystem, path,
                                                &r->region, status);
  tfe_free(path);
  if (TF_GetCode(status) != TF_OK) {
    tfe_free(r);
    return NULL;
  }
  return r;
}

void tfe_fs_romr_release(tfe_romr* r) {
  if (r == NULL) return;
  r->fs->romr_ops.cleanup(&r->region);
  tfe_free(r);
}
