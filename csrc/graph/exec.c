/* Running execution plans (plan.h; layout in plan_internal.h).
 *
 * Static plans (no v1 control flow) keep one slot per value with a use
 * count: a walk in creation order (or, for wide graphs, workers of the
 * inter-op pool taking nodes whose inputs are ready) runs each kernel on
 * its input slots, frees a value after its last consumer and lets that
 * consumer reuse the buffer. Plans with v1 control flow run TF's dataflow
 * semantics on a ready queue: values may be dead, a node with a dead input
 * produces dead outputs without running (Merge fires on its first live
 * input instead), Enter/Exit/NextIteration move values between frames and
 * iterations, and a frame ends once its Enter nodes all arrived and
 * nothing of it is outstanding. Kernels are the eager runtime's: a host
 * kernel is called directly, anything else (device kernels, reference
 * arguments) through tfe_execute_kernel, which copies inputs between
 * devices as eager does. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fpenv.h"
#include "core/status_internal.h"
#include "core/threadpool.h"
#include "eager/executor.h"
#include "graph/plan_internal.h"
#include "kernels/resource.h"

#define INLINE_VALS 16

/* The cancellation manager of the plan run executing on this thread. */
#if defined(__GNUC__)
#define TFE_TLS_FAST __attribute__((tls_model("initial-exec")))
#else
#define TFE_TLS_FAST
#endif
static _Thread_local struct TFE_CancellationManager* t_cancel TFE_TLS_FAST;
static _Thread_local int t_depth TFE_TLS_FAST;

/* Cheap check between nodes: one atomic load (the full check, which also
 * sees a cancellation in progress, runs when this says cancelled). */
static int cancelled(TFE_CancellationManager* cm, const char* node,
                     TF_Status* s) {
  if (cm == NULL || !TFE_CancellationManagerIsCancelled(cm)) return 0;
  if (tfe_cancel_check(cm, node, s)) {
    tfe_status_setf(s, TF_CANCELLED, "Run of node %s was cancelled", node);
  }
  return 1;
}

struct TFE_CancellationManager* tfe_plan_current_cancel(void) {
  return t_cancel;
}

void tfe_plan_annotate(TF_Status* s, const char* node) {
  const char* m = TF_Message(s);
  size_t len = strlen(m);
  char* copy;
  if (strstr(m, "{{node ") != NULL) return;
  copy = (char*)tfe_malloc(len + 1);
  if (copy == NULL) return;
  memcpy(copy, m, len + 1);
  tfe_status_setf(s, TF_GetCode(s), "%s\n\t [[{{node %s}}]]", copy, node);
  tfe_free(copy);
}

static void val_release(plan_val* v) {
  if (v->t != NULL) TF_DeleteTensor(v->t);
  if (v->ref != NULL) tfe_ref_cell_unref(v->ref);
  v->t = NULL;
  v->ref = NULL;
}

/* A second owner of the same value (shares the buffer / the cell). */
static int val_dup(plan_val* dst, const plan_val* src) {
  dst->dev = src->dev;
  dst->t = NULL;
  dst->ref = NULL;
  if (src->ref != NULL) {
    tfe_ref_cell_ref(src->ref);
    dst->ref = src->ref;
    return 1;
  }
  if (src->t == NULL) return 1;
  dst->t = tfe_tensor_from_buffer(src->t->dtype, src->t->dims,
                                  src->t->num_dims, src->t->buf);
  return dst->t != NULL;
}

static const char* dtype_name(TF_DataType t) {
  const char* n = tfe_dtype_short_name(t);
  return n != NULL ? n : "unknown";
}

/* ------------------------------------------------------------------------
 * One kernel. */

static int check_outputs(const tfe_kcache_entry* e, TF_Tensor** outs,
                         TF_Status* s) {
  int i;
  for (i = 0; i < e->num_outputs; i++) {
    if (outs[i] == NULL) {
      tfe_status_setf(s, TF_INTERNAL,
                      "the kernel of %s did not produce output %d",
                      e->def->name, i);
      return 0;
    }
    if (outs[i]->dtype != e->output_types[i]) {
      tfe_status_setf(s, TF_INTERNAL,
                      "the kernel of %s produced a %s tensor for output %d, "
                      "expected %s",
                      e->def->name, dtype_name(outs[i]->dtype), i,
                      dtype_name(e->output_types[i]));
      return 0;
    }
  }
  return 1;
}

/* Through the eager runtime's own path: wraps the inputs in handles. */
static int run_via_handles(tfe_plan* p, const plan_node* n,
                           const plan_val* ins, plan_val* outs,
                           TF_Status* s) {
  TFE_Context* ctx = p->ctx;
  const tfe_kcache_entry* e = n->e;
  TFE_TensorHandle* hin[INLINE_VALS];
  TF_Tensor* tout[INLINE_VALS];
  tfe_ref_cell* rout[INLINE_VALS];
  TFE_TensorHandle** h = hin;
  TF_Tensor** to = tout;
  tfe_ref_cell** ro = rout;
  int i, ok = 0, made = 0;
  if (n->num_in > INLINE_VALS || n->num_out > INLINE_VALS) {
    h = (TFE_TensorHandle**)tfe_calloc((size_t)n->num_in + 1, sizeof(*h));
    to = (TF_Tensor**)tfe_calloc((size_t)n->num_out + 1, sizeof(*to));
    ro = (tfe_ref_cell**)tfe_calloc((size_t)n->num_out + 1, sizeof(*ro));
    if (h == NULL || to == NULL || ro == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory running %s",
                      n->name);
      goto done;
    }
  }
  for (i = 0; i < n->num_out; i++) {
    to[i] = NULL;
    ro[i] = NULL;
  }
  for (i = 0; i < n->num_in; i++) {
    const plan_val* v = &ins[i];
    if (v->ref != NULL) {
      h[i] = tfe_handle_new_ref(ctx, v->ref->dtype, v->dev, v->ref);
    } else if (v->t != NULL) {
      const tfe_device* dev = v->dev != NULL ? v->dev : ctx->devices[0];
      h[i] = tfe_handle_share(ctx, v->t, dev, dev);
    } else {
      h[i] = NULL;
    }
    if (h[i] == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory running %s",
                      n->name);
      goto done;
    }
    made = i + 1;
  }
  if (!tfe_execute_kernel(ctx, e, h, to, e->has_ref ? ro : NULL, t_cancel,
                          s)) {
    tfe_plan_annotate(s, n->name);
    goto done;
  }
  for (i = 0; i < n->num_out; i++) {
    outs[i].t = NULL;
    outs[i].ref = NULL;
    if (ro[i] != NULL) {
      outs[i].ref = ro[i];
      outs[i].dev = e->run_device;
      ro[i] = NULL;
      continue;
    }
    outs[i].t = to[i];
    outs[i].dev = (e->run_device->is_host || tfe_tensor_in_host_memory(to[i]))
                      ? ctx->devices[0]
                      : e->run_device;
    to[i] = NULL;
  }
  ok = 1;
done:
  for (i = 0; i < made; i++) tfe_handle_unref(h[i]);
  if (to != NULL && ro != NULL) {
    for (i = 0; i < n->num_out; i++) {
      if (to[i] != NULL) TF_DeleteTensor(to[i]);
      if (ro[i] != NULL) tfe_ref_cell_unref(ro[i]);
    }
  }
  if (h != hin) tfe_free(h);
  if (to != tout) tfe_free(to);
  if (ro != rout) tfe_free(ro);
  return ok;
}

/* Input i is reference cell c: for a Ref(T) arg the kernel gets the cell
 * and a view of its value, for a plain arg a copy of the current value
 * (TF's automatic dereference). The view or copy goes to *held. */
