"""RegexFullMatch, StaticRegexFullMatch, RegexReplace and
StaticRegexReplace (tfe's own Pike-VM engine, csrc/core/regex.c) against
TensorFlow 2.21's results and errors recorded in tests/data/regex_cases.json
(written once by tools/gen_regex_cases.py with TF's pip package, i.e. RE2).

Every recorded case runs eagerly through the dynamic op and through the
static op (the pattern and rewrite as attrs); a sample also runs in a
graph and a session. Outputs must match byte for byte; errors must have
TF's class and message."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops
from tfe_py.context import default_context
from tfe_py.eager import constant

DATA = pathlib.Path(__file__).resolve().parent.parent / "data" / "regex_cases.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text())["cases"]

# Cases whose results tfe knowingly does not reproduce (docs/STRINGS.md).
KNOWN_DIFFERENT: dict[str, str] = {
    "\\C": "\\C (one byte) is not supported by tfe's engine (UNIMPLEMENTED)",
}


@pytest.fixture(autouse=True)
def _default_exists() -> None:
    default_context()


def _b(s: str) -> bytes:
    return s.encode("latin-1")


def _strs(vals: list[str]) -> Any:
    a = np.empty(len(vals), dtype=object)
    a[:] = [_b(v) for v in vals]
    return constant(a)


def _ids() -> list[str]:
    return [f"{i}-{c['op']}" for i, c in enumerate(CASES)]


def _run_dynamic(case: dict[str, Any]) -> Any:
    x = _strs(case["input"])
    if "nonscalar" in case:
        kw: dict[str, Any] = {}
        for k, shape in case["nonscalar"].items():
            if shape is None:
                kw[k] = constant(np.array(b"a" if k == "pattern" else b"x", dtype=object))
            else:
                n = int(np.prod(shape))
                a = np.empty(n, dtype=object)
                a[:] = [b"a"] * n
                kw[k] = constant(a.reshape(shape))
        return getattr(ops, case["op"])(input=x, **kw)
    pat = constant(np.array(_b(case["pattern"]), dtype=object))
    if case["op"] == "RegexFullMatch":
        return ops.RegexFullMatch(input=x, pattern=pat)
    rw = constant(np.array(_b(case["rewrite"]), dtype=object))
    return ops.RegexReplace(input=x, pattern=pat, rewrite=rw,
                            replace_global=case["replace_global"])


def _run_static(case: dict[str, Any]) -> Any:
    x = _strs(case["input"])
    if case["op"] == "RegexFullMatch":
        return ops.StaticRegexFullMatch(input=x, pattern=_b(case["pattern"]))
    return ops.StaticRegexReplace(input=x, pattern=_b(case["pattern"]),
                                  rewrite=_b(case["rewrite"]),
                                  replace_global=case["replace_global"])


def _check(case: dict[str, Any], run: Any, op_name: str) -> None:
    if case.get("pattern") in KNOWN_DIFFERENT:
        with pytest.raises(errors.UnimplementedError) as ui:
            run(case)
        assert "not supported by tfe" in str(ui.value)
        return
    if "error" in case:
        with pytest.raises(errors.OpError) as ei:
            run(case)
        assert type(ei.value).__name__ == case["error"]["class"]
        assert str(ei.value).split("\n")[0].startswith(case["error"]["msg"]), str(ei.value)
        return
    got = run(case).numpy().tolist()
    if case["op"] == "RegexFullMatch":
        assert got == case["output"], (op_name, case["pattern"])
    else:
        assert got == [_b(v) for v in case["output"]], (op_name, case["pattern"])


@pytest.mark.parametrize("i", range(len(CASES)), ids=_ids())
def test_case_dynamic_op(i: int) -> None:
    _check(CASES[i], _run_dynamic, CASES[i]["op"])


@pytest.mark.parametrize("i", [i for i, c in enumerate(CASES) if "nonscalar" not in c])
def test_case_static_op(i: int) -> None:
    _check(CASES[i], _run_static, "Static" + CASES[i]["op"])


def _graph_sample() -> list[int]:
    out = [i for i, c in enumerate(CASES)
           if "error" not in c and c.get("pattern") not in KNOWN_DIFFERENT]
    return out[::9]


@pytest.mark.parametrize("i", _graph_sample())
def test_case_in_a_graph(i: int) -> None:
    case = CASES[i]
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.string, shape=(None,))
        p = tfe_py.placeholder(tfe_py.string, shape=())
        if case["op"] == "RegexFullMatch":
            dyn = ops.RegexFullMatch(input=x, pattern=p)
            sta = ops.StaticRegexFullMatch(input=x, pattern=_b(case["pattern"]))
            feeds = {}
        else:
            r = tfe_py.placeholder(tfe_py.string, shape=())
            dyn = ops.RegexReplace(input=x, pattern=p, rewrite=r,
                                   replace_global=case["replace_global"])
            sta = ops.StaticRegexReplace(input=x, pattern=_b(case["pattern"]),
                                         rewrite=_b(case["rewrite"]),
                                         replace_global=case["replace_global"])
            feeds = {r: np.array(_b(case["rewrite"]), dtype=object)}
        assert dyn.shape == (None,) and sta.shape == (None,)
    xs = np.empty(len(case["input"]), dtype=object)
    xs[:] = [_b(v) for v in case["input"]]
    feeds[x] = xs
    feeds[p] = np.array(_b(case["pattern"]), dtype=object)
    with tfe_py.Session(g) as sess:
        d, s = sess.run([dyn, sta], feeds)
    want = case["output"] if case["op"] == "RegexFullMatch" else [_b(v) for v in case["output"]]
    assert d.tolist() == want
    assert s.tolist() == want


def test_graph_shape_checks() -> None:
    with tfe_py.Graph():
        x = tfe_py.placeholder(tfe_py.string, shape=(2, 3))
        assert ops.RegexFullMatch(input=x, pattern="a").shape == (2, 3)
        assert ops.RegexFullMatch(input=x, pattern="a").dtype == tfe_py.bool
        assert ops.StaticRegexReplace(input=x, pattern="a", rewrite="b").shape == (2, 3)
        with pytest.raises(errors.InvalidArgumentError, match="must be rank 0"):
            ops.RegexFullMatch(input=x, pattern=np.array([b"a"], dtype=object))
        with pytest.raises(errors.InvalidArgumentError, match="must be rank 0"):
            ops.RegexReplace(input=x, pattern="a", rewrite=np.array([b"a"], dtype=object))


def test_shapes_kept_and_defaults() -> None:
    a = np.array([[b"ab", b"ba"], [b"", b"aaa"]], dtype=object)
    m = ops.StaticRegexFullMatch(input=constant(a), pattern="a+")
    assert m.numpy().tolist() == [[False, False], [False, True]]
    r = ops.StaticRegexReplace(input=constant(a), pattern="a", rewrite="x")
    assert r.numpy().tolist() == [[b"xb", b"bx"], [b"", b"xxx"]]
    r1 = ops.StaticRegexReplace(input=constant(a), pattern="a", rewrite="x", replace_global=False)
    assert r1.numpy().tolist() == [[b"xb", b"bx"], [b"", b"xaa"]]
    e = np.empty((0, 3), dtype=object)
    assert ops.StaticRegexFullMatch(input=constant(e), pattern="a").numpy().shape == (0, 3)


def test_random_patterns_never_crash() -> None:
    rng = np.random.default_rng(15)
    alphabet = list(b"ab()[]{}*+?|^$.\\-,:0123456789PpQEdswDSWxbBAzLN<>=!i-msU")
    x = _strs(["", "ab", "aab(b)", "\xff\xe2\x82", "a{2}b"])
    for _ in range(400):
        n = int(rng.integers(0, 14))
        pat = bytes(int(rng.choice(alphabet)) for _ in range(n))
        for run in (lambda p: ops.RegexFullMatch(input=x, pattern=p),
                    lambda p: ops.RegexReplace(input=x, pattern=p, rewrite=b"<\\0>")):
            try:
                run(constant(np.array(pat, dtype=object)))
            except (errors.InvalidArgumentError, errors.UnimplementedError) as e:
                assert "Invalid pattern: " in str(e)


def test_dynamic_pattern_cache_alternating_and_threads() -> None:
    """The dynamic ops keep the last compiled pattern per kernel: switching
    patterns (valid and not) and running from several threads at once must
    always use the pattern given."""
    from concurrent.futures import ThreadPoolExecutor

    x = _strs(["aaa", "bbb", "ab", ""])
    want = {b"a+": [True, False, False, False], b"b+": [False, True, False, False],
            b"(a|b)*": [True, True, True, True]}
    pats = [b"a+", b"b+", b"(", b"(a|b)*", b"a+"]

    def one(i: int) -> None:
        p = pats[i % len(pats)]
        pt = constant(np.array(p, dtype=object))
        if p == b"(":
            with pytest.raises(errors.InvalidArgumentError, match="missing \\)"):
                ops.RegexFullMatch(input=x, pattern=pt)
            return
        assert ops.RegexFullMatch(input=x, pattern=pt).numpy().tolist() == want[p]
        rw = constant(np.array(b"-", dtype=object))
        got = ops.RegexReplace(input=x, pattern=pt, rewrite=rw).numpy().tolist()
        assert got[0 if p != b"b+" else 1] == b"-"

    for i in range(25):
        one(i)
    with ThreadPoolExecutor(4) as ex:
        list(ex.map(one, range(200)))
