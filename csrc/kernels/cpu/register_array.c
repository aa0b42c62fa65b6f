/* Registers the array, reduction and matrix-product CPU kernels. */
#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/kutil.h"

int tfe_kutil_register(const char* op, void (*compute)(tfe_kernel_context*),
                       const char* attr1, const TF_DataType* types1, int n1,
                       const char* attr2, const TF_DataType* types2, int n2) {
  return tfe_kutil_register_created(op, NULL, compute, attr1, types1, n1, attr2, types2, n2);
}

int tfe_kutil_register_created(const char* op, tfe_kutil_create_fn create,
                               void (*compute)(tfe_kernel_context*), const char* attr1,
                               const TF_DataType* types1, int n1, const char* attr2,
                               const TF_DataType* types2, int n2) {
  tfe_kernel_reg reg;
  TF_Status* s;
  int ok;
  memset(&reg, 0, sizeof reg);
  reg.op_name = op;
  reg.device_type = "CPU";
  reg.create = create;
  reg.compute = compute;
  if (attr1 != NULL) {
    reg.constraints[reg.num_constraints].attr = attr1;
    reg.constraints[reg.num_constraints].types = types1;
    reg.constraints[reg.num_constraints].num_types = n1;
    reg.num_constraints++;
  }
  if (attr2 != NULL) {
    reg.constraints[reg.num_constraints].attr = attr2;
    reg.constraints[reg.num_constraints].types = types2;
    reg.constraints[reg.num_constraints].num_types = n2;
    reg.num_constraints++;
  }
  s = TF_NewStatus();
  if (s == NULL) return 0;
  ok = tfe_kernel_register(&reg, s);
  TF_DeleteStatus(s);
  return ok;
}

void tfe_register_cpu_array_kernels(void) {
  tfe_register_array_basic_kernels();
  tfe_register_array_concat_kernels();
  tfe_register_array_transpose_kernels();
  tfe_register_array_slice_kernels();
  tfe_register_array_pad_kernels();
  tfe_register_array_gather_kernels();
  tfe_register_array_misc_kernels();
  tfe_register_reduce_kernels();
  tfe_register_reduce_index_kernels();
  tfe_register_reduce_nn_kernels();
  tfe_register_matmul_kernels();
}
