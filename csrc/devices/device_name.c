/* Parsing TF device names ("/job:localhost/replica:0/task:0/device:CPU:0",
 * "/device:CPU:1", "/cpu:0", "CPU:0", ...), printing them back in TF's
 * canonical form, and matching them to devices.
 *
 * The rules are TensorFlow's (DeviceNameUtils::ParseFullName, with
 * ParseLocalName as the fallback for names without a leading '/'):
 *  - a full name is a sequence of components, each introduced by '/':
 *    "job:NAME" (NAME = a letter, then letters, digits or '_'),
 *    "replica:N", "task:N", "device:TYPE" optionally followed by ":N",
 *    and the legacy "cpu:N", "CPU:N", "gpu:N", "GPU:N" (TYPE CPU/GPU).
 *    Every N may be "*" (any), which leaves the component unset, as does
 *    "device:*". Components may come in any order and a later one
 *    replaces an earlier one of the same kind; "" and "/" give no
 *    constraint; anything else (a trailing '/', unknown words, "-1") is
 *    malformed;
 *  - a local name is "TYPE:N" with a number. tfe also reads lower-case
 *    "cpu:N"/"gpu:N" as CPU/GPU (TF would keep the lower-case type and then
 *    find no such device). */
#include <stdlib.h>
#include <string.h>

#include "devices/device.h"

static int is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_word_char(char c) {
  return is_letter(c) || is_digit(c) || c == '_';
}

/* Consumes `prefix` at *p; 1 when it was there. */
static int eat(const char** p, const char* prefix) {
  size_t n = strlen(prefix);
  if (strncmp(*p, prefix, n) != 0) return 0;
  *p += n;
  return 1;
}

/* Consumes a decimal number (no sign; at most 10^9, as device indices are
 * small) into *out. */
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

/* Consumes a word that starts with a letter and runs up to the next
 * character of `stops` (or the end); every character of it must be a
 * letter, digit or '_'. Copies it into buf (cap bytes). */
static int take_word(const char** p, const char* stops, char* buf,
                     size_t cap) {
  const char* s = *p;
  size_t n = 0;
  if (!is_letter(*s)) return 0;
  while (s[n] != '\0' && strchr(stops, s[n]) == NULL) {
    if (!is_word_char(s[n])) return 0;
    n++;
  }
  if (n >= cap) return 0;
  memcpy(buf, s, n);
  buf[n] = '\0';
  *p = s + n;
  return 1;
}

/* "*" (leaves *has 0) or a number (sets *has). */
static int take_index(const char** p, int* has, int* value) {
  if (eat(p, "*")) {
    *has = 0;
    return 1;
  }
  if (!take_number(p, value)) return 0;
  *has = 1;
  return 1;
}

/* One pass of TF's full-name loop: each kind of component at most once,
 * in TF's order. 1 when something was consumed, 0 when nothing matched,
 * -1 for a malformed component. */
static int full_name_pass(const char** p, tfe_device_spec* out) {
  int progress = 0;
  if (eat(p, "/job:")) {
    if (eat(p, "*")) {
      out->has_job = 0;
      out->job[0] = '\0';
    } else {
      if (!take_word(p, "/", out->job, sizeof(out->job))) return -1;
      out->has_job = 1;
    }
    progress = 1;
  }
  if (eat(p, "/replica:")) {
    if (!take_index(p, &out->has_replica, &out->replica)) return -1;
    progress = 1;
  }
  if (eat(p, "/task:")) {
    if (!take_index(p, &out->has_task, &out->task)) return -1;
    progress = 1;
  }
  if (eat(p, "/device:")) {
    if (eat(p, "*")) {
      out->has_type = 0;
      out->type[0] = '\0';
    } else {
      if (!take_word(p, "/:", out->type, sizeof(out->type))) return -1;
      out->has_type = 1;
    }
    if (eat(p, ":")) {
      if (!take_index(p, &out->has_id, &out->id)) return -1;
    } else {
      out->has_id = 0;
    }
    progress = 1;
  }
  if (eat(p, "/cpu:") || eat(p, "/CPU:")) {
    out->has_type = 1;
    strcpy(out->type, "CPU");
    if (!take_index(p, &out->has_id, &out->id)) return -1;
    progress = 1;
  }
  if (eat(p, "/gpu:") || eat(p, "/GPU:")) {
    out->has_type = 1;
    strcpy(out->type, "GPU");
    if (!take_index(p, &out->has_id, &out->id)) return -1;
    progress = 1;
  }
  return progress;
}

