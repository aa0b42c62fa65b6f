/* The parallel device's workers: one thread per component, each running
 * its component's share of every op. */
#include <string.h>

#include "core/alloc.h"
#include "eager/parallel_device_internal.h"
#include "kernels/cpu/collective.h"

void pd_job_run(pd_job* j) {
  TFE_Op* op;
  int i, saved, n = j->max_outputs;
  j->num_outputs = 0;
  op = TFE_NewOp(j->ctx, j->op_name, j->status);
  if (TF_GetCode(j->status) != TF_OK) return;
  TFE_OpSetDevice(op, j->device, j->status);
  if (TF_GetCode(j->status) != TF_OK) goto out;
  /* Attrs first: they win over what the inputs would infer, as on the
   * original op. */
  TFE_OpAddAttrs(op, j->attrs);
  for (i = 0; i < j->num_inputs; i++) {
    TFE_OpAddInput(op, j->inputs[i], j->status);
    if (TF_GetCode(j->status) != TF_OK) goto out;
  }
  /* Collectives run by this job count as member `replica` (collective.h);
   * the thread's own tag comes back after (the calling thread runs jobs
   * whose worker could not start, and may be another parallel device's). */
  saved = tfe_collective_thread_replica();
  tfe_collective_set_thread_replica(j->replica);
  TFE_Execute(op, j->outputs, &n, j->status);
  tfe_collective_set_thread_replica(saved);
  if (TF_GetCode(j->status) == TF_OK) j->num_outputs = n;
out:
  TFE_DeleteOp(op);
}

static void* worker_main(void* arg) {
  pd_worker_arg* a = (pd_worker_arg*)arg;
  pd_pool* p = a->pool;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    pd_job* job;
    while (!p->shutdown && p->gen == a->seen) {
      pthread_cond_wait(&p->work, &p->mu);
    }
    if (p->shutdown) break;
    a->seen = p->gen;
    job = &p->jobs[a->index];
    pthread_mutex_unlock(&p->mu);
    if (a->bound != job->ctx) {
      if (a->sync == NULL) a->sync = TFE_NewExecutor(false, false, 0);
      /* Without one (out of memory) the context's executor is used. */
      if (a->sync != NULL) TFE_ContextSetExecutorForThread(job->ctx, a->sync);
      a->bound = job->ctx;
    }
    pd_job_run(job);
    pthread_mutex_lock(&p->mu);
    if (--p->pending == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  TFE_DeleteExecutor(a->sync);
  a->sync = NULL;
  return NULL;
}

int pd_pool_init(pd_pool* p, int n) {
  memset(p, 0, sizeof(*p));
  p->n = n;
  p->threads = (pthread_t*)tfe_calloc((size_t)n, sizeof(pthread_t));
  p->args = (pd_worker_arg*)tfe_calloc((size_t)n, sizeof(pd_worker_arg));
  if (p->threads == NULL || p->args == NULL) goto fail;
  if (pthread_mutex_init(&p->mu, NULL) != 0) goto fail;
  if (pthread_cond_init(&p->work, NULL) != 0) {
    pthread_mutex_destroy(&p->mu);
    goto fail;
  }
  if (pthread_cond_init(&p->done, NULL) != 0) {
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->mu);
    goto fail;
  }
  return 1;
fail:
  tfe_free(p->threads);
  tfe_free(p->args);
  p->threads = NULL;
  p->args = NULL;
  return 0;
}

void pd_pool_run(pd_pool* p, pd_job* jobs) {
  int i, running;
  pthread_mutex_lock(&p->mu);
  /* Threads start on first use; one that cannot be started leaves its
   * job (and later ones) to the calling thread. */
  while (p->started < p->n) {
    pd_worker_arg* a = &p->args[p->started];
    a->pool = p;
    a->index = p->started;
    a->seen = p->gen;
    a->sync = NULL;
    a->bound = NULL;
    if (pthread_create(&p->threads[p->started], NULL, worker_main, a) != 0) {
      break;
    }
    p->started++;
  }
  running = p->started;
  p->jobs = jobs;
  p->pending = running;
  p->gen++;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);

  for (i = running; i < p->n; i++) pd_job_run(&jobs[i]);

  pthread_mutex_lock(&p->mu);
  while (p->pending > 0) pthread_cond_wait(&p->done, &p->mu);
  p->jobs = NULL;
  pthread_mutex_unlock(&p->mu);
}

void pd_pool_destroy(pd_pool* p) {
  int i;
  if (p->threads == NULL) return;
  pthread_mutex_lock(&p->mu);
  p->shutdown = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (i = 0; i < p->started; i++) pthread_join(p->threads[i], NULL);
  pthread_cond_destroy(&p->done);
  pthread_cond_destroy(&p->work);
  pthread_mutex_destroy(&p->mu);
  tfe_free(p->threads);
  tfe_free(p->args);
  p->threads = NULL;
  p->args = NULL;
}
