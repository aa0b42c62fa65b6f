/* The local filesystem, written as a filesystem plugin: it fills the same
 * TF_FilesystemPluginInfo a shared-library plugin would and is registered
 * through the same checks, for the schemes "" (plain paths) and "file".
 * Paths reach it already translated (the path part of the URI, cleaned). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"

/* Appends smaller than this are gathered in memory first. */
#define LOCAL_WRITE_BUFFER (64u * 1024u)

static void io_error(TF_Status* status, const char* path) {
  TF_SetStatusFromIOError(status, errno, path);
}

static char* dup_str(const char* s) {
  size_t n = strlen(s) + 1;
  char* d = (char*)malloc(n);
  if (d != NULL) memcpy(d, s, n);
  return d;
}

/* ------------------------------------------------------ random access */

typedef struct local_raf {
  int fd;
} local_raf;

static void raf_cleanup(TF_RandomAccessFile* file) {
  local_raf* f = (local_raf*)file->plugin_file;
  if (f == NULL) return;
  close(f->fd);
  free(f);
  file->plugin_file = NULL;
}

static int64_t raf_read(const TF_RandomAccessFile* file, uint64_t offset,
                        size_t n, char* buffer, TF_Status* status) {
  const local_raf* f = (const local_raf*)file->plugin_file;
  size_t done = 0;
  while (done < n) {
    /* pread takes at most SSIZE_MAX; chunk very large requests. */
    size_t want = n - done;
    ssize_t r;
    if (want > ((size_t)1 << 30)) want = (size_t)1 << 30;
    r = pread(f->fd, buffer + done, want, (off_t)(offset + done));
    if (r < 0) {
      if (errno == EINTR) continue;
      TF_SetStatusFromIOError(status, errno, "read");
      return -1;
    }
    if (r == 0) break;
    done += (size_t)r;
  }
  if (done < n) {
    TF_SetStatus(status, TF_OUT_OF_RANGE, "Read less bytes than requested");
  } else {
    TF_SetStatus(status, TF_OK, "");
  }
  return (int64_t)done;
}

/* ------------------------------------------------------------ writable */

typedef struct local_wf {
  int fd;
  char* buf;
  size_t len;
  int64_t pos; /* bytes written to fd plus bytes buffered */
} local_wf;

static bool write_all(int fd, const char* data, size_t n, TF_Status* status) {
  while (n > 0) {
    ssize_t w = write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      TF_SetStatusFromIOError(status, errno, "write");
      return false;
    }
    data += w;
    n -= (size_t)w;
  }
  return true;
}

static bool drain(local_wf* f, TF_Status* status) {
  if (f->len == 0) return true;
  if (!write_all(f->fd, f->buf, f->len, status)) return false;
  f->len = 0;
  return true;
}

static void wf_cleanup(TF_WritableFile* file) {
  local_wf* f = (local_wf*)file->plugin_file;
  if (f == NULL) return;
  /* Not closed by the user: the buffered bytes are still written out. */
  if (f->fd >= 0) {
    TF_Status* s = TF_NewStatus();
    if (s != NULL) {
      (void)drain(f, s);
      TF_DeleteStatus(s);
    }
    close(f->fd);
  }
  free(f->buf);
  free(f);
  file->plugin_file = NULL;
}

static void wf_append(const TF_WritableFile* file, const char* buffer,
                      size_t n, TF_Status* status) {
  local_wf* f = (local_wf*)file->plugin_file;
  if (f->fd < 0) {
    TF_SetStatus(status, TF_FAILED_PRECONDITION, "file is closed");
    return;
  }
  if (f->len + n > LOCAL_WRITE_BUFFER) {
    if (!drain(f, status)) return;
  }
  if (n >= LOCAL_WRITE_BUFFER) {
    /* Large appends go straight to the file. */
    if (!write_all(f->fd, buffer, n, status)) return;
  } else if (n > 0) {
    if (f->buf == NULL) {
      f->buf = (char*)malloc(LOCAL_WRITE_BUFFER);
      if (f->buf == NULL) {
        if (!write_all(f->fd, buffer, n, status)) return;
        f->pos += (int64_t)n;
        TF_SetStatus(status, TF_OK, "");
        return;
      }
    }
    memcpy(f->buf + f->len, buffer, n);
    f->len += n;
  }
  f->pos += (int64_t)n;
  TF_SetStatus(status, TF_OK, "");
}

