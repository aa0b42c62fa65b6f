/* tfe/filesystem.h: the file API TensorFlow's env.h lacks (reading,
 * copying, renaming, globbing, listing schemes). */
#include <string.h>

#include "core/alloc.h"
#include "fs/fs.h"
#include "fs/status_scope.h"
#include "fs/uri.h"
#include "tfe/filesystem.h"

static bool null_arg(const void* p, const char* what, const char* api,
                     TF_Status* st) {
  if (p != NULL) return false;
  tfe_status_setf(st, TF_INVALID_ARGUMENT, "%s: %s is NULL", api, what);
  return true;
}

TF_StringStream* TFE_GetRegisteredFilesystemSchemes(TF_Status* status) {
  tfe_strvec v = {NULL, 0, 0};
  TF_StringStream* out = NULL;
  TFE_STATUS_BEGIN(status);
  if (!tfe_fs_registry_schemes(&v)) {
    tfe_strvec_free(&v);
  } else {
    out = tfe_string_stream_take(v.items, v.count);
  }
  if (out == NULL) {
    tfe_status_setf(st, TF_RESOURCE_EXHAUSTED,
                    "TFE_GetRegisteredFilesystemSchemes: out of memory");
  } else {
    tfe_status_ok(st);
  }
  TFE_STATUS_END();
  return out;
}

void TFE_GetFilesystemForScheme(const char* scheme, const char** origin,
                                TF_Status* status) {
  const tfe_fs* fs;
  TFE_STATUS_BEGIN(status);
  if (origin != NULL) *origin = NULL;
  if (!null_arg(scheme, "scheme", "TFE_GetFilesystemForScheme", st)) {
    fs = tfe_fs_lookup(scheme, strlen(scheme));
    if (fs == NULL) {
      tfe_status_setf(st, TF_NOT_FOUND,
                      "no filesystem is registered for scheme '%s'", scheme);
    } else {
      if (origin != NULL) *origin = fs->origin;
      tfe_status_ok(st);
    }
  }
  TFE_STATUS_END();
}

void TFE_FileExists(const char* path, TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (!null_arg(path, "path", "TFE_FileExists", st)) tfe_fs_exists(path, st);
  TFE_STATUS_END();
}

bool TFE_IsDirectory(const char* path, TF_Status* status) {
  bool dir = false;
  TFE_STATUS_BEGIN(status);
  if (!null_arg(path, "path", "TFE_IsDirectory", st)) {
    dir = tfe_fs_is_directory(path, st);
  }
  TFE_STATUS_END();
  return dir;
}

int64_t TFE_GetFileSize(const char* path, TF_Status* status) {
  int64_t size = -1;
  TFE_STATUS_BEGIN(status);
  if (!null_arg(path, "path", "TFE_GetFileSize", st)) {
    size = tfe_fs_file_size(path, st);
  }
  TFE_STATUS_END();
  return size;
}

void TFE_RecursivelyCreateDir(const char* path, TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (!null_arg(path, "path", "TFE_RecursivelyCreateDir", st)) {
    tfe_fs_recursively_create_dir(path, st);
  }
  TFE_STATUS_END();
}

/* TF_ALREADY_EXISTS (true) if `dst` exists and may not be replaced. */
static bool refuse_existing(const char* dst, bool overwrite, TF_Status* st) {
  TF_Status probe;
  bool exists;
  if (overwrite) return false;
  tfe_scratch_init(&probe);
  tfe_fs_exists(dst, &probe);
  exists = probe.code == TF_OK;
  tfe_scratch_release(&probe);
  if (exists) {
    tfe_status_setf(st, TF_ALREADY_EXISTS,
                    "file already exists: '%s' (pass overwrite to replace it)",
                    dst);
  }
  return exists;
}

void TFE_RenameFile(const char* src, const char* dst, bool overwrite,
                    TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (!null_arg(src, "src", "TFE_RenameFile", st) &&
      !null_arg(dst, "dst", "TFE_RenameFile", st)) {
    TF_Status probe;
    tfe_scratch_init(&probe);
    /* A missing source is reported as such, whatever the destination. */
    tfe_fs_exists(src, &probe);
    if (probe.code != TF_OK) {
      tfe_status_copy(st, &probe);
    } else if (!refuse_existing(dst, overwrite, st)) {
      tfe_fs_rename(src, dst, st);
    }
    tfe_scratch_release(&probe);
  }
  TFE_STATUS_END();
}

