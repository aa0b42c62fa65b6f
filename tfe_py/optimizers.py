"""Small optimizers in Keras' style, on TF's ``ResourceApply*`` kernels.

``SGD`` (plain, momentum, Nesterov) and ``Adam`` update :class:`Variable`
objects in place with one op per variable (``ResourceApplyGradientDescent``,
``ResourceApplyKerasMomentum``, ``ResourceApplyAdam``), using Keras 3's
formulas::

    opt = tfe_py.optimizers.Adam(learning_rate=0.01)
    with tfe_py.GradientTape() as tape:
        loss = ...
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))

A gradient of None leaves its variable alone, as Keras does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tfe_py.variables import Variable

__all__ = ["SGD", "Adam", "Optimizer"]


def _ops() -> Any:
    from tfe_py import ops

    return ops


class Optimizer:
    """What SGD and Adam share: the step counter and the update loop."""

    def __init__(self, learning_rate: float) -> None:
        if learning_rate < 0:
            raise ValueError(f"learning_rate must be >= 0, got {learning_rate!r}")
        self.learning_rate = float(learning_rate)
        self.iterations = 0
        self._slots: dict[int, dict[str, Variable]] = {}

    def _slot(self, var: Variable, name: str) -> Variable:
        """The optimizer's zero-initialized state variable `name` for var."""
        from tfe_py import _api

        slots = self._slots.setdefault(id(var), {})
        if name not in slots:
            zeros = _api.op("ZerosLike")(var.read_value())
            slots[name] = Variable(zeros, trainable=False, name=name)
        return slots[name]

    def _apply(self, grad: Any, var: Variable) -> None:
        raise NotImplementedError  # pragma: no cover - defined by subclasses

    def apply_gradients(self, grads_and_vars: Iterable[tuple[Any, Variable]]) -> int:
        """Applies one step; returns the new iteration count."""
        from tfe_py import _api

        pairs = list(grads_and_vars)
        self.iterations += 1
        for grad, var in pairs:
            if grad is None:
                continue
            if not isinstance(var, Variable):
                raise TypeError(f"apply_gradients needs tfe_py.Variable objects, got {var!r}")
            self._apply(_api.tensor(grad, var.dtype), var)
        return self.iterations

    def minimize(self, loss: Callable[[], Any], var_list: list[Variable]) -> int:
        """Computes ``loss()`` under a tape and applies its gradients."""
        from tfe_py.gradient_tape import GradientTape

        with GradientTape() as tape:
            value = loss()
        grads = tape.gradient(value, var_list)
        return self.apply_gradients(zip(grads, var_list, strict=True))


class SGD(Optimizer):
    """Gradient descent, with optional (Nesterov) momentum (Keras' SGD)."""

    def __init__(self, learning_rate: float = 0.01, momentum: float = 0.0,
                 nesterov: bool = False) -> None:
        super().__init__(learning_rate)
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"`momentum` must be a float between [0, 1], got {momentum!r}")
        self.momentum = float(momentum)
        self.nesterov = bool(nesterov)

    def _apply(self, grad: Any, var: Variable) -> None:
        from tfe_py import _api

        lr = _api.tensor(self.learning_rate, var.dtype)
        if self.momentum == 0.0:
            _ops().ResourceApplyGradientDescent(var.handle, lr, grad)
            return
        velocity = self._slot(var, "momentum")
        _ops().ResourceApplyKerasMomentum(
            var.handle,
            velocity.handle,
            lr,
            grad,
            _api.tensor(self.momentum, var.dtype),
            use_nesterov=self.nesterov,
        )


class Adam(Optimizer):
    """Adam (Keras' formula: epsilon added to the square root)."""

    def __init__(self, learning_rate: float = 0.001, beta_1: float = 0.9,
                 beta_2: float = 0.999, epsilon: float = 1e-7) -> None:
        super().__init__(learning_rate)
        self.beta_1 = float(beta_1)
        self.beta_2 = float(beta_2)
        self.epsilon = float(epsilon)

    def _apply(self, grad: Any, var: Variable) -> None:
        from tfe_py import _api

        m = self._slot(var, "m")
        v = self._slot(var, "v")
        t = self.iterations

        def c(x: float) -> Any:
            return _api.tensor(x, var.dtype)

        _ops().ResourceApplyAdam(
            var.handle,
            m.handle,
            v.handle,
            c(self.beta_1**t),
            c(self.beta_2**t),
            c(self.learning_rate),
            c(self.beta_1),
            c(self.beta_2),
            c(self.epsilon),
            grad,
        )
