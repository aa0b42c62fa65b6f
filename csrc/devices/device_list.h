/* Building TF_DeviceList snapshots (the public accessors are in
 * tensorflow/c/eager/c_api.h). */
#ifndef TFE_DEVICES_DEVICE_LIST_H_
#define TFE_DEVICES_DEVICE_LIST_H_

#include "devices/device.h"
#include "tensorflow/c/eager/c_api.h"

/* New list copying the names, types, memory and incarnations of
 * devices[0..n). NULL when memory runs out. Freed by TF_DeleteDeviceList. */
TF_DeviceList* tfe_device_list_new(const tfe_device* const* devices, int n);

#endif /* TFE_DEVICES_DEVICE_LIST_H_ */
