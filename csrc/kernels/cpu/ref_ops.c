/* CPU kernels of the reference (Ref(T)) state ops: VariableV2,
 * TemporaryVariable, DestroyTemporaryVariable, Assign, AssignAdd,
 * AssignSub, RefIdentity, IsVariableInitialized. Cells and the
 * temporary-variable registry: kernels/ref_var.h. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"

void tfe_register_ref_kernels(void);

static const char* op_name(const tfe_kernel_context* k) {
  return k->op_def != NULL ? k->op_def->name : "?";
}

/* The cell of reference input i (the runtime guarantees one for a Ref
 * arg; hand-built contexts may not). */
static tfe_ref_cell* input_cell(tfe_kernel_context* k, int i) {
  tfe_ref_cell* c = tfe_kernel_input_ref(k, i);
  if (c == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input %d of %s is not a reference", i,
               op_name(k));
  }
  return c;
}

/* A fully defined shape attr, or 0 with INVALID_ARGUMENT. */
static int shape_attr(tfe_kernel_context* k, const tfe_shape** out) {
  int i;
  if (!tfe_attrs_get_shape(k->attrs, "shape", out, k->status)) return 0;
  for (i = 0; (*out)->num_dims >= 0 && i < (*out)->num_dims; i++) {
    if ((*out)->dims[i] < 0) break;
  }
  if ((*out)->num_dims < 0 || i < (*out)->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s needs a fully defined shape attr", op_name(k));
    return 0;
  }
  return 1;
}

/* A host tensor of dtype and shape (strings empty). */
static TF_Tensor* host_tensor(TF_DataType dt, const int64_t* dims, int n,
                              TF_Status* s) {
  int64_t count = tfe_shape_num_elements(dims, n);
  size_t esz = kutil_esize(dt), bytes = 0;
  TF_Tensor* t;
  if (count < 0 || esz == 0 || !tfe_mul_size((size_t)count, esz, &bytes)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "cannot allocate a %s tensor of that shape",
                    tfe_dtype_enum_name(dt));
    return NULL;
  }
  t = TF_AllocateTensor(dt, dims, n, bytes);
  if (t == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "OOM when allocating a tensor of %zu bytes", bytes);
  }
  return t;
}

/* ---- VariableV2 ---- */

/* An uninitialized reference: in eager a new one per execution, or with a
 * shared_name (in a graph: the node's name) the one registered under it in
 * this context (made on first use, dropped with the context). */
static void variable_compute(tfe_kernel_context* k) {
  TF_DataType dt = TF_FLOAT;
  const char *container = "", *shared = "";
  size_t len;
  tfe_ref_cell* c = NULL;
  tfe_attrs_get_type(k->attrs, "dtype", &dt, NULL);
  tfe_attrs_get_string(k->attrs, "container", &container, &len, NULL);
  tfe_attrs_get_string(k->attrs, "shared_name", &shared, &len, NULL);
  /* In a graph a variable without shared_name is its node's, and lives as
   * long as the session (TF keys it by the node name). */
  if (shared[0] == '\0' && k->node_name != NULL) shared = k->node_name;
  if (shared[0] != '\0') {
    char key[512];
    uint64_t id = tfe_resource_kernel_ctx_id(k);
    snprintf(key, sizeof key, "VariableV2:%s/%s", container, shared);
    c = tfe_tmpvar_lookup(id, key);
    if (c == NULL) {
      c = tfe_ref_cell_new(dt, NULL);
      if (c != NULL && !tfe_tmpvar_create(id, key, c, k->status)) {
        tfe_ref_cell_unref(c);
        return;
      }
    }
    if (c != NULL && c->dtype != dt) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "variable %s/%s exists with dtype %s, not %s", container,
                 shared, tfe_dtype_enum_name(c->dtype),
                 tfe_dtype_enum_name(dt));
      tfe_ref_cell_unref(c);
      return;
    }
  } else {
    c = tfe_ref_cell_new(dt, NULL);
  }
  if (c == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory making a variable");
    return;
  }
  tfe_kernel_set_output_ref(k, 0, c);
  tfe_ref_cell_unref(c);
}

/* ---- TemporaryVariable / DestroyTemporaryVariable ---- */

/* var_name, or the op's name when empty (the eager node's name). */
static const char* var_name(tfe_kernel_context* k) {
  const char* name = "";
  size_t len;
  tfe_attrs_get_string(k->attrs, "var_name", &name, &len, NULL);
  return name[0] != '\0' ? name : op_name(k);
}

static void temporary_variable_compute(tfe_kernel_context* k) {
  TF_DataType dt = TF_FLOAT;
  const tfe_shape* shape;
  TF_Tensor* t;
  tfe_ref_cell* c;
  if (!shape_attr(k, &shape)) return;
  tfe_attrs_get_type(k->attrs, "dtype", &dt, NULL);
  t = host_tensor(dt, shape->dims, shape->num_dims, k->status);
  if (t == NULL) return;
  c = tfe_ref_cell_new(dt, t);
  if (c == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "Could not allocate TmpVar.");
    return;
  }
  if (tfe_tmpvar_create(tfe_resource_kernel_ctx_id(k), var_name(k), c,
                        k->status)) {
    tfe_kernel_set_output_ref(k, 0, c);
  }
  tfe_ref_cell_unref(c);
}

