"""Names resolved by Python's rules (frontend/source/scopes.py) in every construct the front end inlines:
a name assigned anywhere in a function is local to it, so reading it first raises UnboundLocalError
(whatever global or enclosing variable has that name); a nested function reads the enclosing variable's
value at the call; an inlined function of the module reads the module's globals even where the caller has
a local of the same name; comprehension targets and lambda defaults live in their own scopes; ``nonlocal``
writes the enclosing variable.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).
"""

import numpy as np
import pytest

from tests.transpiler.checks import check
from transpiler import grad, hvp, jvp

y = 2.0          # module variables the functions below shadow
k = 3.0
z = np.array([0.5, -1.5, 2.0, 1.0])
V = np.array([0.3, -0.7, 1.2, 0.5])


def _scaled_by_global(t, fn):
    return fn(t) * y                       # the module's y, whatever the caller calls y


class Scaler:
    def __init__(self, a):
        self.a = a

    def times(self, x):                    # a parameter named like the caller's
        return self.a * x * y


def sc_nested_local_shadows_outer(x):
    y = 1.5
    def g(t):
        y = t * 5.0                        # g's own y
        return y
    return g(x) * y


def sc_nested_shadows_global(x):
    def g(t):
        y = t * 5.0
        return y
    a = g(x)
    return a * y                           # the module's y


def sc_module_function_reads_its_global(x):
    y = 5.0
    return _scaled_by_global(x, lambda v: v * 2.0) + y * x


def sc_method_parameter_named_like_caller(x):
    s = Scaler(1.5)
    return np.sum(s.times(x) * x)


def sc_method_on_object_built_inline(x):
    return np.sum(Scaler(1.5).times(x)) + Scaler(x[0]).a


def sc_global_read_after_call(x):
    w = _scaled_by_global(x[0], np.sin)
    y = w * 2.0
    return y * x[1]


def sc_comprehension_target_is_its_own(x):
    k = 2.0
    s = [k * v for k in [1.0, 3.0] for v in [x[0], x[1]]]
    return s[0] + s[3] * k


def sc_comprehension_reads_enclosing(x):
    w = x[2] * 2.0
    s = [w * v for v in [x[0], x[1]]]
    w = 3.0
    return s[0] * s[1] + w


def sc_lambda_default_binds_at_definition(x):
    k = 2.0
    h = lambda t, k=k: t * k  # noqa: E731
    k = 5.0
    return np.sum(h(x) * k)


def sc_nested_reads_value_at_call(x):
    def g(t):
        return t * k
    k = 3.0
    a = g(x)
    k = 4.0
    return np.sum(a + g(x))


def sc_nonlocal_accumulates(x):
    acc = 0.0
    def add(v):
        nonlocal acc
        acc = acc + v * v
    add(x[0])
    add(x[1] * 2.0)
    return acc * x[2]


def sc_nested_reads_module_array(x):
    def g(t):
        return t * z                       # no local z anywhere: the module's
    return np.sum(g(x))


def sc_local_read_in_branch_assigned_before(x):
    if x[0] > 0.0:
        k = x[1] * 2.0
    else:
        k = x[2]
    def g(t):
        return t * k
    return np.sum(g(x))


def sc_loop_reads_global_then_local_of_other_name(x):
    s = 0.0
    for i in range(3):
        s = s + x[i] * k                   # k is not local here: the module's
    return s


CASES = [
    (sc_nested_local_shadows_outer, (0.7,), 0),
    (sc_nested_shadows_global, (0.7,), 0),
    (sc_module_function_reads_its_global, (0.7,), 0),
    (sc_method_parameter_named_like_caller, (V,), 0),
    (sc_method_on_object_built_inline, (V,), 0),
    (sc_global_read_after_call, (V,), 0),
    (sc_comprehension_target_is_its_own, (V,), 0),
    (sc_comprehension_reads_enclosing, (V,), 0),
    (sc_lambda_default_binds_at_definition, (V,), 0),
    (sc_nested_reads_value_at_call, (V,), 0),
    (sc_nonlocal_accumulates, (V,), 0),
    (sc_nested_reads_module_array, (V,), 0),
    (sc_local_read_in_branch_assigned_before, (V,), 0),
    (sc_loop_reads_global_then_local_of_other_name, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)


# --- a local read before it is bound: Python raises UnboundLocalError, and so does every gradient ---
def ub_nested_reads_own_local_first(x):
    y = 1.0
    def g(t):
        y = y + t                          # g's y, unbound here
        return y
    return g(x)


def ub_reads_local_shadowing_global(x):
    w = y * x                              # y is local (assigned below)
    y = 4.0
    return w


def ub_in_loop_body(x):
    s = 0.0
    for i in range(2):
        s = s + k * x                      # k is local (assigned below): unbound on the first trip
        k = 2.0
    return s


def ub_nested_reads_definer_local_later_bound(x):
    def g(t):
        return t * q                       # the definer's q, bound only after the call
    a = g(x)
    q = 2.0
    return a + q


UNBOUND = [ub_nested_reads_own_local_first, ub_reads_local_shadowing_global, ub_in_loop_body]


@pytest.mark.parametrize("fn", UNBOUND, ids=[f.__name__ for f in UNBOUND])
def test_unbound_local_raises_as_python_does(fn):
    with pytest.raises(UnboundLocalError):
        fn(0.7)
    for run in (lambda: grad(fn)(0.7), lambda: jvp(fn, (0.7,), (1.0,)), lambda: hvp(fn, (0.7,), 1.0)):
        with pytest.raises(UnboundLocalError, match="local variable"):
            run()


def test_free_variable_bound_after_the_call_raises():
    with pytest.raises(NameError):
        ub_nested_reads_definer_local_later_bound(0.7)
    with pytest.raises(NameError):
        grad(ub_nested_reads_definer_local_later_bound)(0.7)
