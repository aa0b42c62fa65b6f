"""Records TensorFlow 2.21's results for tests/python/test_api_random.py.

Each case is a snippet of TF-style code run with ``tf`` bound to TensorFlow;
its last expression's value (tensors become nested lists plus dtype and
shape) or the class of the exception it raised is stored in
tests/data/api_random_tf221.json. The test runs the same snippets with
``tf`` bound to tfe_py and compares. Run with TF's interpreter:

    /work/tfvenv/bin/python tools/record_api_random.py
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "data", "api_random_tf221.json")

# (name, code): the code's last line is an expression whose value is kept.
CASES: list[tuple[str, str]] = [
    # --- global and op seeds ---
    ("uniform_global_seed", "tf.random.set_seed(42)\ntf.random.uniform([5])"),
    ("uniform_seq", "tf.random.set_seed(42)\ntf.random.uniform([3])\ntf.random.uniform([3])"),
    ("uniform_op_seed_twice", "tf.random.set_seed(7)\na = tf.random.uniform([2], seed=3)\n"
     "b = tf.random.uniform([2], seed=3)\n[a, b]"),
    ("uniform_op_seed_only", "tf.random.set_seed(None)\n"
     "tf.random.uniform([4], seed=12345)"),
    ("uniform_reset", "tf.random.set_seed(5)\na = tf.random.uniform([3])\n"
     "tf.random.set_seed(5)\nb = tf.random.uniform([3])\n[a, b]"),
    ("uniform_seed_zero", "tf.random.set_seed(0)\ntf.random.uniform([3], seed=0)"),
    ("uniform_big_seed", "tf.random.set_seed(2**40 + 3)\ntf.random.uniform([3], seed=2**33)"),
    ("uniform_negative_seed", "tf.random.set_seed(-5)\ntf.random.uniform([3])"),
    ("uniform_range", "tf.random.set_seed(3)\ntf.random.uniform([4], -2.0, 5.0)"),
    ("uniform_maxval_only", "tf.random.set_seed(3)\ntf.random.uniform([4], maxval=10.0)"),
    ("uniform_f64", "tf.random.set_seed(3)\ntf.random.uniform([3], dtype=tf.float64)"),
    ("uniform_f16", "tf.random.set_seed(3)\ntf.random.uniform([3], dtype=tf.float16)"),
    ("uniform_bf16", "tf.random.set_seed(3)\ntf.random.uniform([3], dtype=tf.bfloat16)"),
    ("uniform_int32", "tf.random.set_seed(42)\ntf.random.uniform([6], 0, 10, dtype=tf.int32)"),
    ("uniform_int64", "tf.random.set_seed(42)\n"
     "tf.random.uniform([3], -5, 2**40, dtype=tf.int64)"),
    ("uniform_int_no_max", "tf.random.uniform([2], dtype=tf.int32)"),
    ("uniform_bad_dtype", "tf.random.uniform([2], dtype=tf.int8)"),
    ("uniform_int_bad_range", "tf.random.set_seed(1)\n"
     "tf.random.uniform([2], 5, 5, dtype=tf.int32)"),
    ("uniform_scalar_shape", "tf.random.set_seed(100)\n"
     "[tf.random.uniform([], maxval=10, dtype=tf.int32) for _ in range(3)]"),
    ("uniform_tensor_shape", "tf.random.set_seed(1)\n"
     "tf.random.uniform(tf.constant([2, 2]))"),
    ("normal", "tf.random.set_seed(1)\ntf.random.normal([5])"),
    ("normal_mean_std", "tf.random.set_seed(1)\ntf.random.normal([2, 2], mean=5.0, stddev=0.1)"),
    ("normal_f64", "tf.random.set_seed(9)\ntf.random.normal([3], dtype=tf.float64)"),
    ("normal_f16", "tf.random.set_seed(9)\ntf.random.normal([3], dtype=tf.float16)"),
    ("truncated", "tf.random.set_seed(3)\ntf.random.truncated_normal([7])"),
    ("truncated_f64", "tf.random.set_seed(3)\n"
     "tf.random.truncated_normal([3], 1.0, 2.0, tf.float64)"),
    ("categorical", "tf.random.set_seed(8)\n"
     "tf.random.categorical(tf.math.log([[0.5, 0.5], [0.1, 0.9]]), 7, seed=1)"),
    ("categorical_int32", "tf.random.set_seed(8)\n"
     "tf.random.categorical([[1.0, 2.0, 3.0]], 5, dtype=tf.int32)"),
    ("categorical_bad_dtype", "tf.random.categorical([[1.0, 2.0]], 2, dtype=tf.float32)"),
    ("shuffle_1d", "tf.random.set_seed(11)\ntf.random.shuffle(tf.range(10), seed=2)"),
    ("shuffle_2d", "tf.random.set_seed(11)\n"
     "tf.random.shuffle(tf.reshape(tf.range(12), [6, 2]))"),
    ("shuffle_twice", "tf.random.set_seed(4)\na = tf.random.shuffle(tf.range(5), seed=1)\n"
     "b = tf.random.shuffle(tf.range(5), seed=1)\n[a, b]"),
    ("shuffle_strings", "tf.random.set_seed(2)\n"
     "tf.random.shuffle(tf.constant(['a', 'b', 'c', 'd']), seed=5)"),
    ("shuffle_scalar", "tf.random.shuffle(tf.constant(3.0))"),
    ("gamma", "tf.random.set_seed(4)\ntf.random.gamma([3], alpha=1.5, seed=1)"),
    ("gamma_alphas", "tf.random.set_seed(4)\n"
     "tf.random.gamma([2], alpha=[0.5, 1.0, 3.0], beta=[1.0, 2.0, 0.5])"),
    ("gamma_f64", "tf.random.set_seed(4)\ntf.random.gamma([3], 2.0, dtype=tf.float64)"),
    ("gamma_f16", "tf.random.set_seed(4)\ntf.random.gamma([3], 0.3, dtype=tf.float16)"),
    ("poisson", "tf.random.set_seed(4)\ntf.random.poisson([3], lam=2.0, seed=1)"),
    ("poisson_rates", "tf.random.set_seed(4)\ntf.random.poisson([2], [0.5, 9.9, 10.0, 150.0])"),
    ("poisson_int", "tf.random.set_seed(4)\ntf.random.poisson([3], 30.0, dtype=tf.int64)"),
    ("poisson_f64_rate", "tf.random.set_seed(4)\n"
     "tf.random.poisson([3], tf.constant([3.0, 40.0], tf.float64), dtype=tf.float64)"),
    ("fn_seeded", "tf.random.set_seed(3)\n"
     "f = tf.function(lambda: tf.random.uniform([2]) + tf.random.normal([2]))\n[f(), f()]"),
    ("fn_op_seed", "tf.random.set_seed(3)\n"
     "h = tf.function(lambda: tf.random.uniform([2], seed=5))\n[h(), h()]"),
    ("init_normal_seeded", "tf.random_normal_initializer(1.0, 2.0, seed=4)([2, 2])"),
    ("init_uniform_seeded", "tf.random_uniform_initializer(-1.0, 1.0, seed=4)([3], "
     "tf.float64)"),
    ("init_uniform_int", "tf.random_uniform_initializer(0, 10, seed=4)([3], tf.int32)"),
    ("init_normal_global", "tf.random.set_seed(2)\ntf.random_normal_initializer()([3])"),
    ("init_normal_int_error", "tf.random_normal_initializer()([3], tf.int32)"),
    ("init_config", "tf.random_uniform_initializer(-2.0, 3.0, seed=1).get_config()"),
    ("cand_uniform_unique", "tf.random.set_seed(1)\n"
     "list(tf.random.uniform_candidate_sampler([[1], [5]], 1, 4, True, 10, seed=3))"),
    ("cand_uniform", "tf.random.set_seed(1)\n"
     "list(tf.random.uniform_candidate_sampler(tf.constant([[1, 2], [5, 9]], tf.int64), 2, 6, "
     "False, 7))"),
    ("cand_log_uniform_unique", "tf.random.set_seed(2)\n"
     "list(tf.random.log_uniform_candidate_sampler([[0], [3], [40]], 1, 8, True, 50, seed=7))"),
    ("cand_log_uniform", "tf.random.set_seed(2)\n"
     "list(tf.random.log_uniform_candidate_sampler([[0], [3]], 1, 5, False, 1000))"),
    ("cand_all", "list(tf.random.all_candidate_sampler([[1, 2]], 2, 5, True))"),
    ("cand_range_small", "tf.random.uniform_candidate_sampler([[1]], 1, 5, True, 3)"),
    ("cand_out_of_range", "tf.random.uniform_candidate_sampler([[11]], 1, 2, True, 10)"),
    ("cand_learned", "tf.random.set_seed(3)\n"
     "f = lambda: list(tf.random.learned_unigram_candidate_sampler([[1], [1], [2]], 1, 4, "
     "False, 5, seed=1))\n[f(), f(), f()]"),
    ("cand_learned_unique", "tf.random.set_seed(3)\n"
     "f = lambda: list(tf.random.learned_unigram_candidate_sampler([[0, 3]], 2, 3, True, 6, "
     "seed=2))\n[f(), f()]"),
    ("cand_thread_unsafe", "list(tf.raw_ops.ThreadUnsafeUnigramCandidateSampler("
     "true_classes=tf.constant([[4], [4]], tf.int64), num_true=1, num_sampled=5, unique=False, "
     "range_max=9, seed=5, seed2=6))"),
    ("cand_fixed_unigrams", "tf.random.set_seed(4)\n"
     "list(tf.random.fixed_unigram_candidate_sampler([[1], [2]], 1, 6, False, 5, "
     "unigrams=[0.1, 0.5, 2.0, 1.0, 0.4], seed=3))"),
    ("cand_fixed_unique_distort", "tf.random.set_seed(4)\n"
     "list(tf.random.fixed_unigram_candidate_sampler([[0, 4]], 2, 3, True, 6, "
     "distortion=0.5, num_reserved_ids=2, unigrams=[3.0, 1.0, 2.0, 5.0], seed=3))"),
    ("cand_fixed_shards", "tf.random.set_seed(4)\n"
     "list(tf.random.fixed_unigram_candidate_sampler([[1]], 1, 4, False, 3, num_shards=2, "
     "shard=1, unigrams=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], seed=9))"),
    ("cand_fixed_vocab", "import os, tempfile\n"
     "d = tempfile.mkdtemp()\np = os.path.join(d, 'vocab.csv')\n"
     "open(p, 'w').write('a,1.5\\nb,x,2\\nc,0.25\\nd,4\\n')\n"
     "tf.random.set_seed(4)\n"
     "list(tf.random.fixed_unigram_candidate_sampler([[3]], 1, 5, False, 4, vocab_file=p, "
     "seed=1))"),
    ("cand_fixed_bad_range", "tf.random.fixed_unigram_candidate_sampler([[1]], 1, 2, False, 7, "
     "unigrams=[1.0, 2.0])"),
    ("accidental_hits", "list(tf.raw_ops.ComputeAccidentalHits("
     "true_classes=tf.constant([[1, 2], [3, 1]], tf.int64), "
     "sampled_candidates=tf.constant([1, 7, 3, 1], tf.int64), num_true=2))"),
    ("err_normal_int", "tf.random.normal([2], dtype=tf.int32)"),
    ("err_truncated_int", "tf.random.truncated_normal([2], dtype=tf.int64)"),
    ("err_uniform_int_vector_min", "tf.random.uniform([2], minval=[0, 1], maxval=5, "
     "dtype=tf.int32)"),
    ("err_negative_dim", "tf.random.uniform([-1])"),
    ("uniform_vector_min", "tf.random.set_seed(6)\n"
     "tf.random.uniform([2], minval=tf.constant([0.0, 1.0]), maxval=5.0)"),
    ("err_categorical_vector", "tf.random.categorical([1.0, 2.0], 3)"),
    ("err_stateless_seed_len", "tf.random.stateless_uniform([2], seed=[1, 2, 3])"),
    ("err_stateless_float_seed", "tf.random.stateless_normal([2], seed=tf.constant([1.0, 2.0]))"),
    ("gamma_negative_alpha", "tf.random.set_seed(6)\ntf.random.gamma([2], alpha=-1.0)"),
    ("shuffle_scalar_int", "tf.random.shuffle(tf.constant(5))"),
    ("err_gen_int8", "tf.random.Generator.from_seed(1).uniform([2], dtype=tf.int8, minval=0, "
     "maxval=3)"),
    ("err_str_seed", "tf.random.set_seed('abc')\ntry:\n    tf.random.uniform([1])\n"
     "finally:\n    tf.random.set_seed(None)\n0"),
    ("err_stateless_categorical_dtype", "tf.random.stateless_categorical([[0.0, 0.0]], 3, "
     "seed=[1, 2], dtype=tf.float32)"),
    # --- stateless ---
    ("stateless_uniform", "tf.random.stateless_uniform([3], seed=[1, 2])"),
    ("stateless_uniform_int", "tf.random.stateless_uniform([4], seed=(1, 2), minval=5, "
     "maxval=9, dtype=tf.int32)"),
    ("stateless_uniform_f64", "tf.random.stateless_uniform([2], seed=[3, 4], dtype=tf.float64)"),
    ("stateless_uniform_full", "tf.random.stateless_uniform([3], seed=[3, 4], minval=None, "
     "maxval=None, dtype=tf.int64)"),
    ("stateless_uniform_uint32", "tf.random.stateless_uniform([3], seed=[3, 4], minval=None, "
     "maxval=None, dtype=tf.uint32)"),
    ("stateless_uniform_philox", "tf.random.stateless_uniform([3], seed=[7, 8], alg='philox')"),
    ("stateless_uniform_int64_seed", "tf.random.stateless_uniform([3], "
     "seed=tf.constant([7, 8], tf.int64))"),
    ("stateless_uniform_bad_minmax", "tf.random.stateless_uniform([3], seed=[1, 2], minval=None, "
     "maxval=3, dtype=tf.int32)"),
    ("stateless_uniform_unsigned_range", "tf.random.stateless_uniform([3], seed=[1, 2], "
     "minval=0, maxval=3, dtype=tf.uint32)"),
    ("stateless_uniform_bad_alg", "tf.random.stateless_uniform([3], seed=[1, 2], alg='nope')"),
    ("stateless_normal", "tf.random.stateless_normal([4], seed=[0, 0])"),
    ("stateless_normal_params", "tf.random.stateless_normal([2, 3], seed=[5, 6], mean=1.0, "
     "stddev=3.0, dtype=tf.float64)"),
    ("stateless_truncated", "tf.random.stateless_truncated_normal([5], seed=[9, 9])"),
    ("stateless_categorical", "tf.random.stateless_categorical(tf.math.log([[0.1, 0.9]]), 6, "
     "seed=[4, 2])"),
    ("stateless_binomial", "tf.random.stateless_binomial([3], seed=[1, 1], counts=10.0, "
     "probs=0.5)"),
    ("stateless_binomial_mix", "tf.random.stateless_binomial([2, 3], seed=[3, 1], "
     "counts=[5.0, 100.0, 40.0], probs=[0.3, 0.2, 0.9])"),
    ("stateless_binomial_edges", "tf.random.stateless_binomial([4], seed=[3, 1], "
     "counts=[0.0, 5.0, 7.0, 3.0], probs=[0.5, 0.0, 1.0, 0.95], output_dtype=tf.float32)"),
    ("stateless_binomial_bcast", "tf.random.stateless_binomial([2, 2, 3], seed=[2, 2], "
     "counts=[[10.], [200.]], probs=[0.1, 0.5, 0.7])"),
    ("stateless_gamma", "tf.random.stateless_gamma([2], seed=[1, 2], alpha=2.0)"),
    ("stateless_gamma_alphas", "tf.random.stateless_gamma([3, 2], seed=[1, 2], "
     "alpha=[0.25, 1.0], beta=3.0, dtype=tf.float64)"),
    ("stateless_poisson", "tf.random.stateless_poisson([3], seed=[1, 2], lam=4.0)"),
    ("stateless_poisson_rates", "tf.random.stateless_poisson([2, 3], seed=[5, 2], "
     "lam=[1.0, 12.0, 500.0], dtype=tf.float32)"),
    ("stateless_ptn", "tf.random.stateless_parameterized_truncated_normal([5], seed=[1, 2])"),
    ("stateless_ptn_branches", "tf.random.stateless_parameterized_truncated_normal([3, 4], "
     "seed=[3, 2], means=[0.0, 1.0, 0.0, 0.0], stddevs=1.0, minvals=[-1.0, 2.0, 3.0, -9.0], "
     "maxvals=[1.0, 5.0, 4.0, -8.5])"),
    ("stateless_ptn_f64", "tf.random.stateless_parameterized_truncated_normal([2, 2], "
     "seed=[3, 2], means=tf.constant([0.5, 1.0], tf.float64), "
     "stddevs=tf.constant(2.0, tf.float64), minvals=tf.constant(0.0, tf.float64), "
     "maxvals=tf.constant(0.5, tf.float64))"),
    ("stateless_ptn_f16", "tf.random.stateless_parameterized_truncated_normal([6], "
     "seed=[3, 2], means=tf.constant(0.0, tf.float16), stddevs=tf.constant(1.0, tf.float16), "
     "minvals=tf.constant(0.5, tf.float16), maxvals=tf.constant(1.5, tf.float16))"),
    ("stateless_ptn_bad", "tf.random.stateless_parameterized_truncated_normal([2], "
     "seed=[3, 2], stddevs=-1.0)"),
    ("raw_ptn", "tf.raw_ops.ParameterizedTruncatedNormal(shape=[4], means=0.0, stdevs=1.0, "
     "minvals=-1.0, maxvals=3.0, seed=1, seed2=2)"),
    ("raw_ptn_vec", "tf.raw_ops.ParameterizedTruncatedNormal(shape=[2, 3], "
     "means=[0.0, 5.0], stdevs=[1.0, 0.5], minvals=[1.0, 4.0], maxvals=[9.0, 4.2], "
     "seed=4, seed2=2)"),
    ("index_shuffle", "tf.random.experimental.index_shuffle(tf.range(10), seed=[1, 2], "
     "max_index=9)"),
    ("index_shuffle_scalar", "tf.random.experimental.index_shuffle(3, seed=[5, 6], "
     "max_index=100000)"),
    ("index_shuffle_int64", "tf.random.experimental.index_shuffle("
     "tf.constant([0, 1, 2**40], tf.int64), seed=tf.constant([7, 8], tf.int64), "
     "max_index=tf.constant(2**41, tf.int64))"),
    ("random_index_shuffle_top", "tf.random_index_shuffle(tf.constant([4, 5], tf.uint32), "
     "seed=tf.constant([1, 2, 3], tf.uint32), max_index=tf.constant(20, tf.uint32), rounds=6)"),
    ("index_shuffle_bad_max", "tf.random_index_shuffle(7, seed=[1, 2, 3], max_index=5)"),
    ("stateless_shuffle", "tf.random.experimental.stateless_shuffle(tf.range(10), "
     "seed=[4, 2])"),
    ("stateless_shuffle_2d", "tf.random.experimental.stateless_shuffle("
     "tf.reshape(tf.range(8.0), [4, 2]), seed=[4, 2], alg='philox')"),
    ("fold_in", "tf.random.experimental.stateless_fold_in([1, 2], 3)"),
    ("fold_in_top", "tf.random.fold_in(tf.constant([1, 2], tf.int64), 7)"),
    ("split", "tf.random.experimental.stateless_split([1, 2], num=2)"),
    ("split3", "tf.random.split(tf.constant([5, 6], tf.int64), 3)"),
    ("create_rng_state", "tf.random.create_rng_state(1234, 'philox')"),
    ("create_rng_state_list", "tf.random.create_rng_state([5, 6], 1)"),
    ("create_rng_state_big", "tf.random.create_rng_state(2**70 + 5, 'philox')"),
    ("create_rng_state_neg", "tf.random.create_rng_state(-1, 'philox')"),
    ("algorithm_enum", "[tf.random.Algorithm.PHILOX.value, tf.random.Algorithm.THREEFRY.value, "
     "tf.random.Algorithm.AUTO_SELECT.value]"),
    # --- Generator ---
    ("gen_uniform", "g = tf.random.Generator.from_seed(123)\n"
     "[g.uniform([3]), g.normal([2]), g.uniform([2], maxval=100, dtype=tf.int64)]"),
    ("gen_state", "g = tf.random.Generator.from_seed(123)\ng.uniform([5])\n"
     "g.state.read_value()"),
    ("stateless_threefry", "tf.random.stateless_uniform([2], seed=[1, 2], alg='threefry')"),
    ("gen_threefry", "tf.random.Generator.from_seed(1, alg='threefry').uniform([2])"),
    ("gen_threefry_state", "tf.random.Generator.from_seed(1, alg='threefry').state.read_value()"),
    ("gen_in_function", "g = tf.random.Generator.from_seed(123)\n"
     "f = tf.function(lambda: g.normal([2]))\n[f(), f(), g.state.read_value()]"),
    ("gen_state_repr", "g = tf.random.Generator.from_seed(2**65 + 7)\ng.normal([2])\n"
     "repr(g.state)"),
    ("gen_state_normal_odd", "g = tf.random.Generator.from_seed(9)\ng.normal([3, 3])\n"
     "g.state.read_value()"),
    ("gen_philox", "g = tf.random.Generator.from_seed(1, alg='philox')\ng.normal([2, 2])"),
    ("gen_auto", "g = tf.random.Generator.from_seed(1, alg='auto_select')\n"
     "[g.normal([2]), g.algorithm]"),
    ("gen_split", "g = tf.random.Generator.from_seed(5)\na, b = g.split(2)\n"
     "[a.uniform([2]), b.uniform([2]), g.uniform([2])]"),
    ("gen_truncated", "g = tf.random.Generator.from_seed(77)\n"
     "g.truncated_normal([5], mean=1.0, stddev=2.0)"),
    ("gen_full_int", "g = tf.random.Generator.from_seed(77)\n"
     "[g.uniform_full_int([3]), g.uniform_full_int([2], tf.int32)]"),
    ("gen_uniform_range", "g = tf.random.Generator.from_seed(3)\n"
     "g.uniform([4], minval=-1.0, maxval=3.0, dtype=tf.float64)"),
    ("gen_from_state", "g = tf.random.Generator.from_state([1, 2, 3], 'philox')\n"
     "[g.uniform([2]), g.state.read_value()]"),
    ("gen_from_key_counter", "g = tf.random.Generator.from_key_counter(5, [6, 7], 'philox')\n"
     "[g.normal([2]), g.state.read_value()]"),
    ("gen_reset", "g = tf.random.Generator.from_seed(3)\ng.uniform([2])\ng.reset_from_seed(3)\n"
     "g.uniform([2])"),
    ("gen_skip", "g = tf.random.Generator.from_seed(3)\ng.skip(10)\ng.uniform([2])"),
    ("gen_make_seeds", "g = tf.random.Generator.from_seed(11)\ng.make_seeds(3)"),
    ("gen_binomial", "g = tf.random.Generator.from_seed(11)\n"
     "[g.binomial([4], counts=[10.0, 20.0, 30.0, 40.0], probs=0.3), g.state.read_value()]"),
    ("gen_copy", "g = tf.random.Generator.from_seed(8)\ng.uniform([1])\n"
     "h = tf.random.Generator(copy_from=g)\n[h.uniform([2]), g.uniform([2])]"),
    ("gen_int_bad_minmax", "g = tf.random.Generator.from_seed(8)\n"
     "g.uniform([2], minval=None, maxval=3, dtype=tf.int32)"),
    ("gen_bad_alg", "tf.random.Generator.from_seed(8, alg='foo')"),
    ("gen_global_set", "tf.random.set_global_generator(tf.random.Generator.from_seed(21))\n"
     "tf.random.get_global_generator().normal([3])"),
    ("gen_nondeterministic_shape", "g = tf.random.Generator.from_non_deterministic_state()\n"
     "g.state.shape.as_list()"),
    # --- raw ops ---
    ("raw_read_and_skip", "v = tf.Variable([1, 2, 3], dtype=tf.int64)\n"
     "r = tf.raw_ops.RngReadAndSkip(resource=v.handle, alg=1, delta=tf.constant(5, tf.uint64))\n"
     "[r, v.read_value()]"),
    ("raw_stateful_uniform", "v = tf.Variable([1, 2, 3], dtype=tf.int64)\n"
     "r = tf.raw_ops.StatefulUniform(resource=v.handle, algorithm=tf.constant(1, tf.int64), "
     "shape=[3])\n[r, v.read_value()]"),
    ("raw_stateful_normal", "v = tf.Variable([4, 5, 6], dtype=tf.int64)\n"
     "tf.raw_ops.StatefulStandardNormalV2(resource=v.handle, algorithm=tf.constant(1, tf.int64), "
     "shape=[3], dtype=tf.float64)"),
    ("raw_stateful_int", "v = tf.Variable([4, 5, 6], dtype=tf.int64)\n"
     "tf.raw_ops.StatefulUniformInt(resource=v.handle, algorithm=tf.constant(1, tf.int64), "
     "shape=[5], minval=tf.constant(-3, tf.int64), maxval=tf.constant(4, tf.int64))"),
    ("raw_stateful_truncated", "v = tf.Variable([4, 5, 6], dtype=tf.int64)\n"
     "tf.raw_ops.StatefulTruncatedNormal(resource=v.handle, "
     "algorithm=tf.constant(1, tf.int64), shape=[5])"),
    ("raw_gamma_v2", "tf.raw_ops.StatelessRandomGammaV2(shape=[3], seed=[4, 5], "
     "alpha=tf.constant(0.7))"),
    ("raw_stateless_shuffle", "tf.raw_ops.StatelessShuffle(value=tf.range(8), "
     "key=tf.constant([3], tf.uint64), counter=tf.constant([1, 2], tf.uint64), alg=1)"),
    ("raw_random_poisson_v1", "tf.raw_ops.RandomPoisson(shape=[3], rate=tf.constant(5.0), "
     "seed=3, seed2=4)"),
    ("raw_gamma_empty", "tf.raw_ops.RandomGamma(shape=[0], alpha=tf.constant([1.0, 2.0]), "
     "seed=1, seed2=2)"),
]


def _encode(v: Any) -> Any:
    import numpy as np

    if isinstance(v, (list, tuple)):
        return {"list": [_encode(x) for x in v]}
    if hasattr(v, "numpy") and hasattr(v, "dtype"):
        a = v.numpy()
        dt = v.dtype.name
        if a.dtype.kind in "SUO":
            vals: Any = [x.decode() if isinstance(x, bytes) else x for x in a.ravel().tolist()]
        else:
            vals = np.asarray(a, dtype=np.float64 if a.dtype.kind == "f" or dt == "bfloat16"
                              else a.dtype).ravel().tolist()
        return {"dtype": dt, "shape": list(a.shape), "values": vals}
    if isinstance(v, (int, float, str, bool)) or v is None:
        return {"py": v}
    return {"repr": repr(v)}


def run(tf: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, code in CASES:
        lines = code.split("\n")
        env: dict[str, Any] = {"tf": tf}
        try:
            exec("\n".join(lines[:-1]), env)
            val = eval(lines[-1], env)
            out[name] = _encode(val)
        except Exception as e:
            out[name] = {"error": type(e).__name__}
    return out


def main() -> int:
    import tensorflow as tf

    res = run(tf)
    with open(OUT, "w") as f:
        json.dump({"tf_version": tf.__version__, "cases": res}, f, indent=1, sort_keys=True)
    print(f"wrote {len(res)} cases to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
