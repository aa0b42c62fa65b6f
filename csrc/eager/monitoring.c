/* Monitoring metrics of the experimental eager API: counters, integer /
 * string / bool gauges and histogram samplers, each with 0..4 labels.
 *
 * Structure:
 *   - A process-wide registry maps a metric name to the live metric that
 *     owns it. As in TensorFlow 2.21, registering a name that is already
 *     taken is not an error: a warning is logged and the newer metric takes
 *     the name over.
 *   - A metric owns a hash table of cells keyed by label values. A cell is
 *     created on first request, never moves and lives until its metric is
 *     deleted, so callers may keep cell pointers while the metric lives.
 *   - Counter and integer/bool gauge cells are single atomics; string gauge
 *     and sampler cells have their own mutex. The table has one mutex, taken
 *     only to find or create a cell.
 *
 * docs/MONITORING.md describes behaviour and differences from TF. */
#include "eager/monitoring.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/logging.h"

#define MON_MAX_LABELS 4

typedef enum {
  MON_COUNTER,
  MON_INT_GAUGE,
  MON_STRING_GAUGE,
  MON_BOOL_GAUGE,
  MON_SAMPLER
} mon_kind;

static const char* const kind_names[] = {"counter", "int gauge", "string gauge",
                                         "bool gauge", "sampler"};

/* Common head of every cell: hash chain and the label values it stands
 * for. */
typedef struct mon_node {
  struct mon_node* next;
  uint64_t hash;
  char* labels[MON_MAX_LABELS];
} mon_node;

struct TFE_MonitoringCounterCell {
  mon_node node;
  _Atomic int64_t value;
};

struct TFE_MonitoringIntGaugeCell {
  mon_node node;
  _Atomic int64_t value;
};

struct TFE_MonitoringBoolGaugeCell {
  mon_node node;
  atomic_bool value;
};

struct TFE_MonitoringStringGaugeCell {
  mon_node node;
  pthread_mutex_t lock;
  char* value; /* never NULL */
};

/* A histogram over the metric's bucket limits: counts[i] counts samples v
 * with limits[i-1] <= v < limits[i] (the first bucket has no lower end;
 * the last limit is DBL_MAX and also takes what lies above it). */
struct TFE_MonitoringSamplerCell {
  mon_node node;
  pthread_mutex_t lock;
  const double* limits; /* the metric's */
  size_t nlimits;
  double min, max, num, sum, sum_squares;
  double* counts;
};

typedef struct mon_metric {
  mon_kind kind;
  int nlabels;
  char* name;
  char* description;
  char* label_names[MON_MAX_LABELS];
  double* limits; /* samplers: bucket upper bounds, last one DBL_MAX */
  size_t nlimits;
  pthread_mutex_t lock; /* guards the table below */
  mon_node** table;
  size_t table_size; /* power of two, or 0 before the first cell */
  size_t ncells;
} mon_metric;

/* The public metric types are thin wrappers so that each keeps its own C
 * type. */
#define MON_METRIC_TYPE(T) \
  struct T {               \
    mon_metric m;          \
  }
MON_METRIC_TYPE(TFE_MonitoringCounter0);
MON_METRIC_TYPE(TFE_MonitoringCounter1);
MON_METRIC_TYPE(TFE_MonitoringCounter2);
MON_METRIC_TYPE(TFE_MonitoringIntGauge0);
MON_METRIC_TYPE(TFE_MonitoringIntGauge1);
MON_METRIC_TYPE(TFE_MonitoringIntGauge2);
MON_METRIC_TYPE(TFE_MonitoringStringGauge0);
MON_METRIC_TYPE(TFE_MonitoringStringGauge1);
MON_METRIC_TYPE(TFE_MonitoringStringGauge2);
MON_METRIC_TYPE(TFE_MonitoringStringGauge3);
MON_METRIC_TYPE(TFE_MonitoringStringGauge4);
MON_METRIC_TYPE(TFE_MonitoringBoolGauge0);
MON_METRIC_TYPE(TFE_MonitoringBoolGauge1);
MON_METRIC_TYPE(TFE_MonitoringBoolGauge2);
MON_METRIC_TYPE(TFE_MonitoringSampler0);
MON_METRIC_TYPE(TFE_MonitoringSampler1);
MON_METRIC_TYPE(TFE_MonitoringSampler2);

/* Buckets only record their parameters; each sampler computes its own
 * limits when created (so the buckets may be deleted at any time). */
struct TFE_MonitoringBuckets {
  double scale;
  double growth_factor;
  int bucket_count;
};

/* ------------------------------------------------------------------------
 * Registry of names. */

typedef struct mon_reg {
  struct mon_reg* next;
  const mon_metric* metric; /* its name is the key */
} mon_reg;

static pthread_mutex_t g_reg_lock = PTHREAD_MUTEX_INITIALIZER;
static mon_reg* g_reg;