static int ref_input(const tfe_kcache_entry* e, int i, tfe_ref_cell* c,
                     TF_Tensor** in, tfe_ref_cell** in_ref, TF_Tensor** held,
                     TF_Status* s) {
  int is_ref = e->has_ref && tfe_op_def_flat_is_ref(e->def, &e->complete, 0, i);
  TF_Tensor* v;
  if (is_ref) {
    *in_ref = c;
    pthread_mutex_lock(&c->mu);
    if (c->value == NULL) {
      pthread_mutex_unlock(&c->mu);
      if (e->def->allows_uninitialized_input) {
        *in = NULL;
        return 1;
      }
      tfe_status_setf(s, TF_FAILED_PRECONDITION,
                      "Attempting to use uninitialized value: input #%d of "
                      "%s is a reference that was never assigned",
                      i, e->def->name);
      return 0;
    }
    v = tfe_ref_cell_read(c, 1, s);
    pthread_mutex_unlock(&c->mu);
    if (v == NULL) return 0;
    *held = v;
    *in = v;
    return 1;
  }
  v = tfe_ref_cell_read(c, 0, s);
  if (v == NULL) return 0;
  *held = tfe_tensor_deep_copy(v);
  TF_DeleteTensor(v);
  if (*held == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory reading a reference");
    return 0;
  }
  *in = *held;
  return 1;
}

int tfe_plan_run_kernel(tfe_plan* p, const plan_node* n, const plan_val* ins,
                        plan_val* outs, uint64_t fwd, TF_Status* s) {
  const tfe_kcache_entry* e = n->e;
  TF_Tensor* in_arr[INLINE_VALS];
  TF_Tensor* out_arr[INLINE_VALS];
  TF_Tensor* held[INLINE_VALS];
  tfe_ref_cell* in_refs[INLINE_VALS];
  tfe_ref_cell* out_refs[INLINE_VALS];
  tfe_kernel_context k;
  int i, any_ref = e->has_ref, ok = 0;
  if (!e->run_device->is_host || n->num_in > INLINE_VALS ||
      n->num_out > INLINE_VALS) {
    return run_via_handles(p, n, ins, outs, s);
  }
  for (i = 0; i < n->num_in; i++) {
    if (ins[i].ref != NULL) {
      any_ref = 1;
      continue;
    }
    if (ins[i].t == NULL || !ins[i].dev->is_host) {
      return run_via_handles(p, n, ins, outs, s);
    }
    if (ins[i].t->dtype != e->input_types[i]) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "cannot compute %s as input #%d(zero-based) was "
                      "expected to be a %s tensor but is a %s tensor",
                      e->def->name, i, dtype_name(e->input_types[i]),
                      dtype_name(ins[i].t->dtype));
      tfe_plan_annotate(s, n->name);
      return 0;
    }
    in_arr[i] = ins[i].t;
  }
  for (i = 0; i < n->num_out; i++) out_arr[i] = NULL;
  if (any_ref) {
    for (i = 0; i < n->num_in; i++) {
      held[i] = NULL;
      in_refs[i] = NULL;
    }
    for (i = 0; i < n->num_out; i++) out_refs[i] = NULL;
    for (i = 0; i < n->num_in; i++) {
      if (ins[i].ref != NULL) {
        if (!ref_input(e, i, ins[i].ref, &in_arr[i], &in_refs[i], &held[i],
                       s)) {
          goto done;
        }
      } else if (e->has_ref &&
                 tfe_op_def_flat_is_ref(e->def, &e->complete, 0, i)) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "cannot compute %s as input #%d(zero-based) was "
                        "expected to be a %s_ref tensor but is a %s tensor",
                        e->def->name, i, dtype_name(e->input_types[i]),
                        dtype_name(ins[i].t->dtype));
        goto done;
      }
    }
  }
  k.op_def = e->def;
  k.attrs = &e->complete;
  k.inputs = in_arr;
  k.num_inputs = n->num_in;
  k.outputs = out_arr;
  k.num_outputs = n->num_out;
  k.output_types = e->output_types;
  k.status = s;
  k.state = e->state;
  k.user_data = e->reg->user_data;
  k.eager_ctx = p->ctx;
  k.device_name = e->run_device->name;
  k.input_refs = any_ref ? in_refs : NULL;
  k.output_refs = e->has_ref ? out_refs : NULL;
  k.forwardable = any_ref ? 0 : fwd;
  k.forwarded = 0;
  k.cancel = t_cancel;
  k.node_name = n->name;
  /* Runs already switched the floating-point modes to the kernels' (once
   * per run and per worker, see tfe_plan_run / par_worker). */
  e->reg->compute(&k);
  if (TF_GetCode(s) != TF_OK) goto done;
  for (i = 0; i < n->num_out; i++) {
    if (e->has_ref && tfe_op_def_flat_is_ref(e->def, &e->complete, 1, i)) {
      if (out_refs[i] == NULL || out_refs[i]->dtype != e->output_types[i]) {
        tfe_status_setf(s, TF_INTERNAL,
                        "the kernel of %s did not produce reference output "
                        "%d of dtype %s",
                        e->def->name, i, dtype_name(e->output_types[i]));
        goto done;
      }
      if (out_arr[i] != NULL) {
        TF_DeleteTensor(out_arr[i]);
        out_arr[i] = NULL;
      }
      continue;
    }
    if (out_arr[i] == NULL || out_arr[i]->dtype != e->output_types[i]) {
      check_outputs(e, out_arr, s);
      if (TF_GetCode(s) == TF_OK) {
        tfe_status_setf(s, TF_INTERNAL, "the kernel of %s failed output %d",
                        e->def->name, i);
      }
      goto done;
    }
  }
  for (i = 0; i < n->num_out; i++) {
    outs[i].t = out_arr[i];
    outs[i].ref = NULL;
    if (e->has_ref && out_refs[i] != NULL) {
      outs[i].ref = out_refs[i];
      out_refs[i] = NULL;
    }
    outs[i].dev = p->ctx->devices[0];
    out_arr[i] = NULL;
  }
  ok = 1;
done:
  if (!ok) {
    for (i = 0; i < n->num_out; i++) {
      if (out_arr[i] != NULL) TF_DeleteTensor(out_arr[i]);
      if (e->has_ref && out_refs[i] != NULL) tfe_ref_cell_unref(out_refs[i]);
    }
    tfe_plan_annotate(s, n->name);
  }
  if (any_ref) {
    for (i = 0; i < n->num_in; i++) {
      if (held[i] != NULL) TF_DeleteTensor(held[i]);
    }
  }
  return ok;
}

/* The tensor handed to the caller for fetched value v: v's own tensor
 * when `take` (v->t is then cleared), else one sharing its buffer; a
 * reference's current value is copied, and device memory comes back to
 * the host. NULL with s set on failure. */
static TF_Tensor* to_user(tfe_plan* p, plan_val* v, int take, TF_Status* s) {
  TF_Tensor* t;
  if (v->ref != NULL) {
    TF_Tensor* cur = tfe_ref_cell_read(v->ref, 0, s);
    if (cur == NULL) return NULL;
    if (tfe_tensor_in_host_memory(cur)) {
      t = tfe_tensor_deep_copy(cur);
      TF_DeleteTensor(cur);
      if (t == NULL) {
        tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                        "out of memory fetching a reference");
      }
      return t;
    }
    t = tfe_device_copy_tensor(cur, v->dev, p->ctx->devices[0], s);
    TF_DeleteTensor(cur);
    return t;
  }
  if (v->t == NULL) {
    tfe_status_setf(s, TF_INTERNAL, "fetched value is missing");
    return NULL;
  }
  if (!v->dev->is_host && !tfe_tensor_in_host_memory(v->t)) {
    return tfe_device_copy_tensor(v->t, v->dev, p->ctx->devices[0], s);
  }
  if (take) {
    t = v->t;
    v->t = NULL;
    return t;
  }
  t = tfe_tensor_from_buffer(v->t->dtype, v->t->dims, v->t->num_dims,
                             v->t->buf);
  if (t == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory fetching");
  }
  return t;
}

/* ------------------------------------------------------------------------
 * Static plans. */

/* Bit i set when input i may be reused by the kernel: this node holds the
 * value's last use, it is not a feed, and nothing else shares its buffer. */
static uint64_t forwardable(const tfe_plan* p, const plan_node* n,
                            const plan_val* slots, const int* uses) {
  uint64_t m = 0;
  int i;
  for (i = 0; i < n->num_in && i < 64; i++) {
    int slot = n->in_slot[i];
    const TF_Tensor* t = slots[slot].t;
    if (uses[slot] != 1 || slot >= p->num_slots - p->num_feeds || t == NULL ||
        t->buf == NULL || !t->buf->owns_memory ||
        atomic_load_explicit(&t->buf->refcount, memory_order_acquire) != 1) {
      continue;
    }
    m |= (uint64_t)1 << i;
  }
  return m;
}

