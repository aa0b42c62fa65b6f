/* Parsing TF device names ("/job:localhost/replica:0/task:0/device:CPU:0",
 * "/device:CPU:1", "/cpu:0", "CPU:0", ...) and matching them to devices. */
#include <stdlib.h>
#include <string.h>

#include "devices/device.h"

static int is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Consumes a decimal number (no sign, fits in int). */
static int take_number(const char** p, int* out) {
  const char* s = *p;
  long v = 0;
  if (!is_digit(*s)) return 0;
  while (is_digit(*s)) {
    v = v * 10 + (*s - '0');
    if (v > 1000000000L) return 0;
    s++;
  }
  *p = s;
  *out = (int)v;
  return 1;
}

/* Consumes an identifier [A-Za-z][A-Za-z0-9_]* into buf (cap bytes). */
static int take_ident(const char** p, char* buf, size_t cap) {
  const char* s = *p;
  size_t n = 0;
  if (!is_letter(*s)) return 0;
  while (is_letter(s[n]) || is_digit(s[n]) || s[n] == '_') n++;
  if (n >= cap) return 0;
  memcpy(buf, s, n);
  buf[n] = '\0';
  *p = s + n;
  return 1;
}

static int starts(const char* s, const char* prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ":ID", ":*" or nothing after a type. */
static int take_id(const char** p, tfe_device_spec* out) {
  const char* s = *p;
  if (*s != ':') {
    out->has_id = 0;
    return 1;
  }
  s++;
  if (*s == '*') {
    out->has_id = 0;
    *p = s + 1;
    return 1;
  }
  if (!take_number(&s, &out->id)) return 0;
  out->has_id = 1;
  *p = s;
  return 1;
}

static void upcase(char* s) {
  for (; *s; s++) {
    if (*s >= 'a' && *s <= 'z') *s = (char)(*s - 'a' + 'A');
  }
}

/* "TYPE:ID" with TYPE given in upper case, or legacy "cpu:N"/"gpu:N". */
static int take_type_and_id(const char** p, tfe_device_spec* out) {
  const char* s = *p;
  if (!take_ident(&s, out->type, sizeof(out->type))) return 0;
  if (strcmp(out->type, "cpu") == 0 || strcmp(out->type, "gpu") == 0) {
    upcase(out->type);
  }
  out->has_type = 1;
  if (*s != ':') return 0; /* a bare word is not a device */
  if (!take_id(&s, out)) return 0;
  *p = s;
  return 1;
}

int tfe_device_spec_parse(const char* name, tfe_device_spec* out) {
  const char* s = name;
  if (out == NULL || name == NULL) return 0;
  memset(out, 0, sizeof(*out));
  if (*s == '\0') return 1;
  if (*s != '/') {
    /* Local name: "CPU:0", "cpu:0", "device:CPU:0". */
    if (starts(s, "device:")) {
      s += 7;
      if (!take_ident(&s, out->type, sizeof(out->type))) return 0;
      out->has_type = 1;
      if (!take_id(&s, out)) return 0;
    } else if (!take_type_and_id(&s, out)) {
      return 0;
    }
    return *s == '\0';
  }
  while (*s == '/') {
    s++;
    if (*s == '\0') break; /* trailing slash */
    if (starts(s, "job:")) {
      s += 4;
      if (out->has_job) return 0;
      if (!take_ident(&s, out->job, sizeof(out->job))) return 0;
      out->has_job = 1;
    } else if (starts(s, "replica:")) {
      s += 8;
      if (out->has_replica || !take_number(&s, &out->replica)) return 0;
      out->has_replica = 1;
    } else if (starts(s, "task:")) {
      s += 5;
      if (out->has_task || !take_number(&s, &out->task)) return 0;
      out->has_task = 1;
    } else if (starts(s, "device:")) {
      s += 7;
      if (out->has_type) return 0;
      if (*s == '*') {
        s++; /* "/device:*": any type */
        if (!take_id(&s, out)) return 0;
      } else {
        if (!take_ident(&s, out->type, sizeof(out->type))) return 0;
        out->has_type = 1;
        if (!take_id(&s, out)) return 0;
      }
    } else {
      if (out->has_type) return 0;
      if (!take_type_and_id(&s, out)) return 0;
    }
    if (*s != '/' && *s != '\0') return 0;
  }
  return *s == '\0';
}

int tfe_device_spec_is_empty(const tfe_device_spec* spec) {
  return !spec->has_job && !spec->has_replica && !spec->has_task &&
         !spec->has_type && !spec->has_id;
}

int tfe_device_spec_matches(const tfe_device_spec* spec, const tfe_device* d) {
  if (spec->has_job && strcmp(spec->job, "localhost") != 0) return 0;
  if (spec->has_replica && spec->replica != 0) return 0;
  if (spec->has_task && spec->task != 0) return 0;
  if (spec->has_type && strcmp(spec->type, d->type) != 0) return 0;
  if (spec->has_id && spec->id != d->id) return 0;
  return 1;
}
