"""Records TF 2.21's lookup-table kernels (csrc/kernels/cpu/lookup_*.c) as
op sequences on one table: HashTable(V2), MutableHashTable(V2),
MutableHashTableOfTensors(V2), MutableDenseHashTableV2, the Anonymous*
tables, LookupTableFind/Insert/Remove/Size/Export/Import (the V2 forms
eagerly, the v1 ref-handle forms in graphs), InitializeTable(V2) and
InitializeTableFromTextFile(V2), for every key/value dtype pair TF registers
on CPU, plus error cases.

Run: /work/tfvenv/bin/python tools/record_coverage2_lookup.py
Writes tests/data/coverage2_lookup_tf221.json (tests/python/test_coverage2_lookup.py)."""

from __future__ import annotations

from typing import Any

from record_coverage2_common import DT, REF, SH, Recorder, S, T, cpu_kernel_types

R = Recorder()


def keys(dt: str, n: int) -> list[Any]:
    if dt == "string":
        return [f"k{i}" for i in range(n)]
    return [3 * i - 2 for i in range(n)]


def values(dt: str, n: int, shape: tuple[int, ...] = ()) -> Any:
    import numpy as np

    m = int(np.prod(shape)) if shape else 1
    if dt == "string":
        v: Any = np.asarray([f"v{i}" for i in range(n * m)], dtype=object)
    elif dt == "bool":
        v = np.asarray([i % 3 == 0 for i in range(n * m)])
    elif dt in ("float32", "float64"):
        v = np.asarray([0.5 * i - 1.25 for i in range(n * m)])
    elif dt == "variant":
        return None
    else:
        v = np.asarray([7 * i - 4 for i in range(n * m)])
    return v.reshape((n, *shape)).tolist()


def default(dt: str, shape: tuple[int, ...] = ()) -> Any:
    import numpy as np

    d = {"string": "none", "bool": False}.get(dt, -9)
    return np.full(shape, d, dtype=object if dt == "string" else None).tolist() if shape else d