/* The inputs of a sequential step that the kernel may reuse: those the
 * plan marked (last use, not a feed) whose buffer nothing else holds. */
static uint64_t step_forwardable(const plan_step* st, const plan_val* slots) {
  uint64_t m = st->fwd, fwd = 0;
  while (m != 0) {
    int i = __builtin_ctzll(m);
    const TF_Tensor* t = slots[st->in_slot[i]].t;
    m &= m - 1;
    if (t != NULL && t->buf != NULL && t->buf->owns_memory &&
        atomic_load_explicit(&((tfe_tensor_buffer*)t->buf)->refcount,
                             memory_order_acquire) == 1) {
      fwd |= (uint64_t)1 << i;
    }
  }
  return fwd;
}

/* Whether t is one of the inputs (mask) a kernel took over. */
static int is_taken(const TF_Tensor* t, TF_Tensor* const* in_arr,
                    uint64_t mask) {
  for (; mask != 0; mask &= mask - 1) {
    if (in_arr[__builtin_ctzll(mask)] == t) return 1;
  }
  return 0;
}

/* Sequential static runs of a host_fast step (plan_internal.h): the kernel
 * reads its inputs straight from the slots and writes its outputs into
 * them, with no intermediate value arrays. Returns -1 (nothing done) when
 * an input is not a plain host tensor of the expected dtype, so the caller
 * takes the general path (which also reports the error); else 1 on
 * success, 0 with s set on failure. */
static int run_step_fast(tfe_plan* p, const plan_step* st, plan_val* slots,
                         const tfe_device* host,
                         TFE_CancellationManager* cancel, TF_Status* s) {
  const tfe_kcache_entry* e = st->e;
  const int num_in = st->num_in, num_out = st->num_out;
  const int* in_slot = st->in_slot;
  TF_Tensor* in_arr[INLINE_VALS];
  TF_Tensor* out_arr[INLINE_VALS];
  tfe_kernel_context k;
  uint64_t m, fwd = 0, taken = 0;
  int i;
  if (st->flags & STEP_CHECKED) {
    if (num_in == 2) {
      in_arr[0] = slots[in_slot[0]].t;
      in_arr[1] = slots[in_slot[1]].t;
    } else {
      for (i = 0; i < num_in; i++) in_arr[i] = slots[in_slot[i]].t;
    }
  } else {
    for (i = 0; i < num_in; i++) {
      const plan_val* v = &slots[in_slot[i]];
      TF_Tensor* t = v->t;
      if (v->ref != NULL || t == NULL || !v->dev->is_host ||
          t->dtype != e->input_types[i]) {
        return -1;
      }
      in_arr[i] = t;
    }
  }
  /* Inputs the kernel may reuse: those the plan marked whose buffer
   * nothing else holds. */
  for (m = st->fwd; m != 0; m &= m - 1) {
    const tfe_tensor_buffer* b = in_arr[__builtin_ctzll(m)]->buf;
    if (b != NULL && b->owns_memory &&
        atomic_load_explicit(&((tfe_tensor_buffer*)b)->refcount,
                             memory_order_acquire) == 1) {
      fwd |= m & (~m + 1);
    }
  }
  if (num_out == 1) {
    out_arr[0] = NULL;
  } else {
    memset(out_arr, 0, sizeof(out_arr));
  }
  k.op_def = e->def;
  k.attrs = &e->complete;
  k.inputs = in_arr;
  k.num_inputs = num_in;
  k.outputs = out_arr;
  k.num_outputs = num_out;
  k.output_types = e->output_types;
  k.status = s;
  k.state = e->state;
  k.user_data = e->reg->user_data;
  k.eager_ctx = p->ctx;
  k.device_name = e->run_device->name;
  k.input_refs = NULL;
  k.output_refs = NULL;
  k.forwardable = fwd;
  k.forwarded = 0;
  k.cancel = cancel;
  k.node_name = st->n->name;
  if (fwd == 0) {
    e->reg->compute(&k);
  } else {
    /* They are this run's own tensors at their last use: the kernel may
     * even take the struct itself as an output (core/tensor_internal.h). */
    tfe_hand_on saved = tfe_t_hand_on;
    tfe_t_hand_on.inputs = in_arr;
    tfe_t_hand_on.mask = fwd;
    e->reg->compute(&k);
    taken = fwd & ~tfe_t_hand_on.mask;
    tfe_t_hand_on = saved;
  }
  if (s->code == TF_OK) {
    for (i = 0; i < num_out; i++) {
      if (out_arr[i] == NULL || out_arr[i]->dtype != e->output_types[i]) {
        check_outputs(e, out_arr, s);
        if (s->code == TF_OK) {
          tfe_status_setf(s, TF_INTERNAL, "the kernel of %s failed output %d",
                          e->def->name, i);
        }
        break;
      }
    }
  }
  if (s->code != TF_OK) {
    for (i = 0; i < num_out; i++) {
      /* An input taken over stays its slot's (freed with the run). */
      if (out_arr[i] != NULL && !is_taken(out_arr[i], in_arr, taken)) {
        TF_DeleteTensor(out_arr[i]);
      }
    }
    tfe_plan_annotate(s, st->n->name);
    return 0;
  }
  for (i = 0; i < num_out; i++) {
    plan_val* o = &slots[st->slot0 + i];
    o->t = out_arr[i];
    o->ref = NULL;
    o->dev = host;
  }
  /* The values this node read last (plain tensors, checked above). Every
   * reusable input is at its last use, so among these: one the kernel
   * took over is an output now, not to be freed. */
  for (m = st->rel_in; m != 0; m &= m - 1) {
    i = __builtin_ctzll(m);
    if ((taken & m & (~m + 1)) == 0) TF_DeleteTensor(in_arr[i]);
    slots[in_slot[i]].t = NULL;
  }
  return 1;
}

static int run_static_seq(tfe_plan* p, plan_val* slots,
                          TFE_CancellationManager* cancel, TF_Status* s) {
  plan_val ins_inline[INLINE_VALS];
  plan_val* ins = ins_inline;
  const plan_step* st = p->steps;
  const plan_step* end = st + p->num_nodes;
  const tfe_device* host = p->ctx->devices[0];
  int ok = 0;
  if (p->max_in > INLINE_VALS) {
    ins = (plan_val*)tfe_malloc(sizeof(plan_val) * (size_t)p->max_in);
    if (ins == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory running a graph");
      return 0;
    }
  }
  for (; st < end; st++) {
    int j, r = -1;
    if (cancel != NULL && cancelled(cancel, st->n->name, s)) goto done;
    if (st->flags & STEP_FAST) {
      /* Releases the values it read last itself. */
      r = run_step_fast(p, st, slots, host, cancel, s);
      if (r == 0) goto done;
    }
    if (r < 0) {
      for (j = 0; j < st->num_in; j++) ins[j] = slots[st->in_slot[j]];
      if (!tfe_plan_run_kernel(p, st->n, ins, slots + st->slot0,
                               st->fwd != 0 ? step_forwardable(st, slots) : 0,
                               s)) {
        goto done;
      }
      /* The values this node read last. */
      for (j = 0; j < st->num_rel; j++) val_release(&slots[st->rel[j]]);
    }
    if (st->flags & STEP_DROP_OUT) {
      for (j = 0; j < st->num_out; j++) {
        if (p->init_uses[st->slot0 + j] == 0) {
          val_release(&slots[st->slot0 + j]);
        }
      }
    }
  }
  ok = 1;
done:
  if (ins != ins_inline) tfe_free(ins);
  return ok;
}

/* Parallel runs: workers of the inter-op pool take ready nodes. */
typedef struct par_run {
  tfe_plan* p;
  plan_val* slots;
  atomic_int* uses;
  atomic_int* pending;
  TFE_CancellationManager* cancel;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int* ready; /* stack of ready nodes */
  int num_ready;
  int done;   /* nodes finished */
  int failed;
  int idle;   /* workers waiting */
  TF_Status* err;
} par_run;

