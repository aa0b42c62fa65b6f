/* ram://, an in-memory filesystem, written as a filesystem plugin and
 * registered through the same checks as a shared-library plugin.
 *
 * Semantics:
 *   - "ram://host/a/b" and "ram:///host/a/b" name the same file: the host
 *     is simply the first directory under the root;
 *   - directories are real entries, but creating a file or a directory
 *     creates its missing parent directories (as object stores and
 *     TensorFlow's ram filesystem do), so GFile("ram://x/y.bin", "wb")
 *     works without a makedirs first;
 *   - a file that is deleted or truncated while open behaves as on POSIX:
 *     open readers keep the data they can still reach, writers keep
 *     writing to the (now unnamed) file;
 *   - contents live until the file is deleted or the process ends.
 *
 * One mutex per filesystem guards everything. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "core/alloc.h"
#include "fs/fs.h"
#include "fs/uri.h"

typedef struct ram_node {
  int refs; /* one for the directory entry, one per open file */
  bool is_dir;
  char* data;
  size_t size, cap;
  int64_t mtime_nsec;
} ram_node;

typedef struct ram_entry {
  char* path; /* absolute, cleaned: "/", "/a", "/a/b" */
  ram_node* node;
} ram_entry;

typedef struct ram_fs {
  pthread_mutex_t lock;
  ram_entry* entries; /* sorted by strcmp(path) */
  size_t count, cap;
} ram_fs;

typedef struct ram_file {
  ram_fs* fs;
  ram_node* node;
  bool closed;
} ram_file;

static int64_t now_nsec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static char* dup_str(const char* s) {
  size_t n = strlen(s) + 1;
  char* d = (char*)malloc(n);
  if (d != NULL) memcpy(d, s, n);
  return d;
}

static ram_fs* FS(const TF_Filesystem* filesystem) {
  return (ram_fs*)filesystem->plugin_filesystem;
}

static void unref(ram_node* n) {
  if (--n->refs == 0) {
    free(n->data);
    free(n);
  }
}

/* ------------------------------------------------ the sorted entry table */

