/* Glob patterns: matching one path segment, and the default
 * get_matching_paths that walks directories with get_children.
 *
 * Syntax (per segment, the whole name must match): '*' any run of
 * characters, '?' one character, "[abc]" / "[a-z]" a character in the set,
 * "[!...]" or "[^...]" one not in it, '\\' makes the next character
 * literal. '/' only separates segments. Unlike some TensorFlow versions, a
 * pattern below a missing directory simply matches nothing, as Python's
 * glob does.
 *
 * The walk is breadth-first, one pattern segment at a time, with each
 * level's candidates deduplicated; "." and ".." after the first wildcard
 * are resolved lexically on the candidates, so "d/x/../y/.." style
 * patterns stay linear instead of exponential. */
#include <string.h>

#include "core/alloc.h"
#include "fs/fs.h"
#include "fs/uri.h"

/* Matches a bracket expression starting after '['. Stores the position
 * after ']' in *end. Returns -1 if the expression is not terminated (the
 * '[' is then an ordinary character). */
static int match_set(const char* p, char c, const char** end) {
  bool negate = false, hit = false;
  const char* q = p;
  if (*q == '!' || *q == '^') {
    negate = true;
    q++;
  }
  /* A ']' right at the start belongs to the set. */
  if (*q == ']') {
    hit = c == ']';
    q++;
  }
  while (*q != '\0' && *q != ']') {
    char lo = *q, hi;
    if (lo == '\\' && q[1] != '\0') lo = *++q;
    q++;
    hi = lo;
    if (q[0] == '-' && q[1] != ']' && q[1] != '\0') {
      hi = q[1];
      if (hi == '\\' && q[2] != '\0') {
        hi = q[2];
        q++;
      }
      q += 2;
    }
    if ((unsigned char)c >= (unsigned char)lo &&
        (unsigned char)c <= (unsigned char)hi) {
      hit = true;
    }
  }
  if (*q != ']') return -1;
  *end = q + 1;
  return hit != negate;
}

/* Whether `name` matches the glob segment `pat` (both NUL-terminated). */
static bool seg_match(const char* pat, const char* name) {
  const char* star_p = NULL; /* pattern position after the last '*' */
  const char* star_n = NULL; /* name position that '*' is extended from */
  while (*name != '\0') {
    const char* next = NULL;
    int m;
    switch (*pat) {
      case '*':
        while (*pat == '*') pat++;
        if (*pat == '\0') return true;
        star_p = pat;
        star_n = name;
        continue;
      case '?':
        pat++;
        name++;
        continue;
      case '[':
        m = match_set(pat + 1, *name, &next);
        if (m == 1) {
          pat = next;
          name++;
          continue;
        }
        if (m == -1 && *name == '[') {
          pat++;
          name++;
          continue;
        }
        break;
      case '\\':
        if (pat[1] != '\0' && pat[1] == *name) {
          pat += 2;
          name++;
          continue;
        }
        if (pat[1] == '\0' && *name == '\\') {
          pat++;
          name++;
          continue;
        }
        break;
      case '\0':
        break;
      default:
        if (*pat == *name) {
          pat++;
          name++;
          continue;
        }
        break;
    }
    /* Mismatch: let the last '*' swallow one more character. */
    if (star_p == NULL) return false;
    pat = star_p;
    name = ++star_n;
  }
  while (*pat == '*') pat++;
  return *pat == '\0';
}

static bool has_wildcard(const char* seg) {
  for (; *seg; seg++) {
    if (*seg == '\\') {
      if (seg[1] == '\0') break;
      seg++;
      continue;
    }
    if (*seg == '*' || *seg == '?' || *seg == '[') return true;
  }
  return false;
}

/* A literal segment with its escapes removed (tfe_malloc'd). */
static char* unescape(const char* seg) {
  char* out = (char*)tfe_malloc(strlen(seg) + 1);
  size_t o = 0;
  if (out == NULL) return NULL;
  for (; *seg; seg++) {
    if (*seg == '\\' && seg[1] != '\0') seg++;
    out[o++] = *seg;
  }
  out[o] = '\0';
  return out;
}

