/* The kernel registry: every kernel (built-in or from a plugin) is recorded
 * here as a deep copy of its tfe_kernel_reg, and looked up by op name,
 * device type and the attrs of one call.
 *
 * Records are allocated one by one and never freed or moved, so the
 * pointers handed out by tfe_kernel_find / tfe_kernel_at stay valid for the
 * life of the process; records of a library whose load failed leave the
 * index but stay allocated (g_removed). A read/write lock guards the index
 * (registration writes, lookups read concurrently). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "kernels/kernel.h"

/* Hash buckets over op names; chains are indices into g_regs. */
#define REG_BUCKETS 512

typedef struct reg_record {
  tfe_kernel_reg reg; /* every string and array inside is owned */
  int next;           /* next record in the same bucket, or -1 */
  unsigned tag;       /* tfe_kernels_mark_begin's tag, or 0 */
  struct reg_record* removed_next; /* in g_removed */
} reg_record;

static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static reg_record** g_regs;
static int g_count;
static int g_cap;
static int g_bucket_head[REG_BUCKETS];
static int g_buckets_ready;
static reg_record* g_removed; /* taken out by tfe_kernels_remove_marked */
static _Atomic unsigned g_next_tag = 1;
static _Thread_local unsigned t_tag;

static uint32_t name_hash(const char* s) {
  /* FNV-1a, 32 bits. */
  uint32_t h = 2166136261u;
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 16777619u;
  }
  return h;
}

static const char* nz(const char* s) { return s == NULL ? "" : s; }

/* ------------------------------------------------------------ copying */

static void record_free(reg_record* r) {
  int i;
  if (r == NULL) return;
  tfe_free((void*)r->reg.op_name);
  tfe_free((void*)r->reg.device_type);
  tfe_free((void*)r->reg.label);
  for (i = 0; i < r->reg.num_constraints; i++) {
    tfe_free((void*)r->reg.constraints[i].attr);
    tfe_free((void*)r->reg.constraints[i].types);
  }
  if (r->reg.host_memory_args != NULL) {
    for (i = 0; i < r->reg.num_host_memory_args; i++) {
      tfe_free((void*)r->reg.host_memory_args[i]);
    }
    tfe_free((void*)r->reg.host_memory_args);
  }
  tfe_free(r);
}

/* Deep copy of *src; NULL when memory runs out. */
static reg_record* record_copy(const tfe_kernel_reg* src) {
  int i;
  reg_record* r = (reg_record*)tfe_calloc(1, sizeof(*r));
  if (r == NULL) return NULL;
  r->next = -1;
  r->reg.priority = src->priority;
  r->reg.create = src->create;
  r->reg.compute = src->compute;
  r->reg.destroy = src->destroy;
  r->reg.user_data = src->user_data;
  r->reg.op_name = tfe_strdup(src->op_name);
  r->reg.device_type = tfe_strdup(src->device_type);
  if (r->reg.op_name == NULL || r->reg.device_type == NULL) goto oom;
  if (src->label != NULL && src->label[0] != '\0') {
    r->reg.label = tfe_strdup(src->label);
    if (r->reg.label == NULL) goto oom;
  }
  for (i = 0; i < src->num_constraints; i++) {
    const tfe_kernel_constraint* c = &src->constraints[i];
    tfe_kernel_constraint* d = &r->reg.constraints[i];
    TF_DataType* types;
    r->reg.num_constraints = i + 1;
    d->attr = tfe_strdup(c->attr);
    if (d->attr == NULL) goto oom;
    types = (TF_DataType*)tfe_malloc(sizeof(TF_DataType) *
                                     (size_t)(c->num_types > 0 ? c->num_types : 1));
    if (types == NULL) goto oom;
    if (c->num_types > 0) {
      memcpy(types, c->types, sizeof(TF_DataType) * (size_t)c->num_types);
    }
    d->types = types;
    d->num_types = c->num_types;
  }
  if (src->num_host_memory_args > 0) {
    const char** args = (const char**)tfe_calloc(
        (size_t)src->num_host_memory_args, sizeof(char*));
    if (args == NULL) goto oom;
    r->reg.host_memory_args = args;
    for (i = 0; i < src->num_host_memory_args; i++) {
      r->reg.num_host_memory_args = i + 1;
      args[i] = tfe_strdup(src->host_memory_args[i]);
      if (args[i] == NULL) goto oom;
    }
  }
  return r;
oom:
  record_free(r);
  return NULL;
}