/* Index of the first entry whose path is >= key. */
static size_t lower_bound(const ram_fs* fs, const char* key) {
  size_t lo = 0, hi = fs->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(fs->entries[mid].path, key) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

static ram_entry* find(ram_fs* fs, const char* path) {
  size_t i = lower_bound(fs, path);
  if (i < fs->count && strcmp(fs->entries[i].path, path) == 0) {
    return &fs->entries[i];
  }
  return NULL;
}

/* Inserts a new entry that takes ownership of `path` and one reference to
 * `node`. Returns false (owning nothing) when memory runs out. */
static bool insert(ram_fs* fs, char* path, ram_node* node) {
  size_t i;
  if (fs->count == fs->cap) {
    size_t cap = fs->cap ? fs->cap * 2 : 16;
    ram_entry* grown = (ram_entry*)realloc(fs->entries, cap * sizeof(*grown));
    if (grown == NULL) return false;
    fs->entries = grown;
    fs->cap = cap;
  }
  i = lower_bound(fs, path);
  memmove(&fs->entries[i + 1], &fs->entries[i],
          (fs->count - i) * sizeof(ram_entry));
  fs->entries[i].path = path;
  fs->entries[i].node = node;
  fs->count++;
  return true;
}

static void remove_at(ram_fs* fs, size_t i) {
  free(fs->entries[i].path);
  unref(fs->entries[i].node);
  memmove(&fs->entries[i], &fs->entries[i + 1],
          (fs->count - i - 1) * sizeof(ram_entry));
  fs->count--;
}

static ram_node* new_node(bool is_dir) {
  ram_node* n = (ram_node*)calloc(1, sizeof(*n));
  if (n == NULL) return NULL;
  n->refs = 1;
  n->is_dir = is_dir;
  n->mtime_nsec = now_nsec();
  return n;
}

/* Adds an entry for path with a new node. */
static ram_node* create(ram_fs* fs, const char* path, bool is_dir,
                        TF_Status* status) {
  char* p = dup_str(path);
  ram_node* n = new_node(is_dir);
  if (p == NULL || n == NULL || !insert(fs, p, n)) {
    free(p);
    free(n);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  return n;
}

/* Creates the missing ancestors of `path` as directories. Fails with
 * FAILED_PRECONDITION if one of them is a file. */
static bool make_parents(ram_fs* fs, const char* path, TF_Status* status) {
  size_t n = strlen(path), i;
  char* buf = (char*)malloc(n + 1);
  if (buf == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return false;
  }
  for (i = 1; i < n; i++) {
    ram_entry* e;
    if (path[i] != '/') continue;
    memcpy(buf, path, i);
    buf[i] = '\0';
    e = find(fs, buf);
    if (e != NULL) {
      if (!e->node->is_dir) {
        free(buf);
        TF_SetStatus(status, TF_FAILED_PRECONDITION,
                     "a parent of the path is a file, not a directory");
        return false;
      }
      continue;
    }
    if (create(fs, buf, true, status) == NULL) {
      free(buf);
      return false;
    }
  }
  free(buf);
  return true;
}

/* Whether some entry lies below directory `path`. */
static bool has_children(const ram_fs* fs, const char* path) {
  size_t n = strlen(path), i;
  char* key = (char*)malloc(n + 2);
  bool found = false;
  if (key == NULL) return true; /* be conservative */
  memcpy(key, path, n);
  if (n == 1) {
    key[1] = '\0'; /* root: every other entry is below it */
  } else {
    key[n] = '/';
    key[n + 1] = '\0';
  }
  i = lower_bound(fs, key);
  while (i < fs->count && strcmp(fs->entries[i].path, path) == 0) i++;
  found = i < fs->count && strncmp(fs->entries[i].path, key, strlen(key)) == 0;
  free(key);
  return found;
}

static void not_found(TF_Status* status, const char* path) {
  char msg[512];
  snprintf(msg, sizeof msg, "ram://%s: No such file or directory", path);
  TF_SetStatus(status, TF_NOT_FOUND, msg);
}

static void wrong_kind(TF_Status* status, const char* path, const char* what) {
  char msg[512];
  snprintf(msg, sizeof msg, "ram://%s: %s", path, what);
  TF_SetStatus(status, TF_FAILED_PRECONDITION, msg);
}

/* ------------------------------------------------------------ open files */

static ram_file* new_file(ram_fs* fs, ram_node* node) {
  ram_file* f = (ram_file*)calloc(1, sizeof(*f));
  if (f == NULL) return NULL;
  f->fs = fs;
  f->node = node;
  node->refs++;
  return f;
}

static void file_release(void* p) {
  ram_file* f = (ram_file*)p;
  if (f == NULL) return;
  pthread_mutex_lock(&f->fs->lock);
  unref(f->node);
  pthread_mutex_unlock(&f->fs->lock);
  free(f);
}

static void raf_cleanup(TF_RandomAccessFile* file) {
  file_release(file->plugin_file);
  file->plugin_file = NULL;
}

static int64_t raf_read(const TF_RandomAccessFile* file, uint64_t offset,
                        size_t n, char* buffer, TF_Status* status) {
  ram_file* f = (ram_file*)file->plugin_file;
  size_t got = 0;
  pthread_mutex_lock(&f->fs->lock);
  if (offset < f->node->size) {
    got = f->node->size - (size_t)offset;
    if (got > n) got = n;
    memcpy(buffer, f->node->data + offset, got);
  }
  pthread_mutex_unlock(&f->fs->lock);
  if (got < n) {
    TF_SetStatus(status, TF_OUT_OF_RANGE, "Read less bytes than requested");
  } else {
    TF_SetStatus(status, TF_OK, "");
  }
  return (int64_t)got;
}

/* Files at least this large live in 2 MiB-aligned buffers that the kernel
 * may back with transparent huge pages: sequential copies out of them are
 * then about as fast as copies out of the page cache. */
#define RAM_HUGE_THRESHOLD ((size_t)4 << 20)
#define RAM_HUGE_ALIGN ((size_t)2 << 20)

/* Grows node's buffer to hold at least `need` bytes (doubling). */
static bool grow(ram_node* node, size_t need) {
  size_t cap = node->cap ? node->cap : 4096;
  char* grown;
  while (cap < need) {
    if (cap > ((size_t)-1) / 2) {
      cap = need;
      break;
    }
    cap *= 2;
  }
  if (cap < RAM_HUGE_THRESHOLD) {
    grown = (char*)realloc(node->data, cap);
    if (grown == NULL) return false;
  } else {
    void* p = NULL;
    cap = (cap + RAM_HUGE_ALIGN - 1) / RAM_HUGE_ALIGN * RAM_HUGE_ALIGN;
    if (posix_memalign(&p, RAM_HUGE_ALIGN, cap) != 0) return false;
    (void)madvise(p, cap, MADV_HUGEPAGE); /* a hint; failure is harmless */
    grown = (char*)p;
    if (node->size > 0) memcpy(grown, node->data, node->size);
    free(node->data);
  }
  node->data = grown;
  node->cap = cap;
  return true;
}

static void wf_cleanup(TF_WritableFile* file) {
  file_release(file->plugin_file);
  file->plugin_file = NULL;
}

static void wf_append(const TF_WritableFile* file, const char* buffer,
                      size_t n, TF_Status* status) {
  ram_file* f = (ram_file*)file->plugin_file;
  ram_node* node = f->node;
  if (f->closed) {
    TF_SetStatus(status, TF_FAILED_PRECONDITION, "file is closed");
    return;
  }
  pthread_mutex_lock(&f->fs->lock);
  if (node->size + n > node->cap && !grow(node, node->size + n)) {
    pthread_mutex_unlock(&f->fs->lock);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED,
                 "out of memory growing a ram:// file");
    return;
  }
  if (n > 0) memcpy(node->data + node->size, buffer, n);
  node->size += n;
  node->mtime_nsec = now_nsec();
  pthread_mutex_unlock(&f->fs->lock);
  TF_SetStatus(status, TF_OK, "");
}

static int64_t wf_tell(const TF_WritableFile* file, TF_Status* status) {
  ram_file* f = (ram_file*)file->plugin_file;
  int64_t pos;
  pthread_mutex_lock(&f->fs->lock);
  pos = (int64_t)f->node->size;
  pthread_mutex_unlock(&f->fs->lock);
  TF_SetStatus(status, TF_OK, "");
  return pos;
}

static void wf_close(const TF_WritableFile* file, TF_Status* status) {
  ram_file* f = (ram_file*)file->plugin_file;
  f->closed = true;
  TF_SetStatus(status, TF_OK, "");
}

/* A region is a snapshot: later writes to the file do not move it. */
typedef struct ram_region {
  char* data;
  uint64_t length;
} ram_region;

static void romr_cleanup(TF_ReadOnlyMemoryRegion* region) {
  ram_region* r = (ram_region*)region->plugin_memory_region;
  if (r != NULL) {
    free(r->data);
    free(r);
  }
  region->plugin_memory_region = NULL;
}

static const void* romr_data(const TF_ReadOnlyMemoryRegion* region) {
  return ((const ram_region*)region->plugin_memory_region)->data;
}

static uint64_t romr_length(const TF_ReadOnlyMemoryRegion* region) {
  return ((const ram_region*)region->plugin_memory_region)->length;
}

/* ------------------------------------------------------------ filesystem */

static void fs_init(TF_Filesystem* filesystem, TF_Status* status) {
  ram_fs* fs = (ram_fs*)calloc(1, sizeof(*fs));
  if (fs == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  pthread_mutex_init(&fs->lock, NULL);
  if (create(fs, "/", true, status) == NULL) {
    pthread_mutex_destroy(&fs->lock);
    free(fs);
    return;
  }
  filesystem->plugin_filesystem = fs;
  TF_SetStatus(status, TF_OK, "");
}

static void fs_cleanup(TF_Filesystem* filesystem) {
  ram_fs* fs = FS(filesystem);
  if (fs == NULL) return;
  while (fs->count > 0) remove_at(fs, fs->count - 1);
  free(fs->entries);
  pthread_mutex_destroy(&fs->lock);
  free(fs);
  filesystem->plugin_filesystem = NULL;
}

/* "ram://host/p" -> "/host/p", cleaned. */
static char* fs_translate(const TF_Filesystem* filesystem, const char* uri) {
  tfe_uri u;
  size_t n;
  char* joined;
  char* clean;
  char* out;
  (void)filesystem;
  tfe_uri_parse(uri, &u);
  n = u.host_len + strlen(u.path) + 2;
  joined = (char*)malloc(n);
  if (joined == NULL) return dup_str("/");
  joined[0] = '/';
  memcpy(joined + 1, u.host, u.host_len);
  strcpy(joined + 1 + u.host_len, u.path);
  clean = tfe_path_clean(joined, strlen(joined));
  free(joined);
  /* tfe_path_clean allocates with the core's allocator; hand back a
   * malloc'd copy, as this plugin's allocator is malloc. */
  out = dup_str(clean ? clean : "/");
  tfe_free(clean);
  return out;
}

static void fs_new_raf(const TF_Filesystem* filesystem, const char* path,
                       TF_RandomAccessFile* file, TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_entry* e;
  pthread_mutex_lock(&fs->lock);
  e = find(fs, path);
  if (e == NULL) {
    not_found(status, path);
  } else if (e->node->is_dir) {
    wrong_kind(status, path, "Is a directory");
  } else {
    file->plugin_file = new_file(fs, e->node);
    if (file->plugin_file == NULL) {
      TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    } else {
      TF_SetStatus(status, TF_OK, "");
    }
  }
  pthread_mutex_unlock(&fs->lock);
}

static void open_for_write(const TF_Filesystem* filesystem, const char* path,
                           TF_WritableFile* file, bool append,
                           TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_entry* e;
  ram_node* node = NULL;
  pthread_mutex_lock(&fs->lock);
  e = find(fs, path);
  if (e != NULL) {
    if (e->node->is_dir) {
      wrong_kind(status, path, "Is a directory");
    } else {
      node = e->node;
      if (!append) {
        node->size = 0;
        node->mtime_nsec = now_nsec();
      }
    }
  } else if (make_parents(fs, path, status)) {
    node = create(fs, path, false, status);
  }
  if (node != NULL) {
    file->plugin_file = new_file(fs, node);
    if (file->plugin_file == NULL) {
      TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    } else {
      TF_SetStatus(status, TF_OK, "");
    }
  }
  pthread_mutex_unlock(&fs->lock);
}

static void fs_new_wf(const TF_Filesystem* filesystem, const char* path,
                      TF_WritableFile* file, TF_Status* status) {
  open_for_write(filesystem, path, file, false, status);
}

static void fs_new_af(const TF_Filesystem* filesystem, const char* path,
                      TF_WritableFile* file, TF_Status* status) {
  open_for_write(filesystem, path, file, true, status);
}

static void fs_new_romr(const TF_Filesystem* filesystem, const char* path,
                        TF_ReadOnlyMemoryRegion* region, TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_entry* e;
  pthread_mutex_lock(&fs->lock);
  e = find(fs, path);
  if (e == NULL) {
    not_found(status, path);
  } else if (e->node->is_dir) {
    wrong_kind(status, path, "Is a directory");
  } else if (e->node->size == 0) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "File is empty");
  } else {
    ram_region* r = (ram_region*)malloc(sizeof(*r));
    char* copy = (char*)malloc(e->node->size);
    if (r == NULL || copy == NULL) {
      free(r);
      free(copy);
      TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    } else {
      memcpy(copy, e->node->data, e->node->size);
      r->data = copy;
      r->length = e->node->size;
      region->plugin_memory_region = r;
      TF_SetStatus(status, TF_OK, "");
    }
  }
  pthread_mutex_unlock(&fs->lock);
}

