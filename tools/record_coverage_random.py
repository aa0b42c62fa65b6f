"""Records TF 2.21's results of random kernels that no other TF-recorded file
named yet: seeded stateful ops (every case has its own seeds, so each kernel
starts its Philox stream fresh), stateless ops, the counter-based stateful
ops on a resource variable (graph cases), RandomIndexShuffle and the
candidate samplers, into tests/data/coverage_random_tf221.json. tfe must
match TF's streams bit for bit. Run with /work/tfvenv/bin/python;
tests/python/test_coverage_random.py reads the JSON."""

from __future__ import annotations

import os
import sys
from itertools import count

sys.path.insert(0, os.path.dirname(__file__))
from record_coverage_common import Cases, record, ref, t, tf_dtypes

C = Cases("random", 2122)
add = C.add
_seed = count(101)


def seeds() -> dict[str, int]:
    return {"seed": next(_seed), "seed2": next(_seed)}


SH = t([2, 3], "int32")

# ---------------------------------------------------------------- seeded stateful
for op in ("RandomStandardNormal", "RandomUniform", "TruncatedNormal"):
    for dt in tf_dtypes(op, "dtype"):
        add(f"{op.lower()}_{dt}", op, {"shape": SH}, {"dtype": dt, **seeds()}, T=dt)
    add(f"{op.lower()}_odd", op, {"shape": t([5], "int64")}, {"dtype": "float32", **seeds()})
    add(f"{op.lower()}_err_shape", op, {"shape": t([2, -1], "int32")},
        {"dtype": "float32", **seeds()})
for dt in tf_dtypes("RandomGamma"):
    add(f"randomgamma_{dt}", "RandomGamma", {"shape": t([3], "int32"),
                                             "alpha": t([0.5, 1.0, 4.0], dt)}, seeds(), T=dt)
# (a shape that is not a vector: TF prints the tensor's debug string; not recorded)
for dt in tf_dtypes("RandomPoisson", "dtype"):
    add(f"randompoisson_{dt}", "RandomPoisson", {"shape": t([4], "int32"),
                                                 "rate": t([0.5, 3.0, 20.0], dt)}, seeds(), T=dt)
for rt in tf_dtypes("RandomPoissonV2", "R"):
    for dt in tf_dtypes("RandomPoissonV2", "dtype"):
        add(f"randompoissonv2_{rt}_{dt}", "RandomPoissonV2",
            {"shape": t([3], "int64"), "rate": t([0.5, 3.0, 40.0], rt)}, {"dtype": dt, **seeds()},
            T=rt)
for dt in tf_dtypes("RandomShuffle"):
    v = C.vals((6, 2), dt)
    add(f"randomshuffle_{dt}", "RandomShuffle", {"value": t(v, dt)}, seeds(), T=dt)
add("randomshuffle_scalar", "RandomShuffle", {"value": t(3, "int32")}, seeds())
for dt in tf_dtypes("ParameterizedTruncatedNormal", "dtype"):
    add(f"ptn_{dt}", "ParameterizedTruncatedNormal",
        {"shape": t([2, 4], "int32"), "means": t([0.0, 1.0], dt), "stdevs": t([1.0, 0.5], dt),
         "minvals": t([-1.0, 0.0], dt), "maxvals": t([1.0, 5.0], dt)}, seeds(), T=dt)
add("ptn_tail", "ParameterizedTruncatedNormal",
    {"shape": t([1, 5], "int32"), "means": t([0.0], "float64"), "stdevs": t([1.0], "float64"),
     "minvals": t([3.0], "float64"), "maxvals": t([10.0], "float64")}, seeds())
add("ptn_err", "ParameterizedTruncatedNormal",
    {"shape": t([2, 4], "int32"), "means": t([0.0, 1.0, 2.0], "float32"),
     "stdevs": t([1.0], "float32"), "minvals": t([-1.0], "float32"),
     "maxvals": t([1.0], "float32")}, seeds())

# ---------------------------------------------------------------- stateless V2 and key/counter
for st in ("int32", "int64"):
    add(f"getkeycounter_{st}", "StatelessRandomGetKeyCounter", {"seed": t([7, 11], st)})
    add(f"getkeycounteralg_{st}", "StatelessRandomGetKeyCounterAlg", {"seed": t([7, 11], st)})
