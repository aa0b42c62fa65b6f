"""Property-based op fuzzer: every registered op, random inputs and attrs.

Three tests, all driven by the op registry itself (``tfe_py.ops.list_ops()``
and each op's definition), so a newly registered op is fuzzed without
touching this file:

* ``test_op_random[<op>]``: for every op, hypothesis draws input dtypes
  (within each type attr's allowed set), shapes, values (NaN, infinities and
  integer extremes included), list lengths and every attr (within and outside
  its allowed set and minimum) and runs the op once;
* ``test_op_chains``: random chains of ops, each op's inputs taken from
  the outputs of earlier ops when the dtype fits (resources, variants and
  refs included), else made fresh;
* ``test_extreme_int_attrs[<op>.<attr>=<value>]``: every int attr (and
  every list(int) attr) of every op set to 0, -1, INT32_MAX, 2**32,
  INT64_MAX (and INT64_MIN, and 2**64, which does not fit an int64), with
  plausible inputs of ranks 0, 1, 2 and 4.

Every run asserts: the process survives (a crash kills pytest; under ASan
a memory error aborts it), a failure is raised as a ``tfe_py.errors.OpError``
subclass, or as a TypeError/ValueError that the op wrapper raises before
dispatch and that names the op (never RuntimeError, struct.error, a bare
TypeError from cffi, MemoryError, ...), and after every example the live
object counts (TFE_LiveObjectCount) are back at their baseline.

Ops left out, each with the reason, are in ``EXCLUDED``; known defects
not fixed yet are ``xfail(strict=False)`` cases listed in ``KNOWN``.

Size knobs (environment):

* ``TFE_OP_FUZZ_EXAMPLES``: hypothesis examples per op (default 1; the
  ASan step of tools/test_all.sh uses 3);
* ``TFE_OP_FUZZ_CHAINS``: chain examples (default 10; CI's ASan step 40);
* ``TFE_OP_FUZZ_EXPECT_PKG=DIR``: fail unless tfe_py was imported from DIR
  (the ASan step runs a separate ASan build of the package);
* ``TFE_OP_FUZZ_RANDOM=1``: new random examples on every run (default:
  derandomized, so CI sees the same examples every time);
* ``TFE_OP_FUZZ_LOG=FILE``: appends every call to FILE before making it,
  so the last line names the call that killed the process.

Memory: int inputs sometimes hold extreme values and shape attrs extreme
dims, so an op may ask for an impossible amount of memory. That must end in
RESOURCE_EXHAUSTED, not in the machine swapping: outside ASan the address
space is capped (RLIMIT_AS) while an op runs; under ASan run with
``ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=2048``
(tools/test_all.sh does).
"""

from __future__ import annotations

import contextlib
import gc
import math
import os
import resource
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tfe_py
from tfe_py import _opgen, dtypes, ops
from tfe_py._ffi import lib
from tfe_py.eager import EagerTensor
from tfe_py.errors import OpError
from tfe_py.saved_model import registered_kernel_ops

INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
EXTREME_INTS = (0, -1, INT32_MAX, 2**32, INT64_MAX, INT64_MIN)
TOO_BIG_INT = 2**64  # does not fit an int64 attr
KINDS = ("STATUS", "TENSOR", "TENSOR_BUFFER", "BUFFER", "CONTEXT", "TENSOR_HANDLE", "OP",
         "REF_CELL")

