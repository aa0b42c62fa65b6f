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
  bool append; /* opened with O_APPEND */
  char* buf;
  size_t len;
  /* File offset just past the last byte written to fd (at open: 0, or the
   * end of the file for an appender); tell adds the buffered bytes. */
  int64_t base;
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

/* Writes to the file and tracks where the write ended: for an appender
 * that is wherever the end of the file was (another handle may have
 * truncated or extended it), so ask the kernel. */
static bool put(local_wf* f, const char* data, size_t n, TF_Status* status) {
  if (!write_all(f->fd, data, n, status)) return false;
  if (f->append) {
    off_t at = lseek(f->fd, 0, SEEK_CUR);
    f->base = at < 0 ? f->base + (int64_t)n : (int64_t)at;
  } else {
    f->base += (int64_t)n;
  }
  return true;
}

static bool drain(local_wf* f, TF_Status* status) {
  if (f->len == 0) return true;
  if (!put(f, f->buf, f->len, status)) return false;
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
    if (!put(f, buffer, n, status)) return;
  } else if (n > 0) {
    if (f->buf == NULL) {
      f->buf = (char*)malloc(LOCAL_WRITE_BUFFER);
      if (f->buf == NULL) {
        if (!put(f, buffer, n, status)) return;
        TF_SetStatus(status, TF_OK, "");
        return;
      }
    }
    memcpy(f->buf + f->len, buffer, n);
    f->len += n;
  }
  TF_SetStatus(status, TF_OK, "");
}

