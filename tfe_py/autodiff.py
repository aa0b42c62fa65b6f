"""``tf.autodiff``: ``GradientTape`` and forward mode (``ForwardAccumulator``).

Forward mode lives in the C core (include/tfe/forward.h): while an
accumulator records, every op ``TFE_Execute`` runs whose inputs carry
tangents gets its outputs' tangents right after it ran, by a forward rule
for the common ops or through the gradient registry with the double-vjp
trick. This module is the Python face: primals and tangents in nested
structures, variables (their handle is the primal), the context manager and
``jvp``. Nested accumulators and accumulators around or inside a
``GradientTape`` compose as in TF (Hessian-vector products both ways).
An op that needs a tangent and has no gradient fails when it runs, as in TF
(tfe raises ``UnimplementedError`` naming it where TF raises
``LookupError``).
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from tfe_py._ffi import ffi, lib
from tfe_py.errors import status
from tfe_py.gradient_tape import GradientTape, UnconnectedGradients, _mode

__all__ = ["ForwardAccumulator", "GradientTape"]


def _flatten(structure: Any) -> list[Any]:
    from tfe_py import nest

    return list(nest.flatten(structure))


# How many accumulators record now (any thread): custom_gradient passes
# tangents on to the outputs it makes only while one does.
_recording_count = [0]


class ForwardAccumulator:
    """Computes jacobian-vector products (``tf.autodiff.ForwardAccumulator``).

    Args:
        primals: a tensor or variable, or a nested structure of them.
        tangents: the same structure: the direction for each primal.

    Use it as a context manager; ``jvp(target)`` gives the directional
    derivative of a tensor computed inside it (it may be asked after the
    block too). The C accumulator is made when the block is first entered
    and recorded only inside the block.
    """

    def __init__(self, primals: Any, tangents: Any) -> None:
        from tfe_py import nest
        from tfe_py.graph import convert_to_tensor
        from tfe_py.variables import Variable

        self._acc: Any = ffi.NULL  # first: __del__ runs even if __init__ raises
        nest.assert_same_structure(primals, tangents)
        self._primals = _flatten(primals)
        self._tangents = []
        for p, t in zip(self._primals, _flatten(tangents), strict=True):
            value = p.read_value() if isinstance(p, Variable) else convert_to_tensor(p)
            tangent = convert_to_tensor(t, value.dtype)
            if list(tangent.shape) != list(value.shape):
                raise ValueError(
                    f"Tangent shape {tangent.shape} is not the shape of its primal "
                    f"{value.shape}"
                )
            self._tangents.append(tangent)
        self._primals = [
            p if isinstance(p, Variable) else convert_to_tensor(p) for p in self._primals
        ]
        self._ctx: Any = None
        self._recording = False

    def _free(self) -> None:
        acc, self._acc = self._acc, ffi.NULL
        if acc:
            lib.TFE_DeleteForwardAccumulator(acc)

    def __del__(self) -> None:
        self._free()

    def __enter__(self) -> ForwardAccumulator:
        from tfe_py.context import _state, default_context
        from tfe_py.variables import Variable

        if self._recording:
            raise ValueError("Accumulator is already recording.")
        if self._acc:
            with status() as s:
                lib.TFE_ForwardAccumulatorResumeRecording(self._acc, s)
        else:
            self._ctx = _state.ctx or default_context()
            with status() as s:
                acc = lib.TFE_NewForwardAccumulator(self._ctx.ptr, s)
            self._acc = acc
            for p, t in zip(self._primals, self._tangents, strict=True):
                h = p.handle._h if isinstance(p, Variable) else p._h
                with status() as s:
                    lib.TFE_ForwardAccumulatorWatch(acc, h, t._h, s)
        self._recording = True
        _recording_count[0] += 1
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._recording:
            self._recording = False
            _recording_count[0] -= 1
            with status() as s:
                lib.TFE_ForwardAccumulatorStopRecording(self._acc, s)

    def jvp(
        self,
        primals: Any,
        unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
    ) -> Any:
        """The jacobian-vector product of each tensor in ``primals`` (a
        target computed under the accumulator, or a nested structure of
        them), in its structure; None (or zeros with
        ``unconnected_gradients="zero"``) for one the primals do not reach."""
        from tfe_py import nest, ops
        from tfe_py.eager import EagerTensor
        from tfe_py.variables import Variable

        mode = _mode(unconnected_gradients)
        if not self._acc:
            raise ValueError("jvp is asked of an accumulator that was never entered")
        out = []
        for target in _flatten(primals):
            if isinstance(target, Variable):
                handle, like = target.handle, target
            elif isinstance(target, EagerTensor):
                handle, like = target, target
            else:
                raise TypeError(
                    f"jvp expects tensors computed under the accumulator, got "
                    f"{type(target).__name__}"
                )
            with status() as s:
                h = lib.TFE_ForwardAccumulatorJvp(self._acc, handle._h, s)
            if h != ffi.NULL:
                out.append(EagerTensor._wrap(h, self._ctx))
            elif mode is UnconnectedGradients.ZERO:
                value = like.read_value() if isinstance(like, Variable) else like
                out.append(ops.ZerosLike(value))
            else:
                out.append(None)
        return nest.pack_sequence_as(primals, out)
