"""``tf.Variable``: a resource variable in eager mode.

A :class:`Variable` owns a resource handle (``VarHandleOp`` with TF's
anonymous shared name, so every variable is its own resource) and reads and
writes it with ``ReadVariableOp`` / ``AssignVariableOp`` and friends, the
ops TF's resource variables use. Wherever a tensor is expected (op inputs,
operators, ``tf.*`` functions) a variable stands for its current value, read
at that moment. Reads inside a :class:`tfe_py.GradientTape` are recorded, so
``tape.gradient(loss, variable)`` gives the gradient with respect to the
variable; a trainable variable is watched automatically when it is read
under a tape that watches accessed variables (TF's default).
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any

import numpy as np

from tfe_py.dtypes import DType, as_dtype
from tfe_py.tensor_shape import TensorShape

__all__ = ["Variable"]

# TF's shared name for resources that are never shared
# (ResourceHandle::ANONYMOUS_NAME).
_ANONYMOUS = "cd2c89b7-88b7-44c8-ad83-06c2a9158347"
_uids = itertools.count(1)
# Live variables by id() of their handle: a tfe_py.function call watches
# the trainable variables among its captured handles (function.py).
_by_handle: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()


_EAGER_TENSOR: Any = None


def _eager_tensor() -> Any:
    global _EAGER_TENSOR
    if _EAGER_TENSOR is None:
        from tfe_py.eager import EagerTensor

        _EAGER_TENSOR = EagerTensor
    return _EAGER_TENSOR


def _ops() -> Any:
    from tfe_py import ops

    return ops


class Variable:
    """A mutable tensor that keeps its value across ops (``tf.Variable``).

    Args:
        initial_value: a tensor or anything ``tf.constant`` accepts (or a
            callable returning one).
        trainable: whether gradient tapes watch it automatically.
        name: its name (``"Variable"`` by default); ``.name`` adds ``:0``.
        dtype: converts ``initial_value`` to this dtype.
        shape: a static shape; ``None`` (the default) takes the value's.
    """

    # Makes numpy defer to our reflected operators (ndarray + variable).
    __array_priority__ = 100

    def __init__(
        self,
        initial_value: Any = None,
        trainable: bool = True,
        name: str | None = None,
        dtype: Any = None,
        shape: Any = None,
    ) -> None:
        from tfe_py.graph import convert_to_tensor

        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if callable(initial_value):
            initial_value = initial_value()
        value = convert_to_tensor(initial_value, None if dtype is None else as_dtype(dtype))
        self._dtype = DType(int(value.dtype))
        self._shape = value.shape if shape is None else TensorShape(shape)
        if not self._shape.is_compatible_with(value.shape):
            raise ValueError(
                f"The initial value's shape ({value.shape}) is not compatible with the "
                f"explicitly supplied `shape` argument ({self._shape})."
            )
        self._trainable = bool(trainable)
        self._name = f"{name or 'Variable'}:0"
        self._uid = next(_uids)
        ops = _ops()
        shape_attr = None if self._shape.rank is None else list(self._shape.as_list())
        self.handle = ops.VarHandleOp(
            dtype=self._dtype,
            shape=[-1 if d is None else d for d in shape_attr] if shape_attr is not None else None,
            shared_name=_ANONYMOUS,
        )
        ops.AssignVariableOp(self.handle, value)
        _by_handle[id(self.handle)] = self

    # -- identity --------------------------------------------------------

    @property
    def dtype(self) -> DType:
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    def get_shape(self) -> TensorShape:
        return self._shape

    @property
    def name(self) -> str:
        return self._name

    @property
    def trainable(self) -> bool:
        return self._trainable

    @property
    def device(self) -> str:
        return str(self.handle.device)

    def ref(self) -> Any:
        """A hashable reference (variables, like tensors, are unhashable
        as dict keys in TF 2; this is the key)."""
        from tfe_py.tensor import Reference

        return Reference(self)

    experimental_ref = ref

    def __hash__(self) -> int:
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")

    # -- reading -----------------------------------------------------------

    def read_value(self) -> Any:
        """The current value, as a new tensor (recorded on active tapes)."""
        from tfe_py import gradient_tape

        gradient_tape._variable_accessed(self)
        value = _ops().ReadVariableOp(self.handle, dtype=self._dtype)
        if value.__class__ is not _eager_tensor() and self._shape.rank is not None:
            # In a graph the handle is a captured placeholder that carries no
            # shape: give the read the variable's shape, as TF's handle data
            # does (a while_loop needs it to keep the loop shapes).
            value.set_shape(self._shape.as_list())
        return value

    value = read_value

    def _tfe_dense_tensor_(self) -> Any:
        return self.read_value()

    def numpy(self) -> Any:
        return self.read_value().numpy()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = np.asarray(self.numpy())
        return arr if dtype is None else arr.astype(dtype)

    def __bool__(self) -> bool:
        return bool(self.read_value())

    def __float__(self) -> float:
        return float(self.read_value())

    def __int__(self) -> int:
        return int(self.read_value())

    def __index__(self) -> int:
        return self.read_value().__index__()

    def __len__(self) -> int:
        return len(self.read_value())

    def __iter__(self) -> Any:
        return iter(self.read_value())

    def __getitem__(self, spec: Any) -> Any:
        return self.read_value()[spec]

    def __format__(self, format_spec: str) -> str:
        return format(self.read_value(), format_spec)

    def __repr__(self) -> str:
        text = self.read_value()._numpy_text(True)
        return (
            f"<tf.Variable '{self._name}' shape={self._shape} "
            f"dtype={self._dtype.name}, numpy={text}>"
        )

    __str__ = __repr__

    # -- writing -----------------------------------------------------------

    def _checked(self, value: Any, what: str) -> Any:
        from tfe_py.graph import convert_to_tensor

        t = convert_to_tensor(value, self._dtype)
        if not self._shape.is_compatible_with(t.shape):
            raise ValueError(
                f"Cannot {what} to variable {self._name} of shape {self._shape} a value of "
                f"shape {t.shape}"
            )
        return t

    def assign(self, value: Any, use_locking: bool = False, name: str | None = None,
               read_value: bool = True) -> Any:
        """Sets the value; returns the variable (or None with
        ``read_value=False``), as TF's eager variables do."""
        _ops().AssignVariableOp(self.handle, self._checked(value, "assign"))
        return self if read_value else None

    def assign_add(self, delta: Any, use_locking: bool = False, name: str | None = None,
                   read_value: bool = True) -> Any:
        _ops().AssignAddVariableOp(self.handle, self._checked(delta, "assign_add"))
        return self if read_value else None

    def assign_sub(self, delta: Any, use_locking: bool = False, name: str | None = None,
                   read_value: bool = True) -> Any:
        _ops().AssignSubVariableOp(self.handle, self._checked(delta, "assign_sub"))
        return self if read_value else None


def _forward(op_name: str) -> Any:
    def method(self: Variable, *args: Any) -> Any:
        value = self.read_value()
        return getattr(value, op_name)(*args)

    method.__name__ = op_name
    return method


for _name in (
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
    "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__",
    "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__lt__", "__le__", "__gt__",
    "__ge__", "__neg__", "__abs__", "__pos__", "__and__", "__rand__", "__or__", "__ror__",
    "__xor__", "__rxor__", "__invert__", "__eq__", "__ne__",
):
    setattr(Variable, _name, _forward(_name))
del _name
