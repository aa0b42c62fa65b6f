"""``tf.linalg``: matrix functions, ``einsum``, ``tensordot``, ``norm``.

Each function follows TensorFlow 2.21's ``tf.linalg`` (argument names,
defaults, dtype rules, errors) and runs the same ops TF's Python layer runs,
so results agree with TF's to the dtype's precision (float32 matrix
factorizations and solves run in float with Eigen's operation order, so
they print TF's digits). ``Eig`` (``eig``, ``eigvals``) and
``MatrixSolveLs`` (``lstsq(fast=False)`` and the large-input path TF picks)
are not implemented: those calls raise NotImplementedError naming the op,
see :mod:`tfe_py._api`. ``eye``, ``matmul``, ``norm``, ``einsum``,
``tensordot``, ``eig``, ``eigvals`` and ``matrix_square_root`` are also
top-level names (``tf.matmul``).

The ``LinearOperator`` classes and ``tf.linalg.experimental`` are not
provided.
"""

from __future__ import annotations

import collections
import numbers
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from tfe_py import _api
from tfe_py import ops as _ops

__all__ = [
    "adjoint",
    "band_part",
    "banded_triangular_solve",
    "cholesky",
    "cholesky_solve",
    "cross",
    "det",
    "diag",
    "diag_part",
    "eig",
    "eigh",
    "eigh_tridiagonal",
    "eigvals",
    "eigvalsh",
    "einsum",
    "expm",
    "eye",
    "global_norm",
    "inv",
    "l2_normalize",
    "logdet",
    "logm",
    "lstsq",
    "lu",
    "lu_matrix_inverse",
    "lu_reconstruct",
    "lu_solve",
    "matmul",
    "matrix_rank",
    "matrix_square_root",
    "matrix_transpose",
    "matvec",
    "norm",
    "normalize",
    "pinv",
    "qr",
    "set_diag",
    "slogdet",
    "solve",
    "sqrtm",
    "svd",
    "tensor_diag",
    "tensor_diag_part",
    "tensordot",
    "trace",
    "triangular_solve",
    "tridiagonal_matmul",
    "tridiagonal_solve",
]

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset(
    {
        "eig",
        "eigvals",
        "einsum",
        "eye",
        "matmul",
        "matrix_square_root",
        "norm",
        "tensordot",
    }
)


# ---- small helpers over the raw ops ----


def _t(value: Any, dtype: Any = None, dtype_hint: Any = None) -> Any:
    return _api.tensor(value, dtype=dtype, dtype_hint=dtype_hint)


def _shape(x: Any) -> tuple[int | None, ...] | None:
    """Static shape of tensor ``x`` as a tuple (None entries for unknown
    dims), or None when the rank is unknown."""
    s = x.shape
    if s is None:
        return None
    try:
        if getattr(s, "rank", 0) is None:
            return None
    except AttributeError:
        pass
    return tuple(s)


def _rank(x: Any) -> int | None:
    s = _shape(x)
    return None if s is None else len(s)


def _fully_defined(s: tuple[int | None, ...] | None) -> bool:
    return s is not None and all(d is not None for d in s)


def _conj(x: Any) -> Any:
    return _ops.Conj(x) if x.dtype.is_complex else x


def _real(x: Any) -> Any:
    return _ops.Real(x, Tout=x.dtype.real_dtype) if x.dtype.is_complex else x


def _axes(x: Any, axis: Any) -> Any:
    """Reduction indices for ``axis`` (None = every dimension)."""
    if axis is None:
        r = _rank(x)
        if r is not None:
            return np.arange(r, dtype=np.int32)
        return _ops.Range(np.int32(0), _ops.Rank(x), np.int32(1))
    if isinstance(axis, (list, tuple)):
        return np.asarray(axis, dtype=np.int32).reshape(-1)
    return axis


