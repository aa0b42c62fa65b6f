/* Test plugin: a complete filesystem for the scheme "testfs", backed by a
 * local directory.
 *
 * "testfs://host/a/b" maps to <root>/host/a/b, where <root> is
 * $TFE_TESTFS_ROOT (a directory that must exist) or, if unset, a fresh
 * directory made with mkdtemp when the filesystem is initialised.
 *
 * The plugin is written the way a plugin for TensorFlow is: it includes
 * only filesystem_interface.h and tf_status.h (plus the C library), is not
 * linked against any TensorFlow library, and compiles unchanged as C and
 * as C++. It implements most optional operations itself (so that those
 * paths of the core are exercised with a real plugin), leaving
 * delete_recursively and get_matching_paths to the core's defaults.
 *
 * Everything handed to the core is allocated with the plugin's own
 * allocator, which counts live blocks; testfs_live_allocations() (exported
 * for the tests) returns that count, so a test can prove the core released
 * everything with plugin_memory_free. */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorflow/c/experimental/filesystem/filesystem_interface.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif
TF_CAPI_EXPORT long testfs_live_allocations(void);
TF_CAPI_EXPORT const char* testfs_root(void);
#ifdef __cplusplus
}
#endif

static long g_live;
static char g_root[4096];

/* ------------------------------------------------------------ allocator */

static void* tfs_alloc(size_t n) {
  void* p = malloc(n ? n : 1);
  if (p != NULL) __atomic_add_fetch(&g_live, 1, __ATOMIC_RELAXED);
  return p;
}

static void tfs_free(void* p) {
  if (p == NULL) return;
  __atomic_sub_fetch(&g_live, 1, __ATOMIC_RELAXED);
  free(p);
}

long testfs_live_allocations(void) {
  return __atomic_load_n(&g_live, __ATOMIC_RELAXED);
}

const char* testfs_root(void) { return g_root; }

static char* tfs_strdup(const char* s) {
  size_t n = strlen(s) + 1;
  char* d = (char*)tfs_alloc(n);
  if (d != NULL) memcpy(d, s, n);
  return d;
}

static void set_errno_status(TF_Status* status, const char* what) {
  TF_SetStatusFromIOError(status, errno, what);
}

static void ok(TF_Status* status) { TF_SetStatus(status, TF_OK, ""); }

/* ------------------------------------------------------------ reading */

typedef struct tfs_file {
  int fd;
} tfs_file;

static void raf_cleanup(TF_RandomAccessFile* file) {
  tfs_file* f = (tfs_file*)file->plugin_file;
  if (f != NULL) {
    close(f->fd);
    free(f);
  }
  file->plugin_file = NULL;
}

static int64_t raf_read(const TF_RandomAccessFile* file, uint64_t offset,
                        size_t n, char* buffer, TF_Status* status) {
  const tfs_file* f = (const tfs_file*)file->plugin_file;
  size_t done = 0;
  while (done < n) {
    ssize_t r = pread(f->fd, buffer + done, n - done, (off_t)(offset + done));
    if (r < 0) {
      if (errno == EINTR) continue;
      set_errno_status(status, "testfs read");
      return -1;
    }
    if (r == 0) break;
    done += (size_t)r;
  }
  if (done < n) {
    TF_SetStatus(status, TF_OUT_OF_RANGE, "testfs: end of file");
  } else {
    ok(status);
  }
  return (int64_t)done;
}

/* ------------------------------------------------------------ writing */

typedef struct tfs_wfile {
  int fd;
  int closed;
} tfs_wfile;

static void wf_cleanup(TF_WritableFile* file) {
  tfs_wfile* f = (tfs_wfile*)file->plugin_file;
  if (f != NULL) {
    if (!f->closed) close(f->fd);
    free(f);
  }
  file->plugin_file = NULL;
}

