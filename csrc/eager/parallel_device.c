/* The parallel device: its TFE_CustomDevice callbacks, the special ops
 * that pack, unpack and number components, and the public functions of
 * include/tfe/parallel_device.h. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "devices/device.h"
#include "eager/parallel_device_internal.h"
#include "ops/op_registry.h"
#include "tfe/parallel_device.h"

#define PACK_OP "TPUReplicatedInput"
#define UNPACK_OP "TPUReplicatedOutput"
#define DEVICE_ID_OP "DeviceID"

/* ------------------------------------------------------------------------
 * Op definitions (TF's signatures). */

static pthread_mutex_t g_ops_mu = PTHREAD_MUTEX_INITIALIZER;

static int ensure_op(const char* name, const char* const* specs,
                     TF_Status* s) {
  if (tfe_op_lookup(name) != NULL) return 1;
  if (tfe_op_register_specs(name, specs, s)) return 1;
  /* Someone else registered it meanwhile: fine. */
  if (TF_GetCode(s) == TF_ALREADY_EXISTS && tfe_op_lookup(name) != NULL) {
    TF_SetStatus(s, TF_OK, "");
    return 1;
  }
  return 0;
}

int pd_ensure_ops(TF_Status* s) {
  static const char* const pack[] = {
      "in: inputs: N * T",        "out: output: T",
      "attr: N: int >= 1",        "attr: T: type",
      "attr: is_mirrored_variable: bool = false",
      "attr: index: int = -1",    "attr: is_packed: bool = false",
      NULL};
  static const char* const unpack[] = {
      "in: input: T", "out: outputs: num_replicas * T",
      "attr: num_replicas: int >= 1", "attr: T: type", NULL};
  static const char* const device_id[] = {"out: device_id: int64",
                                          "stateful", NULL};
  int ok;
  pthread_mutex_lock(&g_ops_mu);
  ok = ensure_op(PACK_OP, pack, s) && ensure_op(UNPACK_OP, unpack, s) &&
       ensure_op(DEVICE_ID_OP, device_id, s);
  pthread_mutex_unlock(&g_ops_mu);
  return ok;
}

static int same_name(const char* a, const char* b);

/* ------------------------------------------------------------------------
 * Inputs: parallel tensors of this device, or ordinary handles. */

typedef struct pd_input {
  TFE_TensorHandle* handle;
  pd_tensor* parallel; /* non-NULL when handle is on this device */
} pd_input;

static int read_inputs(pd_device* d, const TFE_Op* op, pd_input** out,
                       int* num, TF_Status* s) {
  int i, n = TFE_OpGetFlatInputCount(op, s);
  pd_input* in;
  *out = NULL;
  *num = 0;
  if (TF_GetCode(s) != TF_OK) return 0;
  in = (pd_input*)tfe_calloc((size_t)(n > 0 ? n : 1), sizeof(*in));
  if (in == NULL) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "parallel device: out of memory");
    return 0;
  }
  for (i = 0; i < n; i++) {
    const char* dev;
    in[i].handle = TFE_OpGetFlatInput(op, i, s);
    if (TF_GetCode(s) != TF_OK) goto fail;
    dev = TFE_TensorHandleDeviceName(in[i].handle, s);
    if (TF_GetCode(s) != TF_OK) goto fail;
    if (strcmp(dev, d->name) == 0) {
      /* Tensors on this device are parallel tensors (made here). */
      in[i].parallel =
          (pd_tensor*)TFE_TensorHandleDevicePointer(in[i].handle, s);
      if (TF_GetCode(s) != TF_OK) goto fail;
    }
  }
  *out = in;
  *num = n;
  return 1;
fail:
  tfe_free(in);
  return 0;
}

/* A copy of `h` on every component (TF's implicit broadcast). */
static pd_tensor* broadcast(pd_device* d, TFE_Context* ctx,
                            TFE_TensorHandle* h, TF_Status* s) {
  TFE_TensorHandle** comps;
  pd_tensor* t;
  int i;
  comps = (TFE_TensorHandle**)tfe_calloc((size_t)d->n, sizeof(*comps));
  if (comps == NULL) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "parallel device: out of memory");
    return NULL;
  }
  for (i = 0; i < d->n; i++) {
    comps[i] = TFE_TensorHandleCopyToDevice(h, ctx, d->components[i], s);
    if (TF_GetCode(s) != TF_OK) {
      while (--i >= 0) TFE_DeleteTensorHandle(comps[i]);
      tfe_free(comps);
      return NULL;
    }
  }
  t = pd_tensor_new(comps, d->n, s);
  tfe_free(comps);
  return t;
}

