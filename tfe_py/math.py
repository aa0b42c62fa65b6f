"""``tf.math``: element-wise math, reductions, segment and cumulative ops.

Every function keeps TensorFlow 2.21's name, argument names and defaults and
runs tfe's C ops (the generated wrappers of :mod:`tfe_py.ops`); none falls
back to numpy. Python values are converted the way TF converts them (the
second operand of a binary function takes the first one's dtype when it
can). The common element-wise functions (``add``, ``multiply``, ``exp``,
...) are a single call to the op wrapper, so ``tf.add(a, b)`` costs about
what ``tfe_py.ops.AddV2(a, b)`` costs.

A function whose op tfe does not have raises NotImplementedError naming the
op (see :mod:`tfe_py._api`).
"""

from __future__ import annotations

import builtins
import collections.abc
from typing import Any

import numpy as np

from tfe_py import _api
from tfe_py import dtypes as _dtypes
from tfe_py import errors as _errors
from tfe_py import ops as _ops
from tfe_py.tensor import Tensor as _Tensor

__all__ = [
    "abs",
    "accumulate_n",
    "acos",
    "acosh",
    "add",
    "add_n",
    "angle",
    "approx_max_k",
    "approx_min_k",
    "argmax",
    "argmin",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "bessel_i0",
    "bessel_i0e",
    "bessel_i1",
    "bessel_i1e",
    "betainc",
    "bincount",
    "ceil",
    "complex",
    "confusion_matrix",
    "conj",
    "cos",
    "cosh",
    "count_nonzero",
    "cumprod",
    "cumsum",
    "cumulative_logsumexp",
    "digamma",
    "divide",
    "divide_no_nan",
    "equal",
    "erf",
    "erfc",
    "erfcinv",
    "erfinv",
    "exp",
    "expm1",
    "floor",
    "floordiv",
    "floormod",
    "greater",
    "greater_equal",
    "igamma",
    "igammac",
    "imag",
    "in_top_k",
    "invert_permutation",
    "is_finite",
    "is_inf",
    "is_nan",
    "is_non_decreasing",
    "is_strictly_increasing",
    "l2_normalize",
    "lbeta",
    "less",
    "less_equal",
    "lgamma",
    "log",
    "log1p",
    "log_sigmoid",
    "log_softmax",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "mod",
    "multiply",
    "multiply_no_nan",
    "ndtri",
    "negative",
    "nextafter",
    "not_equal",
    "polygamma",
    "polyval",
    "pow",
    "real",
    "realdiv",
    "reciprocal",
    "reciprocal_no_nan",
    "reduce_all",
    "reduce_any",
    "reduce_euclidean_norm",
    "reduce_logsumexp",
    "reduce_max",
    "reduce_mean",
    "reduce_min",
    "reduce_prod",
    "reduce_std",
    "reduce_sum",
    "reduce_variance",
    "rint",
    "round",
    "rsqrt",
    "scalar_mul",
    "segment_max",
    "segment_mean",
    "segment_min",
    "segment_prod",
    "segment_sum",
    "sigmoid",
    "sign",
    "sin",
    "sinh",
    "sobol_sample",
    "softmax",
    "softplus",
    "softsign",
    "special",
    "sqrt",
    "square",
    "squared_difference",
    "subtract",
    "tan",
    "tanh",
    "top_k",
    "truediv",
    "truncatediv",
    "truncatemod",
    "unsorted_segment_max",
    "unsorted_segment_mean",
    "unsorted_segment_min",
    "unsorted_segment_prod",
    "unsorted_segment_sqrt_n",
    "unsorted_segment_sum",
    "xdivy",
    "xlog1py",
    "xlogy",
    "zero_fraction",
    "zeta",
]

# Names TensorFlow also exports at the top level (tf.<name>): the "=tf.X"
# entries of tf.math plus the top-level functions whose home is math_ops.
TOPLEVEL: frozenset[str] = frozenset(
    {
        "abs",
        "acos",
        "acosh",
        "add",
        "add_n",
        "argmax",
        "argmin",
        "asin",
        "asinh",
        "atan",
        "atan2",
        "atanh",
        "complex",
        "cos",
        "cosh",
        "cumsum",
        "divide",
        "equal",
        "exp",
        "floor",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "logical_and",
        "logical_not",
        "logical_or",
        "maximum",
        "minimum",
        "multiply",
        "negative",
        "not_equal",
        "pow",
        "realdiv",
        "reduce_all",
        "reduce_any",
        "reduce_logsumexp",
        "reduce_max",
        "reduce_mean",
        "reduce_min",
        "reduce_prod",
        "reduce_sum",
        "round",
        "scalar_mul",
        "sigmoid",
        "sign",
        "sin",
        "sinh",
        "sqrt",
        "square",
        "subtract",
        "tan",
        "tanh",
        "truediv",
        "truncatediv",
        "truncatemod",
    }
)

_D = _dtypes.DTYPE_CONSTANTS
_builtin_abs = builtins.abs
_builtin_round = builtins.round

# dtype enum values (TF_DataType) used below.
_FLOAT, _DOUBLE, _INT32, _UINT8, _INT16, _INT8, _STRING = 1, 2, 3, 4, 5, 6, 7
_COMPLEX64, _INT64, _BOOL = 8, 9, 10
_BFLOAT16, _UINT16, _COMPLEX128, _HALF = 14, 17, 18, 19
_UINT32, _UINT64 = 22, 23
_VARIANT = 21

# Python 3 division: integers become these floats first (TF's table).
_TRUEDIV_TABLE: dict[int, int | None] = {
    _UINT8: _FLOAT,
    _INT8: _FLOAT,
    _UINT16: _FLOAT,
    _INT16: _FLOAT,
    _UINT32: _DOUBLE,
    _INT32: _DOUBLE,
    _UINT64: _DOUBLE,
    _INT64: _DOUBLE,
    _BFLOAT16: None,
    _HALF: None,
    _FLOAT: None,
    _DOUBLE: None,
    _COMPLEX64: None,
    _COMPLEX128: None,
}
_NUMERIC = frozenset(_TRUEDIV_TABLE) | {11, 12, 13, 15, 16}  # + quantized


def _t(value: Any, dtype: Any = None, dtype_hint: Any = None) -> Any:
    """``value`` as a tensor (tf.convert_to_tensor)."""
    return _api.tensor(value, dtype, dtype_hint)


