/* grappler.h helpers over the TF_GrapplerItem a graph optimizer plugin is
 * given (struct in plugins/grappler_run.h): the nodes to preserve and the
 * fetch nodes, static graph properties (dtypes and shapes of every node's
 * inputs and outputs, from the graph's shape inference, with constant
 * values on request), and function libraries read from a GraphDef.
 * As in TF, the list functions copy names without NUL terminators into the
 * caller's storage. */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "graph/function_lib.h"
#include "graph/graph_internal.h"
#include "ops/proto_encode.h"
#include "plugins/grappler_run.h"
#include "tensorflow/c/experimental/grappler/grappler.h"

/* ---- node lists ---- */

static int list_size(const TF_GrapplerItem* item, int fetch, const char* fn,
                     int* num_values, size_t* storage_size,
                     TF_Status* status) {
  char* const* names;
  int n, i;
  size_t total = 0;
  if (num_values != NULL) *num_values = 0;
  if (storage_size != NULL) *storage_size = 0;
  if (item == NULL || num_values == NULL || storage_size == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: item, num_values and storage_size must not be NULL",
                    fn);
    return 0;
  }
  names = fetch ? item->fetch : item->preserve;
  n = fetch ? item->num_fetch : item->num_preserve;
  for (i = 0; i < n; i++) total += strlen(names[i]);
  *num_values = n;
  *storage_size = total;
  tfe_status_ok(status);
  return 1;
}

static void list_copy(const TF_GrapplerItem* item, int fetch, const char* fn,
                      char** values, size_t* lengths, int num_values,
                      void* storage, size_t storage_size, TF_Status* status) {
  char* const* names;
  char* p = (char*)storage;
  int n, i;
  if (item == NULL || (num_values > 0 && (values == NULL || lengths == NULL ||
                                          storage == NULL))) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: item, values, lengths and storage must not be NULL",
                    fn);
    return;
  }
  tfe_status_ok(status);
  names = fetch ? item->fetch : item->preserve;
  n = fetch ? item->num_fetch : item->num_preserve;
  for (i = 0; i < n && i < num_values; i++) {
    size_t len = strlen(names[i]);
    if ((size_t)(p - (char*)storage) + len > storage_size) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Not enough storage to hold the requested list of "
                      "nodes");
      return;
    }
    values[i] = p;
    lengths[i] = len;
    memcpy(p, names[i], len);
    p += len;
  }
}

void TF_GetNodesToPreserveListSize(const TF_GrapplerItem* item,
                                   int* num_values, size_t* storage_size,
                                   TF_Status* status) {
  list_size(item, 0, "TF_GetNodesToPreserveListSize", num_values,
            storage_size, status);
}

void TF_GetNodesToPreserveList(const TF_GrapplerItem* item, char** values,
                               size_t* lengths, int num_values, void* storage,
                               size_t storage_size, TF_Status* status) {
  list_copy(item, 0, "TF_GetNodesToPreserveList", values, lengths, num_values,
            storage, storage_size, status);
}

void TF_GetFetchNodesListSize(const TF_GrapplerItem* item, int* num_values,
                              size_t* storage_size, TF_Status* status) {
  list_size(item, 1, "TF_GetFetchNodesListSize", num_values, storage_size,
            status);
}

void TF_GetFetchNodesList(const TF_GrapplerItem* item, char** values,
                          size_t* lengths, int num_values, void* storage,
                          size_t storage_size, TF_Status* status) {
  list_copy(item, 1, "TF_GetFetchNodesList", values, lengths, num_values,
            storage, storage_size, status);
}

/* ---- graph properties ---- */

struct TF_GraphProperties {
  const TF_GrapplerItem* item;
  int inferred;
  int input_values;  /* include_input_tensor_values */
  int output_values; /* include_output_tensor_values */
};

TF_GraphProperties* TF_NewGraphProperties(const TF_GrapplerItem* item) {
  TF_GraphProperties* p;
  if (item == NULL) return NULL;
  p = (TF_GraphProperties*)tfe_calloc(1, sizeof(*p));
  if (p != NULL) p->item = item;
  return p;
}

void TF_DeleteGraphProperties(TF_GraphProperties* graph_properties) {
  tfe_free(graph_properties);
}

void TF_InferStatically(TF_GraphProperties* graph_properties,
                        TF_Bool assume_valid_feeds,
                        TF_Bool aggressive_shape_inference,
                        TF_Bool include_input_tensor_values,
                        TF_Bool include_output_tensor_values, TF_Status* s) {
  (void)assume_valid_feeds;
  (void)aggressive_shape_inference;
  if (graph_properties == NULL || graph_properties->item == NULL ||
      graph_properties->item->graph == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_InferStatically: graph_properties must come from "
                    "TF_NewGraphProperties on the optimizer's item");
    return;
  }
  /* The graph's operations were shape-inferred as they were added; the
   * properties read those results. */
  graph_properties->inferred = 1;
  graph_properties->input_values = include_input_tensor_values != 0;
  graph_properties->output_values = include_output_tensor_values != 0;
  tfe_status_ok(s);
}

