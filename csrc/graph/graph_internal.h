/* Shared helpers of the graph/session API (csrc/graph/).
 *
 * tfe has no graph runtime. The files here implement the parts of
 * tensorflow/c/c_api.h that only hold settings (session_options.c,
 * import_options.c, graph.c for the empty graph object) and mark every
 * other function of that API as a TF_UNIMPLEMENTED stub (see
 * csrc/core/unimplemented.h): operation.c (building and querying
 * operations), import.c (GraphDef import), function.c (functions, while
 * loops, gradients), session.c (sessions, deprecated sessions, device
 * lists of sessions), server.c (servers, ApiDef maps, log listeners). */
#ifndef TFE_GRAPH_GRAPH_INTERNAL_H_
#define TFE_GRAPH_GRAPH_INTERNAL_H_

#include <stdatomic.h>
#include <stddef.h>

#include "core/unimplemented.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/logging.h"

/* For stubs without a TF_Status: logs "<name> is not implemented in tfe"
 * as a warning the first time the calling function runs, then stays
 * quiet (graph-building code calls the same setter many times). `name`
 * must be a string literal. */
#define TFE_GRAPH_WARN_ONCE(name)                                        \
  do {                                                                   \
    static atomic_flag tfe_warned_ = ATOMIC_FLAG_INIT;                   \
    if (!atomic_flag_test_and_set(&tfe_warned_)) {                       \
      TF_Log(TF_WARNING, "%s", name " is not implemented in tfe");       \
    }                                                                    \
  } while (0)

/* 1 when data[0..len) is a well-formed protobuf message on the wire:
 * every tag has a non-zero field number and a known wire type, varints
 * end within 10 bytes, lengths and fixed-size values fit in the data, and
 * groups are balanced (nesting at most 64 deep). Nested messages inside
 * length-delimited fields are not inspected (without the schema they
 * cannot be told apart from bytes). An empty message is valid. */
int tfe_proto_wire_valid(const void* data, size_t len);

#endif /* TFE_GRAPH_GRAPH_INTERNAL_H_ */