def _sum(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return _ops.Sum(x, _axes(x, axis), keep_dims=bool(keepdims))


def _max(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return _ops.Max(x, _axes(x, axis), keep_dims=bool(keepdims))


def _cast(x: Any, dtype: Any) -> Any:
    from tfe_py.dtypes import as_dtype

    dtype = as_dtype(dtype)
    if x.dtype == dtype:
        return x
    return _ops.Cast(x, DstT=dtype)


def _squeeze(x: Any, axis: Any = None) -> Any:
    if axis is None:
        return _ops.Squeeze(x)
    if isinstance(axis, int):
        axis = [axis]
    return _ops.Squeeze(x, squeeze_dims=list(axis))


def _expand(x: Any, axis: int) -> Any:
    return _ops.ExpandDims(x, np.int32(axis))


def _where(cond: Any, a: Any, b: Any) -> Any:
    return _ops.SelectV2(cond, a, b)


def _dyn_shape(x: Any) -> Any:
    return _ops.Shape(x, out_type="int32")


# ---- products ----


def matmul(
    a: Any,
    b: Any,
    transpose_a: bool = False,
    transpose_b: bool = False,
    adjoint_a: bool = False,
    adjoint_b: bool = False,
    a_is_sparse: bool = False,
    b_is_sparse: bool = False,
    output_type: Any = None,
    grad_a: bool = False,
    grad_b: bool = False,
    name: str | None = None,
) -> Any:
    """``a @ b`` over the two innermost dimensions, with batch dimensions
    broadcast (``tf.linalg.matmul``). ``transpose_*``/``adjoint_*`` apply
    to the matrices before the product; ``a_is_sparse``/``b_is_sparse``
    are hints and change nothing; ``output_type`` asks for
    ``BatchMatMulV3`` with a result dtype that differs from the inputs'."""
    del name
    if transpose_a and adjoint_a:
        raise ValueError(
            "Only one of `transpose_a` and `adjoint_a` can be True. "
            f"Received `transpose_a`={transpose_a}, `adjoint_a`={adjoint_a}."
        )
    if transpose_b and adjoint_b:
        raise ValueError(
            "Only one of `transpose_b` and `adjoint_b` can be True. "
            f"Received `transpose_b`={transpose_b}, `adjoint_b`={adjoint_b}."
        )
    a = _t(a)
    b = _t(b, dtype_hint=a.dtype)
    ra, rb = _rank(a), _rank(b)
    batched = ra is None or ra > 2 or rb is None or rb > 2
    v3 = output_type is not None and (output_type != a.dtype or output_type != b.dtype)
    if batched:
        if transpose_a:
            a = _conj(a)
            adjoint_a = True
        if transpose_b:
            b = _conj(b)
            adjoint_b = True
        if v3:
            return _ops.BatchMatMulV3(
                a, b, Tout=output_type, adj_x=bool(adjoint_a), adj_y=bool(adjoint_b)
            )
        return _ops.BatchMatMulV2(a, b, adj_x=bool(adjoint_a), adj_y=bool(adjoint_b))
    if adjoint_a:
        a = _conj(a)
        transpose_a = True
    if adjoint_b:
        b = _conj(b)
        transpose_b = True
    if v3:
        return _ops.BatchMatMulV3(
            a, b, Tout=output_type, adj_x=bool(transpose_a), adj_y=bool(transpose_b)
        )
    if transpose_a or transpose_b:
        return _ops.MatMul(a, b, transpose_a=bool(transpose_a), transpose_b=bool(transpose_b))
    return _ops.MatMul(a, b)


def matvec(
    a: Any,
    b: Any,
    transpose_a: bool = False,
    adjoint_a: bool = False,
    a_is_sparse: bool = False,
    b_is_sparse: bool = False,
    name: str | None = None,
) -> Any:
    """Matrix times vector over the innermost dimensions
    (``tf.linalg.matvec``)."""
    del name
    b = _t(b)
    out = matmul(
        a,
        _expand(b, -1),
        transpose_a=transpose_a,
        adjoint_a=adjoint_a,
        a_is_sparse=a_is_sparse,
        b_is_sparse=b_is_sparse,
    )
    return _squeeze(out, -1)


def cross(a: Any, b: Any, name: str | None = None) -> Any:
    """Pairwise cross product of 3-vectors (op ``Cross``)."""
    return _ops.Cross(a, b)


def tensordot(a: Any, b: Any, axes: Any, name: str | None = None) -> Any:
    """Tensor contraction of ``a`` and ``b`` over ``axes``
    (``tf.tensordot``): an int ``n`` contracts the last ``n`` axes of ``a``
    with the first ``n`` of ``b``; a pair of lists names the axes."""
    del name
    a = _t(a)
    b = _t(b)
    sa, sb = _shape(a), _shape(b)
    if sa is None or sb is None:
        raise NotImplementedError("tensordot needs inputs of known rank in tfe")
    if isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        axes = int(axes)
        if axes < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {axes}.")
        if axes > len(sa):
            raise ValueError(
                "`axes` must not be larger than the number of dimensions of tensor "
                f"{a}.  Received {axes}, vs tensor dimensions {len(sa)}."
            )
        a_axes = list(range(len(sa) - axes, len(sa)))
        b_axes = list(range(axes))
    else:
        if not isinstance(axes, (list, tuple)):
            axes = np.asarray(axes.numpy() if hasattr(axes, "numpy") else axes).tolist()
            if isinstance(axes, int):
                return tensordot(a, b, axes)
        if len(axes) != 2:
            raise ValueError(f"`axes` must be an integer or have length 2. Received {axes}.")
        a_axes, b_axes = axes[0], axes[1]
        if isinstance(a_axes, numbers.Integral) and isinstance(b_axes, numbers.Integral):
            a_axes, b_axes = [a_axes], [b_axes]
        a_axes = [int(i) for i in np.asarray(a_axes).reshape(-1)]
        b_axes = [int(i) for i in np.asarray(b_axes).reshape(-1)]
        if len(a_axes) != len(b_axes):
            raise ValueError(
                f"Different number of contraction axes `a` and `b`, {len(a_axes)} != {len(b_axes)}."
            )

    def prepare(x: Any, shape: tuple[Any, ...], ax: list[int], flipped: bool) -> Any:
        ax = [i if i >= 0 else i + len(shape) for i in ax]
        free = [i for i in range(len(shape)) if i not in ax]
        free_dims = [shape[i] for i in free]
        if not _fully_defined(shape):
            dyn = _dyn_shape(x)
            fd = _ops.GatherV2(dyn, np.asarray(free, np.int32), np.int32(0))
            ad = _ops.GatherV2(dyn, np.asarray(ax, np.int32), np.int32(0))
            pf = _ops.Prod(fd, np.int32(0))
            pa = _ops.Prod(ad, np.int32(0))
            perm = ax + free if flipped else free + ax
            new = _ops.Pack([pa, pf] if flipped else [pf, pa])
            return _ops.Reshape(_ops.Transpose(x, np.asarray(perm, np.int32)), new), fd
        prod_free = int(np.prod([shape[i] for i in free]))
        prod_axes = int(np.prod([shape[i] for i in ax]))
        perm = ax + free if flipped else free + ax
        new_shape = [prod_axes, prod_free] if flipped else [prod_free, prod_axes]
        if perm != list(range(len(shape))):
            x = _ops.Transpose(x, np.asarray(perm, np.int32))
        if [shape[i] for i in perm] != new_shape:
            x = _ops.Reshape(x, np.asarray(new_shape, np.int32))
        return x, free_dims

    ar, afree = prepare(a, sa, a_axes, False)
    br, bfree = prepare(b, sb, b_axes, True)
    prod = matmul(ar, br)
    if isinstance(afree, list) and isinstance(bfree, list):
        if list(_shape(prod) or ()) == afree + bfree:
            return prod
        return _ops.Reshape(prod, np.asarray(afree + bfree, np.int32))
    fa = afree if not isinstance(afree, list) else np.asarray(afree, np.int32)
    fb = bfree if not isinstance(bfree, list) else np.asarray(bfree, np.int32)
    return _ops.Reshape(prod, _ops.ConcatV2([_t(fa), _t(fb)], np.int32(0)))


_EINSUM_RE = re.compile(r"^([a-zA-Z0,]*)(->[a-zA-Z0]*)?$")


def einsum(equation: str, *inputs: Any, **kwargs: Any) -> Any:
    """Einstein summation (``tf.einsum``): one ``Einsum`` op for one or two
    operands; more operands are contracted pairwise, greedily picking the
    pair whose result is smallest (TF asks opt_einsum for the order, so
    float results with three or more operands can differ in the last
    bits)."""
    kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(
            f"Invalid keyword arguments for einsum: {', '.join(kwargs)}. "
            "Valid arguments: name, optimize, greedy."
        )
    tensors = [_t(x) for x in inputs]
    eq = equation.replace(" ", "")
    ell = None
    if "..." in equation:
        ell = "0"
        if ell in eq:
            raise ValueError(f'Invalid character "{ell}" in equation: {equation}.')
        eq = eq.replace("...", ell)
    allowed = "a-zA-Z" + (ell or "")
    m = re.match(f"^([{allowed},]*)(->[{allowed}]*)?$", eq)
    if not m:
        raise ValueError(f"Subscripts have incorrect format: {eq}")
    in_labels = m.group(1).split(",")
    out_labels = m.group(2)[2:] if m.group(2) else None
    if len(tensors) != len(in_labels):
        raise ValueError(
            f'Got {len(tensors)} inputs for equation "{equation}", expecting {len(in_labels)}'
        )
    if "->" not in eq:
        counts = collections.Counter(m.group(1))
        out_labels = "".join(c for c in sorted(counts) if c != "," and counts[c] == 1)
        eq += "->" + out_labels
    assert out_labels is not None
    if out_labels and len(set(out_labels)) != len(out_labels):
        raise ValueError(f"Output subscripts contain a label appearing more than once: {equation}")
    in_set = set(m.group(1))
    for c in out_labels:
        if c != ell and c not in in_set:
            raise ValueError(
                f"Output subscripts contain the label {c} not present in the input subscripts."
            )
    if ell and out_labels.count(ell) > 1:
        raise ValueError(f"Output subscripts contain multiple ellipsis: {equation}")

    def restore(s: str) -> str:
        return s.replace(ell, "...") if ell else s

    if len(tensors) <= 2:
        return _ops.Einsum(tensors, equation=restore(eq))
    # Pairwise contraction, smallest intermediate first.
    dims: dict[str, int] = {}
    for labels, x in zip(in_labels, tensors, strict=False):
        s = _shape(x) or ()
        if ell and ell in labels:
            continue
        for c, d in zip(labels, s, strict=False):
            if d is not None:
                dims[c] = max(dims.get(c, 1), d)
    items = list(zip(in_labels, tensors, strict=False))
    while len(items) > 1:
        best = None
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                rest = "".join(lab for k, (lab, _) in enumerate(items) if k not in (i, j))
                keep = [
                    c
                    for c in dict.fromkeys(items[i][0] + items[j][0])
                    if c in rest or c in out_labels or c == ell
                ]
                size = int(np.prod([dims.get(c, 1) for c in keep])) if keep else 1
                if best is None or size < best[0]:
                    best = (size, i, j, "".join(keep))
        assert best is not None
        _, i, j, keep_s = best
        if len(items) == 2:
            keep_s = out_labels
        sub = f"{items[i][0]},{items[j][0]}->{keep_s}"
        res = _ops.Einsum([items[i][1], items[j][1]], equation=restore(sub))
        items = [it for k, it in enumerate(items) if k not in (i, j)] + [(keep_s, res)]
    labels, res = items[0]
    if labels != out_labels:
        res = _ops.Einsum([res], equation=restore(f"{labels}->{out_labels}"))
    return res


# ---- transposes and diagonals ----


def matrix_transpose(a: Any, name: str = "matrix_transpose", conjugate: bool = False) -> Any:
    """Swaps the two innermost dimensions (conjugating when asked)."""
    del name
    a = _t(a)
    r = _rank(a)
    if r is not None:
        if r < 2:
            raise ValueError(
                "Argument `a` should be a (batch) matrix with rank >= 2.  "
                f"Received `a` = {a} with shape: {a.shape}"
            )
        perm: Any = np.asarray([*list(range(r - 2)), r - 1, r - 2], np.int32)
    else:
        rk = _ops.Rank(a)
        perm = _ops.ConcatV2(
            [
                _ops.Range(np.int32(0), rk - 2, np.int32(1)),
                _ops.Pack([rk - 1, rk - 2]),
            ],
            np.int32(0),
        )
    if conjugate and a.dtype.is_complex:
        return _ops.ConjugateTranspose(a, perm)
    return _ops.Transpose(a, perm)


def adjoint(matrix: Any, name: str | None = None) -> Any:
    """Conjugate transpose of the innermost two dimensions."""
    return matrix_transpose(_t(matrix), conjugate=True)


def _pad_value(x: Any, padding_value: Any) -> Any:
    if x.dtype.is_bool:
        return bool(padding_value)
    return padding_value


def diag(
    diagonal: Any,
    name: str = "diag",
    k: Any = 0,
    num_rows: Any = -1,
    num_cols: Any = -1,
    padding_value: Any = 0,
    align: str = "RIGHT_LEFT",
) -> Any:
    """Batched matrices with the given diagonal(s) (op ``MatrixDiagV3``)."""
    diagonal = _t(diagonal)
    return _ops.MatrixDiagV3(
        diagonal,
        _t(k, dtype="int32"),
        _t(num_rows, dtype="int32"),
        _t(num_cols, dtype="int32"),
        _pad_value(diagonal, padding_value),
        align=align,
    )


def diag_part(
    input: Any,
    name: str = "diag_part",
    k: Any = 0,
    padding_value: Any = 0,
    align: str = "RIGHT_LEFT",
) -> Any:
    """The diagonal(s) of batched matrices (op ``MatrixDiagPartV3``)."""
    x = _t(input)
    return _ops.MatrixDiagPartV3(x, _t(k, dtype="int32"), _pad_value(x, padding_value), align=align)


def set_diag(
    input: Any,
    diagonal: Any,
    name: str = "set_diag",
    k: Any = 0,
    align: str = "RIGHT_LEFT",
) -> Any:
    """Replaces the diagonal(s) of batched matrices (``MatrixSetDiagV3``)."""
    return _ops.MatrixSetDiagV3(input, diagonal, _t(k, dtype="int32"), align=align)


def band_part(input: Any, num_lower: Any, num_upper: Any, name: str | None = None) -> Any:
    """Keeps a band around the diagonal, zeroes the rest (``MatrixBandPart``)."""
    return _ops.MatrixBandPart(input, num_lower, num_upper)


def tensor_diag(diagonal: Any, name: str | None = None) -> Any:
    """A tensor of rank 2k with ``diagonal`` (rank k) on its diagonal (``Diag``)."""
    return _ops.Diag(diagonal)


def tensor_diag_part(input: Any, name: str | None = None) -> Any:
    """The diagonal of a rank-2k tensor (``DiagPart``)."""
    return _ops.DiagPart(input)


def trace(x: Any, name: str | None = None) -> Any:
    """Sum of the main diagonal of each innermost matrix."""
    return _ops.Sum(diag_part(_t(x)), np.asarray([-1], np.int32))


def eye(
    num_rows: Any,
    num_columns: Any = None,
    batch_shape: Any = None,
    dtype: Any = "float32",
    name: str | None = None,
) -> Any:
    """An identity matrix (or batch of them), ``num_rows`` x ``num_columns``."""
    from tfe_py.dtypes import as_dtype
    from tfe_py.tensor import Tensor

    dtype = as_dtype(dtype)
    is_square = num_columns is None
    batch_shape = [] if batch_shape is None else batch_shape
    num_columns = num_rows if num_columns is None else num_columns
    dynamic = isinstance(num_rows, Tensor) or isinstance(num_columns, Tensor)
    if dynamic:
        diag_size: Any = _ops.Minimum(_t(num_rows, dtype="int32"), _t(num_columns, dtype="int32"))
    else:
        ok = all(
            isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, bool)
            for v in (num_rows, num_columns)
        )
        if not ok:
            raise TypeError(
                "Arguments `num_rows` and `num_columns` must be positive integer values. "
                f"Received: num_rows={num_rows}, num_columns={num_columns}"
            )
        is_square = num_rows == num_columns
        diag_size = min(int(num_rows), int(num_columns))
    if dynamic or isinstance(batch_shape, Tensor):
        bs = _t(batch_shape, dtype="int32")
        diag_shape: Any = _ops.ConcatV2([bs, _ops.Reshape(_t(diag_size, "int32"), [1])], 0)
        shape: Any = _ops.ConcatV2(
            [bs, _ops.Pack([_t(num_rows, "int32"), _t(num_columns, "int32")])], 0
        )
    else:
        bl = [int(d) for d in np.asarray(batch_shape).reshape(-1)]
        diag_shape = np.asarray([*bl, diag_size], np.int32)
        shape = np.asarray([*bl, int(num_rows), int(num_columns)], np.int32)
    one = np.ones((), dtype.as_numpy_dtype) if dtype.is_numpy_compatible else 1
    ones = _ops.Fill(diag_shape, _t(one, dtype=dtype))
    if is_square:
        return diag(ones)
    zero = np.zeros((), dtype.as_numpy_dtype) if dtype.is_numpy_compatible else 0
    return set_diag(_ops.Fill(shape, _t(zero, dtype=dtype)), ones)


# ---- factorizations and solvers ----


def cholesky(input: Any, name: str | None = None) -> Any:
    """Cholesky factor (lower triangle) of Hermitian positive-definite matrices."""
    return _ops.Cholesky(input)


def cholesky_solve(chol: Any, rhs: Any, name: str | None = None) -> Any:
    """Solves ``A X = rhs`` given ``chol = cholesky(A)``."""
    y = _ops.MatrixTriangularSolve(chol, rhs, lower=True, adjoint=False)
    return _ops.MatrixTriangularSolve(chol, y, lower=True, adjoint=True)


def det(input: Any, name: str | None = None) -> Any:
    """Determinant of each innermost square matrix."""
    return _ops.MatrixDeterminant(input)


def slogdet(input: Any, name: str | None = None) -> Any:
    """``(sign, log_abs_determinant)`` of each matrix (a namedtuple)."""
    return _ops.LogMatrixDeterminant(input)


def logdet(matrix: Any, name: str | None = None) -> Any:
    """log(det) of Hermitian positive-definite matrices, through Cholesky."""
    chol = _ops.Cholesky(matrix)
    d = _real(diag_part(chol))
    return _ops.Mul(_t(2.0, dtype=d.dtype), _ops.Sum(_ops.Log(d), np.asarray([-1], np.int32)))


def inv(input: Any, adjoint: bool = False, name: str | None = None) -> Any:
    """Inverse (of the adjoint when asked) of each square matrix."""
    if adjoint:
        return _ops.MatrixInverse(input, adjoint=True)
    return _ops.MatrixInverse(input)


def solve(matrix: Any, rhs: Any, adjoint: bool = False, name: str | None = None) -> Any:
    """Solves ``matrix @ X = rhs`` (or ``adjoint(matrix) @ X = rhs``)."""
    if adjoint:
        return _ops.MatrixSolve(matrix, rhs, adjoint=True)
    return _ops.MatrixSolve(matrix, rhs)


def triangular_solve(
    matrix: Any, rhs: Any, lower: bool = True, adjoint: bool = False, name: str | None = None
) -> Any:
    """Solves triangular systems; batch dimensions broadcast."""
    return _ops.MatrixTriangularSolve(matrix, rhs, lower=bool(lower), adjoint=bool(adjoint))


def banded_triangular_solve(
    bands: Any, rhs: Any, lower: bool = True, adjoint: bool = False, name: str | None = None
) -> Any:
    """Triangular solve with a banded matrix (op ``BandedTriangularSolve``)."""
    return _api.op("BandedTriangularSolve")(bands, rhs, lower=bool(lower), adjoint=bool(adjoint))


def qr(input: Any, full_matrices: bool = False, name: str | None = None) -> Any:
    """QR factorization: a namedtuple ``(q, r)``."""
    return _ops.Qr(input, full_matrices=bool(full_matrices))


def lu(input: Any, output_idx_type: Any = "int32", name: str | None = None) -> Any:
    """LU factorization with partial pivoting: a namedtuple ``(lu, p)``."""
    return _ops.Lu(input, output_idx_type=output_idx_type)


def svd(
    tensor: Any, full_matrices: bool = False, compute_uv: bool = True, name: str | None = None
) -> Any:
    """Singular values ``s`` (and ``u``, ``v`` when ``compute_uv``): ``(s, u, v)``."""
    s, u, v = _ops.Svd(tensor, compute_uv=bool(compute_uv), full_matrices=bool(full_matrices))
    s = _real(s)
    if compute_uv:
        return s, u, v
    return s


def eigh(tensor: Any, name: str | None = None) -> Any:
    """Eigenvalues (ascending) and eigenvectors of self-adjoint matrices."""
    e, v = _ops.SelfAdjointEigV2(tensor, compute_v=True)
    return e, v


def eigvalsh(tensor: Any, name: str | None = None) -> Any:
    """Eigenvalues (ascending) of self-adjoint matrices."""
    e, _ = _ops.SelfAdjointEigV2(tensor, compute_v=False)
    return e


def _eig_out(x: Any) -> str:
    dt = x.dtype
    if dt in ("float32", "complex64"):
        return "complex64"
    if dt in ("float64", "complex128"):
        return "complex128"
    raise TypeError(f"tf.linalg.eig does not support matrices of type {dt}")


def eig(tensor: Any, name: str | None = None) -> Any:
    """Eigenvalues and eigenvectors of general square matrices (op ``Eig``)."""
    x = _t(tensor)
    e, v = _api.op("Eig")(x, Tout=_eig_out(x), compute_v=True)
    return e, v


def eigvals(tensor: Any, name: str | None = None) -> Any:
    """Eigenvalues of general square matrices (op ``Eig``)."""
    x = _t(tensor)
    e, _ = _api.op("Eig")(x, Tout=_eig_out(x), compute_v=False)
    return e


def logm(input: Any, name: str | None = None) -> Any:
    """Matrix logarithm of complex matrices (op ``MatrixLogarithm``)."""
    return _api.op("MatrixLogarithm")(input)


def sqrtm(input: Any, name: str | None = None) -> Any:
    """Matrix square root (op ``MatrixSquareRoot``)."""
    return _api.op("MatrixSquareRoot")(input)


matrix_square_root = sqrtm


def _gramian_cholesky(matrix: Any, l2: Any, first_kind: bool) -> Any:
    from tfe_py.tensor import Tensor

    g = matmul(matrix, matrix, adjoint_a=first_kind, adjoint_b=not first_kind)
    if isinstance(l2, Tensor) or l2 != 0:
        s = _shape(matrix)
        assert s is not None
        small = s[-1] if first_kind else s[-2]
        ident = eye(small, batch_shape=list(s[:-2]), dtype=matrix.dtype)
        g = _ops.AddV2(g, _ops.Mul(_t(l2, dtype=matrix.dtype), ident))
    return _ops.Cholesky(g)


def lstsq(
    matrix: Any, rhs: Any, l2_regularizer: Any = 0.0, fast: bool = True, name: str | None = None
) -> Any:
    """Least-squares solution of ``matrix @ X = rhs`` (optionally
    regularized). ``fast=True`` (and small enough inputs, as TF decides)
    solves the normal equations by Cholesky; otherwise TF runs op
    ``MatrixSolveLs``."""
    matrix = _t(matrix)
    rhs = _t(rhs)
    if matrix.dtype == "complex128" and l2_regularizer != 0:
        raise NotImplementedError(
            "matrix_solve_ls is currently disabled for complex128 and "
            "l2_regularizer != 0 due to poor accuracy."
        )
    s = _shape(matrix)
    composite = bool(fast)
    if composite and _fully_defined(s):
        assert s is not None
        size = int(np.prod(s)) * matrix.dtype.size
        batch = int(np.prod(s[:-2])) if len(s) > 2 else 1
        if size > 256000 and batch > min(s[-2:]):
            composite = False
    if not composite:
        return _api.op("MatrixSolveLs")(
            matrix, rhs, _t(l2_regularizer, dtype="float64"), fast=bool(fast)
        )
    if s is None or s[-2] is None or s[-1] is None:
        raise NotImplementedError("lstsq needs matrices of known shape in tfe")
    if s[-2] >= s[-1]:
        chol = _gramian_cholesky(matrix, l2_regularizer, True)
        return cholesky_solve(chol, matmul(matrix, rhs, adjoint_a=True))
    chol = _gramian_cholesky(matrix, l2_regularizer, False)
    return matmul(matrix, cholesky_solve(chol, rhs), adjoint_a=True)


def _check_floating(a: Any) -> None:
    if not a.dtype.is_floating:
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {a.dtype.name}).")
    r = _rank(a)
    if r is not None and r < 2:
        raise ValueError(f"Input `a` must have at least 2 dimensions (saw: {r}).")