def hash_tables() -> None:
    for c in cpu_kernel_types("HashTableV2"):
        kd, vd = c["key_dtype"], c["value_dtype"]
        k, v = keys(kd, 4), values(vd, 4)
        at = {"key_dtype": DT(kd), "value_dtype": DT(vd)}
        q = T([k[2], keys(kd, 9)[8], k[0]], kd)
        R.seq(f"hash_table_v2_{kd}_{vd}", "eager", [
            S("HashTableV2", {}, at),
            S("LookupTableSizeV2", {"table_handle": REF(0)}),
            S("InitializeTableV2", {"table_handle": REF(0), "keys": T(k, kd), "values": T(v, vd)}),
            S("LookupTableSizeV2", {"table_handle": REF(0)}),
            S("LookupTableFindV2", {"table_handle": REF(0), "keys": q,
                                    "default_value": T(default(vd), vd)}),
            S("LookupTableFindV2", {"table_handle": REF(0), "keys": T([[k[1]], [k[3]]], kd),
                                    "default_value": T(default(vd), vd)}),
            S("InitializeTableV2", {"table_handle": REF(0), "keys": T(k[:1], kd),
                                    "values": T(v[:1], vd)}),
            S("LookupTableExportV2", {"table_handle": REF(0)},
              {"Tkeys": DT(kd), "Tvalues": DT(vd)}),
        ])
        R.seq(f"anon_hash_table_{kd}_{vd}", "eager", [
            S("AnonymousHashTable", {}, at),
            S("InitializeTableV2", {"table_handle": REF(0), "keys": T(k[:2], kd),
                                    "values": T(v[:2], vd)}),
            S("LookupTableFindV2", {"table_handle": REF(0), "keys": q,
                                    "default_value": T(default(vd), vd)}),
            S("LookupTableSizeV2", {"table_handle": REF(0)}),
        ])
    i64, f32, st = "int64", "float32", "string"
    at = {"key_dtype": DT(i64), "value_dtype": DT(f32)}
    R.seq("hash_table_v2_errors", "eager", [
        S("HashTableV2", {}, at),
        S("LookupTableFindV2", {"table_handle": REF(0), "keys": T([1], i64),
                                "default_value": T(0.0, f32)}),
        S("InitializeTableV2", {"table_handle": REF(0), "keys": T([1, 2], i64),
                                "values": T([1.0], f32)}),
        S("InitializeTableV2", {"table_handle": REF(0), "keys": T([1, 1], i64),
                                "values": T([1.0, 2.0], f32)}),
        S("InitializeTableV2", {"table_handle": REF(0), "keys": T([1], "int32"),
                                "values": T([1.0], f32)}),
        S("InitializeTableV2", {"table_handle": REF(0), "keys": T([[1]], i64),
                                "values": T([[1.0]], f32)}),
        S("InitializeTableV2", {"table_handle": REF(0), "keys": T([1, 2], i64),
                                "values": T([1.0, 2.0], f32)}),
        S("LookupTableFindV2", {"table_handle": REF(0), "keys": T([1], "int32"),
                                "default_value": T(0.0, f32)}),
        S("LookupTableFindV2", {"table_handle": REF(0), "keys": T([1], i64),
                                "default_value": T(0.0, "float64")}),
        S("LookupTableFindV2", {"table_handle": REF(0), "keys": T([1], i64),
                                "default_value": T([0.0, 1.0], f32)}),
        S("LookupTableInsertV2", {"table_handle": REF(0), "keys": T([5], i64),
                                  "values": T([5.0], f32)}),
        S("LookupTableRemoveV2", {"table_handle": REF(0), "keys": T([1], i64)}),
        S("LookupTableImportV2", {"table_handle": REF(0), "keys": T([5], i64),
                                  "values": T([5.0], f32)}),
        S("LookupTableFindV2", {"table_handle": REF(0), "keys": T([1, 2, 3], i64),
                                "default_value": T(-1.0, f32)}),
    ])
    # v1 ref-handle forms, in a graph
    R.seq("hash_table_v1_graph", "graph", [
        S("HashTable", {}, {"key_dtype": DT(st), "value_dtype": DT(i64), "shared_name": "ht1"},
          fetch=False),
        S("InitializeTable", {"table_handle": REF(0), "keys": T(["a", "b", "c"], st),
                              "values": T([10, 20, 30], i64)}),
        S("LookupTableSize", {"table_handle": REF(0)}),
        S("LookupTableFind", {"table_handle": REF(0), "keys": T(["c", "x", "a"], st),
                              "default_value": T(-1, i64)}),
        S("LookupTableExport", {"table_handle": REF(0)}, {"Tkeys": DT(st), "Tvalues": DT(i64)}),
        S("InitializeTable", {"table_handle": REF(0), "keys": T(["z"], st),
                              "values": T([1], i64)}),
    ])


