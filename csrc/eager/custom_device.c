/* Custom devices: registration (TFE_RegisterCustomDevice), lookup
 * (TFE_IsCustomDevice and the runtime's own), and their lifetime. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/custom_device.h"
#include "eager/eager_internal.h"

/* ------------------------------------------------------------------------
 * Callback status helpers. */

TF_Status* tfe_cb_status_begin(tfe_cb_status* c, TF_Status* user) {
  c->local.code = TF_OK;
  c->local.msg = NULL;
  c->local.payloads = NULL;
  c->s = user != NULL ? user : &c->local;
  tfe_status_ok(c->s);
  return c->s;
}

void tfe_cb_status_end(tfe_cb_status* c) {
  if (c->s == &c->local) TF_SetStatus(&c->local, TF_OK, "");
}

static int is_borrowed(const TFE_TensorHandle* r,
                       TFE_TensorHandle* const* borrowed, int n_borrowed) {
  int i;
  for (i = 0; i < n_borrowed; i++) {
    if (borrowed[i] == r) return 1;
  }
  return 0;
}

TFE_TensorHandle* tfe_custom_take_result(TFE_TensorHandle* r,
                                         TFE_TensorHandle* const* borrowed,
                                         int n_borrowed,
                                         const tfe_custom_device* d,
                                         const char* what, TF_Status* s) {
  if (TF_GetCode(s) != TF_OK) {
    /* The caller of the API sees only the error, so nobody else could
     * ever release a handle that came with it. */
    if (r != NULL && !is_borrowed(r, borrowed, n_borrowed) &&
        r->magic == TFE_HANDLE_MAGIC) {
      TFE_DeleteTensorHandle(r);
    }
    return NULL;
  }
  if (r == NULL) {
    tfe_status_setf(s, TF_INTERNAL,
                    "custom device %s: %s returned NULL with an OK status",
                    d->base.name, what);
    return NULL;
  }
  if (is_borrowed(r, borrowed, n_borrowed)) {
    /* Its caller would then release one handle twice. */
    tfe_status_setf(s, TF_INTERNAL,
                    "custom device %s: %s returned a handle it was given "
                    "instead of a new one (TFE_TensorHandleCopySharingTensor "
                    "makes one)",
                    d->base.name, what);
    return NULL;
  }
  if (r->magic != TFE_HANDLE_MAGIC) {
    tfe_status_setf(s, TF_INTERNAL,
                    "custom device %s: %s returned something that is not a "
                    "live TFE_TensorHandle",
                    d->base.name, what);
    return NULL;
  }
  return r;
}

/* ------------------------------------------------------------------------
 * Lookup. */

static int same_full_name(const tfe_device_spec* a, const tfe_device_spec* b) {
  return strcmp(a->job, b->job) == 0 && a->replica == b->replica &&
         a->task == b->task && strcmp(a->type, b->type) == 0 && a->id == b->id;
}

/* Whether device spec `d` (a full name) satisfies `q`, which must give a
 * type. Components q leaves out mean the local address space (job
 * localhost, replica 0, task 0), so a partial name never selects a device
 * of another job. */
static int spec_selects(const tfe_device_spec* q, const tfe_device_spec* d) {
  if (!q->has_type || strcmp(q->type, d->type) != 0) return 0;
  if (q->has_id && q->id != d->id) return 0;
  if (strcmp(q->has_job ? q->job : "localhost", d->job) != 0) return 0;
  if ((q->has_replica ? q->replica : 0) != d->replica) return 0;
  if ((q->has_task ? q->task : 0) != d->task) return 0;
  return 1;
}

tfe_custom_device* tfe_custom_find(TFE_Context* ctx,
                                   const tfe_device_spec* spec) {
  tfe_custom_device* d;
  tfe_custom_device* best = NULL;
  if (!spec->has_type) return NULL;
  d = atomic_load_explicit(&ctx->custom_devices, memory_order_acquire);
  for (; d != NULL; d = d->next) {
    if (!spec_selects(spec, &d->spec)) continue;
    if (spec->has_id) return d; /* at most one has this exact name */
    /* Without an id, the lowest id (the oldest among equals) wins. */
    if (best == NULL || d->base.id <= best->base.id) best = d;
  }
  return best;
}

tfe_custom_device* tfe_custom_find_name(TFE_Context* ctx, const char* name) {
  tfe_device_spec spec;
  if (name == NULL || !tfe_device_spec_parse(name, &spec)) return NULL;
  return tfe_custom_find(ctx, &spec);
}

bool TFE_IsCustomDevice(TFE_Context* ctx, const char* device_name) {
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) return false;
  return tfe_custom_find_name(ctx, device_name) != NULL;
}

int tfe_custom_usable(tfe_custom_device* d, const char* what, TF_Status* s) {
  if (atomic_load_explicit(&d->released, memory_order_acquire)) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "%s: custom device %s was deleted with its context", what,
                    d->base.name);
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * Registration. */

static const char* missing_callback(const TFE_CustomDevice* d) {
  if (d->copy_tensor_to_device == NULL) return "copy_tensor_to_device";
  if (d->copy_tensor_from_device == NULL) return "copy_tensor_from_device";
  if (d->execute == NULL) return "execute";
  if (d->delete_device == NULL) return "delete_device";
  return NULL;
}

