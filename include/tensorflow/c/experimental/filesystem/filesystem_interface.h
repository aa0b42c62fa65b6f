/* tfe: the modular filesystem ABI shared by the core and filesystem plugins.
 *
 * A filesystem plugin is a shared library that exports one function,
 * TF_InitPlugin. The core dlopen()s the library, calls TF_InitPlugin with a
 * zeroed TF_FilesystemPluginInfo, and the plugin fills it with one
 * TF_FilesystemPluginOps entry per URI scheme it serves ("gs", "s3", ...;
 * "" stands for plain local paths). Each entry carries four tables of
 * function pointers (filesystem, random access file, writable file,
 * read-only memory region) together with the ABI number, API number and
 * size of each table as the plugin was compiled.
 *
 * The layouts, numbers and sizes below are the ones of TensorFlow 2.21, so a
 * plugin built for TensorFlow loads in tfe and the other way round. Unlike
 * TensorFlow's copy of this header, this one is plain C99 (it compiles as C
 * and as C++).
 *
 * Ownership, in short:
 *   - the TF_RandomAccessFile / TF_WritableFile / TF_ReadOnlyMemoryRegion /
 *     TF_Filesystem wrappers belong to the core; the `void*` inside each one
 *     belongs to the plugin, which sets it in the matching `new_*` or `init`
 *     operation and releases it in the matching `cleanup`;
 *   - everything the plugin hands over to the core (the scheme strings, the
 *     tables, the `ops` array, strings returned by translate_name, arrays
 *     returned by get_children / get_matching_paths) must be allocated with
 *     the plugin's own `plugin_memory_allocate`; the core releases it with
 *     the plugin's `plugin_memory_free`;
 *   - the core copies every table into memory it owns, so changing a table
 *     after TF_InitPlugin returned has no effect.
 *
 * Calling conventions for every operation: the first argument is the object
 * the operation acts on ("this"), then inputs, then outputs, then a
 * TF_Status* the core owns. The core never passes NULL pointers, and every
 * path argument is a NUL-terminated string that has already gone through
 * `translate_name` (or the core's default translation: the path part of the
 * URI, cleaned of duplicate '/', "." and ".." components).
 *
 * Optional operations may be left NULL. When a caller needs one that is
 * NULL, the core either falls back to a default built from other operations
 * (as documented per operation) or reports TF_UNIMPLEMENTED naming it. See
 * docs/FILESYSTEMS.md for the loader's rules. */
#ifndef TENSORFLOW_C_EXPERIMENTAL_FILESYSTEM_FILESYSTEM_INTERFACE_H_
#define TENSORFLOW_C_EXPERIMENTAL_FILESYSTEM_FILESYSTEM_INTERFACE_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_file_statistics.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Part 1. Handles: one core-owned wrapper per kind of object, each holding
 * a plugin-owned pointer. The wrappers give the tables some type safety. */

typedef struct TF_RandomAccessFile {
  void* plugin_file;
} TF_RandomAccessFile;

typedef struct TF_WritableFile {
  void* plugin_file;
} TF_WritableFile;

typedef struct TF_ReadOnlyMemoryRegion {
  void* plugin_memory_region;
} TF_ReadOnlyMemoryRegion;

typedef struct TF_Filesystem {
  void* plugin_filesystem;
} TF_Filesystem;

/* A transaction as the filesystem sees it; `owner` is the filesystem that
 * started it. */
typedef struct TF_TransactionToken {
  void* token;
  TF_Filesystem* owner;
} TF_TransactionToken;

/* Values of a filesystem configuration option. `type_tag` (a
 * TF_Filesystem_Option_Type) says which union member is in use; `values`
 * points at `num_values` of them. */
typedef union TF_Filesystem_Option_Value_Union {
  int64_t int_val;
  double real_val;
  struct {
    char* buf;
    int buf_length;
  } buffer_val;
} TF_Filesystem_Option_Value_Union;

typedef struct TF_Filesystem_Option_Value {
  int type_tag;
  int num_values;
  TF_Filesystem_Option_Value_Union* values;
} TF_Filesystem_Option_Value;

typedef enum TF_Filesystem_Option_Type {
  TF_Filesystem_Option_Type_Int = 0,
  TF_Filesystem_Option_Type_Real,
  TF_Filesystem_Option_Type_Buffer,
  TF_Filesystem_Num_Option_Types /* count; keep last */
} TF_Filesystem_Option_Type;

