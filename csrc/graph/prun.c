/* Partial runs: TF_SessionPRunSetup declares feeds, fetches and targets;
 * each TF_SessionPRun call then feeds some of the declared inputs (each
 * once) and fetches some of the declared outputs (each once). As in TF,
 * one execution of the plan for everything declared advances as feeds
 * arrive: each call runs the nodes its feeds made ready, and every node
 * runs at most once in the partial run. Graphs with v1 control flow are
 * the exception: there a call runs the plan for its fetches and targets
 * with every value fed so far (a node two calls both need runs in each). */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "graph/plan_internal.h"
#include "graph/session_priv.h"

void tfe_prun_free(tfe_prun* pr) {
  int i;
  if (pr == NULL) return;
  tfe_plan_prun_free(pr->exec);
  if (pr->entry != NULL) tfe_session_put_plan(pr->session, pr->entry);
  if (pr->fed != NULL) {
    for (i = 0; i < pr->nin; i++) {
      if (pr->fed[i] != NULL) TF_DeleteTensor(pr->fed[i]);
    }
  }
  tfe_free(pr->handle);
  tfe_free(pr->in);
  tfe_free(pr->fed);
  tfe_free(pr->out);
  tfe_free(pr->fetched);
  tfe_free(pr->tg);
  tfe_free(pr);
}

void TF_SessionPRunSetup(TF_Session* session, const TF_Output* inputs,
                         int ninputs, const TF_Output* outputs, int noutputs,
                         const TF_Operation* const* target_opers, int ntargets,
                         const char** handle, TF_Status* status) {
  tfe_prun* pr;
  char buf[64];
  char* user;
  if (handle != NULL) *handle = NULL;
  if (!tfe_session_check(session, "TF_SessionPRunSetup", status)) return;
  if (handle == NULL || ninputs < 0 || noutputs < 0 || ntargets < 0 ||
      (ninputs > 0 && inputs == NULL) || (noutputs > 0 && outputs == NULL) ||
      (ntargets > 0 && target_opers == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SessionPRunSetup: handle must not be NULL and the "
                    "arrays must match their lengths");
    return;
  }
  if (session->closed) {
    tfe_status_setf(status, TF_CANCELLED, "Session has been closed.");
    return;
  }
  /* Validates the declared names the way a full run would (unknown ops,
   * bad indices, fed-and-fetched, nothing to do). */
  {
    tfe_plan_entry* e = tfe_session_get_plan(
        session, inputs, ninputs, outputs, noutputs, target_opers, ntargets,
        status);
    if (e == NULL) return;
    pr = (tfe_prun*)tfe_calloc(1, sizeof(*pr));
    if (pr == NULL) {
      tfe_session_put_plan(session, e);
      goto nomem;
    }
    pr->session = session;
    pr->entry = e;
    if (!e->plan->dynamic) {
      pr->exec = tfe_plan_prun_new(e->plan, status);
      if (pr->exec == NULL) goto nomem;
    }
  }
  pr->nin = ninputs;
  pr->nout = noutputs;
  pr->nt = ntargets;
  pr->in = (TF_Output*)tfe_calloc((size_t)ninputs + 1, sizeof(TF_Output));
  pr->fed = (TF_Tensor**)tfe_calloc((size_t)ninputs + 1, sizeof(TF_Tensor*));
  pr->out = (TF_Output*)tfe_calloc((size_t)noutputs + 1, sizeof(TF_Output));
  pr->fetched = (unsigned char*)tfe_calloc((size_t)noutputs + 1, 1);
  pr->tg = (const TF_Operation**)tfe_calloc((size_t)ntargets + 1,
                                            sizeof(TF_Operation*));
  if (pr->in == NULL || pr->fed == NULL || pr->out == NULL ||
      pr->fetched == NULL || pr->tg == NULL) {
    goto nomem;
  }
  if (ninputs > 0) memcpy(pr->in, inputs, sizeof(TF_Output) * (size_t)ninputs);
  if (noutputs > 0) {
    memcpy(pr->out, outputs, sizeof(TF_Output) * (size_t)noutputs);
  }
  if (ntargets > 0) {
    memcpy((void*)pr->tg, target_opers,
           sizeof(TF_Operation*) * (size_t)ntargets);
  }
  pthread_mutex_lock(&session->mu);
  snprintf(buf, sizeof(buf), "tfe_prun:%llu",
           (unsigned long long)++session->next_prun);
  pthread_mutex_unlock(&session->mu);
  pr->handle = tfe_strdup(buf);
  user = tfe_strdup(buf);
  if (pr->handle == NULL || user == NULL) {
    tfe_free(user);
    goto nomem;
  }
  pthread_mutex_lock(&session->mu);
  pr->next = session->pruns;
  session->pruns = pr;
  pthread_mutex_unlock(&session->mu);
  *handle = user;
  tfe_status_ok(status);
  return;
nomem:
  tfe_prun_free(pr);
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "TF_SessionPRunSetup: out of memory");
}