def matrix_rank(
    a: Any, tol: Any = None, validate_args: bool = False, name: str | None = None
) -> Any:
    """Number of singular values above ``tol`` (default: eps * max(m, n) *
    the largest singular value), as int32."""
    a = _t(a, dtype_hint="float32")
    _check_floating(a)
    s = svd(a, compute_uv=False)
    if tol is None:
        sh = _shape(a)
        assert sh is not None
        if sh[-2] is not None and sh[-1] is not None:
            m: Any = _t(np.asarray(max(sh[-2], sh[-1]), a.dtype.as_numpy_dtype))
        else:
            m = _cast(
                _ops.Max(_ops.StridedSlice(_dyn_shape(a), [-2], [0], [1], end_mask=1), 0), a.dtype
            )
        eps = np.finfo(a.dtype.as_numpy_dtype).eps
        tol = _ops.Mul(_ops.Mul(_t(eps, dtype=a.dtype), m), _max(s, -1, keepdims=True))
    big = _ops.Greater(s, tol)
    return _ops.Sum(_ops.Cast(big, DstT="int32"), np.int32(-1))


def pinv(a: Any, rcond: Any = None, validate_args: bool = False, name: str | None = None) -> Any:
    """Moore-Penrose pseudo-inverse through the SVD."""
    a = _t(a)
    _check_floating(a)
    npdt = a.dtype.as_numpy_dtype
    sh = _shape(a)
    assert sh is not None
    if rcond is None:
        if sh[-2] is not None and sh[-1] is not None:
            rcond = npdt(10.0 * float(max(sh[-2], sh[-1]))) * np.finfo(npdt).eps
        else:
            d = _dyn_shape(a)
            mx = _cast(_ops.Maximum(d[-2], d[-1]), a.dtype)
            rcond = _ops.Mul(
                _ops.Mul(_t(npdt(10.0), dtype=a.dtype), mx), _t(np.finfo(npdt).eps, dtype=a.dtype)
            )
    rcond = _t(rcond, dtype=a.dtype)
    s, u, v = svd(a, full_matrices=False, compute_uv=True)
    cutoff = _ops.Mul(rcond, _ops.Max(s, np.int32(-1)))
    s = _where(_ops.Greater(s, _expand(cutoff, -1)), s, _t(np.array(np.inf, npdt)))
    return matmul(_ops.RealDiv(v, _expand(s, -2)), u, adjoint_b=True)


