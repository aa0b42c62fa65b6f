"""``tf.debugging``: assertions and numeric checks.

Eagerly every assertion decides at once and raises TF's exception with
TF's message: value checks (``assert_equal``, ``assert_less``,
``assert_positive``, ``assert_near``, ...) raise
``tf.errors.InvalidArgumentError``, shape and rank checks ValueError, dtype
checks TypeError; on success they return None. The comparisons run as ops
(Equal, Less, ...), so mismatched dtypes or shapes that do not broadcast are
the op's InvalidArgumentError, as in TF. ``check_numerics`` and
``assert_all_finite`` run the CheckNumerics op and return its output.

Inside a graph (``tfe_py.Graph`` or a function trace) shape and rank checks
work from static shapes and value checks add an Assert op (returned, as in
TF) that fails with TF's "assertion failed: [...]" message when it runs.
"""

from __future__ import annotations

import logging
import types
from collections.abc import Iterable
from typing import Any

import numpy as np

from tfe_py import _api, errors
from tfe_py.framework import Assert, executing_eagerly

__all__ = [
    "Assert",
    "assert_all_finite",
    "assert_equal",
    "assert_greater",
    "assert_greater_equal",
    "assert_integer",
    "assert_less",
    "assert_less_equal",
    "assert_near",
    "assert_negative",
    "assert_non_negative",
    "assert_non_positive",
    "assert_none_equal",
    "assert_positive",
    "assert_proper_iterable",
    "assert_rank",
    "assert_rank_at_least",
    "assert_rank_in",
    "assert_same_float_dtype",
    "assert_scalar",
    "assert_shapes",
    "assert_type",
    "check_numerics",
    "disable_check_numerics",
    "disable_traceback_filtering",
    "enable_check_numerics",
    "enable_traceback_filtering",
    "experimental",
    "get_log_device_placement",
    "is_numeric_tensor",
    "is_traceback_filtering_enabled",
    "set_log_device_placement",
]

# Names TensorFlow also exports at the top level (tf.<name>); tf.Assert
# comes from tfe_py.framework.
TOPLEVEL: frozenset[str] = frozenset(
    {"assert_equal", "assert_greater", "assert_less", "assert_rank"}
)


def _tensor(value: Any, dtype: Any = None) -> Any:
    from tfe_py.graph import convert_to_tensor

    return convert_to_tensor(value, dtype)


def _prefix(message: str | None) -> str:
    return f"{message}.  " if message else ""


def _shape_dtype(x: Any) -> str:
    return f"shape={x.shape} dtype={x.dtype.name}"


def _pretty(item: Any, summarize: int) -> str:
    """One line of an assertion message: tensors as a list of their first
    ``summarize`` values (as TF prints them), anything else as str()."""
    from tfe_py.tensor import Tensor

    if isinstance(item, Tensor):
        arr = item.numpy()
        if np.isscalar(arr):
            return str(arr)
        flat = np.asarray(arr).reshape(-1)
        items = [str(v) for v in flat[:summarize]]
        if len(items) < flat.size:
            items.append("...")
        return str(items)
    return str(item)


def _all(condition: Any) -> Any:
    # reduce_all over every dimension, as an op (graph mode).
    rank = _api.op("Rank")(condition)
    axes = _api.op("Range")(_tensor(0), rank, _tensor(1))
    return _api.op("All")(condition, axes)


def _graph_name(x: Any) -> str:
    # TF names the tensor in rank messages only inside a graph.
    return "" if executing_eagerly() else x.name


def _label(x: Any) -> str:
    # How TF names a tensor in assertion data: its shape and dtype eagerly,
    # its graph name inside a graph.
    return _shape_dtype(x) if executing_eagerly() else x.name


