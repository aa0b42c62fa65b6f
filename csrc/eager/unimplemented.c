/* Parts of the experimental eager API that tfe declares but does not
 * implement yet: monitoring, distributed execution and the coordination
 * service, functions. Each reports
 * TF_UNIMPLEMENTED naming itself when it has a status; the others do
 * nothing, return NULL/0/false and log a warning (see
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

void TFE_MonitoringCounterCellIncrementBy(TFE_MonitoringCounterCell* cell, int64_t value) {
  (void)cell;
  (void)value;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringCounterCellIncrementBy */
  not_implemented("TFE_MonitoringCounterCellIncrementBy");
}

int64_t TFE_MonitoringCounterCellValue(TFE_MonitoringCounterCell* cell) {
  (void)cell;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringCounterCellValue */
  not_implemented("TFE_MonitoringCounterCellValue");
  return 0;
}

TFE_MonitoringCounter0* TFE_MonitoringNewCounter0(const char* name, TF_Status* status, const char* description) {
  (void)name;
  (void)description;
  TFE_UNIMPLEMENTED(status, "TFE_MonitoringNewCounter0");
  return NULL;
}

void TFE_MonitoringDeleteCounter0(TFE_MonitoringCounter0* counter) {
  (void)counter;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteCounter0 */
}

TFE_MonitoringCounterCell* TFE_MonitoringGetCellCounter0(TFE_MonitoringCounter0* counter) {
  (void)counter;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellCounter0 */
  not_implemented("TFE_MonitoringGetCellCounter0");
  return NULL;
}

TFE_MonitoringCounter1* TFE_MonitoringNewCounter1(const char* name, TF_Status* status, const char* description, const char* label1) {
  (void)name;
  (void)description;
  (void)label1;
  TFE_UNIMPLEMENTED(status, "TFE_MonitoringNewCounter1");
  return NULL;
}

void TFE_MonitoringDeleteCounter1(TFE_MonitoringCounter1* counter) {
  (void)counter;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteCounter1 */
}

TFE_MonitoringCounterCell* TFE_MonitoringGetCellCounter1(TFE_MonitoringCounter1* counter, const char* label1) {
  (void)counter;
  (void)label1;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellCounter1 */
  not_implemented("TFE_MonitoringGetCellCounter1");
  return NULL;
}

TFE_MonitoringCounter2* TFE_MonitoringNewCounter2(const char* name, TF_Status* status, const char* description, const char* label1, const char* label2) {
  (void)name;
  (void)description;
  (void)label1;
  (void)label2;
  TFE_UNIMPLEMENTED(status, "TFE_MonitoringNewCounter2");
  return NULL;
}

void TFE_MonitoringDeleteCounter2(TFE_MonitoringCounter2* counter) {
  (void)counter;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteCounter2 */
}

TFE_MonitoringCounterCell* TFE_MonitoringGetCellCounter2(TFE_MonitoringCounter2* counter, const char* label1, const char* label2) {
  (void)counter;
  (void)label1;
  (void)label2;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellCounter2 */
  not_implemented("TFE_MonitoringGetCellCounter2");
  return NULL;
}

void TFE_MonitoringIntGaugeCellSet(TFE_MonitoringIntGaugeCell* cell, int64_t value) {
  (void)cell;
  (void)value;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringIntGaugeCellSet */
  not_implemented("TFE_MonitoringIntGaugeCellSet");
}

int64_t TFE_MonitoringIntGaugeCellValue(TFE_MonitoringIntGaugeCell* cell) {
  (void)cell;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringIntGaugeCellValue */
  not_implemented("TFE_MonitoringIntGaugeCellValue");
  return 0;
}

TFE_MonitoringIntGauge0* TFE_MonitoringNewIntGauge0(const char* name, TF_Status* out_status, const char* description) {
  (void)name;
  (void)description;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewIntGauge0");
  return NULL;
}

void TFE_MonitoringDeleteIntGauge0(TFE_MonitoringIntGauge0* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteIntGauge0 */
}

TFE_MonitoringIntGaugeCell* TFE_MonitoringGetCellIntGauge0(TFE_MonitoringIntGauge0* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellIntGauge0 */
  not_implemented("TFE_MonitoringGetCellIntGauge0");
  return NULL;
}

TFE_MonitoringIntGauge1* TFE_MonitoringNewIntGauge1(const char* name, TF_Status* out_status, const char* description, const char* label1) {
  (void)name;
  (void)description;
  (void)label1;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewIntGauge1");
  return NULL;
}

void TFE_MonitoringDeleteIntGauge1(TFE_MonitoringIntGauge1* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteIntGauge1 */
}