/* ------------------------------------------------------------------------
 * Special ops. */

static void pack(pd_device* d, TFE_Context* ctx, pd_input* in, int n_in,
                 int* num_outputs, TFE_TensorHandle** outputs, TF_Status* s) {
  TFE_TensorHandle** comps;
  pd_tensor* t;
  char msg[512];
  int i;
  if (n_in != d->n) {
    snprintf(msg, sizeof msg,
             "The parallel device %s expected %d inputs to "
             "TPUReplicatedInput, but got %d",
             d->name, d->n, n_in);
    TF_SetStatus(s, TF_INVALID_ARGUMENT, msg);
    return;
  }
  for (i = 0; i < n_in; i++) {
    if (in[i].parallel != NULL) {
      snprintf(msg, sizeof msg,
               "Expected all inputs to TPUReplicatedInput to be "
               "non-parallel TensorHandles. The input %d was a parallel "
               "tensor (already placed on the parallel device).",
               i);
      TF_SetStatus(s, TF_INVALID_ARGUMENT, msg);
      return;
    }
  }
  if (*num_outputs < 1) {
    TF_SetStatus(s, TF_INTERNAL, "The allocated output buffer was too small.");
    return;
  }
  comps = (TFE_TensorHandle**)tfe_calloc((size_t)d->n, sizeof(*comps));
  if (comps == NULL) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "parallel device: out of memory");
    return;
  }
  /* Input i becomes the component on device i: shared when it is there
   * already (a parallel tensor of an inner parallel device, say), else
   * copied there. */
  for (i = 0; i < d->n; i++) {
    const char* at = TFE_TensorHandleDeviceName(in[i].handle, s);
    if (TF_GetCode(s) == TF_OK && same_name(at, d->components[i])) {
      comps[i] = TFE_TensorHandleCopySharingTensor(in[i].handle, s);
    } else if (TF_GetCode(s) == TF_OK) {
      comps[i] = TFE_TensorHandleCopyToDevice(in[i].handle, ctx,
                                              d->components[i], s);
    }
    if (TF_GetCode(s) != TF_OK) {
      while (--i >= 0) TFE_DeleteTensorHandle(comps[i]);
      tfe_free(comps);
      return;
    }
  }
  t = pd_tensor_new(comps, d->n, s);
  tfe_free(comps);
  if (t == NULL) return;
  outputs[0] = pd_tensor_to_handle(ctx, d->name, t, s);
  if (TF_GetCode(s) != TF_OK) return;
  *num_outputs = 1;
}

static void unpack(pd_device* d, const TFE_Op* op, TFE_Context* ctx,
                   pd_input* in, int n_in, int* num_outputs,
                   TFE_TensorHandle** outputs, TF_Status* s) {
  TFE_Op* probe;
  int i, expected;
  char msg[512];
  /* num_replicas, read the public way: on a fresh op with the same attrs. */
  probe = TFE_NewOp(ctx, UNPACK_OP, s);
  if (TF_GetCode(s) != TF_OK) return;
  TFE_OpAddAttrs(probe, TFE_OpGetAttrs(op));
  expected = TFE_OpGetOutputLength(probe, "outputs", s);
  TFE_DeleteOp(probe);
  if (TF_GetCode(s) != TF_OK) return;
  if (expected != d->n) {
    snprintf(msg, sizeof msg,
             "The parallel device %s expected %d outputs for "
             "TPUReplicatedOutput, but got %d",
             d->name, d->n, expected);
    TF_SetStatus(s, TF_INVALID_ARGUMENT, msg);
    return;
  }
  if (n_in != 1 || in[0].parallel == NULL) {
    TF_SetStatus(s, TF_INVALID_ARGUMENT,
                 "Expected the input to TPUReplicatedOutput to be a parallel "
                 "tensor (placed on the parallel device).");
    return;
  }
  if (*num_outputs < d->n) {
    TF_SetStatus(s, TF_INTERNAL, "The allocated output buffer was too small.");
    return;
  }
  for (i = 0; i < d->n; i++) {
    outputs[i] = TFE_TensorHandleCopySharingTensor(
        in[0].parallel->components[i], s);
    if (TF_GetCode(s) != TF_OK) {
      while (--i >= 0) TFE_DeleteTensorHandle(outputs[i]);
      return;
    }
  }
  *num_outputs = d->n;
}

