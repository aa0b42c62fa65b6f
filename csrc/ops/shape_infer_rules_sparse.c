/* Shape rules for the sparse op group (tf.sparse ops: SparseTensor arithmetic, reordering, segment reductions and serialization (issue 18)). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_sparse[] = {
    {NULL, NULL},
};