TFE_MonitoringIntGaugeCell* TFE_MonitoringGetCellIntGauge1(TFE_MonitoringIntGauge1* gauge, const char* label1) {
  (void)gauge;
  (void)label1;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellIntGauge1 */
  not_implemented("TFE_MonitoringGetCellIntGauge1");
  return NULL;
}

TFE_MonitoringIntGauge2* TFE_MonitoringNewIntGauge2(const char* name, TF_Status* out_status, const char* description, const char* label1, const char* label2) {
  (void)name;
  (void)description;
  (void)label1;
  (void)label2;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewIntGauge2");
  return NULL;
}

void TFE_MonitoringDeleteIntGauge2(TFE_MonitoringIntGauge2* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteIntGauge2 */
}

TFE_MonitoringIntGaugeCell* TFE_MonitoringGetCellIntGauge2(TFE_MonitoringIntGauge2* gauge, const char* label1, const char* label2) {
  (void)gauge;
  (void)label1;
  (void)label2;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellIntGauge2 */
  not_implemented("TFE_MonitoringGetCellIntGauge2");
  return NULL;
}

void TFE_MonitoringStringGaugeCellSet(TFE_MonitoringStringGaugeCell* cell, const char* value) {
  (void)cell;
  (void)value;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringStringGaugeCellSet */
  not_implemented("TFE_MonitoringStringGaugeCellSet");
}

void TFE_MonitoringStringGaugeCellValue(TFE_MonitoringStringGaugeCell* cell, TF_Buffer* buf) {
  (void)cell;
  (void)buf;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringStringGaugeCellValue */
  not_implemented("TFE_MonitoringStringGaugeCellValue");
}

TFE_MonitoringStringGauge0* TFE_MonitoringNewStringGauge0(const char* name, TF_Status* out_status, const char* description) {
  (void)name;
  (void)description;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewStringGauge0");
  return NULL;
}

void TFE_MonitoringDeleteStringGauge0(TFE_MonitoringStringGauge0* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteStringGauge0 */
}

TFE_MonitoringStringGaugeCell* TFE_MonitoringGetCellStringGauge0(TFE_MonitoringStringGauge0* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellStringGauge0 */
  not_implemented("TFE_MonitoringGetCellStringGauge0");
  return NULL;
}

TFE_MonitoringStringGauge1* TFE_MonitoringNewStringGauge1(const char* name, TF_Status* out_status, const char* description, const char* label1) {
  (void)name;
  (void)description;
  (void)label1;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewStringGauge1");
  return NULL;
}

void TFE_MonitoringDeleteStringGauge1(TFE_MonitoringStringGauge1* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteStringGauge1 */
}

TFE_MonitoringStringGaugeCell* TFE_MonitoringGetCellStringGauge1(TFE_MonitoringStringGauge1* gauge, const char* label1) {
  (void)gauge;
  (void)label1;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellStringGauge1 */
  not_implemented("TFE_MonitoringGetCellStringGauge1");
  return NULL;
}

TFE_MonitoringStringGauge2* TFE_MonitoringNewStringGauge2(const char* name, TF_Status* out_status, const char* description, const char* label1, const char* label2) {
  (void)name;
  (void)description;
  (void)label1;
  (void)label2;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewStringGauge2");
  return NULL;
}

void TFE_MonitoringDeleteStringGauge2(TFE_MonitoringStringGauge2* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteStringGauge2 */
}

TFE_MonitoringStringGaugeCell* TFE_MonitoringGetCellStringGauge2(TFE_MonitoringStringGauge2* gauge, const char* label1, const char* label2) {
  (void)gauge;
  (void)label1;
  (void)label2;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellStringGauge2 */
  not_implemented("TFE_MonitoringGetCellStringGauge2");
  return NULL;
}

TFE_MonitoringStringGauge3* TFE_MonitoringNewStringGauge3(const char* name, TF_Status* out_status, const char* description, const char* label1, const char* label2, const char* label3) {
  (void)name;
  (void)description;
  (void)label1;
  (void)label2;
  (void)label3;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewStringGauge3");
  return NULL;
}

void TFE_MonitoringDeleteStringGauge3(TFE_MonitoringStringGauge3* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteStringGauge3 */
}

TFE_MonitoringStringGaugeCell* TFE_MonitoringGetCellStringGauge3(TFE_MonitoringStringGauge3* gauge, const char* label1, const char* label2, const char* label3) {
  (void)gauge;
  (void)label1;
  (void)label2;
  (void)label3;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellStringGauge3 */
  not_implemented("TFE_MonitoringGetCellStringGauge3");
  return NULL;
}

