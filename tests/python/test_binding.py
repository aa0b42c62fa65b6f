"""The cffi binding: version checks, dtypes, and tensors through the C core."""

from __future__ import annotations

import gc
import re
import subprocess
import sys

import numpy as np
import pytest

import tfe_py
from tfe_py import _ffi, dtypes
from tfe_py._ffi import ffi, lib
from tfe_py.tensor import RawTensor as Tensor

# ---------------------------------------------------------------- versions


def test_versions_agree():
    assert _ffi.EXTENSION_VERSION == tfe_py.__version__
    assert _ffi.RUNTIME_VERSION == tfe_py.__version__
    assert ffi.string(lib.TFE_VERSION).decode() == tfe_py.__version__
    major, minor, patch = (int(x) for x in tfe_py.__version__.split("."))
    assert (lib.TFE_VERSION_MAJOR, lib.TFE_VERSION_MINOR, lib.TFE_VERSION_PATCH) == (
        major,
        minor,
        patch,
    )


def test_check_versions_rejects_a_stale_extension():
    v = tfe_py.__version__
    _ffi.check_versions(v, v, v)
    with pytest.raises(ImportError, match=r"extension built for tfe 0\.0\.1"):
        _ffi.check_versions(v, "0.0.1", v)
    with pytest.raises(ImportError, match=r"loaded libtfe 9\.9\.9"):
        _ffi.check_versions(v, v, "9.9.9")


