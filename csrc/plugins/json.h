/* A tiny JSON writer for the introspection functions of tfe/plugins.h.
 * Header-only (static inline). Values are appended to a growable buffer;
 * the caller writes separators itself with tfe_json_sep. The first
 * allocation failure sets `oom` and later writes do nothing. */
#ifndef TFE_PLUGINS_JSON_H_
#define TFE_PLUGINS_JSON_H_

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/pb.h"
#include "ops/proto_encode.h"

typedef tfe_pbw tfe_json;

static inline void tfe_json_raw(tfe_json* j, const char* s) {
  tfe_pbw_bytes(j, s, strlen(s));
}

static inline void tfe_json_fmt(tfe_json* j, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline void tfe_json_fmt(tfe_json* j, const char* fmt, ...) {
  char buf[256];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n > 0) tfe_pbw_bytes(j, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* The length (1 to 4) of the well-formed UTF-8 sequence starting at p, or
 * 0 when there is none there (a stray continuation byte, a sequence cut
 * short by another byte or the terminating NUL, an overlong form, a
 * surrogate, a code point past U+10FFFF). Never reads past a NUL. */
static inline size_t tfe_json_utf8_len(const unsigned char* p) {
  unsigned c = p[0], lo, hi;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return (p[1] & 0xc0) == 0x80 ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    lo = c == 0xe0 ? 0xa0 : 0x80;
    hi = c == 0xed ? 0x9f : 0xbf;
    return p[1] >= lo && p[1] <= hi && (p[2] & 0xc0) == 0x80 ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    lo = c == 0xf0 ? 0x90 : 0x80;
    hi = c == 0xf4 ? 0x8f : 0xbf;
    return p[1] >= lo && p[1] <= hi && (p[2] & 0xc0) == 0x80 &&
                   (p[3] & 0xc0) == 0x80
               ? 4
               : 0;
  }
  return 0;
}

/* A JSON string (NULL becomes null). JSON text is UTF-8, but the strings
 * come from plugins, which may hand over any bytes: each byte that does
 * not start a well-formed UTF-8 sequence becomes U+FFFD. */
static inline void tfe_json_str(tfe_json* j, const char* s) {
  const unsigned char* p;
  if (s == NULL) {
    tfe_json_raw(j, "null");
    return;
  }
  tfe_json_raw(j, "\"");
  for (p = (const unsigned char*)s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      char e[3] = {'\\', (char)*p, 0};
      tfe_json_raw(j, e);
    } else if (*p < 0x20) {
      tfe_json_fmt(j, "\\u%04x", *p);
    } else {
      size_t n = tfe_json_utf8_len(p);
      if (n == 0) {
        tfe_json_raw(j, "\\ufffd");
      } else {
        tfe_pbw_bytes(j, p, n);
        p += n - 1;
      }
    }
  }
  tfe_json_raw(j, "\"");
}

/* "key": */
static inline void tfe_json_key(tfe_json* j, const char* key) {
  tfe_json_str(j, key);
  tfe_json_raw(j, ": ");
}

/* ", " before every element but the first. */
static inline void tfe_json_sep(tfe_json* j, int* first) {
  if (!*first) tfe_json_raw(j, ", ");
  *first = 0;
}

#endif /* TFE_PLUGINS_JSON_H_ */
