/* Core filesystem operations on URIs: find the filesystem for the scheme,
 * translate the name, call the operation from the core's copy of the
 * plugin's table, or fall back to the default the ABI documents. */
#include <string.h>

#include "core/alloc.h"
#include "fs/fs.h"
#include "fs/uri.h"

/* Size of the chunks a streamed copy moves at a time. */
#define COPY_CHUNK (1u << 20)

void tfe_fs_unimplemented(const tfe_fs* fs, const char* op, const char* uri,
                          TF_Status* status) {
  if (uri != NULL) {
    tfe_status_setf(status, TF_UNIMPLEMENTED,
                    "filesystem for scheme '%s' (%s) does not implement the "
                    "`%s` operation (path '%s')",
                    fs->scheme, fs->origin, op, uri);
  } else {
    tfe_status_setf(status, TF_UNIMPLEMENTED,
                    "filesystem for scheme '%s' (%s) does not implement the "
                    "`%s` operation",
                    fs->scheme, fs->origin, op);
  }
}

char* tfe_fs_translate(const tfe_fs* fs, const char* uri, TF_Status* status) {
  char* out;
  if (fs->ops.translate_name != NULL) {
    char* p = fs->ops.translate_name(&fs->filesystem, uri);
    if (p == NULL) {
      tfe_status_setf(status, TF_INTERNAL,
                      "filesystem for scheme '%s' (%s): translate_name "
                      "returned NULL for '%s'",
                      fs->scheme, fs->origin, uri);
      return NULL;
    }
    out = tfe_strdup(p);
    fs->plugin_free(p);
  } else if (uri[0] == '\0') {
    out = tfe_strdup("");
  } else {
    tfe_uri u;
    tfe_uri_parse(uri, &u);
    out = u.path[0] == '\0' ? tfe_strdup("/")
                            : tfe_path_clean(u.path, strlen(u.path));
  }
  if (out == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory translating '%s'", uri);
  }
  return out;
}

/* A URI resolved to its filesystem and translated path. */
typedef struct resolved {
  const tfe_fs* fs;
  char* path;
} resolved;

static bool resolve(const char* uri, resolved* r, TF_Status* status) {
  r->path = NULL;
  r->fs = tfe_fs_for_uri(uri, status);
  if (r->fs == NULL) return false;
  r->path = tfe_fs_translate(r->fs, uri, status);
  return r->path != NULL;
}

/* ------------------------------------------------------------ simple ops */

