/* Registers the built-in CPU kernels once per process. */
#include <pthread.h>

#include "core/alloc.h"

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/kernel.h"

/* nn, random, string and resource kernels (cpu/register_extra.c). */
void tfe_register_cpu_extra_kernels(void);

static pthread_once_t g_builtins_once = PTHREAD_ONCE_INIT;

static void register_builtins(void) {
  tfe_alloc_benign_begin();
  tfe_register_cpu_elementwise_kernels();
  tfe_register_cpu_array_kernels();
  tfe_register_cpu_extra_kernels();
  tfe_register_cpu_einsum_kernels();
  tfe_register_cpu_graph_kernels();
  tfe_register_cpu_control_flow_kernels();
  tfe_register_cpu_functional_kernels();
  tfe_register_cpu_queue_kernels();
  tfe_register_cpu_tensor_array_kernels();
  tfe_register_cpu_io_kernels();
  tfe_register_cpu_regex_kernels();
  tfe_register_cpu_text_kernels();
  tfe_register_cpu_lookup_kernels();
  tfe_register_cpu_image_kernels();
  tfe_register_cpu_array_extra_kernels();
  tfe_register_cpu_math_special_kernels();
  tfe_register_cpu_nn_extra_kernels();
  tfe_register_cpu_random_dist_kernels();
  tfe_register_cpu_parsing_kernels();
  tfe_register_cpu_signal_kernels();
  tfe_register_cpu_linalg_extra_kernels();
  tfe_register_cpu_nn_grad_kernels();
  tfe_register_cpu_train_apply_kernels();
  tfe_register_cpu_sparse_kernels();
  tfe_register_cpu_containers_kernels();
  tfe_register_cpu_misc18_kernels();
  tfe_register_cpu_quant_kernels();
  tfe_register_cpu_image_codec_kernels();
  tfe_register_cpu_quant2_kernels();
  tfe_register_cpu_dataflow2_kernels();
  tfe_register_cpu_io_summary_kernels();
  tfe_register_cpu_nn_linalg2_kernels();
  tfe_register_cpu_sparse2_kernels();
  tfe_register_cpu_grad_support_kernels();
  tfe_register_cpu_more18_kernels();
  tfe_alloc_benign_end();
}

void tfe_kernels_ensure_builtins(void) {
  pthread_once(&g_builtins_once, register_builtins);
}