def _dtype_repr(dt: Any) -> str:
    from tfe_py.dtypes import as_dtype

    return repr(as_dtype(dt))


def _pair(x: Any, y: Any) -> tuple[Any, Any]:
    """x and y as tensors the way TF's binary math functions convert them:
    x on its own, y with x's dtype as a hint (x takes y's dtype when only y
    is a tensor)."""
    from tfe_py.tensor import Tensor

    if not isinstance(x, Tensor) and isinstance(y, Tensor):
        return _t(x, y.dtype), y
    x = _t(x)
    return x, _t(y, dtype_hint=x.dtype)


def _rank(x: Any) -> int | None:
    return x.shape.rank


# ---------------------------------------------------------------------------
# Binary arithmetic. Each common function is one call into the op wrapper.


def add(x: Any, y: Any, name: str | None = None) -> Any:
    """x + y element-wise with broadcasting (AddV2; Add for strings).

    As in TF, x is converted on its own and y takes x's dtype when it can;
    otherwise the op refuses the mismatch (InvalidArgumentError)."""
    if isinstance(x, _Tensor):
        try:
            return _ops.AddV2(x, y, name=name)
        except TypeError:
            pass
        except _errors.InvalidArgumentError:
            if int(x.dtype) != _STRING:
                raise
    x = _t(x)
    y = _t(y, dtype_hint=x.dtype)
    if int(x.dtype) == _STRING:
        return _ops.Add(x, y, name=name)
    return _ops.AddV2(x, y, name=name)


def subtract(x: Any, y: Any, name: str | None = None) -> Any:
    """x - y element-wise with broadcasting (Sub)."""
    return _ops.Sub(x, y, name=name)


def multiply(x: Any, y: Any, name: str | None = None) -> Any:
    """x * y element-wise with broadcasting (Mul)."""
    return _ops.Mul(x, y, name=name)


def maximum(x: Any, y: Any, name: str | None = None) -> Any:
    """Element-wise maximum with broadcasting (Maximum)."""
    return _ops.Maximum(x, y, name=name)


def minimum(x: Any, y: Any, name: str | None = None) -> Any:
    """Element-wise minimum with broadcasting (Minimum)."""
    return _ops.Minimum(x, y, name=name)


def pow(x: Any, y: Any, name: str | None = None) -> Any:
    """x ** y element-wise (Pow)."""
    return _ops.Pow(x, y, name=name)


def squared_difference(x: Any, y: Any, name: str | None = None) -> Any:
    """(x - y) ** 2 element-wise (SquaredDifference)."""
    return _ops.SquaredDifference(x, y, name=name)


def atan2(y: Any, x: Any, name: str | None = None) -> Any:
    """atan(y / x) with the quadrant of (x, y) (Atan2)."""
    return _ops.Atan2(y, x, name=name)


def floordiv(x: Any, y: Any, name: str | None = None) -> Any:
    """Division rounding toward negative infinity (FloorDiv)."""
    return _ops.FloorDiv(x, y, name=name)


def floormod(x: Any, y: Any, name: str | None = None) -> Any:
    """Remainder of floor division, with the divisor's sign (FloorMod)."""
    return _ops.FloorMod(x, y, name=name)


mod = floormod


def truncatediv(x: Any, y: Any, name: str | None = None) -> Any:
    """Integer division rounding toward zero (TruncateDiv)."""
    return _ops.TruncateDiv(x, y, name=name)


def truncatemod(x: Any, y: Any, name: str | None = None) -> Any:
    """Remainder of truncating division, with the dividend's sign (TruncateMod)."""
    return _ops.TruncateMod(x, y, name=name)


def realdiv(x: Any, y: Any, name: str | None = None) -> Any:
    """x / y for real or complex tensors, no integer casting (RealDiv)."""
    return _ops.RealDiv(x, y, name=name)


def xlogy(x: Any, y: Any, name: str | None = None) -> Any:
    """x * log(y), 0 where x is 0 (Xlogy)."""
    return _ops.Xlogy(x, y, name=name)


def xlog1py(x: Any, y: Any, name: str | None = None) -> Any:
    """x * log1p(y), 0 where x is 0 (Xlog1py)."""
    return _ops.Xlog1py(x, y, name=name)


def xdivy(x: Any, y: Any, name: str | None = None) -> Any:
    """x / y, 0 where x is 0 (Xdivy)."""
    return _ops.Xdivy(x, y, name=name)


def nextafter(x1: Any, x2: Any, name: str | None = None) -> Any:
    """The next representable value after x1 towards x2 (NextAfter)."""
    return _ops.NextAfter(x1, x2, name=name)


def igamma(a: Any, x: Any, name: str | None = None) -> Any:
    """Regularized lower incomplete gamma function P(a, x) (Igamma)."""
    return _api.op("Igamma")(a, x, name=name)


def igammac(a: Any, x: Any, name: str | None = None) -> Any:
    """Regularized upper incomplete gamma function Q(a, x) (Igammac)."""
    return _api.op("Igammac")(a, x, name=name)


def zeta(x: Any, q: Any, name: str | None = None) -> Any:
    """Hurwitz zeta function (Zeta)."""
    return _api.op("Zeta")(x, q, name=name)


def polygamma(a: Any, x: Any, name: str | None = None) -> Any:
    """Polygamma function of order a (Polygamma)."""
    return _api.op("Polygamma")(a, x, name=name)


def betainc(a: Any, b: Any, x: Any, name: str | None = None) -> Any:
    """Regularized incomplete beta function I_x(a, b) (Betainc)."""
    return _api.op("Betainc")(a, b, x, name=name)


# Comparisons and logic.


def equal(x: Any, y: Any, name: str | None = None) -> Any:
    """x == y element-wise with broadcasting (Equal)."""
    return _ops.Equal(x, y, name=name)


def not_equal(x: Any, y: Any, name: str | None = None) -> Any:
    """x != y element-wise with broadcasting (NotEqual)."""
    return _ops.NotEqual(x, y, name=name)


def less(x: Any, y: Any, name: str | None = None) -> Any:
    """x < y element-wise (Less)."""
    return _ops.Less(x, y, name=name)


def less_equal(x: Any, y: Any, name: str | None = None) -> Any:
    """x <= y element-wise (LessEqual)."""
    return _ops.LessEqual(x, y, name=name)