static void wf_append(const TF_WritableFile* file, const char* buffer,
                      size_t n, TF_Status* status) {
  const tfs_wfile* f = (const tfs_wfile*)file->plugin_file;
  while (n > 0) {
    ssize_t w = write(f->fd, buffer, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      set_errno_status(status, "testfs append");
      return;
    }
    buffer += w;
    n -= (size_t)w;
  }
  ok(status);
}

static int64_t wf_tell(const TF_WritableFile* file, TF_Status* status) {
  const tfs_wfile* f = (const tfs_wfile*)file->plugin_file;
  off_t pos = lseek(f->fd, 0, SEEK_CUR);
  if (pos < 0) {
    set_errno_status(status, "testfs tell");
    return -1;
  }
  ok(status);
  return (int64_t)pos;
}

static void wf_flush(const TF_WritableFile* file, TF_Status* status) {
  (void)file; /* writes go straight to the kernel */
  ok(status);
}

static void wf_sync(const TF_WritableFile* file, TF_Status* status) {
  const tfs_wfile* f = (const tfs_wfile*)file->plugin_file;
  if (fsync(f->fd) != 0) {
    set_errno_status(status, "testfs sync");
    return;
  }
  ok(status);
}

static void wf_close(const TF_WritableFile* file, TF_Status* status) {
  tfs_wfile* f = (tfs_wfile*)file->plugin_file;
  f->closed = 1;
  if (close(f->fd) != 0) {
    set_errno_status(status, "testfs close");
    return;
  }
  ok(status);
}

/* ---------------------------------------------------------- mmap region */

typedef struct tfs_region {
  void* addr;
  uint64_t len;
} tfs_region;

static void romr_cleanup(TF_ReadOnlyMemoryRegion* region) {
  tfs_region* r = (tfs_region*)region->plugin_memory_region;
  if (r != NULL) {
    munmap(r->addr, (size_t)r->len);
    free(r);
  }
  region->plugin_memory_region = NULL;
}

static const void* romr_data(const TF_ReadOnlyMemoryRegion* region) {
  return ((const tfs_region*)region->plugin_memory_region)->addr;
}

static uint64_t romr_length(const TF_ReadOnlyMemoryRegion* region) {
  return ((const tfs_region*)region->plugin_memory_region)->len;
}

/* ----------------------------------------------------------- filesystem */

static void fs_init(TF_Filesystem* filesystem, TF_Status* status) {
  const char* env = getenv("TFE_TESTFS_ROOT");
  struct stat st;
  if (env != NULL && env[0] != '\0') {
    if (stat(env, &st) != 0 || !S_ISDIR(st.st_mode)) {
      TF_SetStatus(status, TF_FAILED_PRECONDITION,
                   "testfs: $TFE_TESTFS_ROOT is not a directory");
      return;
    }
    snprintf(g_root, sizeof g_root, "%s", env);
  } else {
    snprintf(g_root, sizeof g_root, "/tmp/tfe-testfs-XXXXXX");
    if (mkdtemp(g_root) == NULL) {
      set_errno_status(status, "testfs mkdtemp");
      return;
    }
  }
  filesystem->plugin_filesystem = g_root;
  ok(status);
}

static void fs_cleanup(TF_Filesystem* filesystem) {
  filesystem->plugin_filesystem = NULL;
}

/* "testfs://host/a/../b" -> "<root>/host/b". */
static char* fs_translate(const TF_Filesystem* filesystem, const char* uri) {
  const char* rest = uri;
  const char* sep = strstr(uri, "://");
  char* out;
  size_t cap, o, i, n;
  (void)filesystem;
  if (sep != NULL) rest = sep + 3;
  n = strlen(rest);
  cap = strlen(g_root) + n + 3;
  out = (char*)tfs_alloc(cap);
  if (out == NULL) return NULL;
  o = (size_t)snprintf(out, cap, "%s", g_root);
  /* Append each component of rest, resolving "." and "..", never above
   * the root. */
  i = 0;
  while (i < n) {
    size_t start, len;
    while (i < n && rest[i] == '/') i++;
    start = i;
    while (i < n && rest[i] != '/') i++;
    len = i - start;
    if (len == 0 || (len == 1 && rest[start] == '.')) continue;
    if (len == 2 && rest[start] == '.' && rest[start + 1] == '.') {
      size_t floor = strlen(g_root);
      while (o > floor && out[o - 1] != '/') o--;
      if (o > floor) o--;
      continue;
    }
    out[o++] = '/';
    memcpy(out + o, rest + start, len);
    o += len;
  }
  out[o] = '\0';
  return out;
}

