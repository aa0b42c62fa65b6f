/* The in-process rendezvous of collective ops (model: collective.h): a
 * process-wide table of groups and of open instances under one mutex.
 * Each instance has its own condition variable; the last member to arrive
 * computes the result (outside the lock: the other members are blocked,
 * so their inputs stay alive) and wakes the others, which copy their
 * output from it. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread_condattr_setclock */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "devices/device.h"
#include "kernels/cpu/collective.h"
#include "kernels/cpu/kutil.h"
#include "kernels/resource.h"

/* ------------------------------------------------------------------------
 * The thread's parallel-device tag. Stored plus one so that a thread that
 * never set it reads -1. */

static _Thread_local int tl_replica_plus1;

void tfe_collective_set_thread_replica(int replica) {
  tl_replica_plus1 = replica < 0 ? 0 : replica + 1;
}

int tfe_collective_thread_replica(void) { return tl_replica_plus1 - 1; }

/* ------------------------------------------------------------------------
 * Tables. */

typedef struct coll_group {
  uint64_t ctx_id;
  int32_t key;
  int32_t size;
  char device_type[TFE_DEVICE_TYPE_MAX];
  int num_members;
  char** members; /* size entries; the first num_members are set */
  TF_Code code;   /* sticky failure (TF keeps a failed group failed) */
  char* msg;
  struct coll_group* next;
} coll_group;

typedef struct coll_member {
  char* key; /* device name, plus "#<replica>" when tagged */
  const char* device;
  int replica;
  const TF_Tensor* input;
  int is_source;
  int user_rank; /* -1: none */
  int rank;
} coll_member;

enum { GATHERING = 0, COMPUTING, DONE, FAILED };

typedef struct coll_instance {
  uint64_t ctx_id;
  int32_t group_key;
  int32_t instance_key;
  int32_t size;
  int kind, merge_op, final_op;
  TF_DataType dtype;
  int num_dims;
  int64_t* dims;
  int state;
  int arrived;
  int left;
  int sources;
  TF_Code code;
  char* msg;
  coll_member* members; /* size entries, in arrival order */
  TF_Tensor* result;    /* the shared output (DONE) */
  pthread_cond_t cv;
  struct coll_instance* next;
} coll_instance;

/* Contexts whose collectives were aborted, with the status they fail
 * with. */
typedef struct coll_abort {
  uint64_t ctx_id;
  TF_Code code;
  char* msg;
  struct coll_abort* next;
} coll_abort;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static coll_group* g_groups;
static coll_instance* g_instances;
static coll_abort* g_aborts;

/* ------------------------------------------------------------------------
 * Helpers. */

static const char* kind_name(int kind) {
  switch (kind) {
    case TFE_COLL_REDUCE:
      return "reduction";
    case TFE_COLL_GATHER:
      return "gather";
    case TFE_COLL_REDUCE_SCATTER:
      return "reduce-scatter";
    case TFE_COLL_ALL_TO_ALL:
      return "all-to-all";
    case TFE_COLL_BARRIER:
      return "communicator initialization";
    default:
      return "broadcast";
  }
}

static double default_timeout(void) {
  const char* e = getenv("TFE_COLLECTIVE_TIMEOUT_SECONDS");
  if (e != NULL && e[0] != '\0') {
    char* end = NULL;
    double v = strtod(e, &end);
    if (end != e && v > 0) return v;
  }
  return 60.0;
}

static int64_t num_elements(const int64_t* dims, int n) {
  int64_t c = 1;
  int i;
  for (i = 0; i < n; i++) c *= dims[i];
  return c;
}

static void shape_str(const int64_t* dims, int n, char* buf, size_t cap) {
  kutil_shape_str(dims, n, buf, cap);
}