/* ------------------------------------------------------------ validation */

static int validate(const tfe_kernel_reg* reg, TF_Status* status) {
  int i, j;
  if (reg == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Kernel registration is NULL");
    return 0;
  }
  if (reg->op_name == NULL || reg->op_name[0] == '\0') {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Kernel registration has no op name");
    return 0;
  }
  if (reg->device_type == NULL || reg->device_type[0] == '\0') {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Kernel registration for op '%s' has no device type",
                    reg->op_name);
    return 0;
  }
  if (reg->compute == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Kernel registration for op '%s' on '%s' has no compute "
                    "function",
                    reg->op_name, reg->device_type);
    return 0;
  }
  if (reg->num_constraints < 0 ||
      reg->num_constraints > TFE_KERNEL_MAX_CONSTRAINTS) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Kernel registration for op '%s' has %d type constraints "
                    "(at most %d are supported)",
                    reg->op_name, reg->num_constraints,
                    TFE_KERNEL_MAX_CONSTRAINTS);
    return 0;
  }
  for (i = 0; i < reg->num_constraints; i++) {
    const tfe_kernel_constraint* c = &reg->constraints[i];
    if (c->attr == NULL || c->attr[0] == '\0' || c->num_types < 0 ||
        (c->num_types > 0 && c->types == NULL)) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Kernel registration for op '%s' has a malformed type "
                      "constraint (#%d)",
                      reg->op_name, i);
      return 0;
    }
    for (j = 0; j < i; j++) {
      if (strcmp(reg->constraints[j].attr, c->attr) == 0) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Kernel registration for op '%s' constrains attr "
                        "'%s' twice",
                        reg->op_name, c->attr);
        return 0;
      }
    }
  }
  if (reg->num_host_memory_args < 0 ||
      (reg->num_host_memory_args > 0 && reg->host_memory_args == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Kernel registration for op '%s' has a malformed host "
                    "memory argument list",
                    reg->op_name);
    return 0;
  }
  for (i = 0; i < reg->num_host_memory_args; i++) {
    if (reg->host_memory_args[i] == NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Kernel registration for op '%s' has a NULL host "
                      "memory argument name",
                      reg->op_name);
      return 0;
    }
  }
  return 1;
}

static int type_in(TF_DataType t, const TF_DataType* types, int n) {
  int i;
  for (i = 0; i < n; i++) {
    if (types[i] == t) return 1;
  }
  return 0;
}

/* Same set of types (order and repeats ignored). */
static int same_type_set(const tfe_kernel_constraint* a,
                         const tfe_kernel_constraint* b) {
  int i;
  for (i = 0; i < a->num_types; i++) {
    if (!type_in(a->types[i], b->types, b->num_types)) return 0;
  }
  for (i = 0; i < b->num_types; i++) {
    if (!type_in(b->types[i], a->types, a->num_types)) return 0;
  }
  return 1;
}

/* Two registrations that can never be told apart: same op, device, label,
 * constraints and priority. Registrations that differ only in priority are
 * distinct (lookup prefers the higher one, as TF does). */