/* Takes `name` for m; a previous holder loses it (with a warning, as TF). */
static int registry_add(const mon_metric* m) {
  mon_reg* e;
  mon_reg* fresh = (mon_reg*)tfe_malloc(sizeof(*fresh));
  if (fresh == NULL) return 0;
  pthread_mutex_lock(&g_reg_lock);
  for (e = g_reg; e != NULL; e = e->next) {
    if (strcmp(e->metric->name, m->name) == 0) break;
  }
  if (e != NULL) {
    TF_Log(TF_WARNING,
           "Registering a second metric named %s: the newer one replaces the "
           "older one in the registry; check that the metric is not created "
           "twice and that no other metric uses the name.",
           m->name);
    e->metric = m;
    tfe_free(fresh);
  } else {
    fresh->metric = m;
    fresh->next = g_reg;
    g_reg = fresh;
  }
  pthread_mutex_unlock(&g_reg_lock);
  return 1;
}

/* Drops m's entry; a name taken over by a newer metric stays with it. */
static void registry_remove(const mon_metric* m) {
  mon_reg** p;
  pthread_mutex_lock(&g_reg_lock);
  for (p = &g_reg; *p != NULL; p = &(*p)->next) {
    if ((*p)->metric == m) {
      mon_reg* dead = *p;
      *p = dead->next;
      tfe_free(dead);
      break;
    }
  }
  pthread_mutex_unlock(&g_reg_lock);
}

const void* tfe_monitoring_registered(const char* name) {
  const mon_reg* e;
  const void* found = NULL;
  if (name == NULL) return NULL;
  pthread_mutex_lock(&g_reg_lock);
  for (e = g_reg; e != NULL; e = e->next) {
    if (strcmp(e->metric->name, name) == 0) {
      found = e->metric;
      break;
    }
  }
  pthread_mutex_unlock(&g_reg_lock);
  return found;
}

size_t tfe_monitoring_registered_count(void) {
  const mon_reg* e;
  size_t n = 0;
  pthread_mutex_lock(&g_reg_lock);
  for (e = g_reg; e != NULL; e = e->next) n++;
  pthread_mutex_unlock(&g_reg_lock);
  return n;
}

/* ------------------------------------------------------------------------
 * Bucket limits. */

/* scale * growth_factor^i for i < bucket_count, then DBL_MAX unless the
 * last limit already is DBL_MAX. Limits must be finite and strictly
 * increasing (TF aborts the process otherwise). */
static int compute_limits(const TFE_MonitoringBuckets* b, double** out,
                          size_t* n_out, TF_Status* status) {
  size_t n, i, bytes;
  double bound = b->scale;
  double* limits;
  if (b->bucket_count <= 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "exponential buckets need bucket_count > 0, got %d",
                    b->bucket_count);
    return 0;
  }
  n = (size_t)b->bucket_count;
  if (!tfe_mul_size(n + 1, sizeof(double), &bytes) ||
      (limits = (double*)tfe_malloc(bytes)) == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "cannot allocate %zu bucket limits", n + 1);
    return 0;
  }
  for (i = 0; i < n; i++) {
    if (!isfinite(bound) || (i > 0 && !(bound > limits[i - 1]))) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "exponential buckets (scale %g, growth_factor %g, "
                      "bucket_count %d): bucket limit %zu is %g; limits must "
                      "be finite and strictly increasing",
                      b->scale, b->growth_factor, b->bucket_count, i, bound);
      tfe_free(limits);
      return 0;
    }
    limits[i] = bound;
    bound *= b->growth_factor;
  }
  if (limits[n - 1] != DBL_MAX) limits[n++] = DBL_MAX;
  *out = limits;
  *n_out = n;
  return 1;
}

/* ------------------------------------------------------------------------
 * Metrics. */

static void free_node(mon_kind kind, mon_node* node, int nlabels) {
  int i;
  for (i = 0; i < nlabels; i++) tfe_free(node->labels[i]);
  if (kind == MON_STRING_GAUGE) {
    TFE_MonitoringStringGaugeCell* c = (TFE_MonitoringStringGaugeCell*)node;
    pthread_mutex_destroy(&c->lock);
    tfe_free(c->value);
  } else if (kind == MON_SAMPLER) {
    TFE_MonitoringSamplerCell* c = (TFE_MonitoringSamplerCell*)node;
    pthread_mutex_destroy(&c->lock);
    tfe_free(c->counts);
  }
  tfe_free(node);
}

static void metric_free(mon_metric* m) {
  size_t i;
  int l;
  for (i = 0; i < m->table_size; i++) {
    mon_node* node = m->table[i];
    while (node != NULL) {
      mon_node* next = node->next;
      free_node(m->kind, node, m->nlabels);
      node = next;
    }
  }
  tfe_free(m->table);
  pthread_mutex_destroy(&m->lock);
  tfe_free(m->name);
  tfe_free(m->description);
  for (l = 0; l < m->nlabels; l++) tfe_free(m->label_names[l]);
  tfe_free(m->limits);
  tfe_free(m);
}

