/* Resources shared between kernels: resource variables and plugin-made
 * resources, the DT_RESOURCE handle tensors that refer to them, and the
 * process-wide registry keyed by (context id, device, container, name).
 *
 * A handle tensor is a scalar TF_RESOURCE tensor whose buffer holds a
 * reference to one tfe_resource; the reference is dropped when the buffer
 * goes away. Resources are reference counted.
 *
 * Implementation: csrc/kernels/resource.c. */
#ifndef TFE_KERNELS_RESOURCE_H_
#define TFE_KERNELS_RESOURCE_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

/* Kinds of resource. */
enum {
  TFE_RESOURCE_VARIABLE = 1, /* a resource variable (value + dtype) */
  TFE_RESOURCE_PLUGIN = 2,   /* an object made by a plugin */
  TFE_RESOURCE_QUEUE = 3,    /* a queue (kernels/cpu/queue_kernels.c):
                              * object and del as for plugin resources */
  TFE_RESOURCE_TENSOR_ARRAY = 4, /* a TF 1 TensorArray
                                  * (kernels/cpu/tensor_array_kernels.c):
                                  * object and del as for plugin resources */
  TFE_RESOURCE_STACK = 5, /* a TF 1 stack (StackV2; same file and rules) */
  TFE_RESOURCE_LOOKUP_TABLE = 6 /* a lookup table
                                 * (kernels/cpu/lookup_kernels.c): object
                                 * and del as for plugin resources */
};

typedef struct tfe_resource {
  atomic_int refs;
  int kind;
  uint64_t ctx_id; /* owning eager context (0: none) */
  uint64_t order;  /* creation order, for locking several in order */
  char* device;
  char* container;
  char* name;
  /* Guards value (and object) */
  pthread_mutex_t mu;
  /* Variables: declared dtype and current value (NULL: uninitialized;
   * owned). */
  TF_DataType dtype;
  TF_Tensor* value;
  /* Plugin resources: the object and its delete function. */
  void* object;
  void (*del)(void*);
  /* Variables made by VarHandleOp: the declared shape (decl_rank -1 =
   * unknown rank, also used for ranks over TFE_RESOURCE_MAX_DECL_DIMS;
   * a dim of -1 is unknown) and whether the variable ever had a value
   * (picks TensorFlow's wording for lookups that fail). Zero-initialized
   * resources (rank 0, never initialized) are valid. Under mu. */
  int decl_rank;
  int64_t decl_dims[8];
  int ever_initialized;
  /* Made by VarHandleOp with TF's "no sharing" shared name
   * (TFE_RESOURCE_ANONYMOUS_NAME): never registered, each run makes a new
   * one, and it lives as long as its handles (TF's ref-counting handles). */
  int anonymous;
} tfe_resource;

/* TF's ResourceHandle::ANONYMOUS_NAME: a VarHandleOp with this shared_name
 * makes a new variable every time it runs. */
#define TFE_RESOURCE_ANONYMOUS_NAME "cd2c89b7-88b7-44c8-ad83-06c2a9158347"

#define TFE_RESOURCE_MAX_DECL_DIMS 8

/* New resources with one reference (the caller's); NULL when memory runs
 * out. Strings are copied (NULL is taken as ""). */
tfe_resource* tfe_variable_new(uint64_t ctx_id, const char* device,
                               const char* container, const char* name,
                               TF_DataType dtype);
tfe_resource* tfe_plugin_resource_new(uint64_t ctx_id, const char* device,
                                      const char* container,
                                      const char* name, void* object,
                                      void (*del)(void*));

void tfe_resource_ref(tfe_resource* r);
/* Drops a reference; the last one frees the value (or calls the plugin's
 * delete function) and the resource. NULL is ignored. */
void tfe_resource_unref(tfe_resource* r);

/* New scalar TF_RESOURCE handle tensor referring to r (takes a new
 * reference on r). Caller owns the tensor. NULL when memory runs out. */