static void fs_create_dir(const TF_Filesystem* filesystem, const char* path,
                          TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  pthread_mutex_lock(&fs->lock);
  if (find(fs, path) != NULL) {
    char msg[512];
    snprintf(msg, sizeof msg, "ram://%s: File exists", path);
    TF_SetStatus(status, TF_ALREADY_EXISTS, msg);
  } else if (make_parents(fs, path, status) &&
             create(fs, path, true, status) != NULL) {
    TF_SetStatus(status, TF_OK, "");
  }
  pthread_mutex_unlock(&fs->lock);
}

static void fs_recursively_create_dir(const TF_Filesystem* filesystem,
                                      const char* path, TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_entry* e;
  pthread_mutex_lock(&fs->lock);
  e = find(fs, path);
  if (e != NULL) {
    if (e->node->is_dir) {
      TF_SetStatus(status, TF_OK, "");
    } else {
      wrong_kind(status, path, "exists and is not a directory");
    }
  } else if (make_parents(fs, path, status) &&
             create(fs, path, true, status) != NULL) {
    TF_SetStatus(status, TF_OK, "");
  }
  pthread_mutex_unlock(&fs->lock);
}

static void fs_delete_file(const TF_Filesystem* filesystem, const char* path,
                           TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_entry* e;
  pthread_mutex_lock(&fs->lock);
  e = find(fs, path);
  if (e == NULL) {
    not_found(status, path);
  } else if (e->node->is_dir) {
    wrong_kind(status, path, "Is a directory");
  } else {
    remove_at(fs, (size_t)(e - fs->entries));
    TF_SetStatus(status, TF_OK, "");
  }
  pthread_mutex_unlock(&fs->lock);
}

