"""``tf.TensorShape``: a tuple of dimensions that prints as TF's."""

import numpy as np

__all__ = ["TensorShape"]


class TensorShape(tuple):
    """A tuple of ints that prints as TF's: ``str`` is ``(2, 3)``, ``repr`` is ``TensorShape([2, 3])``."""

    __slots__ = ()

    def __new__(cls, dims=()):
        if dims is None:
            dims = ()
        if isinstance(dims, int):
            dims = (dims,)
        return tuple.__new__(cls, tuple(None if d is None else int(d) for d in dims))

    def __repr__(self):
        return f"TensorShape({list(self)!r})"

    def __str__(self):
        return tuple.__repr__(tuple(self)).replace("None", "None")

    rank = property(lambda self: len(self))
    ndims = rank
    dims = property(lambda self: list(self))

    def as_list(self):
        return list(self)

    def num_elements(self):
        return int(np.prod(self)) if None not in self else None

    def is_fully_defined(self):
        return None not in self

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return TensorShape(r) if isinstance(key, slice) else r

    def concatenate(self, other):
        return TensorShape(tuple(self) + tuple(other))

    def is_compatible_with(self, other):
        other = TensorShape(other)
        return len(self) == len(other) and all(
            a is None or b is None or a == b for a, b in zip(self, other)
        )

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {TensorShape(other)} are incompatible")

