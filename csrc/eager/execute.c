/* TFE_Execute: placement, the kernel-cache fast path, the slow path that
 * completes and validates attrs and finds the kernel, input checks with
 * TF's messages and device placement policies, and output wrapping.
 *
 * Steady state (same op type, attrs and device as an earlier execution):
 * one cache lookup, per-input dtype/device checks, the kernel call, and
 * one handle allocation per output. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/checked.h"
#include "core/fpenv.h"
#include "core/status_internal.h"
#include "core/version.h"
#include "eager/custom_device.h"
#include "eager/eager_internal.h"
#include "eager/executor.h"
#include "eager/forward_internal.h"
#include "eager/tape.h"
#include "kernels/host_memory.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"
#include "ops/proto_encode.h"
#include "tensorflow/c/logging.h"

#define INLINE_TENSORS 8

static const char* dtype_name(TF_DataType t) {
  const char* n = tfe_dtype_short_name(t);
  return n != NULL ? n : "unknown";
}

/* ------------------------------------------------------------------------
 * Placement. */

static void list_devices(TFE_Context* ctx, char* buf, size_t cap) {
  int i, n = atomic_load(&ctx->num_devices);
  size_t pos = 0;
  buf[0] = '\0';
  for (i = 0; i < n && pos + 2 < cap; i++) {
    int w = snprintf(buf + pos, cap - pos, "%s%s", i ? ", " : "",
                     ctx->devices[i]->name);
    if (w < 0) break;
    pos += (size_t)w;
  }
}

static void list_types(TFE_Context* ctx, char* buf, size_t cap) {
  int i, j, n = atomic_load(&ctx->num_devices);
  size_t pos = 0;
  buf[0] = '\0';
  for (i = 0; i < n && pos + 2 < cap; i++) {
    int w;
    for (j = 0; j < i; j++) {
      if (ctx->devices[j]->factory == ctx->devices[i]->factory) break;
    }
    if (j < i) continue;
    w = snprintf(buf + pos, cap - pos, "%s%s", pos ? ", " : "",
                 ctx->devices[i]->type);
    if (w < 0) break;
    pos += (size_t)w;
  }
}

/* Writes the types of ctx's device kinds that have a kernel for `def`
 * under `attrs` into buf ("CPU, MY_DEVICE"), in the context's device
 * order; returns the length (0: no kind has one). */
static size_t kernel_kinds(TFE_Context* ctx, const tfe_op_def* def,
                           const tfe_attrs* attrs, char* buf, size_t cap) {
  const tfe_device_factory* seen[64];
  int num_seen = 0, i, j, n = atomic_load(&ctx->num_devices);
  size_t pos = 0;
  TF_Status tmp;
  tmp.code = TF_OK;
  tmp.msg = NULL;
  tmp.payloads = NULL;
  buf[0] = '\0';
  for (i = 0; i < n; i++) {
    const tfe_device* d = ctx->devices[i];
    int w;
    for (j = 0; j < num_seen; j++) {
      if (seen[j] == d->factory) break;
    }
    if (j < num_seen) continue;
    if (num_seen < (int)(sizeof(seen) / sizeof(seen[0]))) {
      seen[num_seen++] = d->factory;
    }
    if (tfe_kernel_find(def, d->type, attrs, &tmp) == NULL) continue;
    w = snprintf(buf + pos, cap - pos, "%s%s", pos ? ", " : "", d->type);
    if (w < 0 || (size_t)w >= cap - pos) break;
    pos += (size_t)w;
  }
  tfe_status_ok(&tmp);
  return pos;
}

/* An explicit request for a device the context does not have (without
 * soft placement), as TF's EagerContext::SelectDevice reports it: NOT_FOUND
 * when no device kind has a kernel for the op, else INVALID_ARGUMENT
 * listing the kinds that have one (all kinds when the attrs cannot be
 * completed yet; TFE_Execute reports that problem later). */
static void missing_device(TFE_Op* op, TF_Status* s) {
  TFE_Context* ctx = op->ctx;
  char devs[1024], types[256];
  tfe_attrs full;
  TF_Status tmp;
  size_t n = 0;
  int complete;
  tmp.code = TF_OK;
  tmp.msg = NULL;
  tmp.payloads = NULL;
  tfe_attrs_init(&full);
  complete = op->def != NULL && tfe_attrs_merge(&full, &op->attrs) &&
             tfe_op_def_complete_attrs(op->def, &full, &tmp);
  tfe_status_ok(&tmp);
  if (complete) {
    n = kernel_kinds(ctx, op->def, &full, types, sizeof(types));
    if (n == 0) {
      /* The host's lookup error names every registered kernel. */
      if (tfe_kernel_find(op->def, ctx->devices[0]->type, &full, s) ==
              NULL &&
          TF_GetCode(s) != TF_OK) {
        tfe_attrs_destroy(&full);
        return;
      }
    }
  }
  tfe_attrs_destroy(&full);
  if (n == 0) list_types(ctx, types, sizeof(types));
  list_devices(ctx, devs, sizeof(devs));
  tfe_status_setf(s, TF_INVALID_ARGUMENT,
                  "Could not satisfy device specification '%s'. "
                  "enable_soft_placement=0. Supported device types [%s]. "
                  "All available devices [%s].",
                  op->device_name, types, devs);
}

static const tfe_device* place(TFE_Op* op, TF_Status* s) {
  TFE_Context* ctx = op->ctx;
  const tfe_device* d;
  if (op->has_device) {
    d = tfe_ctx_find_device(ctx, &op->spec);
    if (d != NULL) return d;
    if (atomic_load_explicit(&ctx->soft_placement, memory_order_relaxed)) {
      /* Same kind on another index, else the default device. */
      tfe_device_spec kind;
      memset(&kind, 0, sizeof(kind));
      if (op->spec.has_type) {
        kind.has_type = 1;
        strcpy(kind.type, op->spec.type);
        d = tfe_ctx_find_device(ctx, &kind);
      }
      return d != NULL ? d : ctx->default_device;
    }
    missing_device(op, s);
    return NULL;
  }
  return ctx->default_device;
}

