/* Kernel builders (kernels.h), their registration in the kernel registry,
 * and the adapter that runs a C-API kernel for the eager runtime. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/unimplemented.h"
#include "kernels/capi_kernel.h"
#include "core/pb.h"
#include "tensorflow/c/logging.h"

static void builder_error(TF_KernelBuilder* b, TF_Code code, const char* msg) {
  if (b->error != TF_OK) return;
  b->error = code;
  snprintf(b->error_msg, sizeof b->error_msg, "%s", msg);
}

static TF_KernelBuilder* new_builder(
    const char* op_name, const char* device_name,
    void* (*create_func)(TF_OpKernelConstruction*),
    void (*compute_func)(void*, TF_OpKernelContext*),
    void (*compute_async_func)(void*, TF_OpKernelContext*,
                               TF_AsyncOpKernelDoneCallback*),
    void (*delete_func)(void*)) {
  TF_KernelBuilder* b;
  if (op_name == NULL || device_name == NULL ||
      (compute_func == NULL && compute_async_func == NULL)) {
    return NULL;
  }
  b = (TF_KernelBuilder*)tfe_calloc(1, sizeof(*b));
  if (b == NULL) return NULL;
  b->op_name = tfe_strdup(op_name);
  b->device_type = tfe_strdup(device_name);
  if (b->op_name == NULL || b->device_type == NULL) {
    TF_DeleteKernelBuilder(b);
    return NULL;
  }
  b->create = create_func;
  b->compute = compute_func;
  b->compute_async = compute_async_func;
  b->destroy = delete_func;
  return b;
}

TF_KernelBuilder* TF_NewKernelBuilder(
    const char* op_name, const char* device_name,
    void* (*create_func)(TF_OpKernelConstruction*),
    void (*compute_func)(void*, TF_OpKernelContext*),
    void (*delete_func)(void*)) {
  if (compute_func == NULL) return NULL;
  return new_builder(op_name, device_name, create_func, compute_func, NULL,
                     delete_func);
}

TF_KernelBuilder* TF_NewAsyncKernelBuilder(
    const char* op_name, const char* device_name,
    void* (*create_func)(TF_OpKernelConstruction*),
    void (*compute_async_func)(void*, TF_OpKernelContext*,
                               TF_AsyncOpKernelDoneCallback* done),
    void (*delete_func)(void*)) {
  if (compute_async_func == NULL) return NULL;
  return new_builder(op_name, device_name, create_func, NULL,
                     compute_async_func, delete_func);
}

void TF_DeleteKernelBuilder(TF_KernelBuilder* b) {
  int i;
  if (b == NULL) return;
  tfe_free(b->op_name);
  tfe_free(b->device_type);
  tfe_free(b->label);
  for (i = 0; i < b->num_constraints; i++) tfe_free(b->constraints[i].attr);
  for (i = 0; i < b->num_host_memory; i++) tfe_free(b->host_memory[i]);
  tfe_free(b->host_memory);
  tfe_free(b);
}

/* Adds `type` to the constraint on `attr` (0 with status set on failure). */
static int add_constraint(TF_KernelBuilder* b, const char* attr,
                          TF_DataType type, TF_Status* status) {
  int i, j;
  for (i = 0; i < b->num_constraints; i++) {
    if (strcmp(b->constraints[i].attr, attr) == 0) break;
  }
  if (i == b->num_constraints) {
    if (b->num_constraints == TFE_CAPI_MAX_CONSTRAINTS) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TF_KernelBuilder_TypeConstraint: kernel for %s "
                      "constrains more than %d attrs",
                      b->op_name, TFE_CAPI_MAX_CONSTRAINTS);
      return 0;
    }
    b->constraints[i].attr = tfe_strdup(attr);
    if (b->constraints[i].attr == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TF_KernelBuilder_TypeConstraint: out of memory");
      return 0;
    }
    b->constraints[i].num_types = 0;
    b->num_constraints++;
  }
  for (j = 0; j < b->constraints[i].num_types; j++) {
    if (b->constraints[i].types[j] == type) {
      tfe_status_ok(status);
      return 1;
    }
  }
  if (b->constraints[i].num_types == TFE_CAPI_MAX_TYPES) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_KernelBuilder_TypeConstraint: too many types for "
                    "attr '%s' (at most %d)",
                    attr, TFE_CAPI_MAX_TYPES);
    return 0;
  }
  b->constraints[i].types[b->constraints[i].num_types++] = type;
  tfe_status_ok(status);
  return 1;
}

