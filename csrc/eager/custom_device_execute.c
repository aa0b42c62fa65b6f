/* Executing ops with custom devices: TF's rules for placing an op on a
 * custom device, the call to the device's `execute`, and copying inputs
 * off a custom device when the op runs on a physical one. */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/custom_device.h"
#include "eager/eager_internal.h"
#include "eager/tape.h"

#define INLINE_OUTPUTS 8

/* TF's placement rules (its CustomDeviceOpHandler):
 *   - every input on a custom device must be on the same one, else
 *     INVALID_ARGUMENT;
 *   - when there is such an input and its device has
 *     shall_pin_to_this_device, that callback decides between that device
 *     and the explicitly requested one (which may be physical);
 *   - otherwise a resource input decides: on a custom device it pins the op
 *     there, on a physical one it keeps the requested placement;
 *   - otherwise an explicitly requested custom device wins, and an op with
 *     no requested device goes to its inputs' custom device.
 * Sets *chosen (NULL: a physical device) and *first (the inputs' custom
 * device, or NULL). Returns 0 with status set on error. */
static int choose(TFE_Op* op, tfe_custom_device** chosen,
                  tfe_custom_device** first, TF_Status* s) {
  tfe_custom_device* requested = NULL;
  int i;
  *chosen = NULL;
  *first = NULL;
  if (op->has_device) requested = tfe_custom_find(op->ctx, &op->spec);
  for (i = 0; i < op->num_inputs; i++) {
    const TFE_TensorHandle* h = op->inputs[i];
    tfe_custom_device* d;
    if (h->custom == NULL) continue;
    d = h->custom->device;
    if (*first == NULL) {
      *first = d;
    } else if (*first != d) {
      tfe_status_setf(
          s, TF_INVALID_ARGUMENT,
          "If an operation has one of its inputs in a custom device, then "
          "all inputs should be on that same custom device or another "
          "physical device. Operation %s has one input in custom device %s "
          "and at least one input in a different custom device %s",
          op->def->name, (*first)->base.name, d->base.name);
      return 0;
    }
  }
  *chosen = requested;
  if (requested == NULL && *first == NULL) return 1;
  if (*first != NULL && (*first)->cbs.shall_pin_to_this_device != NULL) {
    tfe_cb_status cb;
    TF_Status* cs;
    bool pin;
    if (!tfe_custom_usable(*first, "TFE_Execute", s)) return 0;
    cs = tfe_cb_status_begin(&cb, s);
    pin = (*first)->cbs.shall_pin_to_this_device(op, cs);
    /* TF ignores this status; tfe reports it, so that a failing callback
     * (e.g. a Python exception) is not silently taken for "no". */
    if (TF_GetCode(cs) != TF_OK) {
      tfe_cb_status_end(&cb);
      return 0;
    }
    tfe_cb_status_end(&cb);
    if (pin) *chosen = *first;
    return 1;
  }
  for (i = 0; i < op->num_inputs; i++) {
    const TFE_TensorHandle* h = op->inputs[i];
    if (h->dtype != TF_RESOURCE) continue;
    if (h->custom != NULL) *chosen = h->custom->device;
    return 1;
  }
  if (*chosen == NULL && !op->has_device) *chosen = *first;
  return 1;
}

/* Whether h is one of op's inputs (handles the device only borrowed). */
static int is_input(const TFE_Op* op, const TFE_TensorHandle* h) {
  int i;
  for (i = 0; i < op->num_inputs; i++) {
    if (op->inputs[i] == h) return 1;
  }
  return 0;
}

/* Releases the live handles among outs[0..n) that the device may have
 * given us: each distinct one once, and none of op's inputs. */
static void release_outputs(const TFE_Op* op, TFE_TensorHandle** outs,
                            int n) {
  int i, j;
  for (i = 0; i < n; i++) {
    int seen = 0;
    if (outs[i] == NULL || is_input(op, outs[i])) continue;
    for (j = 0; j < i && !seen; j++) seen = outs[j] == outs[i];
    if (!seen && outs[i]->magic == TFE_HANDLE_MAGIC) {
      TFE_DeleteTensorHandle(outs[i]);
    }
  }
}

/* How many outputs the op has under its current attrs (missing ones take
 * their defaults); 0 when that cannot be told (attrs missing). */
static int expected_outputs(const TFE_Op* op, int* n_out) {
  tfe_attrs full;
  tfe_cb_status cb;
  TF_Status* tmp = tfe_cb_status_begin(&cb, NULL);
  int ok;
  tfe_attrs_init(&full);
  ok = tfe_attrs_merge(&full, &op->attrs) &&
       tfe_op_def_complete_attrs(op->def, &full, tmp) &&
       tfe_op_def_output_types(op->def, &full, NULL, 0, n_out, tmp);
  tfe_attrs_destroy(&full);
  tfe_cb_status_end(&cb);
  return ok;
}

/* Checks what execute returned with an OK status: outs[0..n) must be n
 * distinct new live handles, n the op's output count. 0 with an INTERNAL
 * status naming the device otherwise. */