static void par_fail(par_run* r, TF_Status* s) {
  pthread_mutex_lock(&r->mu);
  if (!r->failed) {
    r->failed = 1;
    tfe_status_copy(r->err, s);
  }
  pthread_cond_broadcast(&r->cv);
  pthread_mutex_unlock(&r->mu);
}

static void par_worker(void* arg, int64_t begin, int64_t end) {
  par_run* r = (par_run*)arg;
  tfe_plan* p = r->p;
  const int first_feed = p->num_slots - p->num_feeds;
  plan_val ins_inline[INLINE_VALS];
  plan_val* ins = ins_inline;
  int uses_local[INLINE_VALS];
  TF_Status* s = TF_NewStatus();
  TFE_CancellationManager* saved = t_cancel;
  tfe_fpenv_saved fp;
  int next = -1;
  (void)begin, (void)end;
  t_cancel = r->cancel;
  t_depth++;
  tfe_fpenv_enter(&fp);
  if (p->max_in > INLINE_VALS) {
    ins = (plan_val*)tfe_malloc(sizeof(plan_val) * (size_t)p->max_in);
  }
  if (s == NULL || ins == NULL) {
    if (s != NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory running a graph");
      par_fail(r, s);
    }
    goto out;
  }
  for (;;) {
    const plan_node* n;
    int j, node;
    if (next < 0) {
      pthread_mutex_lock(&r->mu);
      while (!r->failed && r->done < p->num_nodes && r->num_ready == 0) {
        r->idle++;
        pthread_cond_wait(&r->cv, &r->mu);
        r->idle--;
      }
      if (r->failed || r->done >= p->num_nodes) {
        pthread_mutex_unlock(&r->mu);
        break;
      }
      node = r->ready[--r->num_ready];
      pthread_mutex_unlock(&r->mu);
    } else {
      node = next;
    }
    next = -1;
    n = &p->nodes[node];
    if (cancelled(r->cancel, n->name, s)) {
      par_fail(r, s);
      break;
    }
    {
      uint64_t fwd = 0;
      for (j = 0; j < n->num_in; j++) {
        int slot = n->in_slot[j];
        ins[j] = r->slots[slot];
        if (j < INLINE_VALS) {
          uses_local[j] = atomic_load_explicit(&r->uses[slot],
                                               memory_order_acquire);
        }
      }
      for (j = 0; j < n->num_in && j < INLINE_VALS; j++) {
        int slot = n->in_slot[j];
        const TF_Tensor* t = ins[j].t;
        if (uses_local[j] == 1 && slot < first_feed && t != NULL &&
            t->buf != NULL && t->buf->owns_memory &&
            atomic_load_explicit(&t->buf->refcount, memory_order_acquire) ==
                1) {
          fwd |= (uint64_t)1 << j;
        }
      }
      if (!tfe_plan_run_kernel(p, n, ins, r->slots + n->slot0, fwd, s)) {
        par_fail(r, s);
        break;
      }
    }
    for (j = 0; j < n->num_in; j++) {
      int slot = n->in_slot[j];
      if (atomic_fetch_sub_explicit(&r->uses[slot], 1, memory_order_acq_rel) ==
              1 &&
          slot < first_feed) {
        val_release(&r->slots[slot]);
      }
    }
    for (j = 0; j < n->num_out; j++) {
      if (atomic_load_explicit(&r->uses[n->slot0 + j], memory_order_relaxed) ==
          0) {
        val_release(&r->slots[n->slot0 + j]);
      }
    }
    /* Successors: keep one to run here, share the rest. */
    {
      int pushed = 0;
      for (j = 0; j < n->num_edges + n->num_ctrl_out; j++) {
        int d = j < n->num_edges ? n->edges[j].dst
                                 : n->ctrl_out[j - n->num_edges];
        if (d < 0) continue;
        if (atomic_fetch_sub_explicit(&r->pending[d], 1,
                                      memory_order_acq_rel) != 1) {
          continue;
        }
        if (next < 0) {
          next = d;
          continue;
        }
        pthread_mutex_lock(&r->mu);
        r->ready[r->num_ready++] = d;
        pthread_mutex_unlock(&r->mu);
        pushed++;
      }
      pthread_mutex_lock(&r->mu);
      r->done++;
      if (r->done >= p->num_nodes || (pushed > 0 && r->idle > 0)) {
        pthread_cond_broadcast(&r->cv);
      }
      pthread_mutex_unlock(&r->mu);
    }
  }
out:
  if (ins != ins_inline) tfe_free(ins);
  TF_DeleteStatus(s);
  tfe_fpenv_leave(&fp);
  t_depth--;
  t_cancel = saved;
}

static int run_static_par(tfe_plan* p, tfe_threadpool* pool, plan_val* slots,
                          TFE_CancellationManager* cancel, TF_Status* s) {
  par_run r;
  int i, workers, ok;
  memset(&r, 0, sizeof(r));
  r.p = p;
  r.slots = slots;
  r.cancel = cancel;
  r.uses = (atomic_int*)tfe_malloc(sizeof(atomic_int) * (size_t)p->num_slots);
  r.pending = (atomic_int*)tfe_malloc(sizeof(atomic_int) *
                                      (size_t)p->num_nodes);
  r.ready = (int*)tfe_malloc(sizeof(int) * (size_t)p->num_nodes);
  r.err = TF_NewStatus();
  if (r.uses == NULL || r.pending == NULL || r.ready == NULL ||
      r.err == NULL) {
    tfe_free(r.uses);
    tfe_free(r.pending);
    tfe_free(r.ready);
    TF_DeleteStatus(r.err);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory running a graph");
    return 0;
  }
  pthread_mutex_init(&r.mu, NULL);
  pthread_cond_init(&r.cv, NULL);
  for (i = 0; i < p->num_slots; i++) atomic_init(&r.uses[i], p->init_uses[i]);
  for (i = 0; i < p->num_nodes; i++) {
    int d = p->pending0[i];
    atomic_init(&r.pending[i], d);
    if (d == 0) r.ready[r.num_ready++] = i;
  }
  /* Every worker takes whatever is ready; the ones that find nothing wait
   * on the condition variable (a single root may fan out widely). */
  workers = tfe_threadpool_size(pool);
  if (workers > p->num_nodes) workers = p->num_nodes;
  if (workers < 1) workers = 1;
  tfe_parallel_for(pool, workers, 1, par_worker, &r);
  ok = !r.failed;
  if (!ok) tfe_status_copy(s, r.err);
  pthread_cond_destroy(&r.cv);
  pthread_mutex_destroy(&r.mu);
  tfe_free(r.uses);
  tfe_free(r.pending);
  tfe_free(r.ready);
  TF_DeleteStatus(r.err);
  return ok;
}

static int run_static(tfe_plan* p, TF_Tensor* const* feed_values,
                      TF_Tensor** fetch_values, TFE_CancellationManager* cancel,
                      TF_Status* s) {
  plan_val slots_inline[32];
  plan_val* slots = slots_inline;
  const int first_feed = p->num_slots - p->num_feeds;
  tfe_threadpool* pool = NULL;
  int i, ok = 0;
  if (p->num_slots > 32) {
    slots = (plan_val*)tfe_malloc(sizeof(plan_val) * (size_t)p->num_slots);
    if (slots == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory running a graph");
      return 0;
    }
  }
  memset(slots, 0, sizeof(plan_val) * (size_t)p->num_slots);
  for (i = 0; i < p->num_feeds; i++) {
    slots[first_feed + i].t = feed_values[i];
    slots[first_feed + i].dev = p->ctx->devices[0];
  }
  if (p->wide && t_depth <= 1) pool = tfe_threadpool_shared(p->inter_op);
  if (pool != NULL && tfe_threadpool_size(pool) > 1) {
    ok = run_static_par(p, pool, slots, cancel, s);
  } else {
    ok = run_static_seq(p, slots, cancel, s);
  }
  if (ok) {
    for (i = 0; i < p->num_fetches; i++) {
      fetch_values[i] =
          to_user(p, &slots[p->fetch_slot[i]], p->fetch_take[i], s);
      if (fetch_values[i] == NULL) {
        int j;
        for (j = 0; j < i; j++) {
          TF_DeleteTensor(fetch_values[j]);
          fetch_values[j] = NULL;
        }
        ok = 0;
        break;
      }
    }
  }
  if (ok) {
    /* After a complete run only fetched values can be left. */
    for (i = 0; i < p->num_fetches; i++) {
      if (p->fetch_slot[i] < first_feed) val_release(&slots[p->fetch_slot[i]]);
    }
  } else {
    for (i = 0; i < first_feed; i++) val_release(&slots[i]);
  }
  if (slots != slots_inline) tfe_free(slots);
  return ok;
}