def test_import_fails_when_the_package_version_differs(repo_root):
    # A fresh interpreter whose tfe_py._version claims another version.
    code = (
        "import sys, types\n"
        "fake = types.ModuleType('tfe_py._version')\n"
        "fake.__version__ = '99.0.0'\n"
        "sys.modules['tfe_py._version'] = fake\n"
        "try:\n"
        "    import tfe_py\n"
        "except ImportError as e:\n"
        "    print('ImportError:', e)\n"
        "    sys.exit(3)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=repo_root, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "99.0.0" in proc.stdout and "built for tfe" in proc.stdout


def test_tf_version_shape():
    version = ffi.string(lib.TF_Version()).decode()
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    assert version.startswith("2.21.")


# ------------------------------------------------------------------ dtypes

NUMPY_CASES = [
    ("TF_FLOAT", np.float32),
    ("TF_DOUBLE", np.float64),
    ("TF_HALF", np.float16),
    ("TF_INT8", np.int8),
    ("TF_INT16", np.int16),
    ("TF_INT32", np.int32),
    ("TF_INT64", np.int64),
    ("TF_UINT8", np.uint8),
    ("TF_UINT16", np.uint16),
    ("TF_UINT32", np.uint32),
    ("TF_UINT64", np.uint64),
    ("TF_BOOL", np.bool_),
    ("TF_COMPLEX64", np.complex64),
    ("TF_COMPLEX128", np.complex128),
]


@pytest.mark.parametrize(("enum", "np_type"), NUMPY_CASES)
def test_dtype_mapping(enum, np_type):
    value = getattr(lib, enum)
    assert dtypes.to_numpy_dtype(value) == np.dtype(np_type)
    assert dtypes.from_numpy_dtype(np_type) == value
    assert dtypes.size(value) == np.dtype(np_type).itemsize
    assert dtypes.enum_name(value) == enum
    assert dtypes.from_name(dtypes.name(value)) == value
    assert dtypes.from_name(enum) == value


def test_dtype_table_covers_the_enum():
    assert set(dtypes.NUMPY_DTYPES) == {getattr(lib, e) for e, _ in NUMPY_CASES}
    assert len(dtypes.ALL_DTYPES) == 33
    assert dtypes.ALL_DTYPES == tuple(range(1, 34))
    assert dtypes.name(lib.TF_FLOAT4_E2M1FN) == "float4_e2m1fn"
    assert dtypes.size(lib.TF_FLOAT4_E2M1FN) == 1
    assert dtypes.name(lib.TF_HALF) == "float16"
    assert dtypes.name(lib.TF_STRING) == "string"
    assert dtypes.size(lib.TF_STRING) == 0


def test_dtype_errors():
    assert dtypes.from_numpy_dtype(">i4") == lib.TF_INT32
    with pytest.raises(TypeError):
        dtypes.from_numpy_dtype(object)
    with pytest.raises(TypeError):
        dtypes.from_numpy_dtype("U3")
    with pytest.raises(TypeError):
        dtypes.to_numpy_dtype(lib.TF_STRING)
    try:
        import ml_dtypes
    except ImportError:  # bfloat16 needs ml_dtypes (an ImportError and a TypeError)
        with pytest.raises(TypeError):
            dtypes.to_numpy_dtype(lib.TF_BFLOAT16)
    else:
        assert dtypes.to_numpy_dtype(lib.TF_BFLOAT16) == ml_dtypes.bfloat16
    with pytest.raises(ValueError):
        dtypes.name(0)
    with pytest.raises(ValueError):
        dtypes.from_name("float128")


# ----------------------------------------------------------------- tensors

SHAPES = [(), (0,), (2, 0, 3), (7,), (2, 3, 4)]


def _sample(np_type, shape) -> np.ndarray:
    rng = np.random.default_rng(1234)
    dt = np.dtype(np_type)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize(("enum", "np_type"), NUMPY_CASES, ids=[e for e, _ in NUMPY_CASES])
def test_round_trip(enum, np_type, shape, live_count):
    before = live_count("TENSOR")
    src = _sample(np_type, shape)
    with Tensor.from_numpy(src) as t:
        assert t.dtype == getattr(lib, enum)
        assert t.shape == shape
        assert lib.TF_NumDims(t.ptr) == len(shape)
        assert t.num_elements == src.size
        assert t.nbytes == src.nbytes
        back = t.numpy()
        assert back.dtype == src.dtype
        assert back.shape == shape
        np.testing.assert_array_equal(back, src)
        assert not back.flags.writeable
        if src.size:
            # Zero copy: the array points at the tensor's own buffer.
            assert back.ctypes.data == int(ffi.cast("uintptr_t", lib.TF_TensorData(t.ptr)))
            assert lib.TF_TensorIsAligned(t.ptr)
        del back
    assert live_count("TENSOR") == before


def test_from_numpy_copies_and_normalises_layout():
    src = np.arange(24, dtype=">i4").reshape(4, 6)[:, ::2]  # big-endian, strided
    with Tensor.from_numpy(src) as t:
        assert t.dtype == lib.TF_INT32
        assert t.shape == (4, 3)
        np.testing.assert_array_equal(t.numpy(), src)
        assert t.numpy().dtype == np.dtype("int32")
    data = np.ones(3, dtype=np.float32)
    with Tensor.from_numpy(data) as t:
        data[0] = 5.0  # the tensor holds a copy
        np.testing.assert_array_equal(t.numpy(), [1, 1, 1])
    with Tensor.from_numpy(7.5) as t:  # Python scalars work too
        assert t.dtype == lib.TF_DOUBLE and t.shape == ()
        assert float(t.numpy()) == 7.5


def test_unsupported_dtype_leaks_nothing(live_count):
    before = live_count("TENSOR")
    with pytest.raises(TypeError):
        Tensor.from_numpy(np.array(["a", "b"]))
    with pytest.raises(TypeError):
        Tensor.from_numpy(np.array([object()]))
    assert live_count("TENSOR") == before


def test_live_tensor_count_after_close(live_count):
    before = live_count("TENSOR")
    t = Tensor.from_numpy(np.zeros((3, 3), dtype=np.float32))
    assert live_count("TENSOR") == before + 1
    t.close()
    assert live_count("TENSOR") == before
    t.close()  # idempotent
    assert t.closed
    assert live_count("TENSOR") == before
    with pytest.raises(ValueError, match="closed"):
        t.numpy()
    assert repr(t) == "<Tensor closed>"


def test_live_tensor_count_after_with_block(live_count):
    before = live_count("TENSOR")
    with Tensor.from_numpy(np.arange(5)) as t:
        assert live_count("TENSOR") == before + 1
        assert repr(t) == "<Tensor dtype=int64 shape=(5,)>"
    assert t.closed
    assert live_count("TENSOR") == before

    with pytest.raises(RuntimeError):
        with Tensor.from_numpy(np.arange(5)):
            raise RuntimeError("boom")
    assert live_count("TENSOR") == before


def test_del_is_a_fallback(live_count):
    before = live_count("TENSOR")
    t = Tensor.from_numpy(np.arange(10))
    assert live_count("TENSOR") == before + 1
    del t
    gc.collect()
    assert live_count("TENSOR") == before


def test_numpy_view_outlives_close(live_count):
    before_t, before_b = live_count("TENSOR"), live_count("TENSOR_BUFFER")
    t = Tensor.from_numpy(np.arange(1000, dtype=np.float64))
    view = t.numpy()[10:20]
    t.close()
    # The view still holds the shared buffer through its own TF_Tensor.
    assert live_count("TENSOR") == before_t + 1
    assert live_count("TENSOR_BUFFER") == before_b + 1
    np.testing.assert_array_equal(view, np.arange(10, 20, dtype=np.float64))
    del view
    gc.collect()
    assert live_count("TENSOR") == before_t
    assert live_count("TENSOR_BUFFER") == before_b


def test_tensor_rejects_null():
    with pytest.raises(ValueError):
        Tensor(ffi.NULL)


def test_np_asarray_protocol():
    with Tensor.from_numpy(np.arange(4, dtype=np.int16)) as t:
        np.testing.assert_array_equal(np.asarray(t), [0, 1, 2, 3])
        assert np.asarray(t, dtype=np.float32).dtype == np.float32
