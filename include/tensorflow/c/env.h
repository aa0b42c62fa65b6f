/* tfe: files, directories, clocks, threads and shared libraries (TF's
 * tensorflow::Env, in C).
 *
 * Every path may be a plain local path ("/tmp/x", "rel/x") or a URI whose
 * scheme selects a registered filesystem: "file:///tmp/x" (local),
 * "ram://bucket/x" (tfe's in-memory filesystem) or any scheme a plugin
 * registered with TF_RegisterFilesystemPlugin. A path whose scheme nobody
 * registered fails with TF_UNIMPLEMENTED.
 *
 * Status codes follow TensorFlow: TF_NOT_FOUND for a missing path or
 * parent, TF_ALREADY_EXISTS, TF_FAILED_PRECONDITION for the wrong kind of
 * entry (a directory where a file is needed, a non-empty directory, a file
 * used as a directory), TF_PERMISSION_DENIED, TF_INVALID_ARGUMENT for NULL
 * or malformed arguments. Passing a NULL status is allowed: the call still
 * happens, its outcome is just not reported. */
#ifndef TENSORFLOW_C_ENV_H_
#define TENSORFLOW_C_ENV_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_file_statistics.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A file open for writing (TF_NewWritableFile). */
typedef struct TF_WritableFileHandle TF_WritableFileHandle;
/* A list of strings read one at a time with TF_StringStreamNext. */
typedef struct TF_StringStream TF_StringStream;
/* A thread started with TF_StartThread. */
typedef struct TF_Thread TF_Thread;

typedef struct TF_ThreadOptions {
  /* Stack size in bytes; 0 means the system default. */
  size_t stack_size;
  /* Guard area size in bytes; 0 means the system default. */
  size_t guard_size;
  /* NUMA node to bind the thread to; -1 means no preference. tfe accepts
   * the value and does not bind. */
  int numa_node;
} TF_ThreadOptions;

/* Creates the directory `dirname`; its parent must exist. Codes: TF_OK,
 * TF_ALREADY_EXISTS if the path exists, TF_NOT_FOUND if the parent is
 * missing, TF_PERMISSION_DENIED. */
TF_CAPI_EXPORT extern void TF_CreateDir(const char* dirname, TF_Status* status);

/* Deletes the empty directory `dirname`. Codes: TF_OK, TF_NOT_FOUND,
 * TF_FAILED_PRECONDITION if it is not empty or not a directory. */
TF_CAPI_EXPORT extern void TF_DeleteDir(const char* dirname, TF_Status* status);

/* Deletes `dirname` and everything below it (a plain file is simply
 * deleted). Both counters are always written (NULL counters are allowed):
 * on success both are 0; if `dirname` is missing or unreadable, the dir
 * counter is 1, the file counter 0 and the status says why (TF_NOT_FOUND,
 * ...); otherwise they count the entries that could not be deleted and the
 * status gives the reason for one of them. */
TF_CAPI_EXPORT extern void TF_DeleteRecursively(const char* dirname,
                                                int64_t* undeleted_file_count,
                                                int64_t* undeleted_dir_count,
                                                TF_Status* status);

/* Fills `*stats` for `filename` on TF_OK; on any error `*stats` is left
 * untouched (TF_NOT_FOUND for a missing path). */
TF_CAPI_EXPORT extern void TF_FileStat(const char* filename,
                                       TF_FileStatistics* stats,
                                       TF_Status* status);

/* Creates `filename` (truncating an existing file) and stores a new handle
 * in `*handle`, which the caller owns and must release with
 * TF_CloseWritableFile. On error `*handle` is set to NULL. Codes:
 * TF_NOT_FOUND if the parent directory is missing, TF_FAILED_PRECONDITION
 * if `filename` is a directory. */
TF_CAPI_EXPORT extern void TF_NewWritableFile(const char* filename,
                                              TF_WritableFileHandle** handle,
                                              TF_Status* status);

/* Flushes and closes the file and frees `handle` (always, even when the
 * close reports an error through `status`). NULL is a harmless no-op. */
TF_CAPI_EXPORT extern void TF_CloseWritableFile(TF_WritableFileHandle* handle,
                                                TF_Status* status);

/* Blocks until the data appended so far is durable. */
TF_CAPI_EXPORT extern void TF_SyncWritableFile(TF_WritableFileHandle* handle,
                                               TF_Status* status);

/* Hands buffered data to the filesystem (other readers of the file see
 * it afterwards); durability needs TF_SyncWritableFile. */
