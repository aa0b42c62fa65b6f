"""Records TF 2.21's TensorList kernels (csrc/kernels/cpu/list_kernels.c)
as op sequences on lists: all 20 TensorList ops, every element dtype TF
registers on CPU, the stacked / gathered / concatenated tensors, lengths and
element shapes TF returns, and error cases (class and message).

Run: /work/tfvenv/bin/python tools/record_coverage2_list.py
Writes tests/data/coverage2_list_tf221.json (tests/python/test_coverage2_list.py)."""

from __future__ import annotations

from record_coverage2_common import DT, REF, Recorder, S, T, cpu_kernel_types, vals

R = Recorder()
I32, I64, F32 = "int32", "int64", "float32"
SIMPLE = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string")


def per_dtype(dt: str) -> None:
    el = {"element_dtype": DT(dt)}
    a = T(vals((3, 2), dt), dt)
    b = T(vals((2,), dt), dt)
    R.seq(f"list_basic_{dt}", "eager", [
        S("TensorListFromTensor", {"tensor": a, "element_shape": T([2], I32)}),          # 0
        S("TensorListLength", {"input_handle": REF(0)}),
        S("TensorListPushBack", {"input_handle": REF(0), "tensor": b}),                 # 2
        S("TensorListStack", {"input_handle": REF(2), "element_shape": T([2], I32)}, el),
        S("TensorListGetItem", {"input_handle": REF(2), "index": T(3, I32),
                                "element_shape": T([-1], I32)}, el),
        S("TensorListPopBack", {"input_handle": REF(2), "element_shape": T([2], I32)}, el),  # 5
        S("TensorListLength", {"input_handle": REF(5)}),
        S("TensorListSetItem", {"input_handle": REF(0), "index": T(1, I32), "item": b}),  # 7
        S("TensorListGather", {"input_handle": REF(7), "indices": T([2, 1, 1], I32),
                               "element_shape": T([2], I32)}, el),
        S("TensorListConcat", {"input_handle": REF(7)}, {**el, "element_shape": [2]}),
        S("TensorListConcatV2", {"input_handle": REF(7), "element_shape": T([-1], I32),
                                 "leading_dims": T([], I64)}, el),
        S("TensorListElementShape", {"input_handle": REF(7)}, {"shape_type": DT(I32)}),
        S("TensorListResize", {"input_handle": REF(7), "size": T(5, I32)}),             # 12
        S("TensorListStack", {"input_handle": REF(12), "element_shape": T([2], I32)}, el),
        S("TensorListResize", {"input_handle": REF(7), "size": T(1, I32)}),             # 14
        S("TensorListStack", {"input_handle": REF(14), "element_shape": T([2], I32)}, el),
        S("TensorListConcatLists", {"input_a": REF(0), "input_b": REF(7)}, el),
        S("TensorListSplit", {"tensor": T(vals((5,), dt), dt), "element_shape": T([-1], I32),
                              "lengths": T([2, 0, 3], I64)}),                           # 17
        S("TensorListConcatV2", {"input_handle": REF(17), "element_shape": T([-1], I32),
                                 "leading_dims": T([], I64)}, el),
        S("TensorListGetItem", {"input_handle": REF(17), "index": T(1, I32),
                                "element_shape": T([-1], I32)}, el),
        S("TensorListScatter", {"tensor": a, "indices": T([4, 0, 2], I32),
                                "element_shape": T([2], I32)}),                         # 20
        S("TensorListLength", {"input_handle": REF(20)}),
        S("TensorListGather", {"input_handle": REF(20), "indices": T([0, 2, 4], I32),
                               "element_shape": T([2], I32)}, el),
        S("TensorListScatterV2", {"tensor": a, "indices": T([1, 0, 2], I32),
                                  "element_shape": T([2], I32), "num_elements": T(5, I32)}),
        S("TensorListStack", {"input_handle": REF(23), "element_shape": T([2], I32)}, el),
        S("TensorListReserve", {"element_shape": T([2], I32), "num_elements": T(4, I32)},
          el),                                                                          # 25
        S("TensorListScatterIntoExistingList", {"input_handle": REF(25), "tensor": a,
                                                "indices": T([3, 1, 0], I32)}),
        S("TensorListStack", {"input_handle": REF(26), "element_shape": T([2], I32)}, el),
        S("EmptyTensorList", {"element_shape": T([2], I32), "max_num_elements": T(-1, I32)},
          el),                                                                          # 28
        S("Pack", {"values": [REF(28), REF(20)]}, {"axis": 0}),                          # 29
        S("TensorListPushBackBatch", {"input_handles": REF(29),
                                      "tensor": T(vals((2, 2), dt), dt)}),              # 30
        S("Unpack", {"value": REF(30)}, {"num": 2}),                                    # 31
        S("TensorListStack", {"input_handle": REF(31, 0), "element_shape": T([2], I32)}, el),
        S("TensorListStack", {"input_handle": REF(31, 1), "element_shape": T([2], I32)}, el),
        S("TensorListPushBackBatch", {"input_handles": REF(29), "tensor": b}),
    ])