/* TF's order of full device names: job, replica, task, type, id. */
static int compare_devices(const char* a, const char* b) {
  tfe_device_spec sa, sb;
  int c;
  if (!tfe_device_spec_parse(a, &sa) || !tfe_device_spec_parse(b, &sb)) {
    return strcmp(a, b);
  }
  c = strcmp(sa.has_job ? sa.job : "", sb.has_job ? sb.job : "");
  if (c != 0) return c;
  if (sa.replica != sb.replica) return sa.replica < sb.replica ? -1 : 1;
  if (sa.task != sb.task) return sa.task < sb.task ? -1 : 1;
  c = strcmp(sa.has_type ? sa.type : "", sb.has_type ? sb.type : "");
  if (c != 0) return c;
  if (sa.id != sb.id) return sa.id < sb.id ? -1 : 1;
  return 0;
}

static int compare_members(const coll_member* a, const coll_member* b) {
  int c = compare_devices(a->device, b->device);
  if (c != 0) return c;
  if (a->replica != b->replica) return a->replica < b->replica ? -1 : 1;
  return 0;
}

/* Sets the instance's failure (the first one wins) and wakes everyone.
 * Hold g_mu. */
static void fail_instance(coll_instance* in, TF_Code code, const char* msg) {
  if (in->state == FAILED || in->state == DONE) return;
  in->state = FAILED;
  in->code = code;
  in->msg = tfe_strdup(msg);
  pthread_cond_broadcast(&in->cv);
}

static void free_instance(coll_instance* in) {
  int i;
  for (i = 0; i < in->arrived; i++) tfe_free(in->members[i].key);
  tfe_free(in->members);
  tfe_free(in->dims);
  tfe_free(in->msg);
  TF_DeleteTensor(in->result);
  pthread_cond_destroy(&in->cv);
  tfe_free(in);
}

static void unlink_instance(coll_instance* in) {
  coll_instance** pp = &g_instances;
  while (*pp != NULL && *pp != in) pp = &(*pp)->next;
  if (*pp == in) *pp = in->next;
}

/* ------------------------------------------------------------------------
 * Groups (hold g_mu). */

static coll_group* find_group(uint64_t ctx_id, int32_t key) {
  coll_group* g;
  for (g = g_groups; g != NULL; g = g->next) {
    if (g->ctx_id == ctx_id && g->key == key) return g;
  }
  return NULL;
}

static void set_group_failure(coll_group* g, TF_Code code, const char* msg) {
  coll_instance* in;
  if (g->code != TF_OK) return;
  g->code = code;
  g->msg = tfe_strdup(msg);
  /* Members already waiting in this group's instances fail too. */
  for (in = g_instances; in != NULL; in = in->next) {
    if (in->ctx_id == g->ctx_id && in->group_key == g->key &&
        in->state == GATHERING) {
      fail_instance(in, code, msg);
    }
  }
}

/* Joins member `key` (on `device`) to the group; 0 with s set when the
 * group is failed or the member does not fit. */
static int join_group(uint64_t ctx_id, const tfe_coll_request* r,
                      const char* device, const char* device_type,
                      const char* key, TF_Status* s) {
  coll_group* g = find_group(ctx_id, r->group_key);
  char msg[768];
  int i;
  if (g == NULL) {
    g = (coll_group*)tfe_calloc(1, sizeof(*g));
    if (g == NULL) goto oom;
    g->members = (char**)tfe_calloc((size_t)r->group_size, sizeof(char*));
    if (g->members == NULL) {
      tfe_free(g);
      goto oom;
    }
    g->ctx_id = ctx_id;
    g->key = r->group_key;
    g->size = r->group_size;
    g->code = TF_OK;
    snprintf(g->device_type, sizeof g->device_type, "%s", device_type);
    g->next = g_groups;
    g_groups = g;
  }
  if (g->code == TF_OK) {
    if (strcmp(g->device_type, device_type) != 0) {
      snprintf(msg, sizeof msg,
               "Device %s is joining a group with incompatible device type "
               "%s (group_key=%d)",
               device, g->device_type, (int)g->key);
      set_group_failure(g, TF_INTERNAL, msg);
    } else if (g->size != r->group_size) {
      /* "size%d" without a space, as TF words it */
      snprintf(msg, sizeof msg,
               "Device %s is joining a group with size%d, but that group "
               "has size %d (group_key=%d)",
               device, (int)r->group_size, (int)g->size, (int)g->key);
      set_group_failure(g, TF_INTERNAL, msg);
    }
  }
  if (g->code == TF_OK) {
    for (i = 0; i < g->num_members; i++) {
      if (strcmp(g->members[i], key) == 0) break;
    }
    if (i == g->num_members) {
      if (g->num_members == g->size) {
        snprintf(msg, sizeof msg,
                 "Device %s is joining a group that is already full "
                 "(group_key=%d)",
                 device, (int)g->key);
        set_group_failure(g, TF_INTERNAL, msg);
      } else {
        g->members[g->num_members] = tfe_strdup(key);
        if (g->members[g->num_members] == NULL) goto oom;
        g->num_members++;
      }
    }
  }
  if (g->code != TF_OK) {
    TF_SetStatus(s, g->code,
                 g->msg != NULL ? g->msg : "the collective group failed");
    return 0;
  }
  return 1;
oom:
  TF_SetStatus(s, TF_RESOURCE_EXHAUSTED,
               "out of memory joining a collective group");
  return 0;
}

