"""The shape of the TensorFlow-style API (issue 16): what ``import tfe_py as
tf`` exposes, how it loads, and that it is typed and documented."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import subprocess
import sys
import types
from pathlib import Path

import pytest

import tfe_py

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("api_names", ROOT / "tools" / "api_names.py")
assert _spec is not None and _spec.loader is not None
api_names = importlib.util.module_from_spec(_spec)
sys.modules["api_names"] = api_names
_spec.loader.exec_module(api_names)

API_MODULES = (
    "array_ops",
    "bitwise",
    "config",
    "debugging",
    "framework",
    "image",
    "linalg",
    "math",
    "nest",
    "nn",
    "random",
    "signal",
    "sort_ops",
    "strings",
)


def test_import_is_lazy() -> None:
    # `import tfe_py` loads none of the function modules, nor the graph-only
    # and plugin machinery: each costs import time and loads on first use.
    code = (
        "import sys, tfe_py\n"
        "lazy = [m for m in sys.modules if m.split('.')[-1] in {names!r}\n"
        "        and m.startswith('tfe_py.')]\n"
        "print(sorted(lazy))\n"
    ).format(names=set(API_MODULES) | {"saved_model", "session", "plugins", "custom_device"})
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_namespaces_resolve_to_modules() -> None:
    for ns in ("math", "nn", "linalg", "random", "strings", "io", "signal", "image", "bitwise",
               "debugging", "nest", "config"):
        assert isinstance(getattr(tfe_py, ns), types.ModuleType), ns
    assert tfe_py.raw_ops is importlib.import_module("tfe_py.ops")


def test_toplevel_names_come_from_the_modules() -> None:
    for modname in API_MODULES:
        mod = importlib.import_module(f"tfe_py.{modname}")
        for name in mod.TOPLEVEL:
            assert hasattr(mod, name), f"tfe_py.{modname}.TOPLEVEL lists {name} but lacks it"
            # The first module in __init__'s order that lists a name provides it.
            assert getattr(tfe_py, name) is not None


def test_unknown_attribute_is_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'not_a_tf_function'"):
        _ = tfe_py.not_a_tf_function


def _public_functions(mod: types.ModuleType) -> list[tuple[str, object]]:
    out = []
    for name, value in vars(mod).items():
        if name.startswith("_") or not inspect.isfunction(value):
            continue
        if value.__module__ != mod.__name__:
            continue  # imported from elsewhere; checked there
        out.append((name, value))
    return out


@pytest.mark.parametrize("modname", API_MODULES)
def test_public_functions_are_typed_and_documented(modname: str) -> None:
    mod = importlib.import_module(f"tfe_py.{modname}")
    untyped = []
    undocumented = []
    for name, fn in _public_functions(mod):
        sig = inspect.signature(fn)  # type: ignore[arg-type]
        params = [
            p
            for p in sig.parameters.values()
            if p.annotation is inspect.Parameter.empty and p.name not in ("self", "cls")
        ]
        if params or sig.return_annotation is inspect.Signature.empty:
            untyped.append(name)
        if not (fn.__doc__ or "").strip():
            undocumented.append(name)
    assert untyped == [], f"tfe_py.{modname}: functions without full type hints"
    assert undocumented == [], f"tfe_py.{modname}: functions without a docstring"


def test_package_is_typed() -> None:
    assert (Path(tfe_py.__file__).parent / "py.typed").exists()


def test_missing_op_is_not_implemented_error_naming_it() -> None:
    from tfe_py import _api

    fn = _api.op("NoSuchOpForTheApiTest")
    with pytest.raises(NotImplementedError, match="NoSuchOpForTheApiTest"):
        fn(1.0)
    with pytest.raises(NotImplementedError, match=r"tf\.math\.zzz needs the TensorFlow op Zzz"):
        _api.unimplemented("Zzz", "tf.math.zzz")
    assert _api.has_op("AddV2") and not _api.has_op("NoSuchOpForTheApiTest")


def test_python_doc_api_table_is_current() -> None:
    assert api_names.main(["--check"]) == 0
