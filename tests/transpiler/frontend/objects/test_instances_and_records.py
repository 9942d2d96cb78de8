"""Objects made inside differentiated functions (frontend/objects/): instances of the user's classes (methods,
properties, ``super()``, static and class methods, attribute writes), dataclasses and namedtuples used as
records; and the uses of an object that are refused at the user's line.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).  Each takes numbers or arrays only and builds its structures itself.
"""

import dataclasses
from collections import namedtuple

import numpy as np
import pytest

from tests.transpiler.checks import check
from tests.transpiler.frontend.calls.test_splatting import _three
from transpiler import TranspileError, grad

rng = np.random.default_rng(2026)
V = rng.normal(size=4)
W = rng.normal(size=4)
M = rng.normal(size=(2, 3))
T3 = rng.normal(size=(2, 3, 4))
S = 0.7
T = -0.4


class Box:
    def __init__(self, v, scale):
        self.v = v
        self.scale = scale * 2.0

    def value(self):
        return self.v * self.scale

    @property
    def square(self):
        return self.v * self.v

    @staticmethod
    def twice(a):
        return a * 2.0

    @classmethod
    def of(cls, v):
        return cls(v, 1.5)


class BigBox(Box):
    def __init__(self, v, scale, extra):
        super().__init__(v, scale)
        self.extra = extra

    def value(self):
        return super().value() + self.extra * self.v


@dataclasses.dataclass
class Pair:
    a: float
    b: float

    def prod(self):
        return self.a * self.b


Point = namedtuple("Point", ["x", "y"])


class Accumulator:
    """State changed by its methods, across loop trips."""
    RATE = 0.5

    def __init__(self, start):
        self.total = start
        self.steps = 0

    def add(self, v):
        self.total = self.total * self.RATE + v * v
        self.steps = self.steps + 1
        return self.total

    def mean(self):
        return self.total / self.steps


class Scaled(Box):
    @property
    def square(self):
        return super().square * self.scale

    def twice_value(self):
        return self.value() * 2.0


def cl_methods_in_loop(x):
    acc = Accumulator(x[0])
    s = 0.0
    for i in range(1, 4):
        s = s + acc.add(x[i])
    return s + acc.mean()


def cl_attr_in_loop_and_branch(x):
    b = Box(x[0], x[1])
    for i in range(3):
        if x[i] > 0.0:
            b.v = b.v * x[i + 1]
        else:
            b.v += x[3]
    return b.value()


def cl_object_per_trip(x):
    s = 0.0
    for i in range(3):
        b = Box(x[i], x[i + 1])
        s = s + b.value()
    return s


def cl_property_super_chain(x):
    b = Scaled(x[2], x[3])
    return b.square + b.twice_value() + Box.twice(b.v)


def cl_two_objects(x):
    a = Box(x[0], 1.0)
    b = BigBox(a.value(), x[1], x[2])
    a.v = b.value()
    return a.value() * b.extra


def cl_dataclass_method_and_write(x):
    p = Pair(x[0], x[1])
    p.a = p.prod() + x[2]
    return p.prod() * p.b


class Empty:
    pass


def cl_plain_object_attribute(x):
    o = Empty()
    o.w = x[0] * 2.0
    o.w = o.w * x[1]
    return o.w * x[2]


def cl_init(x):
    b = Box(x[0], x[1])
    return b.value() * b.v


def cl_property(x):
    b = Box(x[0], 1.0)
    return b.square + b.scale * x[2]


def cl_staticmethod(x):
    return Box.twice(x[0]) * x[1]


def cl_classmethod(x):
    b = Box.of(x[2])
    return b.value()


def cl_inherit_super(x):
    b = BigBox(x[0], x[1], x[2])
    return b.value()


def cl_attr_write(x):
    b = Box(x[0], 1.0)
    b.v = b.v * x[1]
    b.extra = x[2]
    return b.value() + b.extra


def cl_dataclass(x):
    p = Pair(x[0], x[1] * 2.0)
    return p.prod() + p.a


def cl_dataclass_fields(x):
    p = Pair(x[0], b=x[1] * 2.0)
    return p.a * p.b + p.a


def cl_namedtuple_in_loop(x):
    s = 0.0
    for i in range(3):
        p = Point(x[i], x[i + 1])
        s = s + p.x * p.y
    return s


def cl_namedtuple(x):
    p = Point(x[0], x[1])
    return p.x * p.y + p[0]


def cl_namedtuple_replace(x):
    p = Point(x[0], x[1])
    q = p._replace(y=x[2] * 3.0)
    return q.x * q.y + p.y


def cl_namedtuple_unpack(x):
    a, b = Point(x[0] * 2.0, x[3])
    return a * b


# Not supported yet: each is refused with a TranspileError located at its own line (never an
# internal error, never a number).
def cl_returned(x):
    b = Box(x[0], x[1])
    return b


def cl_passed_on(x):
    b = Box(x[0], x[1])
    return _three(b, x[1], x[2])


def cl_stored(x):
    b = Box(x[0], x[1])
    items = [b]
    return items[0].value()


def cl_made_in_one_branch(x):
    b = Box(x[0], 1.0)
    if x[1] > 0.0:
        b = Box(x[1], 2.0)
    return b.value()


class WithSetter:
    def __init__(self, v):
        self.v = v                      # runs the setter below

    @property
    def v(self):
        return self._v

    @v.setter
    def v(self, value):
        self._v = value * 2.0


def cl_property_setter(x):
    b = WithSetter(x[0])
    return b.v * x[1]


def cl_missing_attribute(x):
    b = Box(x[0], 1.0)
    return b.nothing * x[1]


# Not supported: each is refused with a TranspileError located at its own line.
REFUSED = [cl_returned, cl_passed_on, cl_missing_attribute, cl_property_setter]


@pytest.mark.parametrize("fn", REFUSED, ids=[f.__name__ for f in REFUSED])
def test_refused_at_the_users_line(fn):
    with pytest.raises(TranspileError) as info:
        grad(fn)(V)
    assert info.value.filename == __file__ and info.value.lineno, info.value


CASES = [
    (cl_stored, (V,), 0),
    (cl_made_in_one_branch, (V,), 0),
    (cl_made_in_one_branch, (-V,), 0),
    (cl_staticmethod, (V,), 0),
    (cl_init, (V,), 0),
    (cl_plain_object_attribute, (V,), 0),
    (cl_property, (V,), 0),
    (cl_classmethod, (V,), 0),
    (cl_inherit_super, (V,), 0),
    (cl_attr_write, (V,), 0),
    (cl_dataclass, (V,), 0),
    (cl_methods_in_loop, (V,), 0),
    (cl_attr_in_loop_and_branch, (V,), 0),
    (cl_object_per_trip, (V,), 0),
    (cl_property_super_chain, (V,), 0),
    (cl_two_objects, (V,), 0),
    (cl_dataclass_method_and_write, (V,), 0),
    (cl_namedtuple, (V,), 0),
    (cl_namedtuple_replace, (V,), 0),
    (cl_namedtuple_unpack, (V,), 0),
    (cl_dataclass_fields, (V,), 0),
    (cl_namedtuple_in_loop, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)   # finite differences; the tape cannot run list sorts etc.