/* The operation `name` of the item's graph when properties were inferred
 * (hold the graph's lock), else NULL. */
static const TF_Operation* props_op(TF_GraphProperties* p, const char* name) {
  if (p == NULL || !p->inferred || name == NULL) return NULL;
  return tfe_graph_find(p->item->graph, name);
}

static TF_Graph* props_graph(TF_GraphProperties* p) {
  return p != NULL && p->item != NULL ? p->item->graph : NULL;
}

static void list_size_props(TF_GraphProperties* p, const char* name,
                            int* num_values, int inputs, TF_Status* status) {
  TF_Graph* g = props_graph(p);
  const TF_Operation* op;
  if (num_values == NULL || g == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "graph_properties and num_values must not be NULL");
    return;
  }
  pthread_mutex_lock(&g->mu);
  op = props_op(p, name);
  *num_values = op == NULL ? 0 : inputs ? op->num_inputs : op->num_outputs;
  pthread_mutex_unlock(&g->mu);
  tfe_status_ok(status);
}

void TF_GetInputPropertiesListSize(TF_GraphProperties* graph_properties,
                                   const char* name, int* num_values,
                                   TF_Status* status) {
  list_size_props(graph_properties, name, num_values, 1, status);
}

void TF_GetOutputPropertiesListSize(TF_GraphProperties* graph_properties,
                                    const char* name, int* num_values,
                                    TF_Status* status) {
  list_size_props(graph_properties, name, num_values, 0, status);
}

/* The constant value of output `index` of op when op is a Const (the
 * TensorProto body), appended as field 3 of a TensorProperties. */
static void append_const_value(tfe_pbw* w, const TF_Operation* op) {
  const tfe_attr_value* v;
  tfe_pbw av = {0};
  tfe_pbr r;
  int field, wire;
  if (strcmp(op->op_type, "Const") != 0) return;
  v = tfe_attrs_find(&op->attrs, "value");
  if (v == NULL || v->is_list || v->type != TF_ATTR_TENSOR) return;
  /* AttrValue.tensor is field 8: take its body. */
  tfe_pb_attr_value(&av, v);
  if (av.oom) {
    tfe_pbw_free(&av);
    w->oom = 1;
    return;
  }
  r.p = av.data;
  r.end = av.data + av.len;
  while (r.p < r.end && tfe_pbr_tag(&r, &field, &wire)) {
    if (field == 8 && wire == 2) {
      tfe_pbr sub;
      if (tfe_pbr_len(&r, &sub)) {
        tfe_pbw_lenfield(w, 3, sub.p, (size_t)(sub.end - sub.p));
      }
      break;
    }
    if (!tfe_pbr_skip(&r, field, wire)) break;
  }
  tfe_pbw_free(&av);
}

/* OpInfo.TensorProperties of output `index` of op: dtype = 1, shape = 2,
 * value = 3. */
static TF_Buffer* tensor_properties(const TF_Operation* op, int index,
                                    int with_value) {
  tfe_pbw w = {0};
  tfe_pbw shape = {0};
  const tfe_shape* sh = &op->output_shapes[index];
  tfe_pbw_uint(&w, 1, (uint64_t)op->output_types[index]);
  tfe_pb_shape(&shape, sh->dims, sh->num_dims);
  tfe_pbw_sub(&w, 2, &shape);
  if (with_value) append_const_value(&w, op);
  return tfe_pb_to_buffer(&w);
}

static void list_props(TF_GraphProperties* p, const char* name,
                       TF_Buffer** properties, int num_values, int inputs,
                       TF_Status* status) {
  TF_Graph* g = props_graph(p);
  const TF_Operation* op;
  int i, n;
  if (g == NULL || (num_values > 0 && properties == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "graph_properties and properties must not be NULL");
    return;
  }
  tfe_status_ok(status);
  pthread_mutex_lock(&g->mu);
  op = props_op(p, name);
  n = op == NULL ? 0 : inputs ? op->num_inputs : op->num_outputs;
  if (num_values < n) n = num_values;
  for (i = 0; i < n; i++) {
    const TF_Operation* src = op;
    int index = i, with_value = p->output_values;
    TF_Buffer* b;
    if (inputs) {
      src = op->inputs[i].oper;
      index = op->inputs[i].index;
      with_value = p->input_values;
      if (src == NULL || index < 0 || index >= src->num_outputs) continue;
    }
    if (properties[i] == NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "properties[%d] must be a TF_Buffer", i);
      break;
    }
    b = tensor_properties(src, index, with_value);
    if (b == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "out of memory describing node '%s'", name);
      break;
    }
    /* Hand the bytes over to the caller's buffer. */
    if (properties[i]->data_deallocator != NULL) {
      properties[i]->data_deallocator((void*)properties[i]->data,
                                      properties[i]->length);
    }
    properties[i]->data = b->data;
    properties[i]->length = b->length;
    properties[i]->data_deallocator = b->data_deallocator;
    b->data = NULL;
    b->length = 0;
    b->data_deallocator = NULL;
    TF_DeleteBuffer(b);
  }
  pthread_mutex_unlock(&g->mu);
}

