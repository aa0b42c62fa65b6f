/* ops.h: the shape-inference context handed to an op's shape function, and
 * TFE_OpInferOutputShape (tfe/plugins.h), which runs it for an eager op. */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/eager_internal.h"
#include "ops/capi_shape_internal.h"
#include "tensorflow/c/ops.h"
#include "tfe/plugins.h"

/* A shape: rank -1 = unknown rank; a dim of -1 = unknown size. */
struct TF_ShapeHandle {
  int64_t rank;
  int64_t* dims;
};

struct TF_DimensionHandle {
  int64_t value; /* -1 when unknown */
};

struct TF_ShapeInferenceContext {
  const tfe_op_def* def;
  const tfe_attrs* attrs;
  int num_inputs;
  const TF_ShapeHandle* inputs;
  int num_outputs;
  TF_ShapeHandle* outputs;
};

/* ---- handles ---- */

TF_ShapeHandle* TF_NewShapeHandle(void) {
  TF_ShapeHandle* h = (TF_ShapeHandle*)tfe_calloc(1, sizeof(*h));
  if (h != NULL) h->rank = -1;
  return h;
}

void TF_DeleteShapeHandle(TF_ShapeHandle* handle) {
  if (handle == NULL) return;
  tfe_free(handle->dims);
  tfe_free(handle);
}

TF_DimensionHandle* TF_NewDimensionHandle(void) {
  TF_DimensionHandle* d = (TF_DimensionHandle*)tfe_calloc(1, sizeof(*d));
  if (d != NULL) d->value = -1;
  return d;
}

void TF_DeleteDimensionHandle(TF_DimensionHandle* handle) { tfe_free(handle); }

int TF_DimensionHandleValueKnown(TF_DimensionHandle* dim_handle) {
  return dim_handle != NULL && dim_handle->value >= 0;
}

int64_t TF_DimensionHandleValue(TF_DimensionHandle* dim_handle) {
  return dim_handle == NULL ? -1 : dim_handle->value;
}

/* dst = rank/dims given; 0 on OOM. */
static int set_shape(TF_ShapeHandle* dst, int64_t rank, const int64_t* dims) {
  int64_t* nd = NULL;
  if (rank > 0) {
    nd = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)rank);
    if (nd == NULL) return 0;
    if (dims != NULL) {
      memcpy(nd, dims, sizeof(int64_t) * (size_t)rank);
    } else {
      int64_t i;
      for (i = 0; i < rank; i++) nd[i] = -1;
    }
  }
  tfe_free(dst->dims);
  dst->dims = nd;
  dst->rank = rank;
  return 1;
}

static int copy_shape(TF_ShapeHandle* dst, const TF_ShapeHandle* src) {
  if (dst == src) return 1;
  return set_shape(dst, src->rank, src->dims);
}

static TF_ShapeHandle* new_shape(int64_t rank, const int64_t* dims) {
  TF_ShapeHandle* h = TF_NewShapeHandle();
  if (h != NULL && !set_shape(h, rank, dims)) {
    TF_DeleteShapeHandle(h);
    return NULL;
  }
  return h;
}

static int oom(TF_Status* s) {
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "shape inference: out of memory");
  return 0;
}

/* ---- context ---- */

int64_t TF_ShapeInferenceContextNumInputs(TF_ShapeInferenceContext* ctx) {
  return ctx == NULL ? 0 : ctx->num_inputs;
}

void TF_ShapeInferenceContextGetInput(TF_ShapeInferenceContext* ctx, int i,
                                      TF_ShapeHandle* handle,
                                      TF_Status* status) {
  if (ctx == NULL || handle == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_ShapeInferenceContextGetInput: NULL argument");
    return;
  }
  if (i < 0 || i >= ctx->num_inputs) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "input index out of range: %d (the op has %d inputs)", i,
                    ctx->num_inputs);
    return;
  }
  if (!copy_shape(handle, &ctx->inputs[i])) {
    oom(status);
    return;
  }
  tfe_status_ok(status);
}

void TF_ShapeInferenceContextSetOutput(TF_ShapeInferenceContext* ctx, int i,
                                       TF_ShapeHandle* handle,
                                       TF_Status* status) {
  if (ctx == NULL || handle == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_ShapeInferenceContextSetOutput: NULL argument");
    return;
  }
  if (i < 0 || i >= ctx->num_outputs) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "output index out of range: %d (the op has %d outputs)",
                    i, ctx->num_outputs);
    return;
  }
  if (!copy_shape(&ctx->outputs[i], handle)) {
    oom(status);
    return;
  }
  tfe_status_ok(status);
}