/* ------------------------------------------------------------------------
 * Plans with v1 control flow. */

typedef struct dent {
  plan_val v;
  unsigned char has;
  unsigned char dead;
} dent;

typedef struct diter {
  dent* in;
  int* pending; /* Merge: control inputs still to come; -1 once fired */
  int* dead;    /* dead inputs seen */
  int* live;    /* Merge: index of the live input that arrived, or -1 */
  int outstanding;
} diter;

typedef struct dframe {
  int sf;
  struct dframe* parent;
  int parent_iter;
  diter** iters;
  int num_iters;
  int cap_iters;
  int freed_upto;
  int pending_enters;
  int outstanding; /* queued nodes and live child frames */
  unsigned char* exit_live;
  int* inv_node; /* loop-invariant Enter values, replayed per iteration */
  plan_val* inv_val;
  int num_inv;
  struct dframe* next; /* all live frames of the run */
} dframe;

typedef struct ditem {
  int node;
  dframe* f;
  int iter;
} ditem;

typedef struct drun {
  tfe_plan* p;
  ditem* q;
  int qhead, qtail, qcap;
  dframe* frames;
  plan_val* fetch;
  unsigned char* fetch_state; /* 0 none, 1 live, 2 dead */
  TF_Status* s;
  int failed;
} drun;

static void nomem(drun* r) {
  if (!r->failed) {
    tfe_status_setf(r->s, TF_RESOURCE_EXHAUSTED,
                    "out of memory running a graph");
  }
  r->failed = 1;
}

static void iter_free(const plan_frame* sf, diter* it) {
  int i;
  if (it == NULL) return;
  for (i = 0; i < sf->num_in; i++) {
    if (it->in[i].has) val_release(&it->in[i].v);
  }
  tfe_free(it->in);
  tfe_free(it->pending);
  tfe_free(it->dead);
  tfe_free(it->live);
  tfe_free(it);
}

static void frame_free(drun* r, dframe* f) {
  const plan_frame* sf = &r->p->frames[f->sf];
  int i;
  for (i = f->freed_upto; i < f->num_iters; i++) iter_free(sf, f->iters[i]);
  for (i = 0; i < f->num_inv; i++) val_release(&f->inv_val[i]);
  tfe_free(f->inv_node);
  tfe_free(f->inv_val);
  tfe_free(f->iters);
  tfe_free(f->exit_live);
  tfe_free(f);
}

static dframe* frame_new(drun* r, int sf, dframe* parent, int parent_iter) {
  dframe* f = (dframe*)tfe_calloc(1, sizeof(*f));
  const plan_frame* pf = &r->p->frames[sf];
  if (f == NULL) return NULL;
  f->sf = sf;
  f->parent = parent;
  f->parent_iter = parent_iter;
  f->pending_enters = pf->num_enters;
  f->exit_live = (unsigned char*)tfe_calloc((size_t)pf->num_exits + 1, 1);
  if (f->exit_live == NULL) {
    tfe_free(f);
    return NULL;
  }
  f->next = r->frames;
  r->frames = f;
  if (parent != NULL) {
    parent->outstanding++;
    parent->iters[parent_iter]->outstanding++;
  }
  return f;
}

static int push_ready(drun* r, int node, dframe* f, int iter) {
  if (r->qtail == r->qcap) {
    if (r->qhead > 0) {
      memmove(r->q, r->q + r->qhead,
              sizeof(ditem) * (size_t)(r->qtail - r->qhead));
      r->qtail -= r->qhead;
      r->qhead = 0;
    }
    if (r->qtail == r->qcap) {
      int cap = r->qcap * 2 + 16;
      ditem* q = (ditem*)tfe_realloc(r->q, sizeof(ditem) * (size_t)cap);
      if (q == NULL) {
        nomem(r);
        return 0;
      }
      r->q = q;
      r->qcap = cap;
    }
  }
  r->q[r->qtail].node = node;
  r->q[r->qtail].f = f;
  r->q[r->qtail].iter = iter;
  r->qtail++;
  f->outstanding++;
  f->iters[iter]->outstanding++;
  return 1;
}

static int deliver_value(drun* r, dframe* f, int iter, int dst, int dst_in,
                         plan_val* v, int dead);
static diter* get_iter(drun* r, dframe* f, int iter);

/* Sends (a share of) value v of node `node`'s output `out` along its
 * edges into (f, iter). */
static void send_outputs(drun* r, const plan_node* n, dframe* f, int iter,
                         plan_val* outs, const unsigned char* out_dead,
                         int node_dead) {
  int j;
  for (j = 0; j < n->num_edges && !r->failed; j++) {
    const plan_edge* e = &n->edges[j];
    int dead = out_dead[e->src_out];
    plan_val v;
    memset(&v, 0, sizeof(v));
    if (!dead && !val_dup(&v, &outs[e->src_out])) {
      nomem(r);
      return;
    }
    if (e->dst < 0) {
      int fi = -(e->dst + 1);
      if (f->parent != NULL || r->fetch_state[fi] == 1) {
        val_release(&v);
        continue;
      }
      r->fetch[fi] = v;
      r->fetch_state[fi] = dead ? 2 : 1;
      continue;
    }
    deliver_value(r, f, iter, e->dst, e->dst_in, &v, dead);
  }
  for (j = 0; j < n->num_ctrl_out && !r->failed; j++) {
    int d = n->ctrl_out[j];
    const plan_node* dn = &r->p->nodes[d];
    diter* it = get_iter(r, f, iter);
    int loc = dn->local, ready;
    if (it == NULL) return;
    it->pending[loc]--;
    if (dn->kind == PK_MERGE) {
      ready = it->pending[loc] == 0 &&
              (it->live[loc] >= 0 || it->dead[loc] == dn->num_in);
    } else {
      if (node_dead) it->dead[loc]++;
      ready = it->pending[loc] == 0;
    }
    if (ready) push_ready(r, d, f, iter);
  }
}

static diter* get_iter(drun* r, dframe* f, int iter) {
  const plan_frame* sf = &r->p->frames[f->sf];
  diter* it;
  int i;
  if (iter < f->num_iters) return f->iters[iter];
  if (iter != f->num_iters) {
    tfe_status_setf(r->s, TF_INTERNAL, "iteration %d of frame %s skipped",
                    iter, sf->name);
    r->failed = 1;
    return NULL;
  }
  if (f->num_iters == f->cap_iters) {
    int cap = f->cap_iters * 2 + 4;
    diter** a = (diter**)tfe_realloc(f->iters, sizeof(diter*) * (size_t)cap);
    if (a == NULL) {
      nomem(r);
      return NULL;
    }
    f->iters = a;
    f->cap_iters = cap;
  }
  it = (diter*)tfe_calloc(1, sizeof(*it));
  if (it == NULL) {
    nomem(r);
    return NULL;
  }
  it->in = (dent*)tfe_calloc((size_t)sf->num_in + 1, sizeof(dent));
  it->pending = (int*)tfe_malloc(sizeof(int) * (size_t)(sf->num_nodes + 1));
  it->dead = (int*)tfe_calloc((size_t)sf->num_nodes + 1, sizeof(int));
  it->live = (int*)tfe_malloc(sizeof(int) * (size_t)(sf->num_nodes + 1));
  if (it->in == NULL || it->pending == NULL || it->dead == NULL ||
      it->live == NULL) {
    iter_free(sf, it);
    nomem(r);
    return NULL;
  }
  for (i = 0; i < sf->num_nodes; i++) {
    const plan_node* n = &r->p->nodes[sf->nodes[i]];
    it->pending[i] =
        n->kind == PK_MERGE ? n->num_ctrl_in : n->num_in + n->num_ctrl_in;
    it->live[i] = -1;
  }
  f->iters[f->num_iters++] = it;
  /* Loop invariants reach every iteration. */
  if (iter > 0) {
    for (i = 0; i < f->num_inv && !r->failed; i++) {
      const plan_node* en = &r->p->nodes[f->inv_node[i]];
      unsigned char dead0 = 0;
      send_outputs(r, en, f, iter, &f->inv_val[i], &dead0, 0);
    }
  }
  return it;
}