static coll_abort* find_abort(uint64_t ctx_id) {
  coll_abort* a;
  for (a = g_aborts; a != NULL; a = a->next) {
    if (a->ctx_id == ctx_id) return a;
  }
  return NULL;
}

void tfe_collectives_abort(uint64_t ctx_id, TF_Code code, const char* msg) {
  coll_instance* in;
  coll_abort* a;
  if (code == TF_OK) return;
  if (msg == NULL) msg = "";
  pthread_mutex_lock(&g_mu);
  a = find_abort(ctx_id);
  if (a == NULL) {
    a = (coll_abort*)tfe_calloc(1, sizeof(*a));
    if (a != NULL) {
      a->ctx_id = ctx_id;
      a->next = g_aborts;
      g_aborts = a;
    }
  }
  if (a != NULL) {
    char* copy = tfe_strdup(msg);
    if (copy != NULL || a->msg == NULL) {
      tfe_free(a->msg);
      a->msg = copy;
      a->code = code;
    }
  }
  for (in = g_instances; in != NULL; in = in->next) {
    if (in->ctx_id == ctx_id && in->state == GATHERING) {
      fail_instance(in, code, msg);
    }
  }
  pthread_mutex_unlock(&g_mu);
}

void tfe_collectives_clear_context(uint64_t ctx_id) {
  coll_group** pp;
  coll_abort** ap;
  pthread_mutex_lock(&g_mu);
  ap = &g_aborts;
  while (*ap != NULL) {
    coll_abort* a = *ap;
    if (a->ctx_id == ctx_id) {
      *ap = a->next;
      tfe_free(a->msg);
      tfe_free(a);
    } else {
      ap = &a->next;
    }
  }
  pp = &g_groups;
  while (*pp != NULL) {
    coll_group* g = *pp;
    if (g->ctx_id == ctx_id) {
      int i;
      *pp = g->next;
      for (i = 0; i < g->num_members; i++) tfe_free(g->members[i]);
      tfe_free(g->members);
      tfe_free(g->msg);
      tfe_free(g);
    } else {
      pp = &g->next;
    }
  }
  pthread_mutex_unlock(&g_mu);
}

/* ------------------------------------------------------------------------
 * The arithmetic of reductions. */

static double merge_d(int op, double a, double b) {
  switch (op) {
    case TFE_COLL_ADD:
      return a + b;
    case TFE_COLL_MUL:
      return a * b;
    case TFE_COLL_MIN:
      if (isnan(a) || isnan(b)) return a + b; /* NaN propagates */
      return b < a ? b : a;
    default:
      if (isnan(a) || isnan(b)) return a + b;
      return b > a ? b : a;
  }
}

static int64_t merge_i(int op, int64_t a, int64_t b) {
  switch (op) {
    case TFE_COLL_ADD: /* wraps, as TF's integer Add */
      return (int64_t)((uint64_t)a + (uint64_t)b);
    case TFE_COLL_MUL:
      return (int64_t)((uint64_t)a * (uint64_t)b);
    case TFE_COLL_MIN:
      return b < a ? b : a;
    default:
      return b > a ? b : a;
  }
}