static int64_t wf_tell(const TF_WritableFile* file, TF_Status* status) {
  const local_wf* f = (const local_wf*)file->plugin_file;
  TF_SetStatus(status, TF_OK, "");
  return f->pos;
}

static void wf_flush(const TF_WritableFile* file, TF_Status* status) {
  local_wf* f = (local_wf*)file->plugin_file;
  if (f->fd < 0) {
    TF_SetStatus(status, TF_FAILED_PRECONDITION, "file is closed");
    return;
  }
  if (drain(f, status)) TF_SetStatus(status, TF_OK, "");
}

static void wf_sync(const TF_WritableFile* file, TF_Status* status) {
  local_wf* f = (local_wf*)file->plugin_file;
  if (f->fd < 0) {
    TF_SetStatus(status, TF_FAILED_PRECONDITION, "file is closed");
    return;
  }
  if (!drain(f, status)) return;
  if (fdatasync(f->fd) != 0 && errno != EINVAL && errno != EROFS) {
    TF_SetStatusFromIOError(status, errno, "sync");
    return;
  }
  TF_SetStatus(status, TF_OK, "");
}

static void wf_close(const TF_WritableFile* file, TF_Status* status) {
  local_wf* f = (local_wf*)file->plugin_file;
  bool ok;
  if (f->fd < 0) {
    TF_SetStatus(status, TF_OK, "");
    return;
  }
  ok = drain(f, status);
  if (close(f->fd) != 0 && ok) {
    TF_SetStatusFromIOError(status, errno, "close");
    ok = false;
  }
  f->fd = -1;
  if (ok) TF_SetStatus(status, TF_OK, "");
}

/* ------------------------------------------------------- memory region */

typedef struct local_region {
  void* addr;
  uint64_t length;
} local_region;

static void romr_cleanup(TF_ReadOnlyMemoryRegion* region) {
  local_region* r = (local_region*)region->plugin_memory_region;
  if (r == NULL) return;
  munmap(r->addr, (size_t)r->length);
  free(r);
  region->plugin_memory_region = NULL;
}

static const void* romr_data(const TF_ReadOnlyMemoryRegion* region) {
  return ((const local_region*)region->plugin_memory_region)->addr;
}

static uint64_t romr_length(const TF_ReadOnlyMemoryRegion* region) {
  return ((const local_region*)region->plugin_memory_region)->length;
}

/* ---------------------------------------------------------- filesystem */

static void fs_init(TF_Filesystem* filesystem, TF_Status* status) {
  filesystem->plugin_filesystem = NULL;
  TF_SetStatus(status, TF_OK, "");
}

static void fs_cleanup(TF_Filesystem* filesystem) { (void)filesystem; }

/* Opens `path` read-only and refuses directories. */
static int open_regular(const char* path, TF_Status* status) {
  struct stat st;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    io_error(status, path);
    return -1;
  }
  if (fstat(fd, &st) != 0) {
    io_error(status, path);
    close(fd);
    return -1;
  }
  if (S_ISDIR(st.st_mode)) {
    TF_SetStatus(status, TF_FAILED_PRECONDITION, "Is a directory");
    close(fd);
    return -1;
  }
  return fd;
}

