// C++ programs written against TensorFlow 2.21's headers, built against
// tfe's: what only C++ sees.
//   - TFE_CustomDevice and TFE_CustomDeviceTensorHandle default-construct
//     with TF's member defaults (version = TFE_CUSTOM_DEVICE_VERSION, the
//     optional callbacks nullptr), so code that sets only the required
//     callbacks registers a valid device;
//   - TF's dlpack.h declares its functions as C++ functions in namespace
//     tensorflow; a program declaring them that way links against libtfe
//     (which exports the mangled names) and they work.
// Run by ctest as one program; exits non-zero on the first failure.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"

// As TensorFlow's tensorflow/c/eager/dlpack.h declares them (tfe's own
// dlpack.h is deliberately not included).
namespace tensorflow {
void* TFE_GetDLDevice(TFE_TensorHandle* h, TF_Status* status);
void* TFE_HandleToDLPack(TFE_TensorHandle* h, TF_Status* status);
TFE_TensorHandle* TFE_HandleFromDLPack(void* dlm, TF_Status* status,
                                       TFE_Context* ctx);
void TFE_CallDLManagedTensorDeleter(void* dlm_ptr);
}  // namespace tensorflow

#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,      \
                   __LINE__, #cond);                                   \
      std::exit(1);                                                    \
    }                                                                  \
  } while (0)

#define EXPECT_OK(s)                                                   \
  do {                                                                 \
    if (TF_GetCode(s) != TF_OK) {                                      \
      std::fprintf(stderr, "%s:%d: status %d: %s\n", __FILE__,         \
                   __LINE__, (int)TF_GetCode(s), TF_Message(s));       \
      std::exit(1);                                                    \
    }                                                                  \
  } while (0)

namespace {

int g_deleted = 0;

TFE_TensorHandle* copy_to(TFE_Context*, TFE_TensorHandle* t, TF_Status*,
                          void*) {
  return t;
}
TFE_TensorHandle* copy_from(TFE_Context*, TFE_TensorHandle* t, const char*,
                            TF_Status*, void*) {
  return t;
}
void execute(const TFE_Op*, int* num_outputs, TFE_TensorHandle**,
             TF_Status* s, void*) {
  *num_outputs = 0;
  TF_SetStatus(s, TF_UNIMPLEMENTED, "nothing runs here");
}
void delete_device(void*) { g_deleted++; }

TFE_TensorHandle* float_handle(float v, TF_Status* s) {
  int64_t dims[1] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 2 * sizeof(float));
  float* p = static_cast<float*>(TF_TensorData(t));
  p[0] = v;
  p[1] = -v;
  TFE_TensorHandle* h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  return h;
}

void custom_device_defaults() {
  TFE_CustomDevice device;
  EXPECT(device.version == TFE_CUSTOM_DEVICE_VERSION);
  EXPECT(device.pack == nullptr);
  EXPECT(device.shall_pin_to_this_device == nullptr);
  TFE_CustomDeviceTensorHandle methods;
  EXPECT(methods.version == TFE_CUSTOM_DEVICE_VERSION);
  EXPECT(methods.summarize == nullptr);

  // Code written for TF sets only the required callbacks.
  device.copy_tensor_to_device = copy_to;
  device.copy_tensor_from_device = copy_from;
  device.execute = execute;
  device.delete_device = delete_device;
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* opts = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(opts, s);
  EXPECT_OK(s);
  TFE_DeleteContextOptions(opts);
  TFE_RegisterCustomDevice(
      ctx, device, "/job:localhost/replica:0/task:0/device:CUSTOM:0", nullptr,
      s);
  EXPECT_OK(s);
  EXPECT(TFE_IsCustomDevice(ctx,
                            "/job:localhost/replica:0/task:0/device:CUSTOM:0"));
  TFE_DeleteContext(ctx);
  EXPECT(g_deleted == 1);
  TF_DeleteStatus(s);
}

void dlpack_cxx_names() {
  TF_Status* s = TF_NewStatus();
  TFE_TensorHandle* h = float_handle(2.5f, s);
  EXPECT_OK(s);
  void* device = tensorflow::TFE_GetDLDevice(h, s);
  EXPECT_OK(s);
  EXPECT(device != nullptr);
  std::free(device);
  void* dlm = tensorflow::TFE_HandleToDLPack(h, s);
  EXPECT_OK(s);
  EXPECT(dlm != nullptr);
  TFE_TensorHandle* back = tensorflow::TFE_HandleFromDLPack(dlm, s, nullptr);
  EXPECT_OK(s);
  TF_Tensor* t = TFE_TensorHandleResolve(back, s);
  EXPECT_OK(s);
  const float* p = static_cast<const float*>(TF_TensorData(t));
  EXPECT(p[0] == 2.5f && p[1] == -2.5f);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(back);
  // A second export, released without importing it.
  dlm = tensorflow::TFE_HandleToDLPack(h, s);
  EXPECT_OK(s);
  tensorflow::TFE_CallDLManagedTensorDeleter(dlm);
  tensorflow::TFE_CallDLManagedTensorDeleter(nullptr);
  TFE_DeleteTensorHandle(h);
  TF_DeleteStatus(s);
}

// TF's C++-only overload links against libtfe and fails cleanly (tfe has no
// tensorflow::Tensor; the reference is never read).
void cxx_tensor_overload() {
  TF_Status* s = TF_NewStatus();
  alignas(16) unsigned char storage[64] = {0};
  const tensorflow::Tensor& t =
      *reinterpret_cast<const tensorflow::Tensor*>(storage);
  EXPECT(TFE_NewTensorHandle(t, s) == nullptr);
  EXPECT(TF_GetCode(s) == TF_UNIMPLEMENTED);
  TF_DeleteStatus(s);
}

}  // namespace

int main() {
  custom_device_defaults();
  dlpack_cxx_names();
  cxx_tensor_overload();
  std::printf("ok\n");
  return 0;
}
