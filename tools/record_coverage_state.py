"""Records TF 2.21's behaviour of stateful kernels that no other TF-recorded
file named yet, as sequences of ops on one resource run in a TF1 graph and
session (lookup tables, TensorLists, queues, stacks, Stage, resource and
reference variables, checkpoint io, control flow) into
tests/data/coverage_state_tf221.json. See record_coverage_common.py for the
graph-case format; ``{tmp}`` in string values stands for a scratch
directory (the test substitutes its own). Run with /work/tfvenv/bin/python;
tests/python/test_coverage_state.py reads the JSON."""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(__file__))
from record_coverage_common import Cases, record, ref, t

C = Cases("state", 2121)
F32, I64, STR = "float32", "int64", "string"


def s(op: str, inputs: dict[str, Any] | None = None, attrs: dict[str, Any] | None = None,
      ctrl: list[int] | None = None) -> dict[str, Any]:
    st: dict[str, Any] = {"op": op, "inputs": inputs or {}, "attrs": attrs or {}}
    if ctrl:
        st["ctrl"] = ctrl
    return st


# ---------------------------------------------------------------- lookup tables (V2, resource)
for kd, vd, keys, values, dflt, q in (
        (I64, F32, [1, 5, 9], [0.5, 1.5, 2.5], -1.0, [5, 2, 9, 1]),
        (STR, I64, ["a", "bb", "c"], [3, 4, 5], -7, ["c", "zz", "a", "bb"]),
        ("int32", STR, [10, 20, 30], ["x", "y", "z"], "?", [20, 30, 99, 10])):
    tag = f"{kd}_{vd}"
    C.graph(f"hashtablev2_{tag}", [
        s("HashTableV2", attrs={"key_dtype": kd, "value_dtype": vd}),
        s("InitializeTableV2", {"table_handle": ref(0), "keys": t(keys, kd),
                                "values": t(values, vd)}),
        s("LookupTableFindV2", {"table_handle": ref(0), "keys": t(q, kd),
                                "default_value": t(dflt, vd)}),
        s("LookupTableSizeV2", {"table_handle": ref(0)}),
    ], [[[3, 0]], [[1]], [[2, 0], [3, 0]], [[1]]])
    if kd == "int32":  # TF has no int32-keyed mutable table kernel
        continue
    C.graph(f"mutablehashtablev2_{tag}", [
        s("MutableHashTableV2", attrs={"key_dtype": kd, "value_dtype": vd}),
        s("LookupTableInsertV2", {"table_handle": ref(0), "keys": t(keys, kd),
                                  "values": t(values, vd)}),
        s("LookupTableFindV2", {"table_handle": ref(0), "keys": t(q, kd),
                                "default_value": t(dflt, vd)}),
        s("LookupTableSizeV2", {"table_handle": ref(0)}),
        s("LookupTableRemoveV2", {"table_handle": ref(0), "keys": t(keys[:1], kd)}),
        s("LookupTableExportV2", {"table_handle": ref(0)}, {"Tkeys": kd, "Tvalues": vd}),
        s("LookupTableImportV2", {"table_handle": ref(0), "keys": t(keys[1:2], kd),
                                  "values": t(values[:1], vd)}),
    ], [[[1]], [[2, 0], [3, 0]], [[4]], [[2, 0], [3, 0]], [[6]], [[2, 0], [3, 0], [5, 0]]])
