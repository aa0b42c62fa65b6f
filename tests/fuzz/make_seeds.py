"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/).

Each seed is a small valid (or interestingly invalid) input that reaches a
different part of its target, so that short CI runs start from deep inside
the code. Run from anywhere: ``python tests/fuzz/make_seeds.py``. The
files are committed; rerunning rewrites the same bytes. libFuzzer adds its
own discoveries to a separate directory, never to these.
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"


# ---- protobuf wire format ----


def varint(v: int) -> bytes:
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def f_varint(field: int, v: int) -> bytes:
    return varint(field << 3) + varint(v)


def f_bytes(field: int, data: bytes) -> bytes:
    return varint((field << 3) | 2) + varint(len(data)) + data


def f_fixed32(field: int, v: float) -> bytes:
    return varint((field << 3) | 5) + struct.pack("<f", v)


def f_fixed64(field: int, v: float) -> bytes:
    return varint((field << 3) | 1) + struct.pack("<d", v)


def packed(field: int, values: list[int]) -> bytes:
    return f_bytes(field, b"".join(varint(v) for v in values))


def shape(dims: list[int] | None) -> bytes:
    """TensorShapeProto; None is an unknown rank."""
    if dims is None:
        return f_varint(3, 1)
    return b"".join(f_bytes(2, f_varint(1, d)) for d in dims)


def tensor(dtype: int, dims: list[int], body: bytes) -> bytes:
    return f_varint(1, dtype) + f_bytes(2, shape(dims)) + body


# ---- per target ----


def attr_proto_seeds() -> list[bytes]:
    """fuzz_attr_proto: byte 0 even = ConfigProto, odd = AttrValue (byte 1
    picks the (op, attr) pair, see kTargets in fuzz_attr_proto.c)."""
    cfg = [
        b"",
        f_bytes(1, f_bytes(1, b"CPU") + f_varint(2, 2)),  # device_count
        f_varint(2, 2) + f_varint(5, 1),  # intra/inter op threads
        f_varint(7, 1) + f_varint(8, 1),  # soft placement, log placement
        f_bytes(6, f_fixed64(1, 0.5) + f_varint(4, 1) + f_bytes(5, b"0")),
        f_bytes(10, f_varint(4, 1)) + f_varint(11, 1000),  # graph options
        f_bytes(16, f_bytes(4, b"x")),  # experimental
        f_varint(2, (1 << 64) - 1),  # a negative thread count
        b"\x0a\xff\xff\xff\xff\x0f",  # a length past the end
    ]
    attr: list[tuple[int, bytes]] = [
        (0, f_bytes(8, tensor(1, [2], packed(5, []) + f_fixed32(5, 1.5)))),
        (0, f_bytes(8, tensor(3, [2, 2], f_bytes(4, bytes(16))))),
        (0, f_bytes(8, tensor(7, [2], f_bytes(8, b"ab") + f_bytes(8, b"")))),
        (0, f_bytes(8, tensor(9, [3], packed(10, [1, 2, 3])))),
        (0, f_bytes(8, tensor(10, [], f_varint(11, 1)))),
        (0, f_bytes(8, tensor(19, [1], packed(13, [0x3C00])))),
        (1, f_varint(6, 1)),
        (2, f_varint(6, 3)),
        (3, f_varint(5, 1)),
        (5, f_varint(6, 9)),
        (6, f_bytes(1, packed(3, [1, 1, 1, 1]))),
        (7, f_bytes(2, b"SAME")),
        (8, f_bytes(1, packed(3, [0, 0, 1, 1, 2, 2, 0, 0]))),
        (9, f_bytes(2, b"NHWC")),
        (11, f_bytes(7, shape([2, -1]))),
        (11, f_bytes(7, shape(None))),
        (12, f_bytes(7, shape([-2]))),
        (13, f_varint(3, 2)),
        (14, f_varint(3, (1 << 64) - 1)),
        (15, f_bytes(10, f_bytes(1, b"body") + f_bytes(
            2, f_bytes(1, b"k") + f_bytes(2, f_varint(3, 7))))),
        (16, f_bytes(1, packed(6, [1, 3, 9]))),
        (17, f_bytes(1, f_bytes(7, shape([1])) + f_bytes(7, shape(None)))),
        (18, f_bytes(1, b"")),
        (19, f_varint(3, 1 << 32)),
        (20, f_fixed32(4, 2.5)),
        (0, f_bytes(9, b"T")),  # placeholder
        (6, f_bytes(1, f_bytes(2, b"a") + f_bytes(2, b"b"))),
        (0, f_bytes(8, tensor(1, [1 << 40], b""))),  # huge, no values
        (0, f_bytes(8, tensor(1, [1 << 62], f_fixed32(5, 1.0)))),
        (0, f_bytes(8, tensor(1, [1 << 31, 1 << 31, 4], b""))),
        (0, f_bytes(8, tensor(7, [1 << 61], f_bytes(8, b"s")))),
        (0, f_bytes(8, tensor(1, [-1], b""))),
    ]
    out = [b"\x00" + c for c in cfg]
    out += [bytes([1, which]) + body for which, body in attr]
    return out