/* acc = merge(acc, x) elementwise, n elements of dtype dt. */
static void merge_into(TF_DataType dt, int op, void* acc, const void* x,
                       int64_t n) {
  int64_t i;
  switch (dt) {
    case TF_FLOAT: {
      float* a = (float*)acc;
      const float* b = (const float*)x;
      for (i = 0; i < n; i++) a[i] = (float)merge_d(op, a[i], b[i]);
      break;
    }
    case TF_DOUBLE: {
      double* a = (double*)acc;
      const double* b = (const double*)x;
      for (i = 0; i < n; i++) a[i] = merge_d(op, a[i], b[i]);
      break;
    }
    case TF_HALF: {
      uint16_t* a = (uint16_t*)acc;
      const uint16_t* b = (const uint16_t*)x;
      for (i = 0; i < n; i++) {
        a[i] = kutil_f32_to_f16((float)merge_d(op, kutil_f16_to_f32(a[i]),
                                               kutil_f16_to_f32(b[i])));
      }
      break;
    }
    case TF_BFLOAT16: {
      uint16_t* a = (uint16_t*)acc;
      const uint16_t* b = (const uint16_t*)x;
      for (i = 0; i < n; i++) {
        a[i] = kutil_f32_to_bf16((float)merge_d(op, kutil_bf16_to_f32(a[i]),
                                                kutil_bf16_to_f32(b[i])));
      }
      break;
    }
    case TF_INT32: {
      int32_t* a = (int32_t*)acc;
      const int32_t* b = (const int32_t*)x;
      for (i = 0; i < n; i++) a[i] = (int32_t)(uint32_t)merge_i(op, a[i], b[i]);
      break;
    }
    case TF_INT64: {
      int64_t* a = (int64_t*)acc;
      const int64_t* b = (const int64_t*)x;
      for (i = 0; i < n; i++) a[i] = merge_i(op, a[i], b[i]);
      break;
    }
    default:
      break;
  }
}

/* acc /= d elementwise (TF's Div: integers truncate toward zero). */
static void divide(TF_DataType dt, void* acc, int64_t n, int32_t d) {
  int64_t i;
  switch (dt) {
    case TF_FLOAT: {
      float* a = (float*)acc;
      for (i = 0; i < n; i++) a[i] = a[i] / (float)d;
      break;
    }
    case TF_DOUBLE: {
      double* a = (double*)acc;
      for (i = 0; i < n; i++) a[i] = a[i] / (double)d;
      break;
    }
    case TF_HALF: {
      uint16_t* a = (uint16_t*)acc;
      for (i = 0; i < n; i++) {
        a[i] = kutil_f32_to_f16(kutil_f16_to_f32(a[i]) /
                                kutil_f16_to_f32(kutil_f32_to_f16((float)d)));
      }
      break;
    }
    case TF_BFLOAT16: {
      uint16_t* a = (uint16_t*)acc;
      for (i = 0; i < n; i++) {
        a[i] = kutil_f32_to_bf16(
            kutil_bf16_to_f32(a[i]) /
            kutil_bf16_to_f32(kutil_f32_to_bf16((float)d)));
      }
      break;
    }
    case TF_INT32: {
      int32_t* a = (int32_t*)acc;
      for (i = 0; i < n; i++) a[i] = a[i] / d;
      break;
    }
    case TF_INT64: {
      int64_t* a = (int64_t*)acc;
      for (i = 0; i < n; i++) a[i] = a[i] / (int64_t)d;
      break;
    }
    default:
      break;
  }
}

/* Computes in->result from the members' inputs (all arrived, ranks set).
 * Runs without g_mu. Returns 0 with s set on failure. */