/* Creates and registers a metric. `labels` holds nlabels label names. */
static mon_metric* metric_new(const char* fn, mon_kind kind, int nlabels,
                              const char* name, const char* description,
                              const char* const* labels,
                              const TFE_MonitoringBuckets* buckets,
                              TF_Status* status) {
  mon_metric* m;
  int i;
  if (status == NULL) {
    TF_Log(TF_ERROR, "%s: status is NULL; no metric created", fn);
    return NULL;
  }
  if (name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s: name is NULL", fn);
    return NULL;
  }
  if (description == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: description of metric %s is NULL", fn, name);
    return NULL;
  }
  for (i = 0; i < nlabels; i++) {
    if (labels[i] == NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "%s: label%d of metric %s is NULL", fn, i + 1, name);
      return NULL;
    }
  }
  if (kind == MON_SAMPLER && buckets == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: buckets of metric %s is NULL", fn, name);
    return NULL;
  }
  m = (mon_metric*)tfe_calloc(1, sizeof(*m));
  if (m == NULL) goto oom;
  m->kind = kind;
  m->nlabels = nlabels;
  pthread_mutex_init(&m->lock, NULL);
  m->name = tfe_strdup(name);
  m->description = tfe_strdup(description);
  if (m->name == NULL || m->description == NULL) goto oom;
  for (i = 0; i < nlabels; i++) {
    m->label_names[i] = tfe_strdup(labels[i]);
    if (m->label_names[i] == NULL) goto oom;
  }
  if (kind == MON_SAMPLER &&
      !compute_limits(buckets, &m->limits, &m->nlimits, status)) {
    metric_free(m);
    return NULL;
  }
  if (!registry_add(m)) goto oom;
  tfe_status_ok(status);
  return m;
oom:
  if (m != NULL) metric_free(m);
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "%s: out of memory creating %s %s", fn, kind_names[kind],
                  name);
  return NULL;
}

static void metric_delete(mon_metric* m) {
  if (m == NULL) return;
  registry_remove(m);
  metric_free(m);
}

static uint64_t hash_labels(const char* const* labels, int n) {
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */
  int i;
  for (i = 0; i < n; i++) {
    const unsigned char* p = (const unsigned char*)labels[i];
    for (; *p; p++) {
      h ^= *p;
      h *= 1099511628211ULL;
    }
    /* A separator that cannot occur inside a C string. */
    h ^= 0x100;
    h *= 1099511628211ULL;
  }
  return h;
}

static int labels_equal(const mon_node* node, const char* const* labels,
                        int n) {
  int i;
  for (i = 0; i < n; i++) {
    if (strcmp(node->labels[i], labels[i]) != 0) return 0;
  }
  return 1;
}

/* Doubles the table (or creates it). Caller holds m->lock. */
static int grow_table(mon_metric* m) {
  size_t new_size = m->table_size ? m->table_size * 2 : 8, i, bytes;
  mon_node** t;
  if (!tfe_mul_size(new_size, sizeof(*t), &bytes)) return 0;
  t = (mon_node**)tfe_calloc(new_size, sizeof(*t));
  if (t == NULL) return 0;
  for (i = 0; i < m->table_size; i++) {
    mon_node* node = m->table[i];
    while (node != NULL) {
      mon_node* next = node->next;
      size_t slot = (size_t)(node->hash & (new_size - 1));
      node->next = t[slot];
      t[slot] = node;
      node = next;
    }
  }
  tfe_free(m->table);
  m->table = t;
  m->table_size = new_size;
  return 1;
}

/* A fresh, zero-valued cell of m's kind for `labels`. */
static mon_node* new_cell(const mon_metric* m, const char* const* labels,
                          uint64_t hash) {
  size_t size = 0;
  mon_node* node;
  int i;
  switch (m->kind) {
    case MON_COUNTER:
      size = sizeof(TFE_MonitoringCounterCell);
      break;
    case MON_INT_GAUGE:
      size = sizeof(TFE_MonitoringIntGaugeCell);
      break;
    case MON_STRING_GAUGE:
      size = sizeof(TFE_MonitoringStringGaugeCell);
      break;
    case MON_BOOL_GAUGE:
      size = sizeof(TFE_MonitoringBoolGaugeCell);
      break;
    case MON_SAMPLER:
      size = sizeof(TFE_MonitoringSamplerCell);
      break;
  }
  node = (mon_node*)tfe_calloc(1, size);
  if (node == NULL) return NULL;
  node->hash = hash;
  for (i = 0; i < m->nlabels; i++) {
    node->labels[i] = tfe_strdup(labels[i]);
    if (node->labels[i] == NULL) {
      while (i-- > 0) tfe_free(node->labels[i]);
      tfe_free(node);
      return NULL;
    }
  }
  switch (m->kind) {
    case MON_COUNTER:
      atomic_init(&((TFE_MonitoringCounterCell*)node)->value, 0);
      break;
    case MON_INT_GAUGE:
      atomic_init(&((TFE_MonitoringIntGaugeCell*)node)->value, 0);
      break;
    case MON_BOOL_GAUGE:
      atomic_init(&((TFE_MonitoringBoolGaugeCell*)node)->value, false);
      break;
    case MON_STRING_GAUGE: {
      TFE_MonitoringStringGaugeCell* c = (TFE_MonitoringStringGaugeCell*)node;
      c->value = tfe_strdup("");
      if (c->value == NULL) goto fail;
      pthread_mutex_init(&c->lock, NULL);
      break;
    }
    case MON_SAMPLER: {
      TFE_MonitoringSamplerCell* c = (TFE_MonitoringSamplerCell*)node;
      c->counts = (double*)tfe_calloc(m->nlimits, sizeof(double));
      if (c->counts == NULL) goto fail;
      c->limits = m->limits;
      c->nlimits = m->nlimits;
      /* An empty histogram, as TF starts one. */
      c->min = m->limits[m->nlimits - 1];
      c->max = -DBL_MAX;
      pthread_mutex_init(&c->lock, NULL);
      break;
    }
  }
  return node;
fail:
  for (i = 0; i < m->nlabels; i++) tfe_free(node->labels[i]);
  tfe_free(node);
  return NULL;
}