def greater(x: Any, y: Any, name: str | None = None) -> Any:
    """x > y element-wise (Greater)."""
    return _ops.Greater(x, y, name=name)


def greater_equal(x: Any, y: Any, name: str | None = None) -> Any:
    """x >= y element-wise (GreaterEqual)."""
    return _ops.GreaterEqual(x, y, name=name)


def logical_and(x: Any, y: Any, name: str | None = None) -> Any:
    """Boolean AND element-wise (LogicalAnd)."""
    return _ops.LogicalAnd(x, y, name=name)


def logical_or(x: Any, y: Any, name: str | None = None) -> Any:
    """Boolean OR element-wise (LogicalOr)."""
    return _ops.LogicalOr(x, y, name=name)


def logical_not(x: Any, name: str | None = None) -> Any:
    """Boolean NOT element-wise (LogicalNot)."""
    return _ops.LogicalNot(x, name=name)


def logical_xor(x: Any, y: Any, name: str = "LogicalXor") -> Any:
    """Boolean XOR element-wise: (x or y) and not (x and y), as TF builds it."""
    return _ops.LogicalAnd(_ops.LogicalOr(x, y), _ops.LogicalNot(_ops.LogicalAnd(x, y)), name=name)


# ---------------------------------------------------------------------------
# Division with TF's dtype rules.


def _truediv(x: Any, y: Any, name: str | None, where: str) -> Any:
    x = _t(x)
    y = _t(y, dtype_hint=x.dtype)
    x_dtype, y_dtype = int(x.dtype), int(y.dtype)
    if x_dtype != y_dtype:
        raise TypeError(
            f"`x` and `y` must have the same dtype, got {_dtype_repr(x_dtype)} != "
            f"{_dtype_repr(y_dtype)}."
        )
    if x_dtype not in _TRUEDIV_TABLE:
        allowed = ", ".join(_dtype_repr(d) for d in _TRUEDIV_TABLE)
        raise TypeError(
            f"Invalid dtype {_dtype_repr(x_dtype)} in {where}. Expected one of {{{allowed}}}."
        )
    target = _TRUEDIV_TABLE[x_dtype]
    if target is not None:
        x = _ops.Cast(x, DstT=target)
        y = _ops.Cast(y, DstT=target)
    return x, y


def truediv(x: Any, y: Any, name: str | None = None) -> Any:
    """x / y with Python 3 semantics: integers are cast to float first
    (int8/int16/uint8/uint16 to float32, wider ones to float64)."""
    x, y = _truediv(x, y, name, "__truediv__")
    return _ops.RealDiv(x, y, name=name)


def divide(x: Any, y: Any, name: str | None = None) -> Any:
    """x / y as Python's ``/`` on tensors (see :func:`truediv`)."""
    from tfe_py.tensor import Tensor

    if not isinstance(x, Tensor):
        x = _t(x, y.dtype if isinstance(y, Tensor) else None)
    return x / y


def divide_no_nan(x: Any, y: Any, name: str | None = None) -> Any:
    """x / y, but 0 wherever y is 0 (DivNoNan; integers cast as in truediv)."""
    from tfe_py.tensor import Tensor

    if not isinstance(x, Tensor) and isinstance(y, Tensor):
        x = _t(x, y.dtype)
    x, y = _truediv(x, y, name, "tf.math.divide_no_nan")
    return _ops.DivNoNan(x, y, name=name)


def multiply_no_nan(x: Any, y: Any, name: str | None = None) -> Any:
    """x * y, but 0 wherever y is 0 even if x is NaN or infinite (MulNoNan)."""
    x = _t(x)
    y = _t(y, x.dtype)
    return _ops.MulNoNan(x, y, name=name)


def reciprocal_no_nan(x: Any, name: str | None = None) -> Any:
    """1 / x, but 0 where x is 0 (DivNoNan)."""
    x = _t(x)
    return _ops.DivNoNan(_t(1, x.dtype), x, name=name)


def scalar_mul(scalar: Any, x: Any, name: str | None = None) -> Any:
    """scalar * x for a 0-D scalar (Mul); ValueError for any other shape."""
    from tfe_py.dtypes import as_dtype

    scalar = _t(scalar, as_dtype(x.dtype))
    if scalar.shape.rank != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape {scalar.shape}.")
    return _ops.Mul(scalar, x, name=name)


def add_n(inputs: Any, name: str | None = None) -> Any:
    """Sum of a list of tensors of one shape and dtype (AddN)."""
    from tfe_py.tensor import Tensor

    err = (
        "Inputs must be an iterable of at least one Tensor/IndexedSlices with the same "
        "dtype and shape."
    )
    if not inputs or not isinstance(inputs, collections.abc.Iterable):
        raise ValueError(err)
    inputs = [v if isinstance(v, Tensor) else _t(v) for v in inputs]
    if len(inputs) == 1:
        return inputs[0]
    return _ops.AddN(inputs, name=name)


def accumulate_n(
    inputs: Any, shape: Any = None, tensor_dtype: Any = None, name: str | None = None
) -> Any:
    """Sum of a list of tensors (TF deprecates it in favour of add_n)."""
    from tfe_py.dtypes import as_dtype
    from tfe_py.tensor import Tensor
    from tfe_py.tensor_shape import TensorShape

    err = "inputs must be a list of at least one Tensor with the same dtype and shape"
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError(err)
    inputs = [v if isinstance(v, Tensor) else _t(v) for v in inputs]
    if not all(int(v.dtype) == int(inputs[0].dtype) for v in inputs):
        raise ValueError(err)
    merged = TensorShape(shape) if shape is not None else TensorShape(None)
    for v in inputs:
        merged = merged.merge_with(v.shape)
    if tensor_dtype is not None and as_dtype(tensor_dtype) != inputs[0].dtype:
        raise TypeError(
            f"The `tensor_dtype` argument is {as_dtype(tensor_dtype)!r}, but `input` is of "
            f"type {inputs[0].dtype!r}. These must be equal. Try casting the input to the "
            "desired type."
        )
    if len(inputs) == 1:
        return inputs[0]
    return add_n(inputs, name=name)


# ---------------------------------------------------------------------------
# Unary functions.


def _unary(op_name: str, doc: str) -> Any:
    def fn(x: Any, name: str | None = None) -> Any:
        return getattr(_ops, op_name)(x, name=name)

    fn.__doc__ = f"{doc} ({op_name})."
    return fn


