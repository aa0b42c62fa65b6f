"""``tf.random``: seeded random numbers with TensorFlow's seeding rules,
``Generator`` and the ``stateless_*`` functions.

The numbers are TensorFlow's: the kernels use Philox-4x32-10 and TF's
conversions (csrc/kernels/cpu/random_*.c), and this module derives the
``seed``/``seed2`` attrs of the stateful ops exactly as TF's
``random_seed.get_seed`` does:

* with a global seed (:func:`set_seed`) and no op seed, the op seed is the
  next number of a per-context ``random.Random(global_seed)`` stream (TF's
  ``internal_operation_seed``), which ``set_seed`` restarts;
* with only an op seed, the global seed is TF's ``DEFAULT_GRAPH_SEED``;
* with neither, both attrs are 0 and the kernel seeds itself from the OS.

A stateful kernel keeps its generator between calls (the context's kernel
cache holds it), so a second call with the same seeds continues the stream;
``set_seed`` clears the kernel cache as TF does. Other modules derive seeds
with :func:`get_seed` (``tf.nn.dropout``).

``Generator`` keeps its state ([counter_lo, counter_hi, key] as int64) in a
resource variable and draws through ``RngReadAndSkip`` and the stateless
V2 ops, as TF's Generator does.
"""

from __future__ import annotations

import enum
import random as _pyrandom
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from tfe_py import _api, context, dtypes
from tfe_py import ops as _ops

__all__ = [
    "Algorithm",
    "Generator",
    "all_candidate_sampler",
    "categorical",
    "create_rng_state",
    "experimental",
    "fixed_unigram_candidate_sampler",
    "fold_in",
    "gamma",
    "get_global_generator",
    "learned_unigram_candidate_sampler",
    "log_uniform_candidate_sampler",
    "normal",
    "poisson",
    "set_global_generator",
    "set_seed",
    "shuffle",
    "split",
    "stateless_binomial",
    "stateless_categorical",
    "stateless_gamma",
    "stateless_normal",
    "stateless_parameterized_truncated_normal",
    "stateless_poisson",
    "stateless_truncated_normal",
    "stateless_uniform",
    "truncated_normal",
    "uniform",
    "uniform_candidate_sampler",
]

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset(
    {"random_index_shuffle", "random_normal_initializer", "random_uniform_initializer"}
)

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1

# ---------------------------------------------------------------------------
# Seeds


class _SeedState:
    """A context's global seed and its op-seed stream (TF keeps both on the
    eager context)."""

    __slots__ = ("rng", "seed")

    def __init__(self) -> None:
        self.seed: Any = None
        self.rng: _pyrandom.Random | None = None


_seed_states: weakref.WeakKeyDictionary[Any, _SeedState] = weakref.WeakKeyDictionary()
_graph_op_seeds: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()


def _seed_state(ctx: Any) -> _SeedState:
    st = _seed_states.get(ctx)
    if st is None:
        st = _SeedState()
        _seed_states[ctx] = st
    return st


def _current_graph() -> Any:
    return context._state.graph


def _truncate_seed(seed: Any) -> int:
    # seed % 2**31-1 as TF computes it (a str seed fails here, as in TF)
    return int(seed % _MAXINT32)


def set_seed(seed: Any) -> None:
    """Sets the global random seed (of the current context, or of the default
    graph inside one), as ``tf.random.set_seed``.

    Restarts the op-seed stream and clears the context's kernel cache, so
    seeded stateful ops start their streams again.
    """
    g = _current_graph()
    if g is not None:
        g.seed = seed
        _graph_op_seeds.pop(g, None)
        return
    ctx = context.current_context()
    st = _seed_state(ctx)
    st.seed = seed
    try:
        hash(seed)
        st.rng = _pyrandom.Random(seed)
    except TypeError:
        st.rng = _pyrandom.Random(int(np.array(seed)))
    ctx.clear_caches()


def get_seed(op_seed: Any) -> tuple[int | None, int | None]:
    """The (seed, seed2) pair a random op gets for op seed ``op_seed``
    (None: unset), as TF's ``random_seed.get_seed``; (None, None) means
    "non-deterministic" (pass 0 and 0 to the op)."""
    g = _current_graph()
    global_seed: Any
    if g is None:
        st = _seed_state(context.current_context())
        global_seed = st.seed
    else:
        if hasattr(g, "seed"):
            global_seed = g.seed
        else:
            global_seed = _seed_state(context.current_context()).seed
    seeds: tuple[int | None, int | None]
    if global_seed is not None:
        if op_seed is None:
            if g is None:
                st = _seed_state(context.current_context())
                if st.rng is None:
                    st.rng = _pyrandom.Random(global_seed)
                op_seed = st.rng.randint(0, _MAXINT32)
            else:
                try:
                    op_seed = _graph_op_seeds.get(g, 0)
                    _graph_op_seeds[g] = op_seed + 1
                except TypeError:
                    op_seed = 0
        seeds = (_truncate_seed(global_seed), _truncate_seed(op_seed))
    elif op_seed is not None:
        seeds = (DEFAULT_GRAPH_SEED, _truncate_seed(op_seed))
    else:
        seeds = (None, None)
    if seeds == (0, 0):
        return (0, _MAXINT32)
    return seeds


def _seed_attrs(op_seed: Any) -> tuple[int, int]:
    s1, s2 = get_seed(op_seed)
    return (s1 or 0, s2 or 0)


# ---------------------------------------------------------------------------
# Helpers


def _op(name: str) -> Any:
    return _api.op(name)


def _is_tensor(x: Any) -> bool:
    from tfe_py.tensor import Tensor

    return isinstance(x, Tensor)


