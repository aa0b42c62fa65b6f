/* The filesystem layer's internal interface: registered filesystems, the
 * scheme registry, and core operations on URIs that dispatch to the right
 * filesystem's operation tables (with the defaults the ABI promises when
 * an optional operation is missing).
 *
 * Every filesystem, built-in or loaded from a plugin, is a tfe_fs holding
 * core-owned copies of the tables its plugin supplied. Registered entries
 * are never removed (as in TensorFlow, plugins are never unloaded), so a
 * `const tfe_fs*` stays valid for the life of the process. */
#ifndef TFE_FS_FS_H_
#define TFE_FS_FS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status_internal.h"
#include "fs/string_stream.h"
#include "tensorflow/c/env.h"
#include "tensorflow/c/experimental/filesystem/filesystem_interface.h"
#include "tfe/filesystem.h"

/* The shape of TF_FilesystemOps.new_writable_file. */
typedef void (*tfe_fs_open_fn)(const TF_Filesystem* filesystem,
                               const char* path, TF_WritableFile* file,
                               TF_Status* status);

typedef struct tfe_fs {
  char* scheme;  /* "" is the local filesystem */
  char* origin;  /* plugin path, or "built-in" */
  TF_Filesystem filesystem;
  /* Core-owned copies; a table the plugin did not supply is all NULL. */
  TF_FilesystemOps ops;
  TF_RandomAccessFileOps raf_ops;
  TF_WritableFileOps wf_ops;
  TF_ReadOnlyMemoryRegionOps romr_ops;
  bool has_raf_ops, has_wf_ops, has_romr_ops;
  void* (*plugin_alloc)(size_t size);
  void (*plugin_free)(void* ptr);
  /* tfe-only operation outside the ABI's tables, set for the built-in
   * filesystems only (NULL for plugins): opens a new file for writing and
   * fails with TF_ALREADY_EXISTS if `path` exists, checking and creating
   * in one atomic step. Same contract as new_writable_file otherwise. */
  tfe_fs_open_fn new_exclusive_file;
} tfe_fs;

/* Frees an entry that never made it into the registry (does not call the
 * filesystem's cleanup). NULL is a no-op. */
void tfe_fs_free_entry(tfe_fs* fs);

/* ---- registry (fs/registry.c) ---- */

/* Registers the built-in filesystems once ("" and "file" for local paths,
 * "ram" for memory). Every public entry point calls it first. */
void tfe_fs_builtins_ensure(void);

/* The filesystem registered for scheme[0, len), or NULL. */
const tfe_fs* tfe_fs_lookup(const char* scheme, size_t len);

/* The filesystem for `uri`. NULL with TF_UNIMPLEMENTED when its scheme is
 * not registered, TF_INVALID_ARGUMENT for a NULL uri. */
const tfe_fs* tfe_fs_for_uri(const char* uri, TF_Status* status);

/* If `scheme` is registered, returns true and stores its origin (static
 * for the life of the process) in *origin. Does not register built-ins. */
bool tfe_fs_registry_has(const char* scheme, const char** origin);

/* Adds n entries, all or nothing. Fails with TF_ALREADY_EXISTS if one of
 * the schemes is taken (the caller still owns every entry then). On
 * success the registry owns them. */
bool tfe_fs_registry_add(tfe_fs** entries, size_t n, const char* origin,
                         TF_Status* status);

/* Registered schemes, sorted. */
bool tfe_fs_registry_schemes(tfe_strvec* out);

/* ---- scratch statuses ---- */

/* A TF_Status on the stack for calls whose outcome the core inspects
 * without disturbing the caller's status. Release with
 * tfe_scratch_release. */
static inline void tfe_scratch_init(TF_Status* s) {
  s->code = TF_OK;
  s->msg = NULL;
  s->payloads = NULL;
}
static inline void tfe_scratch_release(TF_Status* s) {
  TF_SetStatus(s, TF_OK, "");
}

/* ---- operations on URIs (fs/ops.c) ----
 *
 * Each sets `status` (never NULL here) to TF_OK or an error. Missing
 * operations without a default give TF_UNIMPLEMENTED naming the operation,
 * the scheme and the plugin. */

/* Translates `uri` for `fs` (plugin translate_name or the default). Returns
 * a tfe_malloc'd string, or NULL with TF_RESOURCE_EXHAUSTED. */