def _lu_checks(lower_upper: Any, perm: Any) -> None:
    r, rp = _rank(lower_upper), _rank(perm)
    if r is not None and r < 2:
        raise ValueError("Input `lower_upper` must have at least 2 dimensions.")
    if r is not None and rp is not None and r != rp + 1:
        raise ValueError("`rank(lower_upper)` must equal `rank(perm) + 1`")
    s = _shape(lower_upper)
    if s is not None and s[-2] is not None and s[-1] is not None and s[-2] != s[-1]:
        raise ValueError("`lower_upper` must be square.")


def _unit_lower(lower_upper: Any) -> Any:
    lower = _ops.MatrixBandPart(lower_upper, np.int64(-1), np.int64(0))
    ones = _ops.Fill(
        _ops.StridedSlice(_dyn_shape(lower_upper), [0], [-1], [1], begin_mask=1),
        _t(np.ones((), lower_upper.dtype.as_numpy_dtype)),
    )
    return set_diag(lower, ones)


def lu_solve(
    lower_upper: Any, perm: Any, rhs: Any, validate_args: bool = False, name: str | None = None
) -> Any:
    """Solves ``A X = rhs`` given ``lu(A)``."""
    lower_upper = _t(lower_upper, dtype_hint="float32")
    perm = _t(perm, dtype_hint="int32")
    rhs = _t(rhs, dtype_hint=lower_upper.dtype)
    _lu_checks(lower_upper, perm)
    rr = _rank(rhs)
    if rr is not None and rr < 2:
        raise ValueError("Input `rhs` must have at least 2 dimensions.")
    sl, sr = _shape(lower_upper), _shape(rhs)
    if sl is not None and sr is not None and sl[-1] is not None and sr[-2] is not None:
        if sl[-1] != sr[-2]:
            raise ValueError("`lower_upper.shape[-1]` must equal `rhs.shape[-1]`.")
    if rr == 2 and _rank(perm) == 1:
        permuted = _ops.GatherV2(rhs, perm, np.int32(-2))
    else:
        rs = _dyn_shape(rhs)
        bshape = _ops.BroadcastArgs(
            _ops.StridedSlice(rs, [0], [-2], [1], begin_mask=1),
            _ops.StridedSlice(_ops.Shape(perm, out_type="int32"), [0], [-1], [1], begin_mask=1),
        )
        dm = _ops.StridedSlice(rs, [-2], [0], [1], end_mask=1)
        full = _ops.ConcatV2([bshape, dm], np.int32(0))
        brhs = _ops.BroadcastTo(rhs, full)
        flat_rhs = _ops.Reshape(brhs, _ops.ConcatV2([_t([-1], "int32"), dm], np.int32(0)))
        d = _ops.StridedSlice(rs, [-2], [-1], [1], shrink_axis_mask=1)
        bperm = _ops.BroadcastTo(perm, _ops.StridedSlice(full, [0], [-1], [1], begin_mask=1))
        bperm = _cast(_ops.Reshape(bperm, _ops.Pack([_t(-1, "int32"), d])), "int32")
        bsize = _ops.Prod(bshape, np.int32(0))
        bidx = _ops.BroadcastTo(
            _expand(_ops.Range(np.int32(0), bsize, np.int32(1)), -1), _ops.Pack([bsize, d])
        )
        idx = _ops.Pack([bidx, bperm], axis=-1)
        permuted = _ops.Reshape(_ops.GatherNd(flat_rhs, idx), full)
    lower = _unit_lower(lower_upper)
    y = _ops.MatrixTriangularSolve(lower, permuted, lower=True, adjoint=False)
    return _ops.MatrixTriangularSolve(lower_upper, y, lower=False, adjoint=False)