C.graph("hashtablev2_err_dup_key", [
    s("HashTableV2", attrs={"key_dtype": I64, "value_dtype": F32}),
    s("InitializeTableV2", {"table_handle": ref(0), "keys": t([1, 1], I64),
                            "values": t([1.0, 2.0], F32)}),
], [[[1]]])
C.graph("hashtablev2_err_find_dtype", [
    s("HashTableV2", attrs={"key_dtype": I64, "value_dtype": F32}),
    s("InitializeTableV2", {"table_handle": ref(0), "keys": t([1, 2], I64),
                            "values": t([1.0, 2.0], F32)}),
    s("LookupTableFindV2", {"table_handle": ref(0), "keys": t([1], "int32"),
                            "default_value": t(0.0, F32)}),
], [[[1]], [[2, 0]]])
C.graph("hashtablev2_uninitialized", [
    s("HashTableV2", attrs={"key_dtype": I64, "value_dtype": F32}),
    s("LookupTableFindV2", {"table_handle": ref(0), "keys": t([1], I64),
                            "default_value": t(0.0, F32)}),
], [[[1, 0]]])
C.graph("mutablehashtableoftensorsv2", [
    s("MutableHashTableOfTensorsV2", attrs={"key_dtype": I64, "value_dtype": F32,
                                            "value_shape": [2]}),
    s("LookupTableInsertV2", {"table_handle": ref(0), "keys": t([3, 4], I64),
                              "values": t([[1.0, 2.0], [3.0, 4.0]], F32)}),
    s("LookupTableFindV2", {"table_handle": ref(0), "keys": t([4, 7], I64),
                            "default_value": t([-1.0, -2.0], F32)}),
    s("LookupTableSizeV2", {"table_handle": ref(0)}),
    s("LookupTableInsertV2", {"table_handle": ref(0), "keys": t([3], I64),
                              "values": t([[1.0, 2.0, 3.0]], F32)}),
], [[[1]], [[2, 0], [3, 0]], [[4]]])
C.graph("mutabledensehashtablev2", [
    s("MutableDenseHashTableV2", {"empty_key": t(-1, I64), "deleted_key": t(-2, I64)},
      {"value_dtype": F32, "initial_num_buckets": 8}),
    s("LookupTableInsertV2", {"table_handle": ref(0), "keys": t([3, 4, 11, 19], I64),
                              "values": t([1.0, 2.0, 3.0, 4.0], F32)}),
    s("LookupTableFindV2", {"table_handle": ref(0), "keys": t([4, 7, 19], I64),
                            "default_value": t(-1.0, F32)}),
    s("LookupTableSizeV2", {"table_handle": ref(0)}),
    s("LookupTableRemoveV2", {"table_handle": ref(0), "keys": t([4], I64)}),
    s("LookupTableInsertV2", {"table_handle": ref(0), "keys": t([-1], I64),
                              "values": t([1.0], F32)}),
], [[[1]], [[2, 0], [3, 0]], [[4]], [[2, 0], [3, 0]], [[5]]])
for op, extra in (("AnonymousHashTable", {}), ("AnonymousMutableHashTable", {}),
                  ("AnonymousMutableHashTableOfTensors", {"value_shape": []})):
    init = "InitializeTableV2" if op == "AnonymousHashTable" else "LookupTableInsertV2"
    C.graph(f"{op.lower()}", [
        s(op, attrs={"key_dtype": I64, "value_dtype": F32, **extra}),
        s(init, {"table_handle": ref(0), "keys": t([1, 2], I64), "values": t([5.0, 6.0], F32)}),
        s("LookupTableFindV2", {"table_handle": ref(0), "keys": t([2, 3], I64),
                                "default_value": t(0.0, F32)}, ctrl=[1]),
    ], [[[2, 0]]])
C.graph("anonymousmutabledensehashtable", [
    s("AnonymousMutableDenseHashTable", {"empty_key": t("", STR), "deleted_key": t("-", STR)},
      {"value_dtype": I64}),
    s("LookupTableInsertV2", {"table_handle": ref(0), "keys": t(["a", "b"], STR),
                              "values": t([5, 6], I64)}),
    s("LookupTableFindV2", {"table_handle": ref(0), "keys": t(["b", "q"], STR),
                            "default_value": t(0, I64)}, ctrl=[1]),
], [[[2, 0]]])
VOCAB = "apple\nbanana\ncherry\n"
for op in ("InitializeTableFromTextFileV2", "InitializeTableFromTextFile"):
    v1 = op == "InitializeTableFromTextFile"
    table = "HashTable" if v1 else "HashTableV2"
    find = "LookupTableFind" if v1 else "LookupTableFindV2"
    C.graph(f"{op.lower()}_lines", [
        s("WriteFile", {"filename": t("{tmp}/vocab.txt", STR), "contents": t(VOCAB, STR)}),
        s(table, attrs={"key_dtype": STR, "value_dtype": I64}),
        s(op, {"table_handle": ref(1), "filename": t("{tmp}/vocab.txt", STR)},
          {"key_index": -2, "value_index": -1}),
        s(find, {"table_handle": ref(1), "keys": t(["cherry", "kiwi", "apple"], STR),
                 "default_value": t(-1, I64)}),
    ], [[[0]], [[2]], [[3, 0]]])
