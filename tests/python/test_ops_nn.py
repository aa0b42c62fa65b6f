"""NN, random, string and resource-variable ops through tfe_py.ops (eager
dispatch end to end) against numpy references and TF-recorded values."""

from __future__ import annotations

import numpy as np
import pytest

from tfe_py import errors, ops
from tfe_py.context import default_context
from tfe_py.eager import constant


@pytest.fixture(autouse=True)
def _default_exists() -> None:
    default_context()


def _out_size(n: int, k: int, s: int, d: int, padding: str) -> tuple[int, int]:
    eff = (k - 1) * d + 1
    if padding == "VALID":
        return (n - eff + s) // s, 0
    out = (n + s - 1) // s
    return out, max((out - 1) * s + eff - n, 0) // 2


def conv_ref(
    x: np.ndarray, w: np.ndarray, stride: tuple[int, int], dil: tuple[int, int], padding: str
) -> np.ndarray:
    """Direct NHWC convolution in float64."""
    n, h, wd, c = x.shape
    kh, kw, _, co = w.shape
    oh, pt = _out_size(h, kh, stride[0], dil[0], padding)
    ow, pl = _out_size(wd, kw, stride[1], dil[1], padding)
    xp = np.zeros(
        (n, h + 2 * kh * dil[0] + oh * stride[0], wd + 2 * kw * dil[1] + ow * stride[1], c)
    )
    xp[:, pt + 0 : pt + h, pl : pl + wd, :] = x
    out = np.zeros((n, oh, ow, co))
    for i in range(kh):
        for j in range(kw):
            ys = i * dil[0]
            xs = j * dil[1]
            patch = xp[
                :, ys : ys + oh * stride[0] : stride[0], xs : xs + ow * stride[1] : stride[1], :
            ]
            out += np.einsum("nhwc,cd->nhwd", patch[:, :oh, :ow, :], w[i, j].astype(np.float64))
    return out


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize(
    "stride,dil", [((1, 1), (1, 1)), ((2, 2), (1, 1)), ((1, 1), (2, 2)), ((2, 1), (1, 1))]
)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_conv2d_against_numpy(
    padding: str, stride: tuple[int, int], dil: tuple[int, int], dtype: type
) -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 9, 8, 3)).astype(dtype)
    w = rng.standard_normal((3, 3, 3, 5)).astype(dtype)
    y = ops.Conv2D(
        constant(x),
        constant(w),
        strides=[1, stride[0], stride[1], 1],
        padding=padding,
        dilations=[1, dil[0], dil[1], 1],
    ).numpy()
    want = conv_ref(x.astype(np.float64), w.astype(np.float64), stride, dil, padding)
    assert y.dtype == dtype
    np.testing.assert_allclose(y, want, rtol=1e-4 if dtype == np.float32 else 1e-10, atol=1e-4)


def test_conv2d_nchw_is_unimplemented_on_cpu() -> None:
    x = constant(np.ones((1, 4, 4, 2), np.float32))
    w = constant(np.ones((3, 3, 2, 3), np.float32))
    with pytest.raises(errors.UnimplementedError, match="only supports the NHWC tensor format"):
        ops.Conv2D(x, w, strides=[1, 1, 1, 1], padding="SAME", data_format="NCHW")


def test_pooling_against_numpy() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 6, 6, 3)).astype(np.float32)
    y = ops.MaxPool(constant(x), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID").numpy()
    want = x.reshape(2, 3, 2, 3, 2, 3).max(axis=(2, 4))
    np.testing.assert_array_equal(y, want)
    y = ops.AvgPool(constant(x), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID").numpy()
    np.testing.assert_allclose(y, x.reshape(2, 3, 2, 3, 2, 3).mean(axis=(2, 4)), rtol=1e-6)


@pytest.mark.parametrize("name", ["FusedBatchNorm", "FusedBatchNormV2"])
def test_fused_batch_norm_v1_v2_inference_recorded_from_tf(name: str) -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 2, 3, 2)
    op = getattr(ops, name)
    y, mean, var, _, _ = op(
        constant(x),
        constant(np.array([1, 2], np.float32)),
        constant(np.array([0.5, 0], np.float32)),
        constant(np.array([1, 2], np.float32)),
        constant(np.array([3, 4], np.float32)),
        is_training=False,
    )
    # First values of TF 2.21's outputs for the same inputs.
    np.testing.assert_allclose(
        y.numpy().ravel()[:4],
        [-0.07734066247940063, -0.9999874830245972, 1.0773406028747559, 0.9999874830245972],
        rtol=1e-6,
    )
    np.testing.assert_array_equal(mean.numpy(), [1, 2])
    np.testing.assert_array_equal(var.numpy(), [3, 4])


def test_fused_batch_norm_training_against_numpy() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 5, 5, 3)).astype(np.float32)
    scale = np.array([1.0, 2.0, 0.5], np.float32)
    offset = np.array([0.0, 1.0, -1.0], np.float32)
    empty = np.zeros((0,), np.float32)
    y, mean, var, r1, r2, _ = ops.FusedBatchNormV3(
        constant(x),
        constant(scale),
        constant(offset),
        constant(empty),
        constant(empty),
        epsilon=0.001,
        is_training=True,
    )
    m = x.mean(axis=(0, 1, 2))
    v = x.var(axis=(0, 1, 2))
    np.testing.assert_allclose(
        y.numpy(), (x - m) / np.sqrt(v + 0.001) * scale + offset, rtol=1e-4, atol=1e-5
    )
    np.testing.assert_allclose(mean.numpy(), m, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var.numpy(), v * 100 / 99, rtol=1e-5)
    np.testing.assert_allclose(r1.numpy(), m, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r2.numpy(), v, rtol=1e-5)


