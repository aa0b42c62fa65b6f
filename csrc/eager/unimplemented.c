/* Parts of the experimental eager API that tfe declares but does not
 * implement yet: distributed execution and the coordination service
 * (functions are in context_functions.c, monitoring in monitoring.c).
 * Each reports TF_UNIMPLEMENTED naming itself when it has a status; the
 * others do nothing, return NULL/0/false and log a warning (see
 * csrc/core/unimplemented.h for the convention). */
#include <stddef.h>

#include "core/unimplemented.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/logging.h"

static void not_implemented(const char* name) {
  TF_Log(TF_WARNING, "%s is not implemented in tfe", name);
}

void TFE_ContextEnableGraphCollection(TFE_Context* ctx) {
  (void)ctx;
  /* TFE_UNIMPLEMENTED: TFE_ContextEnableGraphCollection */
  not_implemented("TFE_ContextEnableGraphCollection");
}

void TFE_ContextDisableGraphCollection(TFE_Context* ctx) {
  (void)ctx;
  /* TFE_UNIMPLEMENTED: TFE_ContextDisableGraphCollection */
  not_implemented("TFE_ContextDisableGraphCollection");
}

void TFE_ContextUpdateServerDef(TFE_Context* ctx, int keep_alive_secs, const void* proto, size_t proto_len, TF_Status* status) {
  (void)ctx;
  (void)keep_alive_secs;
  (void)proto;
  (void)proto_len;
  TFE_UNIMPLEMENTED(status, "TFE_ContextUpdateServerDef");
}

void TFE_ContextUpdateServerDefWithTimeout(TFE_Context* ctx, int keep_alive_secs, const void* proto, size_t proto_len, int64_t init_timeout_in_ms, TF_Status* status) {
  (void)ctx;
  (void)keep_alive_secs;
  (void)proto;
  (void)proto_len;
  (void)init_timeout_in_ms;
  TFE_UNIMPLEMENTED(status, "TFE_ContextUpdateServerDefWithTimeout");
}

void TFE_ContextSetServerDefWithTimeout(TFE_Context* ctx, int keep_alive_secs, const void* proto, size_t proto_len, int64_t init_timeout_in_ms, TF_Status* status, bool clear_existing_contexts) {
  (void)ctx;
  (void)keep_alive_secs;
  (void)proto;
  (void)proto_len;
  (void)init_timeout_in_ms;
  (void)clear_existing_contexts;
  TFE_UNIMPLEMENTED(status, "TFE_ContextSetServerDefWithTimeout");
}

void TFE_ContextSetServerDefWithTimeoutAndRetries(TFE_Context* ctx, int keep_alive_secs, const void* proto, size_t proto_len, int64_t init_timeout_in_ms, int retries, TF_Status* status, bool clear_existing_contexts) {
  (void)ctx;
  (void)keep_alive_secs;
  (void)proto;
  (void)proto_len;
  (void)init_timeout_in_ms;
  (void)retries;
  (void)clear_existing_contexts;
  TFE_UNIMPLEMENTED(status, "TFE_ContextSetServerDefWithTimeoutAndRetries");
}

bool TFE_ContextCheckAlive(TFE_Context* ctx, const char* worker_name, TF_Status* status) {
  (void)ctx;
  (void)worker_name;
  TFE_UNIMPLEMENTED(status, "TFE_ContextCheckAlive");
  return false;
}

void TFE_ContextGetGraphDebugInfo(TFE_Context* ctx, const char* function_name, TF_Buffer* buf, TF_Status* status) {
  (void)ctx;
  (void)function_name;
  (void)buf;
  TFE_UNIMPLEMENTED(status, "TFE_ContextGetGraphDebugInfo");
}

void TFE_InsertConfigKeyValue(TFE_Context* ctx, const char* key, const char* value, TF_Status* status) {
  (void)ctx;
  (void)key;
  (void)value;
  TFE_UNIMPLEMENTED(status, "TFE_InsertConfigKeyValue");
}

void TFE_GetConfigKeyValue(TFE_Context* ctx, const char* key, int64_t timeout_in_ms, TF_Buffer* value_buf, TF_Status* status) {
  (void)ctx;
  (void)key;
  (void)timeout_in_ms;
  (void)value_buf;
  TFE_UNIMPLEMENTED(status, "TFE_GetConfigKeyValue");
}

void TFE_DeleteConfigKeyValue(TFE_Context* ctx, const char* key, TF_Status* status) {
  (void)ctx;
  (void)key;
  TFE_UNIMPLEMENTED(status, "TFE_DeleteConfigKeyValue");
}

void TFE_ReportErrorToCluster(TFE_Context* ctx, int error_code, const char* error_message, TF_Status* status) {
  (void)ctx;
  (void)error_code;
  (void)error_message;
  TFE_UNIMPLEMENTED(status, "TFE_ReportErrorToCluster");
}

void TFE_WaitAtBarrier(TFE_Context* ctx, const char* barrier_id, int64_t barrier_timeout_in_ms, TF_Status* status) {
  (void)ctx;
  (void)barrier_id;
  (void)barrier_timeout_in_ms;
  TFE_UNIMPLEMENTED(status, "TFE_WaitAtBarrier");
}

void TFE_InitializeLocalOnlyContext(TFE_Context* ctx, int keep_alive_secs, const void* proto, size_t proto_len, TF_Status* status) {
  (void)ctx;
  (void)keep_alive_secs;
  (void)proto;
  (void)proto_len;
  TFE_UNIMPLEMENTED(status, "TFE_InitializeLocalOnlyContext");
}

void TFE_GetTaskStates(TFE_Context* ctx, const TF_Buffer* tasks, void* states,
                       TF_Status* status) {
  (void)ctx;
  (void)tasks;
  (void)states;
  TFE_UNIMPLEMENTED(status, "TFE_GetTaskStates");
}

/* ---- from tensorflow/c/eager/c_api.h ---- */

void TFE_ContextSetServerDef(TFE_Context* ctx, int keep_alive_secs,
                             const void* proto, size_t proto_len,
                             TF_Status* status) {
  (void)ctx;
  (void)keep_alive_secs;
  (void)proto;
  (void)proto_len;
  TFE_UNIMPLEMENTED(status, "TFE_ContextSetServerDef");
}

