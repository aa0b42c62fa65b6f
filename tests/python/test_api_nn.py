"""tf.nn (tfe_py/nn.py) against TensorFlow 2.21's recorded results.

tests/data/api_nn_tf221.json holds, for each case expression of
tools/record_api_nn.py, what TF 2.21 returned (values, dtype, shape; tuples
part by part) or the error class it raised; each case runs here with
``import tfe_py as tf``. Values are compared to a few float32 ulps (most
agree to the bit: Softmax and the cross-entropy kernels follow TF's
evaluation order). Functions whose ops tfe lacks must raise
NotImplementedError naming the op.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import _api

_DATA_DIR = Path(__file__).resolve().parent.parent / "data"
DATA = json.loads((_DATA_DIR / "api_nn_tf221.json").read_text())
CASES: dict[str, Any] = DATA["cases"]

# Cases that need an op registered by another module or a later change:
# skipped (not failed) while the op is missing.
_NEEDS_OP = {
    "tf.nn.top_k": "TopKV2",
    "tf.nn.in_top_k": "InTopKV2",
}

# Cases whose float results may differ from TF's in the last bits (kernels
# that sum in another order than Eigen: convolutions, pooling, LRN).
_ULPS = 4


def _decode(v: Any) -> Any:
    if isinstance(v, list):
        return [_decode(x) for x in v]
    if isinstance(v, dict) and "re" in v:
        return complex(_decode(v["re"]), _decode(v["im"]))
    if v == "nan":
        return math.nan
    if v == "inf":
        return math.inf
    if v == "-inf":
        return -math.inf
    return v


def _check_tensor(got: Any, want: dict[str, Any], case: str) -> None:
    assert got.dtype.name == want["dtype"], (case, got.dtype.name, want["dtype"])
    arr = np.asarray(got.numpy())
    assert list(arr.shape) == want["shape"], (case, arr.shape)
    value = _decode(want["values"])
    if arr.dtype.kind == "c":
        exp = np.asarray(value, dtype=np.complex128).reshape(arr.shape)
        np.testing.assert_allclose(arr, exp, rtol=1e-6, err_msg=case)
    elif arr.dtype.kind == "f":
        exp = np.asarray(value, dtype=np.float64).reshape(arr.shape)
        if arr.dtype == np.float64:
            # tf.nn.gelu's float64 erfc in TF is accurate to about 1e-8 only
            rtol = 1e-7 if case.startswith("tf.nn.gelu") else 1e-13
            np.testing.assert_allclose(arr, exp, rtol=rtol, atol=1e-300, err_msg=case)
        else:
            exp = exp.astype(arr.dtype)
            with np.errstate(over="ignore"):
                ulp = np.spacing(np.maximum(np.abs(exp), np.finfo(arr.dtype).tiny))
            ulp = ulp.astype(np.float64)
            with np.errstate(invalid="ignore"):
                diff = np.abs(arr.astype(np.float64) - exp.astype(np.float64))
            # sums that cancel: allow an error relative to the largest value too
            finite = np.abs(exp[np.isfinite(exp)])
            scale = float(finite.max(initial=0.0))
            tol = _ULPS * ulp + 1e-6 * scale
            ok = (diff <= tol) | (arr == exp) | (np.isnan(arr) & np.isnan(exp))
            assert ok.all(), (case, arr, exp)
    else:
        np.testing.assert_array_equal(arr, np.asarray(value).reshape(arr.shape), err_msg=case)


def _check(got: Any, want: dict[str, Any], case: str) -> None:
    if "tuple" in want:
        parts = list(got)
        assert len(parts) == len(want["tuple"]), case
        for g, w in zip(parts, want["tuple"], strict=True):
            _check(g, w, case)
    else:
        _check_tensor(got, want, case)


@pytest.mark.parametrize("case", sorted(CASES))
def test_case(case: str) -> None:
    for prefix, op_name in _NEEDS_OP.items():
        if case.startswith(prefix) and not _api.has_op(op_name):
            pytest.skip(f"needs {op_name}")
    want = CASES[case]
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(case, {"tf": tf, "np": np})
        assert type(info.value).__name__ == want["error"], (case, info.value)
        return
    _check(eval(case, {"tf": tf, "np": np}), want, case)


def test_exact_softmax_and_xent() -> None:
    """Softmax, LogSoftmax and both cross entropies give TF's float32 bits."""
    exact = [
        c
        for c in CASES
        if c.startswith(
            (
                "tf.nn.softmax(",
                "tf.nn.log_softmax(",
                "tf.nn.softmax_cross_entropy",
                "tf.nn.sparse_softmax_cross",
            )
        )
    ]
    # 2-D inputs only: for softmax over another axis of a 3-D tensor TF's
    # exp goes through Eigen's tiled evaluation, which tfe does not mirror.
    exact = [
        c
        for c in exact
        if "error" not in CASES[c]
        and CASES[c].get("dtype") == "float32"
        and "reshape(3, 4, 5)" not in c
    ]
    assert len(exact) >= 8
    for case in exact:
        got = np.asarray(eval(case, {"tf": tf, "np": np}).numpy())
        want = np.asarray(_decode(CASES[case]["values"]), np.float32).reshape(got.shape)
        np.testing.assert_array_equal(got, want, err_msg=case)


