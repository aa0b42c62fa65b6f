"""Tensors as TensorFlow's: the Tensor base class, indexing through
StridedSlice, iteration, conversions, operators, printing, hashing and
DLPack (expected values and messages recorded from TF 2.21)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import errors


def _x() -> Any:
    return tf.constant(np.arange(24, dtype=np.int32).reshape(2, 3, 4))


def test_base_class() -> None:
    assert isinstance(tf.constant(1.0), tf.Tensor)
    assert issubclass(tf.EagerTensor, tf.Tensor)
    assert issubclass(tf.GraphTensor, tf.Tensor)
    with tf.Graph():
        p = tf.placeholder(tf.float32, shape=[2])
        assert isinstance(p, tf.Tensor)


_INDEXES: list[tuple[Any, tuple[int, ...]]] = [
    ((0,), (3, 4)),
    ((slice(None, None, -1),), (2, 3, 4)),
    ((Ellipsis, 1), (2, 3)),
    ((tf.newaxis, 0, slice(1, None)), (1, 2, 4)),
    ((slice(None), None, slice(None, None, -2)), (2, 1, 2, 4)),
    ((-1, -1, -1), ()),
    ((), (2, 3, 4)),
    ([0, 1], (4,)),  # a list is read as a tuple, as TF does
]


@pytest.mark.parametrize(("index", "shape"), _INDEXES)
def test_getitem_matches_numpy(index: Any, shape: tuple[int, ...]) -> None:
    x = _x()
    got = x[index]
    assert got.shape == shape
    want = np.arange(24, dtype=np.int32).reshape(2, 3, 4)[tuple(index)]
    np.testing.assert_array_equal(np.asarray(got), want)


def test_getitem_values() -> None:
    x = _x()
    assert int(x[-1, -1, -1]) == 23
    np.testing.assert_array_equal(x[1, ::-1, 3].numpy(), [23, 19, 15])
    np.testing.assert_array_equal(x[0, 1:, -2:].numpy(), [[6, 7], [10, 11]])
    np.testing.assert_array_equal(x[..., 0].numpy(), [[0, 4, 8], [12, 16, 20]])
    np.testing.assert_array_equal(tf.constant([1, 2, 3, 4, 5])[::-2].numpy(), [5, 3, 1])
    np.testing.assert_array_equal(tf.constant([1, 2, 3, 4, 5])[3:0:-1].numpy(), [4, 3, 2])


def test_getitem_tensor_indices() -> None:
    x = _x()
    assert x[tf.constant(1)].shape == (3, 4)
    np.testing.assert_array_equal(x[tf.constant(1), 2].numpy(), [20, 21, 22, 23])
    assert x[tf.constant(1) :].shape == (1, 3, 4)
    i64 = tf.constant(np.int64(2))
    np.testing.assert_array_equal(tf.constant([5, 6, 7])[i64:].numpy(), [7])
    assert int(tf.constant([5, 6, 7])[np.int64(1)]) == 6


def test_getitem_errors() -> None:
    x = _x()
    msg = r"Only integers, slices \(`:`\), ellipsis \(`...`\), tf.newaxis \(`None`\)"
    for bad in (1.0, "a", tf.constant([0]), tf.constant(1.0)):
        with pytest.raises(TypeError, match=msg):
            x[bad]
    with pytest.raises(errors.InvalidArgumentError):
        x[5]
    with pytest.raises(errors.InvalidArgumentError):
        x[0, 0, 0, 0]
    with pytest.raises(errors.InvalidArgumentError):
        x[..., ...]


def test_iter_len() -> None:
    items = list(tf.constant([1, 2]))
    assert [int(v) for v in items] == [1, 2]
    assert all(isinstance(v, tf.Tensor) and v.shape == () for v in items)
    assert len(_x()) == 2
    with pytest.raises(TypeError, match=r"Cannot iterate over a scalar tensor\."):
        iter(tf.constant(1))
    with pytest.raises(TypeError, match="Scalar tensor has no `len\\(\\)`"):
        len(tf.constant(1))


def test_conversions() -> None:
    assert f"{tf.constant(1.23456):.2f}" == "1.23"
    assert f"{tf.constant([1.0, 2.0])}" == "[1. 2.]"
    with pytest.raises(TypeError, match="unsupported format string"):
        f"{tf.constant([1.0, 2.0]):.2f}"
    assert bool(tf.constant([1])) is True
    with pytest.raises(ValueError, match="truth value of an array"):
        bool(tf.constant([1, 2]))
    assert int(tf.constant(3.7)) == 3
    with pytest.raises(TypeError):
        int(tf.constant([[3]]))
    assert [1, 2, 3][tf.constant(1)] == 2
    with pytest.raises(TypeError):
        [1, 2, 3][tf.constant([1])]
    assert float(tf.constant(2.5)) == 2.5
    with pytest.raises(AttributeError, match="numpy"):  # as TF, without numpy behaviour
        round(tf.constant(2.6))


def test_numpy_scalars() -> None:
    assert type(tf.constant(1.0).numpy()) is np.float32
    assert type(tf.constant(3).numpy()) is np.int32
    assert tf.constant(b"x").numpy() == b"x"
    assert isinstance(tf.constant([1.0]).numpy(), np.ndarray)
    assert np.asarray(tf.constant(1.0)).shape == ()


def test_operators() -> None:
    def v(t: Any) -> Any:
        return t.numpy().item()

    assert v(~tf.constant(5)) == -6
    assert v(tf.constant(5) & 3) == 1
    assert v(tf.constant(5) | 3) == 7
    assert v(tf.constant(5) ^ 3) == 6
    assert v(3 & tf.constant(5)) == 1
    assert v(tf.constant(True) ^ True) is False
    assert v(True ^ tf.constant(True)) is False
    assert v(tf.constant(True) & False) is False
    assert v(tf.constant(False) | True) is True
    assert v(~tf.constant(True)) is False
    with pytest.raises(errors.OpError):
        ~tf.constant(1.0)
    assert v(tf.constant(7) // 2) == 3
    assert v(7 // tf.constant(2)) == 3
    assert v(tf.constant(7) % 3) == 1
    assert v(2 ** tf.constant(3)) == 8
    r = tf.constant(7) / 2
    assert r.dtype == tf.float64 and v(r) == 3.5
    assert v(abs(tf.constant(-2))) == 2
    c = abs(tf.constant(3 + 4j))
    assert c.dtype == tf.float64 and v(c) == 5.0
    m = tf.constant([[1.0, 2.0]]) @ tf.constant([[1.0], [2.0]])
    assert m.numpy().tolist() == [[5.0]]
    assert (tf.constant([1, 2]) == None) is False  # noqa: E711


def test_repr_str() -> None:
    assert repr(tf.constant(1.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>"
    assert str(tf.constant(1.0)) == "tf.Tensor(1.0, shape=(), dtype=float32)"
    assert repr(tf.constant(1.1)) == (
        "<tf.Tensor: shape=(), dtype=float32, numpy=1.100000023841858>"
    )
    assert str(tf.constant(1.1)) == "tf.Tensor(1.1, shape=(), dtype=float32)"
    assert repr(tf.constant([1, 2])) == (
        "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>"
    )
    assert str(tf.constant([1, 2])) == "tf.Tensor([1 2], shape=(2,), dtype=int32)"
    two = tf.constant([[1.5, 2.0], [3.0, 4.0]])
    assert repr(two) == (
        "<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\n"
        "array([[1.5, 2. ],\n       [3. , 4. ]], dtype=float32)>"
    )
    assert str(two) == "tf.Tensor(\n[[1.5 2. ]\n [3.  4. ]], shape=(2, 2), dtype=float32)"
    assert repr(tf.constant("ab")) == "<tf.Tensor: shape=(), dtype=string, numpy=b'ab'>"
    assert repr(tf.constant(True)) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"
    assert str(tf.constant(1 + 2j)) == "tf.Tensor((1+2j), shape=(), dtype=complex128)"
    assert repr(tf.constant(np.zeros((0, 3), np.float32))) == (
        "<tf.Tensor: shape=(0, 3), dtype=float32, numpy=array([], shape=(0, 3), dtype=float32)>"
    )
    assert str(tf.constant(["a", "b"])) == "tf.Tensor([b'a' b'b'], shape=(2,), dtype=string)"


def test_hash_and_ref() -> None:
    t = tf.constant(1.0)
    with pytest.raises(TypeError, match=r"Tensor is unhashable. Instead, use tensor.ref\(\)"):
        hash(t)
    r = t.ref()
    assert r == t.ref() and hash(r) == hash(t.ref()) and r.deref() is t
    assert r != tf.constant(1.0).ref()
    assert {r: 1}[t.experimental_ref()] == 1
    assert repr(r) == "<Reference wrapping <tf.Tensor: shape=(), dtype=float32, numpy=1.0>>"


def test_metadata() -> None:
    t = tf.constant([1.0, 2.0])
    assert t.__array_priority__ == 100
    assert t.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert t.ndim == 1 and t.get_shape() == [2] and t.dtype == tf.float32
    assert t.cpu().numpy().tolist() == [1.0, 2.0]


def test_dlpack() -> None:
    t = tf.constant([1.0, 2.0])
    assert t.__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(np.from_dlpack(t), [1.0, 2.0])
    back = tf.experimental.dlpack.from_dlpack(np.arange(3.0))
    assert isinstance(back, tf.Tensor) and back.numpy().tolist() == [0.0, 1.0, 2.0]
    cap = tf.experimental.dlpack.to_dlpack(t)
    assert tf.experimental.dlpack.from_dlpack(cap).numpy().tolist() == [1.0, 2.0]


def test_graph_tensor_slicing() -> None:
    with tf.Graph() as g:
        p = tf.placeholder(tf.float32, shape=[2, 3])
        y = p[1, ::-1]
        z = p[..., tf.newaxis]
        assert isinstance(y, tf.GraphTensor) and y.shape == (3,) and z.shape == (2, 3, 1)
        with tf.Session(graph=g) as s:
            got = s.run(y, {p: np.arange(6, dtype=np.float32).reshape(2, 3)})
    assert got.tolist() == [5.0, 4.0, 3.0]