/* One named option. `per_file` is a boolean stored as int. */
typedef struct TF_Filesystem_Option {
  char* name;
  char* description;
  int per_file;
  TF_Filesystem_Option_Value* value;
} TF_Filesystem_Option;

/* ------------------------------------------------------------------------
 * Part 2. Operation tables.
 *
 * Tables only ever grow at the end; anything else is an ABI break. A
 * "required" operation must be non-NULL whenever its table is supplied, or
 * the plugin is rejected at load time. */

/* Operations on a file opened for random-access reading. */
typedef struct TF_RandomAccessFileOps {
  /* Required. Frees the plugin's state for `file`; nothing uses the file
   * afterwards. */
  void (*cleanup)(TF_RandomAccessFile* file);

  /* Reads up to `n` bytes at `offset` into `buffer` (which holds at least
   * `n` bytes and is not NUL-terminated) and returns how many were read.
   * Status: TF_OK when all `n` bytes were read; TF_OUT_OF_RANGE when the end
   * of the file cut the read short (the return value still counts the bytes
   * that were read); any other code together with a return value of -1 for
   * real errors. May be called from several threads at once. */
  int64_t (*read)(const TF_RandomAccessFile* file, uint64_t offset, size_t n,
                  char* buffer, TF_Status* status);
} TF_RandomAccessFileOps;

/* Operations on a file opened for writing or appending. Only one thread
 * uses a writable file at a time. */
typedef struct TF_WritableFileOps {
  /* Required. Frees the plugin's state for `file`. The core calls `close`
   * first (if the user closed the file) and never calls `close` from
   * cleanup's place. */
  void (*cleanup)(TF_WritableFile* file);

  /* Appends `n` bytes of `buffer`. TF_RESOURCE_EXHAUSTED when fewer than `n`
   * bytes could be written (quota, disk full); other codes for other
   * errors. */
  void (*append)(const TF_WritableFile* file, const char* buffer, size_t n,
                 TF_Status* status);

  /* Current write position (the same answer for repeated calls); -1 with an
   * error status on failure. */
  int64_t (*tell)(const TF_WritableFile* file, TF_Status* status);

  /* Pushes buffered data towards the filesystem; may return before it is
   * durable. Default when NULL: nothing to do. */
  void (*flush)(const TF_WritableFile* file, TF_Status* status);

  /* Blocks until the data is durable. Default when NULL: nothing to do. */
  void (*sync)(const TF_WritableFile* file, TF_Status* status);

  /* Flushes and releases what the open file holds, but not the plugin
   * state (that is `cleanup`'s job). Called at most once per file. */
  void (*close)(const TF_WritableFile* file, TF_Status* status);
} TF_WritableFileOps;

/* Operations on a read-only view of a whole file (e.g. an mmap). */
typedef struct TF_ReadOnlyMemoryRegionOps {
  /* Required. Releases the region. */
  void (*cleanup)(TF_ReadOnlyMemoryRegion* region);

  /* Required. Start of the bytes; valid until cleanup. */
  const void* (*data)(const TF_ReadOnlyMemoryRegion* region);

  /* Required. Number of bytes. */
  uint64_t (*length)(const TF_ReadOnlyMemoryRegion* region);
} TF_ReadOnlyMemoryRegionOps;

/* Operations on the filesystem itself. Status conventions shared by most
 * operations: TF_NOT_FOUND when the path or one of its parents is missing,
 * TF_FAILED_PRECONDITION when the path is malformed or has the wrong kind
 * (a directory where a file is needed, a file used as a parent, ...). */
