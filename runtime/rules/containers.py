"""Rules for writing into arrays and for Python containers (lists, tuples, dicts) of arrays.

``setitem(x, idx, v)`` is ``x[idx] = v`` as a value: a new array (or list, dict) equal to x
with the part at ``idx`` replaced.  The transpiler writes every subscript assignment as one,
so the old value stays readable (single assignment) and nothing has to be restored.  Its
derivative is linear in (x, v): the part of the cotangent at ``idx`` goes to v, the rest
to x.  ``append_at(lst, k, v)`` is ``lst.append(v)`` as a value (k is the old length).

The derivative of a container is a container of derivatives.  In reverse mode several
contributions meet (``params["w"]`` and ``params["b"]`` each give part of ``bparams``), so
cotangents of containers are ``Grads`` (defined in ``support`` next to ``scatter_add``, which
makes them): a sparse map from slot to cotangent that adds slot by slot with ``+``, so the
generated ``b = b + ...`` works unchanged.  Missing slots are
zero; ``restructure`` turns a cotangent into the shape of its primal (same dict keys, a
list or a tuple) at the end.
"""

import builtins

import numpy as np

from .forms import jvp_like, linear, transposes
from .registry import define, nondifferentiable, primitive
from .support import (CONTAINER_ARITHMETIC, Grads, _adds_by_slot, _length, _slots, broadcast_like,  # noqa: F401
                      is_basic_index, item_array, scatter_add, take_part, take_part_vjp_g, unbroadcast)

__all__ = ["Grads", "setitem", "append_at", "concat", "repeat", "merge", "take", "assign_slice_", "keys_of", "slot",
           "zero_grad", "zeros_tree", "ones_tree",
           "spread", "total", "restructure"]


@primitive
def setitem(x, idx, v):
    """``x`` with ``x[idx] = v``, as a new value (``x`` itself is not changed)."""
    if isinstance(x, Grads):
        out = x.copy()
        idx = _slot_key(x, idx)
        if isinstance(v, (int, float)) and v == 0:
            out.pop(idx, None)
        else:
            out[idx] = v
        return out
    if isinstance(x, (dict, list)):
        out = type(x)(x)
        out[idx] = v
        return out
    out = np.array(x, copy=True)
    if out.dtype.kind in "biu" and np.result_type(v).kind in "fc":
        raise TypeError("writing float values into an integer array truncates them, and their "
                        "derivative with them; create the array with a float dtype (np.zeros(n))")
    if not is_basic_index(idx):
        _refuse_repeats(out.shape, idx)
    out[idx] = v
    return out


def _refuse_repeats(shape, idx):
    """A repeated index keeps only numpy's last write, whose derivative no rule can express."""
    hits = np.zeros(shape, dtype=np.intp)
    np.add.at(hits, idx, 1)
    if hits.size and hits.max() > 1:
        raise ValueError("x[idx] = v with a repeated index: numpy keeps only the last write, so "
                         "the derivative is ambiguous; use unique indices")


def _slot_key(g, idx):
    """``idx`` of a sparse cotangent with a negative list index counted from its end (l[-1])."""
    if isinstance(idx, (int, np.integer)) and not isinstance(idx, bool) and idx < 0 and g.length:
        return int(idx) + g.length
    return idx


def slot(g, idx, like):
    """The part of cotangent ``g`` at ``idx``, shaped like ``like`` when ``g`` has none there."""
    if isinstance(g, Grads):
        idx = _slot_key(g, idx)
        return g[idx] if idx in g else np.zeros_like(like)
    if g is None or isinstance(g, dict) and idx not in g or \
            not isinstance(g, (dict, list, tuple)) and np.ndim(g) == 0 and g == 0:
        return np.zeros_like(like)       # (a dict: the zero tangent of a cotangent holds no slot yet;
    return g[idx]                        # a 0-d zero: the missing slot of a nested literal)


def zero_grad(x):
    """The zero cotangent of ``x``: an empty Grads for a container, else zeros like x."""
    if isinstance(x, (list, tuple, dict, Grads)):
        out = Grads()
        out.length = _length(x)
        return out
    return np.zeros_like(x)