def _binary_assert(
    sym: str,
    op_name: str,
    x: Any,
    y: Any,
    data: Any,
    summarize: int | None,
    message: str | None,
) -> Any:
    x = _tensor(x)
    y = _tensor(y)
    if not executing_eagerly():
        if data is None:
            data = [
                f"Condition x {sym} y did not hold element-wise:",
                f"x ({x.name}) = ",
                x,
                f"y ({y.name}) = ",
                y,
            ]
        if message is not None:
            data = [message, *data]
        return Assert(_all(_api.op(op_name)(x, y)), data, summarize=summarize)
    test = _api.op(op_name)(x, y)
    ok = np.asarray(test.numpy())
    if ok.all():
        return None
    n = 3 if summarize is None else (10**9 if summarize < 0 else int(summarize))
    if data is None:
        data = [f"Condition x {sym} y did not hold."]
        if n > 0:
            xs, ys = np.asarray(x.numpy()), np.asarray(y.numpy())
            if x.shape == y.shape and x.shape.rank:
                bad = ~ok
                where = np.argwhere(bad)
                k = min(n, where.shape[0])
                data += [
                    f"Indices of first {k} different values:",
                    where[:k],
                    "Corresponding x values:",
                    xs[bad].reshape(-1)[:k],
                    "Corresponding y values:",
                    ys[bad].reshape(-1)[:k],
                ]
            fx, fy = xs.reshape(-1), ys.reshape(-1)
            kx, ky = min(fx.size, n), min(fy.size, n)
            data += [
                f"First {kx} elements of x:",
                fx[:kx],
                f"First {ky} elements of y:",
                fy[:ky],
            ]
    if message is not None:
        data = [message, *data]
    raise errors.InvalidArgumentError(None, None, "\n".join(_pretty(d, n) for d in data))


def assert_equal(
    x: Any, y: Any, message: str | None = None, summarize: int | None = None,
    name: str | None = None,
) -> Any:
    """Raises InvalidArgumentError unless ``x == y`` everywhere (broadcast)."""
    return _binary_assert("==", "Equal", x, y, None, summarize, message)


def assert_none_equal(
    x: Any, y: Any, summarize: int | None = None, message: str | None = None,
    name: str | None = None,
) -> Any:
    """Raises InvalidArgumentError unless ``x != y`` everywhere."""
    return _binary_assert("!=", "NotEqual", x, y, None, summarize, message)


def assert_less(
    x: Any, y: Any, message: str | None = None, summarize: int | None = None,
    name: str | None = None,
) -> Any:
    """Raises InvalidArgumentError unless ``x < y`` everywhere."""
    return _binary_assert("<", "Less", x, y, None, summarize, message)


def assert_less_equal(
    x: Any, y: Any, message: str | None = None, summarize: int | None = None,
    name: str | None = None,
) -> Any:
    """Raises InvalidArgumentError unless ``x <= y`` everywhere."""
    return _binary_assert("<=", "LessEqual", x, y, None, summarize, message)


def assert_greater(
    x: Any, y: Any, message: str | None = None, summarize: int | None = None,
    name: str | None = None,
) -> Any:
    """Raises InvalidArgumentError unless ``x > y`` everywhere."""
    return _binary_assert(">", "Greater", x, y, None, summarize, message)


def assert_greater_equal(
    x: Any, y: Any, message: str | None = None, summarize: int | None = None,
    name: str | None = None,
) -> Any:
    """Raises InvalidArgumentError unless ``x >= y`` everywhere."""
    return _binary_assert(">=", "GreaterEqual", x, y, None, summarize, message)


def _sign_assert(
    x: Any, message: str | None, summarize: int | None, sym: str, op_name: str,
    zero_first: bool, joined: bool = False,
) -> Any:
    x = _tensor(x)
    zero = _tensor(0, x.dtype)
    head = f"Condition x {sym} 0 did not hold element-wise:"
    label = f"x ({_label(x)}) = "
    # TF's assert_non_positive runs its two middle lines together.
    data = [_prefix(message), head + label, x] if joined else [_prefix(message), head, label, x]
    a, b = (zero, x) if zero_first else (x, zero)
    return _binary_assert(sym, op_name, a, b, data, summarize, None)


def assert_positive(
    x: Any, message: str | None = None, summarize: int | None = None, name: str | None = None
) -> Any:
    """Raises InvalidArgumentError unless ``x > 0`` everywhere."""
    return _sign_assert(x, message, summarize, ">", "Less", True)


def assert_negative(
    x: Any, message: str | None = None, summarize: int | None = None, name: str | None = None
) -> Any:
    """Raises InvalidArgumentError unless ``x < 0`` everywhere."""
    return _sign_assert(x, message, summarize, "<", "Less", False)