static int compute(coll_instance* in, TF_Status* s) {
  const int32_t n = in->size;
  size_t esz = TF_DataTypeSize(in->dtype);
  coll_member** by_rank;
  TF_Tensor* out;
  int32_t i;
  if (in->kind == TFE_COLL_BARRIER) return 1; /* nothing to compute */
  by_rank = (coll_member**)tfe_calloc((size_t)n, sizeof(*by_rank));
  if (by_rank == NULL) goto oom;
  for (i = 0; i < n; i++) by_rank[in->members[i].rank] = &in->members[i];
  if (in->kind == TFE_COLL_REDUCE || in->kind == TFE_COLL_REDUCE_SCATTER) {
    /* The whole reduction (members of a reduce-scatter take a block). */
    const TF_Tensor* x = by_rank[0]->input;
    out = TF_AllocateTensor(in->dtype, x->dims, x->num_dims,
                            (size_t)kutil_num_elements(x) * esz);
  } else if (in->kind == TFE_COLL_ALL_TO_ALL) {
    /* Rank r's output at block r: n inputs' worth. */
    int64_t flat = num_elements(in->dims, in->num_dims) * n;
    out = TF_AllocateTensor(in->dtype, &flat, 1, (size_t)flat * esz);
  } else {
    out = TF_AllocateTensor(in->dtype, in->dims, in->num_dims,
                            (size_t)num_elements(in->dims, in->num_dims) *
                                esz);
  }
  if (out == NULL) {
    tfe_free(by_rank);
    goto oom;
  }
  if (in->kind == TFE_COLL_ALL_TO_ALL) {
    /* Output of rank r = block r of every member's input, in rank order. */
    size_t whole = (size_t)num_elements(in->dims, in->num_dims) * esz;
    size_t block = whole / (size_t)n;
    char* dst = (char*)kutil_data(out);
    int32_t r;
    for (r = 0; r < n && block > 0; r++) {
      for (i = 0; i < n; i++) {
        memcpy(dst + (size_t)r * whole + (size_t)i * block,
               (const char*)kutil_data(by_rank[i]->input) + (size_t)r * block,
               block);
      }
    }
  } else if (in->kind == TFE_COLL_REDUCE ||
             in->kind == TFE_COLL_REDUCE_SCATTER) {
    int64_t count = kutil_num_elements(out);
    if (count > 0) {
      memcpy(kutil_data(out), kutil_data(by_rank[0]->input),
             (size_t)count * esz);
      for (i = 1; i < n; i++) {
        merge_into(in->dtype, in->merge_op, kutil_data(out),
                   kutil_data(by_rank[i]->input), count);
      }
      if (in->final_op == TFE_COLL_DIV) {
        divide(in->dtype, kutil_data(out), count, n);
      }
    }
  } else if (in->kind == TFE_COLL_GATHER) {
    /* Concatenation along dimension 0 in rank order. */
    size_t part = 0;
    char* dst = (char*)kutil_data(out);
    for (i = 0; i < n; i++) {
      part = (size_t)kutil_num_elements(by_rank[i]->input) * esz;
      if (part > 0) memcpy(dst + (size_t)i * part, kutil_data(by_rank[i]->input), part);
    }
  } else {
    size_t bytes = (size_t)kutil_num_elements(out) * esz;
    for (i = 0; i < n; i++) {
      if (by_rank[i]->is_source) {
        if (bytes > 0) {
          memcpy(kutil_data(out), kutil_data(by_rank[i]->input), bytes);
        }
        break;
      }
    }
  }
  tfe_free(by_rank);
  in->result = out;
  return 1;
oom:
  TF_SetStatus(s, TF_RESOURCE_EXHAUSTED,
               "out of memory computing a collective's result");
  return 0;
}

/* ------------------------------------------------------------------------
 * One member. */

static coll_instance* find_open_instance(uint64_t ctx_id,
                                         const tfe_coll_request* r) {
  coll_instance* in;
  for (in = g_instances; in != NULL; in = in->next) {
    if (in->ctx_id == ctx_id && in->group_key == r->group_key &&
        in->instance_key == r->instance_key && in->state == GATHERING) {
      return in;
    }
  }
  return NULL;
}