def _shape_tensor(shape: Any, empty_dtype: Any = dtypes.int32) -> Any:
    """``shape`` as a 1-D integer tensor (TF's ``shape_util.shape_tensor``)."""
    from tfe_py.tensor_shape import TensorShape

    if isinstance(shape, TensorShape):
        if shape.rank is None or not shape.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {shape} to a Tensor.")
        shape = shape.as_list()
    if isinstance(shape, (tuple, list)):
        if not shape:
            return _api.tensor(np.zeros([0], dtypes.as_dtype(empty_dtype).as_numpy_dtype))
        else:
            dims = [getattr(d, "value", d) for d in shape]
            if any(_is_tensor(d) for d in dims):
                parts = [_api.tensor(d) for d in dims]
                want = dtypes.int64 if any(p.dtype == dtypes.int64 for p in parts) else dtypes.int32
                parts = [p if p.dtype == want else _ops.Cast(p, DstT=want) for p in parts]
                return _ops.Pack(parts, axis=0)
            shape = dims
    return _api.tensor(shape)


def _dtype_list(ds: Sequence[Any]) -> str:
    return "(" + ", ".join(repr(d) for d in ds) + ")"


def _tiny(dtype: Any) -> Any:
    return np.finfo(dtypes.as_dtype(dtype).as_numpy_dtype).tiny


# ---------------------------------------------------------------------------
# Stateful ops with seed attrs

_UNIFORM_DTYPES = (
    dtypes.float16,
    dtypes.bfloat16,
    dtypes.float32,
    dtypes.float64,
    dtypes.int32,
    dtypes.int64,
)


