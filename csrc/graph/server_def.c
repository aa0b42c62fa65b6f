/* TFE_GetServerDef: a tensorflow.ServerDef in protobuf text format to its
 * binary encoding. tfe has no distributed runtime, but programs build
 * ServerDefs with this to hand them to other APIs, so the conversion is
 * done for the fields a cluster description uses:
 *
 *   ServerDef  { ClusterDef cluster = 1; string job_name = 2;
 *                int32 task_index = 3; string protocol = 5; int32 port = 6;
 *                int32 replica = 8; }
 *   ClusterDef { repeated JobDef job = 1; }
 *   JobDef     { string name = 1; map<int32, string> tasks = 2; }
 *
 * default_session_config (4, a ConfigProto) and cluster_device_filters (7)
 * are reported as TF_UNIMPLEMENTED. The encoding follows protobuf's: fields
 * in number order, proto3 scalars left out when zero or empty, a message
 * field present once named, map entries (key 1, value 2) in key order with
 * the last value for a repeated key. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/tf_buffer.h"

typedef struct task_entry {
  int32_t key;
  char* value;
} task_entry;

typedef struct job_def {
  char* name;
  int has_name;
  task_entry* tasks;
  int num_tasks, cap_tasks;
} job_def;

typedef struct server_def {
  int has_cluster;
  job_def* jobs;
  int num_jobs, cap_jobs;
  char* job_name;
  int has_job_name;
  int32_t task_index, port, replica;
  int has_task_index, has_port, has_replica;
  char* protocol;
  int has_protocol;
} server_def;

/* ---- lexer ---------------------------------------------------------- */

typedef struct lexer {
  const char* p;
  const char* end;
  int oom;
  const char* unimplemented; /* field tfe cannot encode, when met */
} lexer;

static void skip_space(lexer* lx) {
  while (lx->p < lx->end) {
    char c = *lx->p;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      lx->p++;
    } else if (c == '#') {
      while (lx->p < lx->end && *lx->p != '\n') lx->p++;
    } else {
      break;
    }
  }
}