/* Ops that TF never pins to the host for small integer inputs: they make
 * new data, better made where it is used. */
static int pinnable_to_host(const char* name) {
  static const char* const never[] = {
      "RandomUniform",          "RandomUniformInt",
      "RandomStandardNormal",   "StatelessRandomUniform",
      "StatelessRandomUniformInt", "StatelessRandomUniformFullInt",
      "StatelessRandomNormal",  NULL};
  int i;
  for (i = 0; never[i] != NULL; i++) {
    if (strcmp(name, never[i]) == 0) return 0;
  }
  return strncmp(name, "XRT", 3) != 0;
}

/* Ops whose resource inputs do not decide their device (TF's input
 * colocation exemptions that tfe can run). */
static int colocation_exempt(const char* name) {
  return strcmp(name, "IdentityN") == 0;
}

/* The device of op's first resource input (the op runs where its
 * resource lives, whatever was requested, as in TF), or NULL. */
static const tfe_device* resource_device(TFE_Op* op) {
  const int n = op->num_inputs;
  int i;
  for (i = 0; i < n; i++) {
    const TFE_TensorHandle* h = op->inputs[i];
    if (h->dtype == TF_RESOURCE && !colocation_exempt(op->def->name)) {
      const tfe_device* d = tfe_ctx_same_device(op->ctx, h->device);
      return d != NULL ? d : op->ctx->devices[0];
    }
  }
  return NULL;
}

/* Placement of an op without a device request, as TF's eager runtime does
 * it: an op with a resource input runs on that resource's device (and one
 * with a reference input on the reference's, as TF's placer colocates
 * reference edges); an op whose inputs are all small (at most 64 elements)
 * int32/int64 tensors on the host CPU runs there; anything else returns NULL, meaning "the best
 * device that has a kernel" (chosen once per kernel cache entry, see
 * best_device). One pass over the inputs, reading dtype and device. */
static const tfe_device* place_unrequested(TFE_Op* op) {
  TFE_Context* ctx = op->ctx;
  const tfe_device* host = ctx->devices[0];
  const int n = op->num_inputs;
  int i, small = n > 0;
  for (i = 0; i < n; i++) {
    const TFE_TensorHandle* h = op->inputs[i];
    /* A resource or reference input decides (references cannot move
     * between devices: the op must run where the cell's value lives). */
    if ((h->dtype == TF_RESOURCE || h->is_ref) &&
        !colocation_exempt(op->def->name)) {
      const tfe_device* d = tfe_ctx_same_device(ctx, h->device);
      return d != NULL ? d : host;
    }
    if (small &&
        ((h->dtype != TF_INT32 && h->dtype != TF_INT64) ||
         atomic_load_explicit(&h->state, memory_order_acquire) !=
             TFE_HANDLE_READY ||
         !tfe_device_same(h->device, host) || h->t == NULL ||
         tfe_shape_num_elements(h->t->dims, h->t->num_dims) > 64)) {
      small = 0;
    }
  }
  if (small && pinnable_to_host(op->def->name) &&
      !colocation_exempt(op->def->name)) {
    return host;
  }
  return NULL;
}

/* The device TF's placer picks for an op among ctx's devices: of the
 * device kinds with a kernel for the op under `attrs`, the one with the
 * highest kernel priority, then the highest kind priority (PluggableDevice
 * kinds 220 above CPU 60, as TF's device factories), then the smallest
 * type name; of that kind, the context's first device. `skip` (may be
 * NULL) is a device known to have no kernel. Sets *reg. NULL with the
 * host's NOT_FOUND in s when no kind has a kernel, or the lookup error of
 * a kind (two kernels at the same priority). */
static const tfe_device* best_device(TFE_Context* ctx, const tfe_op_def* def,
                                     const tfe_attrs* attrs,
                                     const tfe_device* skip,
                                     const tfe_kernel_reg** reg,
                                     TF_Status* s) {
  const tfe_device* best = NULL;
  const tfe_kernel_reg* best_reg = NULL;
  const tfe_device_factory* seen[64];
  int num_seen = 0, i, j, n = atomic_load(&ctx->num_devices);
  TF_Status tmp;
  tmp.code = TF_OK;
  tmp.msg = NULL;
  tmp.payloads = NULL;
  for (i = 0; i < n; i++) {
    const tfe_device* d = ctx->devices[i];
    const tfe_kernel_reg* r;
    for (j = 0; j < num_seen; j++) {
      if (seen[j] == d->factory) break;
    }
    if (j < num_seen) continue;
    if (num_seen < (int)(sizeof(seen) / sizeof(seen[0]))) {
      seen[num_seen++] = d->factory;
    }
    if (skip != NULL && skip->factory == d->factory) continue;
    r = tfe_kernel_find(def, d->type, attrs, &tmp);
    if (r == NULL) {
      if (tmp.code != TF_NOT_FOUND) {
        tfe_status_copy(s, &tmp);
        tfe_status_ok(&tmp);
        return NULL;
      }
      continue;
    }
    if (best == NULL || r->priority > best_reg->priority ||
        (r->priority == best_reg->priority &&
         (d->factory->priority > best->factory->priority ||
          (d->factory->priority == best->factory->priority &&
           strcmp(d->type, best->type) < 0)))) {
      best = d;
      best_reg = r;
    }
  }
  tfe_status_ok(&tmp);
  if (best == NULL) {
    /* The host's lookup error names every registered kernel. */
    tfe_kernel_find(def, ctx->devices[0]->type, attrs, s);
    if (s != NULL && TF_GetCode(s) == TF_OK) {
      tfe_status_setf(s, TF_NOT_FOUND,
                      "Could not find device for node: {{node %s}}",
                      def->name);
    }
    return NULL;
  }
  *reg = best_reg;
  tfe_status_ok(s);
  return best;
}

