/* In-process servers, ApiDef maps and print listeners: TF_UNIMPLEMENTED
 * stubs. tfe never creates a server or a map, so their Delete functions
 * only ever see NULL. */
#include <stddef.h>

#include "graph/graph_internal.h"

/* ------------------------------------------------------------------------
 * Servers. */

TF_Server* TF_NewServer(const void* proto, size_t proto_len,
                        TF_Status* status) {
  (void)proto, (void)proto_len;
  TFE_UNIMPLEMENTED(status, "TF_NewServer");
  return NULL;
}

void TF_ServerStart(TF_Server* server, TF_Status* status) {
  (void)server;
  TFE_UNIMPLEMENTED(status, "TF_ServerStart");
}

void TF_ServerStop(TF_Server* server, TF_Status* status) {
  (void)server;
  TFE_UNIMPLEMENTED(status, "TF_ServerStop");
}

void TF_ServerJoin(TF_Server* server, TF_Status* status) {
  (void)server;
  TFE_UNIMPLEMENTED(status, "TF_ServerJoin");
}

const char* TF_ServerTarget(TF_Server* server) {
  (void)server;
  /* TFE_UNIMPLEMENTED: TF_ServerTarget */
  TFE_GRAPH_WARN_ONCE("TF_ServerTarget");
  return NULL;
}

void TF_DeleteServer(TF_Server* server) {
  (void)server;
  /* TFE_UNIMPLEMENTED: TF_DeleteServer */
}

/* ------------------------------------------------------------------------
 * ApiDef maps. */

TF_ApiDefMap* TF_NewApiDefMap(TF_Buffer* op_list_buffer, TF_Status* status) {
  (void)op_list_buffer;
  TFE_UNIMPLEMENTED(status, "TF_NewApiDefMap");
  return NULL;
}

void TF_DeleteApiDefMap(TF_ApiDefMap* apimap) {
  (void)apimap;
  /* TFE_UNIMPLEMENTED: TF_DeleteApiDefMap */
}

void TF_ApiDefMapPut(TF_ApiDefMap* api_def_map, const char* text,
                     size_t text_len, TF_Status* status) {
  (void)api_def_map, (void)text, (void)text_len;
  TFE_UNIMPLEMENTED(status, "TF_ApiDefMapPut");
}

TF_Buffer* TF_ApiDefMapGet(TF_ApiDefMap* api_def_map, const char* name,
                           size_t name_len, TF_Status* status) {
  (void)api_def_map, (void)name, (void)name_len;
  TFE_UNIMPLEMENTED(status, "TF_ApiDefMapGet");
  return NULL;
}

/* ------------------------------------------------------------------------
 * Print listeners. */

void TF_RegisterLogListener(void (*listener)(const char*)) {
  (void)listener;
  /* TFE_UNIMPLEMENTED: TF_RegisterLogListener */
  TFE_GRAPH_WARN_ONCE("TF_RegisterLogListener");
}