def tstring_seeds() -> list[bytes]:
    """fuzz_tstring: opcode byte (low 4 bits op, bits 4-5 dst, bits 6-7
    src) then operands."""

    def lit(data: bytes) -> bytes:
        return bytes([len(data)]) + data

    small = lit(b"hello")
    large = lit(b"x" * 40)
    return [
        bytes([0x00]) + small + bytes([0x01]) + large,  # Copy, AppendN
        bytes([0x00]) + large + bytes([0x52]) + bytes([0x13]),  # Append, Assign
        bytes([0x05]) + lit(b"view me") + bytes([0x1A, 0x02]),  # view, mutate
        bytes([0x05]) + large + bytes([0x0C, 0x03]),  # view, copy own suffix
        bytes([0x00]) + large + bytes([0x0D, 0x05]),  # AppendN own bytes
        bytes([0x06, 0x50, 0x2A, 0x06, 0x03, 0x2B]),  # Resize up, down
        bytes([0x07, 0x85, 0x07, 0x01]),  # ResizeUninitialized large, small
        bytes([0x08, 0x90, 0x09, 0x30, 0x0B]),  # Reserve, Amortized, Dealloc
        bytes([0x00]) + small + bytes([0x14, 0x2E, 0x4B]),  # Move, Copy, Dealloc
        bytes([0x08, 0xC0, 0x07, 0xC1, 0x09, 0xC3]),  # impossible sizes
        bytes([0x00]) + small + bytes([0x08, 0xC5, 0x07, 0xC0]),
    ]


def plugin_loader_seeds() -> list[bytes]:
    """fuzz_plugin_loader: byte 0 even = StreamExecutor loader, odd =
    filesystem loader; zeros everywhere else mean a well-behaved plugin."""
    return [
        b"\x00",
        b"\x00" + bytes(200),
        b"\x00\x00\x01",  # SE_InitPlugin fails
        b"\x00\x00\x02",  # struct_size 0
        b"\x00\x00\x04",  # legacy size where there is none
        b"\x00" + bytes(60) + b"\x04",  # a legacy stream executor
        b"\x00\x00\x00\x01",  # another major version
        b"\x01",
        b"\x01\x01",  # one scheme, all good
        b"\x01\x03" + bytes(100),
        b"\x01\x02\x01",  # no allocate function
        b"\x01\x01\x00\x00\x01\x01",  # num_schemes without ops
        b"\x01\x01\x00\x00\x00\x01",  # NULL scheme
        b"\x01\x01\x00\x00\x00\x00\x07\x00\x00\x02",  # table too small
    ]