/* Finds or creates the cell for `labels` (m->nlabels of them). NULL for a
 * NULL metric, a NULL label value or when memory runs out. */
static mon_node* metric_cell(const char* fn, mon_metric* m,
                             const char* const* labels) {
  uint64_t hash;
  mon_node* node;
  int i;
  if (m == NULL) return NULL;
  for (i = 0; i < m->nlabels; i++) {
    if (labels[i] == NULL) {
      TF_Log(TF_ERROR, "%s: label%d value is NULL (metric %s); no cell", fn,
             i + 1, m->name);
      return NULL;
    }
  }
  hash = hash_labels(labels, m->nlabels);
  pthread_mutex_lock(&m->lock);
  if (m->table_size > 0) {
    for (node = m->table[hash & (m->table_size - 1)]; node != NULL;
         node = node->next) {
      if (node->hash == hash && labels_equal(node, labels, m->nlabels)) {
        pthread_mutex_unlock(&m->lock);
        return node;
      }
    }
  }
  if (m->ncells >= m->table_size && !grow_table(m)) {
    node = NULL;
  } else {
    node = new_cell(m, labels, hash);
  }
  if (node != NULL) {
    size_t slot = (size_t)(hash & (m->table_size - 1));
    node->next = m->table[slot];
    m->table[slot] = node;
    m->ncells++;
  }
  pthread_mutex_unlock(&m->lock);
  if (node == NULL) {
    TF_Log(TF_ERROR, "%s: out of memory creating a cell of metric %s", fn,
           m->name);
  }
  return node;
}

/* ------------------------------------------------------------------------
 * TF_Buffer output. */

static void free_buffer_bytes(void* data, size_t len) {
  (void)len;
  tfe_free(data);
}

/* Hands `bytes` (tfe_malloc'ed, len long) to buf, releasing what buf held
 * before through its own deallocator. */
static void buffer_take(TF_Buffer* buf, void* bytes, size_t len) {
  if (buf->data_deallocator != NULL) {
    buf->data_deallocator((void*)buf->data, buf->length);
  }
  buf->data = bytes;
  buf->length = len;
  buf->data_deallocator = free_buffer_bytes;
}

/* ------------------------------------------------------------------------
 * Counters. */

void TFE_MonitoringCounterCellIncrementBy(TFE_MonitoringCounterCell* cell,
                                          int64_t value) {
  if (cell == NULL) return;
  /* Wraps around on overflow (atomic arithmetic is two's complement). */
  atomic_fetch_add_explicit(&cell->value, value, memory_order_relaxed);
}

int64_t TFE_MonitoringCounterCellValue(TFE_MonitoringCounterCell* cell) {
  if (cell == NULL) return 0;
  return atomic_load_explicit(&cell->value, memory_order_relaxed);
}

TFE_MonitoringCounter0* TFE_MonitoringNewCounter0(const char* name,
                                                  TF_Status* status,
                                                  const char* description) {
  return (TFE_MonitoringCounter0*)metric_new("TFE_MonitoringNewCounter0",
                                             MON_COUNTER, 0, name, description,
                                             NULL, NULL, status);
}

void TFE_MonitoringDeleteCounter0(TFE_MonitoringCounter0* counter) {
  metric_delete((mon_metric*)counter);
}

TFE_MonitoringCounterCell* TFE_MonitoringGetCellCounter0(
    TFE_MonitoringCounter0* counter) {
  return (TFE_MonitoringCounterCell*)metric_cell(
      "TFE_MonitoringGetCellCounter0", (mon_metric*)counter, NULL);
}

TFE_MonitoringCounter1* TFE_MonitoringNewCounter1(const char* name,
                                                  TF_Status* status,
                                                  const char* description,
                                                  const char* label1) {
  const char* labels[1] = {label1};
  return (TFE_MonitoringCounter1*)metric_new("TFE_MonitoringNewCounter1",
                                             MON_COUNTER, 1, name, description,
                                             labels, NULL, status);
}

void TFE_MonitoringDeleteCounter1(TFE_MonitoringCounter1* counter) {
  metric_delete((mon_metric*)counter);
}

TFE_MonitoringCounterCell* TFE_MonitoringGetCellCounter1(
    TFE_MonitoringCounter1* counter, const char* label1) {
  const char* labels[1] = {label1};
  return (TFE_MonitoringCounterCell*)metric_cell(
      "TFE_MonitoringGetCellCounter1", (mon_metric*)counter, labels);
}