static int find_output(const TF_Output* arr, int n, TF_Output o) {
  int i;
  for (i = 0; i < n; i++) {
    if (arr[i].oper == o.oper && arr[i].index == o.index) return i;
  }
  return -1;
}

void TF_SessionPRun(TF_Session* session, const char* handle,
                    const TF_Output* inputs, TF_Tensor* const* input_values,
                    int ninputs, const TF_Output* outputs,
                    TF_Tensor** output_values, int noutputs,
                    const TF_Operation* const* target_opers, int ntargets,
                    TF_Status* status) {
  tfe_prun* pr;
  TF_Output* feeds = NULL;
  TF_Tensor** vals = NULL;
  int* fetch_idx = NULL;
  int i, nfeeds = 0;
  if (output_values != NULL) {
    for (i = 0; i < noutputs; i++) output_values[i] = NULL;
  }
  if (!tfe_session_check(session, "TF_SessionPRun", status)) return;
  if (handle == NULL || ninputs < 0 || noutputs < 0 || ntargets < 0 ||
      (ninputs > 0 && (inputs == NULL || input_values == NULL)) ||
      (noutputs > 0 && (outputs == NULL || output_values == NULL)) ||
      (ntargets > 0 && target_opers == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SessionPRun: handle must not be NULL and the arrays "
                    "must match their lengths");
    return;
  }
  if (session->closed) {
    tfe_status_setf(status, TF_CANCELLED, "Session has been closed.");
    return;
  }
  pthread_mutex_lock(&session->mu);
  for (pr = session->pruns; pr != NULL; pr = pr->next) {
    if (strcmp(pr->handle, handle) == 0) break;
  }
  pthread_mutex_unlock(&session->mu);
  if (pr == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Must run 'setup' before performing partial runs! (no "
                    "partial run with handle '%s')",
                    handle);
    return;
  }
  /* Every name must have been declared, feeds and fetches used once. */
  for (i = 0; i < ninputs; i++) {
    int k = find_output(pr->in, pr->nin, inputs[i]);
    if (k < 0 || inputs[i].oper == NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "The feed %s:%d was not specified in partial_run_setup.",
                      inputs[i].oper != NULL ? inputs[i].oper->name : "(null)",
                      inputs[i].index);
      return;
    }
    if (pr->fed[k] != NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "The feed %s:%d has already been fed.",
                      inputs[i].oper->name, inputs[i].index);
      return;
    }
    if (input_values[i] == NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TF_SessionPRun: input value %d is NULL", i);
      return;
    }
  }
  fetch_idx = (int*)tfe_malloc(sizeof(int) * (size_t)(noutputs + 1));
  if (fetch_idx == NULL) goto nomem;
  for (i = 0; i < noutputs; i++) {
    int k = find_output(pr->out, pr->nout, outputs[i]);
    if (k < 0 || outputs[i].oper == NULL) {
      tfe_status_setf(
          status, TF_INVALID_ARGUMENT,
          "The fetch %s:%d was not specified in partial_run_setup.",
          outputs[i].oper != NULL ? outputs[i].oper->name : "(null)",
          outputs[i].index);
      goto done;
    }
    if (pr->fetched[k]) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "The fetch %s:%d has already been fetched.",
                      outputs[i].oper->name, outputs[i].index);
      goto done;
    }
    fetch_idx[i] = k;
  }
  for (i = 0; i < ntargets; i++) {
    int j;
    for (j = 0; j < pr->nt; j++) {
      if (pr->tg[j] == target_opers[i]) break;
    }
    if (j == pr->nt) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "The target %s was not specified in partial_run_setup.",
                      target_opers[i] != NULL ? target_opers[i]->name
                                              : "(null)");
      goto done;
    }
  }
  if (pr->exec != NULL) {
    /* One execution for the whole partial run. */
    int* feed_idx = (int*)tfe_malloc(sizeof(int) * (size_t)(ninputs + 1));
    int* tg_idx = (int*)tfe_malloc(sizeof(int) * (size_t)(ntargets + 1));
    if (feed_idx == NULL || tg_idx == NULL) {
      tfe_free(feed_idx);
      tfe_free(tg_idx);
      goto nomem;
    }
    for (i = 0; i < ninputs; i++) {
      feed_idx[i] = find_output(pr->in, pr->nin, inputs[i]);
      if (input_values[i]->dtype !=
          pr->entry->plan->feeds[feed_idx[i]].dtype) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Tensor type mismatch for the feed %s:%d",
                        inputs[i].oper->name, inputs[i].index);
        tfe_free(feed_idx);
        tfe_free(tg_idx);
        goto done;
      }
    }
    for (i = 0; i < ntargets; i++) {
      tg_idx[i] = tfe_plan_node_of(pr->entry->plan, target_opers[i]);
    }
    /* Mark the feeds as given first: the execution takes them whether or
     * not the step then succeeds. */
    for (i = 0; i < ninputs; i++) {
      const TF_Tensor* t = input_values[i];
      TF_Tensor* share = tfe_tensor_from_buffer(t->dtype, t->dims,
                                                t->num_dims, t->buf);
      if (share == NULL) {
        int j;
        for (j = 0; j < i; j++) {
          TF_DeleteTensor(pr->fed[feed_idx[j]]);
          pr->fed[feed_idx[j]] = NULL;
        }
        tfe_free(feed_idx);
        tfe_free(tg_idx);
        goto nomem;
      }
      pr->fed[feed_idx[i]] = share;
    }
    tfe_plan_prun_step(pr->exec, feed_idx, input_values, ninputs, fetch_idx,
                       output_values, noutputs, tg_idx, ntargets,
                       session->cancel, status);
    tfe_free(feed_idx);
    tfe_free(tg_idx);
    goto finish;
  }
  /* Keep shares of the new feeds. */
  for (i = 0; i < ninputs; i++) {
    int k = find_output(pr->in, pr->nin, inputs[i]);
    const TF_Tensor* t = input_values[i];
    pr->fed[k] = tfe_tensor_from_buffer(t->dtype, t->dims, t->num_dims, t->buf);
    if (pr->fed[k] == NULL) goto nomem;
  }
  if (noutputs == 0 && ntargets == 0) {
    tfe_status_ok(status);
    goto done;
  }
  feeds = (TF_Output*)tfe_malloc(sizeof(TF_Output) * (size_t)(pr->nin + 1));
  vals = (TF_Tensor**)tfe_malloc(sizeof(TF_Tensor*) * (size_t)(pr->nin + 1));
  if (feeds == NULL || vals == NULL) goto nomem;
  for (i = 0; i < pr->nin; i++) {
    if (pr->fed[i] == NULL) continue;
    feeds[nfeeds] = pr->in[i];
    vals[nfeeds++] = pr->fed[i];
  }
  {
    tfe_plan_entry* e = tfe_session_get_plan(session, feeds, nfeeds, outputs,
                                             noutputs, target_opers, ntargets,
                                             status);
    if (e == NULL) goto done;
    tfe_plan_run(e->plan, vals, output_values, session->cancel, status);
    tfe_session_put_plan(session, e);
  }
finish:
  if (TF_GetCode(status) == TF_OK) {
    int all = pr->nout > 0;
    for (i = 0; i < noutputs; i++) pr->fetched[fetch_idx[i]] = 1;
    for (i = 0; i < pr->nout; i++) all = all && pr->fetched[i];
    if (all) {
      /* Every declared fetch was made: the partial run is over (as in TF,
       * its handle is no longer valid for further steps). */
      tfe_prun** pp;
      pthread_mutex_lock(&session->mu);
      for (pp = &session->pruns; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == pr) {
          *pp = pr->next;
          break;
        }
      }
      pthread_mutex_unlock(&session->mu);
      tfe_prun_free(pr);
    }
  }
  goto done;
nomem:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "TF_SessionPRun: out of memory");
done:
  tfe_free(feeds);
  tfe_free(vals);
  tfe_free(fetch_idx);
}

void TF_DeletePRunHandle(const char* handle) {
  /* The handle string only; the partial run's state stays with its
   * session (as in TF) and goes with it. */
  tfe_free((void*)handle);
}
