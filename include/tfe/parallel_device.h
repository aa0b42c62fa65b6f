/* tfe extension: TensorFlow's parallel device, usable from C.
 *
 * A parallel device is a custom device (TFE_RegisterCustomDevice) that
 * mirrors every op placed on it onto a list of component devices. Its
 * tensors ("parallel tensors") hold one component tensor per component
 * device. An op on the parallel device runs once per component, all
 * components at the same time (one worker thread per component), and
 * gives parallel tensors; if any component fails, the op fails as a whole
 * with the error of the first failing component (in component order;
 * CANCELLED errors count last) and no output is produced.
 *
 * Ops with a special meaning on the parallel device (TF's names):
 *   TPUReplicatedInput   inputs: one tensor per component (N = number of
 *                        components); output: the parallel tensor whose
 *                        i-th component is input i, copied to component
 *                        device i (shared, not copied, when it is on that
 *                        device already, e.g. a parallel tensor of an
 *                        inner parallel device). Packs.
 *   TPUReplicatedOutput  input: a parallel tensor; attr num_replicas = N;
 *                        outputs: its N components. Unpacks.
 *   DeviceID             output: an int64 scalar parallel tensor whose i-th
 *                        component is i.
 * tfe registers these three op definitions when the first parallel device
 * is made (TF declares TPUReplicatedInput/Output as TPU ops and DeviceID
 * in its parallel-device library).
 *
 * Rules, as in TF:
 *   - Ops must be placed on the parallel device explicitly
 *     (TFE_OpSetDevice): an op that reaches it only because an input is a
 *     parallel tensor fails with TF_INTERNAL ("Ops must be placed on the
 *     parallel device explicitly, or their inputs first un-packed...").
 *   - A non-parallel input of such an op is broadcast: copied to every
 *     component device.
 *   - Copying onto the parallel device (TFE_TensorHandleCopyToDevice)
 *     broadcasts too; copying off it, and so TFE_TensorHandleResolve of a
 *     parallel tensor, fails with TF_UNIMPLEMENTED: unpack instead.
 *   - Components must all have the same dtype. The shape of a parallel
 *     tensor reports -1 for axes whose length differs between components;
 *     components of different ranks make the rank query fail
 *     (TF_UNIMPLEMENTED).
 *
 * Also as in TF (docs/PARALLEL_DEVICE.md):
 *   - A VarHandleOp with TF's "no sharing" shared name
 *     ("cd2c89b7-88b7-44c8-ad83-06c2a9158347") gives one new variable per
 *     component, also when two components are the same device.
 *   - A parallel device may be a component of another one.
 *   - Collective ops (CollectiveReduceV2, CollectiveGatherV2, ...) placed
 *     on the device run concurrently on every component and meet there:
 *     with group_size = number of components, every component gets the
 *     reduction (gather, ...) of all components. Components whose kernels
 *     run on the same device count as distinct members (by component
 *     index).
 *
 * Nothing here exists in TensorFlow's C API; guard its use with
 * #ifdef TFE_VERSION. See docs/CUSTOM_DEVICES.md. */
#ifndef TFE_PARALLEL_DEVICE_H_
#define TFE_PARALLEL_DEVICE_H_

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills `*device` (every field, version TFE_CUSTOM_DEVICE_VERSION) and
 * `*device_info` for a parallel device that will be registered as
 * `device_name` and whose components are the devices
 * components[0..num_components). Nothing is registered: pass both, with
 * the same name, to TFE_RegisterCustomDevice, which then owns device_info
 * (also when it fails). Device info that is never registered must be
 * released with device->delete_device(*device_info).
 *
 * The names are copied. Component names may be full or partial ("CPU:1");
 * they are looked up when ops run, so an unknown device shows up then, as
 * the error of the op.
 *
 * Errors (nothing is filled in): INVALID_ARGUMENT for a NULL argument,
 * num_components < 1, a NULL or malformed name, or a component named like
 * the parallel device itself; RESOURCE_EXHAUSTED when memory runs out. */
TF_CAPI_EXPORT extern void TFE_NewParallelDevice(
    const char* device_name, const char* const* components,
    int num_components, TFE_CustomDevice* device, void** device_info,
    TF_Status* status);

/* TFE_NewParallelDevice followed by TFE_RegisterCustomDevice on ctx.
 * device_name must be a full device name that names no other device of
 * ctx (TFE_RegisterCustomDevice's rules and errors apply). The context
 * owns the device; TFE_DeleteContext deletes it. */
TF_CAPI_EXPORT extern void TFE_RegisterParallelDevice(
    TFE_Context* ctx, const char* device_name,
    const char* const* components, int num_components, TF_Status* status);

/* Packs: runs TPUReplicatedInput on the parallel device `device_name` of
 * ctx with inputs tensors[0..num_tensors), one per component. Returns the
 * new parallel tensor (owned by the caller) or NULL with the error: e.g.
 * INVALID_ARGUMENT when num_tensors is not the number of components or an
 * input is a parallel tensor already. The inputs stay the caller's. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_ParallelDevicePack(
    TFE_Context* ctx, const char* device_name, TFE_TensorHandle** tensors,
    int num_tensors, TF_Status* status);

/* Unpacks: runs TPUReplicatedOutput on the parallel device `device_name`
 * and writes the num_components components of `parallel_tensor` to
 * out[0..num_components); the caller owns them. num_components must be
 * the device's number of components (INVALID_ARGUMENT otherwise, and
 * nothing is written). The parallel tensor stays the caller's. */
TF_CAPI_EXPORT extern void TFE_ParallelDeviceUnpack(
    TFE_Context* ctx, const char* device_name,
    TFE_TensorHandle* parallel_tensor, TFE_TensorHandle** out,
    int num_components, TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TFE_PARALLEL_DEVICE_H_ */