/* Value v (owned; moved) reaches input dst_in of node dst in (f, iter). */
static int deliver_value(drun* r, dframe* f, int iter, int dst, int dst_in,
                         plan_val* v, int dead) {
  const plan_node* dn = &r->p->nodes[dst];
  diter* it = get_iter(r, f, iter);
  int loc = dn->local, ready;
  dent* slot;
  if (it == NULL) {
    val_release(v);
    return 0;
  }
  slot = &it->in[dn->in_off + dst_in];
  if (dn->kind == PK_MERGE) {
    if (dead) {
      it->dead[loc]++;
      val_release(v);
    } else if (it->live[loc] < 0 && it->pending[loc] >= 0) {
      slot->v = *v;
      slot->has = 1;
      it->live[loc] = dst_in;
    } else {
      val_release(v); /* a later live input of a Merge that fired */
    }
    ready = it->pending[loc] == 0 &&
            ((it->live[loc] >= 0 && !dead) ||
             (dead && it->live[loc] < 0 && it->dead[loc] == dn->num_in));
  } else {
    if (slot->has) val_release(&slot->v);
    slot->v = *v;
    slot->has = !dead;
    slot->dead = (unsigned char)dead;
    if (dead) it->dead[loc]++;
    it->pending[loc]--;
    ready = it->pending[loc] == 0;
  }
  memset(v, 0, sizeof(*v));
  if (ready) return push_ready(r, dst, f, iter);
  return 1;
}

static dframe* child_frame(drun* r, dframe* f, int iter, int sf) {
  dframe* c;
  for (c = r->frames; c != NULL; c = c->next) {
    if (c->sf == sf && c->parent == f && c->parent_iter == iter) return c;
  }
  c = frame_new(r, sf, f, iter);
  if (c == NULL) nomem(r);
  return c;
}

/* Frees finished iterations of f (all but the newest). */
static void free_done_iters(drun* r, dframe* f) {
  const plan_frame* sf = &r->p->frames[f->sf];
  while (f->freed_upto < f->num_iters - 1) {
    diter* it = f->iters[f->freed_upto];
    /* An Enter still to come (a loop invariant reaches every existing
     * iteration) keeps all of them. */
    if (it->outstanding != 0 || f->pending_enters > 0) return;
    iter_free(sf, it);
    f->iters[f->freed_upto] = NULL;
    f->freed_upto++;
  }
}

/* After work in f finished: ends f (and then its parents) when done. */
static void maybe_finish(drun* r, dframe* f) {
  while (f != NULL && f->parent != NULL && !r->failed) {
    const plan_frame* sf = &r->p->frames[f->sf];
    dframe* parent = f->parent;
    int piter = f->parent_iter, k;
    dframe** pp;
    if (f->outstanding != 0 || f->pending_enters != 0) {
      free_done_iters(r, f);
      return;
    }
    /* Exits that never produced a live value are dead in the parent. */
    for (k = 0; k < sf->num_exits && !r->failed; k++) {
      const plan_node* en = &r->p->nodes[sf->exits[k]];
      unsigned char deadv[1] = {1};
      plan_val none;
      if (f->exit_live[k]) continue;
      memset(&none, 0, sizeof(none));
      send_outputs(r, en, parent, piter, &none, deadv, 1);
    }
    for (pp = &r->frames; *pp != NULL; pp = &(*pp)->next) {
      if (*pp == f) {
        *pp = f->next;
        break;
      }
    }
    frame_free(r, f);
    parent->outstanding--;
    parent->iters[piter]->outstanding--;
    f = parent;
  }
  if (f != NULL && f->parent == NULL) return;
}

static void process(drun* r, const ditem* item) {
  tfe_plan* p = r->p;
  const plan_node* n = &p->nodes[item->node];
  dframe* f = item->f;
  int iter = item->iter;
  diter* it = f->iters[iter];
  dent* in = it->in + n->in_off;
  int loc = n->local, j, node_dead;
  plan_val outs_inline[INLINE_VALS];
  unsigned char dead_inline[INLINE_VALS];
  plan_val* outs = outs_inline;
  unsigned char* out_dead = dead_inline;
  dframe* tf = f;
  int titer = iter;

  if (n->num_out > INLINE_VALS) {
    outs = (plan_val*)tfe_calloc((size_t)n->num_out, sizeof(plan_val));
    out_dead = (unsigned char*)tfe_calloc((size_t)n->num_out, 1);
    if (outs == NULL || out_dead == NULL) {
      if (outs != outs_inline) tfe_free(outs);
      if (out_dead != dead_inline) tfe_free(out_dead);
      nomem(r);
      return;
    }
  } else {
    memset(outs, 0, sizeof(plan_val) * (size_t)n->num_out);
  }
  if (n->kind == PK_MERGE) {
    node_dead = it->live[loc] < 0;
    it->pending[loc] = -1; /* fired */
  } else {
    node_dead = it->dead[loc] > 0 && !n->is_trigger;
  }
  for (j = 0; j < n->num_out; j++) out_dead[j] = (unsigned char)node_dead;

  if (!node_dead) {
    switch (n->kind) {
      case PK_NORMAL: {
        plan_val ins_inline[INLINE_VALS];
        plan_val* ins = ins_inline;
        if (n->num_in > INLINE_VALS) {
          ins = (plan_val*)tfe_malloc(sizeof(plan_val) * (size_t)n->num_in);
          if (ins == NULL) {
            nomem(r);
            break;
          }
        }
        for (j = 0; j < n->num_in; j++) ins[j] = in[j].v;
        if (!tfe_plan_run_kernel(p, n, ins, outs, 0, r->s)) r->failed = 1;
        if (ins != ins_inline) tfe_free(ins);
        break;
      }
      case PK_SWITCH: {
        const TF_Tensor* pred = in[1].v.t;
        int taken;
        if (pred == NULL || pred->dtype != TF_BOOL ||
            tfe_shape_num_elements(pred->dims, pred->num_dims) != 1) {
          tfe_status_setf(r->s, TF_INVALID_ARGUMENT,
                          "The second input must be a scalar, but it has "
                          "shape of rank %d",
                          pred != NULL ? pred->num_dims : -1);
          tfe_plan_annotate(r->s, n->name);
          r->failed = 1;
          break;
        }
        taken = *(const unsigned char*)TF_TensorData(pred) ? 1 : 0;
        outs[taken] = in[0].v;
        memset(&in[0].v, 0, sizeof(plan_val));
        in[0].has = 0;
        out_dead[1 - taken] = 1;
        break;
      }
      case PK_MERGE: {
        int li = it->live[loc];
        TF_Tensor* idx = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
        if (idx == NULL) {
          nomem(r);
          break;
        }
        *(int32_t*)TF_TensorData(idx) = li;
        outs[0] = in[li].v;
        memset(&in[li].v, 0, sizeof(plan_val));
        in[li].has = 0;
        outs[1].t = idx;
        outs[1].dev = p->ctx->devices[0];
        break;
      }
      case PK_ENTER:
      case PK_EXIT:
      case PK_NEXT:
        outs[0] = in[0].v;
        memset(&in[0].v, 0, sizeof(plan_val));
        in[0].has = 0;
        break;
      default:
        tfe_status_setf(r->s, TF_INVALID_ARGUMENT,
                        "node %s cannot run (unfed placeholder)", n->name);
        r->failed = 1;
        break;
    }
  }
  /* Inputs are consumed (Merge: also the ones that came too late). */
  for (j = 0; j < n->num_in; j++) {
    if (in[j].has) val_release(&in[j].v);
    in[j].has = 0;
    in[j].dead = 0;
  }
  if (!r->failed) {
    int send = 1;
    switch (n->kind) {
      case PK_ENTER:
        tf = child_frame(r, f, iter, n->child_frame);
        if (tf == NULL) {
          send = 0;
          break;
        }
        titer = 0;
        if (get_iter(r, tf, 0) == NULL) {
          send = 0;
          break;
        }
        tf->pending_enters--;
        if (n->is_constant && !node_dead) {
          int k;
          int* a = (int*)tfe_realloc(tf->inv_node,
                                     sizeof(int) * (size_t)(tf->num_inv + 1));
          plan_val* b;
          if (a == NULL) {
            nomem(r);
            send = 0;
            break;
          }
          tf->inv_node = a;
          b = (plan_val*)tfe_realloc(
              tf->inv_val, sizeof(plan_val) * (size_t)(tf->num_inv + 1));
          if (b == NULL) {
            nomem(r);
            send = 0;
            break;
          }
          tf->inv_val = b;
          if (!val_dup(&tf->inv_val[tf->num_inv], &outs[0])) {
            nomem(r);
            send = 0;
            break;
          }
          tf->inv_node[tf->num_inv++] = item->node;
          /* Iterations that already exist get it too. */
          for (k = 1; k < tf->num_iters && !r->failed; k++) {
            if (k < tf->freed_upto) continue;
            send_outputs(r, n, tf, k, outs, out_dead, 0);
          }
        }
        break;
      case PK_EXIT:
        if (node_dead) {
          send = 0; /* decided when the frame ends */
        } else {
          f->exit_live[n->exit_idx] = 1;
          tf = f->parent;
          titer = f->parent_iter;
        }
        break;
      case PK_NEXT:
        if (node_dead) {
          send = 0; /* the loop ends here */
        } else {
          titer = iter + 1;
          if (get_iter(r, f, titer) == NULL) send = 0;
        }
        break;
      default:
        break;
    }
    if (send && !r->failed) {
      send_outputs(r, n, tf, titer, outs, out_dead, node_dead);
    }
  }
  for (j = 0; j < n->num_out; j++) val_release(&outs[j]);
  if (outs != outs_inline) tfe_free(outs);
  if (out_dead != dead_inline) tfe_free(out_dead);
  f->outstanding--;
  it->outstanding--;
  if (!r->failed) maybe_finish(r, f);
}