static int open_regular(const char* path, TF_Status* status) {
  struct stat st;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    set_errno_status(status, path);
    return -1;
  }
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    close(fd);
    TF_SetStatus(status, TF_FAILED_PRECONDITION, "testfs: is a directory");
    return -1;
  }
  return fd;
}

static void fs_new_raf(const TF_Filesystem* filesystem, const char* path,
                       TF_RandomAccessFile* file, TF_Status* status) {
  tfs_file* f;
  int fd;
  (void)filesystem;
  fd = open_regular(path, status);
  if (fd < 0) return;
  f = (tfs_file*)malloc(sizeof(*f));
  if (f == NULL) {
    close(fd);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "testfs: out of memory");
    return;
  }
  f->fd = fd;
  file->plugin_file = f;
  ok(status);
}

static void open_writable(const char* path, int extra, TF_WritableFile* file,
                          TF_Status* status) {
  tfs_wfile* f;
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | extra, 0644);
  if (fd < 0) {
    set_errno_status(status, path);
    return;
  }
  f = (tfs_wfile*)calloc(1, sizeof(*f));
  if (f == NULL) {
    close(fd);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "testfs: out of memory");
    return;
  }
  f->fd = fd;
  if (extra & O_APPEND) lseek(fd, 0, SEEK_END);
  file->plugin_file = f;
  ok(status);
}

static void fs_new_wf(const TF_Filesystem* filesystem, const char* path,
                      TF_WritableFile* file, TF_Status* status) {
  (void)filesystem;
  open_writable(path, O_TRUNC, file, status);
}

static void fs_new_af(const TF_Filesystem* filesystem, const char* path,
                      TF_WritableFile* file, TF_Status* status) {
  (void)filesystem;
  open_writable(path, O_APPEND, file, status);
}

static void fs_new_romr(const TF_Filesystem* filesystem, const char* path,
                        TF_ReadOnlyMemoryRegion* region, TF_Status* status) {
  struct stat st;
  tfs_region* r;
  void* addr;
  int fd;
  (void)filesystem;
  fd = open_regular(path, status);
  if (fd < 0) return;
  fstat(fd, &st);
  if (st.st_size == 0) {
    close(fd);
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "testfs: file is empty");
    return;
  }
  addr = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (addr == MAP_FAILED) {
    set_errno_status(status, path);
    return;
  }
  r = (tfs_region*)malloc(sizeof(*r));
  if (r == NULL) {
    munmap(addr, (size_t)st.st_size);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "testfs: out of memory");
    return;
  }
  r->addr = addr;
  r->len = (uint64_t)st.st_size;
  region->plugin_memory_region = r;
  ok(status);
}

static void fs_create_dir(const TF_Filesystem* filesystem, const char* path,
                          TF_Status* status) {
  (void)filesystem;
  if (mkdir(path, 0755) != 0) {
    set_errno_status(status, path);
    return;
  }
  ok(status);
}

static void fs_recursively_create_dir(const TF_Filesystem* filesystem,
                                      const char* path, TF_Status* status) {
  char buf[4096];
  size_t i, n = strlen(path);
  struct stat st;
  (void)filesystem;
  if (n >= sizeof buf) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "testfs: path too long");
    return;
  }
  memcpy(buf, path, n + 1);
  for (i = 1; i <= n; i++) {
    if (buf[i] != '/' && buf[i] != '\0') continue;
    buf[i] = '\0';
    if (stat(buf, &st) == 0) {
      if (!S_ISDIR(st.st_mode)) {
        TF_SetStatus(status, TF_FAILED_PRECONDITION,
                     "testfs: a path component is not a directory");
        return;
      }
    } else if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
      set_errno_status(status, buf);
      return;
    }
    if (i < n) buf[i] = '/';
  }
  ok(status);
}

