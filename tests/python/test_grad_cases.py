"""Table-driven gradient checks: every case of every group in
tests/data/grad_cases/<group>.json (written by tools/record_grad_cases.py
from tools/grad_cases/<group>.py, with TF 2.21's values).

For each case (one raw op; loss = sum_k sum(output_k * weight_k)):
- the tape's gradients equal TF's (None where TF gives none), and computing
  them leaves no tensor handle alive;
- the forward outputs equal TF's;
- the gradients TF_AddGradients builds in a graph, run in a session, equal TF's;
- where ``numeric`` is set, the tape's gradients equal float64 central
  differences of the loss (its real part when complex; float32 with a
  coarser step for ops TF has no float64 kernel for).
And every op with a registered gradient has a case (test_every_gradient_has_a_case).
"""

from __future__ import annotations

import gc
import glob
import json
import os
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import ops
from tfe_py._ffi import ffi, lib
from tfe_py.errors import check, status
from tfe_py.graph import GraphTensor

_DIR = os.path.join(os.path.dirname(__file__), "..", "data", "grad_cases")
_GROUPS: dict[str, list[dict[str, Any]]] = {}
for _path in sorted(glob.glob(os.path.join(_DIR, "*.json"))):
    with open(_path) as _f:
        _GROUPS[os.path.basename(_path)[:-5]] = json.load(_f)["cases"]
_CASES = [(g, cs) for g, cases in _GROUPS.items() for cs in cases]
_IDS = [f"{g}/{cs['name']}" for g, cs in _CASES]

Key = tuple[str, int | None]
_LOW = ("float16", "bfloat16")
_SINGLE = ("float32", "complex64")
_FLOATS = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")


def _decode(v: Any, dtype: str) -> np.ndarray:
    """tools/grad_cases/_common.py's encoding: nested lists, complex as
    {"re", "im"}; bfloat16 values are kept as float32."""
    if isinstance(v, dict):
        return (np.array(v["re"], np.float64) + 1j * np.array(v["im"], np.float64)).astype(dtype)
    return np.array(v, "float32" if dtype == "bfloat16" else dtype)


def _tol(cs: dict[str, Any]) -> tuple[float, float]:
    """(rtol, atol): tight for float64/complex128, looser for single and
    half precision, unless the case sets its own."""
    dts = {spec["dtype"] for spec in cs["inputs"].values() if spec["dtype"] in _FLOATS}
    dts |= {o["dtype"] for i, o in enumerate(cs["forward"]) if i in cs["outputs"]}
    if dts & set(_LOW):
        rtol, atol = 1e-2, 1e-2
    elif dts & set(_SINGLE):
        rtol, atol = 2e-5, 2e-5
    else:
        rtol, atol = 1e-10, 1e-12
    return cs.get("rtol", rtol), cs.get("atol", atol)


def _const(a: np.ndarray, dtype: str) -> Any:
    return tf.constant(a, dtype=dtype)


def _values(cs: dict[str, Any]) -> dict[Key, np.ndarray]:
    """Every input value by (name, list position)."""
    res: dict[Key, np.ndarray] = {}
    for name, spec in cs["inputs"].items():
        if spec.get("list"):
            for i, v in enumerate(spec["value"]):
                res[(name, i)] = _decode(v, spec["dtype"])
        else:
            res[(name, None)] = _decode(spec["value"], spec["dtype"])
    return res


def _watched_keys(cs: dict[str, Any]) -> list[Key]:
    keys: list[Key] = []
    for name, spec in cs["inputs"].items():
        if not spec["diff"]:
            continue
        if spec.get("list"):
            keys += [(name, i) for i in range(len(spec["value"]))]
        else:
            keys.append((name, None))
    return keys


