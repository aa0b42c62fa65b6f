"""Records TF 2.21's Optional kernels (OptionalFromValue, OptionalHasValue,
OptionalGetValue, OptionalNone) as eager op sequences, with error cases.

Run: /work/tfvenv/bin/python tools/record_coverage2_optional.py
Writes tests/data/coverage2_optional_tf221.json (tests/python/test_coverage2_optional.py)."""

from __future__ import annotations

from record_coverage2_common import DTS, REF, SHS, Recorder, S, T

R = Recorder()


def main() -> None:
    R.seq("optional", "eager", [
        S("OptionalFromValue", {"components": [T([1.5, 2.5], "float32"), T(["a"], "string")]}),
        S("OptionalHasValue", {"optional": REF(0)}),
        S("OptionalGetValue", {"optional": REF(0)},
          {"output_types": DTS("float32", "string"), "output_shapes": SHS([2], [1])}),
        S("OptionalNone"),
        S("OptionalHasValue", {"optional": REF(3)}),
        S("OptionalGetValue", {"optional": REF(3)},
          {"output_types": DTS("float32"), "output_shapes": SHS([2])}),
        S("OptionalGetValue", {"optional": REF(0)},
          {"output_types": DTS("int32", "string"), "output_shapes": SHS([2], [1])}),
        S("OptionalGetValue", {"optional": REF(0)},
          {"output_types": DTS("float32"), "output_shapes": SHS([2])}),
    ])
    R.write("coverage2_optional_tf221.json")


if __name__ == "__main__":
    main()