def uniform(
    shape: Any,
    minval: Any = 0,
    maxval: Any = None,
    dtype: Any = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Any:
    """Uniform values in [minval, maxval) (float default range [0, 1);
    integers need ``maxval``), as ``tf.random.uniform``."""
    del name
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _UNIFORM_DTYPES:
        raise ValueError(
            f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
            f"{_dtype_list(_UNIFORM_DTYPES)}."
        )
    if maxval is None:
        if dtype.is_integer:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        maxval = 1
    shape_t = _shape_tensor(shape)
    minval_is_zero = isinstance(minval, int) and minval == 0
    maxval_is_one = isinstance(maxval, int) and maxval == 1
    if not minval_is_zero or not maxval_is_one or dtype.is_integer:
        minval = _api.tensor(minval, dtype)
        maxval = _api.tensor(maxval, dtype)
    s1, s2 = _seed_attrs(seed)
    if dtype.is_integer:
        return _ops.RandomUniformInt(shape_t, minval, maxval, seed=s1, seed2=s2)
    result = _ops.RandomUniform(shape_t, dtype=dtype, seed=s1, seed2=s2)
    if minval_is_zero:
        if not maxval_is_one:
            result = result * maxval
    else:
        result = result * (maxval - minval) + minval
    return result


def normal(
    shape: Any,
    mean: Any = 0.0,
    stddev: Any = 1.0,
    dtype: Any = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Any:
    """Normal values ``mean + stddev * N(0, 1)``, as ``tf.random.normal``."""
    del name
    dtype = dtypes.as_dtype(dtype)
    shape_t = _shape_tensor(shape)
    mean_t = _api.tensor(mean, dtype)
    stddev_t = _api.tensor(stddev, dtype)
    s1, s2 = _seed_attrs(seed)
    rnd = _ops.RandomStandardNormal(shape_t, dtype=dtype, seed=s1, seed2=s2)
    return rnd * stddev_t + mean_t


def truncated_normal(
    shape: Any,
    mean: Any = 0.0,
    stddev: Any = 1.0,
    dtype: Any = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Any:
    """Normal values re-drawn beyond two standard deviations, as
    ``tf.random.truncated_normal``."""
    del name
    dtype = dtypes.as_dtype(dtype)
    shape_t = _shape_tensor(shape)
    mean_t = _api.tensor(mean, dtype)
    stddev_t = _api.tensor(stddev, dtype)
    s1, s2 = _seed_attrs(seed)
    rnd = _ops.TruncatedNormal(shape_t, dtype=dtype, seed=s1, seed2=s2)
    return rnd * stddev_t + mean_t


def _categorical_dtype(dtype: Any) -> Any:
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    accepted = (dtypes.int32, dtypes.int64)
    if dtype not in accepted:
        raise ValueError(
            f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
            f"{_dtype_list(accepted)}."
        )
    return dtype


def categorical(
    logits: Any,
    num_samples: Any,
    dtype: Any = None,
    seed: int | None = None,
    name: str | None = None,
) -> Any:
    """Class indices drawn from the categorical distributions of the rows of
    ``logits`` ([batch, classes]), as ``tf.random.categorical``."""
    del name
    logits = _api.tensor(logits)
    dtype = _categorical_dtype(dtype)
    s1, s2 = _seed_attrs(seed)
    return _ops.Multinomial(
        logits, _api.tensor(num_samples, dtypes.int32), seed=s1, seed2=s2, output_dtype=dtype
    )


def shuffle(value: Any, seed: int | None = None, name: str | None = None) -> Any:
    """``value`` shuffled along its first dimension, as ``tf.random.shuffle``."""
    del name
    s1, s2 = _seed_attrs(seed)
    return _op("RandomShuffle")(_api.tensor(value), seed=s1, seed2=s2)


def gamma(
    shape: Any,
    alpha: Any,
    beta: Any = None,
    dtype: Any = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Any:
    """Gamma(alpha, beta) samples of shape ``shape + broadcast(alpha, beta)``,
    as ``tf.random.gamma``."""
    del name
    dtype = dtypes.as_dtype(dtype)
    shape_t = _api.tensor(shape, dtypes.int32)
    alpha_t = _api.tensor(alpha, dtype)
    beta_t = _api.tensor(beta if beta is not None else 1, dtype)
    bshape = _ops.BroadcastArgs(_ops.Shape(alpha_t), _ops.Shape(beta_t))
    alpha_b = _ops.BroadcastTo(alpha_t, bshape)
    s1, s2 = _seed_attrs(seed)
    rnd = _op("RandomGamma")(shape_t, alpha_b, seed=s1, seed2=s2)
    return _ops.Maximum(_api.tensor(_tiny(dtype), dtype), rnd / beta_t)


def poisson(
    shape: Any,
    lam: Any,
    dtype: Any = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Any:
    """Poisson(lam) samples of shape ``shape + lam.shape``, as
    ``tf.random.poisson``."""
    del name
    shape_t = _api.tensor(shape, dtypes.int32)
    s1, s2 = _seed_attrs(seed)
    return _op("RandomPoissonV2")(
        shape_t, lam, dtype=dtypes.as_dtype(dtype), seed=s1, seed2=s2
    )


# ---------------------------------------------------------------------------
# Stateless functions


class Algorithm(enum.Enum):
    """The counter-based RNG algorithms (``tf.random.Algorithm``)."""

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _unsupported_alg_error_msg(alg: Any) -> str:
    if isinstance(alg, int):
        names: tuple[Any, Any, Any] = (1, 2, 3)
    elif isinstance(alg, str):
        names = ("philox", "threefry", "auto_select")
    else:
        names = (Algorithm.PHILOX, Algorithm.THREEFRY, Algorithm.AUTO_SELECT)
    return (
        f"Argument `alg` got unsupported value {alg}. Supported values are "
        f"{names[0]} for the Philox algorithm, "
        f"{names[1]} for the ThreeFry algorithm, and "
        f"{names[2]} for auto-selection."
    )


def _alg_to_int(alg: Any) -> Any:
    if isinstance(alg, int):
        return alg
    if isinstance(alg, Algorithm):
        return alg.value
    if _is_tensor(alg):
        return alg
    if isinstance(alg, str):
        canon = alg.strip().lower().replace("-", "").replace("_", "")
        if canon == "philox":
            return Algorithm.PHILOX.value
        if canon == "threefry":
            return Algorithm.THREEFRY.value
        if canon == "autoselect":
            return Algorithm.AUTO_SELECT.value
        raise ValueError(_unsupported_alg_error_msg(alg))
    raise TypeError(
        f"Can't convert argument `alg` (of value {alg} and type {type(alg)}) to int."
    )


def _uint32s_to_uint64(x: Any) -> Any:
    lo = _ops.Cast(x[0], DstT=dtypes.uint64)
    hi = _ops.Cast(x[1], DstT=dtypes.uint64)
    return _ops.BitwiseOr(lo, _ops.LeftShift(hi, _api.tensor(32, dtypes.uint64)))


def _philox_scramble_seed(seed: Any) -> tuple[Any, Any]:
    key = _api.tensor([0x02461E293EC8F720], dtypes.uint64)
    counter = _ops.Cast(_api.tensor(seed), DstT=dtypes.uint64)
    mix = _ops.StatelessRandomUniformFullIntV2(
        _api.tensor([4], dtypes.int32), key, counter, _api.tensor(1, dtypes.int32),
        dtype=dtypes.uint32,
    )
    key = _ops.Reshape(_uint32s_to_uint64(mix[:2]), _api.tensor([1], dtypes.int32))
    counter = _ops.Pack([_api.tensor(0, dtypes.uint64), _uint32s_to_uint64(mix[2:])], axis=0)
    return key, counter


def _key_counter_alg(seed: Any, alg: Any) -> tuple[Any, Any, Any]:
    if alg is None:
        alg = Algorithm.AUTO_SELECT.value
    alg = _alg_to_int(alg)
    if _is_tensor(alg):
        alg_v = int(alg.numpy()) if hasattr(alg, "numpy") else Algorithm.AUTO_SELECT.value
    else:
        alg_v = alg
    if alg_v == Algorithm.AUTO_SELECT.value:
        key, counter = _ops.StatelessRandomGetKeyCounter(_api.tensor(seed))
    elif alg_v == Algorithm.PHILOX.value:
        key, counter = _philox_scramble_seed(seed)
    elif alg_v == Algorithm.THREEFRY.value:
        s = _ops.Cast(_api.tensor(seed), DstT=dtypes.uint32)
        key = _ops.Reshape(_uint32s_to_uint64(s), _api.tensor([1], dtypes.int32))
        counter = _ops.Fill(_api.tensor([1], dtypes.int32), _api.tensor(0, dtypes.uint64))
    else:
        raise ValueError(_unsupported_alg_error_msg(alg))
    alg_t = alg if _is_tensor(alg) else _api.tensor(alg, dtypes.int32)
    return key, counter, alg_t


_STATELESS_UNIFORM_DTYPES = (
    dtypes.float16,
    dtypes.bfloat16,
    dtypes.float32,
    dtypes.float64,
    dtypes.int32,
    dtypes.int64,
    dtypes.uint32,
    dtypes.uint64,
)


def stateless_uniform(
    shape: Any,
    seed: Any,
    minval: Any = 0,
    maxval: Any = None,
    dtype: Any = dtypes.float32,
    name: str | None = None,
    alg: Any = "auto_select",
) -> Any:
    """Uniform values that depend only on ``seed`` (shape [2]), as
    ``tf.random.stateless_uniform``; integer dtypes with ``minval`` and
    ``maxval`` both None give full-range integers."""
    del name
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _STATELESS_UNIFORM_DTYPES:
        raise ValueError(
            f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
            f"{_dtype_list(_STATELESS_UNIFORM_DTYPES)}."
        )
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(
                f"For integer `dtype` argument {dtype}, argument `minval` and "
                f"`maxval` must be both None or not None. Got `minval`={minval} and "
                f"`maxval`={maxval}."
            )
        if minval is not None and dtype in (dtypes.uint32, dtypes.uint64):
            raise ValueError(
                f"Argument `dtype` got invalid value {dtype} when argument `minval` "
                "is not None. Please don't use unsigned integers in this case."
            )
    elif maxval is None:
        maxval = 1
    shape_t = _shape_tensor(shape)
    if dtype.is_integer and minval is None:
        key, counter, alg_t = _key_counter_alg(seed, alg)
        return _ops.StatelessRandomUniformFullIntV2(shape_t, key, counter, alg_t, dtype=dtype)
    minval = _api.tensor(minval, dtype)
    maxval = _api.tensor(maxval, dtype)
    key, counter, alg_t = _key_counter_alg(seed, alg)
    if dtype.is_integer:
        return _ops.StatelessRandomUniformIntV2(shape_t, key, counter, alg_t, minval, maxval)
    rnd = _ops.StatelessRandomUniformV2(shape_t, key, counter, alg_t, dtype=dtype)
    return rnd * (maxval - minval) + minval


def stateless_normal(
    shape: Any,
    seed: Any,
    mean: Any = 0.0,
    stddev: Any = 1.0,
    dtype: Any = dtypes.float32,
    name: str | None = None,
    alg: Any = "auto_select",
) -> Any:
    """Normal values that depend only on ``seed``, as
    ``tf.random.stateless_normal``."""
    del name
    dtype = dtypes.as_dtype(dtype)
    shape_t = _shape_tensor(shape)
    mean_t = _api.tensor(mean, dtype)
    stddev_t = _api.tensor(stddev, dtype)
    key, counter, alg_t = _key_counter_alg(seed, alg)
    rnd = _ops.StatelessRandomNormalV2(shape_t, key, counter, alg_t, dtype=dtype)
    return rnd * stddev_t + mean_t


def stateless_truncated_normal(
    shape: Any,
    seed: Any,
    mean: Any = 0.0,
    stddev: Any = 1.0,
    dtype: Any = dtypes.float32,
    name: str | None = None,
    alg: Any = "auto_select",
) -> Any:
    """Truncated normal values that depend only on ``seed``, as
    ``tf.random.stateless_truncated_normal``."""
    del name
    dtype = dtypes.as_dtype(dtype)
    shape_t = _shape_tensor(shape)
    mean_t = _api.tensor(mean, dtype)
    stddev_t = _api.tensor(stddev, dtype)
    key, counter, alg_t = _key_counter_alg(seed, alg)
    rnd = _ops.StatelessTruncatedNormalV2(shape_t, key, counter, alg_t, dtype=dtype)
    return rnd * stddev_t + mean_t


def stateless_categorical(
    logits: Any,
    num_samples: Any,
    seed: Any,
    dtype: Any = dtypes.int64,
    name: str | None = None,
) -> Any:
    """Class indices from the rows of ``logits``, depending only on ``seed``,
    as ``tf.random.stateless_categorical``."""
    del name
    logits = _api.tensor(logits)
    dtype = _categorical_dtype(dtype)
    return _ops.StatelessMultinomial(
        logits, _api.tensor(num_samples, dtypes.int32), _api.tensor(seed), output_dtype=dtype
    )


def stateless_binomial(
    shape: Any,
    seed: Any,
    counts: Any,
    probs: Any,
    output_dtype: Any = dtypes.int32,
    name: str | None = None,
) -> Any:
    """Binomial(counts, probs) samples that depend only on ``seed``, as
    ``tf.random.stateless_binomial``."""
    del name
    shape_t = _shape_tensor(shape)
    probs_t = _api.tensor(probs, dtype_hint=dtypes.float32)
    counts_t = _api.tensor(counts, dtype_hint=probs_t.dtype)
    return _op("StatelessRandomBinomial")(
        shape_t, _api.tensor(seed), counts_t, probs_t, dtype=dtypes.as_dtype(output_dtype)
    )


def stateless_gamma(
    shape: Any,
    seed: Any,
    alpha: Any,
    beta: Any = None,
    dtype: Any = dtypes.float32,
    name: str | None = None,
) -> Any:
    """Gamma(alpha, beta) samples that depend only on ``seed``, as
    ``tf.random.stateless_gamma``."""
    del name
    dtype = dtypes.as_dtype(dtype)
    shape_t = _shape_tensor(shape)
    alpha_t = _api.tensor(alpha, dtype)
    beta_t = _api.tensor(beta if beta is not None else 1, dtype)
    bshape = _ops.BroadcastArgs(_ops.Shape(alpha_t), _ops.Shape(beta_t))
    alpha_b = _ops.BroadcastTo(alpha_t, bshape)
    key, counter, alg_t = _key_counter_alg(seed, "auto_select")
    rnd = _op("StatelessRandomGammaV3")(shape_t, key, counter, alg_t, alpha_b)
    return _ops.Maximum(_api.tensor(_tiny(dtype), dtype), rnd / beta_t)


def stateless_poisson(
    shape: Any,
    seed: Any,
    lam: Any,
    dtype: Any = dtypes.int32,
    name: str | None = None,
) -> Any:
    """Poisson(lam) samples that depend only on ``seed``, as
    ``tf.random.stateless_poisson``."""
    del name
    shape_t = _shape_tensor(shape)
    return _op("StatelessRandomPoisson")(
        shape_t, _api.tensor(seed), _api.tensor(lam), dtype=dtypes.as_dtype(dtype)
    )


def stateless_parameterized_truncated_normal(
    shape: Any,
    seed: Any,
    means: Any = 0.0,
    stddevs: Any = 1.0,
    minvals: Any = -2.0,
    maxvals: Any = 2.0,
    name: str | None = None,
) -> Any:
    """Normal samples truncated to [minvals, maxvals] (broadcast), depending
    only on ``seed``, as ``tf.random.stateless_parameterized_truncated_normal``."""
    del name
    shape_t = _shape_tensor(shape)
    return _op("StatelessParameterizedTruncatedNormal")(
        shape_t,
        _api.tensor(seed),
        _api.tensor(means),
        _api.tensor(stddevs),
        _api.tensor(minvals),
        _api.tensor(maxvals),
    )


def split(seed: Any, num: int = 2, alg: Any = "auto_select") -> Any:
    """``num`` new seeds ([num, 2]) derived from ``seed``, as
    ``tf.random.split``."""
    seed_t = _api.tensor(seed)
    return stateless_uniform(
        shape=[num, 2], seed=seed_t, dtype=seed_t.dtype, minval=None, maxval=None, alg=alg
    )


def fold_in(seed: Any, data: Any, alg: Any = "auto_select") -> Any:
    """A new seed from ``seed`` and the integer ``data``, as
    ``tf.random.fold_in``."""
    data_t = _api.tensor(data)
    seed1 = stateless_uniform(
        shape=[], seed=seed, dtype=data_t.dtype, minval=None, maxval=None, alg=alg
    )
    return _ops.Pack([seed1, data_t], axis=0)


def index_shuffle(index: Any, seed: Any, max_index: Any) -> Any:
    """Where ``index`` goes in a random permutation of [0, max_index], as
    ``tf.random.experimental.index_shuffle``."""
    seed_t = _api.tensor(seed)
    rank = len(seed_t.shape)
    paddings = [[1, 0]] + (rank - 1) * [[0, 0]]
    seed_t = _ops.PadV2(
        seed_t, _api.tensor(paddings, dtypes.int32), _api.tensor(498247692, seed_t.dtype)
    )
    index_t = _api.tensor(index)
    return _op("RandomIndexShuffle")(
        index_t, seed_t, _api.tensor(max_index, index_t.dtype), rounds=4
    )


def random_index_shuffle(
    index: Any, seed: Any, max_index: Any, rounds: int = 4, name: str | None = None
) -> Any:
    """The raw ``RandomIndexShuffle`` op (``tf.random_index_shuffle``)."""
    del name
    index_t = _api.tensor(index)
    return _op("RandomIndexShuffle")(
        index_t, _api.tensor(seed), _api.tensor(max_index, index_t.dtype), rounds=rounds
    )


def stateless_shuffle(
    value: Any, seed: Any, alg: Any = "auto_select", name: str | None = None
) -> Any:
    """``value`` shuffled along its first dimension, depending only on
    ``seed``, as ``tf.random.experimental.stateless_shuffle``."""
    del name
    key, counter, alg_t = _key_counter_alg(seed, alg)
    return _op("StatelessShuffle")(_api.tensor(value), key, counter, alg_t)


# ---------------------------------------------------------------------------
# Generator

_SEED_BIT_MASK = 0xFFFFFFFFFFFFFFFF
_SEED_MAX = 2**63 - 1
_UINT64_SPAN = 2**64
_PHILOX_STATE_SIZE = 3
_THREEFRY_STATE_SIZE = 2
_DEFAULT_ALGORITHM = Algorithm.PHILOX.value
_ANONYMOUS_NAME = "cd2c89b7-88b7-44c8-ad83-06c2a9158347"


def _uint_to_int(n: Any) -> Any:
    if isinstance(n, int) and n > _SEED_MAX:
        n = n - _UINT64_SPAN
    return n


def _map_uint_to_int(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return [_map_uint_to_int(v) for v in x]
    return _uint_to_int(x)


def _get_state_size(alg: int) -> int:
    if alg in (Algorithm.PHILOX.value, Algorithm.AUTO_SELECT.value):
        return _PHILOX_STATE_SIZE
    if alg == Algorithm.THREEFRY.value:
        return _THREEFRY_STATE_SIZE
    raise ValueError(_unsupported_alg_error_msg(alg))


def _get_counter_size(alg: int) -> int:
    if alg in (Algorithm.PHILOX.value, Algorithm.AUTO_SELECT.value):
        return 2
    if alg == Algorithm.THREEFRY.value:
        return 1
    raise ValueError(_unsupported_alg_error_msg(alg))


def _to_state_tensor(t: Any) -> Any:
    if _is_tensor(t):
        return t if t.dtype == dtypes.int64 else _ops.Cast(t, DstT=dtypes.int64)
    if isinstance(t, (list, tuple)) and any(_is_tensor(v) for v in t):
        parts = [
            _ops.Cast(_api.tensor(_uint_to_int(v)), DstT=dtypes.int64) for v in t
        ]
        return _ops.Pack(parts, axis=0)
    v = _api.tensor(_map_uint_to_int(t))
    return v if v.dtype == dtypes.int64 else _ops.Cast(v, DstT=dtypes.int64)


def _make_1d_state(state_size: int, seed: Any) -> Any:
    if isinstance(seed, int):
        ls = []
        for _ in range(state_size):
            ls.append(seed & _SEED_BIT_MASK)
            seed >>= 64
        seed = ls
    s = _to_state_tensor(seed)
    s = _ops.Reshape(s, _api.tensor([-1], dtypes.int32))
    s = s[0:state_size]
    n = int(s.shape[0])
    if n < state_size:
        pad = _ops.Fill(_api.tensor([state_size - n], dtypes.int32), _api.tensor(0, dtypes.int64))
        s = _ops.ConcatV2([pad, s], _api.tensor(0, dtypes.int32))
    return s


def create_rng_state(seed: Any, alg: Any) -> Any:
    """The initial state (an int64 vector) of an RNG of algorithm ``alg``
    seeded by ``seed`` (int, list or tensor), as ``tf.random.create_rng_state``."""
    alg = _alg_to_int(alg)
    return _make_1d_state(_get_state_size(alg), seed)


def _check_state_shape(state: Any, alg: int) -> None:
    want = _get_state_size(int(alg))
    shape = tuple(state.shape)
    if len(shape) != 1 or (shape[0] is not None and shape[0] != want):
        from tfe_py.tensor_shape import TensorShape

        raise ValueError(f"Shapes {TensorShape(list(shape))} and ({want},) are incompatible")


class _StateVariable:
    """The resource variable holding a Generator's state (TF keeps a
    ``tf.Variable`` named ``StateVar``; tfe has no tf.Variable yet, so this
    small stand-in holds the VarHandleOp handle and reads and assigns it)."""

    def __init__(self, initial: Any) -> None:
        n = int(initial.shape[0])
        self._shape = [n]
        self.handle = _ops.VarHandleOp(
            dtype=dtypes.int64, shape=[n], shared_name=_ANONYMOUS_NAME
        )
        _ops.AssignVariableOp(self.handle, initial)

    @property
    def dtype(self) -> Any:
        return dtypes.int64

    @property
    def shape(self) -> Any:
        from tfe_py.tensor_shape import TensorShape

        return TensorShape(self._shape)

    @property
    def name(self) -> str:
        return "StateVar:0"

    def read_value(self) -> Any:
        return _ops.ReadVariableOp(self.handle, dtype=dtypes.int64)

    value = read_value

    def numpy(self) -> Any:
        return self.read_value().numpy()

    def assign(self, value: Any) -> _StateVariable:
        v = _to_state_tensor(value)
        if tuple(v.shape) != tuple(self._shape):
            from tfe_py.tensor_shape import TensorShape

            raise ValueError(
                f"Shapes {TensorShape(self._shape)} and {TensorShape(list(v.shape))} "
                "are incompatible"
            )
        _ops.AssignVariableOp(self.handle, v)
        return self

    def __getitem__(self, item: Any) -> Any:
        return self.read_value()[item]

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def __repr__(self) -> str:
        return (
            f"<tf.Variable '{self.name}' shape=({self._shape[0]},) dtype=int64, "
            f"numpy={self.numpy()!r}>"
        )


class Generator:
    """A random number generator with its state in a variable, as
    ``tf.random.Generator``: each draw reads the state and moves the counter
    on (``RngReadAndSkip``), then runs the stateless V2 op on the old
    key/counter, so the numbers are TensorFlow's."""

    @classmethod
    def from_state(cls, state: Any, alg: Any) -> Generator:
        return cls(alg=alg, state=state)

    @classmethod
    def from_seed(cls, seed: Any, alg: Any = None) -> Generator:
        if alg is None:
            alg = _DEFAULT_ALGORITHM
        alg = _alg_to_int(alg)
        return cls(state=create_rng_state(seed, alg), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg: Any = None) -> Generator:
        if alg is None:
            alg = _DEFAULT_ALGORITHM
        alg = _alg_to_int(alg)
        state = _op("NonDeterministicInts")(
            _api.tensor([_get_state_size(alg)], dtypes.int64), dtype=dtypes.int64
        )
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key: Any, counter: Any, alg: Any) -> Generator:
        counter_t = _to_state_tensor(counter)
        key_t = _to_state_tensor(key)
        alg = _alg_to_int(alg)
        if tuple(counter_t.shape) != (_get_state_size(alg) - 1,):
            raise ValueError(f"counter must have shape [{_get_state_size(alg) - 1}]")
        if tuple(key_t.shape) != ():
            raise ValueError("key must be a scalar")
        key_t = _ops.Reshape(key_t, _api.tensor([1], dtypes.int32))
        return cls(state=_ops.ConcatV2([counter_t, key_t], _api.tensor(0, dtypes.int32)), alg=alg)

    def __init__(
        self, copy_from: Generator | None = None, state: Any = None, alg: Any = None
    ) -> None:
        if copy_from is not None:
            if (alg or state) is not None:
                raise ValueError("copy_from excludes state and alg")
            self._state_var = _StateVariable(copy_from.state.read_value())
            self._alg = copy_from.algorithm
            return
        if alg is None or state is None:
            raise ValueError("Generator needs either copy_from or both state and alg")
        alg = _alg_to_int(alg)
        if isinstance(state, _StateVariable):
            _check_state_shape(state, alg)
            self._state_var = state
        else:
            st = _to_state_tensor(state)
            _check_state_shape(st, alg)
            self._state_var = _StateVariable(st)
        self._alg = alg

    def reset(self, state: Any) -> None:
        st = _to_state_tensor(state)
        _check_state_shape(st, self.algorithm)
        self._state_var.assign(st)

    def reset_from_seed(self, seed: Any) -> None:
        self._state_var.assign(create_rng_state(seed, self.algorithm))

    def reset_from_key_counter(self, key: Any, counter: Any) -> None:
        counter_t = _to_state_tensor(counter)
        key_t = _ops.Reshape(_to_state_tensor(key), _api.tensor([1], dtypes.int32))
        self._state_var.assign(_ops.ConcatV2([counter_t, key_t], _api.tensor(0, dtypes.int32)))

    @property
    def state(self) -> _StateVariable:
        """The state variable ([counter..., key], int64)."""
        return self._state_var

    @property
    def algorithm(self) -> int:
        return self._alg

    @property
    def key(self) -> Any:
        return self._state_var.read_value()[-1]

    def skip(self, delta: Any) -> Any:
        """Moves the state on as if ``delta`` numbers were drawn; returns the
        old state (padded to 3 elements)."""
        return _op("RngReadAndSkip")(
            self._state_var.handle,
            _ops.Cast(_api.tensor(self.algorithm), DstT=dtypes.int32),
            _ops.Cast(_api.tensor(delta), DstT=dtypes.uint64),
        )

    def _prepare_key_counter(self, shape: Any) -> tuple[Any, Any]:
        delta = _ops.Prod(shape, _api.tensor(0, dtypes.int32))
        counter_key = self.skip(delta)
        n = _get_counter_size(self.algorithm)
        counter = _ops.Bitcast(counter_key[:n], type=dtypes.uint64)
        key = _ops.Bitcast(counter_key[n : n + 1], type=dtypes.uint64)
        return key, counter

    def _alg_t(self) -> Any:
        return _api.tensor(self.algorithm, dtypes.int32)

    def normal(
        self,
        shape: Any,
        mean: Any = 0.0,
        stddev: Any = 1.0,
        dtype: Any = dtypes.float32,
        name: str | None = None,
    ) -> Any:
        del name
        dtype = dtypes.as_dtype(dtype)
        shape_t = _shape_tensor(shape, dtypes.int64)
        mean_t = _api.tensor(mean, dtype)
        stddev_t = _api.tensor(stddev, dtype)
        key, counter = self._prepare_key_counter(shape_t)
        rnd = _ops.StatelessRandomNormalV2(shape_t, key, counter, self._alg_t(), dtype=dtype)
        return rnd * stddev_t + mean_t

    def truncated_normal(
        self,
        shape: Any,
        mean: Any = 0.0,
        stddev: Any = 1.0,
        dtype: Any = dtypes.float32,
        name: str | None = None,
    ) -> Any:
        del name
        dtype = dtypes.as_dtype(dtype)
        shape_t = _shape_tensor(shape, dtypes.int64)
        mean_t = _api.tensor(mean, dtype)
        stddev_t = _api.tensor(stddev, dtype)
        key, counter = self._prepare_key_counter(shape_t)
        rnd = _ops.StatelessTruncatedNormalV2(shape_t, key, counter, self._alg_t(), dtype=dtype)
        return rnd * stddev_t + mean_t

    def _uniform_full_int(self, shape_t: Any, dtype: Any) -> Any:
        key, counter = self._prepare_key_counter(shape_t)
        return _ops.StatelessRandomUniformFullIntV2(
            shape_t, key, counter, self._alg_t(), dtype=dtype
        )

    def uniform(
        self,
        shape: Any,
        minval: Any = 0,
        maxval: Any = None,
        dtype: Any = dtypes.float32,
        name: str | None = None,
    ) -> Any:
        del name
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(
                    f"For integer dtype {dtype}, minval and maxval must be both "
                    f"`None` or both non-`None`; got minval={minval} and maxval={maxval}"
                )
        elif maxval is None:
            maxval = 1
        shape_t = _shape_tensor(shape, dtypes.int64)
        if dtype.is_integer and minval is None:
            return self._uniform_full_int(shape_t, dtype)
        minval = _api.tensor(minval, dtype)
        maxval = _api.tensor(maxval, dtype)
        if dtype.is_integer:
            key, counter = self._prepare_key_counter(shape_t)
            return _ops.StatelessRandomUniformIntV2(
                shape_t, key, counter, self._alg_t(), minval, maxval
            )
        key, counter = self._prepare_key_counter(shape_t)
        rnd = _ops.StatelessRandomUniformV2(shape_t, key, counter, self._alg_t(), dtype=dtype)
        return rnd * (maxval - minval) + minval

    def uniform_full_int(
        self, shape: Any, dtype: Any = dtypes.uint64, name: str | None = None
    ) -> Any:
        del name
        return self._uniform_full_int(_shape_tensor(shape, dtypes.int64), dtypes.as_dtype(dtype))

    def binomial(
        self,
        shape: Any,
        counts: Any,
        probs: Any,
        dtype: Any = dtypes.int32,
        name: str | None = None,
    ) -> Any:
        del name
        counts_t = _api.tensor(counts)
        probs_t = _api.tensor(probs)
        return _op("StatefulRandomBinomial")(
            self._state_var.handle,
            _api.tensor(self.algorithm, dtypes.int64),
            _shape_tensor(shape, dtypes.int64),
            counts_t,
            probs_t,
            dtype=dtypes.as_dtype(dtype),
        )

    def make_seeds(self, count: int = 1) -> Any:
        keys = self.uniform_full_int(shape=[count], dtype=dtypes.int64)
        zeros = _ops.ZerosLike(keys)
        return _ops.Pack([keys, zeros], axis=0)

    def split(self, count: int = 1) -> list[Generator]:
        keys = self.uniform_full_int(shape=[count], dtype=dtypes.int64)
        n = _get_state_size(self.algorithm)
        out = []
        for i in range(count):
            state = _ops.ConcatV2(
                [
                    _ops.Fill(_api.tensor([n - 1], dtypes.int32), _api.tensor(0, dtypes.int64)),
                    keys[i : i + 1],
                ],
                _api.tensor(0, dtypes.int32),
            )
            out.append(Generator(state=state, alg=self.algorithm))
        return out


_global_generator: Generator | None = None


def get_global_generator() -> Generator:
    """The process's global Generator (made from non-deterministic state on
    first use), as ``tf.random.get_global_generator``."""
    global _global_generator
    if _global_generator is None:
        _global_generator = Generator.from_non_deterministic_state()
    return _global_generator


def set_global_generator(generator: Generator) -> None:
    """Replaces the global Generator, as ``tf.random.set_global_generator``."""
    global _global_generator
    _global_generator = generator


# ---------------------------------------------------------------------------
# Candidate samplers (ops tfe lacks: they raise NotImplementedError)


def _sampler(op_name: str, seed: Any, *args: Any, **kwargs: Any) -> Any:
    s1, s2 = _seed_attrs(seed)
    return _op(op_name)(*args, seed=s1, seed2=s2, **kwargs)


def all_candidate_sampler(
    true_classes: Any, num_true: int, num_sampled: int, unique: bool,
    seed: int | None = None, name: str | None = None,
) -> Any:
    """Every class 0..num_sampled-1 as the sampled candidates (expected counts 1), as
    ``tf.random.all_candidate_sampler``."""
    del name
    return _sampler(
        "AllCandidateSampler", seed, true_classes,
        num_true=num_true, num_sampled=num_sampled, unique=unique,
    )


def uniform_candidate_sampler(
    true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
    seed: int | None = None, name: str | None = None,
) -> Any:
    """Candidates drawn uniformly from [0, range_max) (``unique`` rejects repeats) with
    their expected counts, as ``tf.random.uniform_candidate_sampler``."""
    del name
    return _sampler(
        "UniformCandidateSampler", seed, true_classes,
        num_true=num_true, num_sampled=num_sampled, unique=unique, range_max=range_max,
    )


def log_uniform_candidate_sampler(
    true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
    seed: int | None = None, name: str | None = None,
) -> Any:
    """Candidates from the log-uniform (Zipfian) distribution over [0, range_max) with
    their expected counts, as ``tf.random.log_uniform_candidate_sampler``."""
    del name
    return _sampler(
        "LogUniformCandidateSampler", seed, true_classes,
        num_true=num_true, num_sampled=num_sampled, unique=unique, range_max=range_max,
    )


def learned_unigram_candidate_sampler(
    true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
    seed: int | None = None, name: str | None = None,
) -> Any:
    """Candidates drawn from the unigram distribution learned from the true classes seen
    so far by this op (per kernel instance), as
    ``tf.random.learned_unigram_candidate_sampler``."""
    del name
    return _sampler(
        "LearnedUnigramCandidateSampler", seed, true_classes,
        num_true=num_true, num_sampled=num_sampled, unique=unique, range_max=range_max,
    )


def fixed_unigram_candidate_sampler(
    true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
    vocab_file: str = "", distortion: float = 1.0, num_reserved_ids: int = 0,
    num_shards: int = 1, shard: int = 0, unigrams: Sequence[float] = (),
    seed: int | None = None, name: str | None = None,
) -> Any:
    """Candidates drawn from a fixed unigram distribution (``unigrams`` or a CSV
    ``vocab_file``, raised to ``distortion``), as
    ``tf.random.fixed_unigram_candidate_sampler``."""
    del name
    return _sampler(
        "FixedUnigramCandidateSampler", seed, true_classes,
        num_true=num_true, num_sampled=num_sampled, unique=unique, range_max=range_max,
        vocab_file=vocab_file, distortion=distortion, num_reserved_ids=num_reserved_ids,
        num_shards=num_shards, shard=shard, unigrams=list(unigrams),
    )


# ---------------------------------------------------------------------------
# tf.random_normal_initializer / tf.random_uniform_initializer

_PARTITION_KWARGS = ("partition_shape", "partition_offset")


class _Initializer:
    """Shared part of TF's ``init_ops_v2`` random initializers: a seed
    makes them stateless (``seed=[seed, 0]``), else they use the stateful
    ops with TF's seeding rules."""

    seed: Any

    def _validate_kwargs(self, kwargs: dict[str, Any]) -> None:
        for kw in kwargs:
            if kw not in _PARTITION_KWARGS:
                raise TypeError(
                    f"Keyword argument should be one of {list(_PARTITION_KWARGS)}. "
                    f"Received: {kw}"
                )

    def _stateless_seed(self) -> list[Any] | None:
        return None if self.seed is None else [self.seed, 0]

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Any:
        config.pop("dtype", None)
        return cls(**config)


class random_normal_initializer(_Initializer):
    """Initializer with normal values (``tf.random_normal_initializer``)."""

    def __init__(self, mean: Any = 0.0, stddev: Any = 0.05, seed: int | None = None) -> None:
        self.mean = mean
        self.stddev = stddev
        self.seed = seed

    def __call__(self, shape: Any, dtype: Any = dtypes.float32, **kwargs: Any) -> Any:
        self._validate_kwargs(kwargs)
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError(
                f"Argument `dtype` is expected to be floating point. Received: {dtype}."
            )
        shape = kwargs.get("partition_shape", shape)
        seed = self._stateless_seed()
        if seed is not None:
            return stateless_normal(shape, seed, mean=self.mean, stddev=self.stddev, dtype=dtype)
        return normal(shape, mean=self.mean, stddev=self.stddev, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class random_uniform_initializer(_Initializer):
    """Initializer with uniform values (``tf.random_uniform_initializer``)."""

    def __init__(self, minval: Any = -0.05, maxval: Any = 0.05, seed: int | None = None) -> None:
        self.minval = minval
        self.maxval = maxval
        self.seed = seed

    def __call__(self, shape: Any, dtype: Any = dtypes.float32, **kwargs: Any) -> Any:
        self._validate_kwargs(kwargs)
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating and not dtype.is_integer:
            raise ValueError(
                f"Argument `dtype` expected to be numeric or boolean. Received {dtype}."
            )
        shape = kwargs.get("partition_shape", shape)
        seed = self._stateless_seed()
        if seed is not None:
            return stateless_uniform(
                shape, seed, minval=self.minval, maxval=self.maxval, dtype=dtype
            )
        return uniform(shape, minval=self.minval, maxval=self.maxval, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


# ---------------------------------------------------------------------------
# tf.random.experimental


class _Experimental:
    """``tf.random.experimental``."""

    Algorithm = Algorithm
    Generator = Generator
    create_rng_state = staticmethod(create_rng_state)
    get_global_generator = staticmethod(get_global_generator)
    set_global_generator = staticmethod(set_global_generator)
    index_shuffle = staticmethod(index_shuffle)
    stateless_fold_in = staticmethod(fold_in)
    stateless_shuffle = staticmethod(stateless_shuffle)
    stateless_split = staticmethod(split)

    def __dir__(self) -> list[str]:
        return [
            "Algorithm", "Generator", "create_rng_state", "get_global_generator",
            "index_shuffle", "set_global_generator", "stateless_fold_in",
            "stateless_shuffle", "stateless_split",
        ]


experimental = _Experimental()