def fs_path_seeds() -> list[bytes]:
    """fuzz_fs_path: a path, optionally '\\n' and a glob pattern."""
    texts = [
        "/a/b/../c", "rel/./x/..", "", "//", "/..", "../../a",
        "gs://b/x/../y", "file:///", "ram://h", "my-fs://h/p",
        "a/b\n*/*.txt", "x\n[", "x\n[!", "x\n\\", "x\n*[x]*/?", "x\n**/*",
        "x\n\\*star", "x\n[a-]*/[!-z]/*", "x\n*/../*/../*",
    ]
    return [t.encode() for t in texts]


def op_grammar_seeds() -> list[bytes]:
    """fuzz_op_grammar: flags byte, then spec lines ('i' input, 'o'
    output, else attr)."""
    texts = [
        b"\x01xT: {float, double, int32} = DT_FLOAT\nix: T\nix2: T\noz: T",
        b"\x01xN: int >= 1\nxT: numbertype\niv: N * T\nos: T",
        b"\x01xTout: list(type)\nxTin: list(type) >= 0\nia: Tin\nob: Tout",
        b"\x03xmode: {'REFLECT', 'SYMMETRIC'} = 'REFLECT'\nxs: string = 'a\\n'",
        b"\x0bxsh: shape = { dim { size: 2 } dim { size: -1 } }\n"
        b"xl: list(shape) = []",
        b"\x0dxv: tensor = { dtype: DT_INT32 tensor_shape { dim { size: 2 } }"
        b" int_val: 1 }",
        b"\x05xf: float = -1.5e-3\nxl: list(float) = [1, 2.5, inf]",
        b"\x01ir: Ref(float)\nih: resource\nxfn: func = { name: 'g' }",
        b"\x00x: {\nxT: list(\nix: Ref(T\nxN: int >= 99999999999999999999",
        b"\x12[1, 2, 3]",
        b"\x1a[{ unknown_rank: true }, [2, ?]]",
        b"\x0c{ dtype: DT_STRING tensor_shape { } string_val: 'x' }",
    ]
    return texts


def graphdef_import_seeds() -> list[bytes]:
    """fuzz_graphdef_import: option bits in byte 0 (1 prefix, 2 uniquify,
    4 input map x:0, 8 control dependency, 16 return output x:0, 32 import
    twice, 64 no colocation check), then a GraphDef; the GraphDefs TF wrote
    for the tests (tests/data/graphs) are seeds too."""

    def attr(key: str, value: bytes) -> bytes:
        return f_bytes(5, f_bytes(1, key.encode()) + f_bytes(2, value))

    def node(name: str, op: str, inputs: list[str], *attrs: bytes) -> bytes:
        body = f_bytes(1, name.encode()) + f_bytes(2, op.encode())
        body += b"".join(f_bytes(3, i.encode()) for i in inputs)
        return f_bytes(1, body + b"".join(attrs))

    f32, i32 = 1, 3
    t_float = attr("T", f_varint(6, f32))
    t_int = attr("T", f_varint(6, i32))
    ph = node("x", "Placeholder", [], attr("dtype", f_varint(6, f32)))
    neg = node("y", "Neg", ["x:0"], t_float)
    versions = f_bytes(4, f_varint(1, 2474))

    def const_i32(name: str, v: int, inputs: list[str]) -> bytes:
        return node(name, "Const", inputs, attr("dtype", f_varint(6, i32)),
                    attr("value", f_bytes(8, tensor(i32, [], f_varint(7, v)))))

    loop = (
        const_i32("c", 0, [])
        + node("e", "Enter", ["c"], t_int, attr("frame_name", f_bytes(2, b"f")))
        + node("m", "Merge", ["e", "n"], t_int, attr("N", f_varint(3, 2)))
        + const_i32("lim", 10, ["^m"])
        + node("lt", "Less", ["m", "lim"], t_int)
        + node("lc", "LoopCond", ["lt"])
        + node("sw", "Switch", ["m", "lc"], t_int,
               attr("_class", f_bytes(1, f_bytes(2, b"loc:@m"))))
        + node("id", "Identity", ["sw:1"], t_int)
        + node("n", "NextIteration", ["id"], t_int)
        + node("ex", "Exit", ["sw"], t_int)
    )
    shapes = attr("_output_shapes", f_bytes(1, f_bytes(7, shape([2, 3]))))
    seeds = [
        b"\x01" + ph + neg + versions,
        b"\x06" + ph + neg,
        b"\x1d" + ph + neg + node("z", "NoOp", ["^y"]),
        b"\x21" + loop,
        b"\x03" + node("a", "Placeholder", [], attr("dtype", f_varint(6, f32)),
                        shapes) + node("b", "Neg", ["a"], t_float),
        b"\x41" + node("a", "NoOp", ["^b"],
                        attr("_class", f_bytes(1, f_bytes(2, b"loc:@b"))))
        + node("b", "NoOp", []),
        b"\x01" + ph + node("y", "Neg", ["ghost"], t_float),
        b"\x01" + node("t1", "AddV2", ["t2", "t2"], t_float)
        + node("t2", "AddV2", ["t1", "t1"], t_float),
        b"\x01" + ph + neg + f_bytes(4, f_varint(2, 99999)),
    ]
    data = HERE.parent / "data" / "graphs"
    for pb in sorted(data.glob("*.pb")):
        raw = pb.read_bytes()
        if pb.name.endswith(".fdef.pb") or len(raw) > 4000:
            continue
        seeds.append(b"\x01" + raw)
    return seeds