def text_files() -> None:
    st, i64 = "string", "int64"
    lines = "apple 5\nbanana 7\ncherry 9\n"
    R.seq("text_file_v2", "eager", [
        S("WriteFile", {"filename": T("@TMP@/vocab.txt", st), "contents": T(lines, st)}),
        S("HashTableV2", {}, {"key_dtype": DT(st), "value_dtype": DT(i64)}),
        # whole line -> line number
        S("InitializeTableFromTextFileV2", {"table_handle": REF(1),
                                            "filename": T("@TMP@/vocab.txt", st)},
          {"key_index": -2, "value_index": -1}),
        S("LookupTableFindV2", {"table_handle": REF(1),
                                "keys": T(["banana 7", "cherry 9", "x"], st),
                                "default_value": T(-1, i64)}),
        S("HashTableV2", {}, {"key_dtype": DT(st), "value_dtype": DT(i64)}),
        S("InitializeTableFromTextFileV2", {"table_handle": REF(4),
                                            "filename": T("@TMP@/vocab.txt", st)},
          {"key_index": 0, "value_index": 1, "delimiter": " "}),
        S("LookupTableFindV2", {"table_handle": REF(4), "keys": T(["banana", "apple", "q"], st),
                                "default_value": T(-1, i64)}),
        S("HashTableV2", {}, {"key_dtype": DT(i64), "value_dtype": DT(st)}),
        S("InitializeTableFromTextFileV2", {"table_handle": REF(7),
                                            "filename": T("@TMP@/vocab.txt", st)},
          {"key_index": -1, "value_index": 0, "delimiter": " ", "vocab_size": 2}),
        S("LookupTableFindV2", {"table_handle": REF(7), "keys": T([0, 1, 2], i64),
                                "default_value": T("?", st)}),
        S("LookupTableSizeV2", {"table_handle": REF(7)}),
        # errors
        S("HashTableV2", {}, {"key_dtype": DT(st), "value_dtype": DT(i64)}),
        S("InitializeTableFromTextFileV2", {"table_handle": REF(11),
                                            "filename": T("@TMP@/vocab.txt", st)},
          {"key_index": 0, "value_index": 3, "delimiter": " "}),
        S("HashTableV2", {}, {"key_dtype": DT(st), "value_dtype": DT(i64)}),
        S("InitializeTableFromTextFileV2", {"table_handle": REF(13),
                                            "filename": T("@TMP@/vocab.txt", st)},
          {"key_index": 1, "value_index": 0, "delimiter": " "}),
        S("HashTableV2", {}, {"key_dtype": DT(st), "value_dtype": DT(i64)}),
        S("InitializeTableFromTextFileV2", {"table_handle": REF(15),
                                            "filename": T("@TMP@/vocab.txt", st)},
          {"key_index": -2, "value_index": -1, "vocab_size": 5}),
        S("HashTableV2", {}, {"key_dtype": DT(st), "value_dtype": DT(i64)}),
        S("InitializeTableFromTextFileV2", {"table_handle": REF(17),
                                            "filename": T("@TMP@/missing.txt", st)},
          {"key_index": -2, "value_index": -1}),
        S("InitializeTableFromTextFileV2", {"table_handle": REF(17),
                                            "filename": T(["a", "b"], st)},
          {"key_index": -2, "value_index": -1}),
    ])
    R.seq("text_file_v1_graph", "graph", [
        S("WriteFile", {"filename": T("@TMP@/v1.txt", st), "contents": T(lines, st)}),
        S("HashTable", {}, {"key_dtype": DT(st), "value_dtype": DT(i64), "shared_name": "tf1"},
          fetch=False),
        S("InitializeTableFromTextFile", {"table_handle": REF(1),
                                          "filename": T("@TMP@/v1.txt", st)},
          {"key_index": 0, "value_index": -1, "delimiter": " "}),
        S("LookupTableFind", {"table_handle": REF(1), "keys": T(["cherry", "apple"], st),
                              "default_value": T(-1, i64)}),
    ])