TF_ShapeHandle* TF_ShapeInferenceContextScalar(TF_ShapeInferenceContext* ctx) {
  (void)ctx;
  return new_shape(0, NULL);
}

TF_ShapeHandle* TF_ShapeInferenceContextVectorFromSize(
    TF_ShapeInferenceContext* ctx, size_t size) {
  int64_t d = (int64_t)size;
  (void)ctx;
  return new_shape(1, &d);
}

void TF_ShapeInferenceContext_GetAttrType(TF_ShapeInferenceContext* ctx,
                                          const char* attr_name,
                                          TF_DataType* val,
                                          TF_Status* status) {
  const tfe_attr_value* v;
  if (ctx == NULL || attr_name == NULL || val == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_ShapeInferenceContext_GetAttrType: NULL argument");
    return;
  }
  v = tfe_attrs_find(ctx->attrs, attr_name);
  if (v == NULL || v->is_list || v->type != TF_ATTR_TYPE) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s attr '%s' of type 'type' in op %s",
                    v == NULL ? "No" : "Wrong kind of", attr_name,
                    ctx->def->name);
    return;
  }
  *val = v->v.type;
  tfe_status_ok(status);
}

int64_t TF_ShapeInferenceContextRank(TF_ShapeInferenceContext* ctx,
                                     TF_ShapeHandle* handle) {
  (void)ctx;
  return handle == NULL ? -1 : handle->rank;
}

int TF_ShapeInferenceContextRankKnown(TF_ShapeInferenceContext* ctx,
                                      TF_ShapeHandle* handle) {
  (void)ctx;
  return handle != NULL && handle->rank >= 0;
}

static int rank_check(TF_ShapeHandle* handle, TF_ShapeHandle* result,
                      TF_Status* status, const char* fn) {
  if (handle == NULL || result == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s: NULL argument", fn);
    return 0;
  }
  return 1;
}

void TF_ShapeInferenceContextWithRank(TF_ShapeInferenceContext* ctx,
                                      TF_ShapeHandle* handle, int64_t rank,
                                      TF_ShapeHandle* result,
                                      TF_Status* status) {
  (void)ctx;
  if (!rank_check(handle, result, status, "TF_ShapeInferenceContextWithRank")) {
    return;
  }
  if (rank < 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "rank must be >= 0, got %lld",
                    (long long)rank);
    return;
  }
  if (handle->rank < 0) {
    if (!set_shape(result, rank, NULL)) oom(status);
    else tfe_status_ok(status);
    return;
  }
  if (handle->rank != rank) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Shape must be rank %lld but is rank %lld",
                    (long long)rank, (long long)handle->rank);
    return;
  }
  if (!copy_shape(result, handle)) oom(status);
  else tfe_status_ok(status);
}

void TF_ShapeInferenceContextWithRankAtLeast(TF_ShapeInferenceContext* ctx,
                                             TF_ShapeHandle* handle,
                                             int64_t rank,
                                             TF_ShapeHandle* result,
                                             TF_Status* status) {
  (void)ctx;
  if (!rank_check(handle, result, status,
                  "TF_ShapeInferenceContextWithRankAtLeast")) {
    return;
  }
  if (handle->rank >= 0 && handle->rank < rank) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Shape must be at least rank %lld but is rank %lld",
                    (long long)rank, (long long)handle->rank);
    return;
  }
  if (!copy_shape(result, handle)) oom(status);
  else tfe_status_ok(status);
}

void TF_ShapeInferenceContextWithRankAtMost(TF_ShapeInferenceContext* ctx,
                                            TF_ShapeHandle* handle,
                                            int64_t rank,
                                            TF_ShapeHandle* result,
                                            TF_Status* status) {
  (void)ctx;
  if (!rank_check(handle, result, status,
                  "TF_ShapeInferenceContextWithRankAtMost")) {
    return;
  }
  if (handle->rank >= 0 && handle->rank > rank) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Shape must be at most rank %lld but is rank %lld",
                    (long long)rank, (long long)handle->rank);
    return;
  }
  if (!copy_shape(result, handle)) oom(status);
  else tfe_status_ok(status);
}