def regex_seeds() -> list[bytes]:
    """fuzz_regex: pattern length, rewrite length, pattern, rewrite, text."""
    cases = [
        ("(a*)*b", "", "a" * 32),
        ("(?P<y>\\d+)-(\\d+)", "\\2/\\1", "on 2024-06 and 1999-12"),
        ("(?i)caf\u00e9|\\p{Greek}+", "<\\0>", "CAF\u00c9 \u03b1\u03b2 x"),
        ("\\b\\w+\\b", "[\\0]", "hello, world"),
        ("[[:alpha:]]+|[^\\x00-\\x7f]", "\\\\", "abc\u4e2d"),
        ("(?m)^\\s*$", "#", "a\n\n  \nb"),
        ("x{2,5}?y{3}|(?s:.)", "\\1", "xxxyyy\n"),
        ("(a|ab)(c|bcd)(d*)", "\\3\\2\\1", "abcd"),
        ("\\Q.*\\E+|\\pL{3}", "", ".***abc"),
        ("((((a{10}){10}){10})", "", "a"),
        ("[", "", "a"),
    ]
    out = []
    for p, r, t in cases:
        pb, rb = p.encode(), r.encode()
        out.append(bytes([len(pb), len(rb)]) + pb + rb + t.encode())
    out.append(b"\x00\x01-a\xffb\xe2\x82")  # empty pattern, invalid UTF-8 text
    return out


TARGETS = {
    "fuzz_attr_proto": attr_proto_seeds,
    "fuzz_tstring": tstring_seeds,
    "fuzz_plugin_loader": plugin_loader_seeds,
    "fuzz_fs_path": fs_path_seeds,
    "fuzz_op_grammar": op_grammar_seeds,
    "fuzz_graphdef_import": graphdef_import_seeds,
    "fuzz_regex": regex_seeds,
}


def main() -> None:
    for name, make in TARGETS.items():
        d = CORPUS / name
        d.mkdir(parents=True, exist_ok=True)
        for old in d.glob("seed-*"):
            old.unlink()
        for data in make():
            digest = hashlib.sha1(data).hexdigest()[:12]
            (d / f"seed-{digest}").write_bytes(data)
        print(f"{name}: {len(make())} seeds in {d}")


if __name__ == "__main__":
    main()