static int run_dynamic(tfe_plan* p, TF_Tensor* const* feed_values,
                       TF_Tensor** fetch_values,
                       TFE_CancellationManager* cancel, TF_Status* s) {
  drun r;
  dframe* root;
  int i, ok = 0;
  memset(&r, 0, sizeof(r));
  r.p = p;
  r.s = s;
  r.fetch = (plan_val*)tfe_calloc((size_t)p->num_fetches + 1, sizeof(plan_val));
  r.fetch_state = (unsigned char*)tfe_calloc((size_t)p->num_fetches + 1, 1);
  if (r.fetch == NULL || r.fetch_state == NULL) {
    nomem(&r);
    goto done;
  }
  root = frame_new(&r, 0, NULL, 0);
  if (root == NULL || get_iter(&r, root, 0) == NULL) {
    nomem(&r);
    goto done;
  }
  root->pending_enters = 0;
  for (i = 0; i < p->num_feeds && !r.failed; i++) {
    int j;
    for (j = 0; j < p->feeds[i].num_edges && !r.failed; j++) {
      const plan_edge* e = &p->feeds[i].edges[j];
      plan_val v;
      memset(&v, 0, sizeof(v));
      v.dev = p->ctx->devices[0];
      v.t = tfe_tensor_from_buffer(feed_values[i]->dtype, feed_values[i]->dims,
                                   feed_values[i]->num_dims,
                                   feed_values[i]->buf);
      if (v.t == NULL) {
        nomem(&r);
        break;
      }
      deliver_value(&r, root, 0, e->dst, e->dst_in, &v, 0);
    }
  }
  {
    const plan_frame* f0 = &p->frames[0];
    for (i = 0; i < f0->num_nodes && !r.failed; i++) {
      const plan_node* n = &p->nodes[f0->nodes[i]];
      if (n->num_in + n->num_ctrl_in == 0 && n->kind != PK_MERGE) {
        push_ready(&r, f0->nodes[i], root, 0);
      }
    }
  }
  while (!r.failed && r.qhead < r.qtail) {
    ditem item = r.q[r.qhead++];
    if (cancelled(cancel, p->nodes[item.node].name, s)) {
      r.failed = 1;
      break;
    }
    process(&r, &item);
  }
  if (!r.failed) {
    for (i = 0; i < p->num_fetches; i++) {
      if (r.fetch_state[i] != 1) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "Fetch %s:%d was not computed: it is dead (on an "
                        "untaken branch of a Switch) or never reached",
                        p->nodes[p->fetch_node[i]].name, p->fetch_out[i]);
        r.failed = 1;
        break;
      }
    }
  }
  if (!r.failed) {
    for (i = 0; i < p->num_fetches; i++) {
      fetch_values[i] = to_user(p, &r.fetch[i], 1, s);
      if (fetch_values[i] == NULL) {
        int j;
        for (j = 0; j < i; j++) {
          TF_DeleteTensor(fetch_values[j]);
          fetch_values[j] = NULL;
        }
        r.failed = 1;
        break;
      }
    }
  }
  ok = !r.failed;
done:
  while (r.frames != NULL) {
    dframe* f = r.frames;
    r.frames = f->next;
    frame_free(&r, f);
  }
  if (r.fetch != NULL) {
    for (i = 0; i < p->num_fetches; i++) val_release(&r.fetch[i]);
  }
  tfe_free(r.fetch);
  tfe_free(r.fetch_state);
  tfe_free(r.q);
  return ok;
}


/* ------------------------------------------------------------------------
 * Partial runs of static plans. */

struct tfe_plan_prun {
  tfe_plan* p;
  plan_val* slots;
  int* uses;
  int* pending;
  unsigned char* ran;
  int* ready;
  int num_ready;
  TF_Code err;
  char* msg;
};

int tfe_plan_node_of(const tfe_plan* p, const TF_Operation* op) {
  int i;
  for (i = 0; i < p->num_nodes; i++) {
    if (p->nodes[i].op == op) return i;
  }
  return -1;
}

tfe_plan_prun* tfe_plan_prun_new(tfe_plan* p, TF_Status* s) {
  tfe_plan_prun* r;
  int i, j, nn = p->num_nodes;
  if (p->dynamic) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "partial runs of graphs with v1 control flow run step by "
                    "step");
    return NULL;
  }
  r = (tfe_plan_prun*)tfe_calloc(1, sizeof(*r));
  if (r == NULL) goto nomem;
  r->p = p;
  r->slots = (plan_val*)tfe_calloc((size_t)p->num_slots + 1, sizeof(plan_val));
  r->uses = (int*)tfe_malloc(sizeof(int) * (size_t)(p->num_slots + 1));
  r->pending = (int*)tfe_malloc(sizeof(int) * (size_t)(nn + 1));
  r->ran = (unsigned char*)tfe_calloc((size_t)nn + 1, 1);
  r->ready = (int*)tfe_malloc(sizeof(int) * (size_t)(nn + 1));
  if (r->slots == NULL || r->uses == NULL || r->pending == NULL ||
      r->ran == NULL || r->ready == NULL) {
    goto nomem;
  }
  memcpy(r->uses, p->init_uses, sizeof(int) * (size_t)p->num_slots);
  memcpy(r->pending, p->pending0, sizeof(int) * (size_t)nn);
  for (i = 0; i < p->num_feeds; i++) {
    for (j = 0; j < p->feeds[i].num_edges; j++) {
      r->pending[p->feeds[i].edges[j].dst]++;
    }
  }
  for (i = 0; i < nn; i++) {
    if (r->pending[i] == 0) r->ready[r->num_ready++] = i;
  }
  return r;
nomem:
  tfe_plan_prun_free(r);
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory (partial run)");
  return NULL;
}

