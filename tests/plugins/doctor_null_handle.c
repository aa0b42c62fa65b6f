/* Test plugin for `python -m tfe_py doctor`: tfe's example device, except
 * that one SP_StreamExecutor callback reports success but leaves its
 * output handle NULL. $TFE_DOCTOR_NULL_HANDLE picks which: "timer"
 * (create_timer; the example's nanoseconds() would then read through the
 * NULL timer), "event" (create_event) or "stream" (create_stream). The
 * doctor's self-test must report the callback by struct and field and
 * never hand the NULL handle back to the plugin. */
#define SE_InitPlugin doctor_example_se_init
#include "../../tfe_py/examples/example_device.h"
#undef SE_InitPlugin

#include <stdlib.h>
#include <string.h>

static void (*doctor_real_create_se)(const SP_Platform*,
                                     SE_CreateStreamExecutorParams*,
                                     TF_Status*);

static void doctor_null_timer(const SP_Device* device, SP_Timer* timer,
                              TF_Status* status) {
  (void)device;
  *timer = NULL;
  TF_SetStatus(status, TF_OK, "");
}

static void doctor_null_event(const SP_Device* device, SP_Event* event,
                              TF_Status* status) {
  (void)device;
  *event = NULL;
  TF_SetStatus(status, TF_OK, "");
}

static void doctor_null_stream(const SP_Device* device, SP_Stream* stream,
                               TF_Status* status) {
  (void)device;
  *stream = NULL;
  TF_SetStatus(status, TF_OK, "");
}

static void doctor_create_se(const SP_Platform* platform,
                             SE_CreateStreamExecutorParams* params,
                             TF_Status* status) {
  const char* which = getenv("TFE_DOCTOR_NULL_HANDLE");
  SP_StreamExecutor* se = params->stream_executor;
  doctor_real_create_se(platform, params, status);
  if (which == NULL || strcmp(which, "timer") == 0) {
    se->create_timer = doctor_null_timer;
  } else if (strcmp(which, "event") == 0) {
    se->create_event = doctor_null_event;
  } else if (strcmp(which, "stream") == 0) {
    se->create_stream = doctor_null_stream;
  }
}

TF_CAPI_EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params,
                                  TF_Status* status);
void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  doctor_example_se_init(params, status);
  doctor_real_create_se = params->platform_fns->create_stream_executor;
  params->platform_fns->create_stream_executor = doctor_create_se;
}
