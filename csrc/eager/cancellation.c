/* Cancellation managers (TFE_NewCancellationManager and friends) with
 * TensorFlow's semantics:
 *   - tokens come from a counter starting at 0;
 *   - a callback registered before cancellation runs exactly once, from
 *     the thread that calls StartCancel (or TFE_DeleteCancellationManager,
 *     which cancels a manager that still has callbacks, as TF's destructor
 *     does); registering during or after cancellation is refused (false);
 *   - DeregisterCallback during a cancellation waits until every callback
 *     has run, then returns false; TryDeregisterCallback never waits.
 * Callbacks run without the manager's lock held, so they may call any
 * function of the manager except StartCancel-then-wait patterns on itself.
 *
 * An op given a manager (TFE_OpSetCancellationManager) keeps a borrowed
 * pointer; a queued op takes a reference, so deleting the manager while
 * ops that use it are pending is safe. An op whose manager is cancelled
 * when its kernel is about to run fails with TF_CANCELLED instead. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/executor.h"
#include "tensorflow/c/logging.h"

#define TFE_CM_MAGIC 0x434d4658u

typedef struct cm_callback {
  TFE_CancellationToken token;
  TFE_CancelCallback cb;
  char* name;
} cm_callback;

struct TFE_CancellationManager {
  uint32_t magic;
  /* The user's reference plus one per queued op using the manager. */
  atomic_int refs;
  pthread_mutex_t mu;
  pthread_cond_t done_cv; /* signalled when a cancellation finished */
  int cancelling;         /* under mu */
  atomic_int cancelled;   /* set (release) once the callbacks all ran */
  TFE_CancellationToken next_token; /* under mu */
  cm_callback* callbacks;           /* under mu */
  int num_callbacks;
  int cap_callbacks;
};

static int live(const TFE_CancellationManager* cm) {
  return cm != NULL && cm->magic == TFE_CM_MAGIC;
}

TFE_CancellationManager* TFE_NewCancellationManager(void) {
  TFE_CancellationManager* cm =
      (TFE_CancellationManager*)tfe_calloc(1, sizeof(*cm));
  if (cm == NULL) return NULL;
  if (pthread_mutex_init(&cm->mu, NULL) != 0) {
    tfe_free(cm);
    return NULL;
  }
  if (pthread_cond_init(&cm->done_cv, NULL) != 0) {
    pthread_mutex_destroy(&cm->mu);
    tfe_free(cm);
    return NULL;
  }
  cm->magic = TFE_CM_MAGIC;
  atomic_init(&cm->refs, 1);
  atomic_init(&cm->cancelled, 0);
  return cm;
}

void tfe_cancel_ref(TFE_CancellationManager* cm) {
  atomic_fetch_add_explicit(&cm->refs, 1, memory_order_relaxed);
}

void tfe_cancel_unref(TFE_CancellationManager* cm) {
  int i;
  if (atomic_fetch_sub_explicit(&cm->refs, 1, memory_order_acq_rel) != 1) {
    return;
  }
  for (i = 0; i < cm->num_callbacks; i++) tfe_free(cm->callbacks[i].name);
  tfe_free(cm->callbacks);
  pthread_cond_destroy(&cm->done_cv);
  pthread_mutex_destroy(&cm->mu);
  cm->magic = TFE_DEAD_MAGIC;
  tfe_free(cm);
}

int tfe_cancel_check(TFE_CancellationManager* cm, const char* op_name,
                     TF_Status* s) {
  int cancelling;
  if (cm == NULL) return 1;
  if (atomic_load_explicit(&cm->cancelled, memory_order_acquire)) {
    cancelling = 1;
  } else {
    pthread_mutex_lock(&cm->mu);
    cancelling = cm->cancelling;
    pthread_mutex_unlock(&cm->mu);
  }
  if (!cancelling) return 1;
  tfe_status_setf(s, TF_CANCELLED,
                  "Operation %s was cancelled (its cancellation manager was "
                  "cancelled before the op ran)",
                  op_name != NULL ? op_name : "");
  return 0;
}

bool TFE_CancellationManagerIsCancelled(TFE_CancellationManager* cm) {
  if (!live(cm)) return false;
  return atomic_load_explicit(&cm->cancelled, memory_order_acquire) != 0;
}

bool TFE_CancellationManagerIsCancelling(TFE_CancellationManager* cm) {
  int r;
  if (!live(cm)) return false;
  pthread_mutex_lock(&cm->mu);
  r = cm->cancelling;
  pthread_mutex_unlock(&cm->mu);
  return r != 0;
}

void TFE_CancellationManagerStartCancel(TFE_CancellationManager* cm) {
  cm_callback* run;
  int n, i;
  if (!live(cm)) return;
  pthread_mutex_lock(&cm->mu);
  if (cm->cancelling ||
      atomic_load_explicit(&cm->cancelled, memory_order_relaxed)) {
    pthread_mutex_unlock(&cm->mu);
    return;
  }
  cm->cancelling = 1;
  /* Take the callbacks out: they run without the lock, and concurrent
   * deregistrations wait for done_cv instead of touching the array. */
  run = cm->callbacks;
  n = cm->num_callbacks;
  cm->callbacks = NULL;
  cm->num_callbacks = 0;
  cm->cap_callbacks = 0;
  pthread_mutex_unlock(&cm->mu);

  for (i = 0; i < n; i++) {
    if (run[i].cb.callback != NULL) run[i].cb.callback(run[i].cb.context);
    tfe_free(run[i].name);
  }
  tfe_free(run);

  pthread_mutex_lock(&cm->mu);
  cm->cancelling = 0;
  atomic_store_explicit(&cm->cancelled, 1, memory_order_release);
  pthread_cond_broadcast(&cm->done_cv);
  pthread_mutex_unlock(&cm->mu);
}