TFE_MonitoringCounter2* TFE_MonitoringNewCounter2(const char* name,
                                                  TF_Status* status,
                                                  const char* description,
                                                  const char* label1,
                                                  const char* label2) {
  const char* labels[2] = {label1, label2};
  return (TFE_MonitoringCounter2*)metric_new("TFE_MonitoringNewCounter2",
                                             MON_COUNTER, 2, name, description,
                                             labels, NULL, status);
}

void TFE_MonitoringDeleteCounter2(TFE_MonitoringCounter2* counter) {
  metric_delete((mon_metric*)counter);
}

TFE_MonitoringCounterCell* TFE_MonitoringGetCellCounter2(
    TFE_MonitoringCounter2* counter, const char* label1, const char* label2) {
  const char* labels[2] = {label1, label2};
  return (TFE_MonitoringCounterCell*)metric_cell(
      "TFE_MonitoringGetCellCounter2", (mon_metric*)counter, labels);
}

/* ------------------------------------------------------------------------
 * Integer gauges. */

void TFE_MonitoringIntGaugeCellSet(TFE_MonitoringIntGaugeCell* cell,
                                   int64_t value) {
  if (cell == NULL) return;
  atomic_store_explicit(&cell->value, value, memory_order_relaxed);
}

int64_t TFE_MonitoringIntGaugeCellValue(TFE_MonitoringIntGaugeCell* cell) {
  if (cell == NULL) return 0;
  return atomic_load_explicit(&cell->value, memory_order_relaxed);
}

TFE_MonitoringIntGauge0* TFE_MonitoringNewIntGauge0(const char* name,
                                                    TF_Status* out_status,
                                                    const char* description) {
  return (TFE_MonitoringIntGauge0*)metric_new(
      "TFE_MonitoringNewIntGauge0", MON_INT_GAUGE, 0, name, description, NULL,
      NULL, out_status);
}

void TFE_MonitoringDeleteIntGauge0(TFE_MonitoringIntGauge0* gauge) {
  metric_delete((mon_metric*)gauge);
}

TFE_MonitoringIntGaugeCell* TFE_MonitoringGetCellIntGauge0(
    TFE_MonitoringIntGauge0* gauge) {
  return (TFE_MonitoringIntGaugeCell*)metric_cell(
      "TFE_MonitoringGetCellIntGauge0", (mon_metric*)gauge, NULL);
}

TFE_MonitoringIntGauge1* TFE_MonitoringNewIntGauge1(const char* name,
                                                    TF_Status* out_status,
                                                    const char* description,
                                                    const char* label1) {
  const char* labels[1] = {label1};
  return (TFE_MonitoringIntGauge1*)metric_new(
      "TFE_MonitoringNewIntGauge1", MON_INT_GAUGE, 1, name, description,
      labels, NULL, out_status);
}

void TFE_MonitoringDeleteIntGauge1(TFE_MonitoringIntGauge1* gauge) {
  metric_delete((mon_metric*)gauge);
}

TFE_MonitoringIntGaugeCell* TFE_MonitoringGetCellIntGauge1(
    TFE_MonitoringIntGauge1* gauge, const char* label1) {
  const char* labels[1] = {label1};
  return (TFE_MonitoringIntGaugeCell*)metric_cell(
      "TFE_MonitoringGetCellIntGauge1", (mon_metric*)gauge, labels);
}

TFE_MonitoringIntGauge2* TFE_MonitoringNewIntGauge2(const char* name,
                                                    TF_Status* out_status,
                                                    const char* description,
                                                    const char* label1,
                                                    const char* label2) {
  const char* labels[2] = {label1, label2};
  return (TFE_MonitoringIntGauge2*)metric_new(
      "TFE_MonitoringNewIntGauge2", MON_INT_GAUGE, 2, name, description,
      labels, NULL, out_status);
}

void TFE_MonitoringDeleteIntGauge2(TFE_MonitoringIntGauge2* gauge) {
  metric_delete((mon_metric*)gauge);
}

TFE_MonitoringIntGaugeCell* TFE_MonitoringGetCellIntGauge2(
    TFE_MonitoringIntGauge2* gauge, const char* label1, const char* label2) {
  const char* labels[2] = {label1, label2};
  return (TFE_MonitoringIntGaugeCell*)metric_cell(
      "TFE_MonitoringGetCellIntGauge2", (mon_metric*)gauge, labels);
}

/* ------------------------------------------------------------------------
 * String gauges. */

void TFE_MonitoringStringGaugeCellSet(TFE_MonitoringStringGaugeCell* cell,
                                      const char* value) {
  char* copy;
  char* old;
  if (cell == NULL) return;
  if (value == NULL) {
    TF_Log(TF_ERROR, "TFE_MonitoringStringGaugeCellSet: value is NULL; the "
                     "gauge keeps its value");
    return;
  }
  copy = tfe_strdup(value);
  if (copy == NULL) {
    TF_Log(TF_ERROR, "TFE_MonitoringStringGaugeCellSet: out of memory; the "
                     "gauge keeps its value");
    return;
  }
  pthread_mutex_lock(&cell->lock);
  old = cell->value;
  cell->value = copy;
  pthread_mutex_unlock(&cell->lock);
  tfe_free(old);
}

