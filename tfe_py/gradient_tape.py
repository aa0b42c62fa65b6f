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


_tapes = _Tapes()


def _variable_accessed(var: Any) -> None:
    """Called by Variable.read_value: tapes recording in this thread that
    watch accessed variables start watching a trainable one."""
    if not var.trainable:
        return
    for tape in _tapes.active:
        if tape._watch_accessed_variables and tape._recording:
            tape._watch_variable(var)


def _flatten(structure: Any) -> list[Any]:
    from tfe_py import nest

    return list(nest.flatten(structure))


def _pack(structure: Any, flat: list[Any]) -> Any:
    from tfe_py import nest

    return nest.pack_sequence_as(structure, flat)


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

    # -- lifetime ----------------------------------------------------------

    def _new_tape(self) -> None:
        from tfe_py.context import _state, default_context

        self._ctx = _state.ctx or default_context()
        with status() as s:
            tape = lib.TFE_NewGradientTape(self._ctx.ptr, 1 if self._persistent else 0, s)
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
        from tfe_py.variables import Variable

        self._check_tape()
        for leaf in _flatten(tensor):
            if isinstance(leaf, Variable):
                self._watch_variable(leaf)
            elif isinstance(leaf, EagerTensor):
                with status() as s:
                    lib.TFE_GradientTapeWatch(self._tape, leaf._h, s)
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
        from tfe_py.eager import EagerTensor
        from tfe_py.graph import convert_to_tensor
        from tfe_py.variables import Variable

        self._check_tape()
        mode = UnconnectedGradients(
            unconnected_gradients.value
            if isinstance(unconnected_gradients, UnconnectedGradients)
            else unconnected_gradients
        )
        if self._recording and not self._persistent:
            self._pause()
        flat_targets = [
            t.read_value() if isinstance(t, Variable) else t for t in _flatten(target)
        ]
        for t in flat_targets:
            if not isinstance(t, EagerTensor):
                raise ValueError(
                    f"Target {t!r} of type {type(t).__name__} is not a tensor: gradients are "
                    "taken of tensors computed while the tape recorded."
                )
        flat_sources = _flatten(sources)
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
        seeds = ffi.NULL
        keep: list[Any] = []
        if output_gradients is not None:
            flat_out = _flatten(output_gradients)
            if len(flat_out) != len(flat_targets):
                raise ValueError(
                    f"output_gradients has {len(flat_out)} tensors for {len(flat_targets)} "
                    "targets"
                )
            seeds = ffi.new("TFE_TensorHandle*[]", max(1, len(flat_out)))
            for i, (g, t) in enumerate(zip(flat_out, flat_targets, strict=True)):
                if g is not None:
                    gt = convert_to_tensor(g, t.dtype)
                    keep.append(gt)
                    seeds[i] = gt._h
        tgt = ffi.new("TFE_TensorHandle*[]", [t._h for t in flat_targets] or [ffi.NULL])
        src = ffi.new("TFE_TensorHandle*[]", handles or [ffi.NULL])
        out = ffi.new("TFE_TensorHandle*[]", max(1, len(handles)))
        code = lib.TFE_UNCONNECTED_ZERO if mode is UnconnectedGradients.ZERO else (
            lib.TFE_UNCONNECTED_NONE
        )
        try:
            with status() as s:
                lib.TFE_GradientTapeGradient(
                    self._tape, len(flat_targets), tgt, seeds, len(handles), src, code, out, s
                )
        except Exception as exc:
            if "No gradient defined" in str(exc):
                raise LookupError(str(exc)) from exc
            raise
        finally:
            if not self._persistent:
                self._used = True
                self._free()
        grads = [
            None if out[i] == ffi.NULL else EagerTensor._wrap(out[i], self._ctx)
            for i in range(len(handles))
        ]
        return _pack(sources, grads)