void TF_ShapeInferenceContextDim(TF_ShapeInferenceContext* ctx,
                                 TF_ShapeHandle* shape_handle, int64_t i,
                                 TF_DimensionHandle* result) {
  (void)ctx;
  if (result == NULL) return;
  result->value = -1;
  if (shape_handle == NULL || shape_handle->rank < 0) return;
  if (i < 0) i += shape_handle->rank;
  if (i < 0 || i >= shape_handle->rank) return;
  result->value = shape_handle->dims[i];
}

void TF_ShapeInferenceContextSubshape(TF_ShapeInferenceContext* ctx,
                                      TF_ShapeHandle* shape_handle,
                                      int64_t start, int64_t end,
                                      TF_ShapeHandle* result,
                                      TF_Status* status) {
  int64_t r;
  (void)ctx;
  if (!rank_check(shape_handle, result, status,
                  "TF_ShapeInferenceContextSubshape")) {
    return;
  }
  r = shape_handle->rank;
  if (r < 0) {
    if (!set_shape(result, -1, NULL)) oom(status);
    else tfe_status_ok(status);
    return;
  }
  if (start > r) start = r;
  if (end > r) end = r;
  if (start < 0) start += r;
  if (end < 0) end += r;
  if (start < 0 || end < 0 || start > end) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Subshape [%lld, %lld) is out of bounds for a shape of "
                    "rank %lld",
                    (long long)start, (long long)end, (long long)r);
    return;
  }
  if (!set_shape(result, end - start, shape_handle->dims + start)) {
    oom(status);
    return;
  }
  tfe_status_ok(status);
}

void TF_ShapeInferenceContextSetUnknownShape(TF_ShapeInferenceContext* ctx,
                                             TF_Status* status) {
  int i;
  if (ctx == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_ShapeInferenceContextSetUnknownShape: NULL context");
    return;
  }
  for (i = 0; i < ctx->num_outputs; i++) set_shape(&ctx->outputs[i], -1, NULL);
  tfe_status_ok(status);
}

void TF_ShapeInferenceContextConcatenateShapes(TF_ShapeInferenceContext* ctx,
                                               TF_ShapeHandle* first,
                                               TF_ShapeHandle* second,
                                               TF_ShapeHandle* result,
                                               TF_Status* status) {
  int64_t* dims;
  int64_t r;
  (void)ctx;
  if (first == NULL || second == NULL || result == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_ShapeInferenceContextConcatenateShapes: NULL argument");
    return;
  }
  if (first->rank < 0 || second->rank < 0) {
    if (!set_shape(result, -1, NULL)) oom(status);
    else tfe_status_ok(status);
    return;
  }
  r = first->rank + second->rank;
  dims = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(r > 0 ? r : 1));
  if (dims == NULL) {
    oom(status);
    return;
  }
  if (first->rank > 0) {
    memcpy(dims, first->dims, sizeof(int64_t) * (size_t)first->rank);
  }
  if (second->rank > 0) {
    memcpy(dims + first->rank, second->dims,
           sizeof(int64_t) * (size_t)second->rank);
  }
  if (!set_shape(result, r, dims)) oom(status);
  else tfe_status_ok(status);
  tfe_free(dims);
}

/* ------------------------------------------------------------------------
 * Running a shape function: shared by graphs (tfe_shape_infer) and eager
 * ops (TFE_OpInferOutputShape). */

typedef void (*shape_fn_t)(TF_ShapeInferenceContext*, TF_Status*);

