"""Records ops_special_tf221.json for test_ops_special.py.

Run with a Python that has TensorFlow 2.21 and mpmath (not needed at test
time). For every case it stores the op, dtype and inputs, TF's outputs and
a reference value from mpmath at 200 bits, rounded to the dtype (NaN where
the function is undefined, so the test falls back to TF's value there).
Errors (a dtype without a kernel) are stored as the exception class and the
first line of its message."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable

import mpmath as mp
import numpy as np
import tensorflow as tf

mp.mp.prec = 200
nan, inf = float("nan"), float("inf")

EDGE = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    -2.0,
    0.5,
    -0.5,
    2.0,
    10.0,
    -10.0,
    50.0,
    100.0,
    700.0,
    712.0,
    800.0,
    1e-30,
    inf,
    -inf,
    nan,
    0.999999,
    -0.999999,
    1e10,
    88.0,
    89.0,
    1e-310,
]
UNIT = [
    0.0,
    1.0,
    0.5,
    -0.0,
    1e-300,
    1e-30,
    1e-10,
    0.25,
    0.75,
    0.999999,
    1 - 1e-16,
    1.0000001,
    -1e-20,
    inf,
    -inf,
    nan,
    1e-310,
    0.4999999,
]


def _root(f: Callable[[mp.mpf], mp.mpf], x0: float) -> mp.mpf:
    return mp.findroot(f, mp.mpf(x0), tol=mp.mpf(2) ** -190)


def ref_ndtri(p: mp.mpf) -> mp.mpf:
    if not 0 < p < 1:
        return mp.nan
    if p == 0.5:
        return mp.mpf(0)
    guess = float(mp.sqrt(2) * mp.erfinv(2 * p - 1)) if 1e-15 < p < 1 - 1e-15 else None
    if guess is None or not np.isfinite(guess):
        guess = -float(mp.sqrt(-2 * mp.log(min(p, 1 - p))))
        guess = guess if p < 0.5 else -guess
    return _root(lambda t: mp.log(mp.ncdf(t)) - mp.log(p), guess)


def ref_erfinv(x: mp.mpf) -> mp.mpf:
    if not -1 < x < 1:
        return mp.nan
    if x == 0:
        return mp.mpf(0)
    ax = abs(x)
    g = float(mp.erfinv(ax)) if ax < 1 - 1e-12 else float(mp.sqrt(-mp.log(1 - ax)))
    r = _root(lambda t: mp.log(mp.erfc(t)) - mp.log(1 - ax), g)
    return r if x > 0 else -r


def ref_dawsn(x: mp.mpf) -> mp.mpf:
    return mp.sqrt(mp.pi) / 2 * mp.exp(-x * x) * mp.erfi(x)


def _pos(f: Callable[[mp.mpf], mp.mpf]) -> Callable[[mp.mpf], mp.mpf]:
    return lambda x: f(x) if x > 0 else mp.nan


REFS: dict[str, Callable[[mp.mpf], mp.mpf]] = {
    "BesselI0": lambda x: mp.besseli(0, x),
    "BesselI1": lambda x: mp.besseli(1, x),
    "BesselI0e": lambda x: mp.besseli(0, x) * mp.exp(-abs(x)),
    "BesselI1e": lambda x: mp.besseli(1, x) * mp.exp(-abs(x)),
    "BesselK0": _pos(lambda x: mp.besselk(0, x)),
    "BesselK1": _pos(lambda x: mp.besselk(1, x)),
    "BesselK0e": _pos(lambda x: mp.besselk(0, x) * mp.exp(x)),
    "BesselK1e": _pos(lambda x: mp.besselk(1, x) * mp.exp(x)),
    "BesselJ0": lambda x: mp.besselj(0, x),
    "BesselJ1": lambda x: mp.besselj(1, x),
    "BesselY0": _pos(lambda x: mp.bessely(0, x)),
    "BesselY1": _pos(lambda x: mp.bessely(1, x)),
    "Ndtri": ref_ndtri,
    "Erfinv": ref_erfinv,
    "Dawsn": ref_dawsn,
    "Expint": _pos(mp.ei),
}
HALF_OPS = {k for k in REFS if k.startswith("Bessel")}
RANGES: dict[str, list[tuple[float, float]]] = {
    "K": [(0, 1), (0, 3), (0, 50), (0, 720)],
    "Y": [(0, 5), (0, 50), (0, 1e4)],
    "Ndtri": [(0, 1), (0.45, 0.55), (0, 1e-5), (0, 1e-100), (1 - 1e-6, 1)],
    "Erfinv": [(-1, 1), (0.999, 1), (-1e-5, 1e-5), (-1e-12, 1e-12)],
    "Expint": [(0, 5), (0.3, 0.45), (0, 50), (0, 720)],
    "default": [(-3, 3), (-30, 30), (-720, 720), (-1e4, 1e4)],
}


def ranges(op: str) -> list[tuple[float, float]]:
    if op.startswith("Bessel") and op[6] in "KY":
        return RANGES[op[6]]
    return RANGES.get(op, RANGES["default"])


def ref_value(op: str, x: float, dt: str) -> float:
    if not np.isfinite(x) or (x != 0 and abs(x) < np.finfo(dt).tiny):
        return nan  # TF's own convention (and denormals-are-zero) decide
    with np.errstate(over="ignore"):
        try:
            v = REFS[op](mp.mpf(x))
        except (ValueError, ZeroDivisionError):
            return nan
        if isinstance(v, mp.mpc) or not mp.isfinite(v):
            return nan
        r = float(np.array(float(v)).astype(dt))
    if dt != "float16" and r != 0 and abs(r) < np.finfo(dt).tiny:
        r = 0.0  # TF flushes denormal float and double results to zero
    return r


def main() -> None:
    rng = np.random.default_rng(2026)
    out = []
    for op in REFS:
        dts = ["float32", "float64"] + (["float16"] if op in HALF_OPS else [])
        for dt in dts:
            base = UNIT if op in ("Ndtri", "Erfinv") else EDGE
            xs = [base]
            for lo, hi in ranges(op):
                xs.append(list(rng.uniform(lo, hi, 32)))
            if dt == "float16":
                xs = [
                    [v for v in xs[0] if abs(v) < 1e4 or not np.isfinite(v)],
                    list(rng.uniform(-10, 10, 32)),
                    list(rng.uniform(0, 15, 32)),
                ]
            for x in xs:
                xa = np.array(x, dtype=dt)
                y = getattr(tf.raw_ops, op)(x=xa).numpy()
                refs = [ref_value(op, float(v), dt) for v in xa]
                out.append(
                    {
                        "op": op,
                        "dtype": dt,
                        "x": [float(v) for v in xa],
                        "tf": [float(v) for v in y],
                        "ref": refs,
                    }
                )
    for op, dt in [("BesselI0e", "int32"), ("Ndtri", "float16"), ("Dawsn", "float16")]:
        try:
            getattr(tf.raw_ops, op)(x=tf.constant([1], dtype=dt))
            raise SystemExit(f"{op} {dt} unexpectedly ran")
        except tf.errors.OpError as e:
            out.append(
                {
                    "op": op,
                    "dtype": dt,
                    "x": [1.0],
                    "err": type(e).__name__,
                    "msg": e.message.split("\n")[0],
                }
            )
    path = pathlib.Path(__file__).parent / "ops_special_tf221.json"
    path.write_text(json.dumps(out, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
