/* Pending tensor handles: outputs of queued ops. A pending handle knows
 * its dtype and device from the start; its value (or its error) arrives
 * when the op ran. The state moves PENDING -> READY or PENDING -> ERROR
 * exactly once; the fields it publishes (t, error_code, error_msg) are
 * written before the state with release order, and readers load the state
 * with acquire order, so a reader that sees READY sees the value. Waiters
 * sleep on the handle's stripe of the address wait table (core/sync.h). */
#include "core/alloc.h"
#include "core/sync.h"
#include "eager/executor.h"

TFE_TensorHandle* tfe_handle_new_pending(TFE_Context* ctx, TF_DataType dtype,
                                         const tfe_device* device) {
  /* A handle without payload and without tensor: only the state differs
   * from what tfe_handle_new_custom makes. */
  TFE_TensorHandle* h = tfe_handle_new_custom(ctx, dtype, device, NULL);
  if (h == NULL) return NULL;
  atomic_store_explicit(&h->state, TFE_HANDLE_PENDING, memory_order_relaxed);
  return h;
}

static void publish(TFE_TensorHandle* h, int state) {
  tfe_addr_lock(h);
  atomic_store_explicit(&h->state, state, memory_order_release);
  tfe_addr_broadcast(h);
  tfe_addr_unlock(h);
}

void tfe_handle_fulfil(TFE_TensorHandle* h, TF_Tensor* t) {
  h->t = t;
  publish(h, TFE_HANDLE_READY);
}

void tfe_handle_poison(TFE_TensorHandle* h, TF_Code code, const char* msg) {
  h->error_code = code == TF_OK ? TF_UNKNOWN : code;
  /* On OOM the code is still recorded, with an empty message. */
  h->error_msg = tfe_strdup(msg != NULL ? msg : "");
  publish(h, TFE_HANDLE_ERROR);
}

int tfe_handle_wait(TFE_TensorHandle* h) {
  int st = atomic_load_explicit(&h->state, memory_order_acquire);
  if (st != TFE_HANDLE_PENDING) return st;
  tfe_addr_lock(h);
  while ((st = atomic_load_explicit(&h->state, memory_order_acquire)) ==
         TFE_HANDLE_PENDING) {
    tfe_addr_wait(h);
  }
  tfe_addr_unlock(h);
  return st;
}