def assert_non_positive(
    x: Any, message: str | None = None, summarize: int | None = None, name: str | None = None
) -> Any:
    """Raises InvalidArgumentError unless ``x <= 0`` everywhere."""
    return _sign_assert(x, message, summarize, "<=", "LessEqual", False, joined=True)


def assert_non_negative(
    x: Any, message: str | None = None, summarize: int | None = None, name: str | None = None
) -> Any:
    """Raises InvalidArgumentError unless ``x >= 0`` everywhere."""
    return _sign_assert(x, message, summarize, ">=", "LessEqual", True)


def assert_near(
    x: Any, y: Any, rtol: Any = None, atol: Any = None, message: str | None = None,
    summarize: int | None = None, name: str | None = None,
) -> Any:
    """Raises InvalidArgumentError unless ``|x - y| <= atol + rtol * |y|``
    everywhere. Both tolerances default to 10 * eps of x's dtype (x must be
    floating or complex); y is converted to x's dtype."""
    x = _tensor(x)
    np_dtype = x.dtype.as_numpy_dtype
    eps = np.finfo(np_dtype).eps
    try:
        y = _tensor(y, x.dtype)
    except (TypeError, ValueError) as e:
        raise type(e)(f"y: {e}") from None
    rtol = _tensor(10 * eps if rtol is None else rtol, x.dtype.real_dtype)
    atol = _tensor(10 * eps if atol is None else atol, x.dtype.real_dtype)
    diff = _api.op("ComplexAbs" if x.dtype.is_complex else "Abs")(_api.op("Sub")(x, y))
    abs_y = _api.op("ComplexAbs" if x.dtype.is_complex else "Abs")(y)
    tol = _api.op("AddV2")(atol, _api.op("Mul")(rtol, abs_y))
    condition = _all(_api.op("LessEqual")(diff, tol))
    data = [
        _prefix(message),
        f"x and y not equal to tolerance rtol = {rtol!s}, atol = {atol!s}",
        f"x ({_label(x)}) = ",
        x,
        f"y ({_label(y)}) = ",
        y,
    ]
    return Assert(condition, data, summarize=summarize)


# -- ranks and shapes ------------------------------------------------------------


def _static_rank(x: Any) -> int | None:
    return x.shape.rank


def _rank_value(rank: Any) -> int:
    from tfe_py.tensor import Tensor

    if isinstance(rank, Tensor):
        if rank.shape.rank != 0:
            raise ValueError("Rank must be a scalar.")
        return int(rank.numpy())
    arr = np.asarray(rank)
    if arr.ndim != 0:
        raise ValueError("Rank must be a scalar.")
    return int(arr)


def assert_rank(
    x: Any, rank: Any, message: str | None = None, name: str | None = None
) -> None:
    """ValueError unless ``x`` has rank ``rank``."""
    x = _tensor(x)
    want = _rank_value(rank)
    got = _static_rank(x)
    if got is not None and got != want:
        raise ValueError(
            f"{_prefix(message)}Tensor {_graph_name(x)} must have rank {want}.  "
            f"Received rank {got}, shape {x.shape}"
        )


def assert_rank_at_least(
    x: Any, rank: Any, message: str | None = None, name: str | None = None
) -> None:
    """ValueError unless ``x`` has rank ``rank`` or more."""
    x = _tensor(x)
    want = _rank_value(rank)
    got = _static_rank(x)
    if got is not None and got < want:
        raise ValueError(
            f"{_prefix(message)}Tensor {_graph_name(x)} must have rank at least {want}.  "
            f"Received rank {got}, shape {x.shape}"
        )


def assert_rank_in(
    x: Any, ranks: Iterable[Any], message: str | None = None, name: str | None = None
) -> None:
    """ValueError unless the rank of ``x`` is one of ``ranks``."""
    x = _tensor(x)
    wanted = tuple(_rank_value(r) for r in ranks)
    got = _static_rank(x)
    if got is not None and got not in wanted:
        raise ValueError(
            f"{_prefix(message)}Tensor {_graph_name(x)} must have rank in {wanted}.  "
            f"Received rank {got}, shape {x.shape}"
        )