void TFE_CopyFile(const char* src, const char* dst, bool overwrite,
                  TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (!null_arg(src, "src", "TFE_CopyFile", st) &&
      !null_arg(dst, "dst", "TFE_CopyFile", st)) {
    TF_Status probe;
    tfe_scratch_init(&probe);
    tfe_fs_exists(src, &probe);
    if (probe.code != TF_OK) {
      tfe_status_copy(st, &probe);
    } else {
      /* A directory destination receives a file named like the source;
       * that file is what must not exist. */
      char* inside = NULL;
      if (!overwrite && tfe_fs_is_directory(dst, &probe)) {
        inside = tfe_uri_join(dst, tfe_path_basename(src));
      }
      if (!refuse_existing(inside ? inside : dst, overwrite, st)) {
        tfe_fs_copy(src, dst, st);
      }
      tfe_free(inside);
    }
    tfe_scratch_release(&probe);
  }
  TFE_STATUS_END();
}

TF_StringStream* TFE_GetMatchingPaths(const char* pattern, TF_Status* status) {
  tfe_strvec v = {NULL, 0, 0};
  TF_StringStream* out = NULL;
  TFE_STATUS_BEGIN(status);
  if (!null_arg(pattern, "pattern", "TFE_GetMatchingPaths", st)) {
    tfe_fs_glob(pattern, &v, st);
    if (TF_GetCode(st) == TF_OK) {
      out = tfe_string_stream_take(v.items, v.count);
      if (out == NULL) {
        tfe_status_setf(st, TF_RESOURCE_EXHAUSTED,
                        "TFE_GetMatchingPaths: out of memory");
      }
    } else {
      tfe_strvec_free(&v);
    }
  }
  TFE_STATUS_END();
  return out;
}

TFE_RandomAccessFile* TFE_NewRandomAccessFile(const char* filename,
                                              TF_Status* status) {
  TFE_RandomAccessFile* f = NULL;
  TFE_STATUS_BEGIN(status);
  if (!null_arg(filename, "filename", "TFE_NewRandomAccessFile", st)) {
    f = tfe_fs_open_raf(filename, st);
  }
  TFE_STATUS_END();
  return f;
}

int64_t TFE_ReadRandomAccessFile(TFE_RandomAccessFile* file, uint64_t offset,
                                 size_t n, char* buffer, TF_Status* status) {
  int64_t got = -1;
  TFE_STATUS_BEGIN(status);
  if (!null_arg(file, "file", "TFE_ReadRandomAccessFile", st) &&
      !(n > 0 && null_arg(buffer, "buffer", "TFE_ReadRandomAccessFile", st))) {
    got = tfe_fs_raf_read(file, offset, n, buffer, st);
  }
  TFE_STATUS_END();
  return got;
}

void TFE_DeleteRandomAccessFile(TFE_RandomAccessFile* file) {
  tfe_fs_raf_release(file);
}

TFE_ReadOnlyMemoryRegion* TFE_NewReadOnlyMemoryRegionFromFile(
    const char* filename, TF_Status* status) {
  TFE_ReadOnlyMemoryRegion* r = NULL;
  TFE_STATUS_BEGIN(status);
  if (!null_arg(filename, "filename", "TFE_NewReadOnlyMemoryRegionFromFile",
                st)) {
    r = tfe_fs_open_romr(filename, st);
  }
  TFE_STATUS_END();
  return r;
}

const void* TFE_ReadOnlyMemoryRegionData(const TFE_ReadOnlyMemoryRegion* region) {
  if (region == NULL) return NULL;
  return region->fs->romr_ops.data(&region->region);
}

uint64_t TFE_ReadOnlyMemoryRegionLength(const TFE_ReadOnlyMemoryRegion* region) {
  if (region == NULL) return 0;
  return region->fs->romr_ops.length(&region->region);
}

void TFE_DeleteReadOnlyMemoryRegion(TFE_ReadOnlyMemoryRegion* region) {
  tfe_fs_romr_release(region);
}
