/* TF_SessionOptions: a target string and a serialized ConfigProto, read
 * by TF_NewSession (session.c). */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "graph/graph_internal.h"
#include "graph/session_internal.h"

TF_SessionOptions* TF_NewSessionOptions(void) {
  TF_SessionOptions* o = (TF_SessionOptions*)tfe_calloc(1, sizeof(*o));
  if (o == NULL) return NULL;
  o->target = tfe_strdup("");
  if (o->target == NULL) {
    tfe_free(o);
    return NULL;
  }
  return o;
}

void TF_SetTarget(TF_SessionOptions* options, const char* target) {
  char* copy;
  if (options == NULL) return;
  copy = tfe_strdup(target == NULL ? "" : target);
  if (copy == NULL) return; /* keeps the previous target, as documented */
  tfe_free(options->target);
  options->target = copy;
}

void TF_SetConfig(TF_SessionOptions* options, const void* proto,
                  size_t proto_len, TF_Status* status) {
  void* copy = NULL;
  if (options == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SetConfig: options is NULL");
    return;
  }
  if (proto == NULL && proto_len > 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SetConfig: proto is NULL but proto_len is %zu",
                    proto_len);
    return;
  }
  if (!tfe_proto_wire_valid(proto, proto_len)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "Unparseable ConfigProto");
    return;
  }
  if (proto_len > 0) {
    copy = tfe_malloc(proto_len);
    if (copy == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TF_SetConfig: out of memory (%zu bytes)", proto_len);
      return;
    }
    memcpy(copy, proto, proto_len);
  }
  tfe_free(options->config);
  options->config = copy;
  options->config_len = proto_len;
  tfe_status_ok(status);
}

void TF_DeleteSessionOptions(TF_SessionOptions* options) {
  if (options == NULL) return;
  tfe_free(options->target);
  tfe_free(options->config);
  tfe_free(options);
}