void TF_GetInputPropertiesList(TF_GraphProperties* graph_properties,
                               const char* name, TF_Buffer** properties,
                               int num_values, TF_Status* status) {
  list_props(graph_properties, name, properties, num_values, 1, status);
}

void TF_GetOutputPropertiesList(TF_GraphProperties* graph_properties,
                                const char* name, TF_Buffer** properties,
                                int num_values, TF_Status* status) {
  list_props(graph_properties, name, properties, num_values, 0, status);
}

/* ---- function libraries ---- */

struct TF_FunctionLibraryDefinition {
  tfe_flib* lib;
};

TF_FunctionLibraryDefinition* TF_NewFunctionLibraryDefinition(
    const TF_Buffer* graph_buf, TF_Status* status) {
  TF_FunctionLibraryDefinition* d;
  tfe_pbr r;
  int field, wire;
  if (graph_buf == NULL || (graph_buf->length > 0 && graph_buf->data == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_NewFunctionLibraryDefinition: graph_buf must hold a "
                    "GraphDef");
    return NULL;
  }
  if (!tfe_pb_well_formed(graph_buf->data, graph_buf->length)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "Invalid GraphDef");
    return NULL;
  }
  d = (TF_FunctionLibraryDefinition*)tfe_calloc(1, sizeof(*d));
  if (d != NULL) d->lib = tfe_flib_new();
  if (d == NULL || d->lib == NULL) {
    tfe_free(d);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory in TF_NewFunctionLibraryDefinition");
    return NULL;
  }
  /* GraphDef.library is field 2 (a FunctionDefLibrary). */
  r.p = (const unsigned char*)graph_buf->data;
  r.end = r.p + graph_buf->length;
  while (r.p < r.end && tfe_pbr_tag(&r, &field, &wire)) {
    if (field == 2 && wire == 2) {
      tfe_pbr sub;
      if (!tfe_pbr_len(&r, &sub) ||
          !tfe_flib_add_library(d->lib, sub.p, (size_t)(sub.end - sub.p),
                                status)) {
        if (TF_GetCode(status) == TF_OK) {
          tfe_status_setf(status, TF_INVALID_ARGUMENT, "Invalid GraphDef");
        }
        TF_DeleteFunctionLibraryDefinition(d);
        return NULL;
      }
    } else if (!tfe_pbr_skip(&r, field, wire)) {
      break;
    }
  }
  tfe_status_ok(status);
  return d;
}

void TF_DeleteFunctionLibraryDefinition(TF_FunctionLibraryDefinition* fn_lib) {
  if (fn_lib == NULL) return;
  tfe_flib_free(fn_lib->lib);
  tfe_free(fn_lib);
}

void TF_LookUpOpDef(TF_FunctionLibraryDefinition* fn_lib, const char* name,
                    TF_Buffer* buf, TF_Status* s) {
  const tfe_op_def* def;
  tfe_pbw w = {0};
  TF_Buffer* b;
  if (fn_lib == NULL || name == NULL || buf == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_LookUpOpDef: fn_lib, name and buf must not be NULL");
    return;
  }
  def = tfe_op_lookup(name);
  if (def == NULL) def = tfe_flib_signature(fn_lib->lib, name);
  if (def == NULL) {
    tfe_status_setf(s, TF_NOT_FOUND,
                    "Op type not registered '%s' in binary running on tfe. "
                    "Make sure the Op and Kernel are registered in the "
                    "binary running in this process.",
                    name);
    return;
  }
  tfe_pb_op_def(&w, def);
  b = tfe_pb_to_buffer(&w);
  if (b == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory in TF_LookUpOpDef");
    return;
  }
  if (buf->data_deallocator != NULL) {
    buf->data_deallocator((void*)buf->data, buf->length);
  }
  buf->data = b->data;
  buf->length = b->length;
  buf->data_deallocator = b->data_deallocator;
  b->data = NULL;
  b->length = 0;
  b->data_deallocator = NULL;
  TF_DeleteBuffer(b);
  tfe_status_ok(s);
}
