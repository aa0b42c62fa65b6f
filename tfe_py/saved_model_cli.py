"""``python -m tfe_py saved-model show|run``: inspect and run a SavedModel
without TensorFlow, as TF's ``saved_model_cli`` does.

``show PATH`` prints every tag-set of the model; with ``--tag-set`` (or when
there is only one) also the signatures with their inputs and outputs, the
op types the MetaGraph uses and whether this tfe has CPU kernels for all of
them. ``run PATH --signature NAME --input KEY=FILE.npy ...`` loads the model,
calls the signature and prints the outputs, or saves them as
``<output key>.npy`` files with ``--output-dir``.

Exit codes: 0 success, 1 a runtime error (the message names its class), 2 a
usage error (argparse's).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import numpy as np

from tfe_py import errors, saved_model

_NO_KERNEL_NEEDED = frozenset({"_Arg", "_Retval", "_DeviceArg", "_DeviceRetval"})


def _tag_text(tags: tuple[str, ...]) -> str:
    return ",".join(tags)


def _pick_meta_graph(metas: list[bytes], tag_set: str | None) -> tuple[bytes | None, str]:
    """The MetaGraphDef for ``tag_set`` (comma-separated), or None and why."""
    if tag_set is None:
        if len(metas) == 1:
            return metas[0], ""
        return None, "the model has several tag-sets; choose one with --tag-set"
    wanted = {t for t in tag_set.split(",") if t}
    for raw in metas:
        if set(saved_model.meta_graph_tags(raw)) == wanted:
            return raw, ""
    return None, f"no MetaGraph has the tag-set {tag_set!r}"


def _print_signatures(meta: bytes) -> None:
    parsed = saved_model._parse_meta_graph(meta)
    sigs = parsed.signatures
    if not sigs:
        print("  (no signatures)")
    for name in sorted(sigs):
        ins, outs, method = sigs[name]
        if name == saved_model.INIT_OP_SIGNATURE_KEY:
            op = next(iter(outs.values())).name if outs else "?"
            print(f"  signature {name!r}: the init op {op!r} (run by the loader)")
            continue
        print(f"  signature {name!r}:" + (f" method {method}" if method else ""))
        for title, specs in (("inputs", ins), ("outputs", outs)):
            print(f"    {title}:")
            if not specs:
                print("      (none)")
            for key in sorted(specs):
                spec = specs[key]
                print(f"      {key}: {saved_model._spec_text(spec)}  tensor {spec.name}")


def _print_ops(meta: bytes) -> int:
    ops, functions = saved_model.model_ops(meta)
    have = saved_model.registered_kernel_ops("CPU")
    needs = [op for op in ops if op not in functions and op not in _NO_KERNEL_NEEDED]
    missing = [op for op in needs if op not in have]
    print(f"  ops used ({len(ops)}): {', '.join(ops) if ops else '(none)'}")
    if functions:
        print(f"  functions in the library: {len(functions)}")
    if missing:
        print(f"  tfe lacks CPU kernels for {len(missing)} op(s): {', '.join(missing)}")
    else:
        print("  tfe has CPU kernels for every op the model uses")
    return len(missing)


def cmd_show(args: argparse.Namespace) -> int:
    metas = saved_model.read_meta_graphs(args.path)
    print(f"SavedModel {args.path}: {len(metas)} MetaGraph(s)")
    for raw in metas:
        print(f"  tag-set: {_tag_text(saved_model.meta_graph_tags(raw)) or '(empty)'}")
    meta, why = _pick_meta_graph(metas, args.tag_set)
    if meta is None:
        if args.tag_set is not None:
            print(f"python -m tfe_py saved-model show: {why}", file=sys.stderr)
            return 1
        print(f"({why})")
        return 0
    print(f"MetaGraph with tag-set {_tag_text(saved_model.meta_graph_tags(meta))}:")
    _print_signatures(meta)
    _print_ops(meta)
    return 0


def _parse_inputs(items: list[str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for item in items:
        key, sep, path = item.partition("=")
        if not sep or not key or not path:
            raise ValueError(f"--input wants KEY=FILE.npy, got {item!r}")
        if key in values:
            raise ValueError(f"--input {key} is given twice")
        values[key] = np.load(path, allow_pickle=False)
    return values


def cmd_run(args: argparse.Namespace) -> int:
    inputs = _parse_inputs(args.input or [])
    tags = [t for t in args.tag_set.split(",") if t]
    with saved_model.load(args.path, tags) as model:
        if args.signature not in model.signatures:
            names = ", ".join(model.signatures) or "(none)"
            print(
                f"python -m tfe_py saved-model run: no signature {args.signature!r}; "
                f"the model has: {names}",
                file=sys.stderr,
            )
            return 1
        outputs = model.signatures[args.signature](**inputs)
    if args.output_dir:
        os.makedirs(args.output_dir, exist_ok=True)
        for key, value in outputs.items():
            path = os.path.join(args.output_dir, f"{key}.npy")
            arr = np.asarray(value)
            if arr.dtype.kind == "O":  # strings: fixed-width bytes, no pickles
                arr = arr.astype(bytes)
            np.save(path, arr, allow_pickle=False)
            print(f"{key}: saved to {path}")
        return 0
    with np.printoptions(threshold=50, edgeitems=3):
        for key, value in outputs.items():
            arr = np.asarray(value)
            print(f"{key}: {arr.dtype}{list(arr.shape)}")
            print(arr)
    return 0


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "saved-model", help="show or run a SavedModel (like TF's saved_model_cli)"
    )
    cmds = p.add_subparsers(dest="saved_model_command", metavar="show|run")
    cmds.required = True
    show = cmds.add_parser("show", help="tag-sets, signatures and the ops a model needs")
    show.add_argument("path", help="the SavedModel directory (any registered filesystem)")
    show.add_argument("--tag-set", default=None, help="comma-separated tags of one MetaGraph")
    show.set_defaults(saved_model_fn=cmd_show)
    run = cmds.add_parser("run", help="call a signature on inputs read from .npy files")
    run.add_argument("path", help="the SavedModel directory")
    run.add_argument("--tag-set", default="serve", help="comma-separated tags (default: serve)")
    run.add_argument("--signature", default="serving_default", help="signature name")
    run.add_argument(
        "--input", action="append", metavar="KEY=FILE.npy", help="one input (repeat for more)"
    )
    run.add_argument("--output-dir", default=None, help="save outputs as <key>.npy here")
    run.set_defaults(saved_model_fn=cmd_run)
    return p


def cmd_saved_model(args: argparse.Namespace) -> int:
    try:
        result: int = args.saved_model_fn(args)
        return result
    except errors.OpError as e:
        print(f"python -m tfe_py saved-model: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    except (OSError, ValueError, TypeError) as e:
        print(f"python -m tfe_py saved-model: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