static void device_ids(pd_device* d, TFE_Context* ctx, int* num_outputs,
                       TFE_TensorHandle** outputs, TF_Status* s) {
  TFE_TensorHandle** comps;
  pd_tensor* t;
  int i;
  if (*num_outputs < 1) {
    TF_SetStatus(s, TF_INTERNAL, "The allocated output buffer was too small.");
    return;
  }
  comps = (TFE_TensorHandle**)tfe_calloc((size_t)d->n, sizeof(*comps));
  if (comps == NULL) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "parallel device: out of memory");
    return;
  }
  for (i = 0; i < d->n; i++) {
    TF_Tensor* v = TFE_AllocateHostTensor(ctx, TF_INT64, NULL, 0, s);
    TFE_TensorHandle* host;
    if (TF_GetCode(s) == TF_OK) {
      *(int64_t*)TF_TensorData(v) = i;
      host = TFE_NewTensorHandleFromTensor(ctx, v, s);
      TF_DeleteTensor(v);
      if (TF_GetCode(s) == TF_OK) {
        comps[i] = TFE_TensorHandleCopyToDevice(host, ctx, d->components[i], s);
        TFE_DeleteTensorHandle(host);
      }
    }
    if (TF_GetCode(s) != TF_OK) {
      while (--i >= 0) TFE_DeleteTensorHandle(comps[i]);
      tfe_free(comps);
      return;
    }
  }
  t = pd_tensor_new(comps, d->n, s);
  tfe_free(comps);
  if (t == NULL) return;
  outputs[0] = pd_tensor_to_handle(ctx, d->name, t, s);
  if (TF_GetCode(s) != TF_OK) return;
  *num_outputs = 1;
}

/* ------------------------------------------------------------------------
 * Ordinary ops: one job per component, run concurrently. */

