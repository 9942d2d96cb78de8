"""``tf.data``: the Dataset pipeline that TensorFlow's custom-training guides build around the tape.

A Dataset here is a recipe for a Python iterator: each transformation wraps its input's
iterator, and iterating yields tensors (or tuples/dicts of them) exactly as TF's eager
iteration does.  Everything runs eagerly in this thread, so ``prefetch``, ``cache`` and
``num_parallel_calls`` change nothing but are accepted.

A seeded ``shuffle`` gives TF's order (TF's Philox generator, seed derivation and draws).
Deliberate differences: with ``tf.random.set_seed`` and no op seed, TF draws the op seed from a
stream that every seeded op advances; here only datasets advance it, so after a ``tf.random`` call
the order differs.  A ``map`` function runs eagerly on each element (TF traces it once into a
graph, so Python side effects such as ``print`` happen once there, once per element here).
"""

import random as pyrandom

import numpy as np

from .engine import errors, nest
from .engine.dtypes import as_dtype, int64
from .engine.tensor import _TensorBase, _wrap
from .ops.math_ops import convert_to_tensor
from .ops.philox import Philox

__all__ = ["Dataset", "AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "experimental"]

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


class experimental:  # noqa: N801  (tf.data.experimental namespace)
    AUTOTUNE = AUTOTUNE
    INFINITE_CARDINALITY = INFINITE_CARDINALITY
    UNKNOWN_CARDINALITY = UNKNOWN_CARDINALITY

    @staticmethod
    def cardinality(dataset):
        return dataset.cardinality()


def _as_tensor(x):
    return x if isinstance(x, _TensorBase) else convert_to_tensor(x)


def _normalize(element):
    """An element's leaves as tensors.  As in tf.data, tuples and dicts are structure and a
    list is one tensor (a map function's top-level list becomes a tuple, see ``map``)."""
    if isinstance(element, dict):
        return {k: _normalize(v) for k, v in element.items()}
    if isinstance(element, tuple):
        items = [_normalize(v) for v in element]
        return type(element)(*items) if hasattr(element, "_fields") else tuple(items)
    return _as_tensor(element)


def _call(fn, element):
    """``fn(*element)`` for a tuple element, ``fn(element)`` otherwise; with the errors TF raises
    while tracing ``fn`` (TypeError for mismatched dtypes)."""
    return errors.call_traced(fn, *element) if type(element) is tuple else errors.call_traced(fn, element)


def _check_state(state, new):
    """TF: ``reduce_func`` must return a state of the initial state's structure and dtypes."""
    nest.assert_same_structure(state, new)
    for old_t, new_t in zip(nest.flatten(state), nest.flatten(new)):
        if old_t.dtype != new_t.dtype:
            raise TypeError("The element types for the new state must match the initial state. "
                            f"Expected {old_t.dtype} but got {new_t.dtype}.")


def _spec_of(element):
    from .framework.function import TensorSpec
    return nest.map_structure(lambda t: TensorSpec(tuple(t.shape), t.dtype), element)


class Dataset:
    """A sequence of elements (tensors or nested tuples/dicts of tensors): ``tf.data.Dataset``."""

    _name = "Dataset"

    def __init__(self, make, cardinality, spec=None):
        self._make = make          # () -> a fresh Python iterator over the elements
        self._cardinality = cardinality
        self._spec = spec          # () -> element_spec, or None: peek at the first element

    # --- sources ----------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """One element per row of the leading axis of every component (all must agree)."""
        structure = _normalize(tensors)
        flat = nest.flatten(structure)
        if not flat:
            raise ValueError("from_tensor_slices needs at least one tensor.")
        lengths = set()
        for t in flat:
            if t._value.ndim == 0:
                raise ValueError(
                    f"Unbatching a tensor is only supported for rank >= 1, got a scalar {t!r}; "
                    f"use Dataset.from_tensors for a single element.")
            lengths.add(t._value.shape[0])
        if len(lengths) > 1:
            a, b = sorted(lengths)[:2]
            raise ValueError(f"Dimensions {a} and {b} are not compatible")
        n = lengths.pop()
        values = [t._value for t in flat]

        def make():
            for i in range(n):
                yield nest.pack_sequence_as(structure, [_wrap(v[i]) for v in values])

        return _named(Dataset(make, n, _slice_spec(structure)), "_TensorSliceDataset")

    @staticmethod
    def from_tensors(tensors, name=None):
        structure = _normalize(tensors)
        return _named(Dataset(lambda: iter([structure]), 1, lambda: _spec_of(structure)),
                      "_TensorDataset")

    @staticmethod
    def range(*args, output_type=int64, name=None):
        r = range(*[int(a) for a in args])
        dt = as_dtype(output_type)._np

        def make():
            for i in r:
                yield _wrap(dt.type(i))
        return _named(Dataset(make, len(r)), "_RangeDataset")

    @staticmethod
    def zip(*datasets, name=None):
        """Elements of several datasets side by side, stopping at the shortest."""
        structure = datasets[0] if len(datasets) == 1 else datasets
        flat = nest.flatten(structure)
        for d in flat:
            if not isinstance(d, Dataset):
                raise TypeError(f"Dataset.zip: expected datasets, got {type(d).__name__}")

        def make():
            for items in zip(*[iter(d) for d in flat]):
                yield nest.pack_sequence_as(structure, list(items))
        cards = [d._cardinality for d in flat]
        card = (UNKNOWN_CARDINALITY if UNKNOWN_CARDINALITY in cards
                else min((c for c in cards if c != INFINITE_CARDINALITY), default=INFINITE_CARDINALITY))
        return _named(Dataset(make, card), "_ZipDataset")

    # --- transformations ----------------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        """``map_func(*element)`` for tuple elements, ``map_func(element)`` otherwise."""
        def make():
            for e in self:
                out = _call(map_func, e)
                yield _normalize(tuple(out) if type(out) is list else out)
        return _named(Dataset(make, self._cardinality), "_MapDataset" if num_parallel_calls is None
                      else "_ParallelMapDataset")

    def filter(self, predicate, name=None):
        def make():
            for e in self:
                keep = _call(predicate, e)
                if bool(keep):
                    yield e
        return _named(Dataset(make, UNKNOWN_CARDINALITY, self._spec), "_FilterDataset")

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None,
              name=None):
        """Stack ``batch_size`` consecutive elements; the last, smaller batch unless dropped."""
        size = int(batch_size)
        if size <= 0:
            raise errors.InvalidArgumentError(f"Batch size must be greater than zero. (got {size})")

        def make():
            chunk = []
            for e in self:
                chunk.append(e)
                if len(chunk) == size:
                    yield _stack(chunk)
                    chunk = []
            if chunk and not drop_remainder:
                yield _stack(chunk)
        card = self._cardinality
        if card >= 0:
            card = card // size if drop_remainder else -(-card // size)
        spec = None
        if self._spec is not None:
            inner = self._spec
            spec = lambda: nest.map_structure(  # noqa: E731
                lambda s: _with_shape(s, (size if drop_remainder else None,) + tuple(s.shape)), inner())
        return _named(Dataset(make, card, spec), "_BatchDataset")

    def unbatch(self, name=None):
        def make():
            for e in self:
                flat = nest.flatten(e)
                for i in range(flat[0]._value.shape[0]):
                    yield nest.pack_sequence_as(e, [_wrap(t._value[i]) for t in flat])
        return _named(Dataset(make, UNKNOWN_CARDINALITY), "_UnbatchDataset")

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        """TF's buffered shuffle: each output is drawn uniformly from a buffer of ``buffer_size``.

        With a seed (here, or ``tf.random.set_seed``) the order is TensorFlow's own: the same
        Philox generator, seeds and draws.  Each new iteration (epoch) draws a new order unless
        ``reshuffle_each_iteration=False``.
        """
        size = int(buffer_size)
        if size <= 0 and size != AUTOTUNE:
            raise errors.InvalidArgumentError(
                f"buffer_size must be greater than zero or UNKNOWN_CARDINALITY (got {size})")
        reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        seeds = _tf_seeds(seed)
        seed_generator = Philox(*seeds) if reshuffle else None

        def make():
            rng = Philox(seed_generator(), seed_generator()) if reshuffle else Philox(*seeds)
            return _shuffled(iter(self), size, rng)
        return _named(Dataset(make, self._cardinality, self._spec), "_ShuffleDataset")

    def repeat(self, count=None, name=None):
        """The dataset ``count`` times over (forever when None or -1)."""
        count = -1 if count is None else int(count)

        def make():
            k = 0
            while count < 0 or k < count:
                empty = True
                for e in self:
                    empty = False
                    yield e
                if empty:
                    return
                k += 1
        card = self._cardinality
        if count < 0:
            card = card if card in (0, UNKNOWN_CARDINALITY) else INFINITE_CARDINALITY
        elif card >= 0:
            card = card * count
        return _named(Dataset(make, card, self._spec), "_RepeatDataset")

    def take(self, count, name=None):
        count = int(count)

        def make():
            if count < 0:
                yield from self
                return
            for k, e in enumerate(self):
                if k >= count:
                    return
                yield e
        card = self._cardinality
        if count >= 0:
            card = count if card == INFINITE_CARDINALITY else (min(card, count) if card >= 0 else card)
        return _named(Dataset(make, card, self._spec), "_TakeDataset")

    def skip(self, count, name=None):
        count = int(count)

        def make():
            for k, e in enumerate(self):
                if count < 0:
                    return
                if k >= count:
                    yield e
        card = self._cardinality
        if card >= 0:
            card = 0 if count < 0 else max(card - count, 0)
        return _named(Dataset(make, card, self._spec), "_SkipDataset")

    def enumerate(self, start=0, name=None):
        def make():
            for k, e in enumerate(self, int(start)):
                yield (_wrap(np.int64(k)), e)
        return _named(Dataset(make, self._cardinality), "_EnumerateDataset")

    def concatenate(self, dataset, name=None):
        def make():
            yield from self
            yield from dataset
        a, b = self._cardinality, dataset._cardinality
        card = (INFINITE_CARDINALITY if INFINITE_CARDINALITY in (a, b)
                else UNKNOWN_CARDINALITY if UNKNOWN_CARDINALITY in (a, b) else a + b)
        return _named(Dataset(make, card, self._spec), "_ConcatenateDataset")

    def prefetch(self, buffer_size, name=None):
        """Accepted for compatibility: elements are produced on demand in this thread."""
        return _named(Dataset(self._make, self._cardinality, self._spec), "_PrefetchDataset")

    def cache(self, filename="", name=None):
        """Accepted for compatibility: every iteration recomputes its elements."""
        return _named(Dataset(self._make, self._cardinality, self._spec), "_CacheDataset")

    def with_options(self, options, name=None):
        return self

    # --- consuming ------------------------------------------------------------------------------
    def __iter__(self):
        return _Iterator(self._make())

    def as_numpy_iterator(self):
        for e in self:
            yield nest.map_structure(lambda t: t.numpy(), e)

    def reduce(self, initial_state, reduce_func, name=None):
        state = _normalize(initial_state)
        for e in self:
            new = _normalize(errors.call_traced(reduce_func, state, e))
            _check_state(state, new)
            state = new
        return state

    def cardinality(self):
        return _wrap(np.int64(self._cardinality))

    def __len__(self):
        if self._cardinality == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if self._cardinality == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    def __bool__(self):
        return True

    @property
    def element_spec(self):
        if self._spec is not None:
            return self._spec()
        for e in self:
            return _spec_of(e)
        raise ValueError("element_spec of an empty dataset whose elements were never seen")

    def __repr__(self):
        return f"<{self._name} element_spec={_spec_text(self.element_spec)}>"


_DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1
_op_seeds = {"rng": None, "stream": None}


def _tf_seeds(op_seed):
    """The two seeds TF's ``random_seed.get_seed`` gives a dataset op (random ones if unseeded).

    With a global seed and no op seed, TF draws the op seed from ``random.Random(global_seed)``,
    one draw per seeded op since ``tf.random.set_seed``; here only datasets draw from it.
    """
    from . import random as _random
    global_seed = _random._global["seed"]
    if global_seed is not None:
        if op_seed is None:
            if _op_seeds["rng"] is not _random._global["rng"]:  # set_seed was called again
                _op_seeds["rng"] = _random._global["rng"]
                _op_seeds["stream"] = pyrandom.Random(global_seed)
            op_seed = _op_seeds["stream"].randint(0, _MAXINT32)
        seeds = (int(global_seed) % _MAXINT32, int(op_seed) % _MAXINT32)
    elif op_seed is not None:
        seeds = (_DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32)
    else:
        return tuple(int(s) for s in np.random.default_rng().integers(1, 2 ** 63, 2))
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _shuffled(it, size, rng):
    """TF's shuffle of one pass: keep ``size`` elements; emit one at random, then refill.

    The buffer is a ring holding positions ``start .. end-1``; a draw picks an offset from the
    oldest, whose element then takes the emitted one's place before ``start`` advances.
    """
    if size < 0:  # AUTOTUNE: the whole input
        items = list(it)
        it, size = iter(items), max(len(items), 1)
    ring = [None] * size
    start = end = 0
    exhausted = False
    while True:
        while not exhausted and end - start < size:
            try:
                ring[end % size] = next(it)
                end += 1
            except StopIteration:
                exhausted = True
        if end == start:
            return
        j = (start + rng() % (end - start)) % size
        first = start % size
        out = ring[j]
        ring[j], ring[first] = ring[first], None
        start += 1
        yield out


