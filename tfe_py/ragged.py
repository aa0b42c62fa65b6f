"""A small ``tf.RaggedTensor``: what the string functions return.

TensorFlow's ragged tensors are a composite of a ``values`` tensor and one
int64 ``row_splits`` vector per ragged dimension. tfe has no composite
tensor machinery, so this is a plain Python container holding those
tensors, enough for the results of ``tf.strings.split``,
``unicode_decode``, ``bytes_split``, ``ngrams`` and friends:
``values``/``row_splits``/``flat_values``/``nested_row_splits``,
``row_lengths()``, ``value_rowids()``, ``nrows()``, ``to_list()``,
``numpy()``, ``to_tensor()``, ``shape``/``dtype``/``ragged_rank``, indexing
the outer dimension, and the ``from_*`` constructors. It prints as TF's
does (``<tf.RaggedTensor [[b'a', b'b'], [b'c']]>``).

Not supported: operators, ``tf.ragged.*`` functions, ``RaggedTensor``
inputs to other ops, graph mode (``to_list`` needs eager values).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tfe_py import _api, dtypes
from tfe_py.tensor import Tensor
from tfe_py.tensor_shape import TensorShape

__all__ = ["RaggedTensor", "is_ragged"]


def _ops() -> Any:
    from tfe_py import ops

    return ops


def _int64(value: Any) -> Any:
    t = _api.tensor(value, dtype_hint=dtypes.int64)
    if t.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"row partition tensors must be int32 or int64, got {t.dtype!r}")
    if t.dtype != dtypes.int64:
        t = _ops().Cast(t, DstT=dtypes.int64)
    return t


def _shape_of(t: Any) -> TensorShape:
    shape = t.shape
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def is_ragged(value: Any) -> bool:
    """Whether ``value`` is a :class:`RaggedTensor`."""
    return isinstance(value, RaggedTensor)


class RaggedTensor:
    """Rows of varying length: ``values`` cut by ``row_splits``.

    Row ``i`` is ``values[row_splits[i]:row_splits[i + 1]]``; ``values`` is
    a tensor or another RaggedTensor (several ragged dimensions). Build one
    with the ``from_*`` class methods, as in TensorFlow.
    """

    __slots__ = ("_row_splits", "_values")

    def __init__(self, values: Any, row_splits: Any, internal: bool = False) -> None:
        if not internal:
            raise ValueError(
                "RaggedTensor constructor is private; please use one of the "
                "factory methods instead (e.g., RaggedTensor.from_row_lengths())"
            )
        self._values = values
        self._row_splits = row_splits

    # ------------------------------------------------------------ factories

    @classmethod
    def from_row_splits(
        cls, values: Any, row_splits: Any, name: str | None = None, validate: bool = True
    ) -> RaggedTensor:
        """``values`` cut at ``row_splits`` (starting with 0, ending with
        the number of values, non-decreasing)."""
        if not isinstance(values, RaggedTensor):
            values = _api.tensor(values)
        splits = _int64(row_splits)
        if validate:
            s = np.asarray(splits.numpy())
            nvals = _nrows_of(values)
            if s.ndim != 1 or s.size == 0:
                raise ValueError("row_splits must be a non-empty vector")
            if s[0] != 0 or np.any(np.diff(s) < 0) or (nvals is not None and s[-1] != nvals):
                from tfe_py import errors

                raise errors.InvalidArgumentError(
                    "Arguments to from_row_splits do not form a valid RaggedTensor"
                )
        return cls(values, splits, internal=True)

    @classmethod
    def from_row_lengths(
        cls, values: Any, row_lengths: Any, name: str | None = None, validate: bool = True
    ) -> RaggedTensor:
        lengths = _int64(row_lengths)
        ops = _ops()
        zero = _api.tensor([0], dtypes.int64)
        splits = ops.ConcatV2([zero, ops.Cumsum(lengths, np.int32(0))], np.int32(0))
        return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_row_starts(
        cls, values: Any, row_starts: Any, name: str | None = None, validate: bool = True
    ) -> RaggedTensor:
        if not isinstance(values, RaggedTensor):
            values = _api.tensor(values)
        starts = _int64(row_starts)
        nvals = _api.tensor([_nrows_of(values)], dtypes.int64)
        splits = _ops().ConcatV2([starts, nvals], np.int32(0))
        return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_row_limits(
        cls, values: Any, row_limits: Any, name: str | None = None, validate: bool = True
    ) -> RaggedTensor:
        limits = _int64(row_limits)
        zero = _api.tensor([0], dtypes.int64)
        splits = _ops().ConcatV2([zero, limits], np.int32(0))
        return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_value_rowids(
        cls,
        values: Any,
        value_rowids: Any,
        nrows: Any = None,
        name: str | None = None,
        validate: bool = True,
    ) -> RaggedTensor:
        """Value ``j`` goes to row ``value_rowids[j]`` (sorted ascending);
        ``nrows`` defaults to the last row id plus one."""
        if not isinstance(values, RaggedTensor):
            values = _api.tensor(values)
        ops = _ops()
        rowids = _int64(value_rowids)
        if nrows is None:
            ids = np.asarray(rowids.numpy())
            nrows = int(ids[-1]) + 1 if ids.size else 0
        nrows_t = _int64(nrows)
        ones = ops.OnesLike(rowids)
        lengths = ops.UnsortedSegmentSum(ones, rowids, nrows_t)
        return cls.from_row_lengths(values, lengths, validate=validate)

    @classmethod
    def from_nested_row_splits(
        cls,
        flat_values: Any,
        nested_row_splits: Any,
        name: str | None = None,
        validate: bool = True,
    ) -> RaggedTensor:
        if isinstance(nested_row_splits, Tensor):
            raise TypeError("nested_row_splits must be a list of Tensors")
        result = flat_values
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(
        cls,
        flat_values: Any,
        nested_row_lengths: Any,
        name: str | None = None,
        validate: bool = True,
    ) -> RaggedTensor:
        result = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_tensor(
        cls,
        tensor: Any,
        lengths: Any = None,
        padding: Any = None,
        ragged_rank: int = 1,
        name: str | None = None,
        row_splits_dtype: Any = dtypes.int64,
    ) -> RaggedTensor:
        """A dense tensor as a RaggedTensor whose first ``ragged_rank + 1``
        dimensions are rows. ``lengths`` (row lengths) or ``padding`` (a
        value dropped from the end of each row) trim the rows; both only
        with ``ragged_rank=1``."""
        if lengths is not None and padding is not None:
            raise ValueError("Specify argument `lengths` or `padding`, but not both.")
        t = _api.tensor(tensor)
        shape = _shape_of(t)
        if shape.rank is None:
            raise ValueError("Rank of `tensor` must be statically known.")
        if not isinstance(ragged_rank, int) or ragged_rank <= 0:
            raise ValueError(f"ragged_rank must be greater than 0; got {ragged_rank}")
        if shape.rank <= ragged_rank:
            raise ValueError(
                f"ragged_rank must be less than rank(tensor); got ragged_rank={ragged_rank}, "
                f"rank(tensor)={shape.rank}"
            )
        ops = _ops()
        dims = [int(d) for d in t.shape]
        if ragged_rank == 1 and (lengths is not None or padding is not None):
            width = dims[1]
            if padding is not None:
                pad = _api.tensor(padding, dtype=t.dtype)
                eq = ops.Equal(t, pad)
                if len(dims) > 2:
                    eq = ops.All(eq, np.arange(2, len(dims), dtype=np.int32))
                mask = np.asarray(eq.numpy())
                lens = []
                for row in mask:
                    n = width
                    while n > 0 and row[n - 1]:
                        n -= 1
                    lens.append(n)
                lengths = lens
            lens_arr = np.asarray(_int64(lengths).numpy())
            flat = ops.Reshape(t, np.array([-1, *dims[2:]], np.int64))
            idx = np.concatenate(
                [np.arange(i * width, i * width + int(n)) for i, n in enumerate(lens_arr)]
                or [np.zeros(0, np.int64)]
            ).astype(np.int64)
            values = ops.GatherV2(flat, idx, np.int32(0))
            return cls.from_row_lengths(values, lens_arr, validate=False)
        flat = ops.Reshape(t, np.array([-1, *dims[ragged_rank + 1 :]], np.int64))
        result: Any = flat
        for axis in range(ragged_rank, 0, -1):
            nrows = int(np.prod(dims[:axis], dtype=np.int64))
            width = dims[axis]
            splits = np.arange(0, nrows * width + 1, max(width, 1), dtype=np.int64)
            if width == 0:
                splits = np.zeros(nrows + 1, np.int64)
            result = cls(result, _api.tensor(splits, dtypes.int64), internal=True)
        return result

    # ---------------------------------------------------------- properties

    @property
    def values(self) -> Any:
        """The concatenated rows (a tensor, or a RaggedTensor)."""
        return self._values

    @property
    def row_splits(self) -> Any:
        """int64 vector: row ``i`` is ``values[row_splits[i]:row_splits[i+1]]``."""
        return self._row_splits

    @property
    def flat_values(self) -> Any:
        """The innermost values tensor."""
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def nested_row_splits(self) -> tuple[Any, ...]:
        out = [self._row_splits]
        v = self._values
        while isinstance(v, RaggedTensor):
            out.append(v._row_splits)
            v = v._values
        return tuple(out)

    @property
    def ragged_rank(self) -> int:
        v = self._values
        return v.ragged_rank + 1 if isinstance(v, RaggedTensor) else 1

    @property
    def dtype(self) -> Any:
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self) -> Any:
        return self._row_splits.dtype

    @property
    def shape(self) -> TensorShape:
        """Static shape: ragged dimensions are None."""
        nrows = int(self._row_splits.shape[0]) - 1
        if isinstance(self._values, RaggedTensor):
            inner = list(self._values.shape)[1:]
        else:
            inner = list(_shape_of(self._values))[1:]
        return TensorShape([nrows, None, *inner])

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def ndim(self) -> int:
        return len(self.shape)

    # ------------------------------------------------------------- queries

    def nrows(self, out_type: Any = None, name: str | None = None) -> Any:
        n = int(self._row_splits.shape[0]) - 1
        return _api.tensor(n, dtype=out_type or self._row_splits.dtype)

    def row_starts(self, name: str | None = None) -> Any:
        return self._row_splits[:-1]

    def row_limits(self, name: str | None = None) -> Any:
        return self._row_splits[1:]

    def row_lengths(self, axis: int = 1, name: str | None = None) -> Any:
        """Length of each row (axis 1), or of each row of a ragged inner
        dimension (axis 2, ...), as a tensor or RaggedTensor."""
        if axis == 0:
            return self.nrows()
        if axis == 1:
            return _ops().Sub(self._row_splits[1:], self._row_splits[:-1])
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.row_lengths(axis - 1))
        raise ValueError(f"axis={axis} out of bounds: expected 0 <= axis < {self.ragged_rank + 1}")

    def value_rowids(self, name: str | None = None) -> Any:
        """The row of each value (int64)."""
        splits = np.asarray(self._row_splits.numpy())
        ids = np.repeat(np.arange(splits.size - 1, dtype=np.int64), np.diff(splits))
        return _api.tensor(ids, dtypes.int64)

    def nested_row_lengths(self, name: str | None = None) -> tuple[Any, ...]:
        out = [self.row_lengths()]
        v = self._values
        while isinstance(v, RaggedTensor):
            out.append(v.row_lengths())
            v = v._values
        return tuple(out)

    def bounding_shape(
        self, axis: Any = None, name: str | None = None, out_type: Any = None
    ) -> Any:
        dims = _bounding(self)
        t = _api.tensor(np.array(dims, np.int64), dtype=out_type or self._row_splits.dtype)
        return t if axis is None else _ops().GatherV2(t, _api.tensor(axis), np.int32(0))

    # --------------------------------------------------------- rebuilding

    def with_values(self, new_values: Any) -> RaggedTensor:
        if not isinstance(new_values, RaggedTensor):
            new_values = _api.tensor(new_values)
        return RaggedTensor(new_values, self._row_splits, internal=True)

    def with_flat_values(self, new_values: Any) -> RaggedTensor:
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype: Any) -> RaggedTensor:
        if dtypes.as_dtype(dtype) == self._row_splits.dtype:
            return self
        splits = _ops().Cast(self._row_splits, DstT=dtypes.as_dtype(dtype))
        values = self._values
        if isinstance(values, RaggedTensor):
            values = values.with_row_splits_dtype(dtype)
        return RaggedTensor(values, splits, internal=True)

    # ---------------------------------------------------------- conversion

    def to_list(self) -> list[Any]:
        """The rows as nested Python lists (bytes for strings, as TF)."""
        values = self._values
        inner = values.to_list() if isinstance(values, RaggedTensor) else values.numpy().tolist()
        splits = [int(s) for s in np.asarray(self._row_splits.numpy())]
        return [inner[splits[i] : splits[i + 1]] for i in range(len(splits) - 1)]

    def numpy(self) -> np.ndarray:
        """The rows as numpy arrays, as TF: one array of rank + 1 when every
        row has the same length, else an object array of row arrays."""
        values = np.asarray(self._values.numpy())
        splits = [int(v) for v in np.asarray(self._row_splits.numpy())]
        rows = [values[splits[i] : splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0, *values.shape[1:]), dtype=values.dtype)
        if any(len(r) != len(rows[0]) for r in rows):
            out = np.empty(len(rows), dtype=object)
            for i, r in enumerate(rows):
                out[i] = r
            return out
        return np.array(rows)

    def to_tensor(
        self, default_value: Any = None, name: str | None = None, shape: Any = None
    ) -> Any:
        """A dense tensor padded with ``default_value`` (zero or b"" by
        default) to the bounding shape, or to ``shape`` (cropping)."""
        dims = _bounding(self)
        if shape is not None:
            want = list(TensorShape(shape))
            dims = [d if w is None else int(w) for d, w in zip(dims, want, strict=False)]
        flat = self.flat_values
        dt = flat.dtype
        if default_value is None:
            default_value = b"" if dt == dtypes.string else 0
        rows = _dense_rows(self.to_list(), dims, default_value)
        if dt == dtypes.string:
            arr = np.array(rows, dtype=object).reshape(dims)
        else:
            arr = np.array(rows, dtype=dtypes.as_dtype(dt).as_numpy_dtype).reshape(dims)
        return _api.tensor(arr, dtype=dt)

    def to_sparse(self, name: str | None = None) -> Any:
        _api.unimplemented("RaggedTensorToSparse", "tf.RaggedTensor.to_sparse")

    # ------------------------------------------------------------ indexing

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, tuple):
            if not key:
                return self
            first, rest = key[0], key[1:]
            row = self[first]
            if not rest:
                return row
            if isinstance(row, RaggedTensor | Tensor):
                return row[rest if len(rest) > 1 else rest[0]]
            return row
        splits = [int(s) for s in np.asarray(self._row_splits.numpy())]
        n = len(splits) - 1
        if isinstance(key, Tensor):
            key = int(key)
        if isinstance(key, int | np.integer):
            i = int(key)
            if i < 0:
                i += n
            if not 0 <= i < n:
                from tfe_py import errors

                raise errors.InvalidArgumentError(
                    f"slice index {int(key)} of dimension 0 out of bounds."
                )
            return self._values[splits[i] : splits[i + 1]]
        if isinstance(key, slice):
            rows = range(n)[key]
            if key.step not in (None, 1):
                raise ValueError("Slicing a RaggedTensor with a step is not supported")
            start = rows.start if len(rows) else 0
            stop = rows.stop if len(rows) else 0
            new_splits = np.array(splits[start : stop + 1] if len(rows) else [0], np.int64)
            offset = new_splits[0]
            values = self._values[int(offset) : int(new_splits[-1])]
            return RaggedTensor(
                values, _api.tensor(new_splits - offset, self._row_splits.dtype), internal=True
            )
        raise TypeError(f"Unsupported index for a RaggedTensor: {key!r}")

    # -------------------------------------------------------------- output

    def __repr__(self) -> str:
        # TF prints numpy() with every element through str() and ", "
        # between them (numpy's line wrapping included).
        with np.printoptions(formatter={"all": _formatter}):
            text = _formatter(self.numpy())
        return f"<tf.RaggedTensor {text}>"

    __str__ = __repr__

    def __bool__(self) -> bool:
        raise TypeError("RaggedTensor may not be used as a boolean.")


def _formatter(x: Any) -> str:
    """One element (or row array) of a RaggedTensor's printed form."""
    if isinstance(x, np.ndarray):
        if x.size != 0:
            return np.array2string(x, separator=", ")
        return repr(x.tolist())
    return str(x)