typedef struct TF_FilesystemOps {
  /* Required. Sets up `filesystem->plugin_filesystem`. Called once, when
   * the scheme is registered; a non-OK status cancels the registration. */
  void (*init)(TF_Filesystem* filesystem, TF_Status* status);

  /* Required. Releases what `init` acquired. */
  void (*cleanup)(TF_Filesystem* filesystem);

  /* Opens `path` for random-access reads. TF_FAILED_PRECONDITION for a
   * directory. A plugin that sets this must supply TF_RandomAccessFileOps. */
  void (*new_random_access_file)(const TF_Filesystem* filesystem,
                                 const char* path, TF_RandomAccessFile* file,
                                 TF_Status* status);

  /* Creates `path`, or truncates it if it exists. The parent must exist.
   * A plugin that sets this must supply TF_WritableFileOps. */
  void (*new_writable_file)(const TF_Filesystem* filesystem, const char* path,
                            TF_WritableFile* file, TF_Status* status);

  /* Opens `path` for appending, creating it empty if needed. A plugin that
   * sets this must supply TF_WritableFileOps. */
  void (*new_appendable_file)(const TF_Filesystem* filesystem, const char* path,
                              TF_WritableFile* file, TF_Status* status);

  /* Maps the whole of `path` read-only. TF_INVALID_ARGUMENT for an empty
   * file. A plugin that sets this must supply TF_ReadOnlyMemoryRegionOps. */
  void (*new_read_only_memory_region_from_file)(const TF_Filesystem* filesystem,
                                                const char* path,
                                                TF_ReadOnlyMemoryRegion* region,
                                                TF_Status* status);

  /* Creates one directory; its parent must exist. TF_ALREADY_EXISTS if
   * `path` exists. */
  void (*create_dir)(const TF_Filesystem* filesystem, const char* path,
                     TF_Status* status);

  /* Creates `path` and any missing ancestors; TF_OK if it already exists
   * as a directory, TF_FAILED_PRECONDITION if it exists as something else.
   * Default when NULL: create_dir on each missing component. */
  void (*recursively_create_dir)(const TF_Filesystem* filesystem,
                                 const char* path, TF_Status* status);

  /* Deletes a file. TF_FAILED_PRECONDITION for a directory. */
  void (*delete_file)(const TF_Filesystem* filesystem, const char* path,
                      TF_Status* status);

  /* Deletes an empty directory. TF_FAILED_PRECONDITION if it is not empty
   * or not a directory. */
  void (*delete_dir)(const TF_Filesystem* filesystem, const char* path,
                     TF_Status* status);

  /* Deletes `path` and everything below it. On success both counters are
   * 0. If the walk cannot even start (e.g. `path` is missing) the counters
   * are 0 files and 1 directory. Otherwise they count the entries that
   * could not be deleted and the status gives one reason. Default when
   * NULL: a walk using get_children, delete_file and delete_dir. */
  void (*delete_recursively)(const TF_Filesystem* filesystem, const char* path,
                             uint64_t* undeleted_files,
                             uint64_t* undeleted_dirs, TF_Status* status);

  /* Renames `src` to `dst`, replacing `dst` if it exists. On error both
   * paths keep their previous state. Default when NULL: copy, then delete
   * the source. */
  void (*rename_file)(const TF_Filesystem* filesystem, const char* src,
                      const char* dst, TF_Status* status);

  /* Copies `src` to `dst` (replacing it). Default when NULL: stream
   * through new_random_access_file and new_writable_file. */
  void (*copy_file)(const TF_Filesystem* filesystem, const char* src,
                    const char* dst, TF_Status* status);

  /* TF_OK if `path` exists (file or directory), TF_NOT_FOUND if not. */
  void (*path_exists)(const TF_Filesystem* filesystem, const char* path,
                      TF_Status* status);

  /* True when every one of the `num_files` paths exists. When `statuses` is
   * not NULL it holds `num_files` core-owned statuses that the plugin fills
   * (with TF_SetStatus) as path_exists would. Default when NULL: path_exists
   * on each path. */
  bool (*paths_exist)(const TF_Filesystem* filesystem, char** paths,
                      int num_files, TF_Status** statuses);

  /* Fills `*stats` (only on TF_OK). */
  void (*stat)(const TF_Filesystem* filesystem, const char* path,
               TF_FileStatistics* stats, TF_Status* status);

  /* Whether `path` is a directory; false whenever the status is not OK.
   * Default when NULL: uses stat. */
  bool (*is_directory)(const TF_Filesystem* filesystem, const char* path,
                       TF_Status* status);

  /* Size of the file at `path`; TF_FAILED_PRECONDITION for a directory.
   * Default when NULL: uses stat. */
  int64_t (*get_file_size)(const TF_Filesystem* filesystem, const char* path,
                           TF_Status* status);

  /* Turns a URI of this scheme into the path the other operations receive.
   * Returns a new string allocated with plugin_memory_allocate (never NULL;
   * "" is allowed) that the core frees. Default when NULL: the path part of
   * the URI, cleaned ("/" when it is empty). */
  char* (*translate_name)(const TF_Filesystem* filesystem, const char* uri);

  /* Lists the entries of directory `path` (names relative to it, without
   * "." and ".."). Allocates `*entries` and each string with
   * plugin_memory_allocate, hands them to the core and returns their count;
   * on error frees what it allocated, sets the status and returns -1.
   * TF_FAILED_PRECONDITION when `path` is a file. */
  int (*get_children)(const TF_Filesystem* filesystem, const char* path,
                      char*** entries, TF_Status* status);

  /* Returns, like get_children, every path matching the glob pattern
   * `glob`. Within one path segment: '*' matches any run of characters
   * other than '/', '?' one such character, "[...]" / "[^...]" a character
   * (not) in the set, with ranges "a-z"; '\\' escapes the next character.
   * The whole path must match. Default when NULL: the core walks the
   * directories with get_children. */
  int (*get_matching_paths)(const TF_Filesystem* filesystem, const char* glob,
                            char*** entries, TF_Status* status);

  /* Drops cached data. Default when NULL: nothing to do. */
  void (*flush_caches)(const TF_Filesystem* filesystem);

  /* Transactions. Tokens belong to the filesystem and die in
   * end_transaction. Each returns 0 on success, -1 with a status on
   * error. */
  int (*start_transaction)(const TF_Filesystem* filesystem,
                           TF_TransactionToken** token, TF_Status* status);
  int (*end_transaction)(const TF_Filesystem* filesystem,
                         TF_TransactionToken* token, TF_Status* status);
  int (*add_to_transaction)(const TF_Filesystem* filesystem, const char* path,
                            TF_TransactionToken* token, TF_Status* status);
  int (*get_transaction_for_path)(const TF_Filesystem* filesystem,
                                  const char* path, TF_TransactionToken** token,
                                  TF_Status* status);
  int (*get_or_start_transaction_for_path)(const TF_Filesystem* filesystem,
                                           const char* path,
                                           TF_TransactionToken** token,
                                           TF_Status* status);
  /* Human-readable form of a token, allocated with plugin_memory_allocate
   * and freed by the core. */
  char* (*decode_transaction_token)(const TF_Filesystem* filesystem,
                                    const TF_TransactionToken* token);

  /* Configuration. The caller of a getter owns what it returns (allocated
   * with plugin_memory_allocate); setters leave ownership with the caller.
   * TF_NOT_FOUND for an unknown key. */
  void (*get_filesystem_configuration)(const TF_Filesystem* filesystem,
                                       TF_Filesystem_Option** options,
                                       int* num_options, TF_Status* status);
  void (*set_filesystem_configuration)(const TF_Filesystem* filesystem,
                                       const TF_Filesystem_Option* options,
                                       int num_options, TF_Status* status);
  void (*get_filesystem_configuration_option)(const TF_Filesystem* filesystem,
                                              const char* key,
                                              TF_Filesystem_Option** option,
                                              TF_Status* status);
  void (*set_filesystem_configuration_option)(
      const TF_Filesystem* filesystem, const TF_Filesystem_Option* option,
      TF_Status* status);
  void (*get_filesystem_configuration_keys)(const TF_Filesystem* filesystem,
                                            char** keys, int* num_keys,
                                            TF_Status* status);
} TF_FilesystemOps;

