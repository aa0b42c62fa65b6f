/* Callbacks written in Python (tfe_py.custom_device), declared for cffi.
 *
 * build_ffi.py appends this file to the cdef and never gives it to the C
 * compiler: `extern "Python"` is cffi syntax, not C. cffi generates a C
 * function for each declaration that calls the Python function registered
 * with @ffi.def_extern() under the same name; `lib.<name>` is then a C
 * function pointer that can go into a TFE_CustomDevice or a
 * TFE_CustomDeviceTensorHandle. The Python side catches every exception
 * and reports it through the TF_Status argument (or ignores it where there
 * is none), so no Python exception ever crosses into C.
 *
 * The signatures are those of the fields of TFE_CustomDevice and
 * TFE_CustomDeviceTensorHandleMethods
 * (tensorflow/c/eager/c_api_experimental.h). */

/* TFE_CustomDevice; device_info is the handle of the Python device. */
extern "Python" TFE_TensorHandle* tfe_py_cd_copy_to_device(
    TFE_Context* context, TFE_TensorHandle* tensor, TF_Status* status,
    void* device_info);
extern "Python" TFE_TensorHandle* tfe_py_cd_copy_from_device(
    TFE_Context* context, TFE_TensorHandle* tensor,
    const char* target_device_name, TF_Status* status, void* device_info);
extern "Python" void tfe_py_cd_execute(const TFE_Op* op, int* num_outputs,
                                       TFE_TensorHandle** outputs,
                                       TF_Status* s, void* device_info);
extern "Python" void tfe_py_cd_delete_device(void* device_info);
extern "Python" TFE_TensorHandle* tfe_py_cd_pack(TFE_Context* context,
                                                 TFE_TensorHandle** handles,
                                                 int num_handles,
                                                 TF_Status* s,
                                                 void* device_info);
extern "Python" bool tfe_py_cd_shall_pin(const TFE_Op* op, TF_Status* s);

/* TFE_CustomDeviceTensorHandleMethods; data is the handle of the Python
 * payload. */
extern "Python" int tfe_py_cdh_num_dims(void* data, TF_Status* status);
extern "Python" int64_t tfe_py_cdh_dim(void* data, int dim_index,
                                       TF_Status* status);
extern "Python" void tfe_py_cdh_deallocator(void* data);
extern "Python" TF_Buffer* tfe_py_cdh_summarize(void* data,
                                                TF_Status* status);