void TF_KernelBuilder_TypeConstraint(TF_KernelBuilder* kernel_builder,
                                     const char* attr_name, TF_DataType type,
                                     TF_Status* status) {
  if (kernel_builder == NULL || attr_name == NULL || attr_name[0] == '\0') {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_KernelBuilder_TypeConstraint: the builder and the "
                    "attr name must be non-NULL");
    return;
  }
  if (!add_constraint(kernel_builder, attr_name, type, status)) {
    builder_error(kernel_builder, TF_GetCode(status), TF_Message(status));
  }
}

static void add_host_memory(TF_KernelBuilder* b, const char* arg) {
  char** n;
  int i;
  for (i = 0; i < b->num_host_memory; i++) {
    if (strcmp(b->host_memory[i], arg) == 0) return;
  }
  n = (char**)tfe_realloc(b->host_memory,
                          sizeof(char*) * (size_t)(b->num_host_memory + 1));
  if (n == NULL) {
    builder_error(b, TF_RESOURCE_EXHAUSTED,
                  "TF_KernelBuilder_HostMemory: out of memory");
    return;
  }
  b->host_memory = n;
  n[b->num_host_memory] = tfe_strdup(arg);
  if (n[b->num_host_memory] == NULL) {
    builder_error(b, TF_RESOURCE_EXHAUSTED,
                  "TF_KernelBuilder_HostMemory: out of memory");
    return;
  }
  b->num_host_memory++;
}

void TF_KernelBuilder_HostMemory(TF_KernelBuilder* kernel_builder,
                                 const char* arg_name) {
  if (kernel_builder == NULL || arg_name == NULL) return;
  add_host_memory(kernel_builder, arg_name);
}

void TF_KernelBuilder_Priority(TF_KernelBuilder* kernel_builder,
                               int32_t priority_number) {
  if (kernel_builder != NULL) kernel_builder->priority = priority_number;
}

void TF_KernelBuilder_Label(TF_KernelBuilder* kernel_builder,
                            const char* label) {
  char* copy;
  if (kernel_builder == NULL) return;
  copy = label != NULL ? tfe_strdup(label) : NULL;
  if (label != NULL && copy == NULL) {
    builder_error(kernel_builder, TF_RESOURCE_EXHAUSTED,
                  "TF_KernelBuilder_Label: out of memory");
    return;
  }
  tfe_free(kernel_builder->label);
  kernel_builder->label = copy;
}

/* ------------------------------------------------------------------------
 * The adapter. */

static void* capi_create(const tfe_op_def* def, const tfe_attrs* attrs,
                         void* user_data, TF_Status* status) {
  const tfe_capi_kernel* ck = (const tfe_capi_kernel*)user_data;
  tfe_capi_state* st = (tfe_capi_state*)tfe_calloc(1, sizeof(*st));
  if (st == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory creating the kernel of %s", def->name);
    return NULL;
  }
  st->ck = ck;
  atomic_init(&st->device_name, NULL);
  atomic_init(&st->pdev, NULL);
  if (ck->create != NULL) {
    TF_OpKernelConstruction c;
    c.def = def;
    c.attrs = attrs;
    c.ck = ck;
    c.status = status;
    tfe_status_ok(status);
    st->object = ck->create(&c);
    if (TF_GetCode(status) != TF_OK) {
      /* TensorFlow deletes a kernel whose construction failed, which calls
       * delete_func on what create returned. */
      if (ck->destroy != NULL) ck->destroy(st->object);
      tfe_free(st);
      return NULL;
    }
  }
  return st;
}