void TFE_MonitoringStringGaugeCellValue(TFE_MonitoringStringGaugeCell* cell,
                                        TF_Buffer* buf) {
  char* copy;
  size_t len;
  if (cell == NULL || buf == NULL) return;
  pthread_mutex_lock(&cell->lock);
  len = strlen(cell->value);
  copy = (char*)tfe_malloc(len + 1);
  if (copy != NULL) memcpy(copy, cell->value, len + 1);
  pthread_mutex_unlock(&cell->lock);
  if (copy == NULL) {
    TF_Log(TF_ERROR, "TFE_MonitoringStringGaugeCellValue: out of memory; "
                     "buffer left unchanged");
    return;
  }
  buffer_take(buf, copy, len);
}

TFE_MonitoringStringGauge0* TFE_MonitoringNewStringGauge0(
    const char* name, TF_Status* out_status, const char* description) {
  return (TFE_MonitoringStringGauge0*)metric_new(
      "TFE_MonitoringNewStringGauge0", MON_STRING_GAUGE, 0, name, description,
      NULL, NULL, out_status);
}

void TFE_MonitoringDeleteStringGauge0(TFE_MonitoringStringGauge0* gauge) {
  metric_delete((mon_metric*)gauge);
}

TFE_MonitoringStringGaugeCell* TFE_MonitoringGetCellStringGauge0(
    TFE_MonitoringStringGauge0* gauge) {
  return (TFE_MonitoringStringGaugeCell*)metric_cell(
      "TFE_MonitoringGetCellStringGauge0", (mon_metric*)gauge, NULL);
}

TFE_MonitoringStringGauge1* TFE_MonitoringNewStringGauge1(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1) {
  const char* labels[1] = {label1};
  return (TFE_MonitoringStringGauge1*)metric_new(
      "TFE_MonitoringNewStringGauge1", MON_STRING_GAUGE, 1, name, description,
      labels, NULL, out_status);
}

void TFE_MonitoringDeleteStringGauge1(TFE_MonitoringStringGauge1* gauge) {
  metric_delete((mon_metric*)gauge);
}

TFE_MonitoringStringGaugeCell* TFE_MonitoringGetCellStringGauge1(
    TFE_MonitoringStringGauge1* gauge, const char* label1) {
  const char* labels[1] = {label1};
  return (TFE_MonitoringStringGaugeCell*)metric_cell(
      "TFE_MonitoringGetCellStringGauge1", (mon_metric*)gauge, labels);
}

TFE_MonitoringStringGauge2* TFE_MonitoringNewStringGauge2(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1, const char* label2) {
  const char* labels[2] = {label1, label2};
  return (TFE_MonitoringStringGauge2*)metric_new(
      "TFE_MonitoringNewStringGauge2", MON_STRING_GAUGE, 2, name, description,
      labels, NULL, out_status);
}

void TFE_MonitoringDeleteStringGauge2(TFE_MonitoringStringGauge2* gauge) {
  metric_delete((mon_metric*)gauge);
}

TFE_MonitoringStringGaugeCell* TFE_MonitoringGetCellStringGauge2(
    TFE_MonitoringStringGauge2* gauge, const char* label1, const char* label2) {
  const char* labels[2] = {label1, label2};
  return (TFE_MonitoringStringGaugeCell*)metric_cell(
      "TFE_MonitoringGetCellStringGauge2", (mon_metric*)gauge, labels);
}

TFE_MonitoringStringGauge3* TFE_MonitoringNewStringGauge3(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1, const char* label2, const char* label3) {
  const char* labels[3] = {label1, label2, label3};
  return (TFE_MonitoringStringGauge3*)metric_new(
      "TFE_MonitoringNewStringGauge3", MON_STRING_GAUGE, 3, name, description,
      labels, NULL, out_status);
}

void TFE_MonitoringDeleteStringGauge3(TFE_MonitoringStringGauge3* gauge) {
  metric_delete((mon_metric*)gauge);
}

TFE_MonitoringStringGaugeCell* TFE_MonitoringGetCellStringGauge3(
    TFE_MonitoringStringGauge3* gauge, const char* label1, const char* label2,
    const char* label3) {
  const char* labels[3] = {label1, label2, label3};
  return (TFE_MonitoringStringGaugeCell*)metric_cell(
      "TFE_MonitoringGetCellStringGauge3", (mon_metric*)gauge, labels);
}

TFE_MonitoringStringGauge4* TFE_MonitoringNewStringGauge4(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1, const char* label2, const char* label3,
    const char* label4) {
  const char* labels[4] = {label1, label2, label3, label4};
  return (TFE_MonitoringStringGauge4*)metric_new(
      "TFE_MonitoringNewStringGauge4", MON_STRING_GAUGE, 4, name, description,
      labels, NULL, out_status);
}

void TFE_MonitoringDeleteStringGauge4(TFE_MonitoringStringGauge4* gauge) {
  metric_delete((mon_metric*)gauge);
}

TFE_MonitoringStringGaugeCell* TFE_MonitoringGetCellStringGauge4(
    TFE_MonitoringStringGauge4* gauge, const char* label1, const char* label2,
    const char* label3, const char* label4) {
  const char* labels[4] = {label1, label2, label3, label4};
  return (TFE_MonitoringStringGaugeCell*)metric_cell(
      "TFE_MonitoringGetCellStringGauge4", (mon_metric*)gauge, labels);
}