def negative(x: Any, name: str | None = None) -> Any:
    """-x element-wise (Neg)."""
    return _ops.Neg(x, name=name)


def exp(x: Any, name: str | None = None) -> Any:
    """e ** x element-wise (Exp)."""
    return _ops.Exp(x, name=name)


def log(x: Any, name: str | None = None) -> Any:
    """Natural logarithm element-wise (Log)."""
    return _ops.Log(x, name=name)


def sqrt(x: Any, name: str | None = None) -> Any:
    """Square root element-wise (Sqrt)."""
    return _ops.Sqrt(x, name=name)


def square(x: Any, name: str | None = None) -> Any:
    """x * x element-wise (Square)."""
    return _ops.Square(x, name=name)


def sigmoid(x: Any, name: str | None = None) -> Any:
    """1 / (1 + exp(-x)) element-wise (Sigmoid)."""
    return _ops.Sigmoid(x, name=name)


def tanh(x: Any, name: str | None = None) -> Any:
    """Hyperbolic tangent element-wise (Tanh)."""
    return _ops.Tanh(x, name=name)


def sin(x: Any, name: str | None = None) -> Any:
    """Sine element-wise (Sin)."""
    return _ops.Sin(x, name=name)


def cos(x: Any, name: str | None = None) -> Any:
    """Cosine element-wise (Cos)."""
    return _ops.Cos(x, name=name)


acos = _unary("Acos", "Arc cosine element-wise")
acosh = _unary("Acosh", "Inverse hyperbolic cosine element-wise")
asin = _unary("Asin", "Arc sine element-wise")
asinh = _unary("Asinh", "Inverse hyperbolic sine element-wise")
atan = _unary("Atan", "Arc tangent element-wise")
atanh = _unary("Atanh", "Inverse hyperbolic tangent element-wise")
cosh = _unary("Cosh", "Hyperbolic cosine element-wise")
sinh = _unary("Sinh", "Hyperbolic sine element-wise")
tan = _unary("Tan", "Tangent element-wise")
expm1 = _unary("Expm1", "exp(x) - 1 element-wise")
log1p = _unary("Log1p", "log(1 + x) element-wise")
rsqrt = _unary("Rsqrt", "1 / sqrt(x) element-wise")
reciprocal = _unary("Reciprocal", "1 / x element-wise")
ceil = _unary("Ceil", "Smallest integer not less than x, element-wise")
floor = _unary("Floor", "Largest integer not greater than x, element-wise")
rint = _unary("Rint", "Nearest integer (half to even) element-wise")
erf = _unary("Erf", "Gauss error function element-wise")
erfc = _unary("Erfc", "Complementary error function element-wise")
erfinv = _unary("Erfinv", "Inverse error function element-wise")
ndtri = _unary("Ndtri", "Quantile of the standard normal distribution element-wise")
lgamma = _unary("Lgamma", "log(|Gamma(x)|) element-wise")
digamma = _unary("Digamma", "Derivative of lgamma (psi) element-wise")
bessel_i0 = _unary("BesselI0", "Modified Bessel function of order 0")
bessel_i0e = _unary("BesselI0e", "Exponentially scaled modified Bessel function of order 0")
bessel_i1 = _unary("BesselI1", "Modified Bessel function of order 1")
bessel_i1e = _unary("BesselI1e", "Exponentially scaled modified Bessel function of order 1")
is_nan = _unary("IsNan", "Which elements are NaN")
is_inf = _unary("IsInf", "Which elements are +-inf")
is_finite = _unary("IsFinite", "Which elements are finite")
invert_permutation = _unary("InvertPermutation", "The inverse of a permutation vector")
for _name, _fn in list(globals().items()):
    if getattr(_fn, "__name__", None) == "fn":
        _fn.__name__ = _fn.__qualname__ = _name
del _name, _fn


def softplus(features: Any, name: str | None = None) -> Any:
    """log(exp(features) + 1) element-wise (Softplus)."""
    return _ops.Softplus(features, name=name)


def softsign(features: Any, name: str | None = None) -> Any:
    """features / (abs(features) + 1) element-wise (Softsign)."""
    return _ops.Softsign(features, name=name)


def abs(x: Any, name: str | None = None) -> Any:
    """|x| element-wise; a complex tensor gives its real magnitude (ComplexAbs)."""
    x = _t(x)
    if x.dtype.is_complex:
        return _ops.ComplexAbs(x, Tout=x.dtype.real_dtype, name=name)
    return _ops.Abs(x, name=name)


def sign(x: Any, name: str | None = None) -> Any:
    """-1, 0 or 1 by sign; x / |x| for complex numbers (0 at 0)."""
    x = _t(x)
    if x.dtype.is_complex:
        mag = _ops.ComplexAbs(x, Tout=x.dtype.real_dtype)
        return _ops.DivNoNan(x, _ops.Cast(mag, DstT=x.dtype), name=name)
    return _ops.Sign(x, name=name)


def round(x: Any, name: str | None = None) -> Any:
    """Rounds half to even (Round); integer tensors are returned as they are."""
    x = _t(x)
    if x.dtype.is_integer:
        return x
    return _ops.Round(x, name=name)


def log_sigmoid(x: Any, name: str | None = None) -> Any:
    """log(sigmoid(x)) computed as -softplus(-x)."""
    x = _t(x)
    return _ops.Neg(_ops.Softplus(_ops.Neg(x)), name=name)


def erfcinv(x: Any, name: str | None = None) -> Any:
    """Inverse of erfc on [0, 2]: -ndtri(x / 2) * sqrt(1 / 2)."""
    x = _t(x)
    half = _ops.Mul(_t(0.5, x.dtype), x)
    return _ops.Mul(_ops.Neg(_ops.Ndtri(half)), _t(np.sqrt(0.5), x.dtype), name=name)


def lbeta(x: Any, name: str | None = None) -> Any:
    """log(|Beta(x)|) over the last axis: sum(lgamma(x)) - lgamma(sum(x))."""
    x = _t(x)
    log_prod_gamma = reduce_sum(_ops.Lgamma(x), axis=[-1])
    log_gamma_sum = _ops.Lgamma(reduce_sum(x, axis=[-1]))
    return _ops.Sub(log_prod_gamma, log_gamma_sum, name=name)


