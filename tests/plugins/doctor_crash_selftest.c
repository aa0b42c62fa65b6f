/* Test plugin for `python -m tfe_py doctor`: tfe's example device
 * (platform TFE_TEST_PLATFORM, device type MY_DEVICE, with kernels), except
 * that SP_StreamExecutor.get_stream_status raises SIGSEGV. Only the
 * doctor's stream-executor self-test calls that function, so the plugin
 * loads and registers everything, then dies in the self-test of its first
 * device; the doctor must keep what it learned before (kind, devices,
 * kernels) and name the full stage, device name included. */
/* The example's own entry point is renamed, and wrapped below. The example
 * comes first: it sets the feature macros it needs before any system
 * header. */
#define SE_InitPlugin doctor_example_se_init
#include "../../tfe_py/examples/example_device.h"
#undef SE_InitPlugin

#include <signal.h>

static void (*doctor_real_create_se)(const SP_Platform*,
                                     SE_CreateStreamExecutorParams*,
                                     TF_Status*);

static void doctor_crashing_stream_status(const SP_Device* device,
                                          SP_Stream stream,
                                          TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
  raise(SIGSEGV);
}

static void doctor_create_se(const SP_Platform* platform,
                             SE_CreateStreamExecutorParams* params,
                             TF_Status* status) {
  doctor_real_create_se(platform, params, status);
  params->stream_executor->get_stream_status = doctor_crashing_stream_status;
}

TF_CAPI_EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params,
                                  TF_Status* status);
void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  doctor_example_se_init(params, status);
  doctor_real_create_se = params->platform_fns->create_stream_executor;
  params->platform_fns->create_stream_executor = doctor_create_se;
}