/* An op explicitly placed (without soft placement) on a device that has no
 * kernel for it: s holds that device's NOT_FOUND. As in TF's
 * EagerContext::SelectDevice, when some other device kind of the context
 * has a kernel for the op under `attrs` the request is what cannot be
 * satisfied (INVALID_ARGUMENT, listing the kinds that could run it);
 * when no kind has one, the NOT_FOUND stays. */
static void explicit_request_fails(TFE_Op* op, const tfe_attrs* attrs,
                                   TF_Status* s) {
  char types[256], devs[1024];
  if (kernel_kinds(op->ctx, op->def, attrs, types, sizeof(types)) == 0) {
    return;
  }
  list_devices(op->ctx, devs, sizeof(devs));
  tfe_status_setf(s, TF_INVALID_ARGUMENT,
                  "Could not satisfy device specification '%s'. "
                  "enable_soft_placement=0. Supported device types [%s]. "
                  "All available devices [%s].",
                  op->device_name != NULL ? op->device_name : "", types, devs);
}

/* Input i is on another device than the kernel's: apply the policy. */
static int check_placement(TFE_Op* op, int i, const TFE_TensorHandle* h,
                           const tfe_device* d, TF_Status* s) {
  TFE_ContextDevicePlacementPolicy policy = tfe_ctx_policy(op->ctx);
  if (!tfe_device_can_copy(h->backing, d)) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "cannot compute %s: copying input #%d from %s to %s is "
                    "not implemented in tfe",
                    op->def->name, i, h->backing->name, d->name);
    return 0;
  }
  switch (policy) {
    case TFE_DEVICE_PLACEMENT_SILENT:
      return 1;
    case TFE_DEVICE_PLACEMENT_WARN:
      TF_Log(TF_WARNING,
             "before computing %s input #%d was expected to be on %s but is "
             "actually on %s (operation running on %s). This triggers a copy "
             "which can be a performance bottleneck.",
             op->def->name, i, d->name, h->device->name, d->name);
      return 1;
    case TFE_DEVICE_PLACEMENT_SILENT_FOR_INT32:
      if (h->dtype == TF_INT32) return 1;
      break;
    case TFE_DEVICE_PLACEMENT_EXPLICIT:
    default:
      break;
  }
  tfe_status_setf(
      s, TF_INVALID_ARGUMENT,
      "Tensors on conflicting devices: cannot compute %s as input #%d was "
      "expected to be on %s but is actually on %s (operation running on %s) "
      "Tensors can be copied explicitly using: `with tf.device(device_name): "
      "x = tf.identity(x)` or transparently copied by using "
      "tf.config.experimental.set_device_policy('silent'). Copying tensors "
      "between devices may slow down your model",
      op->def->name, i, d->name, h->device->name, d->name);
  return 0;
}

/* ------------------------------------------------------------------------
 * Slow path: build a cache entry. */

/* Flat input count implied by the attrs set so far; -1 when a list length
 * is not known yet, or a number attr is not a valid length (outside
 * [0, INT32_MAX]: the attr checks that follow report it in TF's words).
 * Each term fits an int32, so the int64 sum cannot overflow; it is added
 * through the checked helpers all the same (saturating). */
static int64_t known_input_count(const TFE_Op* op) {
  int i;
  int64_t total = 0;
  for (i = 0; i < op->def->num_inputs; i++) {
    const tfe_arg_def* a = &op->def->inputs[i];
    int64_t term = 1;
    if (a->number_attr != NULL) {
      const tfe_attr_value* v = tfe_attrs_find(&op->attrs, a->number_attr);
      if (v == NULL || v->is_list || v->type != TF_ATTR_INT) return -1;
      if (v->v.i < 0 || !tfe_fits_int32(v->v.i)) return -1;
      term = v->v.i;
    } else if (a->type_list_attr != NULL) {
      const tfe_attr_value* v = tfe_attrs_find(&op->attrs, a->type_list_attr);
      if (v == NULL || !v->is_list) return -1;
      term = v->list_size;
    }
    if (!tfe_checked_add_i64(total, term, &total)) total = INT64_MAX;
  }
  return total;
}

static int check_input_count(const TFE_Op* op, int64_t expected,
                             TF_Status* s) {
  if (expected >= 0 && expected != op->num_inputs) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "expected %lld inputs, got %d",
                    (long long)expected, op->num_inputs);
    return 0;
  }
  return 1;
}

/* TF reports an attr without value and without default as NOT_FOUND. */
static int check_required_attrs(const TFE_Op* op, TF_Status* s) {
  int i;
  for (i = 0; i < op->def->num_attrs; i++) {
    const tfe_attr_def* ad = &op->def->attrs[i];
    if (ad->has_default) continue;
    if (tfe_attrs_find(&op->attrs, ad->name) == NULL) {
      tfe_status_setf(s, TF_NOT_FOUND,
                      "No attr named '%s' in NodeDef:\n\t [[{{node %s}}]]",
                      ad->name, op->def->name);
      return 0;
    }
  }
  return 1;
}

/* max_outputs: room the caller gave for outputs (*num_retvals). An op
 * with more outputs fails here, as run() would fail it, before arrays
 * sized by a user-controlled number attr are allocated. */