def test_namespace_complete() -> None:
    """Every name of TF 2.21's tf.nn exists in tfe_py.nn."""
    names = json.loads((_DATA_DIR / "tf_api_names.json").read_text())["namespaces"]["nn"]
    missing = [n for n in names if not hasattr(tf.nn, n)]
    assert missing == []
    assert tf.space_to_batch is not None
    assert callable(tf.nn.experimental.stateless_dropout)
    assert callable(tf.nn.experimental.general_dropout)


@pytest.mark.parametrize(
    ("call", "op_name"),
    [
        ("tf.nn.ctc_greedy_decoder(np.zeros([1, 1, 2], np.float32), [1])", "CTCGreedyDecoder"),
        (
            "tf.nn.ctc_beam_search_decoder(np.zeros([1, 1, 2], np.float32), [1])",
            "CTCBeamSearchDecoder",
        ),
    ],
)
def test_missing_ops_raise(call: str, op_name: str) -> None:
    if _api.has_op(op_name):
        pytest.skip(f"{op_name} is registered")
    with pytest.raises(NotImplementedError, match=op_name):
        eval(call, {"tf": tf, "np": np})


_X5 = "np.ones([1, 2, 2, 2, 1], np.float32)"
_F5 = "np.ones([1, 1, 1, 1, 1], np.float32)"
_X4 = "np.ones([1, 2, 2, 1], np.float32)"
_F3 = "np.ones([1, 1, 1], np.float32)"
_F4 = "np.ones([1, 1, 1, 1], np.float32)"
_R4 = "np.ones([1, 4, 4, 1], np.float32), [1.0, 2.0, 2.0, 1.0]"


@pytest.mark.parametrize(
    ("call", "op_name"),
    [
        (f"tf.nn.conv3d({_X5}, {_F5}, [1] * 5, 'VALID')", "Conv3D"),
        (f"tf.nn.max_pool3d({_X5}, 1, 1, 'VALID')", "MaxPool3D"),
        (f"tf.nn.avg_pool3d({_X5}, 1, 1, 'VALID')", "AvgPool3D"),
        (f"tf.nn.conv3d_transpose({_X5}, {_F5}, [1, 2, 2, 2, 1], 1)", "Conv3DBackpropInputV2"),
        (f"tf.nn.dilation2d({_X4}, {_F3}, [1] * 4, 'VALID', 'NHWC', [1] * 4)", "Dilation2D"),
        (f"tf.nn.erosion2d({_X4}, {_F3}, [1] * 4, 'VALID', 'NHWC', [1] * 4)", "Dilation2D"),
        ("tf.nn.isotonic_regression(np.ones([2, 3], np.float32))", "IsotonicRegression"),
        (f"tf.nn.fractional_max_pool({_R4})", "FractionalMaxPool"),
        (f"tf.nn.fractional_avg_pool({_R4})", "FractionalAvgPool"),
        (
            f"tf.nn.depthwise_conv2d_backprop_input([1, 2, 2, 1], {_F4}, {_X4}, [1] * 4, 'VALID')",
            "DepthwiseConv2dNativeBackpropInput",
        ),
        (
            f"tf.nn.depthwise_conv2d_backprop_filter({_X4}, [1, 1, 1, 1], {_X4}, [1] * 4, 'VALID')",
            "DepthwiseConv2dNativeBackpropFilter",
        ),
        (
            "tf.nn.compute_accidental_hits(np.array([[1]], np.int64), np.array([1], np.int64), 1)",
            "ComputeAccidentalHits",
        ),
    ],
)
def test_ops_missing_or_working(call: str, op_name: str) -> None:
    """Functions over ops tfe may lack: NotImplementedError naming the op,
    or (once the op exists) a result."""
    if _api.has_op(op_name):
        assert eval(call, {"tf": tf, "np": np}) is not None
    else:
        with pytest.raises(NotImplementedError, match=op_name):
            eval(call, {"tf": tf, "np": np})


