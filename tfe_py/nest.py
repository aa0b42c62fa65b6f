"""``tf.nest``: flattening and rebuilding nested structures.

Structures are built from lists, tuples, namedtuples, dicts and other
``collections.abc.Mapping`` types, mapping views (``d.keys()``,
``d.values()``, ``d.items()``), any other ``collections.abc.Sequence`` but
strings, and ``attrs`` classes. Everything else is a leaf: numbers, strings,
bytes, None, sets, numpy arrays, tensors and ``TensorShape`` (a tuple in
tfe, a leaf in TF). As in TensorFlow:

* a mapping is visited in the order of its sorted keys (an OrderedDict too),
  while rebuilt mappings keep the key order of the structure given;
* ``map_structure`` and ``assert_same_structure`` check sequence types
  unless ``check_types=False`` (namedtuples of the same name and fields
  count as one type, and so do any two mappings); a type mismatch is a
  TypeError, any other difference a ValueError, with TF's messages;
* with ``expand_composites=True`` a ``RaggedTensor`` is a structure whose
  leaves are its ``flat_values`` and ``nested_row_splits`` (TF's
  components, in TF's order) and is rebuilt from them; without it, it is a
  leaf. (tfe has no SparseTensor.)
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator, Mapping, MappingView, Sequence
from typing import Any

__all__ = [
    "assert_same_structure",
    "flatten",
    "is_nested",
    "map_structure",
    "pack_sequence_as",
]

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset()


def _is_leaf_type(value: Any) -> bool:
    from tfe_py.tensor_shape import TensorShape

    return isinstance(value, (str, bytes, bytearray, TensorShape))


def _is_namedtuple(value: Any) -> bool:
    cls = value if isinstance(value, type) else type(value)
    if not issubclass(cls, tuple):
        return False
    fields = getattr(cls, "_fields", None)
    return isinstance(fields, Sequence) and all(isinstance(f, str) for f in fields)


def _is_attrs(value: Any) -> bool:
    return hasattr(type(value), "__attrs_attrs__")


def _ragged_type() -> type | None:
    import sys

    module = sys.modules.get("tfe_py.ragged")  # no RaggedTensor exists before it loads
    return getattr(module, "RaggedTensor", None)


def _is_composite(value: Any) -> bool:
    cls = _ragged_type()
    return cls is not None and isinstance(value, cls)


def _nested(seq: Any, expand: bool) -> bool:
    return is_nested(seq) or (expand and _is_composite(seq))


def is_nested(seq: Any) -> bool:
    """Whether ``seq`` is a structure (as opposed to a leaf) for tf.nest."""
    if isinstance(seq, (Mapping, MappingView)) or _is_attrs(seq):
        return True
    if _is_leaf_type(seq):
        return False
    return isinstance(seq, Sequence)


def _sorted_keys(mapping: Mapping[Any, Any]) -> list[Any]:
    # TF visits mappings in sorted key order; unsortable keys are its
    # TypeError as well.
    return sorted(mapping)


def _children(value: Any) -> list[Any]:
    """The immediate children of a nested ``value``, in tf.nest's order."""
    if _is_composite(value):
        return [value.flat_values, *value.nested_row_splits]
    if isinstance(value, Mapping):
        return [value[k] for k in _sorted_keys(value)]
    if _is_attrs(value):
        return [getattr(value, a.name) for a in type(value).__attrs_attrs__]
    return list(value)


def _sequence_like(instance: Any, args: list[Any]) -> Any:
    """A structure of ``instance``'s kind holding ``args`` (its children in
    tf.nest's order)."""
    if _is_composite(instance):
        return type(instance).from_nested_row_splits(args[0], list(args[1:]), validate=False)
    if isinstance(instance, Mapping):
        by_key = dict(zip(_sorted_keys(instance), args, strict=True))
        items = [(k, by_key[k]) for k in instance]
        if isinstance(instance, collections.defaultdict):
            return type(instance)(instance.default_factory, items)
        return type(instance)(items)
    if isinstance(instance, MappingView):
        return list(args)
    if _is_namedtuple(instance) or _is_attrs(instance):
        return type(instance)(*args)
    if isinstance(instance, (list, tuple)):
        try:
            return type(instance)(args)
        except TypeError:
            return tuple(args) if isinstance(instance, tuple) else list(args)
    if isinstance(instance, range):
        return list(args)
    try:
        return type(instance)(args)
    except TypeError:
        return list(args)


def _walk(structure: Any, expand: bool) -> Iterator[Any]:
    if _nested(structure, expand):
        for child in _children(structure):
            yield from _walk(child, expand)
    else:
        yield structure


def flatten(structure: Any, expand_composites: bool = False) -> list[Any]:
    """The leaves of ``structure`` in tf.nest's order (mappings by sorted
    key); a leaf gives ``[structure]`` (``flatten(None) == [None]``)."""
    return list(_walk(structure, bool(expand_composites)))


def _describe(value: Any) -> str:
    return f"type={type(value).__name__} str={value}"


class _Dot:
    # Stands for a leaf when an error message shows a structure's shape.
    def __repr__(self) -> str:
        return "."


def _outline(structure: Any) -> str:
    dot = _Dot()
    return str(_rebuild(structure, iter([dot] * len(flatten(structure))), False))


def _rebuild(structure: Any, leaves: Iterator[Any], expand: bool) -> Any:
    if not _nested(structure, expand):
        return next(leaves)
    children = [_rebuild(c, leaves, expand) for c in _children(structure)]
    return _sequence_like(structure, children)