static tfe_kcache_entry* build_entry(TFE_Op* op, const tfe_device* dev,
                                     uint64_t hash, int max_outputs,
                                     TF_Status* s) {
  const tfe_op_def* def = op->def;
  TFE_Context* ctx = op->ctx;
  tfe_kcache_entry* e;
  const tfe_kernel_reg* reg;
  int i, n_in = 0, n_out = 0, k, n_types;
  size_t types_bytes;

  if (!check_input_count(op, known_input_count(op), s)) return NULL;
  if (!check_required_attrs(op, s)) return NULL;

  e = (tfe_kcache_entry*)tfe_calloc(1, sizeof(*e));
  if (e == NULL) goto oom;
  e->def = def;
  e->device = dev;
  e->hash = hash;
  tfe_attrs_init(&e->key);
  tfe_attrs_init(&e->complete);
  if (!tfe_attrs_merge(&e->key, &op->attrs) ||
      !tfe_attrs_merge(&e->complete, &op->attrs)) {
    goto oom;
  }
  if (!tfe_op_def_complete_attrs(def, &e->complete, s)) goto fail;

  /* Flat input and output dtypes under the complete attrs. */
  for (i = 0; i < def->num_inputs; i++) {
    int len = 0;
    if (!tfe_op_def_arg_length(def, &def->inputs[i], &e->complete, &len, s)) {
      goto fail;
    }
    if (!tfe_checked_add_int(n_in, len, &n_in)) n_in = INT32_MAX;
  }
  if (!tfe_op_def_output_types(def, &e->complete, NULL, 0, &n_out, s)) {
    goto fail;
  }
  if (!check_input_count(op, n_in, s)) goto fail;

  /* The kernel: on the best device for an op without placement (dev
   * NULL), else on dev; when dev has no kernel, an op without a device
   * request (pinned to dev by a rule of place_unrequested) or one with soft
   * placement runs on the best device that has one. */
  if (dev == NULL) {
    e->run_device = best_device(ctx, def, &e->complete, NULL, &reg, s);
    if (e->run_device == NULL) goto fail;
  } else {
    e->run_device = dev;
    reg = tfe_kernel_find(def, dev->type, &e->complete, s);
    if (reg == NULL && TF_GetCode(s) == TF_NOT_FOUND &&
        (!op->has_device ||
         atomic_load_explicit(&ctx->soft_placement, memory_order_relaxed))) {
      const tfe_kernel_reg* other = NULL;
      const tfe_device* d =
          best_device(ctx, def, &e->complete, dev, &other, NULL);
      if (d != NULL) {
        reg = other;
        e->run_device = d;
        tfe_status_ok(s);
      }
    }
    if (reg == NULL && TF_GetCode(s) == TF_NOT_FOUND && op->has_device) {
      explicit_request_fails(op, &e->complete, s);
    }
  }
  if (reg == NULL) goto fail;
  if (n_out > max_outputs) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Expecting %d outputs for %s, but *num_retvals is %d",
                    n_out, def->name, max_outputs);
    goto fail;
  }
  /* n_in and n_out are bounded by the caller's arrays; checked all the
   * same, as the sizes come from user-controlled attrs. */
  if (!tfe_checked_add_int(n_in, n_out, &n_types) ||
      !tfe_checked_add_int(n_types, 1, &n_types) ||
      !tfe_checked_mul_sz(sizeof(TF_DataType), (size_t)n_types,
                          &types_bytes)) {
    goto oom;
  }
  e->input_types = (TF_DataType*)tfe_malloc(types_bytes);
  if (e->input_types == NULL) goto oom;
  e->output_types = e->input_types + n_in;
  e->num_inputs = n_in;
  e->num_outputs = n_out;
  e->has_ref = tfe_op_def_has_ref(def);
  k = 0;
  for (i = 0; i < def->num_inputs; i++) {
    int len = 0, j;
    tfe_op_def_arg_length(def, &def->inputs[i], &e->complete, &len, s);
    for (j = 0; j < len; j++) {
      if (!tfe_op_def_arg_dtype(def, &def->inputs[i], &e->complete, j,
                                &e->input_types[k++], s)) {
        goto fail;
      }
    }
  }
  if (!tfe_op_def_output_types(def, &e->complete, e->output_types, n_out,
                               &n_out, s)) {
    goto fail;
  }
  e->reg = reg;
  if (reg->create != NULL) {
    e->state = reg->create(def, &e->complete, reg->user_data, s);
    if (TF_GetCode(s) != TF_OK) {
      e->state = NULL;
      goto fail;
    }
  }
  /* As TF's kernel constructor: no kernel for an op removed at or before
   * the runtime's GraphDef version. */
  if (!tfe_op_check_not_removed(def->name, TFE_GRAPH_DEF_VERSION, s)) {
    goto fail;
  }
  e = tfe_kcache_insert(&ctx->cache, e);
  if (e == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "TFE_Execute: out of memory caching the kernel of %s",
                    def->name);
  }
  return e;

oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "TFE_Execute: out of memory preparing %s", def->name);
fail:
  if (TF_GetCode(s) == TF_OK) {
    tfe_status_setf(s, TF_INTERNAL, "TFE_Execute: preparing %s failed",
                    def->name);
  }
  tfe_kcache_entry_free(e);
  return NULL;
}

/* ------------------------------------------------------------------------
 * Running. */

/* Makes sure *held (2 * n_in slots: copies of inputs, then views of
 * references, each kept until the kernel returned) exists. */
static int hold_slots(TF_Tensor*** held, int n_in, TF_Status* s) {
  if (*held != NULL) return 1;
  *held = (TF_Tensor**)tfe_calloc((size_t)n_in * 2, sizeof(TF_Tensor*));
  if (*held == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "TFE_Execute: out of memory copying inputs");
    return 0;
  }
  return 1;
}

/* The tensor the kernel reads for input i (tensor `src` held by device
 * `backing`): src itself, or a copy into the memory the kernel needs (host
 * memory for host-memory args and host-only dtypes, else the run
 * device's), kept in (*held)[i] until the kernel returns. NULL with the
 * status set on failure. */