C.graph("initializetablefromtextfilev2_missing", [
    s("HashTableV2", attrs={"key_dtype": STR, "value_dtype": I64}),
    s("InitializeTableFromTextFileV2", {"table_handle": ref(0),
                                        "filename": t("{tmp}/no_such_vocab.txt", STR)},
      {"key_index": -2, "value_index": -1}),
], [[[1]]])
# TF1 (reference-handle) table ops
C.graph("hashtable_v1", [
    s("HashTable", attrs={"key_dtype": I64, "value_dtype": F32}),
    s("InitializeTable", {"table_handle": ref(0), "keys": t([1, 2], I64),
                          "values": t([5.0, 6.0], F32)}),
    s("LookupTableFind", {"table_handle": ref(0), "keys": t([2, 3], I64),
                          "default_value": t(0.0, F32)}),
    s("LookupTableSize", {"table_handle": ref(0)}),
], [[[1]], [[2, 0], [3, 0]]])
C.graph("mutablehashtable_v1", [
    s("MutableHashTable", attrs={"key_dtype": I64, "value_dtype": F32}),
    s("LookupTableInsert", {"table_handle": ref(0), "keys": t([1, 2], I64),
                            "values": t([5.0, 6.0], F32)}),
    s("LookupTableFind", {"table_handle": ref(0), "keys": t([2, 3], I64),
                          "default_value": t(0.0, F32)}),
    s("LookupTableExport", {"table_handle": ref(0)}, {"Tkeys": I64, "Tvalues": F32}),
    s("LookupTableImport", {"table_handle": ref(0), "keys": t([9], I64),
                            "values": t([9.5], F32)}),
    s("LookupTableSize", {"table_handle": ref(0)}),
], [[[1]], [[2, 0]], [[4]], [[2, 0], [5, 0], [3, 0], [3, 1]]])
C.graph("mutablehashtableoftensors_v1", [
    s("MutableHashTableOfTensors", attrs={"key_dtype": STR, "value_dtype": I64,
                                          "value_shape": [2]}),
    s("LookupTableInsert", {"table_handle": ref(0), "keys": t(["k"], STR),
                            "values": t([[1, 2]], I64)}),
    s("LookupTableFind", {"table_handle": ref(0), "keys": t(["k", "m"], STR),
                          "default_value": t([0, 0], I64)}),
], [[[1]], [[2, 0]]])

# ---------------------------------------------------------------- TensorLists
ES = t([2], "int32")
C.graph("tensorlist_push_pop", [
    s("EmptyTensorList", {"element_shape": ES, "max_num_elements": t(-1, "int32")},
      {"element_dtype": F32}),
    s("TensorListPushBack", {"input_handle": ref(0), "tensor": t([1.0, 2.0], F32)}),
    s("TensorListPushBack", {"input_handle": ref(1), "tensor": t([3.0, 4.0], F32)}),
    s("TensorListLength", {"input_handle": ref(2)}),
    s("TensorListStack", {"input_handle": ref(2), "element_shape": ES},
      {"element_dtype": F32}),
    s("TensorListPopBack", {"input_handle": ref(2), "element_shape": ES},
      {"element_dtype": F32}),
    s("TensorListLength", {"input_handle": ref(5)}),
    s("TensorListElementShape", {"input_handle": ref(2)}, {"shape_type": "int32"}),
    s("TensorListGetItem", {"input_handle": ref(2), "index": t(0, "int32"),
                            "element_shape": ES}, {"element_dtype": F32}),
    s("TensorListSetItem", {"input_handle": ref(2), "index": t(1, "int32"),
                            "item": t([9.0, 9.5], F32)}),
    s("TensorListGather", {"input_handle": ref(9), "indices": t([1, 0, 1], "int32"),
                           "element_shape": ES}, {"element_dtype": F32}),
    s("TensorListResize", {"input_handle": ref(9), "size": t(3, "int32")}),
    s("TensorListLength", {"input_handle": ref(11)}),
    s("TensorListConcat", {"input_handle": ref(9)}, {"element_dtype": F32}),
    s("TensorListConcatV2", {"input_handle": ref(9), "element_shape": t([-1], "int64"),
                             "leading_dims": t([], "int64")}, {"element_dtype": F32}),
], [[[3, 0], [4, 0], [5, 1], [6, 0], [7, 0], [8, 0], [10, 0], [12, 0]], [[13, 0], [13, 1]],
    [[14, 0], [14, 1]]])