static coll_instance* new_instance(uint64_t ctx_id,
                                   const tfe_coll_request* r) {
  coll_instance* in = (coll_instance*)tfe_calloc(1, sizeof(*in));
  pthread_condattr_t attr;
  if (in == NULL) return NULL;
  in->members =
      (coll_member*)tfe_calloc((size_t)r->group_size, sizeof(coll_member));
  in->dims = (int64_t*)tfe_calloc((size_t)(r->num_dims > 0 ? r->num_dims : 1),
                                  sizeof(int64_t));
  if (in->members == NULL || in->dims == NULL ||
      pthread_condattr_init(&attr) != 0) {
    tfe_free(in->members);
    tfe_free(in->dims);
    tfe_free(in);
    return NULL;
  }
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  if (pthread_cond_init(&in->cv, &attr) != 0) {
    pthread_condattr_destroy(&attr);
    tfe_free(in->members);
    tfe_free(in->dims);
    tfe_free(in);
    return NULL;
  }
  pthread_condattr_destroy(&attr);
  in->ctx_id = ctx_id;
  in->group_key = r->group_key;
  in->instance_key = r->instance_key;
  in->size = r->group_size;
  in->kind = r->kind;
  in->merge_op = r->merge_op;
  in->final_op = r->final_op;
  in->dtype = r->dtype;
  in->num_dims = r->num_dims;
  if (r->num_dims > 0) {
    memcpy(in->dims, r->dims, sizeof(int64_t) * (size_t)r->num_dims);
  }
  in->state = GATHERING;
  in->code = TF_OK;
  in->next = g_instances;
  g_instances = in;
  return in;
}

static int same_dims(const coll_instance* in, const tfe_coll_request* r) {
  int i;
  if (in->num_dims != r->num_dims) return 0;
  for (i = 0; i < r->num_dims; i++) {
    if (in->dims[i] != r->dims[i]) return 0;
  }
  return 1;
}

/* Checks member r against the instance's first member; fails the
 * instance on a mismatch. Hold g_mu. Returns 0 on a mismatch. */
static int check_member(coll_instance* in, const tfe_coll_request* r,
                        const char* device, const char* key) {
  char msg[1024], a[256], b[256];
  int i;
  if (in->kind != r->kind || in->merge_op != r->merge_op ||
      in->final_op != r->final_op) {
    snprintf(msg, sizeof msg,
             "Collective instance %d of group %d: the op at device %s is a "
             "different collective (%s) than another member's (%s), or "
             "uses different merge/final ops",
             (int)r->instance_key, (int)r->group_key, device,
             kind_name(r->kind), kind_name(in->kind));
    fail_instance(in, TF_INVALID_ARGUMENT, msg);
    return 0;
  }
  if (in->dtype != r->dtype) {
    snprintf(msg, sizeof msg,
             "Collective instance %d of group %d: the op at device %s has "
             "data type %s but another member in the group has data type %s",
             (int)r->instance_key, (int)r->group_key, device,
             tfe_dtype_enum_name(r->dtype), tfe_dtype_enum_name(in->dtype));
    fail_instance(in, TF_INVALID_ARGUMENT, msg);
    return 0;
  }
  if (!same_dims(in, r)) {
    shape_str(r->dims, r->num_dims, a, sizeof a);
    shape_str(in->dims, in->num_dims, b, sizeof b);
    snprintf(msg, sizeof msg,
             "Shape mismatch in the collective instance %d. Op at device %s "
             "expected shape %s but another member in the group expected "
             "shape %s. This is likely due to different input shapes at "
             "different members of the collective op.",
             (int)r->instance_key, device, a, b);
    fail_instance(in, TF_INVALID_ARGUMENT, msg);
    return 0;
  }
  for (i = 0; i < in->arrived; i++) {
    if (strcmp(in->members[i].key, key) == 0) {
      snprintf(msg, sizeof msg,
               "Collective instance %d of group %d: device %s joined it "
               "twice",
               (int)r->instance_key, (int)r->group_key, key);
      fail_instance(in, TF_INTERNAL, msg);
      return 0;
    }
  }
  if (r->kind == TFE_COLL_BCAST && r->is_source && in->sources > 0) {
    snprintf(msg, sizeof msg,
             "Collective broadcast instance %d of group %d has more than "
             "one sender (the second is at device %s)",
             (int)r->instance_key, (int)r->group_key, device);
    fail_instance(in, TF_INTERNAL, msg);
    return 0;
  }
  return 1;
}