def _kwargs(cs: dict[str, Any], tensors: dict[Key, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = dict(cs["attrs"])
    for name, spec in cs["inputs"].items():
        if spec.get("list"):
            kwargs[name] = [tensors[(name, i)] for i in range(len(spec["value"]))]
        else:
            kwargs[name] = tensors[(name, None)]
    return kwargs


def _flatten(out: Any) -> list[Any]:
    if isinstance(out, (list, tuple)):
        res: list[Any] = []
        for o in out:
            res += _flatten(o)
        return res
    return [out]


def _loss(cs: dict[str, Any], tensors: dict[Key, Any]) -> tuple[Any, list[Any]]:
    """The case's loss and the op's flattened outputs (eagerly or in the
    default graph, whichever is current)."""
    outs = _flatten(getattr(ops, cs["op"])(**_kwargs(cs, tensors)))
    total = None
    for k, w in zip(cs["outputs"], cs["weights"], strict=True):
        o = outs[k]
        wt = _const(_decode(w, cs["forward"][k]["dtype"]), cs["forward"][k]["dtype"])
        # the recorded weights' rank where a graph op's shape is unknown
        rank = len(o.shape) if o.shape.rank is not None else np.ndim(_decode(w, "complex128"))
        axes = tf.constant(np.arange(rank, dtype=np.int32))
        s = ops.Sum(ops.Mul(o, wt), axes)
        total = s if total is None else ops.AddV2(total, s)
    return total, outs


def _eager_tensors(cs: dict[str, Any], over: dict[Key, np.ndarray] | None = None
                   ) -> dict[Key, Any]:
    vals = {**_values(cs), **(over or {})}
    return {k: _const(a, _dtype(cs, k)) for k, a in vals.items()}


def _dtype(cs: dict[str, Any], key: Key) -> str:
    return str(cs["inputs"][key[0]]["dtype"])


def _tape_grads(cs: dict[str, Any]) -> dict[Key, np.ndarray | None]:
    tensors = _eager_tensors(cs)
    keys = _watched_keys(cs)
    with tf.GradientTape() as tape:
        tape.watch([tensors[k] for k in keys])
        loss, _ = _loss(cs, tensors)
    grads = tape.gradient(loss, [tensors[k] for k in keys],
                          unconnected_gradients=cs.get("unconnected", "none"))
    return {k: (None if g is None else np.asarray(g.numpy())) for k, g in zip(keys, grads,
                                                                              strict=True)}


def _tf_grads(cs: dict[str, Any]) -> dict[Key, np.ndarray | None]:
    res: dict[Key, np.ndarray | None] = {}
    for name, g in cs["grads"].items():
        spec = cs["inputs"][name]
        if spec.get("list"):
            for i, gi in enumerate(g):
                res[(name, i)] = None if gi is None else _decode(gi, spec["dtype"])
        else:
            res[(name, None)] = None if g is None else _decode(g, spec["dtype"])
    return res


def _compare(mine: dict[Key, np.ndarray | None], theirs: dict[Key, np.ndarray | None],
             cs: dict[str, Any], what: str) -> None:
    rtol, atol = _tol(cs)
    assert set(mine) == set(theirs), what
    for key, exp in theirs.items():
        got = mine[key]
        if exp is None:
            assert got is None, f"{what} {key}: TF gives no gradient"
            continue
        assert got is not None, f"{what} {key}: no gradient"
        assert got.shape == exp.shape, f"{what} {key}: shape {got.shape} != {exp.shape}"
        np.testing.assert_allclose(got, exp.astype(got.dtype), rtol=rtol, atol=atol,
                                   err_msg=f"{what} {key}")


@pytest.mark.parametrize("group_case", _CASES, ids=_IDS)
def test_tape_matches_tf(group_case: tuple[str, dict[str, Any]]) -> None:
    _, cs = group_case
    _compare(_tape_grads(cs), _tf_grads(cs), cs, "tape")


@pytest.mark.parametrize("group_case", _CASES, ids=_IDS)
def test_tape_leaves_nothing_alive(group_case: tuple[str, dict[str, Any]]) -> None:
    # TFE_OBJ_TENSOR_HANDLE and TFE_OBJ_TENSOR: a gradient function that
    # forgets to delete an intermediate shows up here
    _, cs = group_case
    _tape_grads(cs)  # the first run may fill caches
    gc.collect(1)  # what a run creates is young: no full (slow) collection
    before = (lib.TFE_LiveObjectCount(6), lib.TFE_LiveObjectCount(1))
    _tape_grads(cs)
    gc.collect(1)
    assert (lib.TFE_LiveObjectCount(6), lib.TFE_LiveObjectCount(1)) == before


@pytest.mark.parametrize("group_case", _CASES, ids=_IDS)
def test_forward_matches_tf(group_case: tuple[str, dict[str, Any]]) -> None:
    _, cs = group_case
    rtol, atol = _tol(cs)
    outs = _flatten(getattr(ops, cs["op"])(**_kwargs(cs, _eager_tensors(cs))))
    assert len(outs) == len(cs["forward"])
    compared = cs.get("forward_outputs", range(len(outs)))
    for i, (o, rec) in enumerate(zip(outs, cs["forward"], strict=True)):
        if rec["value"] is None or i not in compared:
            continue
        exp = _decode(rec["value"], rec["dtype"])
        got = np.asarray(o.numpy())
        assert got.shape == exp.shape, f"output {i}"
        if exp.dtype.kind in "fc":
            np.testing.assert_allclose(got, exp.astype(got.dtype), rtol=rtol, atol=atol,
                                       err_msg=f"output {i}")
        else:
            np.testing.assert_array_equal(got, exp, err_msg=f"output {i}")


_GRAPH = [(g, cs) for g, cs in _CASES if cs.get("graph", True)]


def _graph_grads(cs: dict[str, Any], keys: list[Key]) -> dict[Key, np.ndarray | None]:
    """TF_AddGradients of the case's loss with respect to `keys` (fed
    through placeholders), run in a session."""
    vals = _values(cs)
    with tf.Graph() as g:
        tensors: dict[Key, Any] = {}
        for k, a in vals.items():
            if k in keys:
                tensors[k] = tf.placeholder(_dtype(cs, k), shape=a.shape)
            else:
                tensors[k] = _const(a, _dtype(cs, k))
        loss, _ = _loss(cs, tensors)
        ys = ffi.new("TF_Output[]", 1)
        ys[0].oper = loss.op._ptr
        ys[0].index = loss.value_index
        xs = ffi.new("TF_Output[]", max(len(keys), 1))
        for i, k in enumerate(keys):
            xs[i].oper = tensors[k].op._ptr
            xs[i].index = tensors[k].value_index
        dys = ffi.new("TF_Output[]", max(len(keys), 1))
        with status() as s:
            lib.TF_AddGradients(g.ptr, ys, 1, xs, len(keys), ffi.NULL, s, dys)
            check(s)
        fetch: list[GraphTensor | None] = []
        for i in range(len(keys)):
            if dys[i].oper == ffi.NULL:
                fetch.append(None)
            else:
                fetch.append(GraphTensor(g._wrap_op(dys[i].oper), dys[i].index))
    wanted = [t for t in fetch if t is not None]
    sess = tf.Session(graph=g)
    try:
        got = sess.run(wanted, feed_dict={tensors[k]: vals[k] for k in keys}) if wanted else []
    finally:
        sess.close()
    it = iter(got)
    return {k: (None if t is None else np.asarray(next(it))) for k, t in zip(keys, fetch,
                                                                           strict=True)}


@pytest.mark.parametrize("group_case", _GRAPH, ids=[f"{g}/{cs['name']}" for g, cs in _GRAPH])
def test_graph_gradients_match_tf(group_case: tuple[str, dict[str, Any]]) -> None:
    _, cs = group_case
    theirs = {k: v for k, v in _tf_grads(cs).items() if v is not None}
    if not theirs:
        pytest.skip("TF gives no gradient to any input")
    keys = list(theirs)
    mine = _graph_grads(cs, keys)
    if cs.get("unconnected") == "zero":
        # a graph has no unconnected_gradients mode: NoGradient means zero
        mine = {k: (np.zeros_like(theirs[k]) if v is None else v) for k, v in mine.items()}
    _compare(mine, dict(theirs), cs, "graph")


_NUMERIC = [(g, cs) for g, cs in _CASES if cs["numeric"]]


@pytest.mark.parametrize("group_case", _NUMERIC, ids=[f"{g}/{cs['name']}" for g, cs in _NUMERIC])
def test_central_differences(group_case: tuple[str, dict[str, Any]]) -> None:
    _, cs = group_case
    mine = _tape_grads(cs)
    theirs = _tf_grads(cs)
    base = _values(cs)
    checked = [k for k in _watched_keys(cs)
               if _dtype(cs, k) in ("float64", "float32") and theirs.get(k) is not None]
    assert checked, "a numeric case needs a float64 (or float32) input with a gradient"
    # float32 only for ops without a float64 kernel in TF (LRN), coarser
    f32 = any(_dtype(cs, k) == "float32" for k in checked)
    eps, rtol, atol = (1e-2, 2e-2, 2e-3) if f32 else (1e-6, 1e-5, 1e-6)

    def value(over: dict[Key, np.ndarray]) -> float:
        loss, _ = _loss(cs, _eager_tensors(cs, over))
        return float(np.real(loss.numpy()))

    for key in checked:
        a = base[key]
        g = mine[key]
        assert g is not None, f"{key} got no gradient"
        for idx in np.ndindex(a.shape):
            plus, minus = a.copy(), a.copy()
            plus[idx] += eps
            minus[idx] -= eps
            num = (value({key: plus}) - value({key: minus})) / (2 * eps)
            assert g[idx] == pytest.approx(num, rel=rtol, abs=atol), (key, idx)


# Ops with a registered gradient that no case here can exercise, and why.
_NO_CASE = {
    # raw ops on resource handles: gradients checked with variables in
    # test_gradients_array_nn.py and test_gradient_tape.py
    "ReadVariableOp": "reads a resource variable (no plain tensor input)",
    "ResourceGather": "gathers from a resource variable (no plain tensor input)",
    "ResourceGatherNd": "gathers from a resource variable (test_more18_ops.py)",
    # its gradient is an error by design (test_gradients_array_nn.py)
    "PreventGradient": "the gradient function fails on purpose",
    # TF's gradient function reads the graph op's name and fails in eager mode,
    # so none can be recorded (test_grad_more.py checks tfe's identity gradient)
    "DebugGradientIdentity": "TF's gradient fails in eager mode",
    # stateful sampler: every run draws new samples (test_image_grad_kernels.py)
    "RandomGamma": "stateful: repeated runs draw different samples",
    # function calls and functional control flow take function attrs, not
    # plain inputs (tests/c/test_grad_func.c, test_gradients_function.py)
    "PartitionedCall": "calls a function (attr f)",
    "StatefulPartitionedCall": "calls a function (attr f)",
    "If": "runs a branch function",
    "StatelessIf": "runs a branch function",
    "Case": "runs a branch function",
    "StatelessCase": "runs a branch function",
    "While": "runs cond/body functions",
    "StatelessWhile": "runs cond/body functions",
    # variant TensorList / Optional handles cannot be case inputs or a loss
    # (programs through them: test_gradients_function.py)
    "TensorListPushBack": "takes/returns a variant list",
    "TensorListPopBack": "takes/returns a variant list",
    "TensorListStack": "takes a variant list",
    "TensorListFromTensor": "returns a variant list",
    "TensorListGetItem": "takes a variant list",
    "TensorListSetItem": "takes/returns a variant list",
    "TensorListGather": "takes a variant list",
    "TensorListScatter": "returns a variant list",
    "TensorListScatterV2": "returns a variant list",
    "TensorListScatterIntoExistingList": "takes/returns a variant list",
    "TensorListResize": "takes/returns a variant list",
    "OptionalFromValue": "returns a variant optional",
    "OptionalGetValue": "takes a variant optional",
    "TensorArrayReadV3": "reads a TensorArray resource (test_gradients_function.py)",
    "TensorArrayGatherV3": "reads a TensorArray resource (test_gradients_function.py)",
    "TensorArrayWriteV3": "writes a TensorArray resource (test_gradients_function.py)",
    "TensorArrayScatterV3": "writes a TensorArray resource (test_gradients_function.py)",
    # grad_more2.c: variant lists / TensorArray resources (programs in
    # test_grad_more2.py), gradients TF registers only to raise, and TopK v1,
    # whose kernel refuses to run in TF 2.21 as in tfe (graph check there)
    "TensorListConcat": "takes a variant list (test_grad_more2.py)",
    "TensorListConcatV2": "takes a variant list (test_grad_more2.py)",
    "TensorListSplit": "returns a variant list (test_grad_more2.py)",
    "TensorArrayConcatV3": "reads a TensorArray resource (test_grad_more2.py)",
    "TensorArraySplitV3": "writes a TensorArray resource (test_grad_more2.py)",
    "SparseDenseCwiseAdd": "TF's gradient only raises NotImplementedError (test_grad_more2.py)",
    "SparseSparseMaximum": "TF's gradient only raises (test_grad_more2.py)",
    "SparseSparseMinimum": "TF's gradient only raises (test_grad_more2.py)",
    "TopK": "TF 2.21's TopK (v1) kernel refuses to run (graph check in test_grad_more2.py)",
    # grad_more3.c: TF 2.21's registered gradient runs the other gate
    # layout's kernel (not the derivative); tfe's is checked against TF's
    # BlockLSTMGradV2 and central differences in test_grad_more3.py
    "BlockLSTMV2": "TF's recorded tape gradient is wrong (test_grad_more3.py)",
    # grad_more4.c: a Ref(T) input (a TF1 reference variable; eager and graph
    # checks in test_grad_more4.py), and a gradient TF registers that always
    # fails (its error checked in test_grad_more4.py)
    "RefIdentity": "takes a reference (Ref(T)) input (test_grad_more4.py)",
    "QuantizeAndDequantizeV4Grad": "TF's registered gradient always fails (test_grad_more4.py)",
}


def _registered_ops() -> list[str]:
    path = os.path.join(os.path.dirname(tf.__file__), "tf_op_names.txt")
    with open(path) as f:
        names = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    return [n for n in names if lib.TFE_GradientRegistryLookup(n.encode()) == 1]


def test_every_gradient_has_a_case() -> None:
    covered = {cs["op"] for _, cs in _CASES}
    registered = _registered_ops()
    missing = sorted(set(registered) - covered - set(_NO_CASE))
    assert not missing, f"ops with a gradient but no case in tests/data/grad_cases: {missing}"
    stale = sorted(op for op in _NO_CASE if op in covered or op not in registered)
    assert not stale, f"allowlisted ops that have a case or no gradient: {stale}"


def test_case_names_are_unique_within_a_group() -> None:
    for g, cases in _GROUPS.items():
        names = [cs["name"] for cs in cases]
        assert len(names) == len(set(names)), g