static int same_signature(const tfe_kernel_reg* a, const tfe_kernel_reg* b) {
  int i, j;
  if (a->priority != b->priority) return 0;
  if (strcmp(a->op_name, b->op_name) != 0) return 0;
  if (strcmp(a->device_type, b->device_type) != 0) return 0;
  if (strcmp(nz(a->label), nz(b->label)) != 0) return 0;
  if (a->num_constraints != b->num_constraints) return 0;
  for (i = 0; i < a->num_constraints; i++) {
    int found = 0;
    for (j = 0; j < b->num_constraints; j++) {
      if (strcmp(a->constraints[i].attr, b->constraints[j].attr) == 0) {
        found = same_type_set(&a->constraints[i], &b->constraints[j]);
        break;
      }
    }
    if (!found) return 0;
  }
  return 1;
}

static void init_buckets_locked(void) {
  int i;
  if (g_buckets_ready) return;
  for (i = 0; i < REG_BUCKETS; i++) g_bucket_head[i] = -1;
  g_buckets_ready = 1;
}

/* ------------------------------------------------------------ register */

int tfe_kernel_register(const tfe_kernel_reg* reg, TF_Status* status) {
  reg_record* r;
  uint32_t b;
  int i;
  if (!validate(reg, status)) return 0;
  r = record_copy(reg);
  if (r == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "Out of memory registering a kernel for op '%s'",
                    reg->op_name);
    return 0;
  }
  r->tag = t_tag;
  b = name_hash(reg->op_name) & (REG_BUCKETS - 1);
  pthread_rwlock_wrlock(&g_lock);
  init_buckets_locked();
  for (i = g_bucket_head[b]; i >= 0; i = g_regs[i]->next) {
    if (same_signature(&g_regs[i]->reg, &r->reg)) {
      pthread_rwlock_unlock(&g_lock);
      tfe_status_setf(status, TF_ALREADY_EXISTS,
                      "A kernel for op '%s' on device '%s' with the same "
                      "type constraints%s%s%s and priority %d is already "
                      "registered",
                      reg->op_name, reg->device_type,
                      r->reg.label ? ", label '" : "", nz(r->reg.label),
                      r->reg.label ? "'" : "", r->reg.priority);
      record_free(r);
      return 0;
    }
  }
  if (g_count == g_cap) {
    int ncap = g_cap ? g_cap * 2 : 256;
    reg_record** n =
        (reg_record**)tfe_realloc(g_regs, sizeof(reg_record*) * (size_t)ncap);
    if (n == NULL) {
      pthread_rwlock_unlock(&g_lock);
      record_free(r);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "Out of memory registering a kernel for op '%s'",
                      reg->op_name);
      return 0;
    }
    g_regs = n;
    g_cap = ncap;
  }
  /* Append at the end of the chain so listings keep registration order. */
  r->next = -1;
  g_regs[g_count] = r;
  if (g_bucket_head[b] < 0) {
    g_bucket_head[b] = g_count;
  } else {
    i = g_bucket_head[b];
    while (g_regs[i]->next >= 0) i = g_regs[i]->next;
    g_regs[i]->next = g_count;
  }
  g_count++;
  pthread_rwlock_unlock(&g_lock);
  tfe_status_ok(status);
  return 1;
}

/* ------------------------------------------------------------ lookup */

/* Whether every constraint of `reg` holds under `attrs`. A type attr must
 * be one of the listed types; for a list(type) attr every element must. */
static int constraints_hold(const tfe_kernel_reg* reg, const tfe_attrs* attrs) {
  int i, j;
  for (i = 0; i < reg->num_constraints; i++) {
    const tfe_kernel_constraint* c = &reg->constraints[i];
    const tfe_attr_value* v = attrs ? tfe_attrs_find(attrs, c->attr) : NULL;
    if (v == NULL || v->type != TF_ATTR_TYPE) return 0;
    if (v->is_list) {
      for (j = 0; j < v->list_size; j++) {
        if (!type_in(v->list.type[j], c->types, c->num_types)) return 0;
      }
    } else if (!type_in(v->v.type, c->types, c->num_types)) {
      return 0;
    }
  }
  return 1;
}

/* The kernel label a call asks for through its "_kernel" attr ("" when
 * none). */
