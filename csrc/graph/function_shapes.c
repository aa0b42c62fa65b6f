/* Shape inference through function calls (see function_shapes.h). The
 * body of the called function is built as a graph whose argument
 * placeholders carry the call's input shapes (and the handle data of
 * resource inputs; a small constant input becomes a Const of its value); graph construction then infers every body node, and
 * the shapes of the return values are the call's output shapes. A
 * function already being inferred on this thread (recursion) or nesting
 * deeper than TFE_FN_SHAPES_MAX_DEPTH leaves the outputs unknown. */
#include "graph/function_shapes.h"

#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "graph/function_internal.h"
#include "graph/graph_internal.h"
#include "graph/operation_internal.h"

static _Thread_local const TF_Operation* tl_op;
static _Thread_local int tl_depth;
static _Thread_local const TF_Function* tl_stack[TFE_FN_SHAPES_MAX_DEPTH];

const TF_Operation* tfe_fn_shapes_enter(const TF_Operation* op) {
  const TF_Operation* prev = tl_op;
  tl_op = op;
  return prev;
}

/* 1 when the status holds a shape-inference error of a body node (TF's
 * refiner reports those; anything else tfe could not build is left as
 * unknown shapes). */
static int is_shape_error(TF_Status* st) {
  return TF_GetCode(st) == TF_INVALID_ARGUMENT &&
         strstr(TF_Message(st), "{{node ") != NULL;
}

int tfe_fn_shapes_call(const tfe_shape_infer_args* a, const char* fname,
                       const tfe_op_def* def, const tfe_attrs* attrs,
                       tfe_shape* out, TF_Status* s) {
  const TF_Operation* op = tl_op;
  tfe_flib* lib;
  const TF_Function* fn = NULL;
  const tfe_handle_data* small[8];
  const tfe_handle_data** handles = NULL;
  tfe_fn_inst* inst;
  TF_Status* st;
  int i, n, ok = 1;
  if (op == NULL || op->graph == NULL || a == NULL) return 1;
  lib = op->graph->flib;
  if (lib == NULL) return 1;
  if (def != NULL) fn = tfe_flib_find_def(lib, def);
  if (fn == NULL && fname != NULL) fn = tfe_flib_find(lib, fname);
  if (fn == NULL) return 1;
  if (tl_depth >= TFE_FN_SHAPES_MAX_DEPTH) return 1;
  for (i = 0; i < tl_depth; i++) {
    if (tl_stack[i] == fn) return 1; /* recursion: unknown */
  }
  n = a->num_inputs;
  /* Handle data of resource / variant inputs (the caller holds its
   * graph's lock). */
  if (n == op->num_inputs && n > 0) {
    handles = n <= 8 ? small
                     : (const tfe_handle_data**)tfe_calloc((size_t)n,
                                                           sizeof(void*));
    if (handles != NULL) {
      for (i = 0; i < n; i++) {
        TF_DataType t = a->input_types != NULL ? a->input_types[i] : TF_FLOAT;
        handles[i] = NULL;
        if (t == TF_RESOURCE || t == TF_VARIANT) {
          handles[i] = tfe_graph_handle_data_of(op->inputs[i].oper,
                                                op->inputs[i].index);
        }
      }
    }
  }
  st = TF_NewStatus();
  if (st == NULL) {
    if (handles != small) tfe_free(handles);
    return 1;
  }
  tl_stack[tl_depth++] = fn;
  {
    /* The body's nodes are inferred with their own operations current. */
    const TF_Operation* saved = tl_op;
    inst = tfe_fn_body_new(fn, lib, attrs, n, a->input_shapes,
                           (const tfe_handle_data* const*)handles,
                           a->input_values, st);
    tl_op = saved;
  }
  tl_depth--;
  if (handles != small) tfe_free(handles);
  if (inst == NULL) {
    if (is_shape_error(st)) {
      TF_SetStatus(s, TF_INVALID_ARGUMENT, TF_Message(st));
      ok = 0;
    }
    TF_DeleteStatus(st);
    return ok;
  }
  TF_DeleteStatus(st);
  if (tfe_fn_inst_num_rets(inst) == a->num_outputs) {
    const TF_Output* rets = tfe_fn_inst_ret_outputs(inst);
    for (i = 0; i < a->num_outputs; i++) {
      const tfe_shape* src = &rets[i].oper->output_shapes[rets[i].index];
      int64_t* dims = NULL;
      if (src->num_dims < 0) continue;
      if (src->num_dims > 0) {
        dims = (int64_t*)tfe_malloc((size_t)src->num_dims * sizeof(int64_t));
        if (dims == NULL) continue; /* stays unknown */
        memcpy(dims, src->dims, (size_t)src->num_dims * sizeof(int64_t));
      }
      out[i].num_dims = src->num_dims;
      out[i].dims = dims;
    }
  }
  tfe_fn_inst_free(inst);
  return 1;
}

int tfe_fn_shapes_by_name(const tfe_shape_infer_args* a, tfe_shape* out,
                          TF_Status* s) {
  const TF_Operation* op = tl_op;
  tfe_shape* tmp;
  int i, ok;
  if (op == NULL || a == NULL || a->def == NULL || a->num_outputs == 0) {
    return 1;
  }
  /* A registered op (or one with its own shape function) is not a call. */
  if (a->def->shape_fn != NULL || tfe_op_lookup(a->def->name) == a->def) {
    return 1;
  }
  if (op->graph == NULL || op->graph->flib == NULL ||
      tfe_flib_find_def(op->graph->flib, a->def) == NULL) {
    return 1;
  }
  tmp = (tfe_shape*)tfe_calloc((size_t)a->num_outputs, sizeof(tfe_shape));
  if (tmp == NULL) return 1;
  for (i = 0; i < a->num_outputs; i++) tmp[i].num_dims = -1;
  ok = tfe_fn_shapes_call(a, a->def->name, a->def, a->attrs, tmp, s);
  for (i = 0; i < a->num_outputs; i++) {
    if (ok && out[i].num_dims < 0 && tmp[i].num_dims >= 0) {
      out[i] = tmp[i];
    } else {
      tfe_free(tmp[i].dims);
    }
  }
  tfe_free(tmp);
  return ok;
}