C.graph("tensorlist_from_tensor", [
    s("TensorListFromTensor", {"tensor": t([[1, 2], [3, 4], [5, 6]], "int32"),
                               "element_shape": ES}),
    s("TensorListReserve", {"element_shape": ES, "num_elements": t(4, "int32")},
      {"element_dtype": "int32"}),
    s("TensorListScatterIntoExistingList", {"input_handle": ref(1),
                                            "tensor": t([[7, 8], [9, 10]], "int32"),
                                            "indices": t([3, 0], "int32")}),
    s("TensorListGetItem", {"input_handle": ref(2), "index": t(3, "int32"),
                            "element_shape": ES}, {"element_dtype": "int32"}),
    s("TensorListScatter", {"tensor": t([[1, 1], [2, 2]], "int32"),
                            "indices": t([1, 0], "int32"), "element_shape": ES}),
    s("TensorListStack", {"input_handle": ref(4), "element_shape": ES},
      {"element_dtype": "int32"}),
    s("TensorListScatterV2", {"tensor": t([[1, 1], [2, 2]], "int32"),
                              "indices": t([2, 0], "int32"), "element_shape": ES,
                              "num_elements": t(4, "int32")}),
    s("TensorListLength", {"input_handle": ref(6)}),
    s("TensorListSplit", {"tensor": t([1.0, 2.0, 3.0, 4.0, 5.0], F32),
                          "element_shape": t([-1], "int32"), "lengths": t([2, 3], "int64")}),
    s("TensorListGetItem", {"input_handle": ref(8), "index": t(1, "int32"),
                            "element_shape": t([-1], "int32")}, {"element_dtype": F32}),
    s("TensorListConcatLists", {"input_a": ref(0), "input_b": ref(0)},
      {"element_dtype": "int32"}),
    s("TensorListLength", {"input_handle": ref(0)}),
    s("TensorListStack", {"input_handle": ref(0), "element_shape": ES},
      {"element_dtype": "int32", "num_elements": 3}),
], [[[3, 0], [5, 0], [7, 0], [9, 0], [11, 0], [12, 0]]])
C.graph("tensorlist_push_back_batch", [
    s("TensorListFromTensor", {"tensor": t([[1.0], [2.0]], F32), "element_shape": t([1], "int32")}),
    s("TensorListFromTensor", {"tensor": t([[3.0], [4.0]], F32), "element_shape": t([1], "int32")}),
    s("Pack", {"values": [ref(0), ref(1)]}),
    s("TensorListPushBackBatch", {"input_handles": ref(2), "tensor": t([[5.0], [6.0]], F32)}),
    s("Unpack", {"value": ref(3)}, {"num": 2}),
    s("TensorListStack", {"input_handle": ref(4, 1), "element_shape": t([1], "int32")},
      {"element_dtype": F32}),
], [[[5, 0]]])
C.graph("tensorlist_err_pop_empty", [
    s("EmptyTensorList", {"element_shape": ES, "max_num_elements": t(-1, "int32")},
      {"element_dtype": F32}),
    s("TensorListPopBack", {"input_handle": ref(0), "element_shape": ES},
      {"element_dtype": F32}),
], [[[1, 1]]])
C.graph("tensorlist_err_getitem", [
    s("TensorListFromTensor", {"tensor": t([[1, 2]], "int32"), "element_shape": ES}),
    s("TensorListGetItem", {"input_handle": ref(0), "index": t(4, "int32"),
                            "element_shape": ES}, {"element_dtype": "int32"}),
], [[[1, 0]]])
C.graph("tensorlist_err_max", [
    s("EmptyTensorList", {"element_shape": ES, "max_num_elements": t(1, "int32")},
      {"element_dtype": F32}),
    s("TensorListPushBack", {"input_handle": ref(0), "tensor": t([1.0, 2.0], F32)}),
    s("TensorListPushBack", {"input_handle": ref(1), "tensor": t([3.0, 4.0], F32)}),
    s("TensorListLength", {"input_handle": ref(2)}),
], [[[3, 0]]])
# (a wrong element_dtype: TF's shape function rejects it while building, tfe's
# kernel when run; not recorded)