static const char* requested_label(const tfe_attrs* attrs) {
  const tfe_attr_value* v = attrs ? tfe_attrs_find(attrs, "_kernel") : NULL;
  if (v != NULL && v->type == TF_ATTR_STRING && !v->is_list &&
      v->v.s.data != NULL) {
    return v->v.s.data;
  }
  return "";
}

/* A growable message buffer; on allocation failure it keeps what fits. */
typedef struct msgbuf {
  char* p;
  size_t len;
  size_t cap;
  int failed;
} msgbuf;

static void mb_append(msgbuf* m, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void mb_append(msgbuf* m, const char* fmt, ...) {
  va_list ap;
  int n;
  if (m->failed) return;
  for (;;) {
    size_t room = m->cap - m->len;
    va_start(ap, fmt);
    n = vsnprintf(m->p ? m->p + m->len : NULL, m->p ? room : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      m->failed = 1;
      return;
    }
    if (m->p != NULL && (size_t)n < room) {
      m->len += (size_t)n;
      return;
    }
    {
      size_t ncap = m->cap ? m->cap * 2 : 256;
      char* np;
      while (ncap < m->len + (size_t)n + 1) ncap *= 2;
      np = (char*)tfe_realloc(m->p, ncap);
      if (np == NULL) {
        m->failed = 1;
        return;
      }
      m->p = np;
      m->cap = ncap;
    }
  }
}

static int cmp_cstr_ptr(const void* a, const void* b) {
  return strcmp(*(const char* const*)a, *(const char* const*)b);
}

/* "name=value, ..." for every visible attr, sorted by name as TF does. */
static void append_attr_summary(msgbuf* m, const tfe_attrs* attrs) {
  const char* names[64];
  int n = 0, i;
  char buf[256];
  if (attrs == NULL) return;
  for (i = 0; i < attrs->count && n < 64; i++) {
    const char* name = attrs->items[i].name;
    if (name == NULL || name[0] == '_') continue;
    names[n++] = name;
  }
  qsort(names, (size_t)n, sizeof(names[0]), cmp_cstr_ptr);
  for (i = 0; i < n; i++) {
    const tfe_attr_value* v = tfe_attrs_find(attrs, names[i]);
    buf[0] = '\0';
    if (v != NULL) tfe_attr_value_format(v, buf, sizeof buf);
    mb_append(m, "%s%s=%s", i ? ", " : "", names[i], buf);
  }
}

/* One line per registration, TF's KernelDef summary style. Caller holds
 * the read lock. */
static void append_kernel_line(msgbuf* m, const tfe_kernel_reg* r) {
  int i, j;
  mb_append(m, "  device='%s'", r->device_type);
  if (r->label != NULL) mb_append(m, "; label='%s'", r->label);
  for (i = 0; i < r->num_constraints; i++) {
    const tfe_kernel_constraint* c = &r->constraints[i];
    mb_append(m, "; %s in [", c->attr);
    for (j = 0; j < c->num_types; j++) {
      mb_append(m, "%s%s", j ? ", " : "", tfe_dtype_enum_name(c->types[j]));
    }
    mb_append(m, "]");
  }
  mb_append(m, "\n");
}

/* A registration as TF prints a KernelDef in one line (its proto text
 * form), e.g. op: "X" device_type: "CPU" constraint { name: "T"
 * allowed_values { list { type: DT_FLOAT } } } priority: 1 */
static void append_kernel_def(msgbuf* m, const tfe_kernel_reg* r) {
  int i, j;
  mb_append(m, "op: \"%s\" device_type: \"%s\"", r->op_name,
            r->device_type);
  for (i = 0; i < r->num_constraints; i++) {
    const tfe_kernel_constraint* c = &r->constraints[i];
    mb_append(m, " constraint { name: \"%s\" allowed_values { list {",
              c->attr);
    for (j = 0; j < c->num_types; j++) {
      mb_append(m, " type: %s", tfe_dtype_enum_name(c->types[j]));
    }
    mb_append(m, " } } }");
  }
  for (i = 0; i < r->num_host_memory_args; i++) {
    mb_append(m, " host_memory_arg: \"%s\"", r->host_memory_args[i]);
  }
  if (r->label != NULL) mb_append(m, " label: \"%s\"", r->label);
  if (r->priority != 0) mb_append(m, " priority: %d", r->priority);
}

/* TF's INVALID_ARGUMENT for two matching kernels at the same (highest)
 * priority. Caller holds the read lock. */
static void set_tie(const tfe_op_def* def, const tfe_kernel_reg* a,
                    const tfe_kernel_reg* b, TF_Status* status) {
  msgbuf m = {NULL, 0, 0, 0};
  mb_append(&m,
            "Multiple OpKernel registrations match NodeDef at the same "
            "priority '{{node %s}}': '",
            def->name);
  append_kernel_def(&m, a);
  mb_append(&m, "' and '");
  append_kernel_def(&m, b);
  mb_append(&m, "'");
  if (m.failed || m.p == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Multiple OpKernel registrations match NodeDef at the "
                    "same priority '{{node %s}}'",
                    def->name);
  } else {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s", m.p);
  }
  tfe_free(m.p);
}

