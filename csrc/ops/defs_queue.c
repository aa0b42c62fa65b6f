/* Built-in op definitions: queues (FIFOQueueV2 and friends).
 * Names, arg and attr names, types, defaults and allowed dtypes follow
 * TensorFlow 2.21's op registry. Only the resource (V2) variants are
 * defined; TF 1's Ref(string) queue handles are not. The kernels are in
 * csrc/kernels/cpu/queue_kernels.c. */
#include "ops/ops_internal.h"

int tfe_ops_register_queue_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("FIFOQueueV2", "out: handle: resource",
           "attr: component_types: list(type) >= 1",
           "attr: shapes: list(shape) >= 0 = []",
           "attr: capacity: int = -1",
           "attr: container: string = ''",
           "attr: shared_name: string = ''",
           "stateful"),
    TFE_OP("PaddingFIFOQueueV2", "out: handle: resource",
           "attr: component_types: list(type) >= 1",
           "attr: shapes: list(shape) >= 0 = []",
           "attr: capacity: int = -1",
           "attr: container: string = ''",
           "attr: shared_name: string = ''",
           "stateful"),
    TFE_OP("RandomShuffleQueueV2", "out: handle: resource",
           "attr: component_types: list(type) >= 1",
           "attr: shapes: list(shape) >= 0 = []",
           "attr: capacity: int = -1",
           "attr: min_after_dequeue: int = 0",
           "attr: seed: int = 0",
           "attr: seed2: int = 0",
           "attr: container: string = ''",
           "attr: shared_name: string = ''",
           "stateful"),
    TFE_OP("QueueEnqueueV2", "in: handle: resource",
           "in: components: Tcomponents",
           "attr: Tcomponents: list(type) >= 1",
           "attr: timeout_ms: int = -1"),
    TFE_OP("QueueEnqueueManyV2", "in: handle: resource",
           "in: components: Tcomponents",
           "attr: Tcomponents: list(type) >= 1",
           "attr: timeout_ms: int = -1"),
    TFE_OP("QueueDequeueV2", "in: handle: resource",
           "out: components: component_types",
           "attr: component_types: list(type) >= 1",
           "attr: timeout_ms: int = -1"),
    TFE_OP("QueueDequeueManyV2", "in: handle: resource",
           "in: n: int32",
           "out: components: component_types",
           "attr: component_types: list(type) >= 1",
           "attr: timeout_ms: int = -1"),
    TFE_OP("QueueDequeueUpToV2", "in: handle: resource",
           "in: n: int32",
           "out: components: component_types",
           "attr: component_types: list(type) >= 1",
           "attr: timeout_ms: int = -1"),
    TFE_OP("QueueCloseV2", "in: handle: resource",
           "attr: cancel_pending_enqueues: bool = false"),
    TFE_OP("QueueSizeV2", "in: handle: resource",
           "out: size: int32"),
    TFE_OP("QueueIsClosedV2", "in: handle: resource",
           "out: is_closed: bool"),
};

int tfe_ops_register_queue_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]));
}
