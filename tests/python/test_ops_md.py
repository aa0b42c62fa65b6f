"""docs/OPS.md and the generated op table are current (tools/gen_ops_md.py,
tools/gen_op_defs.py), and the table reads what the running library has."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import tfe_py

ROOT = Path(__file__).resolve().parents[2]


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_generated_op_table_is_current() -> None:
    gen = _tool("gen_op_defs")
    ops = gen.read_ops()
    assert len(ops) == 1908
    assert (ROOT / "csrc" / "ops" / "defs_generated.c").read_text() == \
        gen.render_defs(ops, gen.read_deprecations())
    assert (ROOT / "csrc" / "ops" / "shape_infer_rules_generated.c").read_text() == \
        gen.render_rules(ops, gen.read_families())


def test_ops_md_is_current() -> None:
    md = _tool("gen_ops_md")
    text = md.render(Path(tfe_py.runtime_library_path()))
    assert "| MatMul | yes |" in text
    assert "## TPU (not planned)" in text
    current = (ROOT / "docs" / "OPS.md").read_text()
    assert current == text, "docs/OPS.md is stale: run python3 tools/gen_ops_md.py"
