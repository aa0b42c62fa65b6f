"""``tf.GradientTape`` on tfe's C tape (include/tfe/gradients.h).

The tape itself lives in the C core: it records the ops ``TFE_Execute``
runs, and computes gradients with the one gradient registry that C
programs and plugins use too. This module is the Python face: the context
manager, nested structures of targets and sources, variables (watched when
read under the tape), ``stop_recording`` and ``reset``.
"""

from __future__ import annotations

import contextlib
import enum
import threading
from collections.abc import Iterator
from types import TracebackType
from typing import Any

from tfe_py._ffi import CData, ffi, lib
from tfe_py.errors import status

__all__ = ["GradientTape", "UnconnectedGradients"]


class UnconnectedGradients(enum.Enum):
    """What a source the targets do not depend on gets (TF's enum)."""

    NONE = "none"
    ZERO = "zero"


class _Tapes(threading.local):
    def __init__(self) -> None:
        self.active: list[GradientTape] = []
        # tfe_py.custom_gradient: lists collecting the trainable variables
        # read while a decorated function runs (TF's VariableWatcher), and
        # the exception a grad_fn raised during the current backward pass.
        self.variable_watchers: list[list[Any]] = []
        self.pending_error: BaseException | None = None


_tapes = _Tapes()


def _variable_watchers() -> list[list[Any]]:
    """This thread's variable watchers (tfe_py.custom_gradient)."""
    return _tapes.variable_watchers


def _set_pending_error(exc: BaseException) -> None:
    """Called by a custom gradient callback that failed: the gradient call
    running it raises exc instead of the status C reports."""
    _tapes.pending_error = exc


def _take_pending_error() -> BaseException | None:
    exc, _tapes.pending_error = _tapes.pending_error, None
    return exc


def _variable_accessed(var: Any) -> None:
    """Called by Variable.read_value: tapes recording in this thread that
    watch accessed variables start watching a trainable one."""
    if not var.trainable:
        return
    for watcher in _tapes.variable_watchers:
        watcher.append(var)
    for tape in _tapes.active:
        if tape._watch_accessed_variables and tape._recording:
            tape._watch_variable(var)


def _flatten(structure: Any) -> list[Any]:
    from tfe_py import nest

    return list(nest.flatten(structure))


def _pack(structure: Any, flat: list[Any]) -> Any:
    from tfe_py import nest

    return nest.pack_sequence_as(structure, flat)


def _mode(unconnected_gradients: UnconnectedGradients | str) -> UnconnectedGradients:
    return UnconnectedGradients(
        unconnected_gradients.value
        if isinstance(unconnected_gradients, UnconnectedGradients)
        else unconnected_gradients
    )


def _target_tensors(flat: list[Any]) -> list[Any]:
    """Targets as eager tensors (a variable stands for its value)."""
    from tfe_py.eager import EagerTensor
    from tfe_py.variables import Variable

    out = [t.read_value() if isinstance(t, Variable) else t for t in flat]
    if _building_graph(out):
        return out  # a tape inside a function: symbolic (GradientTape._rows)
    for t in out:
        if not isinstance(t, EagerTensor):
            raise ValueError(
                f"Target {t!r} of type {type(t).__name__} is not a tensor: gradients are "
                "taken of tensors computed while the tape recorded."
            )
    return out


def _building_graph(flat: list[Any]) -> bool:
    """True when a target is a graph tensor, or a variable read while a
    graph is built (a tape inside a function)."""
    from tfe_py import graph as graph_mod
    from tfe_py.graph import GraphTensor
    from tfe_py.variables import Variable

    if any(isinstance(t, GraphTensor) for t in flat):
        return True
    return graph_mod.get_default_graph() is not None and any(
        isinstance(t, Variable) for t in flat
    )


