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
 *   - open files behave as on POSIX: a file is an inode-like node that
 *     its directory entry and every open handle reference. Deleting or
 *     renaming over a file leaves open handles on the (now unnamed) node;
 *     truncating it (opening with "w") empties the node every handle
 *     shares. A writer opened with "w" writes at its own offset (past a
 *     truncation that leaves a zero-filled gap, as a POSIX fd without
 *     O_APPEND does); an appender writes at the current end of the file;
 *     a reader past the end gets OUT_OF_RANGE;
 *   - exclusive creation (tfe_ram_fs_new_exclusive_file) checks and
 *     creates under the filesystem's lock, so it is atomic;
 *   - contents live until the file is deleted or the process ends.
 *
 * The tree is stored as nodes linked to their parent, each directory
 * keeping a doubly linked list of its children, plus one hash table
 * keyed by (parent node, name) for lookups. Resolving a path costs
 * O(length of the path); creating, deleting, and renaming (even a whole
 * directory) one entry costs O(1) after that; deleting a tree costs
 * O(entries in it), without recursion.
 *
 * One mutex per filesystem guards everything. */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "core/alloc.h"
#include "fs/fs.h"
#include "fs/uri.h"

typedef struct ram_node ram_node;
struct ram_node {
  int refs; /* one while linked into the tree, one per open file */
  bool is_dir;
  ram_node* parent; /* NULL for the root and for unlinked nodes */
  char* name;       /* entry name in parent (NULL for the root) */
  size_t name_len;
  uint64_t hash;
  ram_node* hnext; /* next node in the same hash bucket */
  /* Children of a directory, and this node among its siblings. */
  ram_node* first_child;
  ram_node* prev_sibling;
  ram_node* next_sibling;
  size_t nchildren;
  /* File contents. */
  char* data;
  size_t size, cap;
  int64_t mtime_nsec;
};

typedef struct ram_fs {
  pthread_mutex_t lock;
  ram_node* root;
  ram_node** buckets; /* power-of-two count */
  size_t nbuckets, count;
  uint64_t seed;
} ram_fs;

typedef struct ram_file {
  ram_fs* fs;
  ram_node* node;
  bool append; /* writes go to the current end of the file */
  bool closed;
  uint64_t pos; /* writable files: where this handle writes next */
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
    free(n->name);
    free(n);
  }
}

/* ------------------------------------------------------------ hash table */

static uint64_t hash_of(const ram_fs* fs, const ram_node* parent,
                        const char* name, size_t len) {
  /* FNV-1a over the name, started from the parent's address mixed with a
   * per-filesystem seed. */
  uint64_t h = 1469598103934665603ULL ^ fs->seed;
  uint64_t p = (uint64_t)(uintptr_t)parent;
  size_t i;
  h ^= p * 0x9E3779B97F4A7C15ULL;
  for (i = 0; i < len; i++) {
    h ^= (unsigned char)name[i];
    h *= 1099511628211ULL;
  }
  return h ^ (h >> 29);
}

static ram_node* lookup_child(const ram_fs* fs, const ram_node* dir,
                              const char* name, size_t len) {
  uint64_t h = hash_of(fs, dir, name, len);
  ram_node* n = fs->buckets[h & (fs->nbuckets - 1)];
  for (; n != NULL; n = n->hnext) {
    if (n->hash == h && n->parent == dir && n->name_len == len &&
        memcmp(n->name, name, len) == 0) {
      return n;
    }
  }
  return NULL;
}

static void bucket_insert(ram_fs* fs, ram_node* n) {
  size_t b = (size_t)(n->hash & (fs->nbuckets - 1));
  n->hnext = fs->buckets[b];
  fs->buckets[b] = n;
}

static void bucket_remove(ram_fs* fs, ram_node* n) {
  ram_node** link = &fs->buckets[n->hash & (fs->nbuckets - 1)];
  while (*link != NULL && *link != n) link = &(*link)->hnext;
  if (*link == n) *link = n->hnext;
  n->hnext = NULL;
}

