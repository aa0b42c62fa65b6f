/* tfe: the part of TensorFlow 2.21's tensorflow/c/c_api_experimental.h
 * that is not about plugins (see csrc/plugins/library.c for those).
 *
 * Implemented: TF_MakeInternalErrorStatus, TF_CreateConfig and
 * TF_CreateRunOptions (hand-encoded protos), TF_EnableXLACompilation (a
 * logged no-op: there is no XLA), the TF_ShapeAndTypeList helpers, the
 * TF_AttrBuilder (checked against the op and kernel registries),
 * TF_GetNumberAttrForOpListInput, TFE_NewTensorHandleFromScalar and
 * TFE_InferShapes (csrc/ops/shape_infer.h).
 * Everything else reports TF_UNIMPLEMENTED naming itself, or carries the
 * comment marker when it has no status argument. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/unimplemented.h"
#include "eager/eager_internal.h"
#include "graph/session_priv.h"
#include "kernels/cpu/collective.h"
#include "kernels/kernel.h"
#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "ops/shape_infer.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/logging.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_tensor.h"

/* ------------------------------------------------------------------------
 * Status and config helpers. */

void TF_MakeInternalErrorStatus(TF_Status* status, const char* errMsg) {
  if (status == NULL) return;
  TF_SetStatus(status, TF_INTERNAL, errMsg != NULL ? errMsg : "");
}

void TF_EnableXLACompilation(TF_SessionOptions* options,
                             unsigned char enable) {
  static int logged = 0; /* racy at worst: the message prints twice */
  (void)options;
  if (enable && !logged) {
    logged = 1;
    TF_Log(TF_INFO,
           "TF_EnableXLACompilation: tfe has no XLA; the setting is ignored");
  }
}

/* Minimal protobuf writer over a fixed buffer (the messages are tiny). */
typedef struct pbw {
  unsigned char buf[96];
  size_t len;
} pbw;

static void pbw_varint(pbw* w, uint64_t v) {
  do {
    unsigned char b = (unsigned char)(v & 0x7f);
    v >>= 7;
    if (v != 0) b |= 0x80;
    w->buf[w->len++] = b;
  } while (v != 0);
}

static void pbw_tag(pbw* w, unsigned field, unsigned wire) {
  pbw_varint(w, ((uint64_t)field << 3) | wire);
}

/* A length-delimited field whose contents are `inner`. */
static void pbw_sub(pbw* w, unsigned field, const pbw* inner) {
  pbw_tag(w, field, 2);
  pbw_varint(w, inner->len);
  memcpy(w->buf + w->len, inner->buf, inner->len);
  w->len += inner->len;
}

TF_Buffer* TF_CreateConfig(unsigned char enable_xla_compilation,
                           unsigned char gpu_memory_allow_growth,
                           unsigned int num_cpu_devices) {
  pbw cfg = {{0}, 0}, entry = {{0}, 0}, gpu = {{0}, 0}, opt = {{0}, 0},
      graph = {{0}, 0};
  /* ConfigProto.device_count (1): map entry {key (1): "CPU", value (2)}. */
  pbw_tag(&entry, 1, 2);
  pbw_varint(&entry, 3);
  memcpy(entry.buf + entry.len, "CPU", 3);
  entry.len += 3;
  if (num_cpu_devices != 0) {
    pbw_tag(&entry, 2, 0);
    /* int32 field: values above INT32_MAX wrap as in protobuf. */
    pbw_varint(&entry,
               (uint64_t)(int64_t)(int32_t)(uint32_t)num_cpu_devices);
  }
  pbw_sub(&cfg, 1, &entry);
  /* ConfigProto.gpu_options (6): GPUOptions.allow_growth (4). */
  if (gpu_memory_allow_growth) {
    pbw_tag(&gpu, 4, 0);
    pbw_varint(&gpu, 1);
  }
  pbw_sub(&cfg, 6, &gpu);
  /* ConfigProto.graph_options (10) -> GraphOptions.optimizer_options (3)
   * -> OptimizerOptions.global_jit_level (5): ON_1 = 1, OFF = -1. */
  pbw_tag(&opt, 5, 0);
  pbw_varint(&opt, enable_xla_compilation ? 1u : (uint64_t)(int64_t)-1);
  pbw_sub(&graph, 3, &opt);
  pbw_sub(&cfg, 10, &graph);
  return TF_NewBufferFromString(cfg.buf, cfg.len);
}