# Ops not fuzzed, with the reason.
EXCLUDED: dict[str, str] = {
    name: "a collective waits for the other members of its group (blocking is its contract)"
    for name in ops.list_ops()
    if name.startswith("Collective")
}
# Abort's kernel ends the process on purpose, as TF's does; no call returns.
EXCLUDED["Abort"] = "its kernel ends the process by design (as TF's Abort kernel does)"
# Queue enqueues and dequeues wait while their queue is full or empty
# (blocking is their contract, and TF 2.21 refuses timeouts): a chain that
# made a queue (FIFO, padding, random shuffle or priority) and then dequeued
# from it would wait forever. tests/c/test_queues.c, tests/python/test_queues.py
# and tests/python/test_priority_queue_ops.py cover them.
EXCLUDED.update(
    {
        name: "blocks while its queue is empty or full (covered by the queue tests)"
        for name in ops.list_ops()
        if name.startswith(("QueueEnqueue", "QueueDequeue"))
    }
)
# Staging-area ops wait while their area is full (Stage) or holds no element
# to take (Unstage, StagePeek); only a run's cancellation ends the wait, and
# eager ops have none. tests/python/test_containers_ops.py covers them.
EXCLUDED.update(
    {
        name: "blocks while its staging area is full or empty (covered by the container-op tests)"
        for name in ("Stage", "Unstage", "StagePeek")
    }
)
# Staging maps wait for room (MapStage at capacity) or for a key to take;
# barrier and accumulator takes wait for enough ready elements / gradients
# (chains can make a real barrier or accumulator first); MutexLock waits
# while a lock of its mutex is alive. Only a run's
# cancellation ends such a wait, as in TF. tests/python/test_dataflow2_ops.py
# covers them.
EXCLUDED.update(
    {
        name: "blocks while its staging map, barrier or accumulator has nothing to take "
        "(covered by the dataflow2 op tests)"
        for name in (
            "MapStage", "MapUnstage", "MapPeek", "MapUnstageNoKey",
            "OrderedMapStage", "OrderedMapUnstage", "OrderedMapPeek", "OrderedMapUnstageNoKey",
            "BarrierTakeMany", "AccumulatorTakeGradient", "ResourceAccumulatorTakeGradient",
            "SparseAccumulatorTakeGradient", "MutexLock",
        )
    }
)
# TF 1 readers take their next work unit (file name) from a queue and wait
# like a dequeue while it is empty. tests/python/test_iosum_ops.py covers them.
EXCLUDED.update(
    {
        name: "waits for a work unit from an empty queue (covered by the iosum op tests)"
        for name in ("ReaderRead", "ReaderReadV2", "ReaderReadUpTo", "ReaderReadUpToV2")
    }
)
# Ops with a function attr without default (PartitionedCall, If, While,
# Case, ...) call a function of the context by name; random values cannot
# name one. tests/python/test_function.py and tests/c/test_functions*.c
# cover them, with TF's errors for a missing function.
EXCLUDED.update(
    {
        name: "needs a function registered in the context (covered by the function tests)"
        for name in ops.list_ops()
        if any(
            a.base == "func" and not a.has_default
            for a in ops.get_op(name).op_def.attrs  # type: ignore[attr-defined]
        )
    }
)

# Ops that create, rename or delete files named by their string inputs: the
# fuzzer's random strings ("0.5", "1.0", ...) are relative paths, so they
# would write checkpoint files into the working directory (MergeV2Checkpoints
# also renames data files and removes directories). The read-only file ops
# (ReadFile, MatchingFiles, RestoreV2, Restore, RestoreSlice, ImmutableConst)
# stay fuzzed. tests/c/test_checkpoint_ops.c and
# tests/python/test_checkpoint_ops.py cover these, in temporary directories.
EXCLUDED.update(
    {
        name: "writes, renames or deletes the files its random string inputs name "
        "(covered by the checkpoint-op tests, in temporary directories)"
        for name in ("SaveV2", "Save", "SaveSlices", "MergeV2Checkpoints", "WriteFile")
    }
)

# Known defects not fixed yet that fail cleanly-but-wrongly (wrong exception
# class, a leak): (op, attr, value or None) -> note; these cases are
# xfail(strict=False).
KNOWN: dict[tuple[str, str, int | None], str] = {}