def lu_matrix_inverse(
    lower_upper: Any, perm: Any, validate_args: bool = False, name: str | None = None
) -> Any:
    """Inverse of ``A`` given ``lu(A)``."""
    lower_upper = _t(lower_upper, dtype_hint="float32")
    perm = _t(perm, dtype_hint="int32")
    _lu_checks(lower_upper, perm)
    s = _shape(lower_upper)
    assert s is not None
    if _fully_defined(s):
        ident = eye(s[-1], batch_shape=list(s[:-2]), dtype=lower_upper.dtype)
    else:
        d = _dyn_shape(lower_upper)
        ident = eye(
            d[-1],
            batch_shape=_ops.StridedSlice(d, [0], [-2], [1], begin_mask=1),
            dtype=lower_upper.dtype,
        )
    return lu_solve(lower_upper, perm, ident)


def lu_reconstruct(
    lower_upper: Any, perm: Any, validate_args: bool = False, name: str | None = None
) -> Any:
    """Rebuilds ``A`` from ``lu(A)``."""
    lower_upper = _t(lower_upper, dtype_hint="float32")
    perm = _t(perm, dtype_hint="int32")
    _lu_checks(lower_upper, perm)
    lower = _unit_lower(lower_upper)
    upper = _ops.MatrixBandPart(lower_upper, np.int64(0), np.int64(-1))
    x = matmul(lower, upper)
    if _rank(lower_upper) == 2:
        return _ops.GatherV2(x, _ops.InvertPermutation(perm), np.int32(0))
    shape = _dyn_shape(lower_upper)
    bsize = _ops.Prod(_ops.StridedSlice(shape, [0], [-2], [1], begin_mask=1), np.int32(0))
    d = _ops.StridedSlice(shape, [-1], [0], [1], end_mask=1, shrink_axis_mask=1)
    x = _ops.Reshape(x, _ops.Pack([bsize, d, d]))
    p = _cast(_ops.Reshape(perm, _ops.Pack([bsize, d])), "int32")
    bidx = _ops.BroadcastTo(
        _expand(_ops.Range(np.int32(0), bsize, np.int32(1)), -1), _ops.Pack([bsize, d])
    )
    # inverse permutation of each row: inv[b, p[b, i]] = i
    cols = _ops.BroadcastTo(_ops.Range(np.int32(0), d, np.int32(1)), _ops.Pack([bsize, d]))
    inv_p = _ops.ScatterNd(_ops.Pack([bidx, p], axis=-1), cols, _ops.Pack([bsize, d]))
    x = _ops.GatherNd(x, _ops.Pack([bidx, inv_p], axis=-1))
    return _ops.Reshape(x, shape)


# ---- tridiagonal ----