static TF_Tensor* input_memory(TFE_Context* ctx, const tfe_kcache_entry* e,
                               int i, TF_Tensor* src,
                               const tfe_device* backing, int n_in,
                               TF_Tensor*** held, TF_Status* s) {
  const tfe_device* run = e->run_device;
  int have_host = tfe_tensor_in_host_memory(src);
  int want_host;
  TF_Tensor* c;
  if (run->is_host && have_host) return src;
  want_host = run->is_host || src->dtype == TF_STRING ||
              src->dtype == TF_RESOURCE || src->dtype == TF_VARIANT ||
              tfe_kernel_arg_in_host_memory(e->reg, e->def, &e->complete, 0,
                                            i);
  if (want_host == have_host &&
      (have_host || tfe_device_same(backing, run))) {
    return src;
  }
  if (!hold_slots(held, n_in, s)) return NULL;
  c = tfe_device_copy_tensor(src, backing, want_host ? ctx->devices[0] : run,
                             s);
  (*held)[i] = c;
  return c;
}

/* Input i is reference handle h. For a Ref(T) arg (is_ref) the kernel gets
 * the cell and a view of its value; for a plain arg the value is read
 * (TF's automatic dereference): a host value is copied so that the result
 * never changes with later updates of the reference. The view or copy is
 * kept in (*held)[n_in + i]. Returns the tensor for ins[i] (NULL for an
 * uninitialized reference the op accepts), 0 in *ok on failure. */
static TF_Tensor* ref_input(TFE_Context* ctx, const tfe_kcache_entry* e,
                            int i, TFE_TensorHandle* h, int is_ref, int n_in,
                            TF_Tensor*** held, int* ok, TF_Status* s) {
  TF_Tensor* v;
  const tfe_device* backing;
  *ok = 0;
  if (!hold_slots(held, n_in, s)) return NULL;
  if (is_ref) {
    pthread_mutex_lock(&h->ref->mu);
    if (h->ref->value == NULL) {
      pthread_mutex_unlock(&h->ref->mu);
      if (e->def->allows_uninitialized_input) {
        *ok = 1;
        return NULL;
      }
      tfe_status_setf(s, TF_FAILED_PRECONDITION,
                      "Attempting to use uninitialized value: input #%d of "
                      "%s is a reference that was never assigned",
                      i, e->def->name);
      return NULL;
    }
    v = tfe_ref_cell_read(h->ref, 1, s);
    pthread_mutex_unlock(&h->ref->mu);
    if (v == NULL) return NULL;
    (*held)[n_in + i] = v;
    *ok = 1;
    return v;
  }
  v = tfe_ref_cell_read(h->ref, 0, s);
  if (v == NULL) return NULL;
  if (tfe_tensor_in_host_memory(v)) {
    TF_Tensor* c = tfe_tensor_deep_copy(v);
    TF_DeleteTensor(v);
    if (c == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "TFE_Execute: out of memory reading a reference");
      return NULL;
    }
    v = c;
    backing = ctx->devices[0];
  } else {
    backing = h->backing;
  }
  (*held)[n_in + i] = v;
  v = input_memory(ctx, e, i, v, backing, n_in, held, s);
  *ok = v != NULL;
  return v;
}

/* After the kernel ran: checks the outputs (every plain output set with
 * its dtype, every Ref output given a cell of its dtype). */
static int check_outputs(const tfe_kcache_entry* e, TF_Tensor** outs,
                         tfe_ref_cell** out_refs, int has_ref,
                         TF_Status* status) {
  int i;
  for (i = 0; i < e->num_outputs; i++) {
    if (has_ref && tfe_op_def_flat_is_ref(e->def, &e->complete, 1, i)) {
      if (out_refs[i] == NULL) {
        tfe_status_setf(status, TF_INTERNAL,
                        "the kernel of %s did not produce reference output "
                        "%d (use TF_OpKernelContext_ForwardRefInputToRef"
                        "Output or TF_TemporaryVariable)",
                        e->def->name, i);
        return 0;
      }
      if (out_refs[i]->dtype != e->output_types[i]) {
        tfe_status_setf(status, TF_INTERNAL,
                        "the kernel of %s produced a %s reference for output "
                        "%d, expected %s",
                        e->def->name, dtype_name(out_refs[i]->dtype), i,
                        dtype_name(e->output_types[i]));
        return 0;
      }
      if (outs[i] != NULL) {
        TF_DeleteTensor(outs[i]);
        outs[i] = NULL;
      }
      continue;
    }
    if (outs[i] == NULL) {
      tfe_status_setf(status, TF_INTERNAL,
                      "the kernel of %s did not produce output %d",
                      e->def->name, i);
      return 0;
    }
    if (outs[i]->dtype != e->output_types[i]) {
      tfe_status_setf(status, TF_INTERNAL,
                      "the kernel of %s produced a %s tensor for output %d, "
                      "expected %s",
                      e->def->name, dtype_name(outs[i]->dtype), i,
                      dtype_name(e->output_types[i]));
      return 0;
    }
  }
  return 1;
}

/* Which inputs the kernel may forward (tfe_kernel_context.forwardable),
 * as in TF, where a tensor handle protects its buffer from forwarding
 * until the op executing it holds the handle's last reference: input i
 * qualifies when its handle has that single reference (the op's, or an
 * asynchronous node's: the caller deleted its own handle after adding
 * it), the kernel reads the handle's own tensor (not a copy or a
 * reference's view), and that tensor's buffer is core host memory with a
 * single reference. A handle referenced once cannot gain references
 * while it runs (only a holder can make new ones), so the answer stays
 * true until the kernel returns. The same handle added twice, a handle
 * the caller kept, a TF_Tensor from TFE_TensorHandleResolve, a DLPack or
 * numpy export, a variable's value or another handle sharing the buffer
 * all hold a reference and prevent it. */
/* `sole` has bit i set for the inputs whose handle had one reference when
 * the input loop saw it (the common case, a handle the caller kept, costs
 * that loop one load); this confirms the rest for those. */