void tfe_plan_prun_free(tfe_plan_prun* r) {
  int i;
  if (r == NULL) return;
  if (r->slots != NULL) {
    for (i = 0; i < r->p->num_slots; i++) val_release(&r->slots[i]);
  }
  tfe_free(r->slots);
  tfe_free(r->uses);
  tfe_free(r->pending);
  tfe_free(r->ran);
  tfe_free(r->ready);
  tfe_free(r->msg);
  tfe_free(r);
}

/* Runs the ready nodes (and what they make ready). */
static int prun_advance(tfe_plan_prun* r, TFE_CancellationManager* cancel,
                        TF_Status* s) {
  tfe_plan* p = r->p;
  const int first_feed = p->num_slots - p->num_feeds;
  plan_val ins_inline[INLINE_VALS];
  plan_val* ins = ins_inline;
  int ok = 0;
  if (p->max_in > INLINE_VALS) {
    ins = (plan_val*)tfe_malloc(sizeof(plan_val) * (size_t)p->max_in);
    if (ins == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory running a graph");
      return 0;
    }
  }
  while (r->num_ready > 0) {
    int node = r->ready[--r->num_ready], j;
    const plan_node* n = &p->nodes[node];
    if (cancelled(cancel, n->name, s)) goto done;
    if (n->kind == PK_PLACEHOLDER) {
      tfe_status_setf(s, p->error_code, "%s", p->error_msg);
      goto done;
    }
    for (j = 0; j < n->num_in; j++) ins[j] = r->slots[n->in_slot[j]];
    if (!tfe_plan_run_kernel(p, n, ins, r->slots + n->slot0,
                             n->num_in > 0
                                 ? forwardable(p, n, r->slots, r->uses)
                                 : 0,
                             s)) {
      goto done;
    }
    for (j = 0; j < n->num_in; j++) {
      int slot = n->in_slot[j];
      if (--r->uses[slot] == 0 && slot < first_feed) {
        val_release(&r->slots[slot]);
      }
    }
    for (j = 0; j < n->num_out; j++) {
      if (r->uses[n->slot0 + j] == 0) val_release(&r->slots[n->slot0 + j]);
    }
    r->ran[node] = 1;
    for (j = 0; j < n->num_edges + n->num_ctrl_out; j++) {
      int d = j < n->num_edges ? n->edges[j].dst
                               : n->ctrl_out[j - n->num_edges];
      if (d >= 0 && --r->pending[d] == 0) r->ready[r->num_ready++] = d;
    }
  }
  ok = 1;
done:
  if (ins != ins_inline) tfe_free(ins);
  return ok;
}

int tfe_plan_prun_step(tfe_plan_prun* r, const int* feed_idx,
                       TF_Tensor* const* vals, int nfeed,
                       const int* fetch_idx, TF_Tensor** outs, int nfetch,
                       const int* target_nodes, int ntargets,
                       struct TFE_CancellationManager* cancel, TF_Status* s) {
  tfe_plan* p = r->p;
  const int first_feed = p->num_slots - p->num_feeds;
  TFE_CancellationManager* saved;
  tfe_fpenv_saved fp;
  int i, ok;
  for (i = 0; i < nfetch; i++) outs[i] = NULL;
  tfe_status_ok(s);
  if (r->err != TF_OK) {
    tfe_status_setf(s, r->err, "%s", r->msg != NULL ? r->msg : "");
    return 0;
  }
  for (i = 0; i < nfeed; i++) {
    const TF_Tensor* t = vals[i];
    if (t->dtype != p->feeds[feed_idx[i]].dtype) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Tensor type mismatch for feed %d: the graph expects "
                      "%s but a %s tensor was fed",
                      i, tfe_dtype_enum_name(p->feeds[feed_idx[i]].dtype),
                      tfe_dtype_enum_name(t->dtype));
      return 0;
    }
  }
  for (i = 0; i < nfeed; i++) {
    const TF_Tensor* t = vals[i];
    const plan_feed* f = &p->feeds[feed_idx[i]];
    plan_val* v = &r->slots[first_feed + feed_idx[i]];
    int j;
    v->t = tfe_tensor_from_buffer(t->dtype, t->dims, t->num_dims, t->buf);
    v->dev = p->ctx->devices[0];
    if (v->t == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory (partial run)");
      return 0;
    }
    for (j = 0; j < f->num_edges; j++) {
      int d = f->edges[j].dst;
      if (--r->pending[d] == 0) r->ready[r->num_ready++] = d;
    }
  }
  saved = t_cancel;
  t_cancel = cancel;
  t_depth++;
  tfe_fpenv_enter(&fp);
  ok = prun_advance(r, cancel, s);
  tfe_fpenv_leave(&fp);
  t_depth--;
  t_cancel = saved;
  if (!ok) {
    /* The partial run is over: later steps see the same error. */
    r->err = TF_GetCode(s);
    r->msg = tfe_strdup(TF_Message(s));
    return 0;
  }
  for (i = 0; i < nfetch; i++) {
    int node = p->fetch_node[fetch_idx[i]];
    if (!r->ran[node]) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Fetch %s:%d cannot be computed from the feeds that "
                      "have been fed so far.",
                      p->nodes[node].name, p->fetch_out[fetch_idx[i]]);
      goto fail;
    }
  }
  for (i = 0; i < ntargets; i++) {
    if (target_nodes[i] >= 0 && !r->ran[target_nodes[i]]) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Target %s cannot be run from the feeds that have been "
                      "fed so far.",
                      p->nodes[target_nodes[i]].name);
      goto fail;
    }
  }
  for (i = 0; i < nfetch; i++) {
    int slot = p->fetch_slot[fetch_idx[i]];
    int take = --r->uses[slot] == 0 && slot < first_feed;
    outs[i] = to_user(p, &r->slots[slot], take, s);
    if (outs[i] == NULL) goto fail;
  }
  tfe_status_ok(s);
  return 1;
fail:
  for (i = 0; i < nfetch; i++) {
    if (outs[i] != NULL) TF_DeleteTensor(outs[i]);
    outs[i] = NULL;
  }
  return 0;
}

/* ------------------------------------------------------------------------
 * Entry point. */

int tfe_plan_run(tfe_plan* p, TF_Tensor* const* feed_values,
                 TF_Tensor** fetch_values,
                 struct TFE_CancellationManager* cancel, TF_Status* s) {
  TFE_CancellationManager* saved;
  tfe_fpenv_saved fp;
  int i, ok;
  if (p == NULL || (p->num_fetches > 0 && fetch_values == NULL) ||
      (p->num_feeds > 0 && feed_values == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "tfe_plan_run: invalid arguments");
    return 0;
  }
  for (i = 0; i < p->num_fetches; i++) fetch_values[i] = NULL;
  tfe_status_ok(s);
  if (p->error_code != TF_OK) {
    tfe_status_setf(s, p->error_code, "%s",
                    p->error_msg != NULL ? p->error_msg : "");
    return 0;
  }
  for (i = 0; i < p->num_feeds; i++) {
    const TF_Tensor* t = feed_values[i];
    if (t == NULL) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "feed value %d is NULL", i);
      return 0;
    }
    if (t->dtype != p->feeds[i].dtype) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Tensor type mismatch for feed %d: the graph expects "
                      "%s but a %s tensor was fed",
                      i, tfe_dtype_enum_name(p->feeds[i].dtype),
                      tfe_dtype_enum_name(t->dtype));
      return 0;
    }
  }
  if (cancelled(cancel, "the graph", s)) return 0;
  saved = t_cancel;
  t_cancel = cancel;
  t_depth++;
  /* Kernels run with denormals flushed and round-to-nearest, as in TF;
   * the caller's modes are back when the run returns (core/fpenv.h). */
  tfe_fpenv_enter(&fp);
  ok = p->dynamic ? run_dynamic(p, feed_values, fetch_values, cancel, s)
                  : run_static(p, feed_values, fetch_values, cancel, s);
  tfe_fpenv_leave(&fp);
  t_depth--;
  t_cancel = saved;
  if (!ok && TF_GetCode(s) == TF_OK) {
    tfe_status_setf(s, TF_INTERNAL, "running the graph failed");
  }
  return ok;
}
