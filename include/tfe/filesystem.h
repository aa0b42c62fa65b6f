/* tfe's extensions to the filesystem API (nothing here exists in
 * TensorFlow's C API).
 *
 * TensorFlow's env.h can create, list, stat and delete, and write files,
 * but has no way to read a file, copy or rename one, glob, or list the
 * registered schemes. These functions fill the gaps; tfe's Python module
 * tfe_py.io is built on them. Paths follow env.h: a local path or a URI
 * whose scheme selects a registered filesystem, and a NULL status is
 * allowed. */
#ifndef TFE_FILESYSTEM_H_
#define TFE_FILESYSTEM_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/env.h"
#include "tensorflow/c/tf_file_statistics.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the scheme registry ---- */

/* Every registered scheme, sorted: "" (local paths), "file", "ram" and
 * whatever plugins added. The caller owns the list (TF_StringStreamDone).
 * NULL with TF_RESOURCE_EXHAUSTED when memory runs out. */
TF_CAPI_EXPORT extern TF_StringStream* TFE_GetRegisteredFilesystemSchemes(
    TF_Status* status);

/* TF_OK if a filesystem serves `scheme` ("" for local paths), TF_NOT_FOUND
 * if none does. `*origin`, when origin is not NULL, receives what
 * registered it (the plugin's path, or a "built-in ..." description);
 * static storage. */
TF_CAPI_EXPORT extern void TFE_GetFilesystemForScheme(const char* scheme,
                                                      const char** origin,
                                                      TF_Status* status);

/* ---- paths ---- */

/* TF_OK if `path` exists (file or directory), TF_NOT_FOUND if not. */
TF_CAPI_EXPORT extern void TFE_FileExists(const char* path, TF_Status* status);

/* True if `path` is a directory. False with TF_OK when it is something
 * else; false with an error (TF_NOT_FOUND, ...) when it cannot be told. */
TF_CAPI_EXPORT extern bool TFE_IsDirectory(const char* path, TF_Status* status);

/* Size in bytes of the file `path`; -1 with an error status otherwise
 * (TF_FAILED_PRECONDITION for a directory). */
TF_CAPI_EXPORT extern int64_t TFE_GetFileSize(const char* path,
                                              TF_Status* status);

/* Creates `path` and any missing parents; TF_OK if it already is a
 * directory, TF_FAILED_PRECONDITION if it or a parent is a file. */
TF_CAPI_EXPORT extern void TFE_RecursivelyCreateDir(const char* path,
                                                    TF_Status* status);

/* Renames a file or directory within one filesystem (TF_UNIMPLEMENTED
 * across schemes). Without `overwrite`, an existing destination gives
 * TF_ALREADY_EXISTS and nothing changes; with it, a destination file is
 * replaced. */
TF_CAPI_EXPORT extern void TFE_RenameFile(const char* src, const char* dst,
                                          bool overwrite, TF_Status* status);

/* Copies the file `src` to `dst`, which may be on another filesystem (the
 * bytes are streamed in chunks, never held whole in memory). If `dst` is a
 * directory the copy is made inside it under the source's name. Without
 * `overwrite`, an existing destination gives TF_ALREADY_EXISTS. Copying a
 * file onto itself is TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern void TFE_CopyFile(const char* src, const char* dst,
                                        bool overwrite, TF_Status* status);

/* Every path matching the glob `pattern`, sorted, as full paths in the
 * pattern's own form (same scheme and host). Syntax per path segment: '*',
 * '?', "[set]", "[!set]" / "[^set]", '\\' escapes. A pattern below a
 * missing directory matches nothing (TF_OK, empty list), as in Python.
 * After the first wildcard, "." and ".." segments are resolved lexically
 * ("d/x/.." is "d", "d/x/." is "d/x"; ".." applies only to a directory
 * that exists) and duplicates are merged level by level, so every path
 * comes back once and repeated "x/.." costs time linear in the pattern
 * (TensorFlow matches nothing there, as listings never contain "." or
 * ".."). Segments before the first wildcard are kept as written, as in
 * TensorFlow. The caller owns the list (TF_StringStreamDone); NULL on
 * error. */
TF_CAPI_EXPORT extern TF_StringStream* TFE_GetMatchingPaths(
    const char* pattern, TF_Status* status);

/* ---- writing ---- */

/* Like TF_NewWritableFile, but keeps existing contents and appends
 * (creating the file if needed). */