static void destroy_temporary_variable_compute(tfe_kernel_context* k) {
  const char* name = "";
  size_t len;
  tfe_ref_cell* c = input_cell(k, 0);
  TF_Tensor* v;
  if (c == NULL) return;
  tfe_attrs_get_string(k->attrs, "var_name", &name, &len, NULL);
  if (name[0] == '\0') {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Missing var_name attribute");
    return;
  }
  v = tfe_ref_cell_read(c, 0, k->status);
  if (v == NULL) return;
  tfe_kernel_set_output(k, 0, v);
  tfe_tmpvar_delete(tfe_resource_kernel_ctx_id(k), name, k->status);
}

/* ---- Assign ---- */

static TF_Tensor* alloc_like(void* user, const TF_Tensor* like,
                             TF_Status* s) {
  (void)user;
  return host_tensor(like->dtype, like->dims, like->num_dims, s);
}

static int copy_elems(void* user, const TF_Tensor* src, const TF_Tensor* dst,
                      TF_Status* s) {
  (void)user;
  (void)s;
  kutil_copy(src->dtype, kutil_data(dst), kutil_data(src),
             kutil_num_elements(src));
  return 1;
}

static void assign_compute(tfe_kernel_context* k) {
  tfe_ref_cell* c = input_cell(k, 0);
  const TF_Tensor* rhs = k->inputs[1];
  if (c == NULL) return;
  /* The output is the input reference, whatever happens next. */
  if (!tfe_kernel_set_output_ref(k, 0, c)) return;
  if (rhs == NULL) {
    KUTIL_FAIL(k, TF_INTERNAL,
               "Right hand side of AssignOp is not initialized");
    return;
  }
  pthread_mutex_lock(&c->mu);
  tfe_ref_assign_locked(c, rhs, kutil_attr_bool(k, "validate_shape", 1),
                        alloc_like, copy_elems, NULL, k->status);
  pthread_mutex_unlock(&c->mu);
}

/* ---- AssignAdd / AssignSub ---- */

static void assign_update(tfe_kernel_context* k, int sub) {
  tfe_ref_cell* c = input_cell(k, 0);
  const TF_Tensor* x = k->inputs[1];
  if (c == NULL) return;
  if (!tfe_kernel_set_output_ref(k, 0, c)) return;
  pthread_mutex_lock(&c->mu);
  if (c->value == NULL) {
    KUTIL_FAIL(k, TF_FAILED_PRECONDITION,
               "Attempting to use uninitialized parameters: input 0 of %s",
               op_name(k));
  } else if (c->value->num_dims != x->num_dims ||
             (x->num_dims > 0 &&
              memcmp(c->value->dims, x->dims,
                     sizeof(int64_t) * (size_t)x->num_dims) != 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Parameters and update must be the same size");
  } else {
    tfe_cpu_add_sub_inplace(c->dtype, kutil_data(c->value), kutil_data(x),
            kutil_num_elements(x), sub);
  }
  pthread_mutex_unlock(&c->mu);
}

static void assign_add_compute(tfe_kernel_context* k) { assign_update(k, 0); }
static void assign_sub_compute(tfe_kernel_context* k) { assign_update(k, 1); }

/* ---- RefIdentity / IsVariableInitialized ---- */

static void ref_identity_compute(tfe_kernel_context* k) {
  tfe_ref_cell* c = input_cell(k, 0);
  if (c != NULL) tfe_kernel_set_output_ref(k, 0, c);
}

static void is_initialized_compute(tfe_kernel_context* k) {
  tfe_ref_cell* c = input_cell(k, 0);
  TF_Tensor* out;
  if (c == NULL) return;
  out = tfe_kernel_alloc_output(k, 0, TF_BOOL, NULL, 0);
  if (out == NULL) return;
  pthread_mutex_lock(&c->mu);
  *(unsigned char*)kutil_data(out) = c->value != NULL;
  pthread_mutex_unlock(&c->mu);
}

/* ---- registration ---- */

void tfe_register_ref_kernels(void) {
  static const TF_DataType kNum[] = {KUTIL_NUMBER_TYPES};
  tfe_kutil_register("VariableV2", variable_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  /* TF 1's Variable is VariableV2 under its older name. */
  tfe_kutil_register("Variable", variable_compute, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("TemporaryVariable", temporary_variable_compute, NULL,
                     NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("DestroyTemporaryVariable",
                     destroy_temporary_variable_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("Assign", assign_compute, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("AssignAdd", assign_add_compute, "T", kNum,
                     KUTIL_COUNT(kNum), NULL, NULL, 0);
  tfe_kutil_register("AssignSub", assign_sub_compute, "T", kNum,
                     KUTIL_COUNT(kNum), NULL, NULL, 0);
  tfe_kutil_register("RefIdentity", ref_identity_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("IsVariableInitialized", is_initialized_compute, NULL,
                     NULL, 0, NULL, NULL, 0);
}