def test_ctc_loss_sparse_labels_unsupported() -> None:
    class FakeSparse:
        indices = dense_shape = values = None

    with pytest.raises(NotImplementedError, match="CTCLossV2"):
        tf.nn.ctc_loss(FakeSparse(), np.zeros([1, 1, 2], np.float32), None, [1], blank_index=0)


def test_sparse_embeddings_and_keras_wrappers_unsupported() -> None:
    with pytest.raises(NotImplementedError, match="SparseTensor"):
        tf.nn.embedding_lookup_sparse(None, None, None)
    with pytest.raises(NotImplementedError, match="SparseTensor"):
        tf.nn.safe_embedding_lookup_sparse(None, None)
    with pytest.raises(NotImplementedError, match="Keras"):
        tf.nn.RNNCellDropoutWrapper(None)


def test_dropout_rate_zero_returns_input() -> None:
    x = tf.constant([[1.0, 2.0]])
    if not hasattr(tf.random, "get_seed") and not hasattr(tf.random, "_get_seed"):
        with pytest.raises(NotImplementedError):
            tf.nn.dropout(x, rate=0.0)
        return
    assert tf.nn.dropout(x, rate=0.0) is x


def test_dropout_mask_scales_kept_values() -> None:
    if not hasattr(tf.random, "uniform"):
        pytest.skip("tfe_py.random.uniform not available")
    x = np.ones([50, 40], np.float32)
    y = tf.nn.dropout(x, rate=0.25, seed=3).numpy()
    kept = y[y != 0]
    np.testing.assert_allclose(kept, np.float32(1 / 0.75))
    assert 0.6 < kept.size / x.size < 0.9
    # noise_shape broadcasts one mask over the rows
    y2 = tf.nn.dropout(x, rate=0.5, noise_shape=[1, 40], seed=4).numpy()
    assert (y2 == y2[:1]).all()


def test_general_dropout_with_fixed_sampler() -> None:
    def sampler(shape: Any, dtype: Any) -> Any:
        return tf.constant(np.array([[0.1, 0.6, 0.4]], np.float32))

    y = tf.nn.experimental.general_dropout(np.ones([1, 3], np.float32), 0.5, sampler)
    np.testing.assert_array_equal(y.numpy(), [[0.0, 2.0, 0.0]])


def test_with_space_to_batch_runs_op_on_blocks() -> None:
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    seen: list[Any] = []

    def op(inp: Any, n: int, padding: str) -> Any:
        seen.append((tuple(inp.shape), n, padding))
        return inp

    out = tf.nn.with_space_to_batch(x, [2, 2], "VALID", op)
    np.testing.assert_array_equal(out.numpy(), x)
    assert seen == [((4, 2, 2, 1), 2, "VALID")]


def test_conv2d_in_tf_function() -> None:
    @tf.function
    def f(x: Any) -> Any:
        return tf.nn.relu(tf.nn.conv2d(x, np.ones([2, 2, 1, 1], np.float32), 1, "VALID"))

    x = tf.constant(np.arange(9, dtype=np.float32).reshape(1, 3, 3, 1) - 4)
    np.testing.assert_array_equal(f(x).numpy().reshape(2, 2), [[0.0, 0.0], [4.0, 8.0]])