static void capi_destroy(void* state, void* user_data) {
  tfe_capi_state* st = (tfe_capi_state*)state;
  (void)user_data;
  if (st == NULL) return;
  if (st->ck->destroy != NULL) st->ck->destroy(st->object);
  tfe_free(st);
}

static int device_id_of(const char* name) {
  tfe_device_spec spec;
  if (name != NULL && tfe_device_spec_parse(name, &spec) && spec.has_id) {
    return spec.id;
  }
  return 0;
}

static void capi_compute(tfe_kernel_context* k) {
  tfe_capi_state* st = (tfe_capi_state*)k->state;
  const tfe_capi_kernel* ck = (const tfe_capi_kernel*)k->user_data;
  TF_OpKernelContext c;
  tfe_pdev* pdev;
  int i;
  memset(&c, 0, sizeof c);
  c.k = k;
  c.ck = ck;
  if (st == NULL) {
    tfe_status_setf(k->status, TF_INTERNAL, "kernel of %s has no state",
                    k->op_def->name);
    return;
  }
  /* The device a cache entry runs on never changes: resolve it once. */
  if (atomic_load_explicit(&st->device_name, memory_order_acquire) !=
      k->device_name) {
    atomic_store_explicit(&st->pdev, tfe_pdev_from_name(k->device_name),
                          memory_order_relaxed);
    atomic_store_explicit(&st->device_name, k->device_name,
                          memory_order_release);
  }
  pdev = atomic_load_explicit(&st->pdev, memory_order_relaxed);
  c.pdev = pdev;
  c.device_id = device_id_of(k->device_name);
  if (pdev != NULL) {
    tfe_pdev_lock(pdev);
    if (!tfe_pdev_prepare_inputs_locked(pdev, k->inputs, k->num_inputs,
                                        k->status)) {
      tfe_pdev_unlock(pdev);
      return;
    }
  }
  if (ck->compute != NULL) {
    ck->compute(st->object, &c);
  } else {
    TF_AsyncOpKernelDoneCallback done;
    pthread_mutex_init(&done.mu, NULL);
    pthread_cond_init(&done.cv, NULL);
    done.done = 0;
    ck->compute_async(st->object, &c, &done);
    pthread_mutex_lock(&done.mu);
    while (!done.done) pthread_cond_wait(&done.cv, &done.mu);
    pthread_mutex_unlock(&done.mu);
    pthread_cond_destroy(&done.cv);
    pthread_mutex_destroy(&done.mu);
  }
  if (pdev != NULL) {
    for (i = 0; i < k->num_outputs; i++) tfe_pdev_mark_compute(k->outputs[i]);
    tfe_pdev_unlock(pdev);
  }
  if (c.deferred_ops != 0) {
    TF_Log(TF_WARNING,
           "kernel %s: TF_IncNumDeferredOps/TF_DecNumDeferredOps calls do "
           "not pair up (%d left)",
           ck->kernel_name, c.deferred_ops);
  }
}

void TF_RunAsyncOpKernelDoneCallback(TF_AsyncOpKernelDoneCallback* done) {
  if (done == NULL) return;
  pthread_mutex_lock(&done->mu);
  done->done = 1;
  pthread_cond_signal(&done->cv);
  pthread_mutex_unlock(&done->mu);
}

/* ------------------------------------------------------------------------
 * Registration. */

/* Checks constraints and host-memory args against the op, when the op is
 * known already (TensorFlow accepts kernels for ops registered later). */