/* Doubles the bucket array when the table is full; on allocation failure
 * the chains just grow longer. */
static void maybe_grow_table(ram_fs* fs) {
  ram_node** grown;
  size_t nb, i;
  if (fs->count < fs->nbuckets || fs->nbuckets > ((size_t)-1) / 4 / sizeof(*grown)) {
    return;
  }
  nb = fs->nbuckets * 2;
  grown = (ram_node**)calloc(nb, sizeof(*grown));
  if (grown == NULL) return;
  for (i = 0; i < fs->nbuckets; i++) {
    ram_node* n = fs->buckets[i];
    while (n != NULL) {
      ram_node* next = n->hnext;
      size_t b = (size_t)(n->hash & (nb - 1));
      n->hnext = grown[b];
      grown[b] = n;
      n = next;
    }
  }
  free(fs->buckets);
  fs->buckets = grown;
  fs->nbuckets = nb;
}

/* ------------------------------------------------------------ tree links */

/* Links `n` (unlinked, owning `name`) into directory `dir`. */
static void link_node(ram_fs* fs, ram_node* dir, ram_node* n, char* name,
                      size_t len) {
  n->name = name;
  n->name_len = len;
  n->parent = dir;
  n->hash = hash_of(fs, dir, name, len);
  bucket_insert(fs, n);
  n->prev_sibling = NULL;
  n->next_sibling = dir->first_child;
  if (dir->first_child != NULL) dir->first_child->prev_sibling = n;
  dir->first_child = n;
  dir->nchildren++;
  fs->count++;
  maybe_grow_table(fs);
}

/* Takes `n` out of its directory, keeping the node and its name. */
static void detach_node(ram_fs* fs, ram_node* n) {
  ram_node* dir = n->parent;
  bucket_remove(fs, n);
  if (n->prev_sibling != NULL) {
    n->prev_sibling->next_sibling = n->next_sibling;
  } else {
    dir->first_child = n->next_sibling;
  }
  if (n->next_sibling != NULL) n->next_sibling->prev_sibling = n->prev_sibling;
  n->prev_sibling = n->next_sibling = NULL;
  dir->nchildren--;
  n->parent = NULL;
  fs->count--;
}

/* Removes the directory entry of `n` (a file or an empty directory) and
 * drops the tree's reference; open handles keep the node alive. */
static void unlink_node(ram_fs* fs, ram_node* n) {
  detach_node(fs, n);
  free(n->name);
  n->name = NULL;
  n->name_len = 0;
  unref(n);
}

static ram_node* new_node(bool is_dir) {
  ram_node* n = (ram_node*)calloc(1, sizeof(*n));
  if (n == NULL) return NULL;
  n->refs = 1;
  n->is_dir = is_dir;
  n->mtime_nsec = now_nsec();
  return n;
}