static void set_not_found(const tfe_op_def* def, const tfe_attrs* attrs,
                          TF_Status* status) {
  msgbuf m = {NULL, 0, 0, 0};
  int i, any = 0;
  uint32_t b = name_hash(def->name) & (REG_BUCKETS - 1);
  mb_append(&m, "Could not find device for node: {{node %s}} = %s[",
            def->name, def->name);
  append_attr_summary(&m, attrs);
  mb_append(&m, "]\nAll kernels registered for op %s:\n", def->name);
  for (i = g_buckets_ready ? g_bucket_head[b] : -1; i >= 0;
       i = g_regs[i]->next) {
    if (strcmp(g_regs[i]->reg.op_name, def->name) != 0) continue;
    append_kernel_line(&m, &g_regs[i]->reg);
    any = 1;
  }
  if (!any) mb_append(&m, "  <no registered kernels>\n");
  if (m.failed || m.p == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Could not find device for node: {{node %s}}", def->name);
  } else {
    tfe_status_setf(status, TF_NOT_FOUND, "%s", m.p);
  }
  tfe_free(m.p);
}

void tfe_kernel_set_no_kernel_for_node(const tfe_op_def* def, const char* node,
                                       const tfe_attrs* attrs, const char* device_types,
                                       TF_Status* status) {
  msgbuf m = {NULL, 0, 0, 0};
  int i, any = 0;
  uint32_t b;
  if (def == NULL || status == NULL) return;
  b = name_hash(def->name) & (REG_BUCKETS - 1);
  mb_append(&m, "No OpKernel was registered to support Op '%s' used by {{node %s}} with "
            "these attrs: [", def->name, node != NULL ? node : def->name);
  append_attr_summary(&m, attrs);
  mb_append(&m, "]\nRegistered devices: [%s]\nRegistered kernels:\n",
            device_types != NULL ? device_types : "");
  pthread_rwlock_rdlock(&g_lock);
  for (i = g_buckets_ready ? g_bucket_head[b] : -1; i >= 0; i = g_regs[i]->next) {
    if (strcmp(g_regs[i]->reg.op_name, def->name) != 0) continue;
    append_kernel_line(&m, &g_regs[i]->reg);
    any = 1;
  }
  pthread_rwlock_unlock(&g_lock);
  if (!any) mb_append(&m, "  <no registered kernels>\n");
  if (m.failed || m.p == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "No OpKernel was registered to support Op '%s' used by {{node %s}}",
                    def->name, node != NULL ? node : def->name);
  } else {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s", m.p);
  }
  tfe_free(m.p);
}

