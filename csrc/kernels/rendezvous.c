/* An in-process rendezvous, as TensorFlow's local rendezvous behaves:
 *
 *   - send(key, tensor, is_dead): when a receive for `key` is waiting, its
 *     callback runs at once (in the sender's thread) with the tensor;
 *     otherwise the tensor (its buffer shared, not copied) waits for a
 *     receive. Several sends and receives of one key pair up in order.
 *   - async_recv(key, on_done): when a tensor for `key` is waiting,
 *     on_done runs at once (in the receiver's thread); otherwise on_done
 *     waits for a send and runs in the sender's thread. The tensor it gets
 *     is lent: valid until the callback returns (copy what must stay).
 *   - start_abort(status): every waiting receive completes with `status`,
 *     waiting tensors are dropped, and later sends and receives fail with
 *     it.
 *
 * One rendezvous per eager context, kept as a plugin resource of the
 * context (container "__tfe_rendezvous"), so it goes when the context
 * does; its receives still waiting then complete with TF_CANCELLED. Keys
 * are compared as bytes (full_key, full_key_size). The args (device
 * context, allocator attributes, cancellation manager) are accepted and
 * not used. */
#include "kernels/rendezvous.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "kernels/resource.h"

#define RV_CONTAINER "__tfe_rendezvous"
#define RV_NAME "rendezvous"

typedef struct rv_item {
  struct rv_item* next;
  char* key;
  size_t key_len;
  int is_send;
  TF_Tensor* tensor; /* send: a tensor sharing the sender's buffer */
  bool is_dead;
  TF_RendezvousDoneCallbackImpl on_done; /* receive */
} rv_item;

typedef struct tfe_rendezvous {
  pthread_mutex_t mu;
  rv_item* head;
  TF_Status* aborted; /* non-NULL once aborted: the reason */
} tfe_rendezvous;

static rv_item* new_item(const TF_RendezvousParsedKey* key) {
  rv_item* it = (rv_item*)tfe_calloc(1, sizeof *it);
  if (it == NULL) return NULL;
  it->key_len = key->full_key_size;
  it->key = (char*)tfe_malloc(it->key_len + 1);
  if (it->key == NULL) {
    tfe_free(it);
    return NULL;
  }
  if (it->key_len) memcpy(it->key, key->full_key, it->key_len);
  it->key[it->key_len] = '\0';
  return it;
}

static void free_item(rv_item* it) {
  if (it == NULL) return;
  TF_DeleteTensor(it->tensor);
  tfe_free(it->key);
  tfe_free(it);
}

static void append(tfe_rendezvous* rv, rv_item* it) {
  rv_item** p = &rv->head;
  while (*p != NULL) p = &(*p)->next;
  *p = it;
}

/* Unlinks and returns the oldest item for key of the given direction. */
static rv_item* take(tfe_rendezvous* rv, const TF_RendezvousParsedKey* key,
                     int is_send) {
  rv_item** p;
  for (p = &rv->head; *p != NULL; p = &(*p)->next) {
    rv_item* it = *p;
    if (it->is_send == is_send && it->key_len == key->full_key_size &&
        (it->key_len == 0 || memcmp(it->key, key->full_key, it->key_len) == 0)) {
      *p = it->next;
      it->next = NULL;
      return it;
    }
  }
  return NULL;
}

static void complete(const TF_RendezvousDoneCallbackImpl* on_done,
                     const TF_Status* status, const TF_Tensor* tensor,
                     bool is_dead) {
  TF_RendezvousDoneCallback_Params params;
  if (on_done->callback == NULL) return;
  params.context = on_done->context;
  params.status = status;
  params.tensor = tensor;
  params.is_dead = is_dead;
  on_done->callback(on_done->context, &params);
}

static int valid_key(const TF_RendezvousParsedKey* key) {
  return key != NULL && (key->full_key != NULL || key->full_key_size == 0);
}

static void rv_send(void* self, TF_RendezvousSend_Params* params) {
  tfe_rendezvous* rv = (tfe_rendezvous*)self;
  rv_item* waiting;
  TF_Status* ok;
  if (params == NULL) return;
  if (rv == NULL || !valid_key(params->key) || params->tensor == NULL) {
    tfe_status_setf(params->status, TF_INVALID_ARGUMENT,
                    "rendezvous send: the rendezvous, key and tensor must be "
                    "non-NULL");
    return;
  }
  pthread_mutex_lock(&rv->mu);
  if (rv->aborted != NULL) {
    tfe_status_copy(params->status, rv->aborted);
    pthread_mutex_unlock(&rv->mu);
    return;
  }
  waiting = take(rv, params->key, 0);
  if (waiting == NULL) {
    rv_item* it = new_item(params->key);
    TF_Tensor* shared =
        it != NULL ? tfe_tensor_from_buffer(params->tensor->dtype,
                                            params->tensor->dims,
                                            params->tensor->num_dims,
                                            params->tensor->buf)
                   : NULL;
    if (shared == NULL) {
      pthread_mutex_unlock(&rv->mu);
      free_item(it);
      tfe_status_setf(params->status, TF_RESOURCE_EXHAUSTED,
                      "rendezvous send: out of memory");
      return;
    }
    it->is_send = 1;
    it->tensor = shared;
    it->is_dead = params->is_dead;
    append(rv, it);
    pthread_mutex_unlock(&rv->mu);
    tfe_status_ok(params->status);
    return;
  }
  pthread_mutex_unlock(&rv->mu);
  ok = TF_NewStatus();
  complete(&waiting->on_done, ok, params->tensor, params->is_dead);
  TF_DeleteStatus(ok);
  free_item(waiting);
  tfe_status_ok(params->status);
}