/* Creates an entry `name[0, len)` in `dir`. */
static ram_node* create_in(ram_fs* fs, ram_node* dir, const char* name,
                           size_t len, bool is_dir, TF_Status* status) {
  char* copy = (char*)malloc(len + 1);
  ram_node* n = new_node(is_dir);
  if (copy == NULL || n == NULL) {
    free(copy);
    free(n);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  memcpy(copy, name, len);
  copy[len] = '\0';
  link_node(fs, dir, n, copy, len);
  return n;
}

/* Deletes everything below directory `top` (not `top` itself), leaves
 * first, iteratively: each node is visited a constant number of times. */
static void delete_below(ram_fs* fs, ram_node* top) {
  ram_node* cur = top;
  for (;;) {
    ram_node* parent;
    while (cur->first_child != NULL) cur = cur->first_child;
    if (cur == top) return;
    parent = cur->parent;
    unlink_node(fs, cur);
    cur = parent;
  }
}

/* ------------------------------------------------------------ path walks */

/* Splits cleaned absolute paths: the next component after *p. Returns
 * false at the end. */
static bool next_component(const char** p, const char** name, size_t* len) {
  const char* s = *p;
  while (*s == '/') s++;
  if (*s == '\0') return false;
  *name = s;
  while (*s != '\0' && *s != '/') s++;
  *len = (size_t)(s - *name);
  *p = s;
  return true;
}

static bool is_last_component(const char* p) {
  while (*p == '/') p++;
  return *p == '\0';
}

/* The node `path` names, or NULL (missing, or below a file). */
static ram_node* find(ram_fs* fs, const char* path) {
  ram_node* cur = fs->root;
  const char* p = path;
  const char* name;
  size_t len;
  while (next_component(&p, &name, &len)) {
    if (!cur->is_dir) return NULL;
    cur = lookup_child(fs, cur, name, len);
    if (cur == NULL) return NULL;
  }
  return cur;
}

/* The directory that is to hold the last component of `path` (stored in
 * *last / *last_len), creating missing ancestors when `create` is set.
 * NULL for the root itself (no last component; status untouched) and on
 * errors: NOT_FOUND for a missing ancestor without `create`,
 * FAILED_PRECONDITION when an ancestor is a file. */
static ram_node* parent_of(ram_fs* fs, const char* path, bool create,
                           const char** last, size_t* last_len,
                           TF_Status* status) {
  ram_node* cur = fs->root;
  const char* p = path;
  const char* name;
  size_t len;
  *last = NULL;
  *last_len = 0;
  while (next_component(&p, &name, &len)) {
    ram_node* child;
    if (is_last_component(p)) {
      *last = name;
      *last_len = len;
      return cur;
    }
    child = lookup_child(fs, cur, name, len);
    if (child == NULL) {
      if (!create) {
        char msg[512];
        snprintf(msg, sizeof msg, "ram://%s: No such file or directory", path);
        TF_SetStatus(status, TF_NOT_FOUND, msg);
        return NULL;
      }
      child = create_in(fs, cur, name, len, true, status);
      if (child == NULL) return NULL;
    } else if (!child->is_dir) {
      TF_SetStatus(status, TF_FAILED_PRECONDITION,
                   "a parent of the path is a file, not a directory");
      return NULL;
    }
    cur = child;
  }
  return NULL;
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

static void already_exists(TF_Status* status, const char* path) {
  char msg[512];
  snprintf(msg, sizeof msg, "ram://%s: File exists", path);
  TF_SetStatus(status, TF_ALREADY_EXISTS, msg);
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
    if (cap > ((size_t)-1) - RAM_HUGE_ALIGN) return false;
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
  uint64_t at, end;
  if (f->closed) {
    TF_SetStatus(status, TF_FAILED_PRECONDITION, "file is closed");
    return;
  }
  pthread_mutex_lock(&f->fs->lock);
  /* An appender writes at the end as it is now (another handle may have
   * truncated or extended the file); a writer at its own offset. */
  at = f->append ? (uint64_t)node->size : f->pos;
  if (at > (uint64_t)SIZE_MAX || n > (size_t)SIZE_MAX - (size_t)at) {
    pthread_mutex_unlock(&f->fs->lock);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED,
                 "a ram:// file cannot grow this large");
    return;
  }
  end = at + n;
  if (n > 0) {
    if ((size_t)end > node->cap && !grow(node, (size_t)end)) {
      pthread_mutex_unlock(&f->fs->lock);
      TF_SetStatus(status, TF_RESOURCE_EXHAUSTED,
                   "out of memory growing a ram:// file");
      return;
    }
    /* Writing past the end (after a truncation by another handle) leaves
     * a gap that reads as zeros, as on POSIX. */
    if ((size_t)at > node->size) {
      memset(node->data + node->size, 0, (size_t)at - node->size);
    }
    memcpy(node->data + at, buffer, n);
    if ((size_t)end > node->size) node->size = (size_t)end;
    node->mtime_nsec = now_nsec();
  }
  f->pos = end;
  pthread_mutex_unlock(&f->fs->lock);
  TF_SetStatus(status, TF_OK, "");
}

static int64_t wf_tell(const TF_WritableFile* file, TF_Status* status) {
  ram_file* f = (ram_file*)file->plugin_file;
  int64_t pos;
  pthread_mutex_lock(&f->fs->lock);
  pos = (int64_t)f->pos;
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

#define RAM_INITIAL_BUCKETS 64

static void fs_init(TF_Filesystem* filesystem, TF_Status* status) {
  ram_fs* fs = (ram_fs*)calloc(1, sizeof(*fs));
  if (fs != NULL) {
    fs->buckets = (ram_node**)calloc(RAM_INITIAL_BUCKETS, sizeof(ram_node*));
    fs->root = new_node(true);
  }
  if (fs == NULL || fs->buckets == NULL || fs->root == NULL) {
    if (fs != NULL) {
      free(fs->buckets);
      free(fs->root);
      free(fs);
    }
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  fs->nbuckets = RAM_INITIAL_BUCKETS;
  fs->seed = (uint64_t)now_nsec() ^ (uint64_t)(uintptr_t)fs;
  pthread_mutex_init(&fs->lock, NULL);
  filesystem->plugin_filesystem = fs;
  TF_SetStatus(status, TF_OK, "");
}

static void fs_cleanup(TF_Filesystem* filesystem) {
  ram_fs* fs = FS(filesystem);
  if (fs == NULL) return;
  delete_below(fs, fs->root);
  unref(fs->root);
  free(fs->buckets);
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
  ram_node* n;
  pthread_mutex_lock(&fs->lock);
  n = find(fs, path);
  if (n == NULL) {
    not_found(status, path);
  } else if (n->is_dir) {
    wrong_kind(status, path, "Is a directory");
  } else {
    file->plugin_file = new_file(fs, n);
    if (file->plugin_file == NULL) {
      TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    } else {
      TF_SetStatus(status, TF_OK, "");
    }
  }
  pthread_mutex_unlock(&fs->lock);
}

typedef enum { RAM_WRITE, RAM_APPEND, RAM_EXCLUSIVE } ram_open_mode;

static void open_for_write(const TF_Filesystem* filesystem, const char* path,
                           TF_WritableFile* file, ram_open_mode mode,
                           TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_node* node;
  pthread_mutex_lock(&fs->lock);
  /* The check and the creation happen under one hold of the lock, so an
   * exclusive open is atomic. */
  node = find(fs, path);
  if (node != NULL) {
    if (mode == RAM_EXCLUSIVE) {
      already_exists(status, path);
      node = NULL;
    } else if (node->is_dir) {
      wrong_kind(status, path, "Is a directory");
      node = NULL;
    } else if (mode == RAM_WRITE) {
      /* Truncation empties the node every open handle shares. */
      free(node->data);
      node->data = NULL;
      node->size = node->cap = 0;
      node->mtime_nsec = now_nsec();
    }
  } else {
    const char* last;
    size_t len;
    ram_node* dir = parent_of(fs, path, true, &last, &len, status);
    if (dir != NULL) node = create_in(fs, dir, last, len, false, status);
  }
  if (node != NULL) {
    ram_file* f = new_file(fs, node);
    file->plugin_file = f;
    if (f == NULL) {
      TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    } else {
      f->append = mode == RAM_APPEND;
      f->pos = f->append ? (uint64_t)node->size : 0;
      TF_SetStatus(status, TF_OK, "");
    }
  }
  pthread_mutex_unlock(&fs->lock);
}

static void fs_new_wf(const TF_Filesystem* filesystem, const char* path,
                      TF_WritableFile* file, TF_Status* status) {
  open_for_write(filesystem, path, file, RAM_WRITE, status);
}

static void fs_new_af(const TF_Filesystem* filesystem, const char* path,
                      TF_WritableFile* file, TF_Status* status) {
  open_for_write(filesystem, path, file, RAM_APPEND, status);
}

void tfe_ram_fs_new_exclusive_file(const TF_Filesystem* filesystem,
                                   const char* path, TF_WritableFile* file,
                                   TF_Status* status) {
  open_for_write(filesystem, path, file, RAM_EXCLUSIVE, status);
}

static void fs_new_romr(const TF_Filesystem* filesystem, const char* path,
                        TF_ReadOnlyMemoryRegion* region, TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_node* n;
  pthread_mutex_lock(&fs->lock);
  n = find(fs, path);
  if (n == NULL) {
    not_found(status, path);
  } else if (n->is_dir) {
    wrong_kind(status, path, "Is a directory");
  } else if (n->size == 0) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "File is empty");
  } else {
    ram_region* r = (ram_region*)malloc(sizeof(*r));
    char* copy = (char*)malloc(n->size);
    if (r == NULL || copy == NULL) {
      free(r);
      free(copy);
      TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    } else {
      memcpy(copy, n->data, n->size);
      r->data = copy;
      r->length = n->size;
      region->plugin_memory_region = r;
      TF_SetStatus(status, TF_OK, "");
    }
  }
  pthread_mutex_unlock(&fs->lock);
}

/* Creates directory `path` (and missing parents). With `ok_if_dir`, an
 * existing directory is success. */
static void make_dir(const TF_Filesystem* filesystem, const char* path,
                     bool ok_if_dir, TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_node* n;
  pthread_mutex_lock(&fs->lock);
  n = find(fs, path);
  if (n != NULL) {
    if (!ok_if_dir) {
      already_exists(status, path);
    } else if (n->is_dir) {
      TF_SetStatus(status, TF_OK, "");
    } else {
      wrong_kind(status, path, "exists and is not a directory");
    }
  } else {
    const char* last;
    size_t len;
    ram_node* dir = parent_of(fs, path, true, &last, &len, status);
    if (dir != NULL && create_in(fs, dir, last, len, true, status) != NULL) {
      TF_SetStatus(status, TF_OK, "");
    }
  }
  pthread_mutex_unlock(&fs->lock);
}

static void fs_create_dir(const TF_Filesystem* filesystem, const char* path,
                          TF_Status* status) {
  make_dir(filesystem, path, false, status);
}

static void fs_recursively_create_dir(const TF_Filesystem* filesystem,
                                      const char* path, TF_Status* status) {
  make_dir(filesystem, path, true, status);
}

static void fs_delete_file(const TF_Filesystem* filesystem, const char* path,
                           TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_node* n;
  pthread_mutex_lock(&fs->lock);
  n = find(fs, path);
  if (n == NULL) {
    not_found(status, path);
  } else if (n->is_dir) {
    wrong_kind(status, path, "Is a directory");
  } else {
    unlink_node(fs, n);
    TF_SetStatus(status, TF_OK, "");
  }
  pthread_mutex_unlock(&fs->lock);
}

static void fs_delete_dir(const TF_Filesystem* filesystem, const char* path,
                          TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_node* n;
  pthread_mutex_lock(&fs->lock);
  n = find(fs, path);
  if (n == NULL) {
    not_found(status, path);
  } else if (!n->is_dir) {
    wrong_kind(status, path, "Not a directory");
  } else if (n == fs->root) {
    wrong_kind(status, path, "the root cannot be deleted");
  } else if (n->nchildren > 0) {
    wrong_kind(status, path, "Directory not empty");
  } else {
    unlink_node(fs, n);
    TF_SetStatus(status, TF_OK, "");
  }
  pthread_mutex_unlock(&fs->lock);
}

static void fs_delete_recursively(const TF_Filesystem* filesystem,
                                  const char* path, uint64_t* undeleted_files,
                                  uint64_t* undeleted_dirs, TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_node* n;
  *undeleted_files = 0;
  *undeleted_dirs = 0;
  pthread_mutex_lock(&fs->lock);
  n = find(fs, path);
  if (n == NULL) {
    not_found(status, path);
    *undeleted_dirs = 1;
  } else if (!n->is_dir) {
    unlink_node(fs, n);
    TF_SetStatus(status, TF_OK, "");
  } else {
    delete_below(fs, n);
    if (n == fs->root) {
      /* Everything below is gone; the root itself stays. */
      *undeleted_dirs = 1;
      wrong_kind(status, path, "the root cannot be deleted");
    } else {
      unlink_node(fs, n);
      TF_SetStatus(status, TF_OK, "");
    }
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
  ram_node* s;
  ram_node* d;
  ram_node* dir;
  const char* last;
  size_t len;
  char* name;
  pthread_mutex_lock(&fs->lock);
  s = find(fs, src);
  d = find(fs, dst);
  if (s == NULL) {
    not_found(status, src);
    goto out;
  }
  if (s == d) {
    TF_SetStatus(status, TF_OK, "");
    goto out;
  }
  if (s == fs->root || is_within(dst, src)) {
    wrong_kind(status, dst, "cannot move a directory into itself");
    goto out;
  }
  if (d != NULL) {
    if (d == fs->root || d->is_dir != s->is_dir) {
      wrong_kind(status, dst,
                 d->is_dir ? "Is a directory" : "Not a directory");
      goto out;
    }
    if (d->is_dir && d->nchildren > 0) {
      wrong_kind(status, dst, "Directory not empty");
      goto out;
    }
  }
  dir = parent_of(fs, dst, true, &last, &len, status);
  if (dir == NULL) goto out;
  name = (char*)malloc(len + 1);
  if (name == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto out;
  }
  memcpy(name, last, len);
  name[len] = '\0';
  /* Replace the destination, then move the source's node (and with it
   * everything below it) under its new name. */
  if (d != NULL) unlink_node(fs, d);
  detach_node(fs, s);
  free(s->name);
  link_node(fs, dir, s, name, len);
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
  ram_node* n;
  pthread_mutex_lock(&fs->lock);
  n = find(fs, path);
  if (n == NULL) {
    not_found(status, path);
  } else {
    stats->length = n->is_dir ? 0 : (int64_t)n->size;
    stats->mtime_nsec = n->mtime_nsec;
    stats->is_directory = n->is_dir;
    TF_SetStatus(status, TF_OK, "");
  }
  pthread_mutex_unlock(&fs->lock);
}

static int fs_get_children(const TF_Filesystem* filesystem, const char* path,
                           char*** entries, TF_Status* status) {
  ram_fs* fs = FS(filesystem);
  ram_node* dir;
  ram_node* c;
  size_t n = 0;
  int result = -1;
  char** out = NULL;
  *entries = NULL;
  pthread_mutex_lock(&fs->lock);
  dir = find(fs, path);
  if (dir == NULL) {
    not_found(status, path);
    goto done;
  }
  if (!dir->is_dir) {
    wrong_kind(status, path, "Not a directory");
    goto done;
  }
  if (dir->nchildren > (size_t)INT_MAX) {
    TF_SetStatus(status, TF_OUT_OF_RANGE, "too many entries to list");
    goto done;
  }
  /* The core sorts the names. */
  out = (char**)malloc((dir->nchildren + 1) * sizeof(char*));
  if (out == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  for (c = dir->first_child; c != NULL; c = c->next_sibling) {
    out[n] = dup_str(c->name);
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
  fs->delete_recursively = fs_delete_recursively;
  fs->rename_file = fs_rename;
  fs->path_exists = fs_path_exists;
  fs->stat = fs_stat;
  fs->translate_name = fs_translate;
  fs->get_children = fs_get_children;
}