TF_Buffer* TF_CreateRunOptions(unsigned char enable_full_trace) {
  pbw w = {{0}, 0};
  if (enable_full_trace) {
    /* RunOptions.trace_level (1) = FULL_TRACE (3). */
    pbw_tag(&w, 1, 0);
    pbw_varint(&w, 3);
  }
  return TF_NewBufferFromString(w.buf, w.len);
}

/* ------------------------------------------------------------------------
 * Graph and session functions tfe does not provide (the checkpoint reader
 * is in checkpoint_reader.c). */

/* TF_GraphDebugString: see graph_debug.c. */

/* TF_FunctionDebugString: see function.c. */

/* The named FIFO queue helpers run the session on the graph nodes named
 * after tensor_id (TF's naming): "fifo_queue_dequeue_<id>" is fetched;
 * "fifo_queue_enqueue_<id>" is run with the tensor fed to placeholder
 * "arg_tensor_enqueue_<id>". Both block as their queue op does. */
static TF_Operation* named_queue_op(TF_Session* session, const char* prefix,
                                    int tensor_id) {
  char name[64];
  TF_Operation* op;
  snprintf(name, sizeof(name), "%s%d", prefix, tensor_id);
  pthread_mutex_lock(&session->graph->mu);
  op = tfe_graph_find(session->graph, name);
  pthread_mutex_unlock(&session->graph->mu);
  return op;
}

TF_Tensor* TF_DequeueNamedTensor(TF_Session* session, int tensor_id,
                                 TF_Status* status) {
  TF_Operation* op;
  TF_Output out;
  TF_Tensor* t = NULL;
  if (!tfe_session_check(session, "TF_DequeueNamedTensor", status)) {
    return NULL;
  }
  op = named_queue_op(session, "fifo_queue_dequeue_", tensor_id);
  if (op == NULL) {
    tfe_status_setf(status, TF_INTERNAL,
                    "Unable to find the dequeue node in the TF graph.");
    return NULL;
  }
  out.oper = op;
  out.index = 0;
  TF_SessionRun(session, NULL, NULL, NULL, 0, &out, &t, 1, NULL, 0, NULL,
                status);
  return TF_GetCode(status) == TF_OK ? t : NULL;
}

void TF_EnqueueNamedTensor(TF_Session* session, int tensor_id,
                           TF_Tensor* tensor, TF_Status* status) {
  TF_Operation* enq;
  TF_Operation* arg;
  TF_Output in;
  if (!tfe_session_check(session, "TF_EnqueueNamedTensor", status)) return;
  if (tensor == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_EnqueueNamedTensor: tensor is NULL");
    return;
  }
  enq = named_queue_op(session, "fifo_queue_enqueue_", tensor_id);
  if (enq == NULL) {
    tfe_status_setf(status, TF_INTERNAL,
                    "Unable to find the enqueue node in the TF graph.");
    return;
  }
  arg = named_queue_op(session, "arg_tensor_enqueue_", tensor_id);
  if (arg == NULL) {
    tfe_status_setf(status, TF_INTERNAL,
                    "Unable to find the placeholder node as input to enqueue "
                    "in the TF graph.");
    return;
  }
  in.oper = arg;
  in.index = 0;
  TF_SessionRun(session, NULL, &in, &tensor, 1, NULL, NULL, 0,
                (const TF_Operation* const*)&enq, 1, NULL, status);
}

/* ------------------------------------------------------------------------
 * Attr builder: an op name and a set of attrs. */

struct TF_AttrBuilder {
  char* op_name;
  tfe_attrs attrs;
};

