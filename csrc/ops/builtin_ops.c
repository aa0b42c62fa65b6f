/* Registers every built-in op definition once per process. The
 * definitions live in csrc/ops/defs_*.c, one registration function each. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/status_internal.h"
#include "ops/op_generated.h"
#include "ops/op_registry.h"
#include "ops/ops_internal.h"
#include "tensorflow/c/logging.h"

/* Each registers one group of definitions (csrc/ops/defs_*.c) and returns
 * the number that failed. */
int tfe_ops_register_math_defs(void);
int tfe_ops_register_array_defs(void);
int tfe_ops_register_nn_defs(void);
int tfe_ops_register_random_defs(void);
int tfe_ops_register_string_defs(void);
int tfe_ops_register_resource_defs(void);
int tfe_ops_register_misc_defs(void);
int tfe_ops_register_state_defs(void);
int tfe_ops_register_list_defs(void);
int tfe_ops_register_nnlinalg_defs(void);
int tfe_ops_register_special_defs(void);
int tfe_ops_register_arrayops_defs(void);
int tfe_ops_register_collective_defs(void);
int tfe_ops_register_graph_defs(void);
int tfe_ops_register_control_flow_defs(void);
int tfe_ops_register_functional_defs(void);
int tfe_ops_register_queue_defs(void);
int tfe_ops_register_tensor_array_defs(void);
int tfe_ops_register_io_defs(void);
int tfe_ops_register_regex_defs(void);
int tfe_ops_register_text_defs(void);
int tfe_ops_register_lookup_defs(void);
int tfe_ops_register_image_defs(void);
/* Issue 16 groups (ops the tf.* Python API needs). */
int tfe_ops_register_array_extra_defs(void);
int tfe_ops_register_nn_grad_defs(void);
int tfe_ops_register_train_apply_defs(void);
int tfe_ops_register_sparse_defs(void);
int tfe_ops_register_containers_defs(void);
int tfe_ops_register_misc18_defs(void);
int tfe_ops_register_quant_defs(void);
int tfe_ops_register_image_codec_defs(void);
int tfe_ops_register_math_special_defs(void);
int tfe_ops_register_nn_extra_defs(void);
int tfe_ops_register_random_dist_defs(void);
int tfe_ops_register_parsing_defs(void);
int tfe_ops_register_signal_defs(void);
int tfe_ops_register_linalg_extra_defs(void);

/* Registration runs once, under g_mu. If memory runs out part way (tests
 * inject allocation failures, possibly before anything else touched the
 * registry), the ops that did not register are retried on the next call,
 * so a transient failure never leaves built-ins missing for good. */
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static atomic_int g_done;
/* Set on the registering thread so that tfe_op_register, which itself
 * makes sure the built-ins exist, does not wait for itself. */
static _Thread_local int tl_registering;
static int g_out_of_memory; /* guarded by g_mu */
static char g_first_error[512];
static int g_has_error;

static void note_failure(const char* op, TF_Status* s) {
  if (!g_has_error) {
    snprintf(g_first_error, sizeof g_first_error, "%s: %s", op,
             TF_Message(s));
    g_has_error = 1;
  }
  TF_Log(TF_ERROR, "tfe: built-in op %s did not register: %s", op,
         TF_Message(s));
}

int tfe_ops_register_table(const tfe_builtin_op* ops, int n) {
  int i, failures = 0;
  TF_Status* s = TF_NewStatus();
  if (s == NULL) {
    g_out_of_memory = 1;
    return n;
  }
  for (i = 0; i < n; i++) {
    if (tfe_op_lookup(ops[i].name) != NULL) continue; /* from a retry */
    if (!tfe_op_register_specs(ops[i].name, ops[i].specs, s)) {
      if (TF_GetCode(s) == TF_RESOURCE_EXHAUSTED) {
        g_out_of_memory = 1;
      } else {
        note_failure(ops[i].name, s);
      }
      failures++;
    }
  }
  TF_DeleteStatus(s);
  return failures;
}

static void register_all(void) {
  tl_registering = 1;
  g_out_of_memory = 0;
  tfe_ops_register_math_defs();
  tfe_ops_register_array_defs();
  tfe_ops_register_nn_defs();
  tfe_ops_register_random_defs();
  tfe_ops_register_string_defs();
  tfe_ops_register_resource_defs();
  tfe_ops_register_misc_defs();
  tfe_ops_register_state_defs();
  tfe_ops_register_list_defs();
  tfe_ops_register_nnlinalg_defs();
  tfe_ops_register_special_defs();
  tfe_ops_register_arrayops_defs();
  tfe_ops_register_collective_defs();
  tfe_ops_register_graph_defs();
  tfe_ops_register_control_flow_defs();
  tfe_ops_register_functional_defs();
  tfe_ops_register_queue_defs();
  tfe_ops_register_tensor_array_defs();
  tfe_ops_register_io_defs();
  tfe_ops_register_regex_defs();
  tfe_ops_register_text_defs();
  tfe_ops_register_lookup_defs();
  tfe_ops_register_image_defs();
  tfe_ops_register_array_extra_defs();
  tfe_ops_register_math_special_defs();
  tfe_ops_register_nn_extra_defs();
  tfe_ops_register_random_dist_defs();
  tfe_ops_register_parsing_defs();
  tfe_ops_register_signal_defs();
  tfe_ops_register_linalg_extra_defs();
  tfe_ops_register_nn_grad_defs();
  tfe_ops_register_train_apply_defs();
  tfe_ops_register_sparse_defs();
  tfe_ops_register_containers_defs();
  tfe_ops_register_misc18_defs();
  tfe_ops_register_quant_defs();
  tfe_ops_register_image_codec_defs();
  tl_registering = 0;
  if (!g_out_of_memory) atomic_store_explicit(&g_done, 1, memory_order_release);
}

void tfe_ops_ensure_builtins(void) {
  if (atomic_load_explicit(&g_done, memory_order_acquire)) return;
  if (tl_registering) return;
  pthread_mutex_lock(&g_mu);
  if (!atomic_load_explicit(&g_done, memory_order_relaxed)) register_all();
  pthread_mutex_unlock(&g_mu);
}

int tfe_ops_builtins_ready(void) {
  return atomic_load_explicit(&g_done, memory_order_acquire);
}

const char* tfe_ops_builtin_error(void) {
  const char* r;
  tfe_ops_ensure_builtins();
  pthread_mutex_lock(&g_mu);
  r = g_has_error ? g_first_error
      : !atomic_load_explicit(&g_done, memory_order_relaxed)
          ? "some built-in ops are not registered yet: out of memory"
          : NULL;
  pthread_mutex_unlock(&g_mu);
  return r;
}