def test_softmax_cross_entropy_against_numpy() -> None:
    rng = np.random.default_rng(3)
    logits = rng.standard_normal((5, 7)).astype(np.float64)
    labels = rng.integers(0, 7, 5)
    loss, grad = ops.SparseSoftmaxCrossEntropyWithLogits(constant(logits), constant(labels))
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    np.testing.assert_allclose(loss.numpy(), -np.log(p[np.arange(5), labels]), rtol=1e-12)
    onehot = np.eye(7)[labels]
    np.testing.assert_allclose(grad.numpy(), p - onehot, rtol=1e-12, atol=1e-15)
    loss, grad = ops.SoftmaxCrossEntropyWithLogits(constant(logits), constant(onehot))
    np.testing.assert_allclose(loss.numpy(), -np.log(p[np.arange(5), labels]), rtol=1e-12)
    with pytest.raises(errors.InvalidArgumentError, match="outside the valid range"):
        ops.SparseSoftmaxCrossEntropyWithLogits(constant(logits), constant(np.full(5, 9)))


def test_resize_against_numpy() -> None:
    img = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    y = ops.ResizeBilinear(
        constant(img), constant(np.array([7, 7], np.int32)), align_corners=True
    ).numpy()
    grid = np.linspace(0, 3, 7)
    want = grid[:, None] * 4 + grid[None, :]
    np.testing.assert_allclose(y[0, :, :, 0], want, rtol=1e-6, atol=1e-6)
    y = ops.ResizeNearestNeighbor(constant(img), constant(np.array([8, 8], np.int32))).numpy()
    np.testing.assert_array_equal(y[0, :, :, 0], img[0, :, :, 0].repeat(2, 0).repeat(2, 1))


def test_stateless_random_matches_tensorflow_and_stateful_is_seeded() -> None:
    key = constant(np.array([12345], np.uint64))
    counter = constant(np.array([7, 9], np.uint64))
    alg = constant(np.int32(1))
    y = ops.StatelessRandomUniformV2(constant(np.array([4], np.int32)), key, counter, alg).numpy()
    np.testing.assert_allclose(
        y,
        [0.8590912818908691, 0.940301775932312, 0.5494134426116943, 0.958128809928894],
        rtol=0,
        atol=0,
    )
    a = ops.RandomStandardNormal(
        constant(np.array([6], np.int32)), dtype=np.float32, seed=1, seed2=2
    )
    np.testing.assert_allclose(
        a.numpy()[:3], [-1.0467792749404907, 0.8397045731544495, 1.235836386680603], rtol=1e-6
    )
    big = ops.StatelessRandomNormalV2(
        constant(np.array([100000], np.int32)), key, counter, alg
    ).numpy()
    assert abs(big.mean()) < 0.02 and abs(big.std() - 1) < 0.02


def test_string_ops() -> None:
    s = constant(np.array([b"hello", b"world"]))
    joined = ops.StringJoin([s, constant(np.array([b"!", b"?"]))], separator=" ")
    assert list(joined.numpy()) == [b"hello !", b"world ?"]
    assert list(ops.StringLength(s).numpy()) == [5, 5]
    assert list(ops.Substr(s, constant(np.int32(1)), constant(np.int32(3))).numpy()) == [
        b"ell",
        b"orl",
    ]
    assert list(ops.AsString(constant(np.array([1.5], np.float32)), precision=2).numpy()) == [
        b"1.50"
    ]
    n = ops.StringToNumber(constant(np.array([b"1.5", b"-2"])), out_type=np.float64).numpy()
    np.testing.assert_array_equal(n, [1.5, -2.0])
    with pytest.raises(errors.InvalidArgumentError, match="could not correctly convert string: x"):
        ops.StringToNumber(constant(np.array([b"x"])))


def test_resource_variable_lifecycle() -> None:
    h = ops.VarHandleOp(dtype=np.float32, shape=[2], shared_name="pyvar1")
    assert not bool(ops.VarIsInitializedOp(h).numpy())
    with pytest.raises(errors.FailedPreconditionError, match="Could not find variable pyvar1"):
        ops.ReadVariableOp(h, dtype=np.float32)
    ops.AssignVariableOp(h, constant(np.array([1, 2], np.float32)))
    before = ops.ReadVariableOp(h, dtype=np.float32)
    ops.AssignAddVariableOp(h, constant(np.array([10, 20], np.float32)))
    np.testing.assert_array_equal(before.numpy(), [1, 2])
    np.testing.assert_array_equal(ops.ReadVariableOp(h, dtype=np.float32).numpy(), [11, 22])
    with pytest.raises(errors.InvalidArgumentError, match="wrong dtype"):
        ops.AssignVariableOp(h, constant(np.array([1, 2], np.int32)))
    ops.ResourceScatterUpdate(
        h, constant(np.array([1], np.int32)), constant(np.array([5], np.float32))
    )
    np.testing.assert_array_equal(
        ops.ResourceGather(h, constant(np.array([1, 0, 1], np.int64)), dtype=np.float32).numpy(),
        [5, 11, 5],
    )
    ops.DestroyResourceOp(h, ignore_lookup_error=False)
    assert not bool(ops.VarIsInitializedOp(h).numpy())
    with pytest.raises(errors.NotFoundError):
        ops.DestroyResourceOp(h, ignore_lookup_error=False)


def test_noop_runs() -> None:
    assert ops.NoOp() in (None, (), [])