# Known defects that kill the process, not fixed yet: op -> (predicate on
# the call's attrs, note). Such calls are not made (a crash would end the
# whole run); /work/issue13_findings.md has the reproducers.
# The predicate sees the call's keyword arguments (inputs and attrs).
# Entries that were here until fixed: DepthToSpace/SpaceToDepth with
# block_size >= 2**16 (SIGFPE, issue 13 defect 1; H1, 64a03f0) and
# Segment* with a segment id of INT64_MAX (UBSan signed overflow; H1,
# a7b5791).
CRASHERS: dict[str, tuple[Callable[[dict[str, Any]], bool], str]] = {}


def known_crash(op: str, kwargs: dict[str, Any]) -> str | None:
    entry = CRASHERS.get(op)
    if entry is not None and entry[0](kwargs):
        return entry[1]
    return None

ALL_OPS = ops.list_ops()
# Ops without a CPU kernel (most of TF's generated definitions: TPU, XLA,
# tf.data, ...) can only fail, with NOT_FOUND, once their attrs check out:
# test_kernel_less_ops_fail_cleanly runs each of them with plausible inputs
# and with random attrs; the random, chain and extreme-attr tests fuzz the
# ops that have a kernel (which keeps CI's time bounded).
CPU_KERNEL_OPS = registered_kernel_ops("CPU")
KERNEL_LESS_OPS = [n for n in ALL_OPS if n not in EXCLUDED and n not in CPU_KERNEL_OPS]
FUZZED_OPS = [n for n in ALL_OPS if n not in EXCLUDED and n in CPU_KERNEL_OPS]

RESOURCE = 20
VARIANT = 21
STRING = dtypes.from_name("string")
FLOAT = dtypes.from_name("float32")
INT32 = dtypes.from_name("int32")
INT64 = dtypes.from_name("int64")
# dtypes a tensor can be made of (numpy ones directly, the rest by Cast).
MAKEABLE = tuple(v for v in dtypes.ALL_DTYPES if v not in (RESOURCE, VARIANT))

N_EXAMPLES = int(os.environ.get("TFE_OP_FUZZ_EXAMPLES", "1"))
N_CHAINS = int(os.environ.get("TFE_OP_FUZZ_CHAINS", "10"))
DERANDOMIZE = os.environ.get("TFE_OP_FUZZ_RANDOM") != "1"
UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "") or "ASAN_OPTIONS" in os.environ

FUZZ_SETTINGS = settings(
    deadline=None,
    database=None,
    derandomize=DERANDOMIZE,
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)

_log_path = os.environ.get("TFE_OP_FUZZ_LOG")
_log = open(_log_path, "a", buffering=1, encoding="utf-8") if _log_path else None


def log(text: str) -> None:
    if _log is not None:
        _log.write(text + "\n")
        _log.flush()


# ---------------------------------------------------------------------------
# Checks shared by every test


def live_counts() -> dict[str, int]:
    return {k: int(lib.TFE_LiveObjectCount(getattr(lib, "TFE_OBJ_" + k))) for k in KINDS}


@contextlib.contextmanager
def memory_cap() -> Iterator[None]:
    """Caps the address space (outside ASan) so that huge requests fail."""
    if UNDER_ASAN:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm", encoding="ascii") as f:
        vm = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    cap = vm + (3 << 30)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def acceptable(op: str, exc: BaseException) -> bool:
    """Whether `exc` is a clean failure of op `op`."""
    if isinstance(exc, OpError):
        return True
    # numpy cannot describe an empty array whose other dims multiply past
    # its limit (e.g. shape [2**31-1, 2**31-1, 0]): .numpy() of such a valid
    # tensor raises numpy's own ValueError, as it does in TensorFlow.
    if type(exc) is ValueError and str(exc).startswith("array is too big"):
        return True
    # Argument checks the wrapper makes before dispatch, naming the op (TF's
    # Python layer raises TypeError/ValueError there too).
    if type(exc) in (TypeError, ValueError) and str(exc).startswith(f"{op}:"):
        return True
    return False