TF_CAPI_EXPORT extern void TFE_NewAppendableFile(const char* filename,
                                                 TF_WritableFileHandle** handle,
                                                 TF_Status* status);

/* Like TF_NewWritableFile, but creates the file only if `filename` does
 * not exist yet: TF_ALREADY_EXISTS (and *handle NULL) if it does, whether
 * a file or a directory. On the built-in filesystems (local paths,
 * file://, ram://) the check and the creation are one atomic step, so of
 * several threads or processes racing to create the same file exactly one
 * succeeds. A plugin's TF_FilesystemOps has no exclusive-create
 * operation, so for plugin schemes this is an existence check followed by
 * new_writable_file: a concurrent creator can slip in between, and both
 * may succeed (the later one truncating the file). */
TF_CAPI_EXPORT extern void TFE_NewExclusiveWritableFile(
    const char* filename, TF_WritableFileHandle** handle, TF_Status* status);

/* Current write position of `handle`: the offset just past the last byte
 * it wrote (counting bytes it still buffers), as a POSIX file descriptor
 * reports it. A file opened for writing starts at 0 and writes at its own
 * offset, even if another handle truncated the file meanwhile (the gap
 * reads as zeros); a file opened for appending starts at the end of the
 * file as it was then, and each write lands at the end of the file as it
 * is when the write reaches the file. -1 with an error status on
 * failure. */
TF_CAPI_EXPORT extern int64_t TFE_TellWritableFile(TF_WritableFileHandle* handle,
                                                   TF_Status* status);

/* ---- reading ---- */

/* A file open for reading at arbitrary offsets. Several threads may read
 * through one handle at the same time. */
typedef struct TFE_RandomAccessFile TFE_RandomAccessFile;

/* Opens `filename` for reading. The caller owns the handle and frees it
 * with TFE_DeleteRandomAccessFile. NULL with TF_NOT_FOUND for a missing
 * file, TF_FAILED_PRECONDITION for a directory (as Python's open() refuses
 * a directory up front, rather than failing at the first read). */
TF_CAPI_EXPORT extern TFE_RandomAccessFile* TFE_NewRandomAccessFile(
    const char* filename, TF_Status* status);

/* Reads up to `n` bytes at `offset` into `buffer` (which holds at least `n`
 * bytes) and returns how many were read. TF_OK when all `n` were read;
 * TF_OUT_OF_RANGE when the end of the file came first, the return value
 * then counting the bytes that were read (possibly 0); -1 with another
 * code on errors. */
TF_CAPI_EXPORT extern int64_t TFE_ReadRandomAccessFile(
    TFE_RandomAccessFile* file, uint64_t offset, size_t n, char* buffer,
    TF_Status* status);

/* Closes the file. NULL is a harmless no-op. */
TF_CAPI_EXPORT extern void TFE_DeleteRandomAccessFile(TFE_RandomAccessFile* file);

/* The whole contents of a file, mapped or loaded read-only (the local
 * filesystem uses mmap). */
typedef struct TFE_ReadOnlyMemoryRegion TFE_ReadOnlyMemoryRegion;

/* Maps `filename`. The caller owns the region (TFE_DeleteReadOnlyMemoryRegion).
 * TF_INVALID_ARGUMENT for an empty file, TF_NOT_FOUND for a missing one,
 * TF_UNIMPLEMENTED if the filesystem cannot map files. */
TF_CAPI_EXPORT extern TFE_ReadOnlyMemoryRegion* TFE_NewReadOnlyMemoryRegionFromFile(
    const char* filename, TF_Status* status);

/* First byte of the region (valid until the region is deleted); NULL for a
 * NULL region. */
TF_CAPI_EXPORT extern const void* TFE_ReadOnlyMemoryRegionData(
    const TFE_ReadOnlyMemoryRegion* region);

/* Length of the region in bytes; 0 for a NULL region. */
TF_CAPI_EXPORT extern uint64_t TFE_ReadOnlyMemoryRegionLength(
    const TFE_ReadOnlyMemoryRegion* region);

/* Unmaps the region. NULL is a harmless no-op. */
TF_CAPI_EXPORT extern void TFE_DeleteReadOnlyMemoryRegion(
    TFE_ReadOnlyMemoryRegion* region);

#ifdef __cplusplus
}
#endif

#endif /* TFE_FILESYSTEM_H_ */
