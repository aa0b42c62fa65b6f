/* Collecting the ops a library defines while it loads: TF_LoadLibrary and
 * TF_LoadPluggableDeviceLibrary start a collection on the loading thread
 * around dlopen() and the plugin's init functions, and every op that
 * TF_RegisterOpDefinition registers on that thread meanwhile is recorded.
 * (Built-in ops never pass through TF_RegisterOpDefinition.) */
#ifndef TFE_OPS_CAPI_OPS_H_
#define TFE_OPS_CAPI_OPS_H_

#include "ops/op_registry.h"

typedef struct tfe_op_collector {
  const tfe_op_def** defs; /* tfe_malloc'd; the definitions are borrowed */
  int n, cap;
  int oom; /* an append failed: the list is incomplete */
  /* The first registration on this thread that failed while collecting
   * (TF_OK when none did): a malformed spec, an invalid definition, out
   * of memory, or a second definition of an op this library registered
   * itself. Redefining an op the library did not define (a built-in or
   * another library's) is not a failure, as in TF. */
  TF_Code error;
  char error_msg[512];
} tfe_op_collector;

/* Starts collecting on this thread into c (zero it first). */
void tfe_ops_collect_begin(tfe_op_collector* c);
/* Stops collecting on this thread; c keeps what was collected (free
 * c->defs with tfe_free). */
void tfe_ops_collect_end(void);

#endif /* TFE_OPS_CAPI_OPS_H_ */
