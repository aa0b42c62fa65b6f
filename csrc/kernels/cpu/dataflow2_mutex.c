/* CPU kernels: MutexV2, MutexLock, ConsumeMutexLock, with TensorFlow 2.21's
 * semantics and messages.
 *
 * MutexV2 makes a mutex resource (registered under shared_name when one is
 * given, else a new private one per run, as TF's handle with an empty
 * name). MutexLock waits until the mutex is free, takes it and outputs a
 * scalar DT_VARIANT lock (kind TFE_VARIANT_LOCK, csrc/core/variant.h); the
 * mutex is released when the last tensor holding that lock goes away. A
 * second MutexLock while a lock is alive waits, in eager mode forever (as
 * in TF), unless the run's cancellation ends it. ConsumeMutexLock only
 * checks that its input is such a lock (TF uses it to keep the lock alive
 * until the op runs). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_internal.h"
#include "core/variant.h"
#include "kernels/cpu/dataflow2_common.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "kernels/resource.h"
#include "ops/attr_value.h"
#include "tensorflow/c/eager/c_api_experimental.h"

void tfe_register_cpu_dataflow2_mutex_kernels(void);

#define MUTEX_TYPE_NAME "tensorflow::(anonymous namespace)::Mutex"

typedef struct df2_mutex {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int locked;
} df2_mutex;

static void mutex_free(void* obj) {
  df2_mutex* m = (df2_mutex*)obj;
  if (m == NULL) return;
  pthread_cond_destroy(&m->cv);
  pthread_mutex_destroy(&m->mu);
  tfe_free(m);
}

static df2_mutex* mutex_new(void) {
  df2_mutex* m = (df2_mutex*)tfe_calloc(1, sizeof(*m));
  if (m == NULL) return NULL;
  if (!df2_sync_init(&m->mu, &m->cv)) {
    tfe_free(m);
    return NULL;
  }
  return m;
}

static void k_mutex_v2(tfe_kernel_context* k) {
  const char *container = "", *shared = "";
  size_t len;
  const char* device = k->device_name != NULL ? k->device_name : "";
  uint64_t ctx = tfe_resource_kernel_ctx_id(k);
  tfe_resource* r = NULL;
  TF_Tensor* out;
  int attempt;
  tfe_attrs_get_string(k->attrs, "container", &container, &len, NULL);
  tfe_attrs_get_string(k->attrs, "shared_name", &shared, &len, NULL);
  if (container[0] == '\0') container = TFE_RESOURCE_DEFAULT_CONTAINER;
  for (attempt = 0; attempt < 4 && r == NULL; attempt++) {
    df2_mutex* m;
    if (shared[0] != '\0') {
      r = tfe_resources_lookup(ctx, device, container, shared);
      if (r != NULL) {
        if (r->kind != TFE_RESOURCE_PLUGIN || r->del != mutex_free) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Resource %s/%s of another kind exists on %s", container,
                     shared, device);
          tfe_resource_unref(r);
          return;
        }
        break;
      }
    }
    m = mutex_new();
    if (m == NULL) break;
    r = tfe_plugin_resource_new(ctx, device, container, shared, m,
                                mutex_free);
    if (r == NULL) {
      mutex_free(m);
      break;
    }
    if (shared[0] == '\0') {
      r->anonymous = 1;
      break;
    }
    if (!tfe_resources_insert(r, k->status)) {
      tfe_resource_unref(r);
      r = NULL;
      if (TF_GetCode(k->status) != TF_ALREADY_EXISTS) return;
      TF_SetStatus(k->status, TF_OK, "");
    }
  }
  if (r == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in MutexV2");
    return;
  }
  out = tfe_resource_new_handle(r);
  tfe_resource_unref(r);
  if (out == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in MutexV2");
    return;
  }
  tfe_kernel_set_output(k, 0, out);
}

/* The lock's release: frees the mutex and drops the resource. */
static void lock_release(void* opaque) {
  tfe_resource* r = (tfe_resource*)opaque;
  df2_mutex* m = (df2_mutex*)r->object;
  pthread_mutex_lock(&m->mu);
  m->locked = 0;
  pthread_cond_broadcast(&m->cv);
  pthread_mutex_unlock(&m->mu);
  tfe_resource_unref(r);
}

static void k_mutex_lock(tfe_kernel_context* k) {
  const TF_Tensor* h = k->inputs[0];
  tfe_resource* hr = h->dtype == TF_RESOURCE ? tfe_resource_of_tensor(h) : NULL;
  tfe_resource* r;
  df2_mutex* m;
  df2_wait w;
  tfe_variant* v;
  TF_Tensor* out;
  int got;
  if (hr == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "MutexLock: input 0 is not a resource handle made by tfe");
    return;
  }
  r = df2_lookup_handle(k, h, MUTEX_TYPE_NAME);
  if (r == NULL) return;
  if (!df2_check_kind(k, r,
                      r->kind == TFE_RESOURCE_PLUGIN && r->del == mutex_free &&
                          r->object != NULL,
                      "mutex")) {
    return;
  }
  m = (df2_mutex*)r->object;
  if (!df2_wait_begin(k, &w, &m->mu, &m->cv, "mutex lock")) {
    KUTIL_FAIL(k, TF_CANCELLED, "Lock acquisition cancelled.");
    tfe_resource_unref(r);
    return;
  }
  pthread_mutex_lock(&m->mu);
  while (m->locked && !w.cancelled) pthread_cond_wait(&m->cv, &m->mu);
  got = !m->locked;
  if (got) m->locked = 1;
  pthread_mutex_unlock(&m->mu);
  df2_wait_end(k, &w);
  if (!got) {
    KUTIL_FAIL(k, TF_CANCELLED, "Lock acquisition cancelled.");
    tfe_resource_unref(r);
    return;
  }
  /* The lock owns the reference on r from here on. */
  v = tfe_variant_new_lock(r, lock_release);
  if (v == NULL) {
    lock_release(r);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in MutexLock");
    return;
  }
  out = tfe_variant_make_scalar(v);
  if (out == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in MutexLock");
    return;
  }
  tfe_kernel_set_output(k, 0, out);
}

static void k_consume_lock(tfe_kernel_context* k) {
  const TF_Tensor* t = k->inputs[0];
  const tfe_variant* v;
  int ok;
  char buf[256];
  v = tfe_variant_scalar(t, &ok);
  if (t->num_dims != 0 || !ok || v == NULL || v->kind != TFE_VARIANT_LOCK) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected input to contain a SharedLockReleaser object, but "
               "saw variant: '%s'",
               tfe_variant_debug_string(ok ? v : NULL, buf, sizeof buf));
  }
}

void tfe_register_cpu_dataflow2_mutex_kernels(void) {
  tfe_kutil_register("MutexV2", k_mutex_v2, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("MutexLock", k_mutex_lock, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("ConsumeMutexLock", k_consume_lock, NULL, NULL, 0, NULL,
                     NULL, 0);
}