static uint64_t forwardable_inputs(TFE_TensorHandle* const* inputs,
                                   TF_Tensor* const* ins, uint64_t sole) {
  uint64_t m = 0;
  int i;
  atomic_thread_fence(memory_order_acquire);
  for (i = 0; sole != 0; i++, sole >>= 1) {
    const TFE_TensorHandle* h = inputs[i];
    const TF_Tensor* t = ins[i];
    if ((sole & 1) == 0 || t == NULL || t != h->t || t->buf == NULL ||
        !t->buf->owns_memory ||
        atomic_load_explicit(&t->buf->refcount, memory_order_acquire) != 1) {
      continue;
    }
    m |= (uint64_t)1 << i;
  }
  return m;
}

/* Runs e's kernel on `inputs` (e->num_inputs handles; waits for pending
 * ones) and stores e->num_outputs new tensors in outs (all NULL on entry),
 * and for ops with Ref(T) args the Ref outputs' cells in out_refs.
 * Shared by TFE_Execute and the nodes of asynchronous executors
 * (executor.h). Returns 0 with the error in status (outs all NULL). */
int tfe_execute_kernel(TFE_Context* ctx, const tfe_kcache_entry* e,
                       TFE_TensorHandle* const* inputs, TF_Tensor** outs,
                       tfe_ref_cell** out_refs,
                       struct TFE_CancellationManager* cancel,
                       TF_Status* status) {
  TF_Tensor** held = NULL; /* copies and reference views (hold_slots) */
  TF_Tensor* in_inline[INLINE_TENSORS];
  TF_Tensor** ins = in_inline;
  tfe_ref_cell** in_refs = NULL;
  const int n_in = e->num_inputs, n_out = e->num_outputs;
  const int has_ref = e->has_ref;
  tfe_kernel_context k;
  uint64_t sole = 0; /* inputs whose handle had a single reference */
  int i, ok = 0;

  if (has_ref && out_refs == NULL) {
    tfe_status_setf(status, TF_INTERNAL,
                    "TFE_Execute: no room for the reference outputs of %s",
                    e->def->name);
    return 0;
  }
  if (n_in > INLINE_TENSORS) {
    ins = (TF_Tensor**)tfe_malloc(sizeof(TF_Tensor*) * (size_t)n_in);
    if (ins == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TFE_Execute: out of memory running %s", e->def->name);
      return 0;
    }
  }
  if (has_ref && n_in > 0) {
    in_refs = (tfe_ref_cell**)tfe_calloc((size_t)n_in, sizeof(*in_refs));
    if (in_refs == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TFE_Execute: out of memory running %s", e->def->name);
      goto done;
    }
  }
  for (i = 0; i < n_in; i++) {
    TFE_TensorHandle* h = inputs[i];
    /* An input still computed by an asynchronous executor is waited for;
     * one whose op failed fails this op with the same error. */
    if (!tfe_handle_ready(h, status)) goto done;
    if (i < 64 && atomic_load_explicit(&h->refs, memory_order_relaxed) == 1) {
      sole |= (uint64_t)1 << i;
    }
    if (h->ref != NULL) {
      int is_ref = has_ref &&
                   tfe_op_def_flat_is_ref(e->def, &e->complete, 0, i);
      int got;
      ins[i] = ref_input(ctx, e, i, h, is_ref, n_in, &held, &got, status);
      if (!got) goto done;
      if (is_ref) in_refs[i] = h->ref;
      continue;
    }
    ins[i] = input_memory(ctx, e, i, h->t, h->backing, n_in, &held, status);
    if (ins[i] == NULL) goto done;
  }

  k.op_def = e->def;
  k.attrs = &e->complete;
  k.inputs = ins;
  k.num_inputs = n_in;
  k.outputs = outs;
  k.num_outputs = n_out;
  k.output_types = e->output_types;
  k.status = status;
  k.state = e->state;
  k.user_data = e->reg->user_data;
  k.eager_ctx = ctx;
  k.device_name = e->run_device->name;
  k.input_refs = in_refs;
  k.output_refs = has_ref ? out_refs : NULL;
  k.forwardable =
      has_ref || sole == 0 ? 0 : forwardable_inputs(inputs, ins, sole);
  k.forwarded = 0;
  k.cancel = cancel;
  k.node_name = NULL;
  {
    /* Kernels run with denormals flushed and round-to-nearest, as in TF;
     * the caller's modes are back once compute returns (core/fpenv.h). */
    tfe_fpenv_saved fp;
    uint64_t alloc_failures = tfe_alloc_failures();
    tfe_fpenv_enter(&fp);
    e->reg->compute(&k);
    tfe_fpenv_leave(&fp);
    /* A kernel that ran out of memory but could not say so (a plugin whose
     * TF_NewStatus returned NULL) is reported as out of memory, not as a
     * kernel that forgot its outputs. */
    if (TF_GetCode(status) == TF_OK &&
        tfe_alloc_failures() != alloc_failures &&
        !check_outputs(e, outs, out_refs, has_ref, status)) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "out of memory while running the kernel of %s",
                      e->def->name);
    }
  }
  /* An input whose buffer became an output's no longer holds its value
   * (whether or not the kernel then succeeded). */
  if (k.forwarded != 0) {
    for (i = 0; i < n_in && i < 64; i++) {
      if (k.forwarded & ((uint64_t)1 << i)) {
        tfe_handle_consume(inputs[i], e->def->name, i);
      }
    }
  }
  if (TF_GetCode(status) != TF_OK) goto done;
  ok = check_outputs(e, outs, out_refs, has_ref, status);