/* ------------------------------------------------------------------------
 * Part 3. Versions.
 *
 * ABI numbers change only when a table changes incompatibly; the core
 * refuses a plugin whose ABI number differs from its own. API numbers
 * change when operations are appended or their contracts change; a
 * different API number only produces a warning. The sizes let a core and a
 * plugin of different ages agree on how many operations a table holds. */

#define TF_RANDOM_ACCESS_FILE_OPS_API 0
#define TF_RANDOM_ACCESS_FILE_OPS_ABI 0
#define TF_RANDOM_ACCESS_FILE_OPS_SIZE sizeof(TF_RandomAccessFileOps)

#define TF_WRITABLE_FILE_OPS_API 0
#define TF_WRITABLE_FILE_OPS_ABI 0
#define TF_WRITABLE_FILE_OPS_SIZE sizeof(TF_WritableFileOps)

#define TF_READ_ONLY_MEMORY_REGION_OPS_API 0
#define TF_READ_ONLY_MEMORY_REGION_OPS_ABI 0
#define TF_READ_ONLY_MEMORY_REGION_OPS_SIZE sizeof(TF_ReadOnlyMemoryRegionOps)

#define TF_FILESYSTEM_OPS_API 0
#define TF_FILESYSTEM_OPS_ABI 0
#define TF_FILESYSTEM_OPS_SIZE sizeof(TF_FilesystemOps)