TFE_CancellationToken TFE_CancellationManagerGetToken(
    TFE_CancellationManager* cm) {
  TFE_CancellationToken t;
  if (!live(cm)) return -1;
  pthread_mutex_lock(&cm->mu);
  t = cm->next_token++;
  pthread_mutex_unlock(&cm->mu);
  return t;
}

static int find_locked(const TFE_CancellationManager* cm,
                       TFE_CancellationToken token) {
  int i;
  for (i = 0; i < cm->num_callbacks; i++) {
    if (cm->callbacks[i].token == token) return i;
  }
  return -1;
}

bool TFE_CancellationManagerRegisterCallback(
    TFE_CancellationManager* cm, TFE_CancellationToken token,
    const TFE_CancelCallback* c_callback, const char* callback_name) {
  char* name;
  int i;
  if (!live(cm) || c_callback == NULL || c_callback->callback == NULL) {
    return false;
  }
  name = tfe_strdup(callback_name != NULL ? callback_name : "");
  if (name == NULL) {
    TF_Log(TF_ERROR,
           "TFE_CancellationManagerRegisterCallback: out of memory; callback "
           "not registered");
    return false;
  }
  pthread_mutex_lock(&cm->mu);
  if (cm->cancelling ||
      atomic_load_explicit(&cm->cancelled, memory_order_relaxed)) {
    pthread_mutex_unlock(&cm->mu);
    tfe_free(name);
    return false;
  }
  i = find_locked(cm, token);
  if (i >= 0) {
    /* Registering a token again replaces its callback. */
    tfe_free(cm->callbacks[i].name);
  } else {
    if (cm->num_callbacks == cm->cap_callbacks) {
      int cap = cm->cap_callbacks == 0 ? 4 : cm->cap_callbacks * 2;
      cm_callback* p = (cm_callback*)tfe_realloc(
          cm->callbacks, sizeof(cm_callback) * (size_t)cap);
      if (p == NULL) {
        pthread_mutex_unlock(&cm->mu);
        tfe_free(name);
        TF_Log(TF_ERROR,
               "TFE_CancellationManagerRegisterCallback: out of memory; "
               "callback not registered");
        return false;
      }
      cm->callbacks = p;
      cm->cap_callbacks = cap;
    }
    i = cm->num_callbacks++;
  }
  cm->callbacks[i].token = token;
  cm->callbacks[i].cb = *c_callback;
  cm->callbacks[i].name = name;
  pthread_mutex_unlock(&cm->mu);
  return true;
}

/* Removes token's callback (under mu). */
static void remove_locked(TFE_CancellationManager* cm,
                          TFE_CancellationToken token) {
  int i = find_locked(cm, token);
  if (i < 0) return;
  tfe_free(cm->callbacks[i].name);
  cm->callbacks[i] = cm->callbacks[cm->num_callbacks - 1];
  cm->num_callbacks--;
}

bool TFE_CancellationManagerDeregisterCallback(TFE_CancellationManager* cm,
                                               TFE_CancellationToken token) {
  if (!live(cm)) return false;
  pthread_mutex_lock(&cm->mu);
  if (atomic_load_explicit(&cm->cancelled, memory_order_relaxed)) {
    pthread_mutex_unlock(&cm->mu);
    return false;
  }
  if (cm->cancelling) {
    /* The callback may be running: wait until every callback ran, so the
     * caller can free what its callback uses once this returns. */
    while (cm->cancelling) pthread_cond_wait(&cm->done_cv, &cm->mu);
    pthread_mutex_unlock(&cm->mu);
    return false;
  }
  remove_locked(cm, token);
  pthread_mutex_unlock(&cm->mu);
  return true;
}

bool TFE_CancellationManagerTryDeregisterCallback(
    TFE_CancellationManager* cm, TFE_CancellationToken token) {
  if (!live(cm)) return false;
  pthread_mutex_lock(&cm->mu);
  if (cm->cancelling ||
      atomic_load_explicit(&cm->cancelled, memory_order_relaxed)) {
    pthread_mutex_unlock(&cm->mu);
    return false;
  }
  remove_locked(cm, token);
  pthread_mutex_unlock(&cm->mu);
  return true;
}

void TFE_DeleteCancellationManager(TFE_CancellationManager* cm) {
  int has_callbacks;
  if (!live(cm)) return;
  pthread_mutex_lock(&cm->mu);
  has_callbacks = cm->num_callbacks > 0;
  pthread_mutex_unlock(&cm->mu);
  /* Like TF's destructor: callbacks still registered are run. */
  if (has_callbacks) TFE_CancellationManagerStartCancel(cm);
  tfe_cancel_unref(cm);
}

void TFE_OpSetCancellationManager(TFE_Op* op,
                                  TFE_CancellationManager* cancellation_manager,
                                  TF_Status* status) {
  if (!tfe_op_check(op, "TFE_OpSetCancellationManager", status)) return;
  if (cancellation_manager != NULL && !live(cancellation_manager)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_OpSetCancellationManager: the argument is not a live "
                    "TFE_CancellationManager");
    return;
  }
  op->cancel = cancellation_manager;
  tfe_status_ok(status);
}