def complex(real: Any, imag: Any, name: str | None = None) -> Any:
    """real + imag * 1j from two float32 or two float64 tensors (Complex)."""
    real = _t(real)
    imag = _t(imag)
    types = (int(real.dtype), int(imag.dtype))
    if types == (_DOUBLE, _DOUBLE):
        tout = _COMPLEX128
    elif types == (_FLOAT, _FLOAT):
        tout = _COMPLEX64
    else:
        raise TypeError(
            f"The `real` and `imag` components have incorrect types: {real.dtype.name} "
            f"{imag.dtype.name}. They must be consistent, and one of "
            "[tf.float32, tf.float64]"
        )
    return _ops.Complex(real, imag, Tout=tout, name=name)


def _is_numeric(dt: Any) -> bool:
    return int(dt) in _NUMERIC


def real(input: Any, name: str | None = None) -> Any:
    """Real part of a complex tensor; a real tensor is returned unchanged."""
    input = _t(input)
    if input.dtype.is_complex:
        return _ops.Real(input, Tout=input.dtype.real_dtype, name=name)
    if _is_numeric(input.dtype):
        return input
    raise TypeError(f"input must be a numeric tensor, but got tensor with dtype {input.dtype!r}")


def imag(input: Any, name: str | None = None) -> Any:
    """Imaginary part of a complex tensor; zeros for a real tensor."""
    input = _t(input)
    if input.dtype.is_complex:
        return _ops.Imag(input, Tout=input.dtype.real_dtype, name=name)
    return _ops.ZerosLike(input)


def conj(x: Any, name: str | None = None) -> Any:
    """Complex conjugate; real tensors are returned unchanged."""
    x = _t(x)
    dt = x.dtype
    if dt.is_floating or dt.is_integer:
        return x
    if dt.is_complex or int(dt) == _VARIANT:
        return _ops.Conj(x, name=name)
    raise TypeError(f"Expected numeric or variant tensor, got dtype {dt!r}.")


def angle(input: Any, name: str | None = None) -> Any:
    """Argument (phase) of complex numbers; pi for negative reals, else 0."""
    input = _t(input)
    if input.dtype.is_complex:
        return _ops.Angle(input, Tout=input.dtype.real_dtype, name=name)
    neg = _ops.Less(input, _t(0, input.dtype))
    pi = _ops.Mul(_t(np.pi, input.dtype), _ops.OnesLike(input))
    return _ops.SelectV2(neg, pi, _ops.ZerosLike(input), name=name)


# ---------------------------------------------------------------------------
# Reductions.


def _axes(x: Any, axis: Any) -> Any:
    """The reduction indices for ``axis`` (every axis when None)."""
    if axis is not None:
        return axis
    rank = x.shape.rank
    if rank is not None:
        return _t(np.arange(rank, dtype=np.int32))
    return _ops.Range(_t(0), _ops.Rank(x), _t(1))


def _reduce(op_name: str, input_tensor: Any, axis: Any, keepdims: Any, name: str | None) -> Any:
    x = _t(input_tensor)
    keep = False if keepdims is None else bool(keepdims)
    return getattr(_ops, op_name)(x, _axes(x, axis), keep_dims=keep, name=name)