/* Checks everything but duplicates; fills *spec. 0 with status set. */
static int check_registration(TFE_Context* ctx, const TFE_CustomDevice* dev,
                              const char* name, tfe_device_spec* spec,
                              TF_Status* s) {
  const char* missing;
  int parsed;
  if (!tfe_ctx_check(ctx, "TFE_RegisterCustomDevice", s)) return 0;
  if (dev->version != TFE_CUSTOM_DEVICE_VERSION) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_RegisterCustomDevice: unsupported TFE_CustomDevice "
                    "version %d; this runtime implements version %d "
                    "(TFE_CUSTOM_DEVICE_VERSION)",
                    dev->version, TFE_CUSTOM_DEVICE_VERSION);
    return 0;
  }
  missing = missing_callback(dev);
  if (missing != NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_RegisterCustomDevice: TFE_CustomDevice.%s is NULL, "
                    "but it is required",
                    missing);
    return 0;
  }
  if (name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_RegisterCustomDevice: device_name is NULL");
    return 0;
  }
  parsed = tfe_device_spec_parse(name, spec);
  /* Like TF, a name that a physical device answers to is taken. */
  if (parsed && spec->has_type && spec->has_id &&
      tfe_ctx_find_device(ctx, spec) != NULL) {
    tfe_status_setf(s, TF_ALREADY_EXISTS,
                    "%s already registered as a physical device.", name);
    return 0;
  }
  if (!parsed || !spec->has_job || !spec->has_replica || !spec->has_task ||
      !spec->has_type || !spec->has_id) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s could not be parsed as a device name. Use the full "
                    "/job:<name>/replica:<replica>/task:<task>/device:<type>:"
                    "<device_num> format.",
                    name);
    return 0;
  }
  if (strlen(name) >= TFE_DEVICE_NAME_MAX) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_RegisterCustomDevice: device name '%s' is longer "
                    "than %d characters",
                    name, TFE_DEVICE_NAME_MAX - 1);
    return 0;
  }
  return 1;
}

static tfe_custom_device* new_record(const TFE_CustomDevice* dev,
                                     const char* name,
                                     const tfe_device_spec* spec,
                                     void* info) {
  tfe_custom_device* d = (tfe_custom_device*)tfe_calloc(1, sizeof(*d));
  if (d == NULL) return NULL;
  d->spec = *spec;
  d->kind.type = d->spec.type;
  d->kind.is_host = 0;
  d->kind.priority = -1;
  d->kind.memory_bytes = 0;
  d->kind.count = NULL;
  d->kind.user_data = d;
  strcpy(d->base.name, name);
  d->base.factory = &d->kind;
  d->base.type = d->spec.type;
  d->base.id = spec->id;
  d->base.is_host = 0;
  d->base.incarnation = 0;
  d->cbs = *dev;
  d->info = info;
  atomic_init(&d->released, 0);
  return d;
}

void TFE_RegisterCustomDevice(TFE_Context* ctx, TFE_CustomDevice device,
                              const char* device_name, void* device_info,
                              TF_Status* status) {
  tfe_device_spec spec;
  tfe_custom_device* d = NULL;
  tfe_custom_device* it;

  if (!check_registration(ctx, &device, device_name, &spec, status)) {
    goto fail;
  }
  d = new_record(&device, device_name, &spec, device_info);
  if (d == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_RegisterCustomDevice: out of memory");
    goto fail;
  }
  pthread_mutex_lock(&ctx->lock);
  if (atomic_load(&ctx->deleted)) {
    pthread_mutex_unlock(&ctx->lock);
    tfe_ctx_check(ctx, "TFE_RegisterCustomDevice", status);
    goto fail;
  }
  for (it = atomic_load(&ctx->custom_devices); it != NULL; it = it->next) {
    if (same_full_name(&it->spec, &spec)) {
      pthread_mutex_unlock(&ctx->lock);
      tfe_status_setf(status, TF_ALREADY_EXISTS,
                      "%s already registered as a custom device.",
                      device_name);
      goto fail;
    }
  }
  d->next = atomic_load(&ctx->custom_devices);
  atomic_store_explicit(&ctx->custom_devices, d, memory_order_release);
  atomic_fetch_add_explicit(&ctx->num_custom, 1, memory_order_release);
  pthread_mutex_unlock(&ctx->lock);
  tfe_status_ok(status);
  return;

fail:
  tfe_free(d);
  /* As in TF the call owns device_info, also when it fails. */
  if (device.delete_device != NULL) device.delete_device(device_info);
}

/* ------------------------------------------------------------------------
 * Lifetime. */

void tfe_custom_devices_release(TFE_Context* ctx) {
  tfe_custom_device* head;
  tfe_custom_device* it;
  int n = 0, k, i;
  /* Taking the lock orders this after any registration in progress. */
  pthread_mutex_lock(&ctx->lock);
  head = atomic_load(&ctx->custom_devices);
  pthread_mutex_unlock(&ctx->lock);
  for (it = head; it != NULL; it = it->next) n++;
  /* Oldest first (the list is newest first; it is short). */
  for (k = n - 1; k >= 0; k--) {
    tfe_custom_device* d = head;
    for (i = 0; i < k; i++) d = d->next;
    if (atomic_exchange(&d->released, 1) == 0) d->cbs.delete_device(d->info);
  }
}

void tfe_custom_devices_free(TFE_Context* ctx) {
  tfe_custom_device* d;
  tfe_custom_devices_release(ctx); /* no-op after TFE_DeleteContext */
  d = atomic_load(&ctx->custom_devices);
  atomic_store(&ctx->custom_devices, NULL);
  while (d != NULL) {
    tfe_custom_device* next = d->next;
    tfe_free(d);
    d = next;
  }
}