/* The logical parent of candidate `c` ("x/.." collapsed): its last
 * component removed. A root stays itself, "" (the current directory of a
 * relative pattern) becomes "..", and a trailing ".." (which cannot be
 * collapsed) gets another "/..". tfe_malloc'd; NULL when out of memory. */
static char* logical_parent(const char* c) {
  tfe_uri u;
  const char* slash;
  const char* last;
  char* out;
  size_t keep;
  tfe_uri_parse(c, &u);
  if (u.path[0] == '\0') {
    return u.prefix_len == 0 ? tfe_strdup("..") : tfe_uri_join(c, "..");
  }
  slash = strrchr(u.path, '/');
  last = slash ? slash + 1 : u.path;
  if (*last == '\0') return tfe_strdup(c); /* the root */
  if (strcmp(last, "..") == 0 || strcmp(last, ".") == 0) {
    return tfe_uri_join(c, "..");
  }
  if (slash == NULL) return tfe_strdup(""); /* "a" -> the current dir */
  /* Keep the root's '/' ("/a" -> "/"), drop any other. */
  keep = (size_t)(slash - c) + (slash == u.path ? 1 : 0);
  out = (char*)tfe_malloc(keep + 1);
  if (out == NULL) return NULL;
  memcpy(out, c, keep);
  out[keep] = '\0';
  return out;
}

/* The directory to list or test for candidate `c` ("" is "."). */
static const char* as_path(const char* c) { return c[0] ? c : "."; }

/* Expands segments segs[0, nsegs) below `base` (a URI; "" means the
 * current directory of a relative local pattern), one level at a time,
 * like TensorFlow's breadth-first walk. Each level's candidate
 * directories are sorted and deduplicated, and "." / ".." segments after
 * the first wildcard are resolved logically ("a/.." is the directory
 * holding "a"), so repeated "* /.." stays linear instead of multiplying
 * the candidates by the fan-out at every step. Returns false only when
 * out of memory. */
static bool expand_levels(char** segs, size_t nsegs, const char* base,
                          tfe_strvec* out) {
  tfe_strvec cur = {NULL, 0, 0}, next = {NULL, 0, 0}, kids = {NULL, 0, 0};
  TF_Status st;
  size_t k, i, j;
  bool ok = tfe_strvec_push(&cur, base) == 0;
  tfe_scratch_init(&st);
  for (k = 0; ok && k < nsegs && cur.count > 0; k++) {
    const char* seg = segs[k];
    bool last = k + 1 == nsegs;
    bool wild = has_wildcard(seg);
    char* lit = wild ? NULL : unescape(seg);
    if (!wild && lit == NULL) {
      ok = false;
      break;
    }
    for (i = 0; ok && i < cur.count; i++) {
      const char* c = cur.items[i];
      if (!wild) {
        char* cand;
        if (strcmp(lit, ".") == 0) {
          cand = tfe_strdup(c);
        } else if (strcmp(lit, "..") == 0) {
          cand = logical_parent(c);
        } else {
          cand = tfe_uri_join(c, lit);
        }
        if (cand == NULL) {
          ok = false;
          break;
        }
        if (last) {
          tfe_fs_exists(as_path(cand), &st);
          if (st.code == TF_OK) {
            ok = tfe_strvec_push(out, as_path(cand)) == 0;
          }
          tfe_free(cand);
        } else if (tfe_fs_is_directory(as_path(cand), &st)) {
          ok = tfe_strvec_take(&next, cand) == 0;
        } else {
          tfe_free(cand);
        }
        continue;
      }
      /* A missing or unreadable directory simply has no matches. */
      tfe_fs_children(as_path(c), &kids, &st);
      for (j = 0; ok && j < kids.count; j++) {
        char* cand;
        if (!seg_match(seg, kids.items[j])) continue;
        cand = tfe_uri_join(c, kids.items[j]);
        if (cand == NULL) {
          ok = false;
          break;
        }
        if (last) {
          ok = tfe_strvec_take(out, cand) == 0;
        } else if (tfe_fs_is_directory(cand, &st)) {
          ok = tfe_strvec_take(&next, cand) == 0;
        } else {
          tfe_free(cand);
        }
      }
      tfe_strvec_free(&kids);
    }
    tfe_free(lit);
    tfe_strvec_free(&cur);
    tfe_strvec_sort_unique(&next);
    cur = next;
    next.items = NULL;
    next.count = next.cap = 0;
  }
  tfe_strvec_free(&cur);
  tfe_strvec_free(&next);
  tfe_scratch_release(&st);
  return ok;
}