TF_CAPI_EXPORT extern void TF_FlushWritableFile(TF_WritableFileHandle* handle,
                                                TF_Status* status);

/* Appends `length` bytes from `data` (which may contain NULs; NULL is
 * allowed when length is 0). */
TF_CAPI_EXPORT extern void TF_AppendWritableFile(TF_WritableFileHandle* handle,
                                                 const char* data,
                                                 size_t length,
                                                 TF_Status* status);

/* Deletes the file `filename`. Codes: TF_OK, TF_NOT_FOUND,
 * TF_FAILED_PRECONDITION for a directory. */
TF_CAPI_EXPORT extern void TF_DeleteFile(const char* filename,
                                         TF_Status* status);

/* Stores the next string of `list` in `*result` and returns true; at the
 * end (or for a NULL list) stores NULL and returns false. The strings
 * belong to the list and stay valid until TF_StringStreamDone. */
TF_CAPI_EXPORT extern bool TF_StringStreamNext(TF_StringStream* list,
                                               const char** result);

/* Frees `list` and its strings. NULL is a harmless no-op. */
TF_CAPI_EXPORT extern void TF_StringStreamDone(TF_StringStream* list);

/* The names of the entries of directory `filename` (without "." and "..",
 * in byte-wise sorted order). Returns a list the caller owns and frees with
 * TF_StringStreamDone. As in TensorFlow, a list is returned even on error
 * (an empty one), so callers may release it unconditionally; NULL only
 * when memory runs out. Codes: TF_NOT_FOUND, TF_FAILED_PRECONDITION when
 * `filename` is not a directory. */
TF_CAPI_EXPORT extern TF_StringStream* TF_GetChildren(const char* filename,
                                                      TF_Status* status);

/* Local directories suitable for temporary files, as absolute paths
 * ($TEST_TMPDIR, $TMPDIR, $TMP, then /tmp; only existing directories).
 * The caller owns the list (TF_StringStreamDone). */
TF_CAPI_EXPORT extern TF_StringStream* TF_GetLocalTempDirectories(void);

/* A new, unique, absolute file name in the first usable temporary
 * directory, ending with `extension` (appended as given; NULL means none).
 * The file is not created. The caller frees the string with free(). NULL
 * if no temporary directory is usable or memory runs out. */
TF_CAPI_EXPORT extern char* TF_GetTempFileName(const char* extension);

/* Wall-clock time since the Unix epoch. */
TF_CAPI_EXPORT extern uint64_t TF_NowNanos(void);
TF_CAPI_EXPORT extern uint64_t TF_NowMicros(void);
TF_CAPI_EXPORT extern uint64_t TF_NowSeconds(void);

/* Fills `options` with the defaults: stack_size 0, guard_size 0,
 * numa_node -1. NULL is ignored. */
TF_CAPI_EXPORT extern void TF_DefaultThreadOptions(TF_ThreadOptions* options);

/* Starts a thread running work_func(param) and returns its handle, which
 * the caller owns and must pass to TF_JoinThread exactly once. `options`
 * may be NULL (defaults); `thread_name` may be NULL and is only used for
 * debugging (truncated to what the system allows). Returns NULL if
 * work_func is NULL or the thread cannot be created. */
TF_CAPI_EXPORT extern TF_Thread* TF_StartThread(const TF_ThreadOptions* options,
                                                const char* thread_name,
                                                void (*work_func)(void*),
                                                void* param);

/* Waits for the thread to finish, then frees the handle. NULL is a
 * harmless no-op. */
TF_CAPI_EXPORT extern void TF_JoinThread(TF_Thread* thread);

/* dlopen()s `library_filename` (RTLD_NOW | RTLD_LOCAL; the usual search
 * rules apply to names without '/'). Returns the handle, which stays valid
 * for the life of the process (there is no unload function), or NULL with
 * TF_NOT_FOUND naming the library and the reason; TF_INVALID_ARGUMENT for
 * a NULL or empty name. */
TF_CAPI_EXPORT extern void* TF_LoadSharedLibrary(const char* library_filename,
                                                 TF_Status* status);

/* Address of `symbol_name` in a library opened with TF_LoadSharedLibrary,
 * or NULL with TF_NOT_FOUND; TF_INVALID_ARGUMENT for a NULL handle or
 * name. */
TF_CAPI_EXPORT extern void* TF_GetSymbolFromLibrary(void* handle,
                                                    const char* symbol_name,
                                                    TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_ENV_H_ */