static void run_parallel(pd_device* d, const TFE_Op* op, TFE_Context* ctx,
                         const char* name, pd_input* in, int n_in,
                         int* num_outputs, TFE_TensorHandle** outputs,
                         TF_Status* s) {
  const int n = d->n, max_out = *num_outputs;
  pd_tensor** bcast = NULL;
  TFE_TensorHandle** job_inputs = NULL;
  TFE_TensorHandle** job_outputs = NULL;
  pd_job* jobs = NULL;
  int i, k, first_bad = -1, n_out = 0, made = 0;

  bcast = (pd_tensor**)tfe_calloc((size_t)(n_in > 0 ? n_in : 1),
                                  sizeof(*bcast));
  jobs = (pd_job*)tfe_calloc((size_t)n, sizeof(*jobs));
  job_inputs = (TFE_TensorHandle**)tfe_calloc(
      (size_t)n * (size_t)(n_in > 0 ? n_in : 1), sizeof(*job_inputs));
  job_outputs = (TFE_TensorHandle**)tfe_calloc(
      (size_t)n * (size_t)(max_out > 0 ? max_out : 1), sizeof(*job_outputs));
  if (bcast == NULL || jobs == NULL || job_inputs == NULL ||
      job_outputs == NULL) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "parallel device: out of memory");
    goto done;
  }
  /* Non-parallel inputs are copied to every component first. */
  for (k = 0; k < n_in; k++) {
    if (in[k].parallel != NULL) continue;
    bcast[k] = broadcast(d, ctx, in[k].handle, s);
    if (bcast[k] == NULL) goto done;
  }
  for (i = 0; i < n; i++) {
    pd_job* j = &jobs[i];
    for (k = 0; k < n_in; k++) {
      const pd_tensor* t = in[k].parallel != NULL ? in[k].parallel : bcast[k];
      job_inputs[i * n_in + k] = t->components[i];
    }
    j->ctx = ctx;
    j->op_name = name;
    j->attrs = TFE_OpGetAttrs(op);
    j->device = d->components[i];
    j->inputs = job_inputs + i * n_in;
    j->num_inputs = n_in;
    j->outputs = job_outputs + i * max_out;
    j->max_outputs = max_out;
    j->status = d->statuses[i];
    j->replica = i;
    TF_SetStatus(j->status, TF_OK, "");
  }
  pd_pool_run(&d->pool, jobs);

  /* The first failure in component order wins; cancellations count only
   * when nothing else failed. */
  for (i = 0; i < n; i++) {
    TF_Code c = TF_GetCode(jobs[i].status);
    if (c == TF_OK) continue;
    if (first_bad < 0 ||
        (TF_GetCode(jobs[first_bad].status) == TF_CANCELLED &&
         c != TF_CANCELLED)) {
      first_bad = i;
    }
  }
  if (first_bad >= 0) {
    TF_SetStatus(s, TF_GetCode(jobs[first_bad].status),
                 TF_Message(jobs[first_bad].status));
    goto done;
  }
  n_out = jobs[0].num_outputs;
  for (i = 1; i < n; i++) {
    if (jobs[i].num_outputs != n_out) {
      TF_SetStatus(s, TF_INTERNAL,
                   "Parallel ops produced different numbers of tensors.");
      goto done;
    }
  }
  /* Output k of the op is the parallel tensor of every component's k. */
  for (k = 0; k < n_out; k++) {
    TFE_TensorHandle* comps_inline[16];
    TFE_TensorHandle** comps = comps_inline;
    pd_tensor* t;
    if (n > 16) {
      comps = (TFE_TensorHandle**)tfe_malloc(sizeof(*comps) * (size_t)n);
      if (comps == NULL) {
        TF_SetStatus(s, TF_RESOURCE_EXHAUSTED,
                     "parallel device: out of memory");
        goto done;
      }
    }
    for (i = 0; i < n; i++) {
      comps[i] = jobs[i].outputs[k];
      jobs[i].outputs[k] = NULL; /* moved */
    }
    t = pd_tensor_new(comps, n, s);
    if (comps != comps_inline) tfe_free(comps);
    if (t == NULL) goto done;
    outputs[k] = pd_tensor_to_handle(ctx, d->name, t, s);
    if (TF_GetCode(s) != TF_OK) goto done;
    made = k + 1;
  }
  *num_outputs = n_out;

done:
  if (TF_GetCode(s) != TF_OK) {
    for (k = 0; k < made; k++) TFE_DeleteTensorHandle(outputs[k]);
  }
  /* Component outputs not moved into parallel tensors (after a failure). */
  if (jobs != NULL) {
    for (i = 0; i < n; i++) {
      for (k = 0; k < jobs[i].num_outputs; k++) {
        if (jobs[i].outputs[k] != NULL) {
          TFE_DeleteTensorHandle(jobs[i].outputs[k]);
        }
      }
    }
  }
  if (bcast != NULL) {
    for (k = 0; k < n_in; k++) pd_tensor_free(bcast[k]);
  }
  tfe_free(bcast);
  tfe_free(jobs);
  tfe_free(job_inputs);
  tfe_free(job_outputs);
}

/* ------------------------------------------------------------------------
 * The callbacks. */

static TFE_TensorHandle* pd_copy_to(TFE_Context* ctx, TFE_TensorHandle* h,
                                    TF_Status* s, void* info) {
  pd_device* d = (pd_device*)info;
  pd_tensor* t = broadcast(d, ctx, h, s);
  if (t == NULL) return NULL;
  return pd_tensor_to_handle(ctx, d->name, t, s);
}

static TFE_TensorHandle* pd_copy_from(TFE_Context* ctx, TFE_TensorHandle* h,
                                      const char* target, TF_Status* s,
                                      void* info) {
  (void)ctx;
  (void)h;
  (void)target;
  (void)info;
  TF_SetStatus(s, TF_UNIMPLEMENTED,
               "Trying to copy a tensor out of a parallel device. Since there "
               "are multiple components to parallel tensors, they must be "
               "unpacked explicitly.");
  return NULL;
}