static int is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static int is_ident_char(char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* The identifier at the cursor (length in *n), or 0. */
static int read_ident(lexer* lx, const char** s, size_t* n) {
  skip_space(lx);
  if (lx->p >= lx->end || !is_ident_start(*lx->p)) return 0;
  *s = lx->p;
  while (lx->p < lx->end && is_ident_char(*lx->p)) lx->p++;
  *n = (size_t)(lx->p - *s);
  return 1;
}

static int accept(lexer* lx, char c) {
  skip_space(lx);
  if (lx->p < lx->end && *lx->p == c) {
    lx->p++;
    return 1;
  }
  return 0;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* One quoted string (or several adjacent ones, concatenated), unescaped
 * into a new NUL-terminated string in *out (owned by the caller). */
static int read_string(lexer* lx, char** out) {
  size_t cap = 16, len = 0;
  char* buf;
  skip_space(lx);
  if (lx->p >= lx->end || (*lx->p != '"' && *lx->p != '\'')) return 0;
  buf = (char*)tfe_malloc(cap);
  if (buf == NULL) {
    lx->oom = 1;
    return 0;
  }
  while (lx->p < lx->end && (*lx->p == '"' || *lx->p == '\'')) {
    const char quote = *lx->p++;
    for (;;) {
      int c;
      if (lx->p >= lx->end || *lx->p == '\n') goto fail;
      c = (unsigned char)*lx->p++;
      if (c == quote) break;
      if (c == '\\') {
        if (lx->p >= lx->end) goto fail;
        c = (unsigned char)*lx->p++;
        switch (c) {
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          case 'r': c = '\r'; break;
          case 'a': c = '\a'; break;
          case 'b': c = '\b'; break;
          case 'f': c = '\f'; break;
          case 'v': c = '\v'; break;
          case '\\': case '\'': case '"': case '?': break;
          case 'x': case 'X': {
            int v = 0, k = 0, d;
            while (k < 2 && lx->p < lx->end && (d = hex_digit(*lx->p)) >= 0) {
              v = v * 16 + d;
              lx->p++;
              k++;
            }
            if (k == 0) goto fail;
            c = v;
            break;
          }
          default:
            if (c >= '0' && c <= '7') {
              int v = c - '0', k = 1;
              while (k < 3 && lx->p < lx->end && *lx->p >= '0' &&
                     *lx->p <= '7') {
                v = v * 8 + (*lx->p++ - '0');
                k++;
              }
              c = v & 0xff;
            } else {
              goto fail;
            }
        }
      }
      if (len + 2 > cap) {
        char* grown = (char*)tfe_realloc(buf, cap * 2);
        if (grown == NULL) {
          lx->oom = 1;
          goto fail;
        }
        buf = grown;
        cap *= 2;
      }
      buf[len++] = (char)c;
    }
    skip_space(lx);
  }
  buf[len] = '\0';
  *out = buf;
  return 1;
fail:
  tfe_free(buf);
  return 0;
}

/* A signed 32-bit integer: decimal, 0x hex or 0 octal, optional '-'. */
static int read_int32(lexer* lx, int32_t* out) {
  char buf[40];
  size_t n = 0;
  char* end;
  long long v;
  skip_space(lx);
  if (lx->p < lx->end && *lx->p == '-') buf[n++] = *lx->p++;
  while (lx->p < lx->end && n + 1 < sizeof buf &&
         (is_ident_char(*lx->p))) {
    buf[n++] = *lx->p++;
  }
  buf[n] = '\0';
  if (n == 0 || (n == 1 && buf[0] == '-')) return 0;
  errno = 0;
  v = strtoll(buf, &end, 0);
  if (*end != '\0' || errno != 0 || v < INT32_MIN || v > INT32_MAX) return 0;
  *out = (int32_t)v;
  return 1;
}

/* ---- parser --------------------------------------------------------- */

static int name_is(const char* s, size_t n, const char* lit) {
  return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* '{' or '<' after an optional ':'; *close receives the closing char. */
static int open_message(lexer* lx, char* close) {
  (void)accept(lx, ':');
  if (accept(lx, '{')) {
    *close = '}';
    return 1;
  }
  if (accept(lx, '<')) {
    *close = '>';
    return 1;
  }
  return 0;
}

static void separator(lexer* lx) {
  if (!accept(lx, ',')) (void)accept(lx, ';');
}

static int parse_task(lexer* lx, task_entry* t, char close) {
  int has_key = 0, has_value = 0;
  for (;;) {
    const char* s;
    size_t n;
    if (accept(lx, close)) return 1;
    if (!read_ident(lx, &s, &n) || !accept(lx, ':')) return 0;
    if (name_is(s, n, "key")) {
      if (has_key++ || !read_int32(lx, &t->key)) return 0;
    } else if (name_is(s, n, "value")) {
      if (has_value++ || !read_string(lx, &t->value)) return 0;
    } else {
      return 0;
    }
    separator(lx);
  }
}

static int add_task(lexer* lx, job_def* j, task_entry* t) {
  int i;
  for (i = 0; i < j->num_tasks; i++) {
    if (j->tasks[i].key == t->key) { /* the last value for a key wins */
      tfe_free(j->tasks[i].value);
      j->tasks[i].value = t->value;
      return 1;
    }
  }
  if (j->num_tasks == j->cap_tasks) {
    int cap = j->cap_tasks ? j->cap_tasks * 2 : 4;
    task_entry* grown =
        (task_entry*)tfe_realloc(j->tasks, (size_t)cap * sizeof *grown);
    if (grown == NULL) {
      lx->oom = 1;
      return 0;
    }
    j->tasks = grown;
    j->cap_tasks = cap;
  }
  j->tasks[j->num_tasks++] = *t;
  return 1;
}

static int parse_job(lexer* lx, job_def* j, char close) {
  for (;;) {
    const char* s;
    size_t n;
    if (accept(lx, close)) return 1;
    if (!read_ident(lx, &s, &n)) return 0;
    if (name_is(s, n, "name")) {
      if (j->has_name++ || !accept(lx, ':') || !read_string(lx, &j->name)) {
        return 0;
      }
    } else if (name_is(s, n, "tasks")) {
      task_entry t = {0, NULL};
      char c;
      if (!open_message(lx, &c) || !parse_task(lx, &t, c) ||
          !add_task(lx, j, &t)) {
        tfe_free(t.value);
        return 0;
      }
    } else {
      return 0;
    }
    separator(lx);
  }
}

static int parse_cluster(lexer* lx, server_def* d, char close) {
  for (;;) {
    const char* s;
    size_t n;
    char c;
    if (accept(lx, close)) return 1;
    if (!read_ident(lx, &s, &n) || !name_is(s, n, "job")) return 0;
    if (d->num_jobs == d->cap_jobs) {
      int cap = d->cap_jobs ? d->cap_jobs * 2 : 4;
      job_def* grown = (job_def*)tfe_realloc(d->jobs, (size_t)cap * sizeof *grown);
      if (grown == NULL) {
        lx->oom = 1;
        return 0;
      }
      d->jobs = grown;
      d->cap_jobs = cap;
    }
    memset(&d->jobs[d->num_jobs], 0, sizeof d->jobs[0]);
    d->num_jobs++;
    if (!open_message(lx, &c) || !parse_job(lx, &d->jobs[d->num_jobs - 1], c)) {
      return 0;
    }
    separator(lx);
  }
}

static int parse_int_field(lexer* lx, int* has, int32_t* v) {
  return !(*has)++ && accept(lx, ':') && read_int32(lx, v);
}

static int parse_str_field(lexer* lx, int* has, char** v) {
  return !(*has)++ && accept(lx, ':') && read_string(lx, v);
}

static int parse_server_def(lexer* lx, server_def* d) {
  for (;;) {
    const char* s;
    size_t n;
    skip_space(lx);
    if (lx->p >= lx->end) return 1;
    if (!read_ident(lx, &s, &n)) return 0;
    if (name_is(s, n, "cluster")) {
      char c;
      if (d->has_cluster++ || !open_message(lx, &c) ||
          !parse_cluster(lx, d, c)) {
        return 0;
      }
    } else if (name_is(s, n, "job_name")) {
      if (!parse_str_field(lx, &d->has_job_name, &d->job_name)) return 0;
    } else if (name_is(s, n, "protocol")) {
      if (!parse_str_field(lx, &d->has_protocol, &d->protocol)) return 0;
    } else if (name_is(s, n, "task_index")) {
      if (!parse_int_field(lx, &d->has_task_index, &d->task_index)) return 0;
    } else if (name_is(s, n, "port")) {
      if (!parse_int_field(lx, &d->has_port, &d->port)) return 0;
    } else if (name_is(s, n, "replica")) {
      if (!parse_int_field(lx, &d->has_replica, &d->replica)) return 0;
    } else if (name_is(s, n, "default_session_config")) {
      lx->unimplemented = "default_session_config";
      return 0;
    } else if (name_is(s, n, "cluster_device_filters")) {
      lx->unimplemented = "cluster_device_filters";
      return 0;
    } else {
      return 0;
    }
    separator(lx);
  }
}

/* ---- encoder -------------------------------------------------------- */

static int cmp_task(const void* a, const void* b) {
  const int32_t x = ((const task_entry*)a)->key, y = ((const task_entry*)b)->key;
  return x < y ? -1 : x > y;
}

/* int32 as protobuf writes it: negative values sign-extended to 64 bits. */
static void put_int32(tfe_pbw* w, int field, int32_t v) {
  if (v != 0) tfe_pbw_uint(w, field, (uint64_t)(int64_t)v);
}

static void put_string(tfe_pbw* w, int field, const char* s) {
  if (s != NULL && s[0] != '\0') tfe_pbw_str(w, field, s);
}

static void encode(server_def* d, tfe_pbw* out) {
  if (d->has_cluster) {
    tfe_pbw cluster;
    int i, k;
    memset(&cluster, 0, sizeof cluster);
    for (i = 0; i < d->num_jobs; i++) {
      job_def* j = &d->jobs[i];
      tfe_pbw job;
      memset(&job, 0, sizeof job);
      put_string(&job, 1, j->name);
      if (j->num_tasks > 1) {
        qsort(j->tasks, (size_t)j->num_tasks, sizeof j->tasks[0], cmp_task);
      }
      for (k = 0; k < j->num_tasks; k++) {
        tfe_pbw entry;
        memset(&entry, 0, sizeof entry);
        tfe_pbw_uint(&entry, 1, (uint64_t)(int64_t)j->tasks[k].key);
        tfe_pbw_str(&entry, 2, j->tasks[k].value);
        tfe_pbw_sub(&job, 2, &entry);
      }
      tfe_pbw_sub(&cluster, 1, &job);
    }
    tfe_pbw_sub(out, 1, &cluster);
  }
  put_string(out, 2, d->job_name);
  put_int32(out, 3, d->task_index);
  put_string(out, 5, d->protocol);
  put_int32(out, 6, d->port);
  put_int32(out, 8, d->replica);
}

static void free_server_def(server_def* d) {
  int i, k;
  for (i = 0; i < d->num_jobs; i++) {
    tfe_free(d->jobs[i].name);
    for (k = 0; k < d->jobs[i].num_tasks; k++) tfe_free(d->jobs[i].tasks[k].value);
    tfe_free(d->jobs[i].tasks);
  }
  tfe_free(d->jobs);
  tfe_free(d->job_name);
  tfe_free(d->protocol);
}

static void free_pbw_data(void* data, size_t length) {
  (void)length;
  tfe_free(data);
}

TF_Buffer* TFE_GetServerDef(const char* text_proto, TF_Status* status) {
  server_def d;
  lexer lx;
  tfe_pbw w;
  TF_Buffer* buf = NULL;
  if (text_proto == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_GetServerDef: text_proto is NULL");
    return NULL;
  }
  memset(&d, 0, sizeof d);
  memset(&lx, 0, sizeof lx);
  memset(&w, 0, sizeof w);
  lx.p = text_proto;
  lx.end = text_proto + strlen(text_proto);
  if (!parse_server_def(&lx, &d)) {
    if (lx.oom) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TFE_GetServerDef: out of memory");
    } else if (lx.unimplemented != NULL) {
      tfe_status_setf(status, TF_UNIMPLEMENTED,
                      "TFE_GetServerDef: the ServerDef field '%s' is not "
                      "implemented in tfe",
                      lx.unimplemented);
    } else {
      tfe_status_setf(status, TF_INTERNAL,
                      "Invalid text proto for ServerDef: %s", text_proto);
    }
    free_server_def(&d);
    return NULL;
  }
  encode(&d, &w);
  free_server_def(&d);
  if (!w.oom) buf = TF_NewBuffer();
  if (w.oom || buf == NULL) {
    tfe_pbw_free(&w);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_GetServerDef: out of memory");
    return NULL;
  }
  buf->data = w.data;
  buf->length = w.len;
  buf->data_deallocator = free_pbw_data;
  tfe_status_ok(status);
  return buf;
}