/* Ranks the members (all arrived): the ranks users gave (all members or
 * none, each once), else by device. Hold g_mu. 0 with msg set when the
 * users' ranks do not fit. */
static int assign_ranks(coll_instance* in, char* msg, size_t cap) {
  int32_t i, j, given = 0;
  for (i = 0; i < in->size; i++) given += in->members[i].user_rank >= 0;
  if (given > 0) {
    if (given != in->size) {
      snprintf(msg, cap, "Only %d of the %d members of collective instance "
               "%d of group %d gave a rank: all or none must",
               (int)given, (int)in->size, (int)in->instance_key,
               (int)in->group_key);
      return 0;
    }
    for (i = 0; i < in->size; i++) {
      for (j = 0; j < i; j++) {
        if (in->members[j].user_rank == in->members[i].user_rank) {
          snprintf(msg, cap, "Duplicate rank %d in collective instance %d "
                   "of group %d",
                   in->members[i].user_rank, (int)in->instance_key,
                   (int)in->group_key);
          return 0;
        }
      }
      in->members[i].rank = in->members[i].user_rank;
    }
    return 1;
  }
  for (i = 0; i < in->size; i++) {
    int rank = 0;
    for (j = 0; j < in->size; j++) {
      if (compare_members(&in->members[j], &in->members[i]) < 0) rank++;
    }
    in->members[i].rank = rank;
  }
  return 1;
}

static void deadline_after(double seconds, struct timespec* ts) {
  double whole = floor(seconds);
  clock_gettime(CLOCK_MONOTONIC, ts);
  ts->tv_sec += (time_t)whole;
  ts->tv_nsec += (long)((seconds - whole) * 1e9);
  if (ts->tv_nsec >= 1000000000L) {
    ts->tv_sec += 1;
    ts->tv_nsec -= 1000000000L;
  }
}

