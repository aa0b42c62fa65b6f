/* Version numbers of the TF interface tfe implements (TF 2.21.0). */
#ifndef TFE_CORE_VERSION_H_
#define TFE_CORE_VERSION_H_

/* TF 2.21.0's GraphDef version: what graphs tfe writes say they were
 * produced by, what kernels are told (TF_GetGraphDefVersion), and the
 * version eager ops run at (removed ops are refused against it). */
#define TFE_GRAPH_DEF_VERSION 2474
#define TFE_GRAPH_DEF_VERSION_MIN_CONSUMER 0

#endif /* TFE_CORE_VERSION_H_ */
