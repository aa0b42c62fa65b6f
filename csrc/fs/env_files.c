/* env.h: directories, writable files, stat, children, deletes. Each
 * function checks its arguments and hands the URI to the core operations
 * in fs/ops.c, which dispatch to the registered filesystem. */
#include <string.h>

#include "core/alloc.h"
#include "fs/fs.h"
#include "fs/status_scope.h"

/* Sets INVALID_ARGUMENT and returns true when `path` is NULL. */
static bool null_path(const char* path, const char* api, TF_Status* st) {
  if (path != NULL) return false;
  tfe_status_setf(st, TF_INVALID_ARGUMENT, "%s: the path is NULL", api);
  return true;
}

void TF_CreateDir(const char* dirname, TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (!null_path(dirname, "TF_CreateDir", st)) tfe_fs_create_dir(dirname, st);
  TFE_STATUS_END();
}

void TF_DeleteDir(const char* dirname, TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (!null_path(dirname, "TF_DeleteDir", st)) tfe_fs_delete_dir(dirname, st);
  TFE_STATUS_END();
}

void TF_DeleteRecursively(const char* dirname, int64_t* undeleted_file_count,
                          int64_t* undeleted_dir_count, TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (null_path(dirname, "TF_DeleteRecursively", st)) {
    if (undeleted_file_count != NULL) *undeleted_file_count = 0;
    if (undeleted_dir_count != NULL) *undeleted_dir_count = 1;
  } else {
    tfe_fs_delete_recursively(dirname, undeleted_file_count,
                              undeleted_dir_count, st);
  }
  TFE_STATUS_END();
}

void TF_FileStat(const char* filename, TF_FileStatistics* stats,
                 TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (stats == NULL) {
    tfe_status_setf(st, TF_INVALID_ARGUMENT, "TF_FileStat: stats is NULL");
  } else if (!null_path(filename, "TF_FileStat", st)) {
    tfe_fs_stat(filename, stats, st);
  }
  TFE_STATUS_END();
}

typedef enum { OPEN_WRITE, OPEN_APPEND, OPEN_EXCLUSIVE } open_mode;

static void open_writable(const char* filename, TF_WritableFileHandle** handle,
                          open_mode mode, const char* api, TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (handle == NULL) {
    tfe_status_setf(st, TF_INVALID_ARGUMENT, "%s: handle is NULL", api);
  } else {
    *handle = NULL;
    if (!null_path(filename, api, st)) {
      *handle = mode == OPEN_EXCLUSIVE
                    ? tfe_fs_open_exclusive(filename, st)
                    : tfe_fs_open_writable(filename, mode == OPEN_APPEND, st);
    }
  }
  TFE_STATUS_END();
}

void TF_NewWritableFile(const char* filename, TF_WritableFileHandle** handle,
                        TF_Status* status) {
  open_writable(filename, handle, OPEN_WRITE, "TF_NewWritableFile", status);
}

void TFE_NewAppendableFile(const char* filename,
                           TF_WritableFileHandle** handle, TF_Status* status) {
  open_writable(filename, handle, OPEN_APPEND, "TFE_NewAppendableFile",
                status);
}

void TFE_NewExclusiveWritableFile(const char* filename,
                                  TF_WritableFileHandle** handle,
                                  TF_Status* status) {
  open_writable(filename, handle, OPEN_EXCLUSIVE,
                "TFE_NewExclusiveWritableFile", status);
}

void TF_CloseWritableFile(TF_WritableFileHandle* handle, TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (handle == NULL) {
    tfe_status_ok(st);
  } else {
    tfe_fs_writable_release(handle, true, st);
  }
  TFE_STATUS_END();
}

/* flush and sync: a NULL operation means there is nothing to do. */
static void flush_or_sync(TF_WritableFileHandle* handle, bool sync,
                          TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (handle == NULL) {
    tfe_status_setf(st, TF_INVALID_ARGUMENT, "%s: handle is NULL",
                    sync ? "TF_SyncWritableFile" : "TF_FlushWritableFile");
  } else {
    void (*op)(const TF_WritableFile*, TF_Status*) =
        sync ? handle->fs->wf_ops.sync : handle->fs->wf_ops.flush;
    tfe_status_ok(st);
    if (op != NULL) op(&handle->file, st);
  }
  TFE_STATUS_END();
}

void TF_SyncWritableFile(TF_WritableFileHandle* handle, TF_Status* status) {
  flush_or_sync(handle, true, status);
}

void TF_FlushWritableFile(TF_WritableFileHandle* handle, TF_Status* status) {
  flush_or_sync(handle, false, status);
}

void TF_AppendWritableFile(TF_WritableFileHandle* handle, const char* data,
                           size_t length, TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (handle == NULL) {
    tfe_status_setf(st, TF_INVALID_ARGUMENT,
                    "TF_AppendWritableFile: handle is NULL");
  } else if (data == NULL && length > 0) {
    tfe_status_setf(st, TF_INVALID_ARGUMENT,
                    "TF_AppendWritableFile: data is NULL but length is %zu",
                    length);
  } else if (handle->fs->wf_ops.append == NULL) {
    tfe_fs_unimplemented(handle->fs, "append", NULL, st);
  } else {
    tfe_status_ok(st);
    handle->fs->wf_ops.append(&handle->file, data ? data : "", length, st);
  }
  TFE_STATUS_END();
}

int64_t TFE_TellWritableFile(TF_WritableFileHandle* handle,
                             TF_Status* status) {
  int64_t pos = -1;
  TFE_STATUS_BEGIN(status);
  if (handle == NULL) {
    tfe_status_setf(st, TF_INVALID_ARGUMENT,
                    "TFE_TellWritableFile: handle is NULL");
  } else if (handle->fs->wf_ops.tell == NULL) {
    tfe_fs_unimplemented(handle->fs, "tell", NULL, st);
  } else {
    tfe_status_ok(st);
    pos = handle->fs->wf_ops.tell(&handle->file, st);
    if (TF_GetCode(st) != TF_OK) pos = -1;
  }
  TFE_STATUS_END();
  return pos;
}

void TF_DeleteFile(const char* filename, TF_Status* status) {
  TFE_STATUS_BEGIN(status);
  if (!null_path(filename, "TF_DeleteFile", st)) {
    tfe_fs_delete_file(filename, st);
  }
  TFE_STATUS_END();
}

TF_StringStream* TF_GetChildren(const char* filename, TF_Status* status) {
  tfe_strvec kids = {NULL, 0, 0};
  TF_StringStream* out;
  TFE_STATUS_BEGIN(status);
  if (!null_path(filename, "TF_GetChildren", st)) {
    tfe_fs_children(filename, &kids, st);
  }
  if (TF_GetCode(st) != TF_OK) tfe_strvec_free(&kids);
  /* As in TensorFlow, a (possibly empty) list comes back even on error. */
  out = tfe_string_stream_take(kids.items, kids.count);
  if (out == NULL && TF_GetCode(st) == TF_OK) {
    tfe_status_setf(st, TF_RESOURCE_EXHAUSTED, "TF_GetChildren: out of memory");
  }
  TFE_STATUS_END();
  return out;
}