/* ------------------------------------------------------------------------
 * Bool gauges. */

void TFE_MonitoringBoolGaugeCellSet(TFE_MonitoringBoolGaugeCell* cell,
                                    bool value) {
  if (cell == NULL) return;
  atomic_store_explicit(&cell->value, value, memory_order_relaxed);
}

bool TFE_MonitoringBoolGaugeCellValue(TFE_MonitoringBoolGaugeCell* cell) {
  if (cell == NULL) return false;
  return atomic_load_explicit(&cell->value, memory_order_relaxed);
}

TFE_MonitoringBoolGauge0* TFE_MonitoringNewBoolGauge0(const char* name,
                                                      TF_Status* out_status,
                                                      const char* description) {
  return (TFE_MonitoringBoolGauge0*)metric_new(
      "TFE_MonitoringNewBoolGauge0", MON_BOOL_GAUGE, 0, name, description,
      NULL, NULL, out_status);
}

void TFE_MonitoringDeleteBoolGauge0(TFE_MonitoringBoolGauge0* gauge) {
  metric_delete((mon_metric*)gauge);
}

TFE_MonitoringBoolGaugeCell* TFE_MonitoringGetCellBoolGauge0(
    TFE_MonitoringBoolGauge0* gauge) {
  return (TFE_MonitoringBoolGaugeCell*)metric_cell(
      "TFE_MonitoringGetCellBoolGauge0", (mon_metric*)gauge, NULL);
}

TFE_MonitoringBoolGauge1* TFE_MonitoringNewBoolGauge1(const char* name,
                                                      TF_Status* out_status,
                                                      const char* description,
                                                      const char* label1) {
  const char* labels[1] = {label1};
  return (TFE_MonitoringBoolGauge1*)metric_new(
      "TFE_MonitoringNewBoolGauge1", MON_BOOL_GAUGE, 1, name, description,
      labels, NULL, out_status);
}

void TFE_MonitoringDeleteBoolGauge1(TFE_MonitoringBoolGauge1* gauge) {
  metric_delete((mon_metric*)gauge);
}

TFE_MonitoringBoolGaugeCell* TFE_MonitoringGetCellBoolGauge1(
    TFE_MonitoringBoolGauge1* gauge, const char* label1) {
  const char* labels[1] = {label1};
  return (TFE_MonitoringBoolGaugeCell*)metric_cell(
      "TFE_MonitoringGetCellBoolGauge1", (mon_metric*)gauge, labels);
}

TFE_MonitoringBoolGauge2* TFE_MonitoringNewBoolGauge2(const char* name,
                                                      TF_Status* out_status,
                                                      const char* description,
                                                      const char* label1,
                                                      const char* label2) {
  const char* labels[2] = {label1, label2};
  return (TFE_MonitoringBoolGauge2*)metric_new(
      "TFE_MonitoringNewBoolGauge2", MON_BOOL_GAUGE, 2, name, description,
      labels, NULL, out_status);
}

void TFE_MonitoringDeleteBoolGauge2(TFE_MonitoringBoolGauge2* gauge) {
  metric_delete((mon_metric*)gauge);
}

TFE_MonitoringBoolGaugeCell* TFE_MonitoringGetCellBoolGauge2(
    TFE_MonitoringBoolGauge2* gauge, const char* label1, const char* label2) {
  const char* labels[2] = {label1, label2};
  return (TFE_MonitoringBoolGaugeCell*)metric_cell(
      "TFE_MonitoringGetCellBoolGauge2", (mon_metric*)gauge, labels);
}

/* ------------------------------------------------------------------------
 * Samplers. */

void TFE_MonitoringSamplerCellAdd(TFE_MonitoringSamplerCell* cell,
                                  double value) {
  size_t lo = 0, hi;
  if (cell == NULL) return;
  /* First limit strictly above value; values at or above DBL_MAX (and NaN)
   * land in the last bucket. */
  hi = cell->nlimits - 1;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (value < cell->limits[mid]) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  pthread_mutex_lock(&cell->lock);
  cell->counts[lo] += 1.0;
  if (cell->min > value) cell->min = value;
  if (cell->max < value) cell->max = value;
  cell->num += 1.0;
  cell->sum += value;
  cell->sum_squares += value * value;
  pthread_mutex_unlock(&cell->lock);
}

static unsigned char* put_double(unsigned char* p, double v) {
  uint64_t bits;
  int i;
  memcpy(&bits, &v, sizeof(bits));
  for (i = 0; i < 8; i++) *p++ = (unsigned char)(bits >> (8 * i));
  return p;
}

static unsigned char* put_varint(unsigned char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = (unsigned char)(v | 0x80);
    v >>= 7;
  }
  *p++ = (unsigned char)v;
  return p;
}

/* A proto3 double field: omitted when its bits are all zero. */
static unsigned char* put_double_field(unsigned char* p, int field, double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof(bits));
  if (bits == 0) return p;
  *p++ = (unsigned char)((field << 3) | 1);
  return put_double(p, v);
}