def reduce_sum(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """Sum over the given axes (all when None) (Sum); bools are not summable."""
    return _reduce("Sum", input_tensor, axis, keepdims, name)


def reduce_mean(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """Mean over the given axes (Mean); integer means truncate, as in TF."""
    return _reduce("Mean", input_tensor, axis, keepdims, name)


def reduce_prod(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """Product over the given axes (Prod)."""
    return _reduce("Prod", input_tensor, axis, keepdims, name)


def reduce_max(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """Maximum over the given axes (Max)."""
    return _reduce("Max", input_tensor, axis, keepdims, name)


def reduce_min(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """Minimum over the given axes (Min)."""
    return _reduce("Min", input_tensor, axis, keepdims, name)


def reduce_all(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """Logical AND over the given axes of a bool tensor (All)."""
    return _reduce("All", input_tensor, axis, keepdims, name)


def reduce_any(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """Logical OR over the given axes of a bool tensor (Any)."""
    return _reduce("Any", input_tensor, axis, keepdims, name)


def reduce_euclidean_norm(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """sqrt(sum(|x| ** 2)) over the given axes (EuclideanNorm)."""
    return _reduce("EuclideanNorm", input_tensor, axis, keepdims, name)


def reduce_logsumexp(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """log(sum(exp(x))) over the given axes, computed stably around the maximum."""
    x = _t(input_tensor)
    keep = bool(keepdims)
    raw_max = reduce_max(x, axis=axis, keepdims=True)
    my_max = _ops.SelectV2(_ops.IsFinite(raw_max), raw_max, _t(0, raw_max.dtype))
    result = _ops.Log(reduce_sum(_ops.Exp(_ops.Sub(x, my_max)), axis=axis, keepdims=keep))
    if not keep:
        my_max = _ops.Reshape(my_max, _ops.Shape(result))
    return _ops.AddV2(result, my_max, name=name)


def reduce_variance(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """Variance over the given axes (real for complex input); floats only."""
    x = _t(input_tensor)
    means = reduce_mean(x, axis=axis, keepdims=True)
    if means.dtype.is_integer:
        raise TypeError(
            f"Input must be either real or complex. Received integer type {means.dtype}."
        )
    diff = _ops.Sub(x, means)
    if diff.dtype.is_complex:
        sq = _ops.Real(_ops.Mul(_ops.Conj(diff), diff), Tout=diff.dtype.real_dtype)
    else:
        sq = _ops.Square(diff)
    return reduce_mean(sq, axis=axis, keepdims=keepdims)


def reduce_std(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """Standard deviation over the given axes: sqrt(reduce_variance)."""
    return _ops.Sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims), name=name)


def count_nonzero(
    input: Any,
    axis: Any = None,
    keepdims: Any = None,
    dtype: Any = _D["int64"],
    name: str | None = None,
) -> Any:
    """Number of nonzero (or True, or non-empty string) elements over axes."""
    x = _t(input)
    if int(x.dtype) == _BOOL:
        pred = x
    else:
        zero = "" if int(x.dtype) == _STRING else 0
        pred = _ops.NotEqual(x, _t(zero, x.dtype))
    counted = reduce_sum(
        _ops.Cast(pred, DstT=_INT64), axis=axis, keepdims=bool(keepdims) if keepdims else False
    )
    return _ops.Cast(counted, DstT=dtype)


def zero_fraction(value: Any, name: str | None = None) -> Any:
    """Fraction of zeros in ``value`` as a float32 scalar."""
    x = _t(value)
    size = _ops.Size(x, out_type=_INT64)
    nonzero = count_nonzero(x, dtype=_INT64)
    num_zero = _ops.Cast(_ops.Sub(size, nonzero), DstT=_FLOAT)
    return _ops.RealDiv(num_zero, _ops.Cast(size, DstT=_FLOAT), name=name)


def _check_axis(axis: Any) -> Any:
    from tfe_py.tensor import Tensor

    if axis is None:
        return 0
    if isinstance(axis, Tensor):
        allowed = {_INT8, _UINT8, _INT16, _UINT16, _INT32, _INT64}
        if int(axis.dtype) not in allowed:
            raise TypeError(f"axis tensor dtypes {axis.dtype!r} is not supported")
        if int(axis.dtype) not in (_INT32, _INT64):
            axis = _ops.Cast(axis, DstT=_INT32)
        return axis
    if not isinstance(axis, (int, np.integer)):
        raise TypeError("axis must be int or Tensor with integer datatype")
    return axis


def argmax(
    input: Any,
    axis: Any = None,
    output_type: Any = _D["int64"],
    name: str | None = None,
) -> Any:
    """Index of the largest value along ``axis`` (0 by default) (ArgMax)."""
    return _ops.ArgMax(input, _check_axis(axis), output_type=output_type, name=name)


def argmin(
    input: Any,
    axis: Any = None,
    output_type: Any = _D["int64"],
    name: str | None = None,
) -> Any:
    """Index of the smallest value along ``axis`` (0 by default) (ArgMin)."""
    return _ops.ArgMin(input, _check_axis(axis), output_type=output_type, name=name)


# ---------------------------------------------------------------------------
# Cumulative ops.


def cumsum(
    x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: str | None = None
) -> Any:
    """Cumulative sum along ``axis`` (Cumsum)."""
    return _ops.Cumsum(_t(x), axis, exclusive=exclusive, reverse=reverse, name=name)


def cumprod(
    x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: str | None = None
) -> Any:
    """Cumulative product along ``axis`` (Cumprod)."""
    return _ops.Cumprod(_t(x), axis, exclusive=exclusive, reverse=reverse, name=name)


def cumulative_logsumexp(
    x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: str | None = None
) -> Any:
    """Cumulative log-sum-exp along ``axis`` (CumulativeLogsumexp)."""
    return _ops.CumulativeLogsumexp(_t(x), axis, exclusive=exclusive, reverse=reverse, name=name)


# ---------------------------------------------------------------------------
# Segment ops.


def segment_sum(data: Any, segment_ids: Any, name: str | None = None) -> Any:
    """Sums of the rows of each segment (sorted ids) (SegmentSum)."""
    return _ops.SegmentSum(data, segment_ids, name=name)


def segment_prod(data: Any, segment_ids: Any, name: str | None = None) -> Any:
    """Products of the rows of each segment (SegmentProd)."""
    return _ops.SegmentProd(data, segment_ids, name=name)


def segment_min(data: Any, segment_ids: Any, name: str | None = None) -> Any:
    """Minimum of each segment (SegmentMin)."""
    return _ops.SegmentMin(data, segment_ids, name=name)


def segment_max(data: Any, segment_ids: Any, name: str | None = None) -> Any:
    """Maximum of each segment (SegmentMax)."""
    return _ops.SegmentMax(data, segment_ids, name=name)


def segment_mean(data: Any, segment_ids: Any, name: str | None = None) -> Any:
    """Mean of each segment (SegmentMean)."""
    return _ops.SegmentMean(data, segment_ids, name=name)


def unsorted_segment_sum(
    data: Any, segment_ids: Any, num_segments: Any, name: str | None = None
) -> Any:
    """Sums by segment id, ids in any order (UnsortedSegmentSum)."""
    return _ops.UnsortedSegmentSum(data, segment_ids, num_segments, name=name)


def unsorted_segment_prod(
    data: Any, segment_ids: Any, num_segments: Any, name: str | None = None
) -> Any:
    """Products by segment id (UnsortedSegmentProd)."""
    return _ops.UnsortedSegmentProd(data, segment_ids, num_segments, name=name)


def unsorted_segment_min(
    data: Any, segment_ids: Any, num_segments: Any, name: str | None = None
) -> Any:
    """Minimum by segment id (UnsortedSegmentMin)."""
    return _ops.UnsortedSegmentMin(data, segment_ids, num_segments, name=name)


def unsorted_segment_max(
    data: Any, segment_ids: Any, num_segments: Any, name: str | None = None
) -> Any:
    """Maximum by segment id (UnsortedSegmentMax)."""
    return _ops.UnsortedSegmentMax(data, segment_ids, num_segments, name=name)


def _segment_counts(data: Any, segment_ids: Any, num_segments: Any) -> Any:
    """Entries per segment (at least 1), shaped to broadcast against the
    sums: [num_segments, 1, ..., 1]."""
    num_segments = _t(num_segments)
    ones = _ops.Fill(_ops.Shape(segment_ids), _t(1, data.dtype))
    n = _ops.UnsortedSegmentSum(ones, segment_ids, num_segments)
    extra = _ops.Sub(_ops.Rank(data), _ops.Rank(segment_ids))
    tail = _ops.Fill(_ops.Reshape(extra, _t([1])), _t(1, num_segments.dtype))
    shape = _ops.ConcatV2([_ops.Reshape(num_segments, _t([1])), tail], _t(0))
    n = _ops.Reshape(n, shape)
    return _ops.Maximum(n, _t(1, n.dtype))


def unsorted_segment_mean(
    data: Any, segment_ids: Any, num_segments: Any, name: str | None = None
) -> Any:
    """Mean by segment id (0 for empty segments)."""
    data = _t(data)
    segment_ids = _t(segment_ids)
    n = _segment_counts(data, segment_ids, num_segments)
    summed = _ops.UnsortedSegmentSum(data, segment_ids, num_segments)
    return summed / n


def unsorted_segment_sqrt_n(
    data: Any, segment_ids: Any, num_segments: Any, name: str | None = None
) -> Any:
    """Sum by segment id divided by sqrt(number of entries)."""
    data = _t(data)
    segment_ids = _t(segment_ids)
    n = _segment_counts(data, segment_ids, num_segments)
    summed = _ops.UnsortedSegmentSum(data, segment_ids, num_segments)
    return summed / _ops.Sqrt(n)


# ---------------------------------------------------------------------------
# Top-k, bincount, confusion matrix, ...


def top_k(
    input: Any,
    k: Any = 1,
    sorted: bool = True,
    index_type: Any = _D["int32"],
    name: str | None = None,
) -> Any:
    """The k largest entries of the last axis and their indices (TopKV2)."""
    return _ops.TopKV2(input, k, sorted=sorted, index_type=index_type, name=name)


def in_top_k(targets: Any, predictions: Any, k: Any, name: str | None = None) -> Any:
    """Whether each target is among the top k predictions of its row (InTopKV2)."""
    return _ops.InTopKV2(predictions, targets, k, name=name)


def _approx_k(
    operand: Any,
    k: int,
    reduction_dimension: int,
    recall_target: float,
    reduction_input_size_override: int,
    aggregate_to_topk: bool,
    is_max_k: bool,
    name: str | None,
) -> Any:
    return _api.op("ApproxTopK")(
        operand,
        k=k,
        reduction_dimension=reduction_dimension,
        recall_target=recall_target,
        is_max_k=is_max_k,
        reduction_input_size_override=reduction_input_size_override,
        aggregate_to_topk=aggregate_to_topk,
        name=name,
    )


def approx_max_k(
    operand: Any,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
    name: str | None = None,
) -> Any:
    """The k largest values along a dimension and their indices (ApproxTopK;
    tfe's CPU kernel is exact)."""
    return _approx_k(
        operand,
        k,
        reduction_dimension,
        recall_target,
        reduction_input_size_override,
        aggregate_to_topk,
        True,
        name,
    )


def approx_min_k(
    operand: Any,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
    name: str | None = None,
) -> Any:
    """The k smallest values along a dimension and their indices (ApproxTopK;
    tfe's CPU kernel is exact)."""
    return _approx_k(
        operand,
        k,
        reduction_dimension,
        recall_target,
        reduction_input_size_override,
        aggregate_to_topk,
        False,
        name,
    )


def bincount(
    arr: Any,
    weights: Any = None,
    minlength: Any = None,
    maxlength: Any = None,
    dtype: Any = _D["int32"],
    name: str | None = None,
    axis: Any = None,
    binary_output: bool = False,
) -> Any:
    """Counts of each value of a non-negative integer tensor (DenseBincount)."""
    from tfe_py.tensor import Tensor

    arr = _t(arr)
    if weights is not None:
        weights = _t(weights)
    if weights is not None and binary_output:
        raise ValueError(
            "Arguments `binary_output` and `weights` are mutually exclusive. Please specify "
            "only one."
        )
    if not arr.dtype.is_integer:
        arr = _ops.Cast(arr, DstT=_INT32)
    if axis is None:
        axis = 0
    if axis not in (0, -1):
        raise ValueError(
            f"Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported."
        )
    nonempty = _ops.Greater(_ops.Size(arr), _t(0))
    max_plus_one = _ops.AddV2(reduce_max(arr), _t(1, arr.dtype))
    output_size = _ops.Mul(_ops.Cast(nonempty, DstT=arr.dtype), max_plus_one)
    if minlength is not None:
        output_size = _ops.Maximum(_t(minlength, arr.dtype), output_size)
    if maxlength is not None:
        output_size = _ops.Minimum(_t(maxlength, arr.dtype), output_size)
    if axis == 0:
        if weights is not None:
            weights = _ops.Reshape(weights, _t([-1]))
        arr = _ops.Reshape(arr, _t([-1]))
    if weights is None:
        weights = _t(np.zeros([0], dtype=np.float32), dtype)
    elif not isinstance(weights, Tensor):
        raise ValueError(
            "Argument `weights` must be a tf.Tensor if `values` is a tf.Tensor. "
            f"Received weights={weights} of type: {type(weights).__name__}"
        )
    return _ops.DenseBincount(arr, output_size, weights, binary_output=binary_output, name=name)


def confusion_matrix(
    labels: Any,
    predictions: Any,
    num_classes: Any = None,
    weights: Any = None,
    dtype: Any = _D["int32"],
    name: str | None = None,
) -> Any:
    """Matrix counting (label, prediction) pairs: rows are labels (ScatterNd)."""
    labels = _t(labels)
    predictions = _t(predictions)
    labels, predictions = _remove_squeezable(labels, predictions)
    predictions = _ops.Cast(predictions, DstT=_INT64)
    labels = _ops.Cast(labels, DstT=_INT64)
    from tfe_py import debugging  # TF's assert messages

    debugging.assert_non_negative(labels, message="`labels` contains negative values")
    debugging.assert_non_negative(predictions, message="`predictions` contains negative values")
    if num_classes is None:
        num_classes = _ops.AddV2(
            _ops.Maximum(reduce_max(predictions), reduce_max(labels)), _t(1, _INT64)
        )
    else:
        n64 = _ops.Cast(_t(num_classes), DstT=_INT64)
        debugging.assert_less(labels, n64, message="`labels` out of bound")
        debugging.assert_less(predictions, n64, message="`predictions` out of bound")
        num_classes = n64
    if weights is not None:
        weights = _t(weights)
        if not predictions.shape.is_compatible_with(weights.shape):
            raise ValueError(f"Shapes {predictions.shape} and {weights.shape} are incompatible")
        weights = _ops.Cast(weights, DstT=dtype)
    num_classes = _ops.Cast(num_classes, DstT=_INT64)
    shape = _ops.Pack([num_classes, num_classes])
    indices = _ops.Pack([labels, predictions], axis=1)
    values = _ops.OnesLike(_ops.Cast(predictions, DstT=dtype)) if weights is None else weights
    return _ops.ScatterNd(indices, values, shape, name=name)


def _remove_squeezable(labels: Any, predictions: Any) -> tuple[Any, Any]:
    """Drops a trailing size-1 dim from whichever of the two has one more
    dim than the other (TF's remove_squeezable_dimensions)."""
    lr, pr = labels.shape.rank, predictions.shape.rank
    if lr is not None and pr is not None:
        if pr - lr == 1 and predictions.shape[-1] == 1:
            predictions = _ops.Squeeze(predictions, squeeze_dims=[-1])
        elif lr - pr == 1 and labels.shape[-1] == 1:
            labels = _ops.Squeeze(labels, squeeze_dims=[-1])
    return labels, predictions


def polyval(coeffs: Any, x: Any, name: str | None = None) -> Any:
    """Evaluates the polynomial with these coefficients (highest power
    first) at x, by Horner's method."""
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    x = _t(x)
    if len(coeffs) < 1:
        return _ops.ZerosLike(x, name=name)
    cs = [_t(c) for c in coeffs]
    p = cs[0]
    for c in cs[1:]:
        p = c + p * x
    return p


def l2_normalize(
    x: Any, axis: Any = None, epsilon: float = 1e-12, name: str | None = None, dim: Any = None
) -> Any:
    """x / sqrt(max(sum(x ** 2), epsilon)) along ``axis`` (all axes when None)."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    x = _t(x)
    if x.dtype.is_complex:
        rdt = x.dtype.real_dtype
        re = _ops.Real(x, Tout=rdt)
        im = _ops.Imag(x, Tout=rdt)
        square_sum = reduce_sum(_ops.AddV2(_ops.Square(re), _ops.Square(im)), axis, keepdims=True)
        inv = _ops.Rsqrt(_ops.Maximum(square_sum, _t(epsilon, rdt)))
        return _ops.Complex(_ops.Mul(re, inv), _ops.Mul(im, inv), Tout=x.dtype, name=name)
    square_sum = reduce_sum(_ops.Square(x), axis, keepdims=True)
    inv = _ops.Rsqrt(_ops.Maximum(square_sum, _t(epsilon, x.dtype)))
    return _ops.Mul(x, inv, name=name)


def _monotonic(x: Any, op_name: str) -> Any:
    x = _ops.Reshape(_t(x), _t([-1]))
    if not _is_numeric(x.dtype):
        raise TypeError(f"Expected x to be numeric, instead found: {x!s}")
    n = x.shape[0]
    if n is not None and n < 2:
        return _ops.All(_t(np.zeros([0], dtype=bool)), _t([0]))
    diff = getattr(_ops, op_name)(x[1:], x[:-1])
    return _ops.All(diff, _t([0]))


def is_non_decreasing(x: Any, name: str | None = None) -> Any:
    """True when each element of the flattened x is >= the one before it."""
    return _monotonic(x, "GreaterEqual")


def is_strictly_increasing(x: Any, name: str | None = None) -> Any:
    """True when each element of the flattened x is > the one before it."""
    return _monotonic(x, "Greater")


def _softmax_like(op_name: str, logits: Any, axis: Any, name: str | None) -> Any:
    from tfe_py.tensor import Tensor

    if axis is None:
        axis = -1
    x = _t(logits)
    fn = getattr(_ops, op_name)
    ndims = x.shape.rank
    if axis == -1 or (ndims is not None and not isinstance(axis, Tensor) and axis == ndims - 1):
        return fn(x, name=name)
    if isinstance(axis, Tensor):
        axis = int(axis.numpy())
    if ndims is None:
        # unknown rank (in a graph): swap axis and the last one with ops
        rank = _ops.Rank(x)
        one = _t(1)
        dim = _ops.FloorMod(_t(axis), rank)
        last = _ops.Sub(rank, one)
        r = _ops.Range(_t(0), rank, one)
        perm = _ops.SelectV2(_ops.Equal(r, dim), last, _ops.SelectV2(_ops.Equal(r, last), dim, r))
        return _ops.Transpose(fn(_ops.Transpose(x, perm)), perm, name=name)
    if not -ndims <= axis < ndims:
        raise _errors.InvalidArgumentError(
            None,
            None,
            f"`dim` must be in the range [{-ndims}, {ndims}) where {ndims} is the number of "
            f"dimensions in the input. Received: dim={axis}",
        )
    axis %= ndims
    perm = list(range(ndims))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    out = fn(_ops.Transpose(x, _t(perm)))
    return _ops.Transpose(out, _t(perm), name=name)


def softmax(logits: Any, axis: Any = None, name: str | None = None) -> Any:
    """exp(x) / sum(exp(x)) along ``axis`` (the last by default) (Softmax)."""
    return _softmax_like("Softmax", logits, axis, name)


def log_softmax(logits: Any, axis: Any = None, name: str | None = None) -> Any:
    """x - log(sum(exp(x))) along ``axis`` (the last by default) (LogSoftmax)."""
    return _softmax_like("LogSoftmax", logits, axis, name)


def sobol_sample(
    dim: Any, num_results: Any, skip: Any = 0, dtype: Any = _D["float32"], name: str | None = None
) -> Any:
    """Points of the Sobol sequence, shape [num_results, dim] (SobolSample)."""
    return _api.op("SobolSample")(dim, num_results, skip, dtype=dtype, name=name)


# ---------------------------------------------------------------------------
# tf.math.special


class _Special:
    """``tf.math.special``: Bessel functions and other special functions."""

    def __init__(self) -> None:
        unary = {
            "bessel_i0": "BesselI0",
            "bessel_i0e": "BesselI0e",
            "bessel_i1": "BesselI1",
            "bessel_i1e": "BesselI1e",
            "bessel_j0": "BesselJ0",
            "bessel_j1": "BesselJ1",
            "bessel_k0": "BesselK0",
            "bessel_k0e": "BesselK0e",
            "bessel_k1": "BesselK1",
            "bessel_k1e": "BesselK1e",
            "bessel_y0": "BesselY0",
            "bessel_y1": "BesselY1",
            "dawsn": "Dawsn",
            "expint": "Expint",
            "fresnel_cos": "FresnelCos",
            "fresnel_sin": "FresnelSin",
            "spence": "Spence",
        }
        for py_name, op_name in unary.items():
            setattr(self, py_name, _special_unary(op_name, py_name))
        self.erfcinv = erfcinv
        self.lbeta = lbeta

    def __repr__(self) -> str:
        return "<module 'tfe_py.math.special'>"


def _special_unary(op_name: str, py_name: str) -> Any:
    def fn(x: Any, name: str | None = None) -> Any:
        return _api.op(op_name)(x, name=name)

    fn.__name__ = fn.__qualname__ = py_name
    fn.__doc__ = f"tf.math.special.{py_name} ({op_name})."
    return fn


special = _Special()