add("getalg", "StatelessRandomGetAlg", {})
KEY, CTR = t([12345], "uint64"), t([5, 0], "uint64")
for alg in (1, 3):
    for dt in tf_dtypes("StatelessRandomNormalV2", "dtype"):
        add(f"srnv2_{dt}_{alg}", "StatelessRandomNormalV2",
            {"shape": SH, "key": KEY, "counter": CTR, "alg": t(alg, "int32")}, {"dtype": dt},
            T=dt if alg == 1 else None)
    for dt in tf_dtypes("StatelessRandomUniformV2", "dtype"):
        add(f"sruv2_{dt}_{alg}", "StatelessRandomUniformV2",
            {"shape": SH, "key": KEY, "counter": CTR, "alg": t(alg, "int32")}, {"dtype": dt},
            T=dt if alg == 1 else None)
    for dt in tf_dtypes("StatelessShuffle"):
        add(f"sshuffle_{dt}_{alg}", "StatelessShuffle",
            {"value": t(C.vals((7,), dt), dt), "key": KEY, "counter": CTR,
             "alg": t(alg, "int32")}, T=dt if alg == 1 else None)
# (an unknown alg: TF checks the counter's length against a size it derives
# from the unknown id first; not recorded)
add("sruv2_err_key", "StatelessRandomUniformV2",
    {"shape": SH, "key": t([1, 2], "uint64"), "counter": CTR, "alg": t(1, "int32")})
for dt in tf_dtypes("StatelessRandomBinomial", "dtype"):
    add(f"srbinomial_{dt}", "StatelessRandomBinomial",
        {"shape": t([2, 3], "int32"), "seed": t([3, 4], "int64"),
         "counts": t([5.0, 20.0, 100.0], "float32"), "probs": t([0.1, 0.5, 0.9], "float32")},
        {"dtype": dt}, T=dt)
for tp in tf_dtypes("StatelessRandomBinomial", "T"):
    add(f"srbinomial_T_{tp}", "StatelessRandomBinomial",
        {"shape": t([4, 1], "int32"), "seed": t([3, 5], "int32"),
         "counts": t([10.0], tp), "probs": t([0.3], tp)}, {"dtype": "int64"})
for rt in tf_dtypes("StatelessRandomPoisson", "Rtype"):
    for dt in tf_dtypes("StatelessRandomPoisson", "dtype"):
        add(f"srpoisson_{rt}_{dt}", "StatelessRandomPoisson",
            {"shape": t([2, 2], "int32"), "seed": t([9, 1], "int64"),
             "lam": t([0.5, 30.0], rt)}, {"dtype": dt}, T=dt)

# ------------------------------------------------ counter-based stateful on a variable
for alg, n in ((1, 3), (3, 3)):
    for op, extra, dt in (("StatefulStandardNormalV2", {}, "float32"),
                          ("StatefulUniform", {}, "float64"),
                          ("StatefulTruncatedNormal", {}, "float32"),
                          ("StatefulUniformFullInt", {}, "int64"),
                          ("StatefulUniformInt", {"minval": t(-5, "int32"),
                                                  "maxval": t(5, "int32")}, "int32")):
        attrs = {} if op == "StatefulUniformInt" else {"dtype": dt}  # else from minval
        C.graph(f"{op.lower()}_alg{alg}", [
            {"op": "VarHandleOp", "attrs": {"dtype": "int64", "shape": [n],
                                            "shared_name": f"rng{alg}"}},
            {"op": "AssignVariableOp", "inputs": {"resource": ref(0),
                                                  "value": t([4, 77, 0][:n], "int64")}},
            {"op": op, "inputs": {"resource": ref(0), "algorithm": t(alg, "int64"),
                                  "shape": t([2, 3], "int32"), **extra},
             "attrs": attrs},
            {"op": "ReadVariableOp", "inputs": {"resource": ref(0)}, "attrs": {"dtype": "int64"}},
        ], [[[1]], [[2, 0]], [[2, 0]], [[3, 0]]])
    C.graph(f"rngskip_alg{alg}", [
        {"op": "VarHandleOp", "attrs": {"dtype": "int64", "shape": [n], "shared_name": "sk"}},
        {"op": "AssignVariableOp", "inputs": {"resource": ref(0),
                                              "value": t([-1, 2, 3][:n], "int64")}},
        {"op": "RngSkip", "inputs": {"resource": ref(0), "algorithm": t(alg, "int64"),
                                     "delta": t(1000, "int64")}},
        {"op": "ReadVariableOp", "inputs": {"resource": ref(0)}, "attrs": {"dtype": "int64"}},
        {"op": "RngReadAndSkip", "inputs": {"resource": ref(0), "alg": t(alg, "int32"),
                                            "delta": t(2 ** 40, "uint64")}},
    ], [[[1]], [[2]], [[3, 0]], [[4, 0]], [[3, 0]]])
    C.graph(f"statefulbinomial_alg{alg}", [
        {"op": "VarHandleOp", "attrs": {"dtype": "int64", "shape": [n], "shared_name": "bn"}},
        {"op": "AssignVariableOp", "inputs": {"resource": ref(0),
                                              "value": t([5, 6, 7][:n], "int64")}},
        {"op": "StatefulRandomBinomial", "inputs": {
            "resource": ref(0), "algorithm": t(alg, "int64"), "shape": t([3], "int32"),
            "counts": t([10.0, 50.0, 3.0], "float64"), "probs": t([0.5, 0.1, 0.9], "float64")},
         "attrs": {"dtype": "int64"}},
    ], [[[1]], [[2, 0]]])