static int check_against_op(const TF_KernelBuilder* b, TF_Status* s) {
  const tfe_op_def* def = tfe_op_lookup(b->op_name);
  int i, j, found;
  if (def == NULL) return 1;
  for (i = 0; i < b->num_constraints; i++) {
    const tfe_attr_def* a = tfe_op_def_find_attr(def, b->constraints[i].attr);
    if (a == NULL || a->type != TF_ATTR_TYPE) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "OpKernel '%s' has constraint on attr '%s' not in "
                      "NodeDef, KernelDef: op: \"%s\" device_type: \"%s\"",
                      b->op_name, b->constraints[i].attr, b->op_name,
                      b->device_type);
      return 0;
    }
  }
  for (i = 0; i < b->num_host_memory; i++) {
    found = 0;
    for (j = 0; j < def->num_inputs && !found; j++) {
      found = strcmp(def->inputs[j].name, b->host_memory[i]) == 0;
    }
    for (j = 0; j < def->num_outputs && !found; j++) {
      found = strcmp(def->outputs[j].name, b->host_memory[i]) == 0;
    }
    if (!found) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "HostMemory arg '%s' not found in OpDef of %s",
                      b->host_memory[i], b->op_name);
      return 0;
    }
  }
  return 1;
}

static void register_builder(const char* kernel_name, TF_KernelBuilder* b,
                             TF_Status* status) {
  tfe_kernel_reg reg;
  tfe_capi_kernel* ck;
  int i, n;
  if (b == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_RegisterKernelBuilder: builder is NULL");
    return;
  }
  if (b->error != TF_OK) {
    tfe_status_setf(status, b->error, "%s", b->error_msg);
    goto done;
  }
  tfe_ops_ensure_builtins();
  if (!check_against_op(b, status)) goto done;
  ck = (tfe_capi_kernel*)tfe_calloc(1, sizeof(*ck));
  if (ck == NULL ||
      (ck->kernel_name = tfe_strdup(kernel_name ? kernel_name : b->op_name)) ==
          NULL) {
    tfe_free(ck);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_RegisterKernelBuilder: out of memory");
    goto done;
  }
  ck->create = b->create;
  ck->compute = b->compute;
  ck->compute_async = b->compute_async;
  ck->destroy = b->destroy;

  memset(&reg, 0, sizeof reg);
  reg.op_name = b->op_name;
  reg.device_type = b->device_type;
  for (i = 0; i < b->num_constraints; i++) {
    reg.constraints[i].attr = b->constraints[i].attr;
    reg.constraints[i].types = b->constraints[i].types;
    reg.constraints[i].num_types = b->constraints[i].num_types;
  }
  reg.num_constraints = b->num_constraints;
  reg.host_memory_args = (const char* const*)b->host_memory;
  reg.num_host_memory_args = b->num_host_memory;
  reg.priority = b->priority;
  reg.label = b->label;
  reg.create = capi_create;
  reg.compute = capi_compute;
  reg.destroy = capi_destroy;
  reg.user_data = ck;
  if (!tfe_kernel_register(&reg, status)) {
    tfe_free(ck->kernel_name);
    tfe_free(ck);
    goto done;
  }
  /* Remember the registry's copy (host-memory args, for the context). */
  n = tfe_kernel_count();
  for (i = n - 1; i >= 0; i--) {
    const tfe_kernel_reg* r = tfe_kernel_at(i);
    if (r != NULL && r->user_data == ck) {
      ck->reg = r;
      break;
    }
  }
  tfe_status_ok(status);
done:
  TF_DeleteKernelBuilder(b);
}

void TF_RegisterKernelBuilder(const char* kernel_name,
                              TF_KernelBuilder* builder, TF_Status* status) {
  register_builder(kernel_name, builder, status);
}

/* ---- KernelDef: op 1, device_type 2, constraint 3 {name 1,
 * allowed_values 2 (AttrValue: list 1 {type 6}, type 6)}, host_memory_arg
 * 4, label 5, priority 6. */

static char* pb_strdup(const tfe_pbr* r) {
  return tfe_strndup((const char*)r->p, (size_t)(r->end - r->p));
}