static void fs_delete_file(const TF_Filesystem* filesystem, const char* path,
                           TF_Status* status) {
  (void)filesystem;
  if (unlink(path) != 0) {
    set_errno_status(status, path);
    return;
  }
  ok(status);
}

static void fs_delete_dir(const TF_Filesystem* filesystem, const char* path,
                          TF_Status* status) {
  (void)filesystem;
  if (rmdir(path) != 0) {
    set_errno_status(status, path);
    return;
  }
  ok(status);
}

static void fs_rename(const TF_Filesystem* filesystem, const char* src,
                      const char* dst, TF_Status* status) {
  (void)filesystem;
  if (rename(src, dst) != 0) {
    set_errno_status(status, src);
    return;
  }
  ok(status);
}

static void fs_copy(const TF_Filesystem* filesystem, const char* src,
                    const char* dst, TF_Status* status) {
  char buf[65536];
  int in, out;
  ssize_t r;
  (void)filesystem;
  in = open_regular(src, status);
  if (in < 0) return;
  out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) {
    set_errno_status(status, dst);
    close(in);
    return;
  }
  while ((r = read(in, buf, sizeof buf)) > 0) {
    if (write(out, buf, (size_t)r) != r) {
      set_errno_status(status, dst);
      close(in);
      close(out);
      return;
    }
  }
  close(in);
  if (close(out) != 0 || r < 0) {
    set_errno_status(status, dst);
    return;
  }
  ok(status);
}

static void fs_path_exists(const TF_Filesystem* filesystem, const char* path,
                           TF_Status* status) {
  (void)filesystem;
  if (access(path, F_OK) != 0) {
    set_errno_status(status, path);
    return;
  }
  ok(status);
}

static bool fs_paths_exist(const TF_Filesystem* filesystem, char** paths,
                           int num_files, TF_Status** statuses) {
  bool all = true;
  int i;
  (void)filesystem;
  for (i = 0; i < num_files; i++) {
    bool here = access(paths[i], F_OK) == 0;
    all = all && here;
    if (statuses != NULL) {
      if (here) {
        ok(statuses[i]);
      } else {
        set_errno_status(statuses[i], paths[i]);
      }
    }
  }
  return all;
}

static void fs_stat(const TF_Filesystem* filesystem, const char* path,
                    TF_FileStatistics* stats, TF_Status* status) {
  struct stat st;
  (void)filesystem;
  if (stat(path, &st) != 0) {
    set_errno_status(status, path);
    return;
  }
  stats->length = S_ISDIR(st.st_mode) ? 0 : (int64_t)st.st_size;
  stats->mtime_nsec =
      (int64_t)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
  stats->is_directory = S_ISDIR(st.st_mode);
  ok(status);
}

static bool fs_is_directory(const TF_Filesystem* filesystem, const char* path,
                            TF_Status* status) {
  struct stat st;
  (void)filesystem;
  if (stat(path, &st) != 0) {
    set_errno_status(status, path);
    return false;
  }
  ok(status);
  return S_ISDIR(st.st_mode);
}

static int64_t fs_get_file_size(const TF_Filesystem* filesystem,
                                const char* path, TF_Status* status) {
  struct stat st;
  (void)filesystem;
  if (stat(path, &st) != 0) {
    set_errno_status(status, path);
    return -1;
  }
  if (S_ISDIR(st.st_mode)) {
    TF_SetStatus(status, TF_FAILED_PRECONDITION, "testfs: is a directory");
    return -1;
  }
  ok(status);
  return (int64_t)st.st_size;
}