def run_clean(op: str, call: Callable[[], Any], what: str) -> Any:
    """Runs call() under the memory cap; returns its result or None if it
    failed cleanly; fails the test on any other exception."""
    log(what)
    try:
        with memory_cap():
            result = call()
    except Exception as exc:
        log(f"  -> {type(exc).__name__}: {str(exc)[:200]}")
        if not acceptable(op, exc):
            pytest.fail(f"{what}\nraised {type(exc).__module__}.{type(exc).__name__}: {exc}")
        return None
    log("  -> ok")
    return result


@contextlib.contextmanager
def counted(what: Callable[[], str]) -> Iterator[tfe_py.Context]:
    """A fresh context for one example; afterwards every live-object count
    must be back where it was."""
    before = live_counts()
    ctx = tfe_py.Context()
    with ctx.as_default():
        yield ctx
    ctx.close()
    del ctx
    after = live_counts()
    if after != before:
        # A full collection is slow (0.1 s): only when reference cycles
        # (e.g. an exception and its traceback) may still hold tensors.
        gc.collect()
        after = live_counts()
    # Fewer than before is fine: garbage of an earlier example was freed.
    grown = {k: after[k] - before[k] for k in KINDS if after[k] > before[k]}
    if grown:
        pytest.fail(f"{what()}\nlive objects not back at baseline: {grown}")


# ---------------------------------------------------------------------------
# Making tensors


def grammar_dtype(token: Any) -> int | None:
    if isinstance(token, int):
        return token
    return _opgen._grammar_dtype(str(token))


def allowed_dtypes(attr: _opgen.AttrDef | None) -> list[int]:
    if attr is None or not attr.allowed:
        return list(MAKEABLE)
    out = [d for d in (grammar_dtype(t) for t in attr.allowed) if d is not None]
    return out or list(MAKEABLE)


COMMON = tuple(dtypes.from_name(n) for n in (
    "float32", "float64", "int32", "int64", "float16", "bool", "string", "uint8",
    "complex64", "int8"))


def st_dtype(attr: _opgen.AttrDef | None) -> st.SearchStrategy[int]:
    """Mostly a common dtype the attr allows, sometimes any it allows."""
    allowed = allowed_dtypes(attr)
    common = [d for d in allowed if d in COMMON]
    if not common:
        return st.sampled_from(allowed)
    return st.one_of(st.sampled_from(common), st.sampled_from(common),
                     st.sampled_from(common), st.sampled_from(allowed))