done:
  if (!ok) {
    for (i = 0; i < n_out; i++) {
      if (outs[i] != NULL) TF_DeleteTensor(outs[i]);
      outs[i] = NULL;
      if (has_ref) {
        tfe_ref_cell_unref(out_refs[i]);
        out_refs[i] = NULL;
      }
    }
  }
  if (held != NULL) {
    for (i = 0; i < 2 * n_in; i++) {
      if (held[i] != NULL) TF_DeleteTensor(held[i]);
    }
    tfe_free(held);
  }
  tfe_free(in_refs);
  if (ins != in_inline) tfe_free(ins);
  return ok;
}

/* Reference rules for input i of an op with Ref(T) args: a Ref(T) arg
 * needs a reference handle on the op's device (a reference cannot be
 * copied); a plain arg takes either kind. */
static int check_ref_input(const TFE_Op* op, const tfe_kcache_entry* e,
                           int i, const TFE_TensorHandle* h, TF_Status* s) {
  if (!tfe_op_def_flat_is_ref(e->def, &e->complete, 0, i)) return 1;
  if (!h->is_ref) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "cannot compute %s as input #%d(zero-based) was expected "
                    "to be a %s_ref tensor but is a %s tensor (a reference "
                    "input takes the output of an op with a Ref output, "
                    "such as TemporaryVariable)",
                    op->def->name, i, dtype_name(e->input_types[i]),
                    dtype_name(h->dtype));
    return 0;
  }
  if (h->device != e->run_device &&
      !tfe_device_same(h->device, e->run_device)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "cannot compute %s: reference input #%d lives on %s but "
                    "the op runs on %s, and a reference cannot be copied "
                    "between devices",
                    op->def->name, i, h->device->name, e->run_device->name);
    return 0;
  }
  return 1;
}

/* The handle for output i of a finished kernel: a reference handle for a
 * Ref output (out_refs[i] set), else one adopting outs[i]. NULL on OOM. */
static TFE_TensorHandle* wrap_output(TFE_Context* ctx,
                                     const tfe_kcache_entry* e, int i,
                                     TF_Tensor** outs,
                                     tfe_ref_cell** out_refs) {
  TFE_TensorHandle* h;
  TF_Tensor* t = outs[i];
  int on_host;
  if (out_refs != NULL && out_refs[i] != NULL) {
    h = tfe_handle_new_ref(ctx, e->output_types[i], e->run_device,
                           out_refs[i]);
    tfe_ref_cell_unref(out_refs[i]);
    out_refs[i] = NULL;
    return h;
  }
  /* A device kernel's host-memory output is backed by the host. */
  on_host = !e->run_device->is_host && tfe_tensor_in_host_memory(t);
  outs[i] = NULL;
  h = tfe_handle_adopt(ctx, t, e->run_device);
  if (h != NULL && on_host) h->backing = ctx->devices[0];
  return h;
}

static void run(TFE_Op* op, const tfe_kcache_entry* e,
                TFE_TensorHandle** retvals, int* num_retvals,
                TF_Status* status) {
  TFE_Context* ctx = op->ctx;
  TF_Tensor* out_inline[INLINE_TENSORS];
  TF_Tensor** outs = out_inline;
  tfe_ref_cell** out_refs = NULL; /* ops with Ref(T) args only */
  const int n_in = op->num_inputs, n_out = e->num_outputs;
  const int has_ref = e->has_ref;
  TFE_Executor* async;
  int i;

  if (n_in != e->num_inputs) {
    check_input_count(op, e->num_inputs, status);
    return;
  }
  if (*num_retvals < n_out) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Expecting %d outputs for %s, but *num_retvals is %d",
                    n_out, op->def->name, *num_retvals);
    return;
  }
  /* Checks that need no input values (so they also hold for inputs still
   * pending on an asynchronous executor, and fail at TFE_Execute there). */
  for (i = 0; i < n_in; i++) {
    TFE_TensorHandle* h = op->inputs[i];
    if (h->dtype != e->input_types[i]) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "cannot compute %s as input #%d(zero-based) was "
                      "expected to be a %s tensor but is a %s tensor",
                      op->def->name, i, dtype_name(e->input_types[i]),
                      dtype_name(h->dtype));
      return;
    }
    if (has_ref && !check_ref_input(op, e, i, h, status)) return;
    if (h->custom != NULL) {
      /* Only reachable with a handle of another context's custom device:
       * this context's own are routed by tfe_custom_dispatch. */
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "cannot compute %s: input #%d is on custom device %s, "
                      "which is not registered in this context",
                      op->def->name, i, h->device->name);
      return;
    }
    if (h->device != e->run_device &&
        !tfe_device_same(h->device, e->run_device) &&
        !check_placement(op, i, h, e->run_device, status)) {
      return;
    }
  }
  if (has_ref) {
    out_refs = (tfe_ref_cell**)tfe_calloc((size_t)n_out + 1,
                                          sizeof(*out_refs));
    if (out_refs == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TFE_Execute: out of memory running %s", op->def->name);
      return;
    }
  }
  /* An asynchronous executor queues the op and returns pending outputs
   * (eager/executor.h). */
  async = tfe_executor_for_enqueue(ctx);
  if (async != NULL) {
    tfe_free(out_refs);
    tfe_async_execute(async, op, e, retvals, num_retvals, status);
    return;
  }
  if (!tfe_cancel_check(op->cancel, op->def->name, status)) {
    tfe_free(out_refs);
    return;
  }
  if (n_out > INLINE_TENSORS) {
    outs = (TF_Tensor**)tfe_calloc((size_t)n_out, sizeof(TF_Tensor*));
    if (outs == NULL) {
      tfe_free(out_refs);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TFE_Execute: out of memory running %s", op->def->name);
      return;
    }
  } else {
    for (i = 0; i < n_out; i++) outs[i] = NULL;
  }
  if (!tfe_execute_kernel(ctx, e, op->inputs, outs, out_refs, op->cancel,
                          status)) {
    goto done;
  }
  for (i = 0; i < n_out; i++) {
    retvals[i] = wrap_output(ctx, e, i, outs, out_refs);
    if (retvals[i] == NULL) {
      int j;
      for (j = 0; j < i; j++) {
        tfe_handle_unref(retvals[j]);
        retvals[j] = NULL;
      }
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TFE_Execute: out of memory wrapping the outputs of %s",
                      op->def->name);
      goto done;
    }
  }
  *num_retvals = n_out;
  if (atomic_load_explicit(&ctx->log_placement, memory_order_relaxed)) {
    tfe_ctx_record_op(ctx, op->def->name, e->run_device);
  }