def _same_type(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if ta is tb:
        return True
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return True
    if _is_namedtuple(a) and _is_namedtuple(b):
        return ta.__name__ == tb.__name__ and tuple(ta._fields) == tuple(tb._fields)
    return issubclass(ta, list) and issubclass(tb, list)


def _spec(value: Any) -> tuple[Any, ...] | None:
    # What TF's RaggedTensorSpec holds: shape, dtype, ragged rank, splits dtype.
    if not _is_composite(value):
        return None
    return (value.shape, value.dtype, value.ragged_rank, value.row_splits_dtype)


def _specs_compatible(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return a[1:] == b[1:] and a[0].is_compatible_with(b[0])


def _difference(
    a: Any, b: Any, check_types: bool, expand: bool
) -> tuple[type[Exception], str] | None:
    """The first way ``a`` and ``b`` differ in structure, or None."""
    a_nested, b_nested = _nested(a, expand), _nested(b, expand)
    if a_nested != b_nested:
        seq, other = (a, b) if a_nested else (b, a)
        return ValueError, (
            f'Substructure "{_describe(seq)}" is a sequence, while substructure '
            f'"{_describe(other)}" is not'
        )
    if not a_nested:
        return None
    if _is_composite(a) or _is_composite(b):
        spec_a, spec_b = _spec(a), _spec(b)
        if spec_a is None or spec_b is None or not _specs_compatible(spec_a, spec_b):
            return ValueError, (
                "Incompatible CompositeTensor TypeSpecs: "
                f"type={type(a).__name__}Spec str={spec_a} vs. "
                f"type={type(b).__name__}Spec str={spec_b}"
            )
        return None
    if check_types and not _same_type(a, b):
        return TypeError, (
            "The two namedtuples don't have the same sequence type. First structure "
            f"{_describe(a)} has type {type(a).__name__}, while second structure "
            f"{_describe(b)} has type {type(b).__name__}"
        )
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        if set(a) != set(b):
            return ValueError, (
                "The two dictionaries don't have the same set of keys. First structure "
                f"has keys {_describe(list(a))}, while second structure has keys "
                f"{_describe(list(b))}"
            )
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        return ValueError, (
            "The two structures don't have the same number of elements. First "
            f"structure: {_describe(a)}. Second structure: {_describe(b)}"
        )
    for x, y in zip(ca, cb, strict=True):
        found = _difference(x, y, check_types, expand)
        if found is not None:
            return found
    return None


def assert_same_structure(
    nest1: Any, nest2: Any, check_types: bool = True, expand_composites: bool = False
) -> None:
    """Raises unless ``nest1`` and ``nest2`` nest the same way: ValueError
    for a different shape, TypeError for different sequence types (when
    ``check_types``), with TF's message."""
    found = _difference(nest1, nest2, bool(check_types), bool(expand_composites))
    if found is None:
        return
    cls, detail = found
    raise cls(
        "The two structures don't have the same nested structure.\n\n"
        f"First structure: {_describe(nest1)}\n\n"
        f"Second structure: {_describe(nest2)}\n\n"
        f"More specifically: {detail}\n"
        f"Entire first structure:\n{_outline(nest1)}\n"
        f"Entire second structure:\n{_outline(nest2)}"
    )


def pack_sequence_as(structure: Any, flat_sequence: Any, expand_composites: bool = False) -> Any:
    """``flat_sequence`` (a list or other sequence) packed into the shape of
    ``structure``: the inverse of :func:`flatten`."""
    expand = bool(expand_composites)
    if not is_nested(flat_sequence):
        raise TypeError(
            f"Attempted to pack value:\n  {flat_sequence}\ninto a structure, but found "
            f"incompatible type `{type(flat_sequence)}` instead."
        )
    flat = list(flat_sequence)
    if not _nested(structure, expand):
        if len(flat) != 1:
            raise ValueError(
                f"The target structure is of type `{type(structure)}`\n  {structure}\n"
                f"However the input is a sequence ({type(flat_sequence)}) of length "
                f"{len(flat)}.\n  {flat_sequence}\nnest cannot guarantee that it is safe "
                "to map one to the other."
            )
        return flat[0]
    count = len(flatten(structure, expand))
    if count != len(flat):
        raise ValueError(
            f"Could not pack sequence. Structure had {count} atoms, but flat_sequence "
            f"had {len(flat)} items.  Structure: {structure}, flat_sequence: {flat_sequence}."
        )
    return _rebuild(structure, iter(flat), expand)


def map_structure(func: Callable[..., Any], *structure: Any, **kwargs: Any) -> Any:
    """``func`` applied to the leaves of the structures (which must nest the
    same way), packed into the shape of the first one.

    Keywords: ``check_types`` (default True) and ``expand_composites``.
    """
    if not callable(func):
        raise TypeError(f"func must be callable, got: {func}")
    if not structure:
        raise ValueError("Must provide at least one structure")
    check_types = kwargs.pop("check_types", True)
    expand = bool(kwargs.pop("expand_composites", False))
    if kwargs:
        raise ValueError(
            "Only valid keyword arguments are `check_types` and `expand_composites`, "
            f"not: `{'`, `'.join(kwargs)}`"
        )
    for other in structure[1:]:
        assert_same_structure(
            structure[0], other, check_types=check_types, expand_composites=expand
        )
    flats = [flatten(s, expand) for s in structure]
    results = [func(*leaves) for leaves in zip(*flats, strict=True)]
    return pack_sequence_as(structure[0], results, expand_composites=expand)