static void fs_new_raf(const TF_Filesystem* filesystem, const char* path,
                       TF_RandomAccessFile* file, TF_Status* status) {
  local_raf* f;
  int fd;
  (void)filesystem;
  fd = open_regular(path, status);
  if (fd < 0) return;
  f = (local_raf*)malloc(sizeof(*f));
  if (f == NULL) {
    close(fd);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  f->fd = fd;
  file->plugin_file = f;
  TF_SetStatus(status, TF_OK, "");
}

static void open_for_write(const char* path, TF_WritableFile* file,
                           bool append, TF_Status* status) {
  local_wf* f;
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  int fd = open(path, flags, 0666);
  if (fd < 0) {
    io_error(status, path);
    return;
  }
  f = (local_wf*)calloc(1, sizeof(*f));
  if (f == NULL) {
    close(fd);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  f->fd = fd;
  if (append) {
    off_t end = lseek(fd, 0, SEEK_END);
    f->pos = end < 0 ? 0 : (int64_t)end;
  }
  file->plugin_file = f;
  TF_SetStatus(status, TF_OK, "");
}

static void fs_new_wf(const TF_Filesystem* filesystem, const char* path,
                      TF_WritableFile* file, TF_Status* status) {
  (void)filesystem;
  open_for_write(path, file, false, status);
}

static void fs_new_af(const TF_Filesystem* filesystem, const char* path,
                      TF_WritableFile* file, TF_Status* status) {
  (void)filesystem;
  open_for_write(path, file, true, status);
}

static void fs_new_romr(const TF_Filesystem* filesystem, const char* path,
                        TF_ReadOnlyMemoryRegion* region, TF_Status* status) {
  struct stat st;
  local_region* r;
  void* addr;
  int fd;
  (void)filesystem;
  fd = open_regular(path, status);
  if (fd < 0) return;
  if (fstat(fd, &st) != 0) {
    io_error(status, path);
    close(fd);
    return;
  }
  if (st.st_size == 0) {
    close(fd);
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "File is empty");
    return;
  }
  addr = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (addr == MAP_FAILED) {
    io_error(status, path);
    return;
  }
  r = (local_region*)malloc(sizeof(*r));
  if (r == NULL) {
    munmap(addr, (size_t)st.st_size);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  r->addr = addr;
  r->length = (uint64_t)st.st_size;
  region->plugin_memory_region = r;
  TF_SetStatus(status, TF_OK, "");
}

static void fs_create_dir(const TF_Filesystem* filesystem, const char* path,
                          TF_Status* status) {
  (void)filesystem;
  if (mkdir(path, 0777) != 0) {
    io_error(status, path);
    return;
  }
  TF_SetStatus(status, TF_OK, "");
}

static void fs_delete_file(const TF_Filesystem* filesystem, const char* path,
                           TF_Status* status) {
  (void)filesystem;
  if (unlink(path) != 0) {
    io_error(status, path);
    return;
  }
  TF_SetStatus(status, TF_OK, "");
}

static void fs_delete_dir(const TF_Filesystem* filesystem, const char* path,
                          TF_Status* status) {
  (void)filesystem;
  if (rmdir(path) != 0) {
    io_error(status, path);
    return;
  }
  TF_SetStatus(status, TF_OK, "");
}

static void fs_rename(const TF_Filesystem* filesystem, const char* src,
                      const char* dst, TF_Status* status) {
  (void)filesystem;
  if (rename(src, dst) != 0) {
    io_error(status, src);
    return;
  }
  TF_SetStatus(status, TF_OK, "");
}

static void fs_stat(const TF_Filesystem* filesystem, const char* path,
                    TF_FileStatistics* stats, TF_Status* status) {
  struct stat st;
  (void)filesystem;
  if (stat(path, &st) != 0) {
    io_error(status, path);
    return;
  }
  stats->length = (int64_t)st.st_size;
  stats->mtime_nsec =
      (int64_t)st.st_mtim.tv_sec * 1000000000LL + (int64_t)st.st_mtim.tv_nsec;
  stats->is_directory = S_ISDIR(st.st_mode);
  TF_SetStatus(status, TF_OK, "");
}

static void fs_path_exists(const TF_Filesystem* filesystem, const char* path,
                           TF_Status* status) {
  (void)filesystem;
  if (access(path, F_OK) != 0) {
    io_error(status, path);
    return;
  }
  TF_SetStatus(status, TF_OK, "");
}

static int fs_get_children(const TF_Filesystem* filesystem, const char* path,
                           char*** entries, TF_Status* status) {
  DIR* d;
  struct dirent* e;
  char** out = NULL;
  int n = 0, cap = 0;
  (void)filesystem;
  *entries = NULL;
  d = opendir(path);
  if (d == NULL) {
    io_error(status, path);
    return -1;
  }
  errno = 0;
  while ((e = readdir(d)) != NULL) {
    char* name;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (n == cap) {
      int ncap = cap ? cap * 2 : 16;
      char** grown = (char**)realloc(out, (size_t)ncap * sizeof(char*));
      if (grown == NULL) goto oom;
      out = grown;
      cap = ncap;
    }
    name = dup_str(e->d_name);
    if (name == NULL) goto oom;
    out[n++] = name;
  }
  closedir(d);
  *entries = out;
  TF_SetStatus(status, TF_OK, "");
  return n;
oom:
  closedir(d);
  while (n > 0) free(out[--n]);
  free(out);
  TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
  return -1;
}

/* ---------------------------------------------------------- the plugin */

/* Fills one scheme entry; every table is allocated with malloc, the
 * allocator this built-in plugin declares. */
static bool fill_entry(TF_FilesystemPluginOps* e, const char* scheme) {
  TF_FilesystemOps* fs = (TF_FilesystemOps*)calloc(1, sizeof(*fs));
  TF_RandomAccessFileOps* raf = (TF_RandomAccessFileOps*)calloc(1, sizeof(*raf));
  TF_WritableFileOps* wf = (TF_WritableFileOps*)calloc(1, sizeof(*wf));
  TF_ReadOnlyMemoryRegionOps* romr =
      (TF_ReadOnlyMemoryRegionOps*)calloc(1, sizeof(*romr));
  e->scheme = dup_str(scheme);
  TF_SetFilesystemVersionMetadata(e);
  e->filesystem_ops = fs;
  e->random_access_file_ops = raf;
  e->writable_file_ops = wf;
  e->read_only_memory_region_ops = romr;
  if (!fs || !raf || !wf || !romr || !e->scheme) return false;

  raf->cleanup = raf_cleanup;
  raf->read = raf_read;

  wf->cleanup = wf_cleanup;
  wf->append = wf_append;
  wf->tell = wf_tell;
  wf->flush = wf_flush;
  wf->sync = wf_sync;
  wf->close = wf_close;

  romr->cleanup = romr_cleanup;
  romr->data = romr_data;
  romr->length = romr_length;

  fs->init = fs_init;
  fs->cleanup = fs_cleanup;
  fs->new_random_access_file = fs_new_raf;
  fs->new_writable_file = fs_new_wf;
  fs->new_appendable_file = fs_new_af;
  fs->new_read_only_memory_region_from_file = fs_new_romr;
  fs->create_dir = fs_create_dir;
  fs->delete_file = fs_delete_file;
  fs->delete_dir = fs_delete_dir;
  fs->rename_file = fs_rename;
  fs->path_exists = fs_path_exists;
  fs->stat = fs_stat;
  fs->get_children = fs_get_children;
  /* recursively_create_dir, delete_recursively, copy_file, is_directory,
   * get_file_size, translate_name and get_matching_paths use the core's
   * defaults. */
  return true;
}

void tfe_local_fs_init_plugin(TF_FilesystemPluginInfo* info) {
  info->plugin_memory_allocate = malloc;
  info->plugin_memory_free = free;
  info->num_schemes = 2;
  info->ops = (TF_FilesystemPluginOps*)calloc(2, sizeof(TF_FilesystemPluginOps));
  if (info->ops == NULL) {
    info->num_schemes = 0;
    return;
  }
  /* On allocation failure the entry is incomplete and the loader's checks
   * reject it; the loader frees whatever was allocated. */
  (void)fill_entry(&info->ops[0], "");
  (void)fill_entry(&info->ops[1], "file");
}