TF_AttrBuilder* TF_NewAttrBuilder(const char* op_name) {
  TF_AttrBuilder* b;
  if (op_name == NULL) return NULL;
  b = (TF_AttrBuilder*)tfe_calloc(1, sizeof(*b));
  if (b == NULL) return NULL;
  b->op_name = tfe_strdup(op_name);
  if (b->op_name == NULL) {
    tfe_free(b);
    return NULL;
  }
  tfe_attrs_init(&b->attrs);
  return b;
}

void TF_DeleteAttrBuilder(TF_AttrBuilder* builder) {
  if (builder == NULL) return;
  tfe_attrs_destroy(&builder->attrs);
  tfe_free(builder->op_name);
  tfe_free(builder);
}

void TF_AttrBuilderSetType(TF_AttrBuilder* builder, const char* attr_name,
                           TF_DataType value) {
  tfe_attr_value v;
  if (builder == NULL || attr_name == NULL) return;
  memset(&v, 0, sizeof(v));
  tfe_attr_value_set_type(&v, value);
  (void)tfe_attrs_put(&builder->attrs, attr_name, &v);
}

void TF_AttrBuilderSetTypeList(TF_AttrBuilder* builder, const char* attr_name,
                               const TF_DataType* values, int num_values) {
  tfe_attr_value v;
  if (builder == NULL || attr_name == NULL || num_values < 0) return;
  if (values == NULL && num_values > 0) return;
  memset(&v, 0, sizeof(v));
  if (!tfe_attr_value_set_type_list(&v, values, num_values)) {
    tfe_attr_value_clear(&v);
    return;
  }
  (void)tfe_attrs_put(&builder->attrs, attr_name, &v);
}

void TF_AttrBuilderCheckCanRunOnDevice(TF_AttrBuilder* builder,
                                       const char* device_type,
                                       TF_Status* status) {
  const tfe_op_def* def;
  tfe_attrs attrs;
  if (builder == NULL || device_type == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_AttrBuilderCheckCanRunOnDevice: %s is NULL",
                    builder == NULL ? "builder" : "device_type");
    return;
  }
  def = tfe_op_lookup(builder->op_name);
  if (def == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Op type not registered '%s' in binary running on tfe.",
                    builder->op_name);
    return;
  }
  tfe_kernels_ensure_builtins();
  /* Defaults go into a copy so the builder keeps only what was set. */
  tfe_attrs_init(&attrs);
  if (!tfe_attrs_merge(&attrs, &builder->attrs)) {
    tfe_attrs_destroy(&attrs);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_AttrBuilderCheckCanRunOnDevice: out of memory");
    return;
  }
  if (tfe_op_def_complete_attrs(def, &attrs, status) &&
      tfe_kernel_find(def, device_type, &attrs, status) != NULL) {
    tfe_status_ok(status);
  }
  tfe_attrs_destroy(&attrs);
}

const char* TF_GetNumberAttrForOpListInput(const char* op_name,
                                           int input_index,
                                           TF_Status* status) {
  const tfe_op_def* def;
  const tfe_arg_def* arg;
  if (op_name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GetNumberAttrForOpListInput: op_name is NULL");
    return NULL;
  }
  def = tfe_op_lookup(op_name);
  if (def == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Op type not registered '%s' in binary running on tfe.",
                    op_name);
    return NULL;
  }
  if (input_index < 0 || input_index >= def->num_inputs) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%d out of range for %s (it has %d inputs)", input_index,
                    op_name, def->num_inputs);
    return NULL;
  }
  arg = &def->inputs[input_index];
  if (arg->number_attr == NULL || arg->number_attr[0] == '\0') {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "%s does not have number_attr() defined for input %d "
                    "('%s')",
                    op_name, input_index, arg->name);
    return NULL;
  }
  tfe_status_ok(status);
  return arg->number_attr;
}

/* ------------------------------------------------------------------------
 * Eager helpers. */