def structural() -> None:
    el = {"element_dtype": DT(F32)}
    R.seq("list_shapes", "eager", [
        S("EmptyTensorList", {"element_shape": T([-1, 3], I32), "max_num_elements": T(3, I32)},
          el),                                                                          # 0
        S("TensorListElementShape", {"input_handle": REF(0)}, {"shape_type": DT(I64)}),
        S("TensorListPushBack", {"input_handle": REF(0), "tensor": T([[1.0, 2, 3]], F32)}),
        S("TensorListPushBack", {"input_handle": REF(2), "tensor": T([[4.0, 5, 6], [7, 8, 9]],
                                                                    F32)}),            # 3
        S("TensorListConcat", {"input_handle": REF(3)}, el),
        S("TensorListConcatV2", {"input_handle": REF(3), "element_shape": T([-1, 3], I32),
                                 "leading_dims": T([], I64)}, el),
        S("TensorListStack", {"input_handle": REF(3), "element_shape": T([-1, 3], I32)}, el),
        S("TensorListPushBack", {"input_handle": REF(0), "tensor": T([1.0, 2, 3], F32)}),
        S("TensorListPushBack", {"input_handle": REF(0), "tensor": T([[1.0, 2]], F32)}),
        S("EmptyTensorList", {"element_shape": T(-1, I32), "max_num_elements": T(-1, I32)},
          el),                                                                          # 9
        S("TensorListElementShape", {"input_handle": REF(9)}, {"shape_type": DT(I32)}),
        S("TensorListStack", {"input_handle": REF(9), "element_shape": T([2], I32)}, el),
        S("TensorListStack", {"input_handle": REF(9), "element_shape": T([-1], I32)}, el),
        S("TensorListPopBack", {"input_handle": REF(9), "element_shape": T([2], I32)}, el),
        S("TensorListReserve", {"element_shape": T([2, -1], I32), "num_elements": T(3, I32)},
          el),                                                                          # 14
        S("TensorListStack", {"input_handle": REF(14), "element_shape": T([2, 4], I32)}, el),
        S("TensorListGetItem", {"input_handle": REF(14), "index": T(1, I32),
                                "element_shape": T([2, 5], I32)}, el),
        S("TensorListGetItem", {"input_handle": REF(14), "index": T(1, I32),
                                "element_shape": T([-1, -1], I32)}, el),
        S("TensorListGetItem", {"input_handle": REF(14), "index": T(3, I32),
                                "element_shape": T([2, 5], I32)}, el),
        S("TensorListGetItem", {"input_handle": REF(14), "index": T(-1, I32),
                                "element_shape": T([2, 5], I32)}, el),
        S("TensorListSetItem", {"input_handle": REF(14), "index": T(5, I32),
                                "item": T([[1.0], [2.0]], F32)},
          {"resize_if_index_out_of_bounds": True}),                                    # 20
        S("TensorListLength", {"input_handle": REF(20)}),
        S("TensorListSetItem", {"input_handle": REF(14), "index": T(5, I32),
                                "item": T([[1.0], [2.0]], F32)}),
        S("TensorListSetItem", {"input_handle": REF(14), "index": T(0, I32),
                                "item": T([1.0, 2.0], F32)}),
        S("TensorListSetItem", {"input_handle": REF(14), "index": T(0, I32),
                                "item": T([[1.0], [2.0]], "float64")}),
        S("TensorListStack", {"input_handle": REF(14), "element_shape": T([2, 4], I32)},
          {"element_dtype": DT("int32")}),
        S("TensorListFromTensor", {"tensor": T(1.0, F32), "element_shape": T(-1, I32)}),
        S("TensorListFromTensor", {"tensor": T([[1.0, 2.0]], F32),
                                   "element_shape": T([3], I32)}),
        S("TensorListSplit", {"tensor": T([1.0, 2, 3], F32), "element_shape": T(-1, I32),
                              "lengths": T([1, 1], I64)}),
        S("TensorListSplit", {"tensor": T([1.0, 2, 3], F32), "element_shape": T(-1, I32),
                              "lengths": T([-1, 4], I64)}),
        S("TensorListScatter", {"tensor": T([[1.0], [2.0]], F32), "indices": T([0], I32),
                                "element_shape": T([1], I32)}),
        S("TensorListScatter", {"tensor": T([[1.0], [2.0]], F32), "indices": T([0, -1], I32),
                                "element_shape": T([1], I32)}),
        S("TensorListScatterV2", {"tensor": T([[1.0], [2.0]], F32), "indices": T([0, 7], I32),
                                  "element_shape": T([1], I32), "num_elements": T(3, I32)}),
        S("TensorListGather", {"input_handle": REF(3), "indices": T([0, 1], I32),
                               "element_shape": T([-1, 3], I32)}, el),
        S("TensorListGather", {"input_handle": REF(3), "indices": T([5], I32),
                               "element_shape": T([-1, 3], I32)}, el),
        S("TensorListResize", {"input_handle": REF(3), "size": T(-2, I32)}),
        S("TensorListConcatLists", {"input_a": REF(3), "input_b": REF(14)}, el),
        S("TensorListPopBack", {"input_handle": REF(0), "element_shape": T([-1, 3], I32)}, el),
        S("TensorListConcatV2", {"input_handle": REF(14), "element_shape": T([-1, 5], I32),
                                 "leading_dims": T([], I64)}, el),
        S("TensorListConcatV2", {"input_handle": REF(14), "element_shape": T([2, 5], I32),
                                 "leading_dims": T([], I64)}, el),
        S("TensorListConcatV2", {"input_handle": REF(9), "element_shape": T([-1, 5], I32),
                                 "leading_dims": T([], I64)}, el),
        S("TensorListConcatV2", {"input_handle": REF(9), "element_shape": T([3, 5], I32),
                                 "leading_dims": T([], I64)}, el),
        S("TensorListReserve", {"element_shape": T([2], I32), "num_elements": T(-3, I32)}, el),
        S("EmptyTensorList", {"element_shape": T([2], I32), "max_num_elements": T(1, I32)},
          el),                                                                          # 43
        S("TensorListPushBack", {"input_handle": REF(43), "tensor": T([1.0, 2.0], F32)}),
        S("TensorListPushBack", {"input_handle": REF(44), "tensor": T([1.0, 2.0], F32)}),
        S("TensorListPushBackBatch", {"input_handles": REF(43), "tensor": T([1.0, 2.0], F32)}),
    ])


def main() -> None:
    kinds = [c["element_dtype"] for c in cpu_kernel_types("TensorListGetItem")]
    for dt in SIMPLE:
        if dt in kinds:
            per_dtype(dt)
    structural()
    R.write("coverage2_list_tf221.json")


if __name__ == "__main__":
    main()