TFE_MonitoringStringGauge4* TFE_MonitoringNewStringGauge4(const char* name, TF_Status* out_status, const char* description, const char* label1, const char* label2, const char* label3, const char* label4) {
  (void)name;
  (void)description;
  (void)label1;
  (void)label2;
  (void)label3;
  (void)label4;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewStringGauge4");
  return NULL;
}

void TFE_MonitoringDeleteStringGauge4(TFE_MonitoringStringGauge4* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteStringGauge4 */
}

TFE_MonitoringStringGaugeCell* TFE_MonitoringGetCellStringGauge4(TFE_MonitoringStringGauge4* gauge, const char* label1, const char* label2, const char* label3, const char* label4) {
  (void)gauge;
  (void)label1;
  (void)label2;
  (void)label3;
  (void)label4;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellStringGauge4 */
  not_implemented("TFE_MonitoringGetCellStringGauge4");
  return NULL;
}

void TFE_MonitoringBoolGaugeCellSet(TFE_MonitoringBoolGaugeCell* cell, bool value) {
  (void)cell;
  (void)value;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringBoolGaugeCellSet */
  not_implemented("TFE_MonitoringBoolGaugeCellSet");
}

bool TFE_MonitoringBoolGaugeCellValue(TFE_MonitoringBoolGaugeCell* cell) {
  (void)cell;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringBoolGaugeCellValue */
  not_implemented("TFE_MonitoringBoolGaugeCellValue");
  return false;
}

TFE_MonitoringBoolGauge0* TFE_MonitoringNewBoolGauge0(const char* name, TF_Status* out_status, const char* description) {
  (void)name;
  (void)description;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewBoolGauge0");
  return NULL;
}

void TFE_MonitoringDeleteBoolGauge0(TFE_MonitoringBoolGauge0* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteBoolGauge0 */
}

TFE_MonitoringBoolGaugeCell* TFE_MonitoringGetCellBoolGauge0(TFE_MonitoringBoolGauge0* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellBoolGauge0 */
  not_implemented("TFE_MonitoringGetCellBoolGauge0");
  return NULL;
}

TFE_MonitoringBoolGauge1* TFE_MonitoringNewBoolGauge1(const char* name, TF_Status* out_status, const char* description, const char* label1) {
  (void)name;
  (void)description;
  (void)label1;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewBoolGauge1");
  return NULL;
}

void TFE_MonitoringDeleteBoolGauge1(TFE_MonitoringBoolGauge1* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteBoolGauge1 */
}

TFE_MonitoringBoolGaugeCell* TFE_MonitoringGetCellBoolGauge1(TFE_MonitoringBoolGauge1* gauge, const char* label1) {
  (void)gauge;
  (void)label1;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellBoolGauge1 */
  not_implemented("TFE_MonitoringGetCellBoolGauge1");
  return NULL;
}

TFE_MonitoringBoolGauge2* TFE_MonitoringNewBoolGauge2(const char* name, TF_Status* out_status, const char* description, const char* label1, const char* label2) {
  (void)name;
  (void)description;
  (void)label1;
  (void)label2;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewBoolGauge2");
  return NULL;
}

void TFE_MonitoringDeleteBoolGauge2(TFE_MonitoringBoolGauge2* gauge) {
  (void)gauge;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteBoolGauge2 */
}

TFE_MonitoringBoolGaugeCell* TFE_MonitoringGetCellBoolGauge2(TFE_MonitoringBoolGauge2* gauge, const char* label1, const char* label2) {
  (void)gauge;
  (void)label1;
  (void)label2;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellBoolGauge2 */
  not_implemented("TFE_MonitoringGetCellBoolGauge2");
  return NULL;
}

void TFE_MonitoringSamplerCellAdd(TFE_MonitoringSamplerCell* cell, double value) {
  (void)cell;
  (void)value;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringSamplerCellAdd */
  not_implemented("TFE_MonitoringSamplerCellAdd");
}

void TFE_MonitoringSamplerCellValue(TFE_MonitoringSamplerCell* cell, TF_Buffer* buf) {
  (void)cell;
  (void)buf;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringSamplerCellValue */
  not_implemented("TFE_MonitoringSamplerCellValue");
}

TFE_MonitoringBuckets* TFE_MonitoringNewExponentialBuckets(double scale, double growth_factor, int bucket_count) {
  (void)scale;
  (void)growth_factor;
  (void)bucket_count;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringNewExponentialBuckets */
  not_implemented("TFE_MonitoringNewExponentialBuckets");
  return NULL;
}

