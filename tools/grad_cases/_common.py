"""Building blocks of the gradient test cases (tools/grad_cases/<group>.py).

A case calls ONE raw op. Its inputs are given by name (the op definition's
input names, or the argument names of TF's ``tf.raw_ops`` wrapper, which
rename a few, e.g. ``axis`` for Max's ``reduction_indices``: the recorder
stores the op definition's names). Inputs made with ``d``/``dl`` are watched;
the loss is ``sum_k sum(output_k * weight_k)`` over the listed outputs
(flattened output positions), with fixed random weights the recorder draws
(seeded by group and case name, so adding a case changes no other case).

tools/record_grad_cases.py runs every case in TF 2.21 and writes
tests/data/grad_cases/<group>.json; tests/python/test_grad_cases.py checks
tfe's tape gradients, the graph gradients (TF_AddGradients) and the forward
values against TF's, and the tape gradients against float64 central
differences where ``numeric`` is true.

Typical group module::

    from _common import Rng, c, case, d, dl, f32

    R = Rng("mygroup")          # one seeded generator per module
    arr = R.arr

    CASES = [
        case("add_broadcast", "AddV2", {"x": d(arr((2, 3))), "y": d(arr((3,)))}),
        case("sum_keep", "Sum", {"input": d(arr((2, 3))), "axis": c([-1])},
             {"keep_dims": True}),
        case("mul_c128", "Mul", {"x": d(R.carr((2,)), "complex128"),
                                  "y": d(R.carr((2,)), "complex128")}),
    ]

Values are stored as nested lists; complex values as {"re": ..., "im": ...}.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
COMPLEX_DTYPES = ("complex64", "complex128")


def encode(v: Any) -> Any:
    """A JSON-able form of an array-like: nested lists, or {"re", "im"} of
    nested lists when complex."""
    a = np.asarray(v)
    if np.iscomplexobj(a):
        return {"re": a.real.tolist(), "im": a.imag.tolist()}
    return a.tolist()


def decode(v: Any, dtype: str) -> np.ndarray:
    """The inverse of ``encode`` (bfloat16 comes back as float32)."""
    if isinstance(v, dict):
        return (np.array(v["re"], np.float64) + 1j * np.array(v["im"], np.float64)).astype(dtype)
    return np.array(v, "float32" if dtype == "bfloat16" else dtype)


class Rng:
    """Random inputs for one case module, seeded by the module's name so a
    module's values do not depend on any other module."""

    def __init__(self, name: str) -> None:
        self.gen = np.random.default_rng(zlib.crc32(name.encode()))

    def arr(self, shape: tuple[int, ...], lo: float = -1.5, hi: float = 1.5) -> np.ndarray:
        """Uniform float64 values in [lo, hi)."""
        return self.gen.uniform(lo, hi, shape)

    def carr(self, shape: tuple[int, ...], lo: float = -1.5, hi: float = 1.5) -> np.ndarray:
        """complex128 values, real and imaginary parts uniform in [lo, hi)."""
        return self.gen.uniform(lo, hi, shape) + 1j * self.gen.uniform(lo, hi, shape)

    def ints(self, shape: tuple[int, ...], lo: int, hi: int) -> np.ndarray:
        """int64 values in [lo, hi)."""
        return self.gen.integers(lo, hi, shape)

    def distinct(self, shape: tuple[int, ...], lo: float = -1.5, hi: float = 1.5) -> np.ndarray:
        """float64 values at least (hi-lo)/(2n) apart (no ties: max/min/sort
        gradients are smooth there)."""
        n = int(np.prod(shape))
        vals = np.linspace(lo, hi, n) + self.gen.uniform(0, (hi - lo) / (4 * max(n, 1)), n)
        return self.gen.permutation(vals).reshape(shape)


def d(v: Any, dtype: str = "float64") -> dict[str, Any]:
    """A watched (differentiable) input. An integer dtype is watched too:
    TF gives it no gradient (None), and so must tfe."""
    return {"value": encode(np.asarray(v).astype(dtype if dtype != "bfloat16" else "float32")),
            "dtype": dtype, "diff": True}


def dl(vs: list[Any], dtype: str = "float64") -> dict[str, Any]:
    """A list input (e.g. AddN's, ConcatV2's values) whose elements are all watched."""
    return {"value": [d(v, dtype)["value"] for v in vs], "dtype": dtype, "diff": True,
            "list": True}


def c(v: Any, dtype: str = "int32") -> dict[str, Any]:
    """A constant input (not watched): indices, axes, shapes, conditions..."""
    return {"value": encode(np.asarray(v).astype(dtype) if dtype != "bfloat16" else v),
            "dtype": dtype, "diff": False}


def cl(vs: list[Any], dtype: str = "int32") -> dict[str, Any]:
    """A list input whose elements are constants (not watched)."""
    return {"value": [c(v, dtype)["value"] for v in vs], "dtype": dtype, "diff": False,
            "list": True}


def f32(v: Any) -> dict[str, Any]:
    """A watched float32 input."""
    return d(v, "float32")


def c64(v: Any) -> dict[str, Any]:
    """A watched complex64 input."""
    return d(v, "complex64")


def c128(v: Any) -> dict[str, Any]:
    """A watched complex128 input."""
    return d(v, "complex128")


def case(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None,
         outputs: list[int] | None = None, numeric: bool | None = None,
         unconnected: str = "none", graph: bool = True, rtol: float | None = None,
         atol: float | None = None, forward: list[int] | None = None) -> dict[str, Any]:
    """One case.

    name: unique within the group (the pytest id is "<group>/<name>").
    op: the raw op's name. inputs: see ``d``/``dl``/``c``/``cl``.
    attrs: the op's attrs (type attrs as dtype names, e.g. "float32").
    outputs: flattened output positions in the loss (default [0]).
    numeric: check the tape gradients against float64 central differences
      (default: when there are watched floating inputs and all are float64);
      set False at non-smooth points (ties, kinks, zeros of xlogy...) and
      where TF's gradient is not the derivative (e.g. PadV2's constant);
      set True on a float32 case for an op without a float64 kernel (LRN):
      coarser float32 differences then.
    unconnected: "none" or "zero", the tape's unconnected_gradients.
    graph: also check TF_AddGradients in a graph (False when the op cannot
      be built in a graph this way).
    rtol/atol: override the comparison tolerances (default by dtype).
    forward: the outputs whose forward values are compared with TF's
      (default all; e.g. Eig's eigenvectors are defined up to a phase only,
      and TF leaves them uninitialized without compute_v).
    """
    if numeric is None:
        floats = [spec["dtype"] for spec in inputs.values()
                  if spec["diff"] and spec["dtype"] in FLOAT_DTYPES + COMPLEX_DTYPES]
        numeric = bool(floats) and all(dt == "float64" for dt in floats)
    cs: dict[str, Any] = {"name": name, "op": op, "inputs": inputs, "attrs": attrs or {},
                          "outputs": outputs if outputs is not None else [0],
                          "numeric": numeric, "unconnected": unconnected, "graph": graph}
    if rtol is not None:
        cs["rtol"] = rtol
    if atol is not None:
        cs["atol"] = atol
    if forward is not None:
        cs["forward_outputs"] = forward
    return cs