def tridiagonal_solve(
    diagonals: Any,
    rhs: Any,
    diagonals_format: str = "compact",
    transpose_rhs: bool = False,
    conjugate_rhs: bool = False,
    name: str | None = None,
    partial_pivoting: bool = True,
    perturb_singular: bool = False,
) -> Any:
    """Solves tridiagonal systems (op ``TridiagonalSolve``); ``diagonals``
    in ``compact`` (``[..., 3, M]``: super, main, sub), ``sequence`` or
    ``matrix`` format."""
    if perturb_singular and not partial_pivoting:
        raise ValueError("partial_pivoting must be True if perturb_singular is.")
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (tuple, list)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3.")
        sup, main, sub = (_t(x) for x in diagonals)
        m = (_shape(main) or (None,))[-1]

        def pad(t: Any, what: str, last: list[int]) -> Any:
            n = (_shape(t) or (None,))[-1]
            if not n or n == m:
                return t
            if m is not None and n == m - 1:
                r = _rank(t) or 1
                return _ops.Pad(t, np.asarray([[0, 0]] * (r - 1) + [last], np.int32))
            raise ValueError(
                f"Expected {what} to be have length {m} or {m - 1 if m else m}, got {n}."
            )

        sub = pad(sub, "subdiagonal", [1, 0])
        sup = pad(sup, "superdiagonal", [0, 1])
        diagonals = _ops.Pack([sup, main, sub], axis=-2)
    elif diagonals_format == "matrix":
        d = _t(diagonals)
        s = _shape(d) or ()
        if len(s) >= 2 and s[-1] and s[-2] and s[-1] != s[-2]:
            raise ValueError(
                f"Expected last two dimensions of diagonals to be same, got {s[-1]} and {s[-2]}"
            )
        diagonals = diag_part(d, k=(-1, 1), padding_value=0.0, align="LEFT_RIGHT")
    elif diagonals_format != "compact":
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    diagonals = _t(diagonals)
    rhs = _t(rhs)
    dr, rr = _rank(diagonals), _rank(rhs)
    ds, rs = _shape(diagonals), _shape(rhs)
    if dr:
        if dr < 2:
            raise ValueError(f"Expected diagonals to have rank at least 2, got {dr}")
        if rr and rr != dr and rr != dr - 1:
            raise ValueError(f"Expected the rank of rhs to be {dr - 1} or {dr}, got {rr}")
    if ds is not None and ds[-2] and ds[-2] != 3:
        raise ValueError(f"Expected 3 diagonals got {ds[-2]}")
    solve_op = _api.op("TridiagonalSolve")
    if rr and dr and rr == dr - 1:
        if conjugate_rhs:
            rhs = _conj(rhs)
        return _squeeze(
            solve_op(
                diagonals,
                _expand(rhs, -1),
                partial_pivoting=bool(partial_pivoting),
                perturb_singular=bool(perturb_singular),
            ),
            -1,
        )
    if transpose_rhs:
        rhs = matrix_transpose(rhs, conjugate=conjugate_rhs)
    elif conjugate_rhs:
        rhs = _conj(rhs)
    rs = _shape(rhs)
    if ds and rs and ds[-1] and rs[-2] and ds[-1] != rs[-2]:
        raise ValueError(
            "Expected number of left-hand sided and right-hand sides to be equal, "
            f"got {ds[-1]} and {rs[-2]}"
        )
    return solve_op(
        diagonals,
        rhs,
        partial_pivoting=bool(partial_pivoting),
        perturb_singular=bool(perturb_singular),
    )


def tridiagonal_matmul(
    diagonals: Any, rhs: Any, diagonals_format: str = "compact", name: str | None = None
) -> Any:
    """Product of a tridiagonal matrix with ``rhs`` (op ``TridiagonalMatMul``)."""
    if diagonals_format == "compact":
        d = _t(diagonals)
        sup, main, sub = d[..., 0, :], d[..., 1, :], d[..., 2, :]
    elif diagonals_format == "sequence":
        sup, main, sub = (_t(x) for x in diagonals)
    elif diagonals_format == "matrix":
        d = _t(diagonals)
        s = _shape(d) or ()
        if len(s) >= 2 and s[-1] and s[-2] and s[-1] != s[-2]:
            raise ValueError(
                f"Expected last two dimensions of diagonals to be same, got {s[-1]} and {s[-2]}"
            )
        dd = diag_part(d, k=(-1, 1), padding_value=0.0, align="LEFT_RIGHT")
        sup, main, sub = dd[..., 0, :], dd[..., 1, :], dd[..., 2, :]
    else:
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    return _api.op("TridiagonalMatMul")(_expand(sup, -2), _expand(main, -2), _expand(sub, -2), rhs)


def eigh_tridiagonal(
    alpha: Any,
    beta: Any,
    eigvals_only: bool = True,
    select: str = "a",
    select_range: Any = None,
    tol: Any = None,
    name: str | None = None,
) -> Any:
    """Eigenvalues (and with ``eigvals_only=False`` eigenvectors) of a
    Hermitian tridiagonal matrix: TF's bisection on Sturm counts and its
    inverse iteration, run eagerly."""
    alpha = _t(alpha)
    sa = _shape(alpha)
    n = sa[0] if sa else None
    if n is not None and n <= 1:
        return _real(alpha)
    beta = _t(beta)
    if alpha.dtype != beta.dtype:
        raise ValueError("'alpha' and 'beta' must have the same type.")
    if select not in ("a", "i", "v"):
        raise ValueError("'select must have a value in {'a', 'i', 'v'}.")
    alpha_in = alpha
    if alpha.dtype.is_complex:
        alpha = _real(alpha)
        beta_sq = _real(_ops.Mul(_ops.Conj(beta), beta))
        beta_abs = _ops.Sqrt(beta_sq)
    else:
        beta_sq = _ops.Square(beta)
        beta_abs = _ops.Abs(beta)
    npdt = alpha.dtype.as_numpy_dtype
    fi = np.finfo(npdt)
    rdt = alpha.dtype
    off = _ops.ConcatV2([beta_abs[:1], beta_abs[:-1] + beta_abs[1:], beta_abs[-1:]], np.int32(0))
    est_max = _ops.Minimum(_t(fi.max, dtype=rdt), _max(alpha + off))
    est_min = _ops.Maximum(_t(fi.min, dtype=rdt), _ops.Min(alpha - off, np.int32(0)))
    t_norm = _ops.Maximum(_ops.Abs(est_min), _ops.Abs(est_max))
    one = np.ones([], dtype=npdt)
    safemin = np.maximum(one / fi.max, (one + fi.eps) * fi.tiny)
    pivmin = _ops.Mul(_t(safemin, dtype=rdt), _ops.Maximum(_t(one), _max(beta_sq)))
    a0p = _ops.Square(_ops.Mul(_t(fi.eps, dtype=rdt), beta_abs[0]))
    abs_tol = _ops.Mul(_t(fi.eps, dtype=rdt), t_norm)
    if tol:
        abs_tol = _ops.Maximum(_t(tol, dtype=rdt), abs_tol)
    max_it = fi.nmant + 1
    assert n is not None
    fudge = 2.1
    slack = _ops.Mul(
        _ops.Mul(_ops.Mul(_t(npdt(n)), _t(npdt(fudge))), _t(fi.eps, dtype=rdt)), t_norm
    )

    def sturm(x: Any) -> Any:
        zeros = _ops.ZerosLike(_cast(x, "int32"))
        ones_ = _ops.OnesLike(zeros)
        q = alpha[0] - x
        count = _where(_ops.Less(q, _t(npdt(0))), ones_, zeros)
        q = _where(_ops.Equal(alpha[0], x), a0p, q)
        for i in range(1, n):
            q = alpha[i] - beta_sq[i - 1] / q - x
            le = _ops.LessEqual(q, pivmin)
            count = _where(le, count + 1, count)
            q = _where(le, _ops.Minimum(q, -pivmin), q)
        return count

    if select in ("a", "i"):
        if select == "a":
            targets = _ops.Range(np.int32(0), np.int32(n), np.int32(1))
        else:
            if int(select_range[0]) > int(select_range[1]):
                from tfe_py import errors

                raise errors.InvalidArgumentError(
                    None, None, "Got empty index range in select_range."
                )
            targets = _ops.Range(
                np.int32(select_range[0]), np.int32(int(select_range[1]) + 1), np.int32(1)
            )
        lower = est_min - slack - _ops.Mul(_t(npdt(2 * fudge)), pivmin)
        upper = est_max + slack + _ops.Mul(_t(npdt(fudge)), pivmin)
    else:
        if not float(select_range[0]) < float(select_range[1]):
            from tfe_py import errors

            raise errors.InvalidArgumentError(None, None, "Got empty interval in select_range.")
        lower = _t(select_range[0], dtype=rdt) - slack - _ops.Mul(_t(npdt(2 * fudge)), pivmin)
        upper = _t(select_range[1], dtype=rdt) + slack + _ops.Mul(_t(npdt(fudge)), pivmin)
        first = sturm(lower)
        last = sturm(upper)
        targets = _ops.Range(first, last, np.int32(1))
    upper = _ops.Minimum(upper, _t(fi.max, dtype=rdt))
    lower = _ops.Maximum(lower, _t(fi.min, dtype=rdt))
    tshape = _dyn_shape(targets)
    lower = _ops.BroadcastTo(lower, tshape)
    upper = _ops.BroadcastTo(upper, tshape)
    pivmin = _ops.BroadcastTo(pivmin, tshape)
    a0p = _ops.BroadcastTo(a0p, tshape)
    half = _t(npdt(0.5))

    def mid(lo: Any, up: Any) -> Any:
        return _ops.Mul(half, lo) + _ops.Mul(half, up)

    it = 0
    while it < max_it and bool(_ops.Less(abs_tol, _max(upper - lower))):
        mp = mid(lower, upper)
        counts = sturm(mp)
        lower = _where(_ops.LessEqual(counts, targets), mp, lower)
        upper = _where(_ops.Greater(counts, targets), mp, upper)
        it += 1
    eigvals = mid(lower, upper)
    if eigvals_only:
        return eigvals
    return eigvals, _tridiagonal_eigenvectors(alpha_in, beta, eigvals)