void tfe_collective_run(tfe_kernel_context* k, const tfe_coll_request* r) {
  const char* device = k->device_name != NULL ? k->device_name : "";
  uint64_t ctx_id = tfe_resource_kernel_ctx_id(k);
  int replica = tfe_collective_thread_replica();
  tfe_device_spec spec;
  char key[512], msg[768];
  coll_instance* in;
  coll_group* g;
  coll_member* me;
  struct timespec deadline;
  double timeout =
      r->timeout_seconds > 0 ? (double)r->timeout_seconds : default_timeout();
  int last = 0, group_complete;

  if (replica >= 0) {
    snprintf(key, sizeof key, "%s#%d", device, replica);
  } else {
    snprintf(key, sizeof key, "%s", device);
  }
  if (!tfe_device_spec_parse(device, &spec) || !spec.has_type) {
    spec.type[0] = '\0';
  }
  deadline_after(timeout, &deadline);

  pthread_mutex_lock(&g_mu);
  {
    const coll_abort* a = find_abort(ctx_id);
    if (a != NULL) {
      TF_SetStatus(k->status, a->code,
                   a->msg != NULL ? a->msg : "collective ops were aborted");
      pthread_mutex_unlock(&g_mu);
      return;
    }
  }
  if (!join_group(ctx_id, r, device, spec.type, key, k->status)) {
    pthread_mutex_unlock(&g_mu);
    return;
  }
  in = find_open_instance(ctx_id, r);
  if (in == NULL) {
    in = new_instance(ctx_id, r);
    if (in == NULL) {
      pthread_mutex_unlock(&g_mu);
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                 "out of memory starting a collective instance");
      return;
    }
  }
  me = &in->members[in->arrived];
  if (check_member(in, r, device, key)) {
    me->key = tfe_strdup(key);
    if (me->key == NULL) {
      fail_instance(in, TF_RESOURCE_EXHAUSTED,
                    "out of memory joining a collective instance");
    } else {
      me->device = device;
      me->replica = replica;
      me->input = r->input;
      me->is_source = r->is_source;
      me->user_rank = r->user_rank;
      in->arrived++;
      if (r->is_source) in->sources++;
      if (in->arrived == in->size) {
        if (in->kind == TFE_COLL_BCAST && in->sources == 0) {
          /* TF's wording */
          snprintf(msg, sizeof msg,
                   "Instance %d found no source for broadcast.  This could "
                   "mean that there were group_size=%d BcastRecvs but no "
                   "BcastSend.",
                   (int)r->instance_key, (int)in->size);
          fail_instance(in, TF_INTERNAL, msg);
        } else if (!assign_ranks(in, msg, sizeof msg)) {
          fail_instance(in, TF_INVALID_ARGUMENT, msg);
        } else {
          in->state = COMPUTING;
          last = 1;
        }
      }
    }
  } else {
    me = NULL;
  }
  if (me == NULL || me->key == NULL) {
    /* Not counted as a member: take the instance's error and go. A failed
     * instance with nobody in it is freed here. */
    TF_SetStatus(k->status, in->code, in->msg != NULL ? in->msg : "");
    if (in->state == FAILED && in->left == in->arrived) {
      unlink_instance(in);
      free_instance(in);
    }
    pthread_mutex_unlock(&g_mu);
    return;
  }

  if (last) {
    TF_Status* s = TF_NewStatus();
    int ok;
    pthread_mutex_unlock(&g_mu);
    ok = s != NULL && compute(in, s);
    pthread_mutex_lock(&g_mu);
    if (ok) {
      in->state = DONE;
      pthread_cond_broadcast(&in->cv);
    } else {
      in->state = GATHERING; /* so that fail_instance takes it */
      fail_instance(in, s != NULL ? TF_GetCode(s) : TF_RESOURCE_EXHAUSTED,
                    s != NULL ? TF_Message(s) : "out of memory");
    }
    TF_DeleteStatus(s);
  }
  while (in->state == GATHERING || in->state == COMPUTING) {
    int rc = pthread_cond_timedwait(&in->cv, &g_mu, &deadline);
    if (rc == ETIMEDOUT && in->state == GATHERING) {
      g = find_group(ctx_id, r->group_key);
      group_complete = g != NULL && g->num_members == g->size;
      fail_instance(in, TF_DEADLINE_EXCEEDED,
                    group_complete
                        ? "Collective has timed out during execution."
                        : "Collective has timed out waiting for other "
                          "workers.");
    } else if (rc == ETIMEDOUT && in->state == COMPUTING) {
      /* All arrived: the result is being computed; wait for it (the
       * computing member broadcasts when it is done). */
      pthread_cond_wait(&in->cv, &g_mu);
    }
  }
  if (in->state == FAILED) {
    TF_SetStatus(k->status, in->code, in->msg != NULL ? in->msg : "");
  }
  pthread_mutex_unlock(&g_mu);

  if (in->state == DONE && in->kind != TFE_COLL_BARRIER) {
    /* Each member gets its own copy (the sender of a broadcast too); the
     * members of a reduce-scatter or all-to-all their rank's block. */
    TF_Tensor* out = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims,
                                             in->num_dims);
    if (out != NULL) {
      size_t bytes = TF_TensorByteSize(out), off = 0;
      if (in->kind == TFE_COLL_REDUCE_SCATTER ||
          in->kind == TFE_COLL_ALL_TO_ALL) {
        off = (size_t)me->rank * bytes;
      }
      if (bytes > 0) {
        memcpy(kutil_data(out), (const char*)kutil_data(in->result) + off,
               bytes);
      }
    }
  }

  pthread_mutex_lock(&g_mu);
  in->left++;
  if (in->left == in->arrived &&
      (in->state == DONE || in->state == FAILED)) {
    unlink_instance(in);
    free_instance(in);
  }
  pthread_mutex_unlock(&g_mu);
}