class GradientTape:
    """Records ops for automatic differentiation (``tf.GradientTape``).

    Args:
        persistent: allow several ``gradient`` calls (else one).
        watch_accessed_variables: watch trainable variables read while
            recording.
    """

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True) -> None:
        self._persistent = bool(persistent)
        self._watch_accessed_variables = bool(watch_accessed_variables)
        self._tape: CData = ffi.NULL
        self._ctx: Any = None
        self._recording = False
        self._used = False
        self._variables: dict[int, Any] = {}
        # Graph tensors watched while a graph is built (a tape inside a
        # tfe_py.function): differentiated symbolically (_graph_gradient).
        self._graph_watched: list[Any] = []

    # -- lifetime ----------------------------------------------------------

    def _new_tape(self) -> None:
        from tfe_py.context import _state, default_context

        self._ctx = _state.ctx or default_context()
        with status() as s:
            # The C tape is always persistent: jacobian asks it once per
            # target element. Single use of a non-persistent tape is enforced
            # here (the C tape frees its records only after a whole backward
            # pass either way, so nothing is held longer).
            tape = lib.TFE_NewGradientTape(self._ctx.ptr, 1, s)
        self._tape = tape

    def _free(self) -> None:
        tape, self._tape = self._tape, ffi.NULL
        if tape:
            lib.TFE_DeleteGradientTape(tape)

    def __del__(self) -> None:
        self._free()

    def __enter__(self) -> GradientTape:
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to "
                             "re-enter an already-active tape.")
        if not self._tape:
            self._new_tape()
        else:
            with status() as s:
                lib.TFE_GradientTapeResumeRecording(self._tape, s)
        self._recording = True
        _tapes.active.append(self)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._recording:
            self._pause()

    def _pause(self) -> None:
        self._recording = False
        if self in _tapes.active:
            _tapes.active.remove(self)
        if self._tape:
            with status() as s:
                lib.TFE_GradientTapeStopRecording(self._tape, s)

    # -- watching ----------------------------------------------------------

    def _check_tape(self) -> None:
        if not self._tape:
            raise RuntimeError(
                "A non-persistent GradientTape can only be used to compute one set of "
                "gradients (or jacobians)"
                if self._used
                else "the tape has not been entered (use `with GradientTape() as tape:`)"
            )

    def _watch_variable(self, var: Any) -> None:
        if id(var) in self._variables or not self._tape:
            return
        self._variables[id(var)] = var
        with status() as s:
            lib.TFE_GradientTapeWatch(self._tape, var.handle._h, s)

    def watch(self, tensor: Any) -> None:
        """Watches a tensor, a variable, or every one in a nested structure."""
        from tfe_py.eager import EagerTensor
        from tfe_py.graph import GraphTensor
        from tfe_py.variables import Variable

        self._check_tape()
        for leaf in _flatten(tensor):
            if isinstance(leaf, Variable):
                self._watch_variable(leaf)
            elif isinstance(leaf, EagerTensor):
                with status() as s:
                    lib.TFE_GradientTapeWatch(self._tape, leaf._h, s)
            elif isinstance(leaf, GraphTensor):
                if not any(leaf is w for w in self._graph_watched):
                    self._graph_watched.append(leaf)
            else:
                raise ValueError(
                    f"Passed in object {leaf!r} of type {type(leaf).__name__!r}, not tf.Tensor "
                    "or tf.Variable or ExtensionType."
                )

    def watched_variables(self) -> tuple[Any, ...]:
        """The variables the tape watches, in the order they were watched."""
        return tuple(self._variables.values())

    @contextlib.contextmanager
    def stop_recording(self) -> Iterator[None]:
        """Ops run inside this block are not recorded."""
        if not self._recording:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._pause()
        try:
            yield
        finally:
            with status() as s:
                lib.TFE_GradientTapeResumeRecording(self._tape, s)
            self._recording = True
            _tapes.active.append(self)

    def reset(self) -> None:
        """Forgets everything recorded; keeps recording if it was."""
        recording = self._recording
        if recording:
            self._pause()
        self._free()
        self._variables.clear()
        self._used = False
        self._new_tape()
        if recording:
            self._recording = True
            _tapes.active.append(self)

    # -- gradients ---------------------------------------------------------

    def gradient(
        self,
        target: Any,
        sources: Any,
        output_gradients: Any = None,
        unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
    ) -> Any:
        """d(sum of targets)/d(source) for each source, in ``sources``'
        structure; None (or zeros) for sources the targets do not reach."""
        self._check_tape()
        mode = _mode(unconnected_gradients)
        if self._recording and not self._persistent:
            self._pause()
        if _building_graph(_flatten(target)):
            try:
                return self._graph_gradient(target, sources, output_gradients, mode)
            finally:
                self._done()
        flat_targets = _target_tensors(_flatten(target))
        flat_sources = _flatten(sources)
        seeds: list[Any] | None = None
        if output_gradients is not None:
            seeds = _flatten(output_gradients)
            if len(seeds) != len(flat_targets):
                raise ValueError(
                    f"output_gradients has {len(seeds)} tensors for {len(flat_targets)} "
                    "targets"
                )
        try:
            grads = self._gradient_flat(flat_targets, seeds, flat_sources, mode)
        finally:
            self._done()
        return _pack(sources, grads)

    def _graph_gradient(
        self, target: Any, sources: Any, output_gradients: Any, mode: UnconnectedGradients
    ) -> Any:
        """A tape used while a graph is built (inside a tfe_py.function):
        the symbolic gradients of the graph (tfe_py.gradients, i.e.
        TF_AddGradients) with respect to the watched sources; a source the
        tape does not watch gets None (or zeros), as in TF."""
        from tfe_py import graph as graph_mod
        from tfe_py.gradients_api import gradients
        from tfe_py.graph import GraphTensor
        from tfe_py.variables import Variable

        g = graph_mod.get_default_graph()
        assert g is not None
        targets = [t.read_value() if isinstance(t, Variable) else t for t in _flatten(target)]
        flat_sources = _flatten(sources)
        chosen: list[Any] = []
        where: list[int | None] = []
        for src in flat_sources:
            if isinstance(src, Variable):
                watched = id(src) in self._variables
                tensor = graph_mod._to_graph_tensor(g, src.handle, None, None)
            elif isinstance(src, GraphTensor):
                watched = any(src is w for w in self._graph_watched)
                tensor = src
            else:
                raise ValueError(
                    f"Passed in object {src!r} of type {type(src).__name__!r}, not tf.Tensor "
                    "or tf.Variable or ExtensionType."
                )
            where.append(len(chosen) if watched else None)
            if watched:
                chosen.append(tensor)
        seeds = None if output_gradients is None else _flatten(output_gradients)
        grads = gradients(targets, chosen, grad_ys=seeds, unconnected_gradients=mode.value)
        result = [None if k is None else grads[k] for k in where]
        if mode is UnconnectedGradients.ZERO:
            from tfe_py import ops

            with g.as_default():
                result = [
                    ops.ZerosLike(x=src.read_value() if isinstance(src, Variable) else src)
                    if r is None
                    else r
                    for src, r in zip(flat_sources, result, strict=True)
                ]
        return _pack(sources, result)

    def _done(self) -> None:
        """After a gradient or jacobian: a non-persistent tape is spent."""
        if not self._persistent:
            self._used = True
            self._free()

    def _gradient_flat(
        self,
        flat_targets: list[Any],
        seeds: list[Any] | None,
        flat_sources: list[Any],
        mode: UnconnectedGradients,
    ) -> list[Any]:
        """One backward pass on the C tape (which stays alive)."""
        from tfe_py.eager import EagerTensor
        from tfe_py.graph import convert_to_tensor
        from tfe_py.variables import Variable

        handles = []
        for src in flat_sources:
            if isinstance(src, Variable):
                handles.append(src.handle._h)
            elif isinstance(src, EagerTensor):
                handles.append(src._h)
            else:
                raise ValueError(
                    f"Passed in object {src!r} of type {type(src).__name__!r}, not tf.Tensor "
                    "or tf.Variable or ExtensionType."
                )
        c_seeds = ffi.NULL
        keep: list[Any] = []
        if seeds is not None:
            c_seeds = ffi.new("TFE_TensorHandle*[]", max(1, len(seeds)))
            for i, (g, t) in enumerate(zip(seeds, flat_targets, strict=True)):
                if g is not None:
                    gt = convert_to_tensor(g, t.dtype)
                    keep.append(gt)
                    c_seeds[i] = gt._h
        tgt = ffi.new("TFE_TensorHandle*[]", [t._h for t in flat_targets] or [ffi.NULL])
        src = ffi.new("TFE_TensorHandle*[]", handles or [ffi.NULL])
        out = ffi.new("TFE_TensorHandle*[]", max(1, len(handles)))
        code = lib.TFE_UNCONNECTED_ZERO if mode is UnconnectedGradients.ZERO else (
            lib.TFE_UNCONNECTED_NONE
        )
        _take_pending_error()  # a stale one from a call that did not come here
        try:
            with status() as s:
                lib.TFE_GradientTapeGradient(
                    self._tape, len(flat_targets), tgt, c_seeds, len(handles), src, code, out, s
                )
        except Exception as exc:
            pending = _take_pending_error()
            if pending is not None:
                # A custom gradient's grad_fn raised: that is the error.
                raise pending from None
            if "No gradient defined" in str(exc):
                raise LookupError(str(exc)) from exc
            raise
        return [
            None if out[i] == ffi.NULL else EagerTensor._wrap(out[i], self._ctx)
            for i in range(len(handles))
        ]

    # -- jacobians -----------------------------------------------------------

    def _start_jacobian(self) -> None:
        self._check_tape()
        if self._recording and not self._persistent:
            self._pause()

    def jacobian(
        self,
        target: Any,
        sources: Any,
        unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
        parallel_iterations: int | None = None,
        experimental_use_pfor: bool = True,
    ) -> Any:
        """d target[i...] / d source[j...] for each source: a tensor of shape
        ``target.shape + source.shape`` in ``sources``' structure (None, or
        zeros with ``unconnected_gradients="zero"``, for a source the target
        does not reach).

        tfe takes one backward pass per element of ``target`` (seeded with a
        one-hot ``output_gradients``) instead of TF's pfor vectorization;
        ``parallel_iterations`` and ``experimental_use_pfor`` are accepted
        for compatibility and change nothing. The values are TF's; ops run by
        the passes are recorded by other active tapes (Hessians).
        """
        del parallel_iterations, experimental_use_pfor
        self._start_jacobian()
        mode = _mode(unconnected_gradients)
        (tgt,) = _target_tensors([target])
        flat_sources = _flatten(sources)
        try:
            rows = self._rows(tgt, flat_sources, mode, batch=False)
        finally:
            self._done()
        return _pack(sources, rows)

    def batch_jacobian(
        self,
        target: Any,
        source: Any,
        unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
        parallel_iterations: int | None = None,
        experimental_use_pfor: bool = True,
    ) -> Any:
        """Per-example jacobians: ``target`` is [batch, ...] and ``source``
        [batch, ...], where example i of target depends only on example i of
        source; the result is [batch] + target.shape[1:] + source.shape[1:].
        One backward pass per element of one example of ``target`` (see
        ``jacobian``)."""
        from tfe_py.variables import Variable

        del parallel_iterations, experimental_use_pfor
        self._check_tape()
        mode = _mode(unconnected_gradients)
        (tgt,) = _target_tensors([target])
        src_shape = source.shape
        for shape in (tgt.shape, src_shape):
            if len(shape) < 2:
                raise ValueError(f"Shape {shape} must have rank at least 2")
        if tgt.shape[0] != src_shape[0]:
            raise ValueError(
                f"Need first dimension of target shape ({tgt.shape}) and source shape "
                f"({src_shape}) to match."
            )
        if not isinstance(source, Variable):
            _target_tensors([source])  # a tensor or a variable, as gradient wants
        self._start_jacobian()
        try:
            (result,) = self._rows(tgt, [source], mode, batch=True)
        finally:
            self._done()
        return result

    def _rows(
        self, tgt: Any, flat_sources: list[Any], mode: UnconnectedGradients, batch: bool
    ) -> list[Any]:
        """The jacobian of ``tgt`` for each source, from one seeded backward
        pass per element of ``tgt`` (per element of one example if batch)."""
        import numpy as np

        from tfe_py import ops
        from tfe_py.graph import convert_to_tensor

        in_graph = _building_graph([tgt])
        if in_graph and any(d is None for d in tgt.shape):
            raise NotImplementedError(
                "GradientTape.jacobian / batch_jacobian inside a tfe_py.function need a "
                f"target of fully known shape (got {tgt.shape})"
            )
        tshape = [int(d) for d in tgt.shape]
        np_dtype = tgt.dtype.as_numpy_dtype
        if batch:
            nb, n = tshape[0], int(np.prod(tshape[1:]))
        else:
            nb, n = 1, int(np.prod(tshape))
        per_source: list[list[Any]] = [[] for _ in flat_sources]
        for k in range(n):
            seed = np.zeros((nb, n), dtype=np_dtype)
            seed[:, k] = 1
            if in_graph:
                # One symbolic seeded gradient per element (TF builds a
                # pfor loop here; the values are the same).
                grads = self._graph_gradient(
                    [tgt], list(flat_sources), [seed.reshape(tshape)],
                    UnconnectedGradients.NONE,
                )
            else:
                grads = self._gradient_flat(
                    [tgt], [seed.reshape(tshape)], flat_sources, UnconnectedGradients.NONE
                )
            for j, g in enumerate(grads):
                per_source[j].append(g)
        out: list[Any] = []
        for src, grads in zip(flat_sources, per_source, strict=True):
            sshape = [int(d) for d in src.shape]
            if batch:
                shape = tshape + sshape[1:]
            else:
                shape = tshape + sshape
            if all(g is None for g in grads):
                if mode is UnconnectedGradients.NONE:
                    out.append(None)
                    continue
            src_dtype = src.dtype.base_dtype if hasattr(src.dtype, "base_dtype") else src.dtype
            if n == 0 or all(g is None for g in grads):
                out.append(convert_to_tensor(np.zeros(shape, src_dtype.as_numpy_dtype)))
                continue
            filled = [
                g if g is not None else ops.ZerosLike(src.read_value() if hasattr(
                    src, "read_value") else src)
                for g in grads
            ]
            # Pack along axis 1 for batch ([b, n, ...]), axis 0 otherwise.
            stacked = ops.Pack(filled, axis=1 if batch else 0)
            out.append(ops.Reshape(stacked, np.asarray(shape, np.int64)))
        return out
