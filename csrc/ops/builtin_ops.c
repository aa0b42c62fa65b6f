/* Registers every built-in op definition exactly once per process. The
 * definitions live in csrc/ops/defs_*.c, one registration function each. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/status_internal.h"
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

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static atomic_int g_done;
/* Set on the registering thread so that tfe_op_register, which itself
 * makes sure the built-ins exist, does not wait for itself. */
static _Thread_local int tl_registering;
static char g_first_error[512];
static int g_has_error;

static void note_failure(const char* op, TF_Status* s) {
  if (!g_has_error) {
    snprintf(g_first_error, sizeof g_first_error, "%s: %s", op,
             s != NULL ? TF_Message(s) : "out of memory");
    g_has_error = 1;
  }
  TF_Log(TF_ERROR, "tfe: built-in op %s did not register: %s", op,
         s != NULL ? TF_Message(s) : "out of memory");
}

int tfe_ops_register_table(const tfe_builtin_op* ops, int n) {
  int i, failures = 0;
  TF_Status* s = TF_NewStatus();
  for (i = 0; i < n; i++) {
    if (!tfe_op_register_specs(ops[i].name, ops[i].specs, s)) {
      note_failure(ops[i].name, s);
      failures++;
    }
  }
  TF_DeleteStatus(s);
  return failures;
}

static void register_all(void) {
  tl_registering = 1;
  tfe_ops_register_math_defs();
  tfe_ops_register_array_defs();
  tfe_ops_register_nn_defs();
  tfe_ops_register_random_defs();
  tfe_ops_register_string_defs();
  tfe_ops_register_resource_defs();
  tfe_ops_register_misc_defs();
  tl_registering = 0;
  atomic_store_explicit(&g_done, 1, memory_order_release);
}

void tfe_ops_ensure_builtins(void) {
  if (atomic_load_explicit(&g_done, memory_order_acquire)) return;
  if (tl_registering) return;
  pthread_once(&g_once, register_all);
}

const char* tfe_ops_builtin_error(void) {
  tfe_ops_ensure_builtins();
  return g_has_error ? g_first_error : NULL;
}