def mutable_tables() -> None:
    for c in cpu_kernel_types("MutableHashTableV2"):
        kd, vd = c["key_dtype"], c["value_dtype"]
        if vd == "variant":
            continue
        k, v = keys(kd, 5), values(vd, 5)
        at = {"key_dtype": DT(kd), "value_dtype": DT(vd)}
        dv = T(default(vd), vd)
        for op in ("MutableHashTableV2", "AnonymousMutableHashTable"):
            R.seq(f"{op}_{kd}_{vd}", "eager", [
                S(op, {}, at),
                S("LookupTableInsertV2", {"table_handle": REF(0), "keys": T(k[:3], kd),
                                          "values": T(v[:3], vd)}),
                S("LookupTableSizeV2", {"table_handle": REF(0)}),
                S("LookupTableInsertV2", {"table_handle": REF(0), "keys": T(k[2:], kd),
                                          "values": T(v[:3], vd)}),
                S("LookupTableFindV2", {"table_handle": REF(0), "keys": T([k[4], k[0], "zz"
                                                                            if kd == "string"
                                                                            else 99], kd),
                                        "default_value": dv}),
                S("LookupTableRemoveV2", {"table_handle": REF(0), "keys": T([k[1], k[3]], kd)}),
                S("LookupTableSizeV2", {"table_handle": REF(0)}),
                S("LookupTableFindV2", {"table_handle": REF(0), "keys": T([[k[1], k[2]]], kd),
                                        "default_value": dv}),
                S("LookupTableImportV2", {"table_handle": REF(0), "keys": T(k[3:], kd),
                                          "values": T(v[3:], vd)}),
                S("LookupTableSizeV2", {"table_handle": REF(0)}),
                S("LookupTableFindV2", {"table_handle": REF(0), "keys": T(k, kd),
                                        "default_value": dv}),
            ])
    for c in cpu_kernel_types("MutableHashTableOfTensorsV2"):
        kd, vd = c["key_dtype"], c["value_dtype"]
        k, v = keys(kd, 4), values(vd, 4, (2,))
        at = {"key_dtype": DT(kd), "value_dtype": DT(vd), "value_shape": SH([2])}
        dv = T(default(vd, (2,)), vd)
        for op in ("MutableHashTableOfTensorsV2", "AnonymousMutableHashTableOfTensors"):
            R.seq(f"{op}_{kd}_{vd}", "eager", [
                S(op, {}, at),
                S("LookupTableInsertV2", {"table_handle": REF(0), "keys": T(k[:3], kd),
                                          "values": T(v[:3], vd)}),
                S("LookupTableFindV2", {"table_handle": REF(0), "keys": T([k[2], k[3]], kd),
                                        "default_value": dv}),
                S("LookupTableRemoveV2", {"table_handle": REF(0), "keys": T([k[0]], kd)}),
                S("LookupTableSizeV2", {"table_handle": REF(0)}),
                S("LookupTableImportV2", {"table_handle": REF(0), "keys": T(k[3:], kd),
                                          "values": T(v[3:], vd)}),
                S("LookupTableFindV2", {"table_handle": REF(0), "keys": T(k, kd),
                                        "default_value": dv}),
                S("LookupTableInsertV2", {"table_handle": REF(0), "keys": T(k[:1], kd),
                                          "values": T(v[:1], vd)}),
                S("LookupTableExportV2", {"table_handle": REF(0)},
                  {"Tkeys": DT(kd), "Tvalues": DT(vd)}),
            ])
    i64, f32 = "int64", "float32"
    R.seq("mutable_errors", "eager", [
        S("MutableHashTableOfTensorsV2", {}, {"key_dtype": DT(i64), "value_dtype": DT(f32),
                                              "value_shape": SH([2])}),
        S("LookupTableInsertV2", {"table_handle": REF(0), "keys": T([1], i64),
                                  "values": T([1.0, 2.0], f32)}),
        S("LookupTableInsertV2", {"table_handle": REF(0), "keys": T([1, 2], i64),
                                  "values": T([[1.0, 2.0]], f32)}),
        S("LookupTableInsertV2", {"table_handle": REF(0), "keys": T([1], "int32"),
                                  "values": T([[1.0, 2.0]], f32)}),
        S("LookupTableFindV2", {"table_handle": REF(0), "keys": T([1], i64),
                                "default_value": T(0.0, f32)}),
        S("LookupTableImportV2", {"table_handle": REF(0), "keys": T([1, 2], i64),
                                  "values": T([[1.0, 2.0]], f32)}),
        S("LookupTableRemoveV2", {"table_handle": REF(0), "keys": T([1.0], f32)}),
        S("MutableHashTableV2", {}, {"key_dtype": DT(i64), "value_dtype": DT(f32)}),
        S("LookupTableInsertV2", {"table_handle": REF(7), "keys": T([1, 2], i64),
                                  "values": T([1.0], f32)}),
        S("LookupTableFindV2", {"table_handle": REF(7), "keys": T([1], i64),
                                "default_value": T([0.0], f32)}),
        S("LookupTableImportV2", {"table_handle": REF(7), "keys": T([1, 2], i64),
                                  "values": T([[1.0], [2.0]], f32)}),
    ])
    R.seq("mutable_v1_graph", "graph", [
        S("MutableHashTable", {}, {"key_dtype": DT("string"), "value_dtype": DT(f32),
                                   "shared_name": "mt1"}, fetch=False),
        S("LookupTableInsert", {"table_handle": REF(0), "keys": T(["a", "b"], "string"),
                                "values": T([1.5, 2.5], f32)}),
        S("LookupTableSize", {"table_handle": REF(0)}),
        S("LookupTableFind", {"table_handle": REF(0), "keys": T(["b", "q"], "string"),
                              "default_value": T(0.0, f32)}),
        S("LookupTableImport", {"table_handle": REF(0), "keys": T(["c"], "string"),
                                "values": T([3.5], f32)}),
        S("LookupTableExport", {"table_handle": REF(0)},
          {"Tkeys": DT("string"), "Tvalues": DT(f32)}),
        S("MutableHashTableOfTensors", {}, {"key_dtype": DT(i64), "value_dtype": DT(f32),
                                            "value_shape": SH([3]), "shared_name": "mt2"},
          fetch=False),
        S("LookupTableInsert", {"table_handle": REF(6), "keys": T([4], i64),
                                "values": T([[1.0, 2.0, 3.0]], f32)}),
        S("LookupTableFind", {"table_handle": REF(6), "keys": T([4, 5], i64),
                              "default_value": T([0.0, 0.0, -1.0], f32)}),
        S("LookupTableSize", {"table_handle": REF(6)}),
        S("LookupTableInsert", {"table_handle": REF(6), "keys": T([4], i64),
                                "values": T([[1.0, 2.0]], f32)}),
    ])