/* Serializes the cell as a tensorflow.HistogramProto: min (1), max (2),
 * num (3), sum (4), sum_squares (5), bucket_limit (6, packed), bucket (7,
 * packed), one entry per bucket including the empty ones. */
void TFE_MonitoringSamplerCellValue(TFE_MonitoringSamplerCell* cell,
                                    TF_Buffer* buf) {
  size_t n, packed, cap, i;
  unsigned char* out;
  unsigned char* p;
  if (cell == NULL || buf == NULL) return;
  n = cell->nlimits;
  packed = n * 8; /* n is bounded by an int, so no overflow */
  cap = 5 * 9 + 2 * (1 + 10 + packed);
  out = (unsigned char*)tfe_malloc(cap);
  if (out == NULL) {
    TF_Log(TF_ERROR, "TFE_MonitoringSamplerCellValue: out of memory; buffer "
                     "left unchanged");
    return;
  }
  pthread_mutex_lock(&cell->lock);
  p = put_double_field(out, 1, cell->min);
  p = put_double_field(p, 2, cell->max);
  p = put_double_field(p, 3, cell->num);
  p = put_double_field(p, 4, cell->sum);
  p = put_double_field(p, 5, cell->sum_squares);
  *p++ = (6 << 3) | 2;
  p = put_varint(p, packed);
  for (i = 0; i < n; i++) p = put_double(p, cell->limits[i]);
  *p++ = (7 << 3) | 2;
  p = put_varint(p, packed);
  for (i = 0; i < n; i++) p = put_double(p, cell->counts[i]);
  pthread_mutex_unlock(&cell->lock);
  buffer_take(buf, out, (size_t)(p - out));
}

TFE_MonitoringBuckets* TFE_MonitoringNewExponentialBuckets(double scale,
                                                           double growth_factor,
                                                           int bucket_count) {
  TFE_MonitoringBuckets* b =
      (TFE_MonitoringBuckets*)tfe_malloc(sizeof(TFE_MonitoringBuckets));
  if (b == NULL) {
    TF_Log(TF_ERROR, "TFE_MonitoringNewExponentialBuckets: out of memory");
    return NULL;
  }
  b->scale = scale;
  b->growth_factor = growth_factor;
  b->bucket_count = bucket_count;
  return b;
}

void TFE_MonitoringDeleteBuckets(TFE_MonitoringBuckets* buckets) {
  tfe_free(buckets);
}

TFE_MonitoringSampler0* TFE_MonitoringNewSampler0(
    const char* name, TFE_MonitoringBuckets* buckets, TF_Status* out_status,
    const char* description) {
  return (TFE_MonitoringSampler0*)metric_new("TFE_MonitoringNewSampler0",
                                             MON_SAMPLER, 0, name, description,
                                             NULL, buckets, out_status);
}

void TFE_MonitoringDeleteSampler0(TFE_MonitoringSampler0* sampler) {
  metric_delete((mon_metric*)sampler);
}

TFE_MonitoringSamplerCell* TFE_MonitoringGetCellSampler0(
    TFE_MonitoringSampler0* sampler) {
  return (TFE_MonitoringSamplerCell*)metric_cell(
      "TFE_MonitoringGetCellSampler0", (mon_metric*)sampler, NULL);
}

TFE_MonitoringSampler1* TFE_MonitoringNewSampler1(
    const char* name, TFE_MonitoringBuckets* buckets, TF_Status* out_status,
    const char* description, const char* label1) {
  const char* labels[1] = {label1};
  return (TFE_MonitoringSampler1*)metric_new("TFE_MonitoringNewSampler1",
                                             MON_SAMPLER, 1, name, description,
                                             labels, buckets, out_status);
}

void TFE_MonitoringDeleteSampler1(TFE_MonitoringSampler1* sampler) {
  metric_delete((mon_metric*)sampler);
}

TFE_MonitoringSamplerCell* TFE_MonitoringGetCellSampler1(
    TFE_MonitoringSampler1* sampler, const char* label1) {
  const char* labels[1] = {label1};
  return (TFE_MonitoringSamplerCell*)metric_cell(
      "TFE_MonitoringGetCellSampler1", (mon_metric*)sampler, labels);
}

TFE_MonitoringSampler2* TFE_MonitoringNewSampler2(
    const char* name, TFE_MonitoringBuckets* buckets, TF_Status* out_status,
    const char* description, const char* label1, const char* label2) {
  const char* labels[2] = {label1, label2};
  return (TFE_MonitoringSampler2*)metric_new("TFE_MonitoringNewSampler2",
                                             MON_SAMPLER, 2, name, description,
                                             labels, buckets, out_status);
}

void TFE_MonitoringDeleteSampler2(TFE_MonitoringSampler2* sampler) {
  metric_delete((mon_metric*)sampler);
}

TFE_MonitoringSamplerCell* TFE_MonitoringGetCellSampler2(
    TFE_MonitoringSampler2* sampler, const char* label1, const char* label2) {
  const char* labels[2] = {label1, label2};
  return (TFE_MonitoringSamplerCell*)metric_cell(
      "TFE_MonitoringGetCellSampler2", (mon_metric*)sampler, labels);
}