static void rv_async_recv(void* self, TF_RendezvousAsyncRecv_Params* params) {
  tfe_rendezvous* rv = (tfe_rendezvous*)self;
  rv_item* sent;
  TF_Status* st;
  if (params == NULL || params->on_done.callback == NULL) return;
  st = TF_NewStatus();
  if (rv == NULL || !valid_key(params->key)) {
    tfe_status_setf(st, TF_INVALID_ARGUMENT,
                    "rendezvous receive: the rendezvous and key must be "
                    "non-NULL");
    complete(&params->on_done, st, NULL, false);
    TF_DeleteStatus(st);
    return;
  }
  pthread_mutex_lock(&rv->mu);
  if (rv->aborted != NULL) {
    tfe_status_copy(st, rv->aborted);
    pthread_mutex_unlock(&rv->mu);
    complete(&params->on_done, st, NULL, false);
    TF_DeleteStatus(st);
    return;
  }
  sent = take(rv, params->key, 1);
  if (sent == NULL) {
    rv_item* it = new_item(params->key);
    if (it == NULL) {
      pthread_mutex_unlock(&rv->mu);
      tfe_status_setf(st, TF_RESOURCE_EXHAUSTED,
                      "rendezvous receive: out of memory");
      complete(&params->on_done, st, NULL, false);
      TF_DeleteStatus(st);
      return;
    }
    it->on_done = params->on_done;
    append(rv, it);
    pthread_mutex_unlock(&rv->mu);
    TF_DeleteStatus(st);
    return;
  }
  pthread_mutex_unlock(&rv->mu);
  complete(&params->on_done, st, sent->tensor, sent->is_dead);
  TF_DeleteStatus(st);
  free_item(sent);
}

/* Ends every waiting item: receives complete with `why`, sends drop. */
static void drain(rv_item* list, const TF_Status* why) {
  while (list != NULL) {
    rv_item* next = list->next;
    if (!list->is_send) complete(&list->on_done, why, NULL, false);
    free_item(list);
    list = next;
  }
}

static void rv_start_abort(void* self, const TF_Status* status) {
  tfe_rendezvous* rv = (tfe_rendezvous*)self;
  TF_Status* why;
  rv_item* list;
  if (rv == NULL) return;
  why = TF_NewStatus();
  if (why == NULL) return;
  if (status != NULL && TF_GetCode(status) != TF_OK) {
    tfe_status_copy(why, status);
  } else {
    TF_SetStatus(why, TF_ABORTED, "rendezvous aborted");
  }
  pthread_mutex_lock(&rv->mu);
  if (rv->aborted != NULL) {
    pthread_mutex_unlock(&rv->mu);
    TF_DeleteStatus(why);
    return;
  }
  rv->aborted = why;
  list = rv->head;
  rv->head = NULL;
  pthread_mutex_unlock(&rv->mu);
  drain(list, why);
}

static void rv_free(void* self) {
  tfe_rendezvous* rv = (tfe_rendezvous*)self;
  TF_Status* why;
  rv_item* list;
  if (rv == NULL) return;
  pthread_mutex_lock(&rv->mu);
  list = rv->head;
  rv->head = NULL;
  pthread_mutex_unlock(&rv->mu);
  why = TF_NewStatus();
  TF_SetStatus(why, TF_CANCELLED,
               "the rendezvous was destroyed with its context before a "
               "tensor was sent");
  drain(list, why);
  TF_DeleteStatus(why);
  TF_DeleteStatus(rv->aborted);
  pthread_mutex_destroy(&rv->mu);
  tfe_free(rv);
}

static tfe_rendezvous* rv_new(void) {
  tfe_rendezvous* rv = (tfe_rendezvous*)tfe_calloc(1, sizeof *rv);
  if (rv == NULL) return NULL;
  pthread_mutex_init(&rv->mu, NULL);
  return rv;
}

TF_RendezvousThunk tfe_rendezvous_thunk(uint64_t ctx_id) {
  TF_RendezvousThunk t;
  int attempt;
  memset(&t, 0, sizeof t);
  for (attempt = 0; attempt < 2; attempt++) {
    tfe_resource* r = tfe_resources_lookup(ctx_id, "", RV_CONTAINER, RV_NAME);
    tfe_rendezvous* rv;
    TF_Status* s;
    int inserted;
    if (r != NULL) {
      /* The context keeps its reference; the object lives as long as it. */
      if (r->kind == TFE_RESOURCE_PLUGIN && r->object != NULL) {
        t.rendezvous = r->object;
        t.send_func = rv_send;
        t.async_recv_func = rv_async_recv;
        t.start_abort_func = rv_start_abort;
      }
      tfe_resource_unref(r);
      return t;
    }
    rv = rv_new();
    if (rv == NULL) return t;
    r = tfe_plugin_resource_new(ctx_id, "", RV_CONTAINER, RV_NAME, rv, rv_free);
    if (r == NULL) {
      rv_free(rv);
      return t;
    }
    s = TF_NewStatus();
    inserted = s != NULL && tfe_resources_insert(r, s);
    TF_DeleteStatus(s);
    tfe_resource_unref(r); /* frees rv when the insert failed */
    if (!inserted && attempt == 1) return t;
    /* Inserted, or another thread made one meanwhile: look it up. */
  }
  return t;
}