static int read_types(tfe_pbr* r, TF_KernelBuilder* b, const char* attr,
                      TF_Status* s) {
  int f, w;
  uint64_t v;
  while (r->p < r->end) {
    tfe_pbr sub;
    if (!tfe_pbr_tag(r, &f, &w)) return 0;
    if (f == 6 && w == 0) {
      if (!tfe_pbr_varint(r, &v) ||
          !add_constraint(b, attr, (TF_DataType)v, s)) {
        return 0;
      }
    } else if (f == 6 && w == 2) {
      if (!tfe_pbr_len(r, &sub)) return 0;
      while (sub.p < sub.end) {
        if (!tfe_pbr_varint(&sub, &v) ||
            !add_constraint(b, attr, (TF_DataType)v, s)) {
          return 0;
        }
      }
    } else if (f == 1 && w == 2) {
      if (!tfe_pbr_len(r, &sub) || !read_types(&sub, b, attr, s)) return 0;
    } else if (!tfe_pbr_skip(r, f, w)) {
      return 0;
    }
  }
  return 1;
}

static int read_constraint(tfe_pbr* r, TF_KernelBuilder* b, TF_Status* s) {
  int f, w, ok = 1;
  char* name = NULL;
  tfe_pbr allowed = {NULL, NULL};
  while (r->p < r->end && ok) {
    tfe_pbr sub;
    if (!tfe_pbr_tag(r, &f, &w)) return 0;
    if (f == 1 && w == 2) {
      if (!tfe_pbr_len(r, &sub)) return 0;
      tfe_free(name);
      name = pb_strdup(&sub);
      ok = name != NULL;
    } else if (f == 2 && w == 2) {
      ok = tfe_pbr_len(r, &allowed);
    } else {
      ok = tfe_pbr_skip(r, f, w);
    }
  }
  if (ok && name != NULL && allowed.p != NULL) {
    ok = read_types(&allowed, b, name, s);
  }
  tfe_free(name);
  return ok;
}

static int apply_kernel_def(TF_KernelBuilder* b, const char* def,
                            TF_Status* s) {
  tfe_pbr r;
  int f, w, i;
  int had_constraint = 0;
  r.p = (const unsigned char*)def;
  r.end = r.p + strlen(def);
  while (r.p < r.end) {
    tfe_pbr sub;
    uint64_t v;
    char* str;
    if (!tfe_pbr_tag(&r, &f, &w)) goto bad;
    if (w == 2 && f >= 1 && f <= 5) {
      if (!tfe_pbr_len(&r, &sub)) goto bad;
      if (f == 3) {
        if (!had_constraint) {
          /* The KernelDef's constraints replace the builder's. */
          for (i = 0; i < b->num_constraints; i++) {
            tfe_free(b->constraints[i].attr);
          }
          b->num_constraints = 0;
          had_constraint = 1;
        }
        if (!read_constraint(&sub, b, s)) goto bad;
        continue;
      }
      str = pb_strdup(&sub);
      if (str == NULL) goto oom;
      if (f == 1) {
        tfe_free(b->op_name);
        b->op_name = str;
      } else if (f == 2) {
        tfe_free(b->device_type);
        b->device_type = str;
      } else if (f == 4) {
        add_host_memory(b, str);
        tfe_free(str);
      } else {
        tfe_free(b->label);
        b->label = str;
      }
    } else if (f == 6 && w == 0) {
      if (!tfe_pbr_varint(&r, &v)) goto bad;
      b->priority = (int32_t)v;
    } else if (!tfe_pbr_skip(&r, f, w)) {
      goto bad;
    }
  }
  return 1;
bad:
  if (TF_GetCode(s) == TF_OK) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_RegisterKernelBuilderWithKernelDef: the serialized "
                    "KernelDef is malformed");
  }
  return 0;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "TF_RegisterKernelBuilderWithKernelDef: out of memory");
  return 0;
}

void TF_RegisterKernelBuilderWithKernelDef(const char* serialized_kernel_def,
                                           const char* name,
                                           TF_KernelBuilder* builder,
                                           TF_Status* status) {
  if (builder != NULL && serialized_kernel_def != NULL &&
      serialized_kernel_def[0] != '\0' &&
      !apply_kernel_def(builder, serialized_kernel_def, status)) {
    TF_DeleteKernelBuilder(builder);
    return;
  }
  register_builder(name, builder, status);
}