static int parse_full(const char* name, tfe_device_spec* out) {
  const char* s = name;
  memset(out, 0, sizeof(*out));
  if (strcmp(s, "/") == 0) return 1;
  while (*s != '\0') {
    if (full_name_pass(&s, out) != 1) return 0;
  }
  return 1;
}

/* "TYPE:N" (TF's ParseLocalName), plus lower-case cpu/gpu. */
static int parse_local(const char* name, tfe_device_spec* out) {
  const char* s = name;
  memset(out, 0, sizeof(*out));
  if (!take_word(&s, "/:", out->type, sizeof(out->type))) return 0;
  if (strcmp(out->type, "cpu") == 0) strcpy(out->type, "CPU");
  if (strcmp(out->type, "gpu") == 0) strcpy(out->type, "GPU");
  out->has_type = 1;
  if (!eat(&s, ":") || !take_number(&s, &out->id)) return 0;
  out->has_id = 1;
  return *s == '\0';
}

int tfe_device_spec_parse(const char* name, tfe_device_spec* out) {
  if (out == NULL || name == NULL) return 0;
  if (parse_full(name, out)) return 1;
  if (parse_local(name, out)) return 1;
  memset(out, 0, sizeof(*out));
  return 0;
}

/* Appends text (n bytes) at buf[*pos]; 0 when it does not fit (with the
 * terminating NUL) in cap bytes. */
static int put(char* buf, size_t cap, size_t* pos, const char* text,
               size_t n) {
  if (n >= cap - *pos) return 0;
  memcpy(buf + *pos, text, n);
  *pos += n;
  buf[*pos] = '\0';
  return 1;
}

static int put_str(char* buf, size_t cap, size_t* pos, const char* text) {
  return put(buf, cap, pos, text, strlen(text));
}

/* Appends a non-negative int in decimal (no snprintf: TFE_OpSetDevice is
 * on the dispatch path). */
static int put_int(char* buf, size_t cap, size_t* pos, int v) {
  char digits[12];
  size_t n = sizeof(digits);
  unsigned u = v < 0 ? 0u : (unsigned)v;
  do {
    digits[--n] = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0 && n > 0);
  return put(buf, cap, pos, digits + n, sizeof(digits) - n);
}

int tfe_device_spec_format(const tfe_device_spec* spec, char* buf,
                           size_t cap) {
  size_t pos = 0;
  if (spec == NULL || buf == NULL || cap == 0) return -1;
  buf[0] = '\0';
  if (spec->has_job && (!put_str(buf, cap, &pos, "/job:") ||
                        !put_str(buf, cap, &pos, spec->job))) {
    return -1;
  }
  if (spec->has_replica && (!put_str(buf, cap, &pos, "/replica:") ||
                            !put_int(buf, cap, &pos, spec->replica))) {
    return -1;
  }
  if (spec->has_task && (!put_str(buf, cap, &pos, "/task:") ||
                         !put_int(buf, cap, &pos, spec->task))) {
    return -1;
  }
  if (spec->has_type) {
    if (!put_str(buf, cap, &pos, "/device:") ||
        !put_str(buf, cap, &pos, spec->type) || !put_str(buf, cap, &pos, ":")) {
      return -1;
    }
    if (spec->has_id ? !put_int(buf, cap, &pos, spec->id)
                     : !put_str(buf, cap, &pos, "*")) {
      return -1;
    }
  }
  return (int)pos;
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
