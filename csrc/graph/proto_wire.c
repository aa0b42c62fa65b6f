/* A schema-free check that bytes are a well-formed protobuf message
 * (the wire-format reader is core/pb.h). */
#include "core/pb.h"
#include "graph/graph_internal.h"

int tfe_proto_wire_valid(const void* data, size_t len) {
  return tfe_pb_well_formed(data, len);
}