def ones_tree(x):
    """The default seed of a returned value: ones shaped like ``x`` (arrays, numbers, and
    lists/tuples/dicts of them, ragged or not -- where np.ones_like needs one array shape)."""
    if isinstance(x, dict):
        return {k: ones_tree(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(ones_tree(v) for v in x)
    return np.ones_like(x)


nondifferentiable(ones_tree)        # a seed: constant (read back when a gradient is differentiated)


def zeros_tree(x):
    """A zero derivative shaped like ``x`` (arrays, numbers, and lists/tuples/dicts of them)."""
    if isinstance(x, Grads):            # a sparse cotangent: its missing slots read as zero too
        return zero_grad(x)
    if isinstance(x, dict):
        return {k: zeros_tree(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(zeros_tree(v) for v in x)
    return np.zeros_like(x)


def setitem_vjp_x(g, ans, x, idx, v):
    return setitem(g, idx, 0.0)


def setitem_vjp_v(g, ans, x, idx, v):
    return unbroadcast(slot(g, idx, v), v)


def setitem_jvp_v(t, ans, x, idx, v):
    return setitem(zeros_tree(ans), idx, t)


define(setitem, vjp=(setitem_vjp_x, None, setitem_vjp_v), jvp=jvp_like(setitem_vjp_x, None) + (setitem_jvp_v,))
setitem.linear_in = (0, 2)          # the tangent of setitem(x, i, v) is setitem(dx, i, dv)


# tuple(seq) / list(seq) of a container of arrays: the same items in another container type, so
# the cotangent passes through slot by slot and the tangent is converted the same way
# (of a dict: its keys, which carry no derivative)
def as_sequence_vjp(g, ans, iterable=()):
    if isinstance(iterable, dict):
        return zero_grad(iterable)
    if isinstance(iterable, np.ndarray) and isinstance(g, (Grads, list, tuple)):
        # list(x) of an array: its rows' cotangents put back into one array of x's shape
        return rows_like_vjp(g, None, np.zeros_like(iterable), list(ans))
    return g


def as_tuple_jvp(t, ans, iterable=()):
    if isinstance(iterable, dict):
        return zeros_tree(ans)
    return tuple(t) if isinstance(t, (list, tuple)) else t


def as_list_jvp(t, ans, iterable=()):
    if isinstance(iterable, dict):
        return zeros_tree(ans)
    return list(t) if isinstance(t, (list, tuple)) else t


define(builtins.tuple, vjp=(as_sequence_vjp,), jvp=(as_tuple_jvp,))
define(builtins.list, vjp=(as_sequence_vjp,), jvp=(as_list_jvp,))


# dict(d) (a shallow copy: the same keys) and dict(pairs) (each key's value from its last pair)
def as_dict_vjp(g, ans, iterable=()):
    return g if isinstance(iterable, dict) else pairs_part(g, iterable)


def as_dict_jvp(t, ans, iterable=()):
    return dict(t) if isinstance(iterable, dict) else {k: v for (k, _), (_, v) in zip(iterable, t)}


@primitive
def pairs_part(g, pairs):
    """The cotangent of the (key, value) pairs ``dict(pairs)`` was made of: the value of the last
    pair with a key gets that key's slot of ``g``."""
    parts, out = dict(_slots(g)), Grads()
    out.length = len(pairs)
    for k, i in {k: i for i, (k, _) in enumerate(pairs)}.items():
        if k in parts:
            out[i] = Grads({1: parts[k]})
            out[i].length = 2
    return out


def pairs_part_vjp_g(h, ans, g, pairs):
    out, parts = Grads(), dict(_slots(h))
    for k, i in {k: i for i, (k, _) in enumerate(pairs)}.items():
        inner = dict(_slots(parts.get(i, 0)))
        if 1 in inner:
            out[k] = inner[1]
    return out


def pairs_part_jvp_g(t, ans, g, pairs):
    return pairs_part(t, pairs)


define(builtins.dict, vjp=(as_dict_vjp,), jvp=(as_dict_jvp,))
define(pairs_part, vjp=(pairs_part_vjp_g, None), jvp=(pairs_part_jvp_g, None))


def copy_vjp(g, ans, a, order="K", subok=False):
    return g


define(np.copy, vjp=(copy_vjp,), jvp=jvp_like(copy_vjp))      # x.copy(): the array to write into


@primitive
def append_at(lst, k, v):
    """``lst + [v]`` where ``k == len(lst)``: ``lst.append(v)`` as a new list.

    ``k`` is passed so the derivative rules need not read the list (a loop that appends
    saves one int per iteration, not the list).
    """
    return list(lst) + [v]


def append_at_vjp_lst(g, ans, lst, k, v):
    return g            # slot k of g (if any) belongs to v; lst never reads slots >= k


def append_at_vjp_v(g, ans, lst, k, v):
    return slot(g, k, v)


def append_at_jvp_lst(t, ans, lst, k, v):
    return append_at(t, k, np.zeros_like(v))


def append_at_jvp_v(t, ans, lst, k, v):
    return append_at(zeros_tree(lst), k, t)


define(append_at, vjp=(append_at_vjp_lst, None, append_at_vjp_v),
       jvp=(append_at_jvp_lst, None, append_at_jvp_v))
append_at.linear_in = (0, 2)


def keys_of(d):
    """``list(d)``: the keys of a dict, which ``for k, v in d.items()`` walks by index."""
    return list(d)


nondifferentiable(keys_of)      # keys carry no derivative (read back in generated gradients too)


# --- `a + b` and `a * k` on lists and tuples (concatenation, repetition) -------------------
# The front end writes them as these calls where an operand is known to be a list or tuple
# (frontend/aliasing.sequence_operators): each operand gets its own run of the result's slots.

def _is_seq(x):
    return isinstance(x, (list, tuple))


@primitive
def concat(a, b):
    """``a + b`` where ``a`` or ``b`` is a list or tuple (a concatenation); on numbers and arrays
    the sum (its derivative then is the sum's)."""
    return a + b


@primitive
def repeat(a, k):
    """``a * k`` for a list or tuple ``a`` and an int ``k``."""
    if not _is_seq(a):
        raise TypeError(f"adjoin took `* {k!r}` here for the repetition of a list or tuple, but the operand "
                        f"is a {type(a).__name__}; give the two meanings two names")
    return a * k


def _run(g, start, n, total):
    """The slots ``start .. start + n - 1`` of cotangent ``g`` of a list of length ``total``, moved to
    start at 0: a Grads of length ``n``."""
    out = Grads()
    out.length = n
    for key, value in _slots(g):
        if not isinstance(key, (int, np.integer)) or isinstance(key, bool):
            raise TypeError(f"the derivative of a list has a slot {key!r} that is not a position")
        key = int(key) + total if key < 0 else int(key)
        if start <= key < start + n:
            out[key - start] = value
    return out


def _moved(h, start, n, total):
    """Cotangent ``h`` of the run of ``n`` slots at ``start`` put back in a list of length ``total``."""
    out = Grads()
    out.length = total
    for key, value in _slots(h):
        out[int(key) + (n if key < 0 else 0) + start] = value
    return out


@primitive
def concat_part(g, a, b, right):
    """The cotangent of ``b`` (``right``) or of ``a`` in ``a + b``, from the cotangent ``g`` of the sum."""
    x = b if right else a
    if _adds_by_slot(b if right else a) or _adds_by_slot(a if right else b):
        return g                    # a cotangent added slot by slot (generated code differentiated again)
    if not _is_seq(x):
        return unbroadcast(g, x)
    return _run(g, len(a) if right else 0, len(x), len(a) + len(b))


@primitive
def repeat_part(g, a, k):
    """The cotangent of ``a`` in ``a * k``: the sum of the ``k`` runs of ``g``."""
    n, out = len(a), Grads()
    out.length = n
    for j in range(max(int(k), 0)):
        out = out + _run(g, j * n, n, n * max(int(k), 0))
    return out


def concat_vjp_a(g, ans, a, b):
    return concat_part(g, a, b, False)


def concat_vjp_b(g, ans, a, b):
    return concat_part(g, a, b, True)


def concat_jvp_a(t, ans, a, b):
    return concat(t, zeros_tree(b))


def concat_jvp_b(t, ans, a, b):
    return concat(zeros_tree(a), t)


def repeat_vjp_a(g, ans, a, k):
    return repeat_part(g, a, k)


def repeat_jvp_a(t, ans, a, k):
    return repeat(t, k)


define(concat, vjp=(concat_vjp_a, concat_vjp_b), jvp=(concat_jvp_a, concat_jvp_b))
define(repeat, vjp=(repeat_vjp_a, None), jvp=(repeat_jvp_a, None))
concat.linear_in = (0, 1)           # the tangent of a + b is ta + tb, a list when they are lists
repeat.linear_in = (0,)


def concat_part_vjp_g(h, ans, g, a, b, right):
    x = b if right else a
    if _adds_by_slot(a) or _adds_by_slot(b):
        return h
    if not _is_seq(x):
        return broadcast_like(h, g)
    return _moved(h, len(a) if right else 0, len(x), len(a) + len(b))


def concat_part_jvp_g(t, ans, g, a, b, right):
    return concat_part(t, a, b, right)


def repeat_part_vjp_g(h, ans, g, a, k):
    n, k = len(a), max(int(k), 0)
    out = Grads()
    out.length = n * k
    for j in range(k):
        out = out + _moved(h, j * n, n, n * k)
    return out


def repeat_part_jvp_g(t, ans, g, a, k):
    return repeat_part(t, a, k)


define(concat_part, vjp=(concat_part_vjp_g, None, None, None), jvp=(concat_part_jvp_g, None, None, None))
define(repeat_part, vjp=(repeat_part_vjp_g, None, None), jvp=(repeat_part_jvp_g, None, None))


# --- `l[i:j:k]` of a list or tuple ------------------------------------------------------------

@primitive
def take(x, start, stop, step):
    """``x[start:stop:step]`` where ``x`` may be a list or tuple (the front end writes slices of
    those as this call); an array's slice otherwise."""
    return x[start:stop:step]


def take_vjp(g, ans, x, start, stop, step):
    return take_part(g, x, start, stop, step)


def take_jvp(t, ans, x, start, stop, step):
    return take(t, start, stop, step)


define(take, vjp=(take_vjp, None, None, None), jvp=(take_jvp, None, None, None))
take.linear_in = (0,)


# --- `x[i:j:k] = v` where x may be a list (a slice assignment may change its length) ----------

@primitive
def assign_slice_(x, start, stop, step, v):
    """``x[start:stop:step] = v`` as a new value: on a list Python's slice assignment (the list may
    grow or shrink), on an array ``setitem`` (the front end writes slice assignments to names that
    may hold lists as this call)."""
    if isinstance(x, list):
        out = list(x)
        out[start:stop:step] = v
        return out
    return setitem(x, slice(start, stop, step), v)


def end_of_list_(lst):
    """``len(lst)`` where ``lst.extend(items)`` is written ``lst[len(lst):] = items``."""
    if not isinstance(lst, list):
        raise TypeError(f"adjoin took `.extend(...)` here for a list's, but it is called on a {type(lst).__name__}")
    return len(lst)


nondifferentiable(end_of_list_)


def _splice_map(n, start, stop, step, m):
    """Where the items of ``x[start:stop:step] = v`` come from, for a list ``x`` of length ``n`` and
    ``m`` new items: ``(kept, placed, total)``, pairs (position in x, position in the result) and
    (position in v, position in the result), and the result's length."""
    lo, hi, by = slice(start, stop, step).indices(n)
    if by != 1:                        # an extended slice: the same positions, written in place
        written = range(n)[start:stop:step]
        return [(i, i) for i in range(n) if i not in written], list(zip(range(m), written)), n
    hi = max(hi, lo)
    kept = [(i, i) for i in range(lo)] + [(i, i - (hi - lo) + m) for i in range(hi, n)]
    return kept, [(r, lo + r) for r in range(m)], n - (hi - lo) + m


def _positions_of(g, total):
    out = {}
    for key, value in _slots(g):
        if not isinstance(key, (int, np.integer)) or isinstance(key, bool):
            raise TypeError(f"the derivative of a list has a slot {key!r} that is not a position")
        out[int(key) + total if key < 0 else int(key)] = value
    return out


@primitive
def slice_part(g, x, start, stop, step, v, right):
    """The cotangent of ``x`` (or, ``right``, of the new items ``v``) in ``x[start:stop:step] = v``,
    from the cotangent ``g`` of the result: for a list the slots its items moved to (rows of one
    array when ``v`` is an array), for an array the slice (``right``) or the rest."""
    if not isinstance(x, list):
        idx = slice(start, stop, step)
        return unbroadcast(slot(g, idx, v), v) if right else setitem(g, idx, 0.0)
    kept, placed, total = _splice_map(len(x), start, stop, step, len(v))
    parts = _positions_of(g, total)
    if right and not _is_seq(v):
        return np.stack([parts[j] if j in parts else np.zeros_like(v[i]) for i, j in placed]).reshape(np.shape(v))
    out = Grads({i: parts[j] for i, j in (placed if right else kept) if j in parts})
    out.length = len(v) if right else len(x)
    return out


@primitive
def slice_back(h, x, start, stop, step, v, right):
    """The transpose of ``slice_part``: cotangent ``h`` of ``x`` (or ``v``) put back where its
    items are in the result."""
    if not isinstance(x, list):
        idx = slice(start, stop, step)
        if not right:
            return setitem(h, idx, 0.0)
        out = np.zeros(np.shape(x), dtype=np.result_type(x, h))
        out[idx] = h
        return out
    kept, placed, total = _splice_map(len(x), start, stop, step, len(v))
    parts = dict(enumerate(h)) if right and not _is_seq(v) else _positions_of(h, len(v) if right else len(x))
    out = Grads({j: parts[i] for i, j in (placed if right else kept) if i in parts})
    out.length = total
    return out


def assign_slice_vjp_x(g, ans, x, start, stop, step, v):
    return slice_part(g, x, start, stop, step, v, False)


def assign_slice_vjp_v(g, ans, x, start, stop, step, v):
    return slice_part(g, x, start, stop, step, v, True)


def assign_slice_jvp_x(t, ans, x, start, stop, step, v):
    return assign_slice_(t, start, stop, step, zeros_tree(v))


def assign_slice_jvp_v(t, ans, x, start, stop, step, v):
    return assign_slice_(zeros_tree(x), start, stop, step, t)


define(assign_slice_, vjp=(assign_slice_vjp_x, None, None, None, assign_slice_vjp_v),
       jvp=(assign_slice_jvp_x, None, None, None, assign_slice_jvp_v))
assign_slice_.linear_in = (0, 4)
_NONE6 = (None,) * 6
transposes(slice_part, slice_back, "g, x, start, stop, step, v, right")
slice_part.linear_in = slice_back.linear_in = (0,)

# --- `a | b` on dicts -------------------------------------------------------------------------

@primitive
def merge(a, b):
    """``a | b`` where ``a`` or ``b`` may be a dict (b's values win where both have a key); on
    other values (masks, ints) a bitwise or, which passes no derivative."""
    return a | b


@primitive
def merge_part(g, a, b, right):
    """The cotangent of ``b`` (``right``) or of ``a`` in ``a | b``: the slots of ``g`` at the keys
    whose value came from it (zero when they are not dicts)."""
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return zeros_tree(b if right else a)
    keys = b.keys() if right else a.keys() - b.keys()
    return Grads({k: v for k, v in _slots(g) if k in keys})


def merge_vjp_a(g, ans, a, b):
    return merge_part(g, a, b, False)


def merge_vjp_b(g, ans, a, b):
    return merge_part(g, a, b, True)


def merge_jvp_a(t, ans, a, b):
    return merge(t, zeros_tree(b))


def merge_jvp_b(t, ans, a, b):
    return merge(zeros_tree(a), t)


def merge_part_vjp_g(h, ans, g, a, b, right):
    return merge_part(h, a, b, right)       # the part's keys, where they are in the merge


define(merge, vjp=(merge_vjp_a, merge_vjp_b), jvp=(merge_jvp_a, merge_jvp_b))
merge.linear_in = (0, 1)
define(merge_part, vjp=(merge_part_vjp_g, None, None, None), jvp=(merge_part_vjp_g, None, None, None))


# --- builtins.sum over a list, tuple or array ---------------------------------------------

def spread(g, items):
    """The cotangent of each item of ``sum(items)``: ``g`` summed to that item's shape (an
    item_array for a list: it adds item by item, where a tuple would concatenate).  ``sum`` of
    a dict adds its keys: nothing flows to its values."""
    if isinstance(items, dict):
        return Grads()
    if isinstance(items, (list, tuple)):
        return item_array([unbroadcast(g, item) for item in items])
    return broadcast_like(g, items)


def total(t, items):
    """The tangent of ``sum(items)`` from the items' tangents ``t`` (of a dict's keys: zero)."""
    if isinstance(items, dict):
        return 0.0
    if isinstance(t, dict):
        return builtins.sum(t.values())
    if isinstance(t, (list, tuple)):
        return builtins.sum(t)
    return np.sum(t, axis=0)


def sum_vjp_items(g, ans, iterable, start=0):
    return spread(g, iterable)


def sum_vjp_start(g, ans, iterable, start=0):
    return unbroadcast(g, start)


def sum_jvp_items(t, ans, iterable, start=0):
    return broadcast_like(total(t, iterable), ans)


define(builtins.sum, vjp=(sum_vjp_items, sum_vjp_start), jvp=(sum_jvp_items,) + jvp_like(sum_vjp_start))


# --- np.array / np.asarray of a list of arrays ----------------------------------------------

def rows_like(g, obj):
    """The cotangent of the list (or array) ``obj`` that ``np.array(obj)`` turned into g's array
    (an item_array of rows for a list, see ``spread``)."""
    if isinstance(obj, (list, tuple)):
        return item_array([rows_like(g[i], item) for i, item in enumerate(obj)])
    return np.reshape(g, np.shape(obj))


def array_vjp(g, ans, object, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None):
    return rows_like(g, object)


def array_jvp(t, ans, object, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None):
    return np.reshape(np.array(t), np.shape(ans))


def asarray_vjp(g, ans, a, dtype=None, order=None, like=None):
    return rows_like(g, a)


def asarray_jvp(t, ans, a, dtype=None, order=None, like=None):
    return np.reshape(np.asarray(t), np.shape(ans))


define(np.array, vjp=(array_vjp,), jvp=(array_jvp,))
define(np.asarray, vjp=(asarray_vjp,), jvp=(asarray_jvp,))
def rows_like_jvp(t, ans, g, obj):
    return rows_like(t, obj)


def rows_like_vjp(h, ans, g, obj):
    """The adjoint of ``rows_like``: the rows' cotangents ``h`` put back into g's array."""
    if isinstance(obj, (list, tuple)):
        parts = dict(_slots(h))
        return np.stack([rows_like_vjp(parts[i], None, g[i], item) if i in parts else np.zeros_like(g[i])
                         for i, item in enumerate(obj)])
    return np.reshape(h, np.shape(g))


define(rows_like, vjp=(rows_like_vjp, None), jvp=(rows_like_jvp, None))


# --- rules for the helpers generated gradients call (so they can be differentiated again) ----

@linear(slot)
def slot_vjp_g(h, ans, g, idx, like):
    return scatter_add(h, g, idx)


def spread_jvp_g(t, ans, g, items):
    return spread(t, items)


def total_jvp_t(s, ans, t, items):
    return total(s, items)


def spread_vjp_g(h, ans, g, items):
    """``spread`` copies g into every item, so its adjoint adds the items' cotangents up."""
    if isinstance(items, (list, tuple)):
        return builtins.sum((broadcast_like(v, g) for _, v in _slots(h)), np.zeros_like(g))
    return unbroadcast(h, g)


def total_vjp_t(h, ans, t, items):
    """``total`` adds the items' tangents, so its adjoint hands h to each of them."""
    if isinstance(t, (dict, list, tuple)):
        pairs = t.items() if isinstance(t, dict) else enumerate(t)
        out = Grads({k: unbroadcast(h, v) for k, v in pairs})
        out.length = None if isinstance(t, dict) else len(t)
        return out
    return broadcast_like(h, t)


# ... and for their adjoints, met when that code is differentiated again (all linear in h)
def spread_vjp_g_vjp(k, out, h, ans, g, items):
    return spread(k, items)


def spread_vjp_g_jvp(t, out, h, ans, g, items):
    return spread_vjp_g(t, ans, g, items)


def total_vjp_t_vjp(k, out, h, ans, t, items):
    return total(k, t)


def total_vjp_t_jvp(s, out, h, ans, t, items):
    return total_vjp_t(s, ans, t, items)


def rows_like_vjp_vjp(k, out, h, ans, g, obj):
    return rows_like(k, obj)


def rows_like_vjp_jvp(t, out, h, ans, g, obj):
    return rows_like_vjp(t, ans, g, obj)


define(spread, vjp=(spread_vjp_g, None), jvp=(spread_jvp_g, None))
define(total, vjp=(total_vjp_t, None), jvp=(total_jvp_t, None))
define(spread_vjp_g, vjp=(spread_vjp_g_vjp, None, None, None), jvp=(spread_vjp_g_jvp, None, None, None))
define(total_vjp_t, vjp=(total_vjp_t_vjp, None, None, None), jvp=(total_vjp_t_jvp, None, None, None))
define(rows_like_vjp, vjp=(rows_like_vjp_vjp, None, None, None), jvp=(rows_like_vjp_jvp, None, None, None))
nondifferentiable(zero_grad)


# --- structure of the result ----------------------------------------------------------------

def restructure(grad, like):
    """The derivative ``grad`` with the structure of its primal ``like``.

    A dict gets the same keys (zeros where nothing flowed), a list a list, a tuple a tuple;
    arrays and numbers are returned as they are.
    """
    if isinstance(like, dict):
        parts = dict(_slots(grad))
        return {k: restructure(parts[k], v) if k in parts else zeros_tree(v) for k, v in like.items()}
    if isinstance(like, (list, tuple)):
        parts = dict(_slots(grad))
        return type(like)(restructure(parts[i], v) if i in parts else zeros_tree(v)
                          for i, v in enumerate(like))
    return grad