static void fs_delete_dir(const TF_Filesystem* filesystem, const char* path,
                          TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_entry* e;
  pthread_mutex_lock(&fs->lock);
  e = find(fs, path);
  if (e == NULL) {
    not_found(status, path);
  } else if (!e->node->is_dir) {
    wrong_kind(status, path, "Not a directory");
  } else if (strcmp(path, "/") == 0) {
    wrong_kind(status, path, "the root cannot be deleted");
  } else if (has_children(fs, path)) {
    wrong_kind(status, path, "Directory not empty");
  } else {
    remove_at(fs, (size_t)(e - fs->entries));
    TF_SetStatus(status, TF_OK, "");
  }
  pthread_mutex_unlock(&fs->lock);
}

/* Whether `path` equals `dir` or lies below it. */
static bool is_within(const char* path, const char* dir) {
  size_t n = strlen(dir);
  if (strcmp(dir, "/") == 0) return true;
  return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static void fs_rename(const TF_Filesystem* filesystem, const char* src,
                      const char* dst, TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_entry* s;
  ram_entry* d;
  size_t i, ls = strlen(src), ld = strlen(dst), moved = 0;
  ram_entry* tmp = NULL;
  pthread_mutex_lock(&fs->lock);
  s = find(fs, src);
  d = find(fs, dst);
  if (s == NULL) {
    not_found(status, src);
    goto out;
  }
  if (strcmp(src, dst) == 0) {
    TF_SetStatus(status, TF_OK, "");
    goto out;
  }
  if (strcmp(src, "/") == 0 || is_within(dst, src)) {
    wrong_kind(status, dst, "cannot move a directory into itself");
    goto out;
  }
  if (d != NULL) {
    if (d->node->is_dir != s->node->is_dir) {
      wrong_kind(status, dst,
                 d->node->is_dir ? "Is a directory" : "Not a directory");
      goto out;
    }
    if (d->node->is_dir && has_children(fs, dst)) {
      wrong_kind(status, dst, "Directory not empty");
      goto out;
    }
  }
  if (!make_parents(fs, dst, status)) goto out;
  /* make_parents may have moved the table: look everything up again. */
  d = find(fs, dst);
  if (d != NULL) remove_at(fs, (size_t)(d - fs->entries));
  /* Take the source and everything below it out of the table... */
  tmp = (ram_entry*)malloc((fs->count + 1) * sizeof(*tmp));
  if (tmp == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto out;
  }
  for (i = 0; i < fs->count;) {
    if (is_within(fs->entries[i].path, src)) {
      const char* rest = fs->entries[i].path + ls;
      char* np = (char*)malloc(ld + strlen(rest) + 1);
      if (np == NULL) {
        /* Leave the entry where it was. */
        i++;
        continue;
      }
      memcpy(np, dst, ld);
      strcpy(np + ld, rest);
      free(fs->entries[i].path);
      tmp[moved].path = np;
      tmp[moved].node = fs->entries[i].node;
      moved++;
      memmove(&fs->entries[i], &fs->entries[i + 1],
              (fs->count - i - 1) * sizeof(ram_entry));
      fs->count--;
    } else {
      i++;
    }
  }
  /* ...and put it back under the new name. The table never needs more
   * room than it had. */
  for (i = 0; i < moved; i++) (void)insert(fs, tmp[i].path, tmp[i].node);
  free(tmp);
  TF_SetStatus(status, TF_OK, "");
out:
  pthread_mutex_unlock(&fs->lock);
}

static void fs_path_exists(const TF_Filesystem* filesystem, const char* path,
                           TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  bool found;
  pthread_mutex_lock(&fs->lock);
  found = find(fs, path) != NULL;
  pthread_mutex_unlock(&fs->lock);
  if (found) {
    TF_SetStatus(status, TF_OK, "");
  } else {
    not_found(status, path);
  }
}

static void fs_stat(const TF_Filesystem* filesystem, const char* path,
                    TF_FileStatistics* stats, TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_entry* e;
  pthread_mutex_lock(&fs->lock);
  e = find(fs, path);
  if (e == NULL) {
    not_found(status, path);
  } else {
    stats->length = e->node->is_dir ? 0 : (int64_t)e->node->size;
    stats->mtime_nsec = e->node->mtime_nsec;
    stats->is_directory = e->node->is_dir;
    TF_SetStatus(status, TF_OK, "");
  }
  pthread_mutex_unlock(&fs->lock);
}

static int fs_get_children(const TF_Filesystem* filesystem, const char* path,
                           char*** entries, TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_entry* e;
  size_t i, n = 0, plen;
  int result = -1;
  char** out = NULL;
  char* key = NULL;
  *entries = NULL;
  pthread_mutex_lock(&fs->lock);
  e = find(fs, path);
  if (e == NULL) {
    not_found(status, path);
    goto done;
  }
  if (!e->node->is_dir) {
    wrong_kind(status, path, "Not a directory");
    goto done;
  }
  /* Children are the entries right below: they share the prefix
   * "path/", so they form one contiguous run in the sorted table. */
  plen = strcmp(path, "/") == 0 ? 1 : strlen(path) + 1;
  key = (char*)malloc(plen + 1);
  out = (char**)malloc((fs->count + 1) * sizeof(char*));
  if (out == NULL || key == NULL) {
    free(out);
    out = NULL;
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  memcpy(key, path, plen - 1);
  key[plen - 1] = '/';
  key[plen] = '\0';
  for (i = lower_bound(fs, key); i < fs->count; i++) {
    const char* p = fs->entries[i].path;
    if (strncmp(p, key, plen) != 0) break;
    if (p[plen] == '\0' || strchr(p + plen, '/') != NULL) continue;
    out[n] = dup_str(p + plen);
    if (out[n] == NULL) {
      while (n > 0) free(out[--n]);
      free(out);
      out = NULL;
      TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      goto done;
    }
    n++;
  }
  *entries = out;
  result = (int)n;
  TF_SetStatus(status, TF_OK, "");
done:
  pthread_mutex_unlock(&fs->lock);
  free(key);
  return result;
}

/* ------------------------------------------------------------ the plugin */

void tfe_ram_fs_init_plugin(TF_FilesystemPluginInfo* info) {
  TF_FilesystemPluginOps* e;
  TF_FilesystemOps* fs;
  TF_RandomAccessFileOps* raf;
  TF_WritableFileOps* wf;
  TF_ReadOnlyMemoryRegionOps* romr;
  info->plugin_memory_allocate = malloc;
  info->plugin_memory_free = free;
  info->num_schemes = 1;
  info->ops = e = (TF_FilesystemPluginOps*)calloc(1, sizeof(*e));
  if (e == NULL) {
    info->num_schemes = 0;
    return;
  }
  e->scheme = dup_str("ram");
  TF_SetFilesystemVersionMetadata(e);
  e->filesystem_ops = fs = (TF_FilesystemOps*)calloc(1, sizeof(*fs));
  e->random_access_file_ops = raf = (TF_RandomAccessFileOps*)calloc(1, sizeof(*raf));
  e->writable_file_ops = wf = (TF_WritableFileOps*)calloc(1, sizeof(*wf));
  e->read_only_memory_region_ops = romr =
      (TF_ReadOnlyMemoryRegionOps*)calloc(1, sizeof(*romr));
  /* An incomplete entry is rejected (and freed) by the loader. */
  if (fs == NULL || raf == NULL || wf == NULL || romr == NULL) return;

  raf->cleanup = raf_cleanup;
  raf->read = raf_read;
  wf->cleanup = wf_cleanup;
  wf->append = wf_append;
  wf->tell = wf_tell;
  wf->close = wf_close; /* flush and sync: nothing to do */
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
  fs->recursively_create_dir = fs_recursively_create_dir;
  fs->delete_file = fs_delete_file;
  fs->delete_dir = fs_delete_dir;
  fs->rename_file = fs_rename;
  fs->path_exists = fs_path_exists;
  fs->stat = fs_stat;
  fs->translate_name = fs_translate;
  fs->get_children = fs_get_children;
}
