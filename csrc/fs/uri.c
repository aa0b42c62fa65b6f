/* URI parsing and lexical path cleaning (no filesystem access). */
#include "fs/uri.h"

#include <string.h>

#include "core/alloc.h"

static bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Length of a valid scheme at the start of s, or 0. */
static size_t scheme_span(const char* s) {
  size_t i = 0;
  if (!is_alpha(s[0])) return 0;
  for (i = 1; is_alpha(s[i]) || is_digit(s[i]) || s[i] == '.'; i++) {
  }
  return i;
}

bool tfe_scheme_is_valid(const char* s) {
  size_t n;
  if (s == NULL) return false;
  if (s[0] == '\0') return true;
  n = scheme_span(s);
  return n > 0 && s[n] == '\0';
}

void tfe_uri_parse(const char* uri, tfe_uri* out) {
  size_t n = scheme_span(uri);
  const char* host;
  const char* slash;
  if (n == 0 || strncmp(uri + n, "://", 3) != 0) {
    out->scheme = uri;
    out->scheme_len = 0;
    out->host = uri;
    out->host_len = 0;
    out->path = uri;
    out->prefix_len = 0;
    return;
  }
  out->scheme = uri;
  out->scheme_len = n;
  host = uri + n + 3;
  slash = strchr(host, '/');
  out->host = host;
  out->host_len = slash ? (size_t)(slash - host) : strlen(host);
  out->path = host + out->host_len;
  out->prefix_len = (size_t)(out->path - uri);
}

char* tfe_path_clean(const char* path, size_t len) {
  /* The result is never longer than the input plus one character. */
  char* out = (char*)tfe_malloc(len + 2);
  size_t o = 0, i = 0;
  /* Number of leading ".." components kept in a relative path: those can
   * never be popped. */
  size_t floor_len;
  bool rooted = len > 0 && path[0] == '/';
  if (out == NULL) return NULL;
  if (rooted) out[o++] = '/';
  floor_len = o;
  while (i < len) {
    size_t start, seg;
    while (i < len && path[i] == '/') i++;
    start = i;
    while (i < len && path[i] != '/') i++;
    seg = i - start;
    if (seg == 0 || (seg == 1 && path[start] == '.')) continue;
    if (seg == 2 && path[start] == '.' && path[start + 1] == '.') {
      if (o > floor_len) {
        /* Drop the last component and the '/' before it. */
        size_t q = o;
        while (q > floor_len && out[q - 1] != '/') q--;
        if (q > floor_len) q--;
        o = q;
        continue;
      }
      if (rooted) continue; /* "/.." is "/" */
      if (o > 0) out[o++] = '/';
      out[o++] = '.';
      out[o++] = '.';
      floor_len = o;
      continue;
    }
    if (o > 0 && out[o - 1] != '/') out[o++] = '/';
    memcpy(out + o, path + start, seg);
    o += seg;
  }
  if (o == 0) out[o++] = '.';
  out[o] = '\0';
  return out;
}

char* tfe_uri_join(const char* uri, const char* name) {
  tfe_uri u;
  size_t keep = strlen(uri), ln = strlen(name);
  char* out;
  if (keep == 0) return tfe_strdup(name);
  tfe_uri_parse(uri, &u);
  /* Drop trailing '/' but keep a root '/' right after the prefix. */
  while (keep > u.prefix_len + 1 && uri[keep - 1] == '/') keep--;
  out = (char*)tfe_malloc(keep + ln + 2);
  if (out == NULL) return NULL;
  memcpy(out, uri, keep);
  if (keep == u.prefix_len || out[keep - 1] != '/') out[keep++] = '/';
  memcpy(out + keep, name, ln + 1);
  return out;
}

const char* tfe_path_basename(const char* path) {
  const char* slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}
