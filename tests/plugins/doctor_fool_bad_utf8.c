/* Test plugin for `python -m tfe_py doctor`: tfe's example device, except
 * that its devices' hardware and vendor names are not valid UTF-8 (the
 * hardware name ends with well-formed 2, 3 and 4 byte sequences) and its
 * get_stream_status fails with a message that is not either. TensorFlow
 * takes such strings as bytes; the doctor must report the plugin (showing
 * the bad bytes as U+FFFD), not die decoding what tfe describes. */
#define SE_InitPlugin doctor_example_se_init
#include "../../tfe_py/examples/example_device.h"
#undef SE_InitPlugin

static void (*doctor_real_create_device)(const SP_Platform*,
                                         SE_CreateDeviceParams*, TF_Status*);

static void doctor_create_device(const SP_Platform* platform,
                                 SE_CreateDeviceParams* params,
                                 TF_Status* status) {
  doctor_real_create_device(platform, params, status);
  params->device->hardware_name =
      "arena \xff\xfe device \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
  params->device->device_vendor = "tfe \xc3 tests \xe2\x82";
}

static void doctor_stream_status(const SP_Device* device, SP_Stream stream,
                                 TF_Status* status) {
  (void)device;
  (void)stream;
  TF_SetStatus(status, TF_INTERNAL, "stream broken \xff\xc0\x80 here");
}

static void doctor_create_stream_executor(
    const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
    TF_Status* status);
static void (*doctor_real_create_se)(const SP_Platform*,
                                     SE_CreateStreamExecutorParams*,
                                     TF_Status*);

static void doctor_create_stream_executor(
    const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
    TF_Status* status) {
  doctor_real_create_se(platform, params, status);
  params->stream_executor->get_stream_status = doctor_stream_status;
}

TF_CAPI_EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params,
                                  TF_Status* status);
void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  doctor_example_se_init(params, status);
  doctor_real_create_device = params->platform_fns->create_device;
  params->platform_fns->create_device = doctor_create_device;
  doctor_real_create_se = params->platform_fns->create_stream_executor;
  params->platform_fns->create_stream_executor =
      doctor_create_stream_executor;
}
