"""Records TF 2.21's checkpoint and file-name kernels as op sequences in a
temporary directory ("@TMP@"): SaveV2/RestoreV2, Save/Restore,
SaveSlices/RestoreSlice, MergeV2Checkpoints, ShardedFilename,
ShardedFilespec, MatchingFiles. Restored values and returned strings are
compared, never file bytes.

Run: /work/tfvenv/bin/python tools/record_coverage2_io.py
Writes tests/data/coverage2_io_tf221.json (tests/python/test_coverage2_io.py)."""

from __future__ import annotations

from record_coverage2_common import DTS, Recorder, S, T

R = Recorder()
ST, F32, I32, I64 = "string", "float32", "int32", "int64"


def main() -> None:
    a, b = T([[1.5, 2.5], [3.5, 4.5]], F32), T([7, 8, 9], I64)
    R.seq("save_restore_v2", "eager", [
        S("SaveV2", {"prefix": T("@TMP@/ck", ST), "tensor_names": T(["a", "b"], ST),
                     "shape_and_slices": T(["", ""], ST), "tensors": [a, b]}),
        S("RestoreV2", {"prefix": T("@TMP@/ck", ST), "tensor_names": T(["b", "a"], ST),
                        "shape_and_slices": T(["", ""], ST)}, {"dtypes": DTS(I64, F32)}),
        S("RestoreV2", {"prefix": T("@TMP@/ck", ST), "tensor_names": T(["a"], ST),
                        "shape_and_slices": T(["2 2 1,1:-"], ST)}, {"dtypes": DTS(F32)}),
        S("RestoreV2", {"prefix": T("@TMP@/ck", ST), "tensor_names": T(["zz"], ST),
                        "shape_and_slices": T([""], ST)}, {"dtypes": DTS(F32)}),
        S("RestoreV2", {"prefix": T("@TMP@/ck", ST), "tensor_names": T(["a"], ST),
                        "shape_and_slices": T([""], ST)}, {"dtypes": DTS(I32)}),
        S("SaveV2", {"prefix": T("@TMP@/ck2", ST), "tensor_names": T(["c"], ST),
                     "shape_and_slices": T([""], ST), "tensors": [T(["x", "yz"], ST)]}),
        S("MergeV2Checkpoints", {"checkpoint_prefixes": T(["@TMP@/ck", "@TMP@/ck2"], ST),
                                 "destination_prefix": T("@TMP@/merged", ST)}),
        S("RestoreV2", {"prefix": T("@TMP@/merged", ST), "tensor_names": T(["c", "a"], ST),
                        "shape_and_slices": T(["", ""], ST)}, {"dtypes": DTS(ST, F32)}),
        S("MatchingFiles", {"pattern": T("@TMP@/merged*", ST)}),
        S("MatchingFiles", {"pattern": T("@TMP@/nothing*", ST)}),
        S("SaveV2", {"prefix": T("@TMP@/ck3", ST), "tensor_names": T(["a", "b"], ST),
                     "shape_and_slices": T([""], ST), "tensors": [a, b]}),
        S("RestoreV2", {"prefix": T("@TMP@/missing", ST), "tensor_names": T(["a"], ST),
                        "shape_and_slices": T([""], ST)}, {"dtypes": DTS(F32)}),
    ])
    R.seq("save_restore_v1", "eager", [
        S("Save", {"filename": T("@TMP@/v1", ST), "tensor_names": T(["a", "b"], ST),
                   "data": [a, b]}),
        S("Restore", {"file_pattern": T("@TMP@/v1", ST), "tensor_name": T("b", ST)},
          {"dt": {"type": I64}}),
        S("Restore", {"file_pattern": T("@TMP@/v1", ST), "tensor_name": T("a", ST)},
          {"dt": {"type": F32}}),
        S("RestoreSlice", {"file_pattern": T("@TMP@/v1", ST), "tensor_name": T("a", ST),
                           "shape_and_slice": T("2 2 0,1:-", ST)}, {"dt": {"type": F32}}),
        S("SaveSlices", {"filename": T("@TMP@/sl", ST), "tensor_names": T(["s"], ST),
                         "shapes_and_slices": T(["4 2 1,2:-"], ST),
                         "data": [T([[1.0, 2.0], [3.0, 4.0]], F32)]}),
        S("RestoreSlice", {"file_pattern": T("@TMP@/sl", ST), "tensor_name": T("s", ST),
                           "shape_and_slice": T("4 2 1,2:-", ST)}, {"dt": {"type": F32}}),
        S("Restore", {"file_pattern": T("@TMP@/v1", ST), "tensor_name": T("q", ST)},
          {"dt": {"type": F32}}),
        S("Save", {"filename": T("@TMP@/v1b", ST), "tensor_names": T(["a"], ST),
                   "data": [a, b]}),
    ])
    R.seq("sharded_names", "eager", [
        S("ShardedFilename", {"basename": T("ckpt", ST), "shard": T(3, I32),
                              "num_shards": T(12, I32)}),
        S("ShardedFilespec", {"basename": T("/a/b", ST), "num_shards": T(7, I32)}),
        S("ShardedFilename", {"basename": T("x", ST), "shard": T(0, I32),
                              "num_shards": T(1, I32)}),
    ])
    R.write("coverage2_io_tf221.json")


if __name__ == "__main__":
    main()