int tfe_run_plugin_shape_fn(const tfe_op_def* def, const tfe_attrs* attrs,
                            int num_inputs, const tfe_shape* input_shapes,
                            int num_outputs, tfe_shape* out, TF_Status* s) {
  TF_ShapeInferenceContext c;
  TF_ShapeHandle* ins = NULL;
  TF_ShapeHandle* outs = NULL;
  shape_fn_t fn;
  int i, ok = 0;
  uint64_t failures_before = tfe_alloc_failures();
  for (i = 0; i < num_outputs; i++) {
    out[i].num_dims = -1;
    out[i].dims = NULL;
  }
  if (def == NULL || def->shape_fn == NULL || num_inputs < 0 ||
      num_outputs < 0 || (num_inputs > 0 && input_shapes == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "tfe_run_plugin_shape_fn: no shape function or inputs");
    return 0;
  }
  /* Inputs are borrowed views of the caller's shapes (never freed here). */
  ins = (TF_ShapeHandle*)tfe_calloc((size_t)num_inputs + 1, sizeof(*ins));
  outs = (TF_ShapeHandle*)tfe_calloc((size_t)num_outputs + 1, sizeof(*outs));
  if (ins == NULL || outs == NULL) {
    oom(s);
    goto done;
  }
  for (i = 0; i < num_inputs; i++) {
    ins[i].rank = input_shapes[i].num_dims < 0 ? -1 : input_shapes[i].num_dims;
    ins[i].dims = ins[i].rank > 0 ? input_shapes[i].dims : NULL;
  }
  for (i = 0; i < num_outputs; i++) outs[i].rank = -1;
  c.def = def;
  c.attrs = attrs;
  c.num_inputs = num_inputs;
  c.inputs = ins;
  c.num_outputs = num_outputs;
  c.outputs = outs;
  memcpy(&fn, &def->shape_fn, sizeof fn);
  tfe_status_ok(s);
  fn(&c, s);
  if (TF_GetCode(s) != TF_OK) {
    /* A function that failed because one of our allocations (a handle it
     * asked for) failed reports the memory shortage, not what followed. */
    if (tfe_alloc_failures() != failures_before) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "shape inference: out of memory in the shape function "
                      "of %s",
                      def->name);
    }
    goto done;
  }
  for (i = 0; i < num_outputs; i++) {
    /* Hand the dims array over (allocated by set_shape with tfe_malloc). */
    out[i].num_dims = outs[i].rank < 0 ? -1 : (int)outs[i].rank;
    out[i].dims = outs[i].dims;
    outs[i].dims = NULL;
  }
  ok = 1;
done:
  if (outs != NULL) {
    for (i = 0; i < num_outputs; i++) tfe_free(outs[i].dims);
  }
  tfe_free(ins);
  tfe_free(outs);
  return ok;
}

int TFE_OpInferOutputShape(TFE_Op* op, int output_index, int64_t* dims,
                           int max_dims, TF_Status* status) {
  tfe_shape* ins = NULL;
  tfe_shape* outs = NULL;
  tfe_attrs attrs;
  int i, n_out = 0, rank = -1, ok = 0;
  if (!tfe_op_check(op, "TFE_OpInferOutputShape", status)) return -1;
  if (op->def == NULL) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "TFE_OpInferOutputShape: the op has no type");
    return -1;
  }
  if (op->def->shape_fn == NULL) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "TFE_OpInferOutputShape: op %s has no shape function",
                    op->def->name);
    return -1;
  }
  if (max_dims < 0 || (max_dims > 0 && dims == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_OpInferOutputShape: dims must hold max_dims values");
    return -1;
  }
  tfe_attrs_init(&attrs);
  if (!tfe_attrs_merge(&attrs, &op->attrs)) {
    oom(status);
    goto done;
  }
  if (!tfe_op_def_complete_attrs(op->def, &attrs, status)) goto done;
  if (!tfe_op_def_output_types(op->def, &attrs, NULL, 0, &n_out, status)) {
    goto done;
  }
  if (output_index < 0 || output_index >= n_out) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_OpInferOutputShape: output %d of %s does not exist "
                    "(%d outputs)",
                    output_index, op->def->name, n_out);
    goto done;
  }
  ins = (tfe_shape*)tfe_calloc((size_t)(op->num_inputs + 1), sizeof(*ins));
  outs = (tfe_shape*)tfe_calloc((size_t)n_out, sizeof(*outs));
  if (ins == NULL || outs == NULL) {
    oom(status);
    goto done;
  }
  for (i = 0; i < op->num_inputs; i++) {
    TFE_TensorHandle* h = op->inputs[i];
    if (!tfe_handle_ready(h, status)) goto done;
    /* A reference or custom-device handle has no tensor here: its shape
     * is taken as unknown. Views of the handle's dims (not copied). */
    ins[i].num_dims = h->t != NULL ? h->t->num_dims : -1;
    ins[i].dims = h->t != NULL ? h->t->dims : NULL;
  }
  if (!tfe_run_plugin_shape_fn(op->def, &attrs, op->num_inputs, ins, n_out,
                               outs, status)) {
    goto done;
  }
  rank = outs[output_index].num_dims;
  for (i = 0; i < rank && i < max_dims; i++) {
    dims[i] = outs[output_index].dims[i];
  }
  ok = 1;
done:
  if (outs != NULL) {
    for (i = 0; i < n_out; i++) tfe_free(outs[i].dims);
  }
  tfe_free(ins);
  tfe_free(outs);
  tfe_attrs_destroy(&attrs);
  return ok ? rank : -1;
}