#define SIMPLE_PATH_OP(fn, field)                                          \
  void fn(const char* uri, TF_Status* status) {                            \
    resolved r;                                                            \
    if (!resolve(uri, &r, status)) return;                                 \
    if (r.fs->ops.field == NULL) {                                         \
      tfe_fs_unimplemented(r.fs, #field, uri, status);                     \
    } else {                                                               \
      tfe_status_ok(status);                                               \
      r.fs->ops.field(&r.fs->filesystem, r.path, status);                  \
    }                                                                      \
    tfe_free(r.path);                                                      \
  }

SIMPLE_PATH_OP(tfe_fs_create_dir, create_dir)
SIMPLE_PATH_OP(tfe_fs_delete_file, delete_file)
SIMPLE_PATH_OP(tfe_fs_delete_dir, delete_dir)

static void stat_resolved(const resolved* r, const char* uri,
                          TF_FileStatistics* stats, TF_Status* status) {
  TF_FileStatistics local;
  if (r->fs->ops.stat == NULL) {
    tfe_fs_unimplemented(r->fs, "stat", uri, status);
    return;
  }
  memset(&local, 0, sizeof local);
  tfe_status_ok(status);
  r->fs->ops.stat(&r->fs->filesystem, r->path, &local, status);
  if (TF_GetCode(status) == TF_OK) *stats = local;
}

void tfe_fs_stat(const char* uri, TF_FileStatistics* stats,
                 TF_Status* status) {
  resolved r;
  if (!resolve(uri, &r, status)) return;
  stat_resolved(&r, uri, stats, status);
  tfe_free(r.path);
}

void tfe_fs_exists(const char* uri, TF_Status* status) {
  resolved r;
  if (!resolve(uri, &r, status)) return;
  if (r.fs->ops.path_exists != NULL) {
    tfe_status_ok(status);
    r.fs->ops.path_exists(&r.fs->filesystem, r.path, status);
  } else if (r.fs->ops.stat != NULL) {
    TF_FileStatistics st;
    stat_resolved(&r, uri, &st, status);
  } else {
    tfe_fs_unimplemented(r.fs, "path_exists", uri, status);
  }
  tfe_free(r.path);
}

bool tfe_fs_is_directory(const char* uri, TF_Status* status) {
  resolved r;
  bool dir = false;
  if (!resolve(uri, &r, status)) return false;
  if (r.fs->ops.is_directory != NULL) {
    tfe_status_ok(status);
    dir = r.fs->ops.is_directory(&r.fs->filesystem, r.path, status);
    if (TF_GetCode(status) != TF_OK) dir = false;
  } else {
    TF_FileStatistics st;
    memset(&st, 0, sizeof st);
    stat_resolved(&r, uri, &st, status);
    dir = TF_GetCode(status) == TF_OK && st.is_directory;
  }
  tfe_free(r.path);
  return dir;
}

int64_t tfe_fs_file_size(const char* uri, TF_Status* status) {
  resolved r;
  int64_t size = -1;
  if (!resolve(uri, &r, status)) return -1;
  if (r.fs->ops.get_file_size != NULL) {
    tfe_status_ok(status);
    size = r.fs->ops.get_file_size(&r.fs->filesystem, r.path, status);
  } else {
    TF_FileStatistics st;
    memset(&st, 0, sizeof st);
    stat_resolved(&r, uri, &st, status);
    if (TF_GetCode(status) == TF_OK) {
      if (st.is_directory) {
        tfe_status_setf(status, TF_FAILED_PRECONDITION,
                        "'%s' is a directory", uri);
      } else {
        size = st.length;
      }
    }
  }
  tfe_free(r.path);
  return TF_GetCode(status) == TF_OK ? size : -1;
}

/* Moves a plugin-allocated array of `n` strings into `out`, releasing the
 * plugin's memory. Skips "." and "..". */
static void take_plugin_strings(const tfe_fs* fs, char** entries, int n,
                                tfe_strvec* out, TF_Status* status) {
  int i;
  bool ok = true;
  for (i = 0; i < n; i++) {
    char* e = entries[i];
    if (e == NULL) continue;
    if (ok && strcmp(e, ".") != 0 && strcmp(e, "..") != 0) {
      ok = tfe_strvec_push(out, e) == 0;
    }
    fs->plugin_free(e);
  }
  if (entries != NULL) fs->plugin_free(entries);
  if (!ok) {
    tfe_strvec_free(out);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
  }
}

static void children_resolved(const resolved* r, const char* uri,
                              tfe_strvec* out, TF_Status* status) {
  char** entries = NULL;
  int n;
  tfe_strvec_free(out);
  if (r->fs->ops.get_children == NULL) {
    tfe_fs_unimplemented(r->fs, "get_children", uri, status);
    return;
  }
  tfe_status_ok(status);
  n = r->fs->ops.get_children(&r->fs->filesystem, r->path, &entries, status);
  if (TF_GetCode(status) != TF_OK) return;
  if (n < 0 || (n > 0 && entries == NULL)) {
    tfe_status_setf(status, TF_INTERNAL,
                    "filesystem for scheme '%s' (%s): get_children returned "
                    "%d without an error for '%s'",
                    r->fs->scheme, r->fs->origin, n, uri);
    return;
  }
  take_plugin_strings(r->fs, entries, n, out, status);
  if (TF_GetCode(status) == TF_OK) tfe_strvec_sort_unique(out);
}

void tfe_fs_children(const char* uri, tfe_strvec* out, TF_Status* status) {
  resolved r;
  tfe_strvec_free(out);
  if (!resolve(uri, &r, status)) return;
  children_resolved(&r, uri, out, status);
  tfe_free(r.path);
}

/* ------------------------------------------------ recursive create/delete */

void tfe_fs_recursively_create_dir(const char* uri, TF_Status* status) {
  resolved r;
  tfe_uri u;
  char* clean;
  size_t i, n;
  if (!resolve(uri, &r, status)) return;
  if (r.fs->ops.recursively_create_dir != NULL) {
    tfe_status_ok(status);
    r.fs->ops.recursively_create_dir(&r.fs->filesystem, r.path, status);
    tfe_free(r.path);
    return;
  }
  tfe_free(r.path);
  /* Default: create each missing component, from the top. */
  tfe_uri_parse(uri, &u);
  clean = tfe_path_clean(u.path, strlen(u.path));
  if (clean == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  n = strlen(clean);
  for (i = 1; i <= n; i++) {
    char* part;
    TF_FileStatistics st;
    if (i < n && clean[i] != '/') continue;
    part = (char*)tfe_malloc(u.prefix_len + i + 1);
    if (part == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      break;
    }
    memcpy(part, uri, u.prefix_len);
    memcpy(part + u.prefix_len, clean, i);
    part[u.prefix_len + i] = '\0';
    memset(&st, 0, sizeof st);
    tfe_fs_stat(part, &st, status);
    if (TF_GetCode(status) == TF_OK) {
      if (!st.is_directory) {
        tfe_status_setf(status, TF_FAILED_PRECONDITION,
                        "cannot create directory '%s': '%s' exists and is "
                        "not a directory",
                        uri, part);
      }
    } else if (TF_GetCode(status) == TF_NOT_FOUND) {
      tfe_fs_create_dir(part, status);
      /* Someone else may have created it meanwhile. */
      if (TF_GetCode(status) == TF_ALREADY_EXISTS) tfe_status_ok(status);
    }
    tfe_free(part);
    if (TF_GetCode(status) != TF_OK) break;
  }
  tfe_free(clean);
}

/* Records the first error of a recursive delete in `first`. */
static void keep_first(TF_Status* first, const TF_Status* now) {
  if (first->code == TF_OK && now->code != TF_OK) tfe_status_copy(first, now);
}

/* A directory of the default recursive delete: the length of its URI in
 * the shared path buffer and its children still to visit. */
typedef struct walk_frame {
  size_t uri_len;
  tfe_strvec kids;
  size_t next;
} walk_frame;

/* Lists directory buf[0, len) into a new frame. False (with the error
 * recorded) when it cannot be listed. */
static bool push_dir(walk_frame** stack, size_t* depth, size_t* cap,
                     const char* buf, size_t len, TF_Status* first) {
  TF_Status st;
  walk_frame* f;
  if (*depth == *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    walk_frame* grown = (walk_frame*)tfe_realloc(*stack, nc * sizeof(*grown));
    if (grown == NULL) {
      tfe_scratch_init(&st);
      tfe_status_setf(&st, TF_RESOURCE_EXHAUSTED, "out of memory");
      keep_first(first, &st);
      tfe_scratch_release(&st);
      return false;
    }
    *stack = grown;
    *cap = nc;
  }
  f = &(*stack)[*depth];
  memset(f, 0, sizeof(*f));
  f->uri_len = len;
  tfe_scratch_init(&st);
  tfe_fs_children(buf, &f->kids, &st);
  if (st.code != TF_OK) {
    keep_first(first, &st);
    tfe_strvec_free(&f->kids);
    tfe_scratch_release(&st);
    return false;
  }
  tfe_scratch_release(&st);
  (*depth)++;
  return true;
}

/* Deletes directory `uri` and everything below it through the plugin's
 * path operations, leaves first. Iterative: one path buffer that grows
 * and shrinks with the walk, and one frame per level holding that
 * level's remaining children, so memory stays linear in the depth plus
 * the widest listing. */
static void delete_tree(const char* uri, uint64_t* files, uint64_t* dirs,
                        TF_Status* first) {
  tfe_uri u;
  walk_frame* stack = NULL;
  size_t depth = 0, cap = 0, len = strlen(uri), bcap;
  char* buf;
  TF_Status st;
  tfe_uri_parse(uri, &u);
  /* Without trailing '/', every child's URI extends its parent's. */
  while (len > u.prefix_len + 1 && uri[len - 1] == '/') len--;
  bcap = len + 256;
  buf = (char*)tfe_malloc(bcap);
  tfe_scratch_init(&st);
  if (buf == NULL) {
    tfe_status_setf(&st, TF_RESOURCE_EXHAUSTED, "out of memory");
    keep_first(first, &st);
    (*dirs)++;
    tfe_scratch_release(&st);
    return;
  }
  memcpy(buf, uri, len);
  buf[len] = '\0';
  if (!push_dir(&stack, &depth, &cap, buf, len, first)) {
    (*dirs)++;
    depth = 0;
  }
  while (depth > 0) {
    walk_frame* top = &stack[depth - 1];
    size_t plen = top->uri_len;
    if (top->next < top->kids.count) {
      const char* name = top->kids.items[top->next++];
      size_t nlen = strlen(name), clen;
      bool slash = plen > 0 && (plen == u.prefix_len || buf[plen - 1] != '/');
      clen = plen + (slash ? 1 : 0) + nlen;
      if (clen + 1 > bcap) {
        size_t nc = bcap;
        char* grown;
        while (nc < clen + 1) nc *= 2;
        grown = (char*)tfe_realloc(buf, nc);
        if (grown == NULL) {
          tfe_status_setf(&st, TF_RESOURCE_EXHAUSTED, "out of memory");
          keep_first(first, &st);
          (*files)++;
          continue;
        }
        buf = grown;
        bcap = nc;
      }
      if (slash) buf[plen] = '/';
      memcpy(buf + plen + (slash ? 1 : 0), name, nlen + 1);
      if (tfe_fs_is_directory(buf, &st)) {
        if (!push_dir(&stack, &depth, &cap, buf, clen, first)) (*dirs)++;
      } else {
        tfe_fs_delete_file(buf, &st);
        if (st.code != TF_OK) {
          keep_first(first, &st);
          (*files)++;
        }
      }
      continue;
    }
    /* Every child is handled: delete the directory itself. */
    buf[plen] = '\0';
    tfe_fs_delete_dir(buf, &st);
    if (st.code != TF_OK) {
      keep_first(first, &st);
      (*dirs)++;
    }
    tfe_strvec_free(&top->kids);
    depth--;
  }
  tfe_free(stack);
  tfe_free(buf);
  tfe_scratch_release(&st);
}

void tfe_fs_delete_recursively(const char* uri, int64_t* undeleted_files,
                               int64_t* undeleted_dirs, TF_Status* status) {
  resolved r;
  uint64_t files = 0, dirs = 0;
  TF_FileStatistics st;
  if (!resolve(uri, &r, status)) {
    files = 0;
    dirs = 1;
    goto done;
  }
  if (r.fs->ops.delete_recursively != NULL) {
    tfe_status_ok(status);
    r.fs->ops.delete_recursively(&r.fs->filesystem, r.path, &files, &dirs,
                                 status);
    tfe_free(r.path);
    goto done;
  }
  /* Default: walk the tree, deleting leaves first. */
  memset(&st, 0, sizeof st);
  stat_resolved(&r, uri, &st, status);
  tfe_free(r.path);
  if (TF_GetCode(status) != TF_OK) {
    dirs = 1;
    goto done;
  }
  if (!st.is_directory) {
    tfe_fs_delete_file(uri, status);
    if (TF_GetCode(status) != TF_OK) files = 1;
    goto done;
  }
  {
    TF_Status first;
    tfe_scratch_init(&first);
    delete_tree(uri, &files, &dirs, &first);
    tfe_status_copy(status, &first);
    tfe_scratch_release(&first);
  }
done:
  if (undeleted_files != NULL) *undeleted_files = (int64_t)files;
  if (undeleted_dirs != NULL) *undeleted_dirs = (int64_t)dirs;
}

/* ---------------------------------------------------------- copy, rename */

/* Copies by streaming src into dst through the file tables. */
static void stream_copy(const char* src, const char* dst, TF_Status* status) {
  tfe_raf* in;
  TF_WritableFileHandle* out;
  char* buf;
  uint64_t offset = 0;
  bool eof = false;
  in = tfe_fs_open_raf(src, status);
  if (in == NULL) return;
  buf = (char*)tfe_malloc(COPY_CHUNK);
  if (buf == NULL) {
    tfe_fs_raf_release(in);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory copying '%s'", src);
    return;
  }
  out = tfe_fs_open_writable(dst, false, status);
  if (out == NULL) {
    tfe_free(buf);
    tfe_fs_raf_release(in);
    return;
  }
  while (!eof) {
    int64_t n = tfe_fs_raf_read(in, offset, COPY_CHUNK, buf, status);
    if (TF_GetCode(status) == TF_OUT_OF_RANGE) {
      eof = true;
      tfe_status_ok(status);
    } else if (TF_GetCode(status) != TF_OK) {
      break;
    }
    if (n > 0) {
      tfe_status_ok(status);
      out->fs->wf_ops.append(&out->file, buf, (size_t)n, status);
      if (TF_GetCode(status) != TF_OK) break;
      offset += (uint64_t)n;
    } else if (n == 0) {
      eof = true;
    }
  }
  if (TF_GetCode(status) == TF_OK) {
    tfe_fs_writable_release(out, true, status);
  } else {
    TF_Status ignored;
    tfe_scratch_init(&ignored);
    tfe_fs_writable_release(out, true, &ignored);
    tfe_scratch_release(&ignored);
  }
  tfe_free(buf);
  tfe_fs_raf_release(in);
}

void tfe_fs_copy(const char* src, const char* dst, TF_Status* status) {
  resolved rs, rd;
  char* target = NULL;
  TF_Status probe;
  if (!resolve(src, &rs, status)) return;
  /* A directory destination receives a file named like the source. */
  tfe_scratch_init(&probe);
  if (tfe_fs_is_directory(dst, &probe)) {
    target = tfe_uri_join(dst, tfe_path_basename(rs.path));
    if (target == NULL) {
      tfe_scratch_release(&probe);
      tfe_free(rs.path);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
    dst = target;
  }
  tfe_scratch_release(&probe);
  if (!resolve(dst, &rd, status)) {
    tfe_free(rs.path);
    tfe_free(target);
    return;
  }
  if (rs.fs == rd.fs && strcmp(rs.path, rd.path) == 0) {
    TF_FileStatistics st;
    stat_resolved(&rs, src, &st, status);
    if (TF_GetCode(status) == TF_OK) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "cannot copy '%s' onto itself ('%s')", src, dst);
    }
  } else if (rs.fs == rd.fs && rs.fs->ops.copy_file != NULL) {
    tfe_status_ok(status);
    rs.fs->ops.copy_file(&rs.fs->filesystem, rs.path, rd.path, status);
  } else {
    stream_copy(src, dst, status);
  }
  tfe_free(rs.path);
  tfe_free(rd.path);
  tfe_free(target);
}

void tfe_fs_rename(const char* src, const char* dst, TF_Status* status) {
  resolved rs, rd;
  if (!resolve(src, &rs, status)) return;
  if (!resolve(dst, &rd, status)) {
    tfe_free(rs.path);
    return;
  }
  if (rs.fs != rd.fs) {
    tfe_status_setf(status, TF_UNIMPLEMENTED,
                    "Renaming '%s' to '%s' not implemented: they are on "
                    "different filesystems (copy, then delete the source)",
                    src, dst);
  } else if (rs.fs->ops.rename_file != NULL) {
    tfe_status_ok(status);
    rs.fs->ops.rename_file(&rs.fs->filesystem, rs.path, rd.path, status);
  } else {
    /* Default: copy, then delete the source. */
    tfe_fs_copy(src, dst, status);
    if (TF_GetCode(status) == TF_OK) tfe_fs_delete_file(src, status);
  }
  tfe_free(rs.path);
  tfe_free(rd.path);
}