class _Iterator:
    """What ``iter(dataset)`` gives: ``next()`` and TF's ``get_next()``."""

    def __init__(self, it):
        self._it = it

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)

    def get_next(self):
        return next(self._it)


def _named(ds, name):
    ds._name = name
    return ds


def _stack(elements):
    flat = [nest.flatten(e) for e in elements]
    columns = []
    for c, parts in enumerate(zip(*flat)):
        first = np.shape(parts[0]._value)
        for p in parts[1:]:
            if np.shape(p._value) != first:
                raise errors.InvalidArgumentError(
                    f"Cannot add tensor to the batch: number of elements does not match. Shapes "
                    f"are: [tensor]: {_dims(np.shape(p._value))}, [batch]: {_dims(first)} "
                    f"(component {c} of the element; batch elements must have equal shapes)")
        columns.append(_wrap(np.stack([p._value for p in parts])))
    return nest.pack_sequence_as(elements[0], columns)


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _with_shape(spec, shape):
    from .framework.function import TensorSpec
    return TensorSpec(shape, spec.dtype, spec.name)


def _slice_spec(structure):
    from .framework.function import TensorSpec
    return lambda: nest.map_structure(lambda t: TensorSpec(tuple(t.shape)[1:], t.dtype), structure)


def _spec_text(spec):
    if isinstance(spec, dict):
        return "{" + ", ".join(f"{k!r}: {_spec_text(v)}" for k, v in spec.items()) + "}"
    if isinstance(spec, tuple):
        inner = ", ".join(_spec_text(s) for s in spec)
        return f"({inner},)" if len(spec) == 1 else f"({inner})"
    return repr(spec)