def _tridiagonal_eigenvectors(alpha: Any, beta: Any, eigvals: Any) -> Any:
    """TF's inverse iteration for eigh_tridiagonal: the same seeded start
    vectors (stateless normal, seed [7, 42]), tridiagonal solves and QR
    re-orthogonalization of clusters of close eigenvalues, run eagerly."""
    from tfe_py import random as tf_random

    k = int(_shape(eigvals)[0])  # type: ignore[index]
    n = int(_shape(alpha)[0])  # type: ignore[index]
    bdt = beta.dtype
    alpha = _cast(alpha, bdt)
    ev = eigvals.numpy()
    eps = np.finfo(ev.dtype).eps
    if k > 0:
        t_norm = max(abs(ev[0]), abs(ev[-1]))
        close = (ev[1:] - ev[:-1]) < np.sqrt(eps) * t_norm
    else:
        close = np.zeros([0], bool)
    left = np.concatenate([[False], close])
    right = np.concatenate([close, [False]])
    starts = np.nonzero(~left & right)[0]
    ends = np.nonzero(left & ~right)[0] + 1
    v = _cast(tf_random.stateless_normal(shape=(k, n), seed=[7, 42]), bdt)
    nrm_v = norm(v, axis=1)
    v = v / nrm_v[:, None]
    nrm_old = _ops.ZerosLike(nrm_v)
    shifted = _ops.Sub(alpha[None, :], _cast(eigvals, bdt)[:, None])
    tb = _ops.Tile(beta[None, :], np.asarray([k, 1], np.int32))
    diags = [tb, shifted, _conj(tb)]

    def orthogonalize(vec: Any) -> Any:
        for st, en in zip(starts, ends, strict=True):
            q, _ = qr(matrix_transpose(vec[int(st) : int(en), :]))
            idx = np.arange(st, en, dtype=np.int32)[:, None]
            vec = _ops.TensorScatterUpdate(vec, idx, matrix_transpose(q))
        return vec

    i = 0
    while i < 5:
        grow = _ops.GreaterEqual(_real(nrm_v), _real(_ops.Mul(_t(1.1, dtype=nrm_v.dtype), nrm_old)))
        if not bool(_ops.Any(grow, np.int32(0))):
            break
        v = tridiagonal_solve(
            diags, v, diagonals_format="sequence", partial_pivoting=True, perturb_singular=True
        )
        nrm_old = nrm_v
        nrm_v = norm(v, axis=1)
        v = v / nrm_v[:, None]
        v = orthogonalize(v)
        i += 1
    return matrix_transpose(v)


# ---- norms ----


def norm(
    tensor: Any,
    ord: Any = "euclidean",
    axis: Any = None,
    keepdims: Any = None,
    name: str | None = None,
) -> Any:
    """Vector norms (``axis`` None or an int) and matrix norms (``axis`` a
    pair): ``ord`` is 'euclidean', 'fro', 1, 2, inf or (vectors) any
    positive p. As in TF, the result keeps the input's dtype (complex for
    complex input with the Euclidean norm)."""
    keepdims = bool(keepdims) if keepdims is not None else False
    is_matrix = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix:
        axis = tuple(axis)
        if not isinstance(axis[0], int) or not isinstance(axis[1], int) or axis[0] == axis[1]:
            raise ValueError(
                f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}"
            )
        supported = ["euclidean", "fro", 1, 2, np.inf]
        if ord not in supported:
            raise ValueError(f"'ord' must be a supported matrix norm in {supported}, got {ord}")
    else:
        if not (isinstance(axis, int) or axis is None):
            raise ValueError(
                f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}"
            )
        supported = ["euclidean", 1, 2, np.inf]
        is_pos_real = (
            isinstance(ord, (numbers.Real, np.floating, np.integer))
            and not isinstance(ord, bool)
            and ord > 0
        )
        if not is_pos_real and ord not in supported:
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        if axis is not None:
            axis = (axis,)
    x = _t(tensor)
    if ord in ("fro", "euclidean", 2, 2.0):
        if is_matrix and ord in (2, 2.0):
            r = _rank(x)
            if r is None:
                raise NotImplementedError("tf.norm(ord=2) over matrices needs a known rank in tfe")
            pos = [a if a >= 0 else a + r for a in axis]
            before = [i for i in range(r) if i not in pos] + pos
            after = [before.index(i) for i in range(r)]
            permed = _ops.Transpose(x, np.asarray(before, np.int32))
            s = _ops.Svd(permed, compute_uv=False)[0]
            m2 = _expand(
                _max(
                    _ops.Abs(s)
                    if not s.dtype.is_complex
                    else _ops.ComplexAbs(s, Tout=s.dtype.real_dtype),
                    -1,
                    keepdims=True,
                ),
                -1,
            )
            result = _ops.Transpose(m2, np.asarray(after, np.int32))
        else:
            result = _ops.Sqrt(_sum(_ops.Mul(x, _conj(x)), axis, keepdims=True))
    else:
        result = _abs(x)
        if ord == 1:
            sum_axis = None if axis is None else axis[0]
            result = _sum(result, sum_axis, keepdims=True)
            if is_matrix:
                result = _max(result, axis[-1], keepdims=True)
        elif ord == np.inf:
            if is_matrix:
                result = _sum(result, axis[1], keepdims=True)
            max_axis = None if axis is None else axis[0]
            result = _max(result, max_axis, keepdims=True)
        else:
            p = _t(ord, dtype=result.dtype)
            result = _ops.Pow(
                _sum(_ops.Pow(result, p), axis, keepdims=True),
                _ops.RealDiv(_t(1.0, dtype=result.dtype), p)
                if result.dtype.is_floating or result.dtype.is_complex
                else _t(1.0 / ord, dtype=result.dtype),
            )
    if not keepdims:
        result = _squeeze(result, axis)
    return result


def _abs(x: Any) -> Any:
    if x.dtype.is_complex:
        return _ops.ComplexAbs(x, Tout=x.dtype.real_dtype)
    return _ops.Abs(x)


