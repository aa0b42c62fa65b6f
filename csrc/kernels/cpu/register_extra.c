/* Registers the neural-network, random, string and resource-variable CPU
 * kernels (csrc/kernels/cpu/nn_*.c, random_*.c, string_*.c, resource_*.c)
 * and NoOp. Called once by tfe_kernels_ensure_builtins. */
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"

void tfe_register_cpu_extra_kernels(void);

/* One registration function per file. */
void tfe_register_resource_kernels(void); /* resource_ops.c */
void tfe_register_ref_kernels(void);      /* ref_ops.c */
void tfe_register_random_kernels(void);   /* random_ops.c */
void tfe_register_string_kernels(void);   /* string_ops.c */
void tfe_register_nn_conv_kernels(void);  /* nn_conv.c */
void tfe_register_nn_pool_kernels(void);  /* nn_pool.c */
void tfe_register_nn_norm_kernels(void);  /* nn_norm.c */
void tfe_register_nn_resize_kernels(void); /* nn_resize.c */
void tfe_register_nn_xent_kernels(void);   /* nn_xent.c */
void tfe_register_list_kernels(void);      /* list_kernels.c */
void tfe_register_nnlinalg_nn_kernels(void); /* nnlinalg_nn.c */
void tfe_register_nnlinalg_la_kernels(void); /* nnlinalg_la.c */
void tfe_register_special_kernels(void);   /* special_*.c */
void tfe_register_arrayops_kernels(void);  /* arrayops_*.c */
void tfe_register_collective_kernels(void); /* collective_*.c */

/* NoOp: nothing to compute. */
static void noop_compute(tfe_kernel_context* k) { (void)k; }

void tfe_register_cpu_extra_kernels(void) {
  tfe_kutil_register("NoOp", noop_compute, NULL, NULL, 0, NULL, NULL, 0);
  tfe_register_resource_kernels();
  tfe_register_ref_kernels();
  tfe_register_random_kernels();
  tfe_register_string_kernels();
  tfe_register_nn_conv_kernels();
  tfe_register_nn_pool_kernels();
  tfe_register_nn_norm_kernels();
  tfe_register_nn_resize_kernels();
  tfe_register_nn_xent_kernels();
  tfe_register_list_kernels();
  tfe_register_nnlinalg_nn_kernels();
  tfe_register_nnlinalg_la_kernels();
  tfe_register_special_kernels();
  tfe_register_arrayops_kernels();
  tfe_register_collective_kernels();
}
