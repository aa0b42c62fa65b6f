/* Shared pieces of the dataflow2 kernels (csrc/kernels/cpu/dataflow2_*.c):
 * the ops that make a stateful object (Barrier, ConditionalAccumulator,
 * ...) and hand out a handle to it, and the lookup of that object from a
 * handle input.
 *
 * As TF's ResourceOpKernel, a making kernel keeps, per kernel instance, the
 * object it made for each (context, node), so running the same node again
 * hands out the same object. Objects are resources (kernels/resource.h,
 * kind TFE_RESOURCE_PLUGIN, identified by their delete function) registered
 * under (context, device, container, shared_name), an unnamed one under
 * "_<n>_<node>" as TF names it. TF 1 ops output a Ref(string) handle
 * holding [container, name]; Resource* ops a DT_RESOURCE handle. */
#ifndef TFE_KERNELS_CPU_DATAFLOW2_COMMON_H_
#define TFE_KERNELS_CPU_DATAFLOW2_COMMON_H_

#include "kernels/kernel.h"
#include "kernels/resource.h"

/* What a making kernel builds. make returns a new object for `name` (NULL
 * with k->status set); verify checks that a shared object found under the
 * name fits this node's attrs (0 with k->status set); del frees an object
 * and identifies the kind. */
typedef struct df2_kind {
  const char* type_name; /* TF's C++ type name, for NOT_FOUND messages */
  void* (*make)(tfe_kernel_context* k, const char* name);
  int (*verify)(tfe_kernel_context* k, void* obj, const char* name);
  void (*del)(void* obj);
} df2_kind;

/* Kernel-instance state of a making kernel (tfe_kernel_reg.create/destroy). */
void* df2_maker_create(const tfe_op_def* def, const tfe_attrs* attrs,
                       void* user_data, TF_Status* status);
void df2_maker_destroy(void* state, void* user_data);

/* The making kernel's compute: makes or finds the object and sets output 0
 * (a Ref(string) handle when ref_handle, else a resource handle). */
void df2_maker_compute(tfe_kernel_context* k, const df2_kind* kind,
                       int ref_handle);

/* The object behind handle input 0 (a Ref(string) [container, name] or a
 * resource handle) with a new reference on its resource in *res; NULL with
 * k->status set (TF's NOT_FOUND when missing). */
void* df2_object_from_input(tfe_kernel_context* k, const df2_kind* kind,
                            tfe_resource** res);

/* TF's DataTypeSliceString ("float, int32") of n dtypes into buf; -1 is
 * rendered "string_ref". */
void df2_dtype_list(const TF_DataType* t, int n, char* buf, size_t cap);

/* A new tensor sharing t's buffer; NULL on OOM. */
TF_Tensor* df2_share(const TF_Tensor* t);

#endif /* TFE_KERNELS_CPU_DATAFLOW2_COMMON_H_ */
