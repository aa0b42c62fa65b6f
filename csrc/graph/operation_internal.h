/* Helpers shared by csrc/graph/operation*.c and graph_eval.c (private to
 * the graph-building files). */
#ifndef TFE_GRAPH_OPERATION_INTERNAL_H_
#define TFE_GRAPH_OPERATION_INTERNAL_H_

#include "graph/graph_internal.h"
#include "ops/attr_value.h"
#include "tensorflow/c/tf_tensor.h"

/* A new host tensor holding a copy of t's elements (strings deep-copied);
 * NULL when memory runs out. */
TF_Tensor* tfe_graph_copy_tensor(const TF_Tensor* t);

/* Decodes a serialized TensorShapeProto into a shape attr value (*out,
 * overwritten). 0 with INVALID_ARGUMENT when malformed. */
int tfe_graph_decode_shape_proto(const void* proto, size_t len,
                                 tfe_attr_value* out, TF_Status* s);

/* Handle data (graph_internal.h) helpers, in graph.c. */
void tfe_graph_handle_data_clear(tfe_handle_data* h);
/* Deep copy into *dst (overwritten); 0 on OOM (dst then empty). */
int tfe_graph_handle_data_copy(tfe_handle_data* dst,
                               const tfe_handle_data* src);
/* Output `index`'s handle data (NULL when unknown or empty). Caller holds
 * the graph's lock. */
const tfe_handle_data* tfe_graph_handle_data_of(const TF_Operation* op,
                                                int index);
/* Replaces output `index`'s handle data with *h (taken: *h is emptied).
 * 0 on OOM (h then cleared). Caller holds the graph's lock. */
int tfe_graph_handle_data_set(TF_Operation* op, int index,
                              tfe_handle_data* h);

/* The empty device string operations without a requested device share
 * (never freed; tfe_graph_op_free and TF_SetRequestedDevice know it). */
extern char tfe_graph_no_device[1];

#endif /* TFE_GRAPH_OPERATION_INTERNAL_H_ */