def np_values(dtype: int, shape: tuple[int, ...], raw: list[float]) -> np.ndarray:
    """An array of `shape` for tf dtype `dtype` from raw numbers."""
    n = math.prod(shape)
    vals = (raw * (n // max(len(raw), 1) + 1))[:n] if raw else [0.0] * n
    if dtype == STRING:
        arr = np.array([str(v).encode() for v in vals], dtype=object)
        return arr.reshape(shape)
    npdt = dtypes.to_numpy_dtype(dtype)
    if npdt.kind in "iu":
        info = np.iinfo(npdt)
        ints = [0 if not math.isfinite(v) else int(v) for v in vals]
        return np.array([min(max(v, int(info.min)), int(info.max)) for v in ints],
                        dtype=npdt).reshape(shape)
    if npdt.kind == "b":
        return np.array([bool(v) for v in vals], dtype=npdt).reshape(shape)
    with np.errstate(all="ignore"):
        return np.array(vals, dtype=np.float64).astype(npdt).reshape(shape)


def make_tensor(dtype: int, shape: tuple[int, ...], raw: list[float]) -> EagerTensor | None:
    """A tensor of dtype/shape, or None when tfe cannot make that dtype."""
    try:
        if dtype == STRING or dtypes.is_numpy_compatible(dtype):
            return tfe_py.constant(np_values(dtype, shape, raw))
        src = tfe_py.constant(np_values(FLOAT, shape, raw))
        return ops.Cast(x=src, DstT=dtype)
    except (OpError, TypeError, ValueError):
        return None


def make_special(kind: str, ctx: tfe_py.Context) -> EagerTensor | None:
    """A resource, variant or ref tensor for ops that take one."""
    try:
        if kind == "resource":
            h = ops.VarHandleOp(dtype=FLOAT, shape=[2], shared_name="")
            ops.AssignVariableOp(resource=h, value=tfe_py.constant(np.ones(2, np.float32)))
            return h
        if kind == "variant":
            lst = ops.EmptyTensorList(element_shape=tfe_py.constant(np.int32(-1)),
                                      max_num_elements=tfe_py.constant(np.int32(-1)),
                                      element_dtype=FLOAT)
            return ops.TensorListPushBack(input_handle=lst,
                                          tensor=tfe_py.constant(np.ones(2, np.float32)))
        if kind == "ref":
            return ops.TemporaryVariable(shape=[2], dtype=FLOAT)
    except (OpError, TypeError, ValueError):
        return None
    return None


# ---------------------------------------------------------------------------
# Hypothesis strategies


def st_shape() -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple).filter(
        lambda s: math.prod(s) <= 64)


SPECIAL_FLOATS = (0.0, -0.0, 1.0, -1.0, float("nan"), float("inf"), float("-inf"), 1e30,
                  -1e30, 5e-324)
SMALL_INTS = st.integers(-3, 8)
ANY_INTS = st.one_of(SMALL_INTS, SMALL_INTS, SMALL_INTS, st.sampled_from(EXTREME_INTS),
                     st.integers(INT64_MIN, INT64_MAX))


def st_raw() -> st.SearchStrategy[list[float]]:
    num = st.one_of(SMALL_INTS.map(float), st.sampled_from(SPECIAL_FLOATS),
                    st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from(EXTREME_INTS).map(float))
    return st.lists(num, min_size=1, max_size=8)


def draw_attr(data: st.DataObject, attr: _opgen.AttrDef) -> Any:
    """A value for `attr`, mostly valid, sometimes not."""
    base = attr.base
    if attr.is_list:
        lo = attr.minimum or 0
        size = data.draw(st.one_of(st.integers(lo, lo + 4), st.integers(0, 6)))
        if base == "int":
            return data.draw(st.lists(ANY_INTS, min_size=size, max_size=size))
        if base == "float":
            return data.draw(st.lists(st.floats(), min_size=size, max_size=size))
        if base == "type":
            return data.draw(st.lists(st.sampled_from(allowed_dtypes(attr)),
                                      min_size=size, max_size=size))
        if base == "shape":
            return data.draw(st.lists(st_shape(), min_size=size, max_size=size))
        if base == "string":
            return data.draw(st.lists(st.text(max_size=5), min_size=size, max_size=size))
        return None
    if base == "int":
        lo = attr.minimum if attr.minimum is not None else -3
        return data.draw(st.one_of(st.integers(lo, lo + 6), ANY_INTS))
    if base == "float":
        return data.draw(st.one_of(st.sampled_from(SPECIAL_FLOATS), st.floats()))
    if base == "bool":
        return data.draw(st.booleans())
    if base == "string":
        if attr.allowed:
            return data.draw(st.one_of(st.sampled_from(list(attr.allowed)),
                                       st.sampled_from(list(attr.allowed)),
                                       st.text(max_size=6)))
        return data.draw(st.text(max_size=6))
    if base == "type":
        return data.draw(st_dtype(attr))
    if base == "shape":
        dims = st.one_of(st.integers(-1, 4), st.sampled_from(EXTREME_INTS))
        return tuple(data.draw(st.lists(dims, max_size=4)))
    if base == "tensor":
        return data.draw(st_raw())
    return None


def describe(t: Any) -> str:
    if isinstance(t, EagerTensor) and not t.closed:
        try:
            dt = dtypes.name(int(t.dtype))
            if dt in ("resource", "variant") or not dtypes.is_numpy_compatible(int(t.dtype)):
                return f"<{dt} {t.shape}>"
            return f"tfe_py.constant(np.array({t.numpy().tolist()!r}, {dt!r}))"
        except Exception:
            return "<tensor>"
    if isinstance(t, (list, tuple)):
        return "[" + ", ".join(describe(x) for x in t) + "]"
    return repr(t)


def call_text(op: str, inputs: dict[str, Any], attrs: dict[str, Any]) -> str:
    args = [f"{k}={describe(v)}" for k, v in inputs.items()]
    args += [f"{k}={v!r}" for k, v in attrs.items()]
    return f"ops.{op}({', '.join(args)})"


class Pool:
    """Tensors made so far in one example, by dtype (for chains)."""

    def __init__(self, ctx: tfe_py.Context) -> None:
        self.ctx = ctx
        self.by_dtype: dict[int, list[EagerTensor]] = {}
        self.refs: list[EagerTensor] = []
        self.keep: list[Any] = []

    def add(self, result: Any, ref_outputs: bool = False) -> None:
        items = result if isinstance(result, (list, tuple)) else [result]
        for t in items:
            if isinstance(t, (list, tuple)):
                self.add(t)
            elif isinstance(t, EagerTensor) and not t.closed:
                self.keep.append(t)
                try:
                    self.by_dtype.setdefault(int(t.dtype), []).append(t)
                except OpError:
                    pass

    def take(self, data: st.DataObject, dtype: int) -> EagerTensor | None:
        found = self.by_dtype.get(dtype)
        if found and data.draw(st.booleans()):
            return data.draw(st.sampled_from(found))
        return None

    def clear(self) -> None:
        self.by_dtype.clear()
        self.refs.clear()
        self.keep.clear()


def draw_call(data: st.DataObject, op: str, pool: Pool) -> tuple[dict[str, Any],
                                                                 dict[str, Any]] | None:
    """Inputs and attrs for one call of `op` (None if they cannot be made)."""
    d = _opgen.op_def(op)
    attrs: dict[str, Any] = {}
    # Explicit (non-inferred) attrs: drawn when they have no default, and
    # sometimes anyway.
    for a in d.attrs:
        if a.inferred:
            if data.draw(st.integers(0, 9)) == 0:  # sometimes contradict the inputs
                v = draw_attr(data, a)
                if v is not None:
                    attrs[a.py_name] = v
            continue
        if not a.has_default or data.draw(st.booleans()):
            v = draw_attr(data, a)
            if v is not None:
                attrs[a.py_name] = v
    chosen: dict[str, int] = {}  # type attr -> dtype
    inputs: dict[str, Any] = {}
    for arg in d.inputs:
        if arg.is_ref:
            t = pool.refs[0] if pool.refs else make_special("ref", pool.ctx)
            if t is None:
                return None
            pool.refs.append(t)
            inputs[arg.py_name] = t
            continue
        if arg.number_attr is not None:
            n = data.draw(st.integers(0, 4))
        elif arg.type_list_attr is not None:
            n = data.draw(st.integers(0, 3))
        else:
            n = -1
        items: list[Any] = []
        for _ in range(max(n, 1)):
            if arg.fixed_type is not None:
                dt = arg.fixed_type
            elif arg.type_attr is not None:
                if arg.type_attr not in chosen:
                    chosen[arg.type_attr] = data.draw(st_dtype(d.attr_map.get(arg.type_attr)))
                dt = chosen[arg.type_attr]
            else:
                dt = data.draw(st_dtype(None))
            t = pool.take(data, dt)
            if t is None:
                if dt == RESOURCE:
                    t = make_special("resource", pool.ctx)
                elif dt == VARIANT:
                    t = make_special("variant", pool.ctx)
                else:
                    t = make_tensor(dt, data.draw(st_shape()), data.draw(st_raw()))
                if t is None:
                    return None
                pool.add(t)
            items.append(t)
        inputs[arg.py_name] = items if n >= 0 else items[0]
    return inputs, attrs


def run_op(op: str, inputs: dict[str, Any], attrs: dict[str, Any]) -> Any:
    fn = ops.get_op(op)
    what = call_text(op, inputs, attrs)
    if known_crash(op, {**inputs, **attrs}) is not None:
        log("skipped (known crash): " + what)
        return None
    result = run_clean(op, lambda: fn(**inputs, **attrs), what)
    if result is not None:
        # Reading the outputs back must work too (or fail cleanly).
        for t in result if isinstance(result, (list, tuple)) else [result]:
            if isinstance(t, EagerTensor) and dtypes.is_numpy_compatible(int(t.dtype)):
                run_clean(op, t.numpy, what + ".numpy()")
    return result


# ---------------------------------------------------------------------------
# Tests


def test_package_under_test() -> None:
    want = os.environ.get("TFE_OP_FUZZ_EXPECT_PKG")
    if want:
        assert tfe_py.__file__.startswith(os.path.join(want, "")), tfe_py.__file__
        assert str(tfe_py.runtime_library_path()).startswith(os.path.join(want, ""))


def test_every_op_is_fuzzed_or_excluded_with_a_reason() -> None:
    assert len(ALL_OPS) > 300
    assert set(FUZZED_OPS) | set(KERNEL_LESS_OPS) | set(EXCLUDED) == set(ALL_OPS)
    assert all(EXCLUDED.values())


def test_kernel_less_ops_fail_cleanly() -> None:
    """Every op without a CPU kernel, with plausible inputs (rank 1) and then
    with every int attr at an extreme value: a clean failure each time, and
    NOT_FOUND ("Could not find device for node ...", as TF) when the call
    gets as far as the kernel lookup."""
    not_found = 0
    for op in KERNEL_LESS_OPS:
        with counted(lambda op=op: f"after a call of the kernel-less {op}") as ctx:
            call = plausible_call(op, 1, ctx)
            if call is None:
                continue
            inputs, attrs = call
            try:
                ops.get_op(op)(**inputs, **attrs)
            except OpError as e:
                # NOT_FOUND: no kernel, or an attr plausible_call cannot make.
                if str(e).startswith("Could not find device for node: "):
                    assert e.error_code == 5, (op, str(e))
                    not_found += 1
            except Exception as e:
                assert acceptable(op, e), (op, repr(e))
            for a in _opgen.op_def(op).attrs:
                if a.base == "int" and not a.is_list:
                    bad = dict(attrs)
                    bad[a.py_name] = INT64_MIN
                    run_op(op, inputs, bad)
            del call, inputs, attrs
    # Most of them reach the kernel lookup with plausible arguments.
    assert not_found * 2 > len(KERNEL_LESS_OPS), (not_found, len(KERNEL_LESS_OPS))


@pytest.mark.parametrize("op", FUZZED_OPS)
@settings(FUZZ_SETTINGS, max_examples=N_EXAMPLES)
@given(data=st.data())
def test_op_random(op: str, data: st.DataObject) -> None:
    with counted(lambda: f"after a random call of {op}") as ctx:
        pool = Pool(ctx)
        call = draw_call(data, op, pool)
        if call is not None:
            result = run_op(op, *call)
            del result
        pool.clear()
        del pool, call


@settings(FUZZ_SETTINGS, max_examples=N_CHAINS)
@given(data=st.data())
def test_op_chains(data: st.DataObject) -> None:
    chain = data.draw(st.lists(st.sampled_from(FUZZED_OPS), min_size=2, max_size=6))
    with counted(lambda: f"after the chain {chain}") as ctx:
        pool = Pool(ctx)
        for op in chain:
            call = draw_call(data, op, pool)
            if call is None:
                continue
            pool.add(run_op(op, *call))
            del call
        pool.clear()
        del pool


# -- extreme int attrs ------------------------------------------------------

PREFERRED = (FLOAT, INT32, INT64, dtypes.from_name("float64"), STRING,
             dtypes.from_name("bool"))


def plausible_dtype(attr: _opgen.AttrDef | None) -> int:
    allowed = allowed_dtypes(attr)
    for dt in PREFERRED:
        if dt in allowed:
            return dt
    return allowed[0]


def plausible_attr(attr: _opgen.AttrDef) -> Any:
    """A valid-looking value for a required attr."""
    base = attr.base
    if attr.is_list:
        n = max(attr.minimum or 0, 4 if base == "int" else 1)
        return {"int": [1] * n, "float": [1.0] * n, "type": [FLOAT] * n,
                "shape": [[2]] * n, "string": ["a"] * n}.get(base)
    if base == "int":
        return max(attr.minimum or 0, 2)
    return {"float": 1.0, "bool": False, "string": attr.allowed[0] if attr.allowed else "a",
            "type": plausible_dtype(attr), "shape": [2], "tensor": [1.0]}.get(base)


def plausible_call(op: str, rank: int, ctx: tfe_py.Context) -> tuple[dict[str, Any],
                                                                     dict[str, Any]] | None:
    d = _opgen.op_def(op)
    attrs = {a.py_name: plausible_attr(a) for a in d.attrs
             if not a.inferred and not a.has_default}
    shape = (2, 4, 4, 4)[:rank] if rank < 4 else (2, 4, 4, 4)
    inputs: dict[str, Any] = {}
    for arg in d.inputs:
        if arg.is_ref:
            t = make_special("ref", ctx)
            if t is None:
                return None
            inputs[arg.py_name] = t
            continue
        n = 2 if (arg.number_attr or arg.type_list_attr) else -1
        if arg.fixed_type is not None:
            dt = arg.fixed_type
        elif arg.type_attr is not None:
            dt = plausible_dtype(d.attr_map.get(arg.type_attr))
        else:
            dt = FLOAT
        items = []
        for _ in range(max(n, 1)):
            if dt == RESOURCE:
                t = make_special("resource", ctx)
            elif dt == VARIANT:
                t = make_special("variant", ctx)
            elif dt in (INT32, INT64):
                t = make_tensor(dt, shape if rank else (), [1.0])
            else:
                t = make_tensor(dt, shape if rank else (), [0.5, -1.0, 2.0, 3.0, 0.0])
            if t is None:
                return None
            items.append(t)
        inputs[arg.py_name] = items if n >= 0 else items[0]
    return inputs, attrs


def _int_attr_cases() -> list[Any]:
    cases = []
    for op in FUZZED_OPS:
        for a in _opgen.op_def(op).attrs:
            if a.base != "int":
                continue
            for v in (*EXTREME_INTS, TOO_BIG_INT):
                marks = []
                note = KNOWN.get((op, a.name, v)) or KNOWN.get((op, a.name, None))
                if note:
                    marks.append(pytest.mark.xfail(reason=note, strict=False))
                cases.append(pytest.param(op, a.name, v, marks=marks,
                                          id=f"{op}.{a.name}={v}"))
    return cases


@pytest.mark.parametrize(("op", "attr_name", "value"), _int_attr_cases())
def test_extreme_int_attrs(op: str, attr_name: str, value: int) -> None:
    d = _opgen.op_def(op)
    attr = d.attr_map[attr_name]
    lengths = [max(attr.minimum or 0, 4)] if attr.is_list else [-1]
    for rank in (4, 2, 1, 0):
        for n in lengths:
            with counted(lambda: f"after {op} {attr_name}={value}") as ctx:
                call = plausible_call(op, rank, ctx)
                if call is None:
                    continue
                inputs, attrs = call
                variants = ([[value] * n, [1] * (n - 1) + [value]] if attr.is_list
                            else [value])
                for v in variants:
                    a = dict(attrs)
                    a[attr.py_name] = v
                    result = run_op(op, inputs, a)
                    del result
                del call, inputs, attrs


if __name__ == "__main__":  # pragma: no cover - run directly for a quick look
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