C.graph("statefulnormal_err_state", [
    {"op": "VarHandleOp", "attrs": {"dtype": "int64", "shape": [1], "shared_name": "bad"}},
    {"op": "AssignVariableOp", "inputs": {"resource": ref(0), "value": t([4], "int64")}},
    {"op": "StatefulStandardNormalV2", "inputs": {"resource": ref(0),
                                                  "algorithm": t(1, "int64"),
                                                  "shape": t([2], "int32")},
     "attrs": {"dtype": "float32"}},
], [[[1]], [[2, 0]]])
add("nondeterministicints", "NonDeterministicInts", {"shape": t([3, 2], "int32")},
    {"dtype": "int64"}, check=["shape"])

# ---------------------------------------------------------------- RandomIndexShuffle
for dt in tf_dtypes("RandomIndexShuffle", "dtype"):
    for st in ("int32", "int64", "uint32", "uint64"):
        add(f"ris_{dt}_{st}", "RandomIndexShuffle",
            {"index": t([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], dt), "seed": t([1, 2, 3], st),
             "max_index": t(9, dt)}, {"rounds": 4}, T=dt if st == "int64" else None)
add("ris_err_seed", "RandomIndexShuffle",
    {"index": t(1, "int64"), "seed": t([1, 2], "int64"), "max_index": t(9, "int64")})

# ---------------------------------------------------------------- candidate samplers
TC = t([[1, 3], [2, 7], [0, 9]], "int64")
for op, extra in (("UniformCandidateSampler", {"range_max": 10}),
                  ("LogUniformCandidateSampler", {"range_max": 10}),
                  ("LearnedUnigramCandidateSampler", {"range_max": 10}),
                  ("ThreadUnsafeUnigramCandidateSampler", {"range_max": 10}),
                  ("FixedUnigramCandidateSampler",
                   {"range_max": 10, "unigrams": [1.0, 2, 3, 4, 5, 6, 7, 8, 9, 10],
                    "distortion": 0.75})):
    for uq in (True, False):
        add(f"{op.lower()}_{uq}", op, {"true_classes": TC},
            {"num_true": 2, "num_sampled": 4, "unique": uq, **extra, **seeds()})
    add(f"{op.lower()}_err", op, {"true_classes": t([1, 3], "int64")},
        {"num_true": 2, "num_sampled": 4, "unique": True, **extra, **seeds()})
add("allcandidatesampler", "AllCandidateSampler", {"true_classes": TC},
    {"num_true": 2, "num_sampled": 10, "unique": True, **seeds()})
add("computeaccidentalhits", "ComputeAccidentalHits",
    {"true_classes": TC, "sampled_candidates": t([3, 9, 4, 1], "int64")}, {"num_true": 2})
add("computeaccidentalhits_err", "ComputeAccidentalHits",
    {"true_classes": TC, "sampled_candidates": t([3, 9], "int64")}, {"num_true": 3})


if __name__ == "__main__":
    record(C)
