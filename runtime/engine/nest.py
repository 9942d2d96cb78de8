"""``tf.nest`` basics: walk nested lists, tuples, namedtuples and dicts of tensors.

Dicts are visited in sorted key order, as TensorFlow does, so a flattened dict lines up
with ``pack_sequence_as`` on any dict with the same keys.
"""

__all__ = ["is_nested", "flatten", "pack_sequence_as", "map_structure", "assert_same_structure"]


def is_nested(x):
    return isinstance(x, (list, tuple, dict))


def _children(x):
    if isinstance(x, dict):
        return [x[k] for k in _sorted_keys(x)]
    return list(x)


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:  # keys of mixed types: keep insertion order
        return list(d)


def flatten(structure, expand_composites=False):
    """The leaves of ``structure`` in order (a lone leaf gives a one-element list)."""
    out = []
    _flatten_into(structure, out)
    return out


def _flatten_into(x, out):
    if is_nested(x):
        for c in _children(x):
            _flatten_into(c, out)
    else:
        out.append(x)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """Rebuild ``structure``'s shape with the leaves taken, in order, from ``flat_sequence``."""
    flat = list(flat_sequence)
    packed, used = _pack(structure, flat, 0)
    if used != len(flat):
        raise ValueError(
            f"Structure had {used} leaves, but flat_sequence had {len(flat)} elements."
        )
    return packed


def _pack(structure, flat, i):
    if not is_nested(structure):
        if i >= len(flat):
            raise ValueError("flat_sequence has fewer elements than the structure has leaves.")
        return flat[i], i + 1
    if isinstance(structure, dict):
        result = {}
        for k in _sorted_keys(structure):
            result[k], i = _pack(structure[k], flat, i)
        return type(structure)((k, result[k]) for k in structure) if type(structure) is not dict else {
            k: result[k] for k in structure
        }, i
    items = []
    for c in structure:
        v, i = _pack(c, flat, i)
        items.append(v)
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):  # namedtuple
        return type(structure)(*items), i
    return type(structure)(items), i


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    def shape(x):
        if isinstance(x, dict):
            return ("dict", tuple(_sorted_keys(x)), tuple(shape(c) for c in _children(x)))
        if isinstance(x, (list, tuple)):
            kind = type(x).__name__ if check_types else "seq"
            return (kind, tuple(shape(c) for c in x))
        return "leaf"

    if shape(nest1) != shape(nest2):
        raise ValueError(
            f"The two structures don't have the same nested structure.\n\nFirst structure: {nest1!r}\n\n"
            f"Second structure: {nest2!r}"
        )


def map_structure(func, *structures, check_types=True, expand_composites=False):
    """Apply ``func`` leaf-wise across structures of the same shape."""
    if not structures:
        raise ValueError("Must provide at least one structure")
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types=check_types)
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [func(*leaves) for leaves in zip(*flats)])