# ---------------------------------------------------------------- queues
for v1 in (False, True):
    sfx = "" if v1 else "V2"
    tag = "v1" if v1 else "v2"
    C.graph(f"fifoqueue_{tag}", [
        s(f"FIFOQueue{sfx}", attrs={"component_types": [F32, "int32"], "shapes": [[2], []],
                                    "capacity": 5}),
        s(f"QueueEnqueue{sfx}", {"handle": ref(0), "components": [t([1.0, 2.0], F32),
                                                                  t(7, "int32")]}),
        s(f"QueueEnqueueMany{sfx}", {"handle": ref(0),
                                     "components": [t([[3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], F32),
                                                    t([8, 9, 10], "int32")]}),
        s(f"QueueSize{sfx}", {"handle": ref(0)}),
        s(f"QueueDequeue{sfx}", {"handle": ref(0)}, {"component_types": [F32, "int32"]}),
        s(f"QueueDequeueMany{sfx}", {"handle": ref(0), "n": t(2, "int32")},
          {"component_types": [F32, "int32"]}),
        s(f"QueueClose{sfx}", {"handle": ref(0)}),
        s(f"QueueIsClosed{sfx}", {"handle": ref(0)}),
        s(f"QueueDequeueUpTo{sfx}", {"handle": ref(0), "n": t(3, "int32")},
          {"component_types": [F32, "int32"]}),
        s(f"QueueDequeue{sfx}", {"handle": ref(0)}, {"component_types": [F32, "int32"]}),
        s(f"QueueEnqueue{sfx}", {"handle": ref(0), "components": [t([1.0, 2.0], F32),
                                                                  t(7, "int32")]}),
    ], [[[1]], [[2]], [[3, 0], [7, 0]], [[4, 0], [4, 1]], [[5, 0], [5, 1]], [[6]], [[7, 0]],
        [[8, 0], [8, 1]], [[9, 0]], [[10]]])
    C.graph(f"paddingfifoqueue_{tag}", [
        s(f"PaddingFIFOQueue{sfx}", attrs={"component_types": ["int32"], "shapes": [[None]]}),
        s(f"QueueEnqueue{sfx}", {"handle": ref(0), "components": [t([1, 2], "int32")]}),
        s(f"QueueEnqueue{sfx}", {"handle": ref(0), "components": [t([3, 4, 5], "int32")]},
          ctrl=[1]),
        s(f"QueueDequeueMany{sfx}", {"handle": ref(0), "n": t(2, "int32")},
          {"component_types": ["int32"]}),
    ], [[[2]], [[3, 0]]])
    C.graph(f"randomshufflequeue_{tag}", [
        s(f"RandomShuffleQueue{sfx}", attrs={"component_types": [I64], "shapes": [[]],
                                             "min_after_dequeue": 0, "capacity": 10,
                                             "seed": 5, "seed2": 9}),
        s(f"QueueEnqueueMany{sfx}", {"handle": ref(0), "components": [t([4, 4, 4], I64)]}),
        s(f"QueueDequeueMany{sfx}", {"handle": ref(0), "n": t(2, "int32")},
          {"component_types": [I64]}),
        s(f"QueueSize{sfx}", {"handle": ref(0)}),
    ], [[[1]], [[2, 0]], [[3, 0]]])
C.graph("fifoqueuev2_err_shape", [
    s("FIFOQueueV2", attrs={"component_types": [F32], "shapes": [[2]]}),
    s("QueueEnqueueV2", {"handle": ref(0), "components": [t([1.0, 2.0, 3.0], F32)]}),
], [[[1]]])

# ---------------------------------------------------------------- stacks, Stage, TensorArray
C.graph("stackv2", [
    s("StackV2", {"max_size": t(-1, "int32")}, {"elem_type": F32, "stack_name": "st"}),
    s("StackPushV2", {"handle": ref(0), "elem": t([1.0, 2.0], F32)}),
    s("StackPushV2", {"handle": ref(0), "elem": t([3.0], F32)}, ctrl=[1]),
    s("StackPopV2", {"handle": ref(0)}, {"elem_type": F32}, ctrl=[2]),
    s("StackPopV2", {"handle": ref(0)}, {"elem_type": F32}, ctrl=[3]),
    s("StackCloseV2", {"handle": ref(0)}, ctrl=[4]),
], [[[1, 0], [2, 0], [3, 0], [4, 0], [5]]])
C.graph("stackv2_err_pop_empty", [
    s("StackV2", {"max_size": t(-1, "int32")}, {"elem_type": F32, "stack_name": "st"}),
    s("StackPopV2", {"handle": ref(0)}, {"elem_type": F32}),
], [[[1, 0]]])
C.graph("stackv2_err_max", [
    s("StackV2", {"max_size": t(1, "int32")}, {"elem_type": F32, "stack_name": "st"}),
    s("StackPushV2", {"handle": ref(0), "elem": t(1.0, F32)}),
    s("StackPushV2", {"handle": ref(0), "elem": t(2.0, F32)}, ctrl=[1]),
], [[[2, 0]]])
C.graph("stack_v1_push_close", [
    s("Stack", attrs={"elem_type": "int32", "stack_name": "s1"}),
    s("StackPush", {"handle": ref(0), "elem": t([5, 6], "int32")}),
    s("StackPop", {"handle": ref(0)}, {"elem_type": "int32"}, ctrl=[1]),
    s("StackClose", {"handle": ref(0)}, ctrl=[2]),
], [[[1, 0], [2, 0], [3]]])
C.graph("stage", [
    s("Stage", {"values": [t([1.0, 2.0], F32), t(3, "int32")]}, {"shared_name": "sa"}),
    s("StageSize", attrs={"dtypes": [F32, "int32"], "shared_name": "sa"}),
    s("StagePeek", {"index": t(0, "int32")}, {"dtypes": [F32, "int32"], "shared_name": "sa"}),
    s("Unstage", attrs={"dtypes": [F32, "int32"], "shared_name": "sa"}),
    s("StageClear", attrs={"dtypes": [F32, "int32"], "shared_name": "sa"}),
], [[[0]], [[0]], [[1, 0]], [[2, 0], [2, 1]], [[3, 0], [3, 1]], [[4]], [[1, 0]]])
# (StagePeek past the end waits for more elements, in TF as in tfe: not recorded)
C.graph("tensorarray_concat_gradshape", [
    s("TensorArrayV3", {"size": t(2, "int32")}, {"dtype": F32}),
    s("TensorArrayWriteV3", {"handle": ref(0), "index": t(0, "int32"),
                             "value": t([[1.0, 2.0]], F32), "flow_in": ref(0, 1)}),
    s("TensorArrayWriteV3", {"handle": ref(0), "index": t(1, "int32"),
                             "value": t([[3.0, 4.0], [5.0, 6.0]], F32), "flow_in": ref(1)}),
    s("TensorArrayConcatV3", {"handle": ref(0), "flow_in": ref(2)}, {"dtype": F32}),
    s("TensorArrayGradWithShape", {"handle": ref(0), "flow_in": ref(2),
                                   "shape_to_prepend": t([3], "int32")}, {"source": "g"}),
    s("TensorArraySizeV3", {"handle": ref(4), "flow_in": ref(4, 1)}),
], [[[3, 0], [3, 1], [5, 0]]])

# ---------------------------------------------------------------- resource variables
C.graph("resource_variable", [
    s("VarHandleOp", attrs={"dtype": F32, "shape": [3], "shared_name": "v"}),
    s("VarIsInitializedOp", {"resource": ref(0)}),
    s("AssignVariableOp", {"resource": ref(0), "value": t([1.0, 2.0, 3.0], F32)}),
    s("ReadVariableOp", {"resource": ref(0)}, {"dtype": F32}),
    s("AssignAddVariableOp", {"resource": ref(0), "value": t([10.0, 10.0, 10.0], F32)}),
    s("AssignSubVariableOp", {"resource": ref(0), "value": t([1.0, 2.0, 3.0], F32)}),
    s("ResourceGather", {"resource": ref(0), "indices": t([2, 0], "int32")}, {"dtype": F32}),
    s("DisableCopyOnRead", {"resource": ref(0)}),
    s("DestroyResourceOp", {"resource": ref(0)}),
    s("AssignAddVariableOp", {"resource": ref(0), "value": t([1.0, 2.0, 3.0], F32)}),
    s("ResourceGather", {"resource": ref(0), "indices": t([5], "int32")}, {"dtype": F32}),
], [[[1, 0]], [[2]], [[1, 0], [3, 0]], [[4]], [[3, 0]], [[5]], [[3, 0], [6, 0]], [[7]],
    [[9]], [[3, 0]], [[10, 0]], [[8]], [[3, 0]], [[8]], [[9]]])
C.graph("resource_gather_batch", [
    s("VarHandleOp", attrs={"dtype": "int32", "shape": [2, 3], "shared_name": "g"}),
    s("AssignVariableOp", {"resource": ref(0), "value": t([[1, 2, 3], [4, 5, 6]], "int32")}),
    s("ResourceGather", {"resource": ref(0), "indices": t([[2, 0], [1, 1]], "int64")},
      {"dtype": "int32", "batch_dims": 1}, ctrl=[1]),
], [[[2, 0]]])

# ---------------------------------------------------------------- TF1 reference variables
C.graph("variablev2_assign", [
    s("VariableV2", attrs={"shape": [2], "dtype": F32}),
    s("IsVariableInitialized", {"ref": ref(0)}),
    s("Assign", {"ref": ref(0), "value": t([1.0, 2.0], F32)}),
    s("AssignAdd", {"ref": ref(0), "value": t([0.5, 0.5], F32)}),
    s("AssignSub", {"ref": ref(0), "value": t([2.0, 0.0], F32)}),
    s("Identity", {"input": ref(0)}),
    s("Assign", {"ref": ref(0), "value": t([1.0, 2.0, 3.0], F32)}, {"validate_shape": False}),
], [[[1, 0]], [[2, 0]], [[1, 0]], [[3, 0]], [[4, 0]], [[6, 0]], [[5, 0]]])
# (reading it before an Assign: TF's message names the variable node, tfe's the
# reference's dtype; not recorded)
C.graph("temporary_variable", [
    s("TemporaryVariable", attrs={"shape": [2], "dtype": "int32", "var_name": "tv"}),
    s("Assign", {"ref": ref(0), "value": t([3, 4], "int32")}),
    s("AssignAdd", {"ref": ref(1), "value": t([1, 1], "int32")}),
    s("DestroyTemporaryVariable", {"ref": ref(2)}, {"var_name": "tv"}),
], [[[3, 0]]])

# ---------------------------------------------------------------- checkpoint io
C.graph("savev2_restorev2", [
    s("SaveV2", {"prefix": t("{tmp}/ckpt", STR), "tensor_names": t(["a", "b"], STR),
                 "shape_and_slices": t(["", ""], STR),
                 "tensors": [t([[1.0, 2.0]], F32), t(["x", "yz"], STR)]}),
    s("RestoreV2", {"prefix": t("{tmp}/ckpt", STR), "tensor_names": t(["b", "a"], STR),
                    "shape_and_slices": t(["", ""], STR)}, {"dtypes": [STR, F32]}),
    s("RestoreV2", {"prefix": t("{tmp}/ckpt", STR), "tensor_names": t(["c"], STR),
                    "shape_and_slices": t([""], STR)}, {"dtypes": [F32]}),
    s("RestoreV2", {"prefix": t("{tmp}/ckpt", STR), "tensor_names": t(["a"], STR),
                    "shape_and_slices": t(["1 2 0,1:0,2"], STR)}, {"dtypes": [F32]}),
    s("SaveV2", {"prefix": t("{tmp}/ckpt_b", STR), "tensor_names": t(["c"], STR),
                 "shape_and_slices": t([""], STR), "tensors": [t(7, I64)]}),
    s("MergeV2Checkpoints", {"checkpoint_prefixes": t(["{tmp}/ckpt", "{tmp}/ckpt_b"], STR),
                             "destination_prefix": t("{tmp}/merged", STR)}),
    s("RestoreV2", {"prefix": t("{tmp}/merged", STR), "tensor_names": t(["c", "a"], STR),
                    "shape_and_slices": t(["", ""], STR)}, {"dtypes": [I64, F32]}),
    s("MatchingFiles", {"pattern": t("{tmp}/merged*", STR)}),
    s("RestoreV2", {"prefix": t("{tmp}/ckpt", STR), "tensor_names": t(["a"], STR),
                    "shape_and_slices": t([""], STR)}, {"dtypes": [I64]}),
], [[[0]], [[1, 0], [1, 1]], [[2, 0]], [[3, 0]], [[4]], [[5]], [[6, 0], [6, 1]], [[7, 0]],
    [[8, 0]]])
C.graph("save_restore_v1", [
    s("Save", {"filename": t("{tmp}/v1ckpt", STR), "tensor_names": t(["p", "q"], STR),
               "data": [t([1, 2, 3], "int32"), t([[1.5]], "float64")]}),
    s("Restore", {"file_pattern": t("{tmp}/v1ckpt", STR), "tensor_name": t("q", STR)},
      {"dt": "float64"}),
    s("RestoreSlice", {"file_pattern": t("{tmp}/v1ckpt", STR), "tensor_name": t("p", STR),
                       "shape_and_slice": t("3 1,2", STR)}, {"dt": "int32"}),
    s("SaveSlices", {"filename": t("{tmp}/v1slices", STR), "tensor_names": t(["w"], STR),
                     "shapes_and_slices": t(["4 0,2"], STR), "data": [t([7.0, 8.0], F32)]}),
    s("RestoreSlice", {"file_pattern": t("{tmp}/v1slices", STR), "tensor_name": t("w", STR),
                       "shape_and_slice": t("4 0,2", STR)}, {"dt": F32}),
    s("Restore", {"file_pattern": t("{tmp}/v1ckpt", STR), "tensor_name": t("zz", STR)},
      {"dt": "float64"}),
], [[[0]], [[1, 0]], [[2, 0]], [[3]], [[4, 0]], [[5, 0]]])
C.graph("sharded_names", [
    s("ShardedFilename", {"basename": t("{tmp}/model", STR), "shard": t(2, "int32"),
                          "num_shards": t(5, "int32")}),
    s("ShardedFilespec", {"basename": t("/a/b", STR), "num_shards": t(12, "int32")}),
    s("MatchingFiles", {"pattern": t("{tmp}/none_*", STR)}),
], [[[0, 0], [1, 0]], [[2, 0]]])

# ---------------------------------------------------------------- control flow (graph only)
for pred in (True, False):
    C.graph(f"switch_merge_{pred}", [
        s("Switch", {"data": t([1.0, 2.0], F32), "pred": t(pred, "bool")}),
        s("Neg", {"x": ref(0, 0)}),
        s("Square", {"x": ref(0, 1)}),
        s("Merge", {"inputs": [ref(1), ref(2)]}),
        s("NoOp", ctrl=[3]),
        s("ControlTrigger", ctrl=[1, 2]),
    ], [[[3, 0], [3, 1]], [[4]], [[5]]])
    C.graph(f"refswitch_refmerge_{pred}", [
        s("VariableV2", attrs={"shape": [], "dtype": "int32"}),
        s("Assign", {"ref": ref(0), "value": t(5, "int32")}),
        s("RefSwitch", {"data": ref(0), "pred": t(pred, "bool")}),
        s("RefMerge", {"inputs": [ref(2, 0), ref(2, 1)]}),
        s("Identity", {"input": ref(3)}),
    ], [[[1, 0]], [[4, 0], [3, 1]]])
# (fetching a dead tensor: TF says "Retval[0] does not have value", tfe names the
# fetch and why; not recorded)
C.graph("enter_exit", [
    s("Enter", {"data": t([3, 4], "int32")}, {"frame_name": "f", "is_constant": True}),
    s("Exit", {"data": ref(0)}),
], [[[1, 0]]])

C.graph("refenter_refexit", [
    s("VariableV2", attrs={"shape": [2], "dtype": F32}),
    s("Assign", {"ref": ref(0), "value": t([1.0, 2.0], F32)}),
    s("RefEnter", {"data": ref(0)}, {"frame_name": "rf", "is_constant": True}),
    s("RefExit", {"data": ref(2)}),
    s("Identity", {"input": ref(3)}),
], [[[1, 0]], [[4, 0]]])

if __name__ == "__main__":
    record(C)