static int check_outputs(tfe_custom_device* d, const TFE_Op* op,
                         TFE_TensorHandle** outs, int n, int cap,
                         TF_Status* s) {
  int i, j, want;
  if (n < 0 || n > cap) {
    tfe_status_setf(s, TF_INTERNAL,
                    "custom device %s: execute of %s reported %d outputs, "
                    "but the caller has room for %d",
                    d->base.name, op->def->name, n, cap);
    return 0;
  }
  if (expected_outputs(op, &want) && n != want) {
    tfe_status_setf(s, TF_INTERNAL,
                    "custom device %s: execute of %s reported %d outputs "
                    "with an OK status, but %s has %d outputs",
                    d->base.name, op->def->name, n, op->def->name, want);
    return 0;
  }
  for (i = 0; i < n; i++) {
    TFE_TensorHandle* r = outs[i];
    if (tfe_custom_take_result(r, op->inputs, op->num_inputs, d, "execute",
                               s) == NULL) {
      return 0;
    }
    for (j = 0; j < i; j++) {
      if (outs[j] == r) {
        tfe_status_setf(s, TF_INTERNAL,
                        "custom device %s: execute of %s returned the same "
                        "handle as outputs %d and %d",
                        d->base.name, op->def->name, j, i);
        return 0;
      }
    }
  }
  return 1;
}

static void run_on_device(tfe_custom_device* d, TFE_Op* op,
                          TFE_TensorHandle** retvals, int* num_retvals,
                          TF_Status* s) {
  TFE_TensorHandle* inline_outs[INLINE_OUTPUTS];
  TFE_TensorHandle** outs = inline_outs;
  const int cap = *num_retvals;
  int i, n = cap;

  if (!tfe_custom_usable(d, "TFE_Execute", s)) return;
  if (cap > INLINE_OUTPUTS) {
    outs = (TFE_TensorHandle**)tfe_calloc((size_t)cap, sizeof(*outs));
    if (outs == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "TFE_Execute: out of memory running %s on %s",
                      op->def->name, d->base.name);
      return;
    }
  } else {
    for (i = 0; i < cap; i++) outs[i] = NULL;
  }
  tfe_status_ok(s);
  d->cbs.execute(op, &n, outs, s, d->info);
  /* On error the device's outputs are ignored, as in TF: the device
   * releases whatever it stored before failing (tfe cannot tell a handle
   * it stored from one it stored and then released). */
  if (TF_GetCode(s) != TF_OK) goto done;
  if (!check_outputs(d, op, outs, n, cap, s)) {
    /* The outputs it reported are ours to release (the slots past them
     * are the device's business, as on error). */
    release_outputs(op, outs, n < 0 ? 0 : n > cap ? cap : n);
    goto done;
  }
  for (i = 0; i < n; i++) retvals[i] = outs[i];
  *num_retvals = n;
  /* Gradient tapes record the op as the caller sees it (its handles on
   * the device), as TF records ops above the device layer; the gradient
   * ops then run on the device the same way. */
  if (atomic_load_explicit(&op->ctx->num_tapes, memory_order_relaxed) > 0) {
    tfe_tape_record_on_device(op, retvals, n, d->base.name);
  }
  if (atomic_load_explicit(&op->ctx->log_placement, memory_order_relaxed)) {
    tfe_ctx_record_op(op->ctx, op->def->name, &d->base);
  }
done:
  if (outs != inline_outs) tfe_free(outs);
}

/* Replaces every input on custom device `from` by a copy on the device the
 * op will run on (TF: the requested device, or the host CPU). */
static int copy_inputs_off(TFE_Op* op, tfe_custom_device* from,
                           TF_Status* s) {
  const char* target = op->ctx->devices[0]->name; /* the host CPU */
  int i;
  if (op->has_device) {
    const tfe_device* phys = tfe_ctx_find_device(op->ctx, &op->spec);
    target = phys != NULL ? phys->name : op->device_name;
  }
  if (!tfe_custom_usable(from, "TFE_Execute", s)) return 0;
  for (i = 0; i < op->num_inputs; i++) {
    TFE_TensorHandle* h = op->inputs[i];
    TFE_TensorHandle* c;
    tfe_cb_status cb;
    TF_Status* cs;
    if (h->custom == NULL) continue;
    cs = tfe_cb_status_begin(&cb, s);
    c = from->cbs.copy_tensor_from_device(op->ctx, h, target, cs, from->info);
    c = tfe_custom_take_result(c, op->inputs, op->num_inputs, from,
                               "copy_tensor_from_device", cs);
    if (c == NULL) {
      tfe_cb_status_end(&cb);
      return 0;
    }
    tfe_cb_status_end(&cb);
    /* Tapes that track h track its copy from here (TF records the op with
     * the caller's input, so the gradient reaches h). */
    if (atomic_load_explicit(&op->ctx->num_tapes, memory_order_relaxed) > 0) {
      tfe_tape_record_copy(op->ctx, h, c);
    }
    /* The op takes over the copy's reference. */
    op->inputs[i] = c;
    tfe_handle_unref(h);
    if (i == 0) op->placed = NULL;
  }
  return 1;
}

int tfe_custom_dispatch(TFE_Op* op, TFE_TensorHandle** retvals,
                        int* num_retvals, TF_Status* s) {
  tfe_custom_device* chosen;
  tfe_custom_device* first;
  if (!choose(op, &chosen, &first, s)) return 1;
  if (chosen != NULL) {
    run_on_device(chosen, op, retvals, num_retvals, s);
    return 1;
  }
  if (first != NULL && !copy_inputs_off(op, first, s)) return 1;
  tfe_status_ok(s);
  return 0;
}
