"""``tf.autodiff``: ``GradientTape`` and forward mode (``ForwardAccumulator``).

Forward mode uses the double-vjp trick on tfe's reverse-mode tape instead of
forward rules of its own. A persistent inner tape records the computation of
the primals' consumers. For a target y, the vector-jacobian product
g(u) = J^T u (``inner.gradient(y, primals, output_gradients=u)``) is linear
in u, so its gradient with respect to u, seeded with the tangents, is
J t: the jacobian-vector product. An outer tape watching a zero u records
the ops of g(u). This needs the gradient functions on the path to be
differentiable themselves (second-order gradients): a gradient op without
a gradient (for example ``TanhGrad`` today) makes ``jvp`` raise TF's
``LookupError`` naming it. Each ``jvp`` call costs two backward passes.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from tfe_py.gradient_tape import GradientTape, UnconnectedGradients, _mode

__all__ = ["ForwardAccumulator", "GradientTape"]


def _flatten(structure: Any) -> list[Any]:
    from tfe_py import nest

    return list(nest.flatten(structure))


class ForwardAccumulator:
    """Computes jacobian-vector products (``tf.autodiff.ForwardAccumulator``).

    Args:
        primals: a tensor or variable, or a nested structure of them.
        tangents: the same structure: the direction for each primal.

    Use it as a context manager; ``jvp(target)`` gives the directional
    derivative of a tensor computed inside it (it may be asked after the
    block too).
    """

    def __init__(self, primals: Any, tangents: Any) -> None:
        from tfe_py import nest
        from tfe_py.graph import convert_to_tensor
        from tfe_py.variables import Variable

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
        self._tape = GradientTape(persistent=True, watch_accessed_variables=False)
        self._entered = False

    def __enter__(self) -> ForwardAccumulator:
        if self._entered:
            raise ValueError("Accumulator is already recording.")
        self._tape.__enter__()
        self._tape.watch(self._primals)
        self._entered = True
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._entered:
            self._tape.__exit__(exc_type, exc, tb)
            self._entered = False

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

        mode = _mode(unconnected_gradients)
        if not self._tape._tape:
            raise ValueError("jvp is asked of an accumulator that was never entered")
        out = []
        for target in _flatten(primals):
            if not isinstance(target, EagerTensor):
                raise TypeError(
                    f"jvp expects tensors computed under the accumulator, got "
                    f"{type(target).__name__}"
                )
            out.append(self._jvp_one(target, mode, ops))
        return nest.pack_sequence_as(primals, out)

    def _jvp_one(self, target: Any, mode: UnconnectedGradients, ops: Any) -> Any:
        u = ops.ZerosLike(target)
        with GradientTape(watch_accessed_variables=False) as outer:
            outer.watch(u)
            vjps = self._tape.gradient(target, self._primals, output_gradients=[u])
        pairs = [(g, t) for g, t in zip(vjps, self._tangents, strict=True) if g is not None]
        result = None
        if pairs:
            result = outer.gradient(
                [g for g, _ in pairs], u, output_gradients=[t for _, t in pairs]
            )
        if result is None and mode is UnconnectedGradients.ZERO:
            result = ops.ZerosLike(target)
        return result