def _known_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def assert_shapes(
    shapes: Any, data: Any = None, summarize: int | None = None, message: str | None = None,
    name: str | None = None,
) -> None:
    """Checks the shapes of several tensors against symbolic shapes, as TF:
    ``assert_shapes([(x, ("N", "D")), (y, ("N",))])``. Ints must match,
    equal names must have equal sizes, None or "." match anything, and a
    leading ``...`` or "*" stands for any number of leading dimensions; a
    shape of length 0 or 1 also accepts a scalar (TF's rule). ValueError
    on a mismatch, with TF's message."""
    if isinstance(shapes, dict):
        shapes = shapes.items()
    prefix = _prefix(message)
    pairs = [(_tensor(x), s) for x, s in shapes if s is not None]
    entries = []
    for x, spec in pairs:
        if not (hasattr(spec, "__iter__") or hasattr(spec, "__getitem__")):
            raise ValueError(
                f"{prefix}Tensor {_shape_dtype(x)}.  Specified shape must be an iterable.  "
                "An iterable has the attribute `__iter__` or `__getitem__`.  "
                f"Received specified shape: {spec}"
            )
        symbols = tuple(spec)
        open_front = False
        for i, symbol in enumerate(symbols):
            if symbol is Ellipsis or (isinstance(symbol, str) and symbol == "*"):
                if i != 0:
                    raise ValueError(
                        f"{prefix}Tensor {_shape_dtype(x)} specified shape index {i}.  "
                        "Symbol `...` or `*` for a variable number of unspecified dimensions "
                        "is only allowed as the first entry"
                    )
                open_front = True
        symbols = symbols[1:] if open_front else symbols
        if not symbols:
            symbols = (1,)  # a scalar is checked as shape (1,), as TF does
        dims = x.shape.as_list() if x.shape.rank is not None else None
        if dims is not None and not dims:
            dims = [1]
        entries.append((x, open_front, dims, symbols))
    for x, open_front, _, symbols in entries:
        rank = len(symbols)
        if open_front:
            if rank > 1:
                assert_rank_at_least(x, rank, message=message)
        elif rank in (0, 1):
            assert_rank_in(x, [0, 1], message=message)
        else:
            assert_rank(x, rank, message=message)
    seen: dict[Any, tuple[int | None, Any, int]] = {}
    for x, open_front, dims, symbols in entries:
        for i, symbol in enumerate(symbols):
            if symbol is None or (isinstance(symbol, str) and symbol == "."):
                continue
            dim = i - len(symbols) if open_front else i
            actual = None if dims is None else dims[dim]
            if _known_int(symbol) or symbol in seen:
                if _known_int(symbol):
                    size, why = int(symbol), "Specified explicitly"
                else:
                    size, by, at = seen[symbol]
                    why = f"Specified by tensor {_shape_dtype(by)} dimension {at}"
                if actual is not None and size is not None and actual != size:
                    raise ValueError(
                        f"{prefix}{why}.  Tensor {_shape_dtype(x)} dimension {dim} must have "
                        f"size {size}.  Received size {actual}, shape {x.shape}"
                    )
            else:
                seen[symbol] = (actual, x, dim)
    return None


def assert_scalar(tensor: Any, message: str | None = None, name: str | None = None) -> None:
    """ValueError unless ``tensor`` is a scalar."""
    tensor = _tensor(tensor)
    if tensor.shape.rank is not None and tensor.shape.rank != 0:
        raise ValueError(
            f"{_prefix(message)}Expected scalar shape, saw shape: {tensor.shape}."
        )


# -- dtypes --------------------------------------------------------------------


def assert_type(
    tensor: Any, tf_type: Any, message: str | None = None, name: str | None = None
) -> None:
    """TypeError unless ``tensor`` has dtype ``tf_type``."""
    from tfe_py.dtypes import as_dtype

    tensor = _tensor(tensor)
    want = as_dtype(tf_type)
    if tensor.dtype != want:
        raise TypeError(
            f"{_prefix(message)}tensor must be of type {want!r}; got {tensor.dtype!r}"
        )


def assert_integer(x: Any, message: str | None = None, name: str | None = None) -> None:
    """TypeError unless ``x`` has an integer dtype."""
    x = _tensor(x)
    if not x.dtype.is_integer:
        raise TypeError(
            f'{_prefix(message)}Expected "x" to be integer type.  Found: tensor of dtype '
            f"{x.dtype!s}"
        )