TF_Tensor* tfe_resource_new_handle(tfe_resource* r);

/* The resource a handle tensor refers to (borrowed), or NULL when t is
 * not a handle made by tfe_resource_new_handle. */
tfe_resource* tfe_resource_of_tensor(const TF_Tensor* t);

/* Registry. lookup returns a new reference or NULL. insert registers r
 * (taking its own reference): ALREADY_EXISTS when the key is taken,
 * RESOURCE_EXHAUSTED when memory runs out; returns 1 on success. */
tfe_resource* tfe_resources_lookup(uint64_t ctx_id, const char* device,
                                   const char* container, const char* name);
int tfe_resources_insert(tfe_resource* r, TF_Status* s);
/* The resource handle target h stands for, with a new reference: h itself
 * when it is anonymous, else the registered one of its key (NULL when
 * none). */
tfe_resource* tfe_resources_lookup_handle(tfe_resource* h);
/* Unregisters r itself (the registry's reference is dropped); 1 when it
 * was registered. */
int tfe_resources_remove(tfe_resource* r);
/* Unregisters every resource of a context / of a device name. */
void tfe_resources_clear_context(uint64_t ctx_id);
void tfe_resources_clear_device(const char* device);
/* Number of registered resources. */
int tfe_resources_count(void);

/* ------------------------------------------------------------------------
 * Variables as the resource kernels (VarHandleOp, ReadVariableOp, ...) use
 * them: csrc/kernels/cpu/resource_vars.c.
 *
 * Semantics follow TensorFlow's eager runtime: VarHandleOp registers an
 * uninitialized variable under (context, device, container, name), the
 * empty container meaning "localhost"; a variable "exists" for lookups
 * only while it has a value. DestroyResourceOp drops the value (the entry
 * stays registered, uninitialized, so the same name can be assigned
 * again, exactly as a re-created variable would be). Values are
 * copy-on-write: readers get tensors sharing the value's buffer, and
 * in-place updates first make the buffer exclusive. */

/* TensorFlow's default container for eager resources. */
#define TFE_RESOURCE_DEFAULT_CONTAINER "localhost"

struct tfe_kernel_context;

/* Eager context id of a running kernel (0 without a context). */
uint64_t tfe_resource_kernel_ctx_id(const struct tfe_kernel_context* k);

/* The registered variable that handle tensor h names, with a new
 * reference. INVALID_ARGUMENT when h is not a resource handle made by
 * tfe, or names a resource that is not a variable; NOT_FOUND with
 * TensorFlow's message when no such variable is registered. The result
 * may be uninitialized (value NULL). */
tfe_resource* tfe_var_from_handle(const TF_Tensor* h, TF_Status* s);

/* Sets s to TensorFlow's error for using uninitialized variable r:
 * for_read 1 gives ReadVariableOp's FAILED_PRECONDITION ("Could not find
 * variable N. This could mean that the variable has been deleted. ..."),
 * 0 the NOT_FOUND that updates and gathers report. */
void tfe_var_set_missing_error(const tfe_resource* r, int for_read,
                               TF_Status* s);

/* New tensor sharing r's value buffer (same dtype and shape), or NULL
 * when uninitialized or out of memory. Hold r->mu. Caller owns it. */
TF_Tensor* tfe_var_share_value(tfe_resource* r);

/* Makes r's value buffer exclusively r's (copying it when any other
 * tensor shares it) so it can be updated in place. Hold r->mu; r must
 * have a value. RESOURCE_EXHAUSTED when the copy cannot be made. Returns
 * 1 on success. */
int tfe_var_prepare_update(tfe_resource* r, TF_Status* s);

/* Deep copy of t (strings copied); NULL when memory runs out. */
TF_Tensor* tfe_tensor_deep_copy(const TF_Tensor* t);

#endif /* TFE_KERNELS_RESOURCE_H_ */