void TFE_MonitoringDeleteBuckets(TFE_MonitoringBuckets* buckets) {
  (void)buckets;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteBuckets */
}

TFE_MonitoringSampler0* TFE_MonitoringNewSampler0(const char* name, TFE_MonitoringBuckets* buckets, TF_Status* out_status, const char* description) {
  (void)name;
  (void)buckets;
  (void)description;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewSampler0");
  return NULL;
}

void TFE_MonitoringDeleteSampler0(TFE_MonitoringSampler0* sampler) {
  (void)sampler;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteSampler0 */
}

TFE_MonitoringSamplerCell* TFE_MonitoringGetCellSampler0(TFE_MonitoringSampler0* sampler) {
  (void)sampler;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellSampler0 */
  not_implemented("TFE_MonitoringGetCellSampler0");
  return NULL;
}

TFE_MonitoringSampler1* TFE_MonitoringNewSampler1(const char* name, TFE_MonitoringBuckets* buckets, TF_Status* out_status, const char* description, const char* label1) {
  (void)name;
  (void)buckets;
  (void)description;
  (void)label1;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewSampler1");
  return NULL;
}

void TFE_MonitoringDeleteSampler1(TFE_MonitoringSampler1* sampler) {
  (void)sampler;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteSampler1 */
}

TFE_MonitoringSamplerCell* TFE_MonitoringGetCellSampler1(TFE_MonitoringSampler1* sampler, const char* label1) {
  (void)sampler;
  (void)label1;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellSampler1 */
  not_implemented("TFE_MonitoringGetCellSampler1");
  return NULL;
}

TFE_MonitoringSampler2* TFE_MonitoringNewSampler2(const char* name, TFE_MonitoringBuckets* buckets, TF_Status* out_status, const char* description, const char* label1, const char* label2) {
  (void)name;
  (void)buckets;
  (void)description;
  (void)label1;
  (void)label2;
  TFE_UNIMPLEMENTED(out_status, "TFE_MonitoringNewSampler2");
  return NULL;
}

void TFE_MonitoringDeleteSampler2(TFE_MonitoringSampler2* sampler) {
  (void)sampler;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringDeleteSampler2 */
}

TFE_MonitoringSamplerCell* TFE_MonitoringGetCellSampler2(TFE_MonitoringSampler2* sampler, const char* label1, const char* label2) {
  (void)sampler;
  (void)label1;
  (void)label2;
  /* TFE_UNIMPLEMENTED: TFE_MonitoringGetCellSampler2 */
  not_implemented("TFE_MonitoringGetCellSampler2");
  return NULL;
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

void TFE_ContextGetFunctionDef(TFE_Context* ctx, const char* function_name, TF_Buffer* buf, TF_Status* status) {
  (void)ctx;
  (void)function_name;
  (void)buf;
  TFE_UNIMPLEMENTED(status, "TFE_ContextGetFunctionDef");
}

void TFE_ContextGetGraphDebugInfo(TFE_Context* ctx, const char* function_name, TF_Buffer* buf, TF_Status* status) {
  (void)ctx;
  (void)function_name;
  (void)buf;
  TFE_UNIMPLEMENTED(status, "TFE_ContextGetGraphDebugInfo");
}

TF_Function* TFE_ContextGetFunction(TFE_Context* ctx, const char* name, TF_Status* status) {
  (void)ctx;
  (void)name;
  TFE_UNIMPLEMENTED(status, "TFE_ContextGetFunction");
  return NULL;
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

void TFE_ContextAddFunctionDef(TFE_Context* ctx,
                               const char* serialized_function_def,
                               size_t size, TF_Status* status) {
  (void)ctx;
  (void)serialized_function_def;
  (void)size;
  TFE_UNIMPLEMENTED(status, "TFE_ContextAddFunctionDef");
}

void TFE_ContextAddFunction(TFE_Context* ctx, TF_Function* function,
                            TF_Status* status) {
  (void)ctx;
  (void)function;
  TFE_UNIMPLEMENTED(status, "TFE_ContextAddFunction");
}

void TFE_ContextRemoveFunction(TFE_Context* ctx, const char* name,
                               TF_Status* status) {
  (void)ctx;
  (void)name;
  TFE_UNIMPLEMENTED(status, "TFE_ContextRemoveFunction");
}

unsigned char TFE_ContextHasFunction(TFE_Context* ctx, const char* name) {
  (void)ctx;
  (void)name;
  /* No function can be added, so none is ever present: answering 0 is
   * the correct result, not a stub. */
  return 0;
}