done:
  for (i = 0; i < n_out; i++) {
    if (outs[i] != NULL) TF_DeleteTensor(outs[i]);
    if (out_refs != NULL) tfe_ref_cell_unref(out_refs[i]);
  }
  tfe_free(out_refs);
  if (outs != out_inline) tfe_free(outs);
}

/* The last cache entry the thread used, to skip the shared cache (and its
 * lock) when the same kind of op runs again. Context ids are never reused
 * and entries live as long as their context, so a memo can never point at
 * freed memory when its context id and cache generation still match. */
typedef struct exec_memo {
  uint64_t ctx_id;
  int gen;
  const tfe_op_def* def;
  const tfe_device* device;
  uint64_t hash;
  tfe_kcache_entry* entry;
} exec_memo;
static _Thread_local exec_memo t_memo;

void TFE_Execute(TFE_Op* op, TFE_TensorHandle** retvals, int* num_retvals,
                 TF_Status* status) {
  TFE_Context* ctx;
  const tfe_device* dev;
  tfe_kcache_entry* e;
  uint64_t hash;
  int gen, cache_gen;

  if (status == NULL) {
    TF_Log(TF_WARNING, "TFE_Execute called with a NULL status; not run");
    return;
  }
  if (!tfe_op_check(op, "TFE_Execute", status)) return;
  if (num_retvals == NULL || *num_retvals < 0 ||
      (*num_retvals > 0 && retvals == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_Execute: retvals/num_retvals must describe an array "
                    "(num_retvals %s)",
                    num_retvals == NULL ? "is NULL" : "is invalid");
    return;
  }
  ctx = op->ctx;
  if (!tfe_ctx_check(ctx, "TFE_Execute", status)) return;
  if (op->def == NULL) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "TFE_Execute: the op has no type (a TFE_OpReset failed)");
    return;
  }
  if (op->deferred_error != TF_OK) {
    tfe_status_setf(status, op->deferred_error,
                    "TFE_Execute: setting an attr of %s ran out of memory",
                    op->def->name);
    return;
  }
  tfe_status_ok(status);

  /* Under a gradient tape, a call of a function with stateful ops runs as
   * its forward variant (grad_func.c): one relaxed load when none records. */
  if (atomic_load_explicit(&ctx->num_tapes, memory_order_relaxed) > 0 &&
      tfe_grad_eager_forward(op, retvals, num_retvals, status)) {
    return;
  }

  /* Ops placed on a custom device, or with inputs there, go to the device
   * (custom_device_execute.c); one load when no custom device exists. */
  if (atomic_load_explicit(&ctx->num_custom, memory_order_acquire) > 0 &&
      tfe_custom_dispatch(op, retvals, num_retvals, status)) {
    return;
  }

  if (op->has_device) {
    gen = atomic_load_explicit(&ctx->devices_gen, memory_order_acquire);
    dev = op->placed;
    if (dev == NULL || op->placed_gen != gen) {
      dev = place(op, status);
      if (dev == NULL) return;
      op->placed = dev;
      op->placed_gen = gen;
    }
    /* A resource input overrides the request (TF pins such ops to the
     * resource's device). */
    if (op->num_inputs > 0) {
      const tfe_device* rd = resource_device(op);
      if (rd != NULL) dev = rd;
    }
  } else {
    /* NULL: the kernel cache entry knows the best device. */
    dev = place_unrequested(op);
  }
  hash = tfe_kcache_key_hash(op->def, dev, op->attrs_hash);
  cache_gen = atomic_load_explicit(&ctx->cache.gen, memory_order_acquire);
  if (t_memo.ctx_id == ctx->id && t_memo.gen == cache_gen &&
      t_memo.hash == hash && t_memo.def == op->def && t_memo.device == dev &&
      t_memo.entry->key.count == op->attrs.count &&
      tfe_attrs_equal(&t_memo.entry->key, &op->attrs)) {
    e = t_memo.entry;
  } else {
    e = tfe_kcache_find(&ctx->cache, op->def, dev, &op->attrs, hash);
    if (e == NULL) {
      e = build_entry(op, dev, hash, *num_retvals, status);
      if (e == NULL) return;
    }
    t_memo.ctx_id = ctx->id;
    t_memo.gen = cache_gen;
    t_memo.def = op->def;
    t_memo.device = dev;
    t_memo.hash = hash;
    t_memo.entry = e;
  }
  /* An entry built for an op pinned to `dev` without a request may run
   * elsewhere because `dev` has no kernel; an explicit request for `dev`
   * must fail instead, unless soft placement is on. */
  if (e->run_device != dev && op->has_device &&
      !atomic_load_explicit(&ctx->soft_placement, memory_order_relaxed) &&
      tfe_kernel_find(op->def, dev->type, &e->complete, status) == NULL) {
    if (TF_GetCode(status) == TF_NOT_FOUND) {
      explicit_request_fails(op, &e->complete, status);
    }
    return;
  }
  run(op, e, retvals, num_retvals, status);
  /* Gradient tapes (tape.c) and forward accumulators (forward.c), which
   * count in num_tapes too: one relaxed load when none records. */
  if (atomic_load_explicit(&ctx->num_tapes, memory_order_relaxed) > 0 &&
      TF_GetCode(status) == TF_OK) {
    tfe_tape_record(op, retvals, *num_retvals);
    tfe_forward_record(op, retvals, *num_retvals, status);
  }
}
