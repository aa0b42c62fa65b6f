/* Test plugin for `python -m tfe_py doctor`: tfe's example device, except
 * that create_device leaves SP_Device.ordinal as the runtime passed it in
 * (0), as TensorFlow's own test plugin does. TensorFlow checks only
 * SP_Device.struct_size after create_device and keeps the ordinal it asked
 * for, so the doctor may warn about the field but must not fail the
 * plugin. */
#define SE_InitPlugin doctor_example_se_init
#include "../../tfe_py/examples/example_device.h"
#undef SE_InitPlugin

static void (*doctor_real_create_device)(const SP_Platform*,
                                         SE_CreateDeviceParams*, TF_Status*);

static void doctor_create_device(const SP_Platform* platform,
                                 SE_CreateDeviceParams* params,
                                 TF_Status* status) {
  doctor_real_create_device(platform, params, status);
  params->device->ordinal = 0; /* "never written" */
}

TF_CAPI_EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params,
                                  TF_Status* status);
void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  doctor_example_se_init(params, status);
  doctor_real_create_device = params->platform_fns->create_device;
  params->platform_fns->create_device = doctor_create_device;
}