static void pd_execute(const TFE_Op* op, int* num_outputs,
                       TFE_TensorHandle** outputs, TF_Status* s, void* info) {
  pd_device* d = (pd_device*)info;
  const char* requested = TFE_OpGetDevice(op, s);
  TFE_Context* ctx;
  const char* name;
  pd_input* in = NULL;
  int n_in = 0;
  if (TF_GetCode(s) != TF_OK) return;
  if (requested[0] == '\0') {
    TF_SetStatus(s, TF_INTERNAL,
                 "Ops must be placed on the parallel device explicitly, or "
                 "their inputs first un-packed. Got an un-placed op with an "
                 "input placed on the parallel device.");
    return;
  }
  ctx = TFE_OpGetContext(op, s);
  if (TF_GetCode(s) != TF_OK) return;
  name = TFE_OpGetName(op, s);
  if (TF_GetCode(s) != TF_OK) return;
  if (!read_inputs(d, op, &in, &n_in, s)) return;
  pthread_mutex_lock(&d->exec_mu);
  if (strcmp(name, PACK_OP) == 0) {
    pack(d, ctx, in, n_in, num_outputs, outputs, s);
  } else if (strcmp(name, UNPACK_OP) == 0) {
    unpack(d, op, ctx, in, n_in, num_outputs, outputs, s);
  } else if (strcmp(name, DEVICE_ID_OP) == 0) {
    device_ids(d, ctx, num_outputs, outputs, s);
  } else {
    run_parallel(d, op, ctx, name, in, n_in, num_outputs, outputs, s);
  }
  pthread_mutex_unlock(&d->exec_mu);
  tfe_free(in);
}

static void pd_free(pd_device* d) {
  int i;
  if (d == NULL) return;
  pd_pool_destroy(&d->pool);
  if (d->components != NULL) {
    for (i = 0; i < d->n; i++) tfe_free(d->components[i]);
  }
  if (d->statuses != NULL) {
    for (i = 0; i < d->n; i++) TF_DeleteStatus(d->statuses[i]);
  }
  tfe_free(d->components);
  tfe_free(d->statuses);
  tfe_free(d->name);
  pthread_mutex_destroy(&d->exec_mu);
  tfe_free(d);
}

static void pd_delete(void* info) { pd_free((pd_device*)info); }

/* ------------------------------------------------------------------------
 * Public functions. */

static int same_name(const char* a, const char* b) {
  tfe_device_spec sa, sb;
  if (strcmp(a, b) == 0) return 1;
  if (!tfe_device_spec_parse(a, &sa) || !tfe_device_spec_parse(b, &sb)) {
    return 0;
  }
  return sa.has_type && sb.has_type && strcmp(sa.type, sb.type) == 0 &&
         sa.has_id && sb.has_id && sa.id == sb.id &&
         (!sa.has_job || !sb.has_job || strcmp(sa.job, sb.job) == 0);
}

static int check_args(const char* device_name, const char* const* components,
                      int num_components, TF_Status* s) {
  tfe_device_spec spec;
  int i;
  if (device_name == NULL || !tfe_device_spec_parse(device_name, &spec)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_NewParallelDevice: invalid device name '%s'",
                    device_name == NULL ? "(null)" : device_name);
    return 0;
  }
  if (components == NULL || num_components < 1) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_NewParallelDevice: a parallel device needs at least "
                    "one component (got %d%s)",
                    num_components, components == NULL ? ", list NULL" : "");
    return 0;
  }
  for (i = 0; i < num_components; i++) {
    if (components[i] == NULL ||
        !tfe_device_spec_parse(components[i], &spec)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TFE_NewParallelDevice: invalid component device name "
                      "'%s' (component %d)",
                      components[i] == NULL ? "(null)" : components[i], i);
      return 0;
    }
    if (same_name(components[i], device_name)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TFE_NewParallelDevice: component %d ('%s') is the "
                      "parallel device itself",
                      i, components[i]);
      return 0;
    }
  }
  return 1;
}

