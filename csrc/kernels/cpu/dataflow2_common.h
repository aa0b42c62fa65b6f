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

#include <pthread.h>

#include "kernels/kernel.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"
#include "tensorflow/c/eager/c_api_experimental.h"

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

/* Finds the object of `kind` registered under (k's context and device,
 * container, name), or makes one with kind->make and registers it (a
 * racing registration of the same name wins and is used). Returns a new
 * reference, or NULL with k->status set. A resource of another kind under
 * the name fails with INVALID_ARGUMENT: "Trying to access resource <shown>
 * located in device <device> as a <what>, but it is not one" when `what`
 * is given, else "Resource <container>/<name> of another kind exists on
 * <device>". kind->verify (optional) checks an object found. make may
 * return NULL with k->status still OK only when out of memory. */
tfe_resource* df2_find_or_make(tfe_kernel_context* k, const df2_kind* kind,
                               const char* container, const char* name,
                               const char* what, const char* shown);

/* The container and shared_name attrs of k: an empty container is TF's
 * default one; *shared is "" when unnamed. */
void df2_container_attrs(tfe_kernel_context* k, const char** container,
                         const char** shared);

/* The resource a handle tensor names: t is a DT_RESOURCE handle made by
 * tfe, or TF 1's string handle [container, name] (any other dtype fails
 * with INVALID_ARGUMENT "<op>: input 0 is not a handle"). A new reference,
 * or NULL with k->status set: TF's "Resource handle must have 2 elements"
 * for a malformed string handle, NOT_FOUND "Resource <container>/<name>/
 * <type_name> does not exist." when nothing is registered. */
tfe_resource* df2_lookup_handle(tfe_kernel_context* k, const TF_Tensor* t,
                                const char* type_name);

/* When ok is 0: unrefs r and fails with TF's INVALID_ARGUMENT "Trying to
 * access resource <r's name> located in device <r's device> as a <what>,
 * but it is not one"; returns ok. */
int df2_check_kind(tfe_kernel_context* k, tfe_resource* r, int ok,
                   const char* what);

/* A blocking wait on (mu, cv) that the run's cancellation manager can end:
 * the callback sets `cancelled` and broadcasts cv under mu. */
typedef struct df2_wait {
  pthread_mutex_t* mu;
  pthread_cond_t* cv;
  int cancelled;
  TFE_CancellationToken token; /* -1: not registered */
} df2_wait;

/* A binary min-heap of esz-byte elements (esz <= DF2_HEAP_MAX_ELEM)
 * ordered by an int64 key, sifted exactly as libstdc++'s push_heap /
 * pop_heap with TF's std::priority_queue comparison (greater key sorts
 * below), so equal keys come out in TF's order (Barrier, PriorityQueue).
 * df2_heap_push: element n-1 was just appended to a heap of n-1. */
#define DF2_HEAP_MAX_ELEM 64
void df2_heap_push(void* h, size_t esz, int64_t n,
                   int64_t (*key)(const void* elem));
/* Moves the top of a heap of n > 0 elements into *out; n-1 remain. */
void df2_heap_pop(void* h, size_t esz, int64_t n,
                  int64_t (*key)(const void* elem), void* out);

/* Initializes mu and cv (defaults); 0 when either fails (neither is left
 * initialized). */
int df2_sync_init(pthread_mutex_t* mu, pthread_cond_t* cv);

/* Prepares w and registers it with k->cancel (none: only another op can
 * end the wait). Returns 0 when the run is already cancelled (nothing
 * registered). Call without holding mu; pair a 1 with df2_wait_end. */
int df2_wait_begin(tfe_kernel_context* k, df2_wait* w, pthread_mutex_t* mu,
                   pthread_cond_t* cv, const char* what);

/* Deregisters w (waits for a callback that is running). Without mu. */
void df2_wait_end(tfe_kernel_context* k, df2_wait* w);

/* TF 1's handle of r: a new cell holding the string[2] tensor
 * [container, name]; NULL on OOM. */
tfe_ref_cell* df2_handle_cell(const tfe_resource* r);

/* TF's DataTypeSliceString ("float, int32") of n dtypes into buf; -1 is
 * rendered "string_ref". */
void df2_dtype_list(const TF_DataType* t, int n, char* buf, size_t cap);

/* A new tensor sharing t's buffer; NULL on OOM. */
TF_Tensor* df2_share(const TF_Tensor* t);

#endif /* TFE_KERNELS_CPU_DATAFLOW2_COMMON_H_ */