char* tfe_fs_translate(const tfe_fs* fs, const char* uri, TF_Status* status);

/* Sets status to TF_UNIMPLEMENTED for operation `op` of `fs`. */
void tfe_fs_unimplemented(const tfe_fs* fs, const char* op, const char* uri,
                          TF_Status* status);

void tfe_fs_create_dir(const char* uri, TF_Status* status);
void tfe_fs_recursively_create_dir(const char* uri, TF_Status* status);
void tfe_fs_delete_file(const char* uri, TF_Status* status);
void tfe_fs_delete_dir(const char* uri, TF_Status* status);
void tfe_fs_delete_recursively(const char* uri, int64_t* undeleted_files,
                               int64_t* undeleted_dirs, TF_Status* status);
void tfe_fs_stat(const char* uri, TF_FileStatistics* stats, TF_Status* status);
void tfe_fs_exists(const char* uri, TF_Status* status);
bool tfe_fs_is_directory(const char* uri, TF_Status* status);
int64_t tfe_fs_file_size(const char* uri, TF_Status* status);
/* Entry names of directory `uri`, sorted, into `out` (emptied first). */
void tfe_fs_children(const char* uri, tfe_strvec* out, TF_Status* status);
/* Matches of a glob pattern, as full URIs, sorted, into `out`. A pattern
 * below a missing directory matches nothing (not an error). */
void tfe_fs_glob(const char* pattern, tfe_strvec* out, TF_Status* status);
/* Rename within one filesystem; replaces an existing destination. */
void tfe_fs_rename(const char* src, const char* dst, TF_Status* status);
/* Copy, possibly between filesystems (streamed). A directory destination
 * receives a file named like the source. */
void tfe_fs_copy(const char* src, const char* dst, TF_Status* status);

/* ---- open files (fs/files.c) ---- */

struct TF_WritableFileHandle {
  const tfe_fs* fs;
  TF_WritableFile file;
};

struct TFE_RandomAccessFile {
  const tfe_fs* fs;
  TF_RandomAccessFile file;
};
typedef struct TFE_RandomAccessFile tfe_raf;

struct TFE_ReadOnlyMemoryRegion {
  const tfe_fs* fs;
  TF_ReadOnlyMemoryRegion region;
};
typedef struct TFE_ReadOnlyMemoryRegion tfe_romr;

/* Opens a file for writing (append=false truncates). NULL on error. */
TF_WritableFileHandle* tfe_fs_open_writable(const char* uri, bool append,
                                            TF_Status* status);
/* Creates a new file for writing; TF_ALREADY_EXISTS if `uri` exists.
 * Atomic on filesystems with new_exclusive_file (the built-in ones);
 * elsewhere (plugins) an existence check followed by new_writable_file,
 * which a concurrent creator can slip between. NULL on error. */
TF_WritableFileHandle* tfe_fs_open_exclusive(const char* uri,
                                             TF_Status* status);
/* Closes (if `close_first`) and frees a writable file. */
void tfe_fs_writable_release(TF_WritableFileHandle* h, bool close_first,
                             TF_Status* status);
tfe_raf* tfe_fs_open_raf(const char* uri, TF_Status* status);
int64_t tfe_fs_raf_read(const tfe_raf* f, uint64_t offset, size_t n,
                        char* buffer, TF_Status* status);
void tfe_fs_raf_release(tfe_raf* f);
tfe_romr* tfe_fs_open_romr(const char* uri, TF_Status* status);
void tfe_fs_romr_release(tfe_romr* r);

/* ---- built-in filesystems, registered like plugins ---- */

/* TF_InitPlugin-style initialisers of the built-in filesystems. */
void tfe_local_fs_init_plugin(TF_FilesystemPluginInfo* info);
void tfe_ram_fs_init_plugin(TF_FilesystemPluginInfo* info);

/* Their atomic exclusive creation (O_CREAT|O_EXCL for local files; check
 * and create under the filesystem's lock for ram://), attached to their
 * registry entries as tfe_fs.new_exclusive_file. */
void tfe_local_fs_new_exclusive_file(const TF_Filesystem* filesystem,
                                     const char* path, TF_WritableFile* file,
                                     TF_Status* status);
void tfe_ram_fs_new_exclusive_file(const TF_Filesystem* filesystem,
                                   const char* path, TF_WritableFile* file,
                                   TF_Status* status);

#endif /* TFE_FS_FS_H_ */
