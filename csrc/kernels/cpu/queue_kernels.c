/* CPU kernels: queues (FIFOQueueV2 and friends). */
#include "kernels/cpu/cpu_kernels.h"

void tfe_register_cpu_queue_kernels(void) {}