const tfe_kernel_reg* tfe_kernel_find(const tfe_op_def* def,
                                      const char* device_type,
                                      const tfe_attrs* attrs,
                                      TF_Status* status) {
  const tfe_kernel_reg* best = NULL;
  const tfe_kernel_reg* tie = NULL; /* another match at best's priority */
  const char* label;
  uint32_t b;
  int i;
  if (def == NULL || def->name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "tfe_kernel_find: op definition is NULL");
    return NULL;
  }
  if (device_type == NULL || device_type[0] == '\0') {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "tfe_kernel_find: no device type given for op %s",
                    def->name);
    return NULL;
  }
  label = requested_label(attrs);
  b = name_hash(def->name) & (REG_BUCKETS - 1);
  pthread_rwlock_rdlock(&g_lock);
  for (i = g_buckets_ready ? g_bucket_head[b] : -1; i >= 0;
       i = g_regs[i]->next) {
    const tfe_kernel_reg* r = &g_regs[i]->reg;
    if (strcmp(r->op_name, def->name) != 0) continue;
    if (strcmp(r->device_type, device_type) != 0) continue;
    if (strcmp(nz(r->label), label) != 0) continue;
    if (!constraints_hold(r, attrs)) continue;
    if (best == NULL || r->priority > best->priority) {
      best = r;
      tie = NULL;
    } else if (r->priority == best->priority && tie == NULL) {
      tie = r;
    }
  }
  if (best == NULL) {
    set_not_found(def, attrs, status);
    pthread_rwlock_unlock(&g_lock);
    return NULL;
  }
  if (tie != NULL) {
    set_tie(def, best, tie, status);
    pthread_rwlock_unlock(&g_lock);
    return NULL;
  }
  pthread_rwlock_unlock(&g_lock);
  tfe_status_ok(status);
  return best;
}

int tfe_kernel_count(void) {
  int n;
  pthread_rwlock_rdlock(&g_lock);
  n = g_count;
  pthread_rwlock_unlock(&g_lock);
  return n;
}

const tfe_kernel_reg* tfe_kernel_at(int i) {
  const tfe_kernel_reg* r = NULL;
  pthread_rwlock_rdlock(&g_lock);
  if (i >= 0 && i < g_count) r = &g_regs[i]->reg;
  pthread_rwlock_unlock(&g_lock);
  return r;
}

/* ------------------------------------------------------------ rollback */

unsigned tfe_kernels_mark_begin(void) {
  unsigned tag = atomic_fetch_add(&g_next_tag, 1);
  if (tag == 0) tag = atomic_fetch_add(&g_next_tag, 1);
  t_tag = tag;
  return tag;
}

void tfe_kernels_mark_end(void) { t_tag = 0; }

int tfe_kernels_remove_marked(unsigned tag) {
  int i, kept = 0, removed = 0;
  if (tag == 0) return 0;
  pthread_rwlock_wrlock(&g_lock);
  for (i = 0; i < g_count; i++) {
    reg_record* r = g_regs[i];
    if (r->tag == tag) {
      r->removed_next = g_removed;
      g_removed = r;
      removed++;
    } else {
      g_regs[kept++] = r;
    }
  }
  if (removed > 0) {
    /* Indices moved: rebuild every chain, in registration order. */
    int tail[REG_BUCKETS];
    g_count = kept;
    for (i = 0; i < REG_BUCKETS; i++) g_bucket_head[i] = tail[i] = -1;
    g_buckets_ready = 1;
    for (i = 0; i < g_count; i++) {
      uint32_t b = name_hash(g_regs[i]->reg.op_name) & (REG_BUCKETS - 1);
      g_regs[i]->next = -1;
      if (tail[b] < 0) {
        g_bucket_head[b] = i;
      } else {
        g_regs[tail[b]]->next = i;
      }
      tail[b] = i;
    }
  }
  pthread_rwlock_unlock(&g_lock);
  return removed;
}
