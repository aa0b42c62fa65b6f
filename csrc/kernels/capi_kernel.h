/* The kernel C API (kernels.h) on top of the kernel registry: the layout
 * of TF_KernelBuilder, TF_OpKernelConstruction and TF_OpKernelContext, and
 * the adapter that turns a builder into a tfe_kernel_reg.
 *
 * Files: capi_builder.c (builders, registration, the adapter, async done
 * callbacks), capi_construction.c (attrs at construction),
 * capi_context.c (inputs, outputs, allocation, ids),
 * capi_variables.c (kernels_experimental.h), capi_next_pluggable.c
 * (next_pluggable_device/c_api.h), host_memory.c. */
#ifndef TFE_KERNELS_CAPI_KERNEL_H_
#define TFE_KERNELS_CAPI_KERNEL_H_

#include <stdatomic.h>

#include "devices/pluggable_device.h"
#include "kernels/kernel.h"
#include "tensorflow/c/kernels.h"

/* Attrs a builder may constrain (the registry's limit). */
#define TFE_CAPI_MAX_CONSTRAINTS TFE_KERNEL_MAX_CONSTRAINTS
#define TFE_CAPI_MAX_TYPES 32

struct TF_KernelBuilder {
  char* op_name;
  char* device_type;
  void* (*create)(TF_OpKernelConstruction*);
  void (*compute)(void*, TF_OpKernelContext*);
  void (*compute_async)(void*, TF_OpKernelContext*,
                        TF_AsyncOpKernelDoneCallback*);
  void (*destroy)(void*);
  struct {
    char* attr;
    TF_DataType types[TFE_CAPI_MAX_TYPES];
    int num_types;
  } constraints[TFE_CAPI_MAX_CONSTRAINTS];
  int num_constraints;
  char** host_memory;
  int num_host_memory;
  int priority;
  char* label;
  /* First problem met while building (reported at registration). */
  TF_Code error;
  char error_msg[256];
};

/* What a registered builder leaves behind (lives for the process). */
typedef struct tfe_capi_kernel {
  char* kernel_name;
  void* (*create)(TF_OpKernelConstruction*);
  void (*compute)(void*, TF_OpKernelContext*);
  void (*compute_async)(void*, TF_OpKernelContext*,
                        TF_AsyncOpKernelDoneCallback*);
  void (*destroy)(void*);
  const tfe_kernel_reg* reg; /* the registry's copy, set after registering */
} tfe_capi_kernel;

/* Per kernel instance (one per kernel-cache entry). */
typedef struct tfe_capi_state {
  void* object; /* what create returned */
  const tfe_capi_kernel* ck;
  /* The device the instance runs on, resolved on first compute. */
  _Atomic(const char*) device_name;
  _Atomic(tfe_pdev*) pdev;
} tfe_capi_state;

struct TF_OpKernelConstruction {
  const tfe_op_def* def;
  const tfe_attrs* attrs;
  const tfe_capi_kernel* ck;
  TF_Status* status; /* failure reported by TF_OpKernelConstruction_Failure */
};

struct TF_OpKernelContext {
  tfe_kernel_context* k;
  const tfe_capi_kernel* ck;
  tfe_pdev* pdev; /* non-NULL on a PluggableDevice */
  int device_id;
  int deferred_ops;
};

struct TF_AsyncOpKernelDoneCallback {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;
};

/* Flat index range [*start, *stop) of the input (is_output 0) or output
 * arg named `name`; 0 with INVALID_ARGUMENT when there is no such arg. */
int tfe_capi_arg_range(const tfe_kernel_context* k, int is_output,
                       const char* name, int* start, int* stop,
                       TF_Status* s);

/* A new tensor sharing t's buffer (same dtype and shape); NULL on OOM. */
TF_Tensor* tfe_capi_share(const TF_Tensor* t);

/* A new tensor of dtype and shape in host memory (on_host, or a kernel
 * not on a PluggableDevice, or a host-only dtype) or in the kernel's device
 * memory, marked as written by the compute stream. NULL + status. */
TF_Tensor* tfe_capi_alloc(TF_OpKernelContext* ctx, int on_host,
                          TF_DataType dtype, const int64_t* dims,
                          int num_dims, TF_Status* status);

/* The DT_RESOURCE input i's resource or NULL (status set). */
struct tfe_resource* tfe_capi_input_resource(TF_OpKernelContext* ctx, int i,
                                             TF_Status* s);

/* The context id of the running kernel (0 when it runs without one). */
uint64_t tfe_capi_ctx_id(const TF_OpKernelContext* ctx);

#endif /* TFE_KERNELS_CAPI_KERNEL_H_ */