/* The default get_matching_paths, at the URI level. */
static void glob_default(const char* pattern, tfe_strvec* out,
                         TF_Status* status) {
  tfe_uri u;
  char* copy;
  char* base;
  char** segs;
  size_t nsegs = 0, first_wild, i, plen, base_len;
  bool rooted;
  tfe_uri_parse(pattern, &u);
  if (!has_wildcard(u.path)) {
    /* A plain path (escapes removed) matches itself if it exists. */
    TF_Status st;
    char* lit = unescape(u.path);
    char* full = lit ? (char*)tfe_malloc(u.prefix_len + strlen(lit) + 1) : NULL;
    if (full == NULL) {
      tfe_free(lit);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in glob");
      return;
    }
    memcpy(full, pattern, u.prefix_len);
    strcpy(full + u.prefix_len, lit);
    tfe_free(lit);
    tfe_scratch_init(&st);
    tfe_fs_exists(full, &st);
    if (st.code == TF_OK && tfe_strvec_take(out, full) != 0) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in glob");
    } else if (st.code != TF_OK) {
      tfe_free(full);
    }
    tfe_scratch_release(&st);
    return;
  }
  plen = strlen(u.path);
  copy = tfe_strdup(u.path);
  segs = (char**)tfe_calloc(plen / 2 + 2, sizeof(char*));
  if (copy == NULL || segs == NULL) {
    tfe_free(copy);
    tfe_free(segs);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in glob");
    return;
  }
  rooted = copy[0] == '/';
  /* Split on '/', dropping empty segments. */
  for (i = 0; i <= plen; i++) {
    if (copy[i] == '/' || copy[i] == '\0') {
      copy[i] = '\0';
    } else if (i == 0 || copy[i - 1] == '\0') {
      segs[nsegs++] = copy + i;
    }
  }
  first_wild = 0;
  while (first_wild < nsegs && !has_wildcard(segs[first_wild])) first_wild++;
  /* The literal part before the first wildcard is the starting directory. */
  base_len = u.prefix_len + plen + 2;
  base = (char*)tfe_malloc(base_len);
  if (base == NULL) {
    tfe_free(copy);
    tfe_free(segs);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in glob");
    return;
  }
  memcpy(base, pattern, u.prefix_len);
  base[u.prefix_len] = '\0';
  if (rooted || u.prefix_len > 0) strcat(base, "/");
  for (i = 0; i < first_wild; i++) {
    char* lit = unescape(segs[i]);
    if (lit == NULL) break;
    if (i > 0) strcat(base, "/");
    strcat(base, lit);
    tfe_free(lit);
  }
  if (i != first_wild ||
      !expand_levels(segs + first_wild, nsegs - first_wild, base, out)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in glob");
  }
  tfe_free(base);
  tfe_free(copy);
  tfe_free(segs);
}

void tfe_fs_glob(const char* pattern, tfe_strvec* out, TF_Status* status) {
  const tfe_fs* fs;
  tfe_strvec_free(out);
  fs = tfe_fs_for_uri(pattern, status);
  if (fs == NULL) return;
  tfe_status_ok(status);
  if (fs->ops.get_matching_paths != NULL) {
    char** entries = NULL;
    char* path = tfe_fs_translate(fs, pattern, status);
    int i, n;
    if (path == NULL) return;
    n = fs->ops.get_matching_paths(&fs->filesystem, path, &entries, status);
    tfe_free(path);
    if (TF_GetCode(status) != TF_OK) return;
    for (i = 0; i < n && entries != NULL; i++) {
      if (entries[i] == NULL) continue;
      if (tfe_strvec_push(out, entries[i]) != 0) {
        tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in glob");
      }
      fs->plugin_free(entries[i]);
    }
    if (entries != NULL) fs->plugin_free(entries);
  } else {
    glob_default(pattern, out, status);
  }
  if (TF_GetCode(status) != TF_OK) {
    tfe_strvec_free(out);
    return;
  }
  tfe_strvec_sort_unique(out);
}