def normalize(
    tensor: Any, ord: Any = "euclidean", axis: Any = None, name: str | None = None
) -> Any:
    """``(tensor / norm, norm)`` with the norm kept on the reduced axes."""
    x = _t(tensor)
    n = norm(x, ord, axis, keepdims=True)
    n = _cast(n, x.dtype)
    return x / n, n


def l2_normalize(
    x: Any, axis: Any = None, epsilon: float = 1e-12, name: str | None = None, dim: Any = None
) -> Any:
    """``x / sqrt(max(sum(x**2, axis), epsilon))``."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    x = _t(x)
    if x.dtype.is_complex:
        rdt = x.dtype.real_dtype
        re_ = _ops.Real(x, Tout=rdt)
        im_ = _ops.Imag(x, Tout=rdt)
        sq = _real(_sum(_ops.AddV2(_ops.Square(re_), _ops.Square(im_)), axis, keepdims=True))
        inv_n = _ops.Rsqrt(_ops.Maximum(sq, _t(epsilon, dtype=rdt)))
        return _ops.Complex(_ops.Mul(re_, inv_n), _ops.Mul(im_, inv_n), Tout=x.dtype)
    sq = _sum(_ops.Square(x), axis, keepdims=True)
    inv_n = _ops.Rsqrt(_ops.Maximum(sq, _t(epsilon, dtype=x.dtype)))
    return _ops.Mul(x, inv_n)


def global_norm(t_list: Any, name: str | None = None) -> Any:
    """sqrt(sum of squares of every element of every tensor in ``t_list``)
    (None entries are skipped)."""
    if not isinstance(t_list, Sequence) or isinstance(t_list, (str, bytes)):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    halves = [_ops.L2Loss(_t(t)) for t in t_list if t is not None]
    total = _ops.Sum(_ops.Pack(halves), np.int32(0))
    return _ops.Sqrt(_ops.Mul(total, _t(2.0, dtype=total.dtype)))


# ---- matrix functions ----


def _pade(m: Any, b: list[float], ident: Any) -> tuple[Any, Any]:
    dt = m.dtype

    def c(v: float) -> Any:
        return _t(v, dtype=dt)

    def add(*xs: Any) -> Any:
        out = xs[0]
        for x in xs[1:]:
            out = _ops.AddV2(out, x)
        return out

    def sc(v: float, x: Any) -> Any:
        return _ops.Mul(c(v), x)

    m2 = matmul(m, m)
    if len(b) == 3:
        u = matmul(m, add(m2, sc(b[1], ident)))
        v = add(sc(b[2], m2), sc(b[0], ident))
        return u, v
    m4 = matmul(m2, m2)
    if len(b) == 5:
        u = matmul(m, add(m4, sc(b[3], m2), sc(b[1], ident)))
        v = add(sc(b[4], m4), sc(b[2], m2), sc(b[0], ident))
        return u, v
    m6 = matmul(m4, m2)
    if len(b) == 7:
        u = matmul(m, add(m6, sc(b[5], m4), sc(b[3], m2), sc(b[1], ident)))
        v = add(sc(b[6], m6), sc(b[4], m4), sc(b[2], m2), sc(b[0], ident))
        return u, v
    if len(b) == 9:
        m8 = matmul(m6, m2)
        u = matmul(m, add(m8, sc(b[7], m6), sc(b[5], m4), sc(b[3], m2), sc(b[1], ident)))
        v = add(sc(b[8], m8), sc(b[6], m6), sc(b[4], m4), sc(b[2], m2), sc(b[0], ident))
        return u, v
    tu = add(
        matmul(m6, add(m6, sc(b[11], m4), sc(b[9], m2))),
        sc(b[7], m6),
        sc(b[5], m4),
        sc(b[3], m2),
        sc(b[1], ident),
    )
    u = matmul(m, tu)
    tv = add(sc(b[12], m6), sc(b[10], m4), sc(b[8], m2))
    v = add(matmul(m6, tv), sc(b[6], m6), sc(b[4], m4), sc(b[2], m2), sc(b[0], ident))
    return u, v


_PADE = {
    3: [120.0, 60.0, 12.0],
    5: [30240.0, 15120.0, 3360.0, 420.0, 30.0],
    7: [17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0],
    9: [
        17643225600.0,
        8821612800.0,
        2075673600.0,
        302702400.0,
        30270240.0,
        2162160.0,
        110880.0,
        3960.0,
        90.0,
    ],
    13: [
        64764752532480000.0,
        32382376266240000.0,
        7771770303897600.0,
        1187353796428800.0,
        129060195264000.0,
        10559470521600.0,
        670442572800.0,
        33522128640.0,
        1323241920.0,
        40840800.0,
        960960.0,
        16380.0,
        182.0,
    ],
}


def expm(input: Any, name: str | None = None) -> Any:
    """Matrix exponential by scaling and squaring with Pade approximants,
    the algorithm TF runs in Python (degree 3/5/7 for single precision,
    up to 13 for double). Runs eagerly (the squaring loop is a Python
    loop)."""
    x = _t(input)
    s = _shape(x)
    if s is None or not _fully_defined(s):
        raise NotImplementedError("tf.linalg.expm needs a fully known shape in tfe")
    if len(s) >= 2 and s[-2:] == (0, 0):
        return x
    dt = x.dtype
    if dt not in ("float16", "float32", "complex64", "float64", "complex128"):
        raise ValueError(f"tf.linalg.expm does not support matrices of type {dt}")
    m = _ops.Reshape(x, np.asarray([-1, s[-2], s[-1]], np.int32))
    l1 = _ops.Max(_ops.Sum(_abs(m), np.int32(1)), np.int32(-1))
    l1 = _ops.ExpandDims(_ops.ExpandDims(l1, np.int32(-1)), np.int32(-1))
    ldt = l1.dtype

    def const(v: float) -> Any:
        return _t(v, dtype=ldt)

    single = dt in ("float16", "float32", "complex64")
    maxnorm = const(3.925724783138660 if single else 5.371920351148152)
    squarings = _ops.Maximum(
        _ops.Floor(_ops.RealDiv(_ops.Log(_ops.RealDiv(l1, maxnorm)), _ops.Log(const(2.0)))),
        const(0.0),
    )
    ident = eye(s[-2], batch_shape=[int(np.prod(s[:-2]))], dtype=dt)
    scaled = _ops.RealDiv(m, _cast(_ops.Pow(const(2.0), squarings), dt))
    if single:
        degs = [3, 5, 7]
        conds = (4.258730016922831e-001, 1.880152677804762e000)
    else:
        degs = [3, 5, 7, 9, 13]
        conds = (
            1.495585217958292e-002,
            2.539398330063230e-001,
            9.504178996162932e-001,
            2.097847961257068e000,
        )
    uv = [_pade(scaled if d == degs[-1] else m, _PADE[d], ident) for d in degs]

    def nest(vals: tuple[float, ...], cases: list[Any]) -> Any:
        if len(vals) == 1:
            return _where(_ops.Less(l1, const(vals[0])), cases[0], cases[1])
        return _where(_ops.Less(l1, const(vals[0])), cases[0], nest(vals[1:], cases[1:]))

    u = nest(conds, [p[0] for p in uv])
    v = nest(conds, [p[1] for p in uv])
    finite = bool(_ops.IsFinite(_ops.Max(l1, np.asarray([0, 1, 2], np.int32))))
    if finite:
        result = _ops.MatrixSolve(_ops.AddV2(_ops.Neg(u), v), _ops.AddV2(u, v))
        max_sq = float(_ops.Max(squarings, np.asarray([0, 1, 2], np.int32)))
        i = 0.0
        while i < max_sq:
            result = _where(_ops.Less(const(i), squarings), matmul(result, result), result)
            i += 1.0
    else:
        result = _ops.Fill(_dyn_shape(m), _t(np.nan, dtype=dt))
    return _ops.Reshape(result, np.asarray(s, np.int32))