def _nrows_of(values: Any) -> int | None:
    if isinstance(values, RaggedTensor):
        return int(values.row_splits.shape[0]) - 1
    shape = values.shape
    if shape is None or len(shape) == 0 or shape[0] is None:
        return None
    return int(shape[0])


def _bounding(rt: RaggedTensor) -> list[int]:
    """The smallest dense shape holding every row."""
    splits = np.asarray(rt.row_splits.numpy())
    lengths = np.diff(splits)
    nrows = splits.size - 1
    values = rt.values
    if isinstance(values, RaggedTensor):
        inner = _bounding(values)
        inner[0] = int(lengths.max()) if lengths.size else 0
        return [nrows, *inner]
    rest = [int(d) for d in values.shape][1:]
    return [nrows, int(lengths.max()) if lengths.size else 0, *rest]


def _dense_rows(rows: list[Any], dims: list[int], fill: Any) -> list[Any]:
    """Pads (and crops) nested lists to ``dims``."""
    if not dims:
        return rows
    out = []
    for i in range(dims[0]):
        if i < len(rows):
            row = rows[i]
            out.append(_dense_rows(row, dims[1:], fill) if len(dims) > 1 else row)
        else:
            out.append(_filled(dims[1:], fill))
    return out


def _filled(dims: list[int], fill: Any) -> Any:
    if not dims:
        return fill
    return [_filled(dims[1:], fill) for _ in range(dims[0])]