static int64_t wf_tell(const TF_WritableFile* file, TF_Status* status) {
  const local_wf* f = (const local_wf*)file->plugin_file;
  TF_SetStatus(status, TF_OK, "");
  return f->base + (int64_t)f->len;
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

typedef enum { LOCAL_WRITE, LOCAL_APPEND, LOCAL_EXCLUSIVE } local_open_mode;

static void open_for_write(const char* path, TF_WritableFile* file,
                           local_open_mode mode, TF_Status* status) {
  local_wf* f;
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC;
  int fd;
  if (mode == LOCAL_APPEND) {
    flags |= O_APPEND;
  } else if (mode == LOCAL_EXCLUSIVE) {
    flags |= O_EXCL; /* the kernel checks and creates atomically */
  } else {
    flags |= O_TRUNC;
  }
  fd = open(path, flags, 0666);
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
  f->append = mode == LOCAL_APPEND;
  if (f->append) {
    off_t end = lseek(fd, 0, SEEK_END);
    f->base = end < 0 ? 0 : (int64_t)end;
  }
  file->plugin_file = f;
  TF_SetStatus(status, TF_OK, "");
}

static void fs_new_wf(const TF_Filesystem* filesystem, const char* path,
                      TF_WritableFile* file, TF_Status* status) {
  (void)filesystem;
  open_for_write(path, file, LOCAL_WRITE, status);
}

static void fs_new_af(const TF_Filesystem* filesystem, const char* path,
                      TF_WritableFile* file, TF_Status* status) {
  (void)filesystem;
  open_for_write(path, file, LOCAL_APPEND, status);
}

void tfe_local_fs_new_exclusive_file(const TF_Filesystem* filesystem,
                                     const char* path, TF_WritableFile* file,
                                     TF_Status* status) {
  (void)filesystem;
  open_for_write(path, file, LOCAL_EXCLUSIVE, status);
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
    /* mmap refuses an empty file with EINVAL: TF reports just that */
    close(fd);
    errno = EINVAL;
    io_error(status, path);
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

/* ------------------------------------------------- recursive delete
 *
 * Iterative and fd-relative, like `rm -rf`: one directory descriptor is
 * open at a time, names are resolved relative to it (so depth is limited
 * neither by the stack nor by PATH_MAX), symbolic links are removed, never
 * followed, and the way back up goes through ".." after checking that it
 * is the directory we came from. */

/* A directory on the way down: its name in its parent (borrowed from the
 * parent's list), its identity, and the subdirectories still to delete. */
typedef struct del_frame {
  const char* name;
  dev_t dev;
  ino_t ino;
  char** subdirs;
  size_t nsub, next, cap;
} del_frame;

typedef struct del_state {
  uint64_t files, dirs;
  TF_Status* status;
  bool failed; /* status holds the first error */
} del_state;

static void del_error(del_state* d, int err, const char* what) {
  if (d->failed) return;
  TF_SetStatusFromIOError(d->status, err, what);
  d->failed = true;
}

static void del_oom(del_state* d) {
  if (d->failed) return;
  TF_SetStatus(d->status, TF_RESOURCE_EXHAUSTED,
               "out of memory in a recursive delete");
  d->failed = true;
}

static void frame_free(del_frame* f) {
  size_t i;
  for (i = 0; i < f->nsub; i++) free(f->subdirs[i]);
  free(f->subdirs);
  f->subdirs = NULL;
  f->nsub = f->next = f->cap = 0;
}

/* Deletes the non-directories in directory `fd` and lists its
 * subdirectories in `f`. */
static void del_scan(int fd, del_frame* f, del_state* d) {
  int dup_fd = dup(fd);
  DIR* dir = dup_fd < 0 ? NULL : fdopendir(dup_fd);
  struct dirent* e;
  if (dir == NULL) {
    del_error(d, errno, "opendir");
    if (dup_fd >= 0) close(dup_fd);
    return;
  }
  while ((e = readdir(dir)) != NULL) {
    bool is_dir;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (e->d_type == DT_UNKNOWN) {
      struct stat st;
      if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      is_dir = S_ISDIR(st.st_mode);
    } else {
      is_dir = e->d_type == DT_DIR;
    }
    if (!is_dir) {
      if (unlinkat(fd, e->d_name, 0) != 0 && errno != ENOENT) {
        d->files++;
        del_error(d, errno, e->d_name);
      }
      continue;
    }
    if (f->nsub == f->cap) {
      size_t cap = f->cap ? f->cap * 2 : 8;
      char** grown = (char**)realloc(f->subdirs, cap * sizeof(char*));
      if (grown == NULL) {
        d->dirs++;
        del_oom(d);
        continue;
      }
      f->subdirs = grown;
      f->cap = cap;
    }
    f->subdirs[f->nsub] = dup_str(e->d_name);
    if (f->subdirs[f->nsub] == NULL) {
      d->dirs++;
      del_oom(d);
      continue;
    }
    f->nsub++;
  }
  closedir(dir);
}

static void fs_delete_recursively(const TF_Filesystem* filesystem,
                                  const char* path, uint64_t* undeleted_files,
                                  uint64_t* undeleted_dirs, TF_Status* status) {
  struct stat st;
  del_state d;
  del_frame* stack = NULL;
  size_t depth = 0, cap = 0;
  int fd;
  (void)filesystem;
  *undeleted_files = 0;
  *undeleted_dirs = 0;
  if (lstat(path, &st) != 0) {
    io_error(status, path);
    *undeleted_dirs = 1;
    return;
  }
  if (!S_ISDIR(st.st_mode)) {
    /* A file, or a symbolic link (removed, not followed). */
    if (unlink(path) != 0) {
      io_error(status, path);
      *undeleted_files = 1;
      return;
    }
    TF_SetStatus(status, TF_OK, "");
    return;
  }
  fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 || fstat(fd, &st) != 0) {
    io_error(status, path);
    if (fd >= 0) close(fd);
    *undeleted_dirs = 1;
    return;
  }
  memset(&d, 0, sizeof d);
  d.status = status;
  cap = 16;
  stack = (del_frame*)calloc(cap, sizeof(*stack));
  if (stack == NULL) {
    close(fd);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    *undeleted_dirs = 1;
    return;
  }
  stack[0].dev = st.st_dev;
  stack[0].ino = st.st_ino;
  depth = 1;
  del_scan(fd, &stack[0], &d);
  while (depth > 0) {
    del_frame* top = &stack[depth - 1];
    if (top->next < top->nsub) {
      const char* name = top->subdirs[top->next++];
      int cfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (cfd < 0 || fstat(cfd, &st) != 0) {
        d.dirs++;
        del_error(&d, errno, name);
        if (cfd >= 0) close(cfd);
        continue;
      }
      if (depth == cap) {
        del_frame* grown = (del_frame*)realloc(stack, cap * 2 * sizeof(*stack));
        if (grown == NULL) {
          close(cfd);
          d.dirs++;
          del_oom(&d);
          continue;
        }
        stack = grown;
        cap *= 2;
      }
      memset(&stack[depth], 0, sizeof(*stack));
      stack[depth].name = name;
      stack[depth].dev = st.st_dev;
      stack[depth].ino = st.st_ino;
      close(fd);
      fd = cfd;
      depth++;
      del_scan(fd, &stack[depth - 1], &d);
      continue;
    }
    /* Everything below `top` is handled: remove it from its parent. */
    if (depth == 1) {
      close(fd);
      fd = -1;
      if (rmdir(path) != 0) {
        d.dirs++;
        del_error(&d, errno, path);
      }
      frame_free(top);
      depth = 0;
      break;
    }
    {
      del_frame* parent = &stack[depth - 2];
      int pfd = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (pfd < 0 || fstat(pfd, &st) != 0 || st.st_dev != parent->dev ||
          st.st_ino != parent->ino) {
        /* The tree was moved while we were inside it: stop here rather
         * than delete somewhere unexpected. */
        if (pfd >= 0) close(pfd);
        d.dirs += depth;
        if (!d.failed) {
          TF_SetStatus(status, TF_ABORTED,
                       "a directory was moved during the recursive delete");
          d.failed = true;
        }
        break;
      }
      close(fd);
      fd = pfd;
      if (unlinkat(fd, top->name, AT_REMOVEDIR) != 0) {
        d.dirs++;
        del_error(&d, errno, top->name);
      }
      frame_free(top);
      depth--;
    }
  }
  while (depth > 0) frame_free(&stack[--depth]);
  free(stack);
  if (fd >= 0) close(fd);
  *undeleted_files = d.files;
  *undeleted_dirs = d.dirs;
  if (!d.failed) TF_SetStatus(status, TF_OK, "");
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
  fs->delete_recursively = fs_delete_recursively;
  fs->rename_file = fs_rename;
  fs->path_exists = fs_path_exists;
  fs->stat = fs_stat;
  fs->get_children = fs_get_children;
  /* recursively_create_dir, copy_file, is_directory,
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