def is_numeric_tensor(tensor: Any) -> bool:
    """Whether ``tensor`` is a tensor of a number type (not bool or string)."""
    from tfe_py.tensor import Tensor

    if not isinstance(tensor, Tensor):
        return False
    dt = tensor.dtype
    return bool(dt.is_floating or dt.is_integer or dt.is_complex or dt.is_quantized)


def assert_same_float_dtype(tensors: Any = None, dtype: Any = None) -> Any:
    """The common floating dtype of ``tensors`` (and ``dtype``), float32 when
    neither says; ValueError for a non-floating or mismatched dtype."""
    from tfe_py.dtypes import as_dtype, float32

    if tensors:
        first = None
        for t in tensors:
            if first is None:
                first = t
                if dtype is None:
                    dtype = t.dtype
                elif as_dtype(dtype) != t.dtype:
                    raise ValueError(
                        f"{t!s}, type={t.dtype!s}, must be of the same type ({as_dtype(dtype)!s})."
                    )
            elif t.dtype != first.dtype:
                raise ValueError(
                    f"{t!s}, type={t.dtype!s}, must be of the same type ({first.dtype!s}) "
                    f"as {first!s}."
                )
    if dtype is None:
        return float32
    dtype = as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype!s}.")
    return dtype


def assert_proper_iterable(values: Any) -> None:
    """TypeError unless ``values`` is iterable and not a string, bytes, a
    tensor or a numpy array."""
    from tfe_py.tensor import Tensor

    if isinstance(values, (str, bytes, np.ndarray, Tensor)):
        raise TypeError(
            f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}'
        )
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


# -- numerics ------------------------------------------------------------------------


def check_numerics(tensor: Any, message: str, name: str | None = None) -> Any:
    """``tensor`` itself, or InvalidArgumentError ("<message> : Tensor had
    NaN values") when it holds a NaN or an infinity (the CheckNumerics op;
    floating dtypes only)."""
    return _api.op("CheckNumerics")(tensor, message=message, name=name)


def assert_all_finite(x: Any, message: str, name: str | None = None) -> Any:
    """The same as :func:`check_numerics`."""
    return check_numerics(x, message, name=name)


_logger = logging.getLogger("tfe_py")
_flags = {"check_numerics": False, "traceback_filtering": True}


def enable_check_numerics(
    stack_height_limit: int = 30, path_length_limit: int = 50
) -> None:
    """Accepted for TF code that calls it; tfe does not instrument every op
    with numeric checks (use :func:`check_numerics` on the tensors to
    check). A warning says so once."""
    if not _flags["check_numerics"]:
        _logger.warning(
            "tf.debugging.enable_check_numerics: tfe does not check every op's output; "
            "use tf.debugging.check_numerics on the tensors to check"
        )
    _flags["check_numerics"] = True


def disable_check_numerics() -> None:
    """Undoes :func:`enable_check_numerics`."""
    _flags["check_numerics"] = False


def enable_traceback_filtering() -> None:
    """Records the setting; tfe's tracebacks are never filtered."""
    _flags["traceback_filtering"] = True


def disable_traceback_filtering() -> None:
    """Records the setting; tfe's tracebacks are never filtered."""
    _flags["traceback_filtering"] = False


def is_traceback_filtering_enabled() -> bool:
    """The setting of :func:`enable_traceback_filtering` (True by default, as in TF)."""
    return _flags["traceback_filtering"]


def get_log_device_placement() -> bool:
    """Whether op placements are logged (see tf.config)."""
    from tfe_py import config

    return config.get_log_device_placement()


def set_log_device_placement(enabled: bool) -> None:
    """Turns logging of op placements on or off."""
    from tfe_py import config

    config.set_log_device_placement(enabled)


def _enable_dump_debug_info(dump_root: str, *args: Any, **kwargs: Any) -> Any:
    """Not supported: tfe writes no tfdbg2 debug dumps."""
    raise NotImplementedError(
        "tf.debugging.experimental.enable_dump_debug_info: tfe writes no tfdbg2 dumps"
    )


def _disable_dump_debug_info() -> None:
    """Nothing to disable: dumps are never enabled in tfe."""


experimental = types.SimpleNamespace(
    enable_dump_debug_info=_enable_dump_debug_info,
    disable_dump_debug_info=_disable_dump_debug_info,
)