TFE_TensorHandle* TFE_NewTensorHandleFromScalar(TF_DataType data_type,
                                                void* data, size_t len,
                                                TF_Status* status) {
  size_t size;
  TF_Tensor* t;
  TFE_TensorHandle* h;
  if (data == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewTensorHandleFromScalar: data is NULL");
    return NULL;
  }
  size = TF_DataTypeSize(data_type);
  if (size == 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewTensorHandleFromScalar: dtype %d has no fixed "
                    "element size (cannot be copied as bytes)",
                    (int)data_type);
    return NULL;
  }
  if (len != size) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewTensorHandleFromScalar: len is %zu but one "
                    "element of dtype %d takes %zu bytes",
                    len, (int)data_type, size);
    return NULL;
  }
  t = TF_AllocateTensor(data_type, NULL, 0, len);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_NewTensorHandleFromScalar: out of memory");
    return NULL;
  }
  memcpy(TF_TensorData(t), data, len);
  h = TFE_NewTensorHandle(t, status);
  TF_DeleteTensor(t);
  return h;
}

void TFE_EnableCollectiveOps(TFE_Context* ctx, const void* proto,
                             size_t proto_len, TF_Status* status) {
  (void)ctx;
  (void)proto;
  (void)proto_len;
  TFE_UNIMPLEMENTED(status, "TFE_EnableCollectiveOps");
}

/* `status` is the abort's status (an input, as in TF): every waiting and
 * every later collective of ctx fails with it (kernels/cpu/collective.h).
 * A NULL argument or an OK status does nothing. */
void TFE_AbortCollectiveOps(TFE_Context* ctx, TF_Status* status) {
  if (ctx == NULL || status == NULL) return;
  tfe_collectives_abort(ctx->id, TF_GetCode(status), TF_Message(status));
}

void TFE_CollectiveOpsCheckPeerHealth(TFE_Context* ctx, const char* task,
                                      int64_t timeout_in_ms,
                                      TF_Status* status) {
  (void)ctx;
  (void)task;
  (void)timeout_in_ms;
  TFE_UNIMPLEMENTED(status, "TFE_CollectiveOpsCheckPeerHealth");
}

/* ------------------------------------------------------------------------
 * TF_ShapeAndTypeList: plain C memory (tfe_malloc/tfe_free). */

TF_ShapeAndTypeList* TF_NewShapeAndTypeList(int num_shapes) {
  TF_ShapeAndTypeList* l;
  if (num_shapes < 0) return NULL;
  l = (TF_ShapeAndTypeList*)tfe_calloc(1, sizeof(*l));
  if (l == NULL) return NULL;
  l->num_items = num_shapes;
  if (num_shapes > 0) {
    l->items =
        (TF_ShapeAndType*)tfe_calloc((size_t)num_shapes, sizeof(*l->items));
    if (l->items == NULL) {
      tfe_free(l);
      return NULL;
    }
  }
  return l;
}

static TF_ShapeAndType* entry_at(TF_ShapeAndTypeList* l, int index) {
  if (l == NULL || index < 0 || index >= l->num_items || l->items == NULL)
    return NULL;
  return &l->items[index];
}

void TF_ShapeAndTypeListSetShape(TF_ShapeAndTypeList* shape_list, int index,
                                 const int64_t* dims, int num_dims) {
  TF_ShapeAndType* e = entry_at(shape_list, index);
  int64_t* copy = NULL;
  if (e == NULL || num_dims < 0 || (dims == NULL && num_dims > 0)) return;
  if (num_dims > 0) {
    copy = (int64_t*)tfe_malloc((size_t)num_dims * sizeof(int64_t));
    if (copy == NULL) return;
    memcpy(copy, dims, (size_t)num_dims * sizeof(int64_t));
  }
  tfe_free(e->dims);
  e->dims = copy;
  e->num_dims = num_dims;
}

void TF_ShapeAndTypeListSetUnknownShape(TF_ShapeAndTypeList* shape_list,
                                        int index) {
  TF_ShapeAndType* e = entry_at(shape_list, index);
  if (e == NULL) return;
  tfe_free(e->dims);
  e->dims = NULL;
  e->num_dims = -1;
}

void TF_ShapeAndTypeListSetDtype(TF_ShapeAndTypeList* shape_list, int index,
                                 TF_DataType dtype) {
  TF_ShapeAndType* e = entry_at(shape_list, index);
  if (e != NULL) e->dtype = dtype;
}

