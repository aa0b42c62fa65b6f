"""Executors: where the ops of a thread run (``TFE_Executor*``).

A synchronous executor runs each op inside the call that executes it. An
asynchronous one queues the op and returns at once; its result is a pending
tensor whose value (and error) arrives when the op ran. Errors of queued ops
surface at the next synchronization point: reading a value
(``.numpy()``, ``float()``, ...), :meth:`Executor.wait`, ``Context.sync()``,
or the end of a ``with ctx.executor(...)`` block, as ``tfe_py.errors``
exceptions. See docs/ASYNC.md.

Every C call made here, like every call into the extension, releases the
GIL while it waits or computes, so other Python threads keep running.
"""

from __future__ import annotations

from types import TracebackType

from tfe_py import errors
from tfe_py._ffi import CData, ffi, lib
from tfe_py.errors import status

__all__ = ["DEFAULT_IN_FLIGHT_LIMIT", "Executor"]

#: Ops an asynchronous executor keeps in flight when no limit is given.
DEFAULT_IN_FLIGHT_LIMIT = 32


class Executor:
    """Owns one ``TFE_Executor*``.

    Args:
        async_: queue ops on a worker thread instead of running them in the
            calling thread.
        in_flight_limit: most ops queued or running at once (0: 32); a
            thread that executes an op while the queue is full waits.
    """

    def __init__(self, async_: bool = True, in_flight_limit: int = 0) -> None:
        self._ptr: CData = ffi.NULL
        if isinstance(in_flight_limit, bool) or int(in_flight_limit) < 0:
            raise ValueError(f"in_flight_limit must be >= 0, got {in_flight_limit!r}")
        ptr = lib.TFE_NewExecutor(bool(async_), True, int(in_flight_limit))
        if ptr == ffi.NULL:
            raise errors.out_of_memory("TFE_NewExecutor returned NULL")
        self._ptr = ptr

    @property
    def ptr(self) -> CData:
        if not self._ptr:
            raise ValueError("the executor is closed")
        return self._ptr

    @property
    def closed(self) -> bool:
        return not self._ptr

    @property
    def is_async(self) -> bool:
        return bool(lib.TFE_ExecutorIsAsync(self.ptr))

    def wait(self) -> None:
        """Waits until every op queued on the executor ran.

        Raises the first error of those ops (a ``tfe_py.errors.OpError``
        subclass); the executor then stays in error, and executing ops on it
        raises the same error, until :meth:`clear_error`.
        """
        ptr = self.ptr
        with status() as s:
            lib.TFE_ExecutorWaitForAllPendingNodes(ptr, s)

    def clear_error(self) -> None:
        """Leaves the error state so the executor accepts ops again."""
        lib.TFE_ExecutorClearError(self.ptr)

    def stats(self) -> dict[str, int]:
        """Queue counters (TFE_ExecutorGetStats): ``nodes_enqueued``,
        ``nodes_finished``, ``blocked_enqueues``, ``in_flight``,
        ``in_flight_high_water``, ``in_flight_limit``, ``is_async``."""
        st = ffi.new("TFE_ExecutorStats*")
        ptr = self.ptr
        with status() as s:
            lib.TFE_ExecutorGetStats(ptr, st, s)
        return {
            name: int(getattr(st, name))
            for name in (
                "nodes_enqueued",
                "nodes_finished",
                "blocked_enqueues",
                "in_flight",
                "in_flight_high_water",
                "in_flight_limit",
                "is_async",
            )
        }

    def close(self) -> None:
        """Waits for the queued ops (their errors stay on their tensors) and
        frees the executor. Safe to call more than once."""
        ptr, self._ptr = self._ptr, ffi.NULL
        if ptr:
            lib.TFE_DeleteExecutor(ptr)

    def __enter__(self) -> Executor:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing sensible left to do
            pass

    def __repr__(self) -> str:
        if not self._ptr:
            return "<tfe_py.Executor closed>"
        kind = "async" if self.is_async else "sync"
        return f"<tfe_py.Executor {kind}>"