void TFE_NewParallelDevice(const char* device_name,
                           const char* const* components, int num_components,
                           TFE_CustomDevice* device, void** device_info,
                           TF_Status* status) {
  pd_device* d;
  int i;
  if (device == NULL || device_info == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewParallelDevice: %s is NULL",
                    device == NULL ? "device" : "device_info");
    return;
  }
  if (!check_args(device_name, components, num_components, status)) return;
  if (!pd_ensure_ops(status)) return;
  d = (pd_device*)tfe_calloc(1, sizeof(*d));
  if (d == NULL) goto oom;
  if (pthread_mutex_init(&d->exec_mu, NULL) != 0) {
    tfe_free(d);
    goto oom;
  }
  d->n = num_components;
  d->name = tfe_strdup(device_name);
  d->components = (char**)tfe_calloc((size_t)num_components, sizeof(char*));
  d->statuses =
      (TF_Status**)tfe_calloc((size_t)num_components, sizeof(TF_Status*));
  if (d->name == NULL || d->components == NULL || d->statuses == NULL ||
      !pd_pool_init(&d->pool, num_components)) {
    pd_free(d);
    goto oom;
  }
  for (i = 0; i < num_components; i++) {
    d->components[i] = tfe_strdup(components[i]);
    d->statuses[i] = TF_NewStatus();
    if (d->components[i] == NULL || d->statuses[i] == NULL) {
      pd_free(d);
      goto oom;
    }
  }
  memset(device, 0, sizeof(*device));
  device->version = TFE_CUSTOM_DEVICE_VERSION;
  device->copy_tensor_to_device = pd_copy_to;
  device->copy_tensor_from_device = pd_copy_from;
  device->execute = pd_execute;
  device->delete_device = pd_delete;
  *device_info = d;
  tfe_status_ok(status);
  return;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "TFE_NewParallelDevice: out of memory");
}

void TFE_RegisterParallelDevice(TFE_Context* ctx, const char* device_name,
                                const char* const* components,
                                int num_components, TF_Status* status) {
  TFE_CustomDevice device;
  void* info = NULL;
  TFE_NewParallelDevice(device_name, components, num_components, &device,
                        &info, status);
  if (TF_GetCode(status) != TF_OK) return;
  /* Owns info from here on, also when it fails. */
  TFE_RegisterCustomDevice(ctx, device, device_name, info, status);
}

TFE_TensorHandle* TFE_ParallelDevicePack(TFE_Context* ctx,
                                         const char* device_name,
                                         TFE_TensorHandle** tensors,
                                         int num_tensors, TF_Status* status) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Op* op;
  if (device_name == NULL || tensors == NULL || num_tensors < 1) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ParallelDevicePack: %s",
                    device_name == NULL ? "device_name is NULL"
                                        : "expected at least one tensor");
    return NULL;
  }
  op = TFE_NewOp(ctx, PACK_OP, status);
  if (TF_GetCode(status) != TF_OK) return NULL;
  TFE_OpSetDevice(op, device_name, status);
  if (TF_GetCode(status) == TF_OK) {
    TFE_OpAddInputList(op, tensors, num_tensors, status);
  }
  if (TF_GetCode(status) == TF_OK) TFE_Execute(op, out, &n, status);
  TFE_DeleteOp(op);
  return TF_GetCode(status) == TF_OK ? out[0] : NULL;
}

void TFE_ParallelDeviceUnpack(TFE_Context* ctx, const char* device_name,
                              TFE_TensorHandle* parallel_tensor,
                              TFE_TensorHandle** out, int num_components,
                              TF_Status* status) {
  TFE_Op* op;
  int n = num_components;
  if (device_name == NULL || out == NULL || num_components < 1) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ParallelDeviceUnpack: %s",
                    device_name == NULL ? "device_name is NULL"
                    : out == NULL       ? "out is NULL"
                                        : "num_components must be >= 1");
    return;
  }
  op = TFE_NewOp(ctx, UNPACK_OP, status);
  if (TF_GetCode(status) != TF_OK) return;
  TFE_OpSetDevice(op, device_name, status);
  if (TF_GetCode(status) == TF_OK) {
    TFE_OpSetAttrInt(op, "num_replicas", num_components);
    TFE_OpAddInput(op, parallel_tensor, status);
  }
  if (TF_GetCode(status) == TF_OK) TFE_Execute(op, out, &n, status);
  TFE_DeleteOp(op);
  if (TF_GetCode(status) == TF_OK && n != num_components) {
    int i;
    for (i = 0; i < n; i++) TFE_DeleteTensorHandle(out[i]);
    tfe_status_setf(status, TF_INTERNAL,
                    "TFE_ParallelDeviceUnpack: got %d components, expected %d",
                    n, num_components);
  }
}
