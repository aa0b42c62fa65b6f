"""Command line entry point: ``python -m tfe_py [command]``.

Commands:
  info   (the default) versions, dtypes, and a tensor round trip through the
         C core; exits non-zero if the round trip fails.
  doctor [PLUGIN.so ...] checks device plugins and op libraries in child
         processes (tfe_py/doctor.py); exits non-zero if any check fails.
  config [--cflags] [--libs] [--include-dir] [--libdir]
         prints what a C compiler needs to build a plugin (--cflags) or a
         program (--cflags --libs) against this installed tfe, like
         pkg-config; without options, all of it with labels.
  saved-model show PATH | run PATH --signature S --input K=F.npy
         inspects or runs a SavedModel (tfe_py/saved_model_cli.py).

To add a command, write ``def cmd_<name>(args) -> int`` and register it in
``build_parser``.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable, Sequence

import numpy as np

import tfe_py
from tfe_py import _paths, doctor, dtypes, saved_model_cli
from tfe_py._ffi import ffi, lib
from tfe_py.tensor import RawTensor as Tensor

Command = Callable[[argparse.Namespace], int]


def _round_trip_samples() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [
        np.arange(6, dtype=np.float32).reshape(2, 3),
        np.array(-(2**40), dtype=np.int64),
        np.array([True, False, True]),
        rng.standard_normal((3, 4)).astype(np.float64),
        (rng.standard_normal(5) + 1j * rng.standard_normal(5)).astype(np.complex64),
        np.arange(256, dtype=np.uint8).reshape(4, 8, 8),
        np.zeros((0, 3), dtype=np.int32),
    ]


def round_trip(sample: np.ndarray) -> str | None:
    """numpy -> TF_Tensor -> numpy; returns None on success, else what went wrong."""
    with Tensor.from_numpy(sample) as t:
        expected_dtype = dtypes.from_numpy_dtype(sample.dtype)
        if t.dtype != expected_dtype:
            return f"dtype {t.dtype} != {expected_dtype}"
        if t.shape != sample.shape:
            return f"shape {t.shape} != {sample.shape}"
        back = t.numpy()
        if back.dtype != sample.dtype or not np.array_equal(back, sample):
            return "values differ"
    return None


def cmd_info(args: argparse.Namespace) -> int:
    out = sys.stdout
    out.write(f"tfe_py {tfe_py.__version__}\n")
    out.write(f"tfe runtime {tfe_py.RUNTIME_VERSION} ({tfe_py.runtime_library_path()})\n")
    out.write(f"TensorFlow C API {ffi.string(lib.TF_Version()).decode()}\n")
    out.write("dtypes (TF_DataType value, name, bytes per element from TF_DataTypeSize):\n")
    for value in dtypes.ALL_DTYPES:
        size = dtypes.size(value)
        shown = str(size) if size else "variable"
        out.write(f"  {value:3d}  {dtypes.name(value):<20} {shown}\n")
    failures = 0
    for sample in _round_trip_samples():
        problem = round_trip(sample)
        label = f"{dtypes.name(dtypes.from_numpy_dtype(sample.dtype))}{list(sample.shape)}"
        if args.verbose or problem is not None:
            out.write(f"  round trip {label}: {problem or 'ok'}\n")
        failures += problem is not None
    if failures:
        out.write(f"round trip: FAILED ({failures} case(s))\n")
        return 1
    out.write("round trip: ok\n")
    return 0


def cmd_config(args: argparse.Namespace) -> int:
    try:
        if args.include_dir:
            print(_paths.get_include())
        if args.libdir:
            print(_paths.get_library_dir())
        flags = [*(_paths.cflags() if args.cflags else []), *(_paths.libs() if args.libs else [])]
        if flags:
            print(shlex.join(flags))
        if not (args.include_dir or args.libdir or args.cflags or args.libs):
            print(f"include dir: {_paths.get_include()}")
            print(f"library dir: {_paths.get_library_dir()} ({_paths.LIBTFE_NAME})")
            print(f"cflags:      {shlex.join(_paths.cflags())}")
            print(f"libs:        {shlex.join(_paths.libs())}")
            print("a plugin:    cc -shared -fPIC $(python -m tfe_py config --cflags) plugin.c "
                  "-o libplugin.so   (plugins are not linked to libtfe)")
            print("a program:   cc $(python -m tfe_py config --cflags --libs) prog.c -o prog")
    except FileNotFoundError as e:
        print(f"python -m tfe_py config: {e}", file=sys.stderr)
        return 1
    return 0


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, Command]]:
    parser = argparse.ArgumentParser(
        prog="python -m tfe_py", description="tfe runtime information and self-checks."
    )
    sub = parser.add_subparsers(dest="command", metavar="command")
    commands: dict[str, Command] = {}

    info = sub.add_parser("info", help="versions, dtypes and a tensor round trip (default)")
    info.add_argument("-v", "--verbose", action="store_true", help="show every round trip case")
    commands["info"] = cmd_info

    doctor.add_parser(sub)
    commands["doctor"] = doctor.cmd_doctor

    config = sub.add_parser(
        "config", help="compiler and linker flags for building against this tfe (like pkg-config)"
    )
    config.add_argument("--cflags", action="store_true", help="-I flag for tfe's C headers")
    config.add_argument(
        "--libs", action="store_true", help="flags to link a program with libtfe (with rpath)"
    )
    config.add_argument("--include-dir", action="store_true", help="the header directory")
    config.add_argument("--libdir", action="store_true", help="the directory of libtfe.so.0")
    commands["config"] = cmd_config

    saved_model_cli.add_parser(sub)
    commands["saved-model"] = saved_model_cli.cmd_saved_model

    return parser, commands


def main(argv: Sequence[str] | None = None) -> int:
    parser, commands = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["info"])
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
