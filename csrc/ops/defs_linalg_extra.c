/* Built-in op definitions: linear-algebra ops of tf.linalg not in the older groups.
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_linalg_extra_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("TridiagonalSolve", "in: diagonals: T",
           "in: rhs: T",
           "out: output: T",
           "attr: partial_pivoting: bool = true",
           "attr: perturb_singular: bool = false",
           "attr: T: {double, float, complex64, complex128}"),
    TFE_OP("TridiagonalMatMul", "in: superdiag: T",
           "in: maindiag: T",
           "in: subdiag: T",
           "in: rhs: T",
           "out: output: T",
           "attr: T: {double, float, complex64, complex128}"),
    TFE_OP("BandedTriangularSolve", "in: matrix: T",
           "in: rhs: T",
           "out: output: T",
           "attr: lower: bool = true",
           "attr: adjoint: bool = false",
           "attr: T: {double, float, half, complex64, complex128}"),
    TFE_OP("MatrixSquareRoot", "in: input: T",
           "out: output: T",
           "attr: T: {double, float, half, complex64, complex128}"),
    TFE_OP("MatrixLogarithm", "in: input: T",
           "out: output: T",
           "attr: T: {complex64, complex128}"),
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_linalg_extra_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