static int fs_get_children(const TF_Filesystem* filesystem, const char* path,
                           char*** entries, TF_Status* status) {
  DIR* d;
  struct dirent* e;
  char** out = NULL;
  int n = 0, cap = 0;
  (void)filesystem;
  d = opendir(path);
  if (d == NULL) {
    set_errno_status(status, path);
    return -1;
  }
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (n == cap) {
      /* Grow through the plugin allocator: the core frees the array. */
      int ncap = cap ? cap * 2 : 8;
      char** grown = (char**)tfs_alloc((size_t)ncap * sizeof(char*));
      if (grown == NULL) break;
      if (out != NULL) memcpy(grown, out, (size_t)n * sizeof(char*));
      tfs_free(out);
      out = grown;
      cap = ncap;
    }
    out[n] = tfs_strdup(e->d_name);
    if (out[n] == NULL) break;
    n++;
  }
  closedir(d);
  *entries = out;
  ok(status);
  return n;
}

static void fs_flush_caches(const TF_Filesystem* filesystem) {
  (void)filesystem;
}

/* ------------------------------------------------------------- the plugin */

void TF_InitPlugin(TF_FilesystemPluginInfo* info) {
  TF_FilesystemPluginOps* e;
  TF_FilesystemOps* fs;
  TF_RandomAccessFileOps* raf;
  TF_WritableFileOps* wf;
  TF_ReadOnlyMemoryRegionOps* romr;

  info->plugin_memory_allocate = tfs_alloc;
  info->plugin_memory_free = tfs_free;
  info->num_schemes = 1;
  e = (TF_FilesystemPluginOps*)tfs_alloc(sizeof(*e));
  memset(e, 0, sizeof(*e));
  info->ops = e;
  e->scheme = tfs_strdup("testfs");
  TF_SetFilesystemVersionMetadata(e);

  raf = (TF_RandomAccessFileOps*)tfs_alloc(sizeof(*raf));
  memset(raf, 0, sizeof(*raf));
  raf->cleanup = raf_cleanup;
  raf->read = raf_read;
  e->random_access_file_ops = raf;

  wf = (TF_WritableFileOps*)tfs_alloc(sizeof(*wf));
  memset(wf, 0, sizeof(*wf));
  wf->cleanup = wf_cleanup;
  wf->append = wf_append;
  wf->tell = wf_tell;
  wf->flush = wf_flush;
  wf->sync = wf_sync;
  wf->close = wf_close;
  e->writable_file_ops = wf;

  romr = (TF_ReadOnlyMemoryRegionOps*)tfs_alloc(sizeof(*romr));
  memset(romr, 0, sizeof(*romr));
  romr->cleanup = romr_cleanup;
  romr->data = romr_data;
  romr->length = romr_length;
  e->read_only_memory_region_ops = romr;

  fs = (TF_FilesystemOps*)tfs_alloc(sizeof(*fs));
  memset(fs, 0, sizeof(*fs));
  fs->init = fs_init;
  fs->cleanup = fs_cleanup;
  fs->new_random_access_file = fs_new_raf;
  fs->new_writable_file = fs_new_wf;
  fs->new_appendable_file = fs_new_af;
  fs->new_read_only_memory_region_from_file = fs_new_romr;
  fs->create_dir = fs_create_dir;
  fs->recursively_create_dir = fs_recursively_create_dir;
  fs->delete_file = fs_delete_file;
  fs->delete_dir = fs_delete_dir;
  fs->rename_file = fs_rename;
  fs->copy_file = fs_copy;
  fs->path_exists = fs_path_exists;
  fs->paths_exist = fs_paths_exist;
  fs->stat = fs_stat;
  fs->is_directory = fs_is_directory;
  fs->get_file_size = fs_get_file_size;
  fs->translate_name = fs_translate;
  fs->get_children = fs_get_children;
  fs->flush_caches = fs_flush_caches;
  e->filesystem_ops = fs;
}
