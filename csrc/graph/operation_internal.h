/* Helpers shared by csrc/graph/operation*.c and graph_eval.c (private to
 * the graph-building files). */
#ifndef TFE_GRAPH_OPERATION_INTERNAL_H_
#define TFE_GRAPH_OPERATION_INTERNAL_H_

#include "tensorflow/c/tf_tensor.h"

/* A new host tensor holding a copy of t's elements (strings deep-copied);
 * NULL when memory runs out. */
TF_Tensor* tfe_graph_copy_tensor(const TF_Tensor* t);

/* The empty device string operations without a requested device share
 * (never freed; tfe_graph_op_free and TF_SetRequestedDevice know it). */
extern char tfe_graph_no_device[1];

#endif /* TFE_GRAPH_OPERATION_INTERNAL_H_ */