def dense_tables() -> None:
    for c in cpu_kernel_types("MutableDenseHashTableV2"):
        kd, vd = c["key_dtype"], c["value_dtype"]
        if vd in ("variant", "resource"):
            continue
        if kd == "string":
            ek, dk, k = "", "<del>", keys(kd, 6)
        else:
            ek, dk, k = -1, -2, [i * 5 for i in range(6)]
        v = values(vd, 6)
        dv = T(default(vd), vd)
        for op in ("MutableDenseHashTableV2", "AnonymousMutableDenseHashTable"):
            at: dict[str, Any] = {"value_dtype": DT(vd), "initial_num_buckets": 4,
                                  "max_load_factor": 0.5}
            R.seq(f"{op}_{kd}_{vd}", "eager", [
                S(op, {"empty_key": T(ek, kd), "deleted_key": T(dk, kd)}, at),
                S("LookupTableInsertV2", {"table_handle": REF(0), "keys": T(k[:4], kd),
                                          "values": T(v[:4], vd)}),
                S("LookupTableSizeV2", {"table_handle": REF(0)}),
                S("LookupTableFindV2", {"table_handle": REF(0), "keys": T(k, kd),
                                        "default_value": dv}),
                S("LookupTableRemoveV2", {"table_handle": REF(0), "keys": T(k[1:3], kd)}),
                S("LookupTableInsertV2", {"table_handle": REF(0), "keys": T(k[4:], kd),
                                          "values": T(v[4:], vd)}),
                S("LookupTableSizeV2", {"table_handle": REF(0)}),
                S("LookupTableFindV2", {"table_handle": REF(0), "keys": T(k, kd),
                                        "default_value": dv}),
                S("LookupTableFindV2", {"table_handle": REF(0), "keys": T([ek], kd),
                                        "default_value": dv}),
                S("LookupTableInsertV2", {"table_handle": REF(0), "keys": T([dk], kd),
                                          "values": T(v[:1], vd)}),
                S("LookupTableImportV2", {"table_handle": REF(0), "keys": T(k[:2], kd),
                                          "values": T(v[:2], vd)}),
                S("LookupTableSizeV2", {"table_handle": REF(0)}),
                S("LookupTableFindV2", {"table_handle": REF(0), "keys": T(k, kd),
                                        "default_value": dv}),
            ])
    i64, f32 = "int64", "float32"
    R.seq("dense_errors", "eager", [
        S("MutableDenseHashTableV2", {"empty_key": T(0, i64), "deleted_key": T(0, i64)},
          {"value_dtype": DT(f32)}),
        S("MutableDenseHashTableV2", {"empty_key": T(0, i64), "deleted_key": T(1, i64)},
          {"value_dtype": DT(f32), "initial_num_buckets": 3}),
        S("MutableDenseHashTableV2", {"empty_key": T(0, i64), "deleted_key": T(1, i64)},
          {"value_dtype": DT(f32), "max_load_factor": 1.5}),
        S("MutableDenseHashTableV2", {"empty_key": T(0, i64), "deleted_key": T(1, i64)},
          {"value_dtype": DT(f32), "value_shape": SH([2]), "initial_num_buckets": 8}),
        S("LookupTableInsertV2", {"table_handle": REF(3), "keys": T([5], i64),
                                  "values": T([[1.0, 2.0]], f32)}),
        S("LookupTableFindV2", {"table_handle": REF(3), "keys": T([5, 0], i64),
                                "default_value": T([9.0, 9.0], f32)}),
        S("LookupTableFindV2", {"table_handle": REF(3), "keys": T([5, 7], i64),
                                "default_value": T([9.0, 9.0], f32)}),
        S("LookupTableInsertV2", {"table_handle": REF(3), "keys": T([5], i64),
                                  "values": T([1.0, 2.0], f32)}),
        S("LookupTableExportV2", {"table_handle": REF(3)}, {"Tkeys": DT(i64), "Tvalues": DT(f32)}),
    ])


def main() -> None:
    hash_tables()
    text_files()
    mutable_tables()
    dense_tables()
    R.write("coverage2_lookup_tf221.json")


if __name__ == "__main__":
    main()