void TF_DeleteShapeAndTypeList(TF_ShapeAndTypeList* shape_list) {
  int i;
  if (shape_list == NULL) return;
  if (shape_list->items != NULL) {
    for (i = 0; i < shape_list->num_items; i++)
      tfe_free(shape_list->items[i].dims);
    tfe_free(shape_list->items);
  }
  tfe_free(shape_list);
}

void TF_DeleteShapeAndTypeListArray(TF_ShapeAndTypeList** shape_list_array,
                                    int num_items) {
  int i;
  if (shape_list_array == NULL) return;
  for (i = 0; i < num_items; i++)
    TF_DeleteShapeAndTypeList(shape_list_array[i]);
  free(shape_list_array);
}

/* TFE_InferShapes: runs the op's static shape inference (the same rules
 * as TF_FinishOperation, or a plugin's shape function) on the given input
 * shapes, optional constant inputs and partial shape values. The op's
 * inputs are not used, only its type and attrs. For a resource input, the
 * first entry of its input_resource_shapes_and_types list is the shape of
 * the value behind the handle. Output handle data is not tracked: every
 * *output_resource_shapes_and_types entry is NULL. */
void TFE_InferShapes(TFE_Op* op, TF_ShapeAndTypeList* input_shapes,
                     TF_Tensor** input_tensors,
                     TF_ShapeAndTypeList* input_tensor_as_shapes,
                     TF_ShapeAndTypeList** input_resource_shapes_and_types,
                     TF_ShapeAndTypeList** output_shapes,
                     TF_ShapeAndTypeList*** output_resource_shapes_and_types,
                     TF_Status* status) {
  tfe_attrs attrs;
  tfe_shape* ins = NULL;
  tfe_shape* as_shapes = NULL;
  tfe_shape* handles = NULL;
  tfe_shape* outs = NULL;
  TF_DataType* in_types = NULL;
  TF_DataType* out_types = NULL;
  TF_ShapeAndTypeList* result = NULL;
  tfe_shape_infer_args args;
  int i, n_in, n_expected = 0, n_out = 0;
  if (output_shapes != NULL) *output_shapes = NULL;
  if (output_resource_shapes_and_types != NULL)
    *output_resource_shapes_and_types = NULL;
  if (!tfe_op_check(op, "TFE_InferShapes", status)) return;
  if (op->def == NULL) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "TFE_InferShapes: the op has no type");
    return;
  }
  if (input_shapes == NULL || output_shapes == NULL ||
      input_shapes->num_items < 0 ||
      (input_shapes->num_items > 0 && input_shapes->items == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_InferShapes: input_shapes and output_shapes are "
                    "required");
    return;
  }
  n_in = input_shapes->num_items;
  tfe_attrs_init(&attrs);
  if (!tfe_attrs_merge(&attrs, &op->attrs)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_InferShapes: out of memory");
    goto done;
  }
  if (!tfe_op_def_complete_attrs(op->def, &attrs, status)) goto done;
  for (i = 0; i < op->def->num_inputs; i++) {
    int len = 0;
    if (!tfe_op_def_arg_length(op->def, &op->def->inputs[i], &attrs, &len,
                               status)) {
      goto done;
    }
    n_expected += len;
  }
  if (n_expected != n_in) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Wrong number of inputs passed: %d while %d expected "
                    "based on NodeDef",
                    n_in, n_expected);
    goto done;
  }
  if (!tfe_op_def_output_types(op->def, &attrs, NULL, 0, &n_out, status)) {
    goto done;
  }
  ins = (tfe_shape*)tfe_calloc((size_t)n_in + 1, sizeof(*ins));
  as_shapes = (tfe_shape*)tfe_calloc((size_t)n_in + 1, sizeof(*as_shapes));
  handles = (tfe_shape*)tfe_calloc((size_t)n_in + 1, sizeof(*handles));
  in_types = (TF_DataType*)tfe_calloc((size_t)n_in + 1, sizeof(*in_types));
  outs = (tfe_shape*)tfe_calloc((size_t)n_out + 1, sizeof(*outs));
  out_types = (TF_DataType*)tfe_calloc((size_t)n_out + 1, sizeof(*out_types));
  if (ins == NULL || as_shapes == NULL || handles == NULL ||
      in_types == NULL || outs == NULL ||
      out_types == NULL ||
      !tfe_op_def_output_types(op->def, &attrs, out_types, n_out, &n_out,
                               status)) {
    if (TF_GetCode(status) == TF_OK) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TFE_InferShapes: out of memory");
    }
    goto done;
  }
  for (i = 0; i < n_in; i++) {
    const TF_ShapeAndType* e = &input_shapes->items[i];
    ins[i].num_dims = e->num_dims < 0 ? -1 : e->num_dims;
    ins[i].dims = e->num_dims > 0 ? e->dims : NULL;
    in_types[i] = e->dtype;
    as_shapes[i].num_dims = -1;
    handles[i].num_dims = -1;
    /* The first shape-and-type of a resource input is its value's shape. */
    if (input_resource_shapes_and_types != NULL &&
        input_resource_shapes_and_types[i] != NULL &&
        input_resource_shapes_and_types[i]->num_items > 0 &&
        input_resource_shapes_and_types[i]->items != NULL &&
        input_resource_shapes_and_types[i]->items[0].num_dims >= 0) {
      const TF_ShapeAndType* h = &input_resource_shapes_and_types[i]->items[0];
      handles[i].num_dims = h->num_dims;
      handles[i].dims = h->dims;
    }
    if (input_tensor_as_shapes != NULL &&
        i < input_tensor_as_shapes->num_items &&
        input_tensor_as_shapes->items != NULL &&
        input_tensor_as_shapes->items[i].num_dims >= 0) {
      as_shapes[i].num_dims = input_tensor_as_shapes->items[i].num_dims;
      as_shapes[i].dims = input_tensor_as_shapes->items[i].dims;
    }
  }
  memset(&args, 0, sizeof args);
  args.def = op->def;
  args.attrs = &attrs;
  args.num_inputs = n_in;
  args.input_shapes = ins;
  args.input_types = in_types;
  args.input_values = input_tensors;
  args.input_as_shapes = as_shapes;
  args.input_handle_shapes = handles;
  args.num_outputs = n_out;
  if (!tfe_shape_infer(&args, op->def->name, outs, status)) goto done;
  result = TF_NewShapeAndTypeList(n_out);
  if (result == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_InferShapes: out of memory");
    goto done;
  }
  for (i = 0; i < n_out; i++) {
    if (outs[i].num_dims < 0) {
      TF_ShapeAndTypeListSetUnknownShape(result, i);
    } else {
      TF_ShapeAndTypeListSetShape(result, i, outs[i].dims, outs[i].num_dims);
      if (outs[i].num_dims > 0 && result->items[i].dims == NULL) {
        TF_DeleteShapeAndTypeList(result);
        result = NULL;
        tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                        "TFE_InferShapes: out of memory");
        goto done;
      }
    }
    TF_ShapeAndTypeListSetDtype(result, i, out_types[i]);
  }
  if (output_resource_shapes_and_types != NULL) {
    /* Released by TF_DeleteShapeAndTypeListArray, which uses free(). */
    TF_ShapeAndTypeList** res = (TF_ShapeAndTypeList**)calloc(
        (size_t)n_out + 1, sizeof(TF_ShapeAndTypeList*));
    if (res == NULL) {
      TF_DeleteShapeAndTypeList(result);
      result = NULL;
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TFE_InferShapes: out of memory");
      goto done;
    }
    *output_resource_shapes_and_types = res;
  }
  *output_shapes = result;
done:
  if (outs != NULL) {
    for (i = 0; i < n_out; i++) tfe_free(outs[i].dims);
  }
  tfe_free(ins);
  tfe_free(as_shapes);
  tfe_free(handles);
  tfe_free(in_types);
  tfe_free(outs);
  tfe_free(out_types);
  tfe_attrs_destroy(&attrs);
}

/* ------------------------------------------------------------------------
 * Graph import and functions. */

/* TF_ImportGraphDefOptionsSetValidateColocationConstraints: see import.c. */

/* TF_GraphRemoveFunction: see function.c. */