/* ------------------------------------------------------------------------
 * Part 4. Registration. */

/* What a plugin declares for one scheme: the scheme (allocated with
 * plugin_memory_allocate, never NULL; "" for local paths), and for each
 * table its ABI number, API number, size and address. A table the plugin
 * does not support is NULL (the filesystem table is mandatory). The layout
 * never changes; new tables would be appended. */
typedef struct TF_FilesystemPluginOps {
  char* scheme;
  int filesystem_ops_abi;
  int filesystem_ops_api;
  size_t filesystem_ops_size;
  TF_FilesystemOps* filesystem_ops;
  int random_access_file_ops_abi;
  int random_access_file_ops_api;
  size_t random_access_file_ops_size;
  TF_RandomAccessFileOps* random_access_file_ops;
  int writable_file_ops_abi;
  int writable_file_ops_api;
  size_t writable_file_ops_size;
  TF_WritableFileOps* writable_file_ops;
  int read_only_memory_region_ops_abi;
  int read_only_memory_region_ops_api;
  size_t read_only_memory_region_ops_size;
  TF_ReadOnlyMemoryRegionOps* read_only_memory_region_ops;
} TF_FilesystemPluginOps;

/* What TF_InitPlugin fills: `num_schemes` entries in `ops` (an array
 * allocated with plugin_memory_allocate) and the plugin's allocator pair,
 * which the core uses to free everything the plugin handed over. The core
 * zeroes this struct before calling TF_InitPlugin. */
typedef struct TF_FilesystemPluginInfo {
  size_t num_schemes;
  TF_FilesystemPluginOps* ops;
  void* (*plugin_memory_allocate)(size_t size);
  void (*plugin_memory_free)(void* ptr);
} TF_FilesystemPluginInfo;

#ifndef TFE_CFFI_CDEF
/* Records the ABI numbers, API numbers and table sizes this header defines
 * into `ops`. Plugins call it for every entry they fill; it is compiled into
 * the plugin, so the numbers are the plugin's, not the core's. */
static inline void TF_SetFilesystemVersionMetadata(TF_FilesystemPluginOps* ops) {
  ops->filesystem_ops_abi = TF_FILESYSTEM_OPS_ABI;
  ops->filesystem_ops_api = TF_FILESYSTEM_OPS_API;
  ops->filesystem_ops_size = TF_FILESYSTEM_OPS_SIZE;
  ops->random_access_file_ops_abi = TF_RANDOM_ACCESS_FILE_OPS_ABI;
  ops->random_access_file_ops_api = TF_RANDOM_ACCESS_FILE_OPS_API;
  ops->random_access_file_ops_size = TF_RANDOM_ACCESS_FILE_OPS_SIZE;
  ops->writable_file_ops_abi = TF_WRITABLE_FILE_OPS_ABI;
  ops->writable_file_ops_api = TF_WRITABLE_FILE_OPS_API;
  ops->writable_file_ops_size = TF_WRITABLE_FILE_OPS_SIZE;
  ops->read_only_memory_region_ops_abi = TF_READ_ONLY_MEMORY_REGION_OPS_ABI;
  ops->read_only_memory_region_ops_api = TF_READ_ONLY_MEMORY_REGION_OPS_API;
  ops->read_only_memory_region_ops_size = TF_READ_ONLY_MEMORY_REGION_OPS_SIZE;
}
#endif /* TFE_CFFI_CDEF */

/* The entry point every filesystem plugin defines (the core does not).
 * It fills `plugin_info` as described above; the core then validates each
 * entry, copies the tables and registers the schemes (all or nothing). */
TF_CAPI_EXPORT extern void TF_InitPlugin(TF_FilesystemPluginInfo* plugin_info);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_EXPERIMENTAL_FILESYSTEM_FILESYSTEM_INTERFACE_H_ */
