/* The in-process rendezvous TF_GetRendezvous (kernels.h) hands to kernels:
 * a table through which one kernel sends a tensor under a string key and
 * another receives it (csrc/kernels/rendezvous.c). */
#ifndef TFE_KERNELS_RENDEZVOUS_H_
#define TFE_KERNELS_RENDEZVOUS_H_

#include <stdint.h>

#include "tensorflow/c/kernels.h"

/* The thunk of the rendezvous of eager context `ctx_id` (0: kernels that
 * run outside any context share one), created on first use and freed with
 * the context's resources. On failure (out of memory) an all-NULL thunk. */
TF_RendezvousThunk tfe_rendezvous_thunk(uint64_t ctx_id);

#endif /* TFE_KERNELS_RENDEZVOUS_H_ */
