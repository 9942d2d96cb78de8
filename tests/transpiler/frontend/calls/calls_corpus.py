"""Functions that call user functions, rising in difficulty (used by test_calls.py).

Each entry of CASES is (function, args, wrt); every one is checked in reverse mode against
finite differences and the tape, and in forward mode against finite differences.
"""

import numpy as np

from transpiler import differentiate

rng = np.random.default_rng(7)
V = rng.normal(size=4)
U = rng.normal(size=4)
X = rng.normal(size=(3, 4))
W = rng.normal(size=(4, 2)) * 0.5
B = rng.normal(size=2)


# --- module-level callees --------------------------------------------------------------------
def sq(t):
    return t * t


def mix(a, b):
    return np.sin(a) * b + a


def scaled(x, k=3.0, shift=0.5):
    return x * k + shift * x * x


def polar(x, y):
    r = np.sqrt(x * x + y * y)
    return r, np.arctan2(y, x)


def cumulate(x, n):
    s = x
    for i in range(n):
        s = s * np.cos(s) + x
    return s


def shrink_until_small(x):
    y = x
    while np.sum(y * y) > 0.1:
        y = y * 0.5 + 0.01 * np.sin(y)
    return y


def sign_split(x):
    if np.sum(x) > 0:
        return x * x
    return -x * 0.5


def chain_inner(t):
    return np.tanh(t) * 2.0


def chain_middle(t):
    return chain_inner(t * 1.5) + t


@differentiate
def decorated_callee(t):
    return np.exp(-t * t)


def layer(x, w, b):
    return np.tanh(x @ w + b)


def math_callee(x: float):
    return np.sin(x) * np.exp(x / 2.0)


def total(*xs, scale=1.0, **kw):
    s = xs[0] * kw["gain"]
    a, b = xs[1], xs[2]
    return (s + a * b) * scale + kw.get("bias", 0.0)


def apply(f, x):
    return f(x) * 2.0


def compose(f, g, x):
    return f(g(x))


def power(x, n):
    if n <= 0:
        return 1.0 + 0.0 * x
    return x * power(x, n - 1)


def tree(x, depth):
    if depth <= 0:
        return np.sin(x)
    return tree(x * 0.9, depth - 1) + tree(x * 1.1, depth - 1) * 0.5


def even_step(x, n):
    if n <= 0:
        return x
    return odd_step(np.cos(x) + x, n - 1)


def odd_step(x, n):
    if n <= 0:
        return x * 2.0
    return even_step(np.sin(x) * 1.5, n - 1)


def rsum_squares(v):
    if v.shape[0] == 1:
        return v[0] * v[0]
    return v[0] * v[0] + rsum_squares(v[1:])


# --- the differentiated functions ------------------------------------------------------------
def c_simple(x):
    return np.sum(sq(x) + x)


def c_two_active(x, y):
    return np.sum(mix(x, y) * y)


def c_defaults_and_keywords(x):
    return np.sum(scaled(x) + scaled(x, k=0.5) + scaled(x, 2.0, shift=-1.0))


def c_active_by_keyword(x, y):
    return np.sum(mix(b=x, a=y))


def c_constant_argument(x):
    return np.sum(mix(x, 2.0) + mix(0.3, x))


def c_same_callee_twice(x, y):
    return np.sum(mix(x, y) + mix(y, x) * mix(x, 1.5))


def c_chain(x):
    return np.sum(chain_middle(x) * x)


def c_decorated_callee(x):
    return np.sum(decorated_callee(x) * x)


def c_tuple_return(x, y):
    r, theta = polar(x, y)
    return np.sum(r * theta + r)


def c_tuple_item(x, y):
    return np.sum(polar(x, y)[1] * x)


def c_callee_loop(x):
    return np.sum(cumulate(x, 3))


def c_callee_while(x):
    return np.sum(shrink_until_small(x) * x)


def c_callee_branches(x):
    return np.sum(sign_split(x) + sign_split(-x) * 2.0)


def c_layer(x, w, b):
    return np.sum(layer(x, w, b) ** 2)


def c_scalar_math(x: float):
    return math_callee(x) * x + math_callee(2.0 * x)


def c_call_in_loop(x, y):
    s = x
    for i in range(3):
        s = mix(s, y) * 0.5
    return np.sum(s)


def c_call_in_branch(x):
    if np.sum(x) > 0:
        y = sq(x)
    else:
        y = mix(x, x)
    return np.sum(y * x)


def c_call_in_while(x):
    y = x
    k = 0
    while k < 3:
        y = sq(np.sin(y)) + y
        k += 1
    return np.sum(y)


def c_nested_def(x, w):
    def h(t, s=2.0):
        u = t * w
        return np.sin(u) * s

    return np.sum(h(x) + h(x * 2.0, s=0.5))


def c_nested_def_loop(x):
    def step(t):
        acc = t
        for i in range(2):
            acc = acc * np.cos(t)
        return acc

    return np.sum(step(x) + step(x * x))


def c_lambda(x, w):
    h = lambda t: t * w + x  # noqa: E731
    return np.sum(h(x) * h(w))


def c_late_binding_closure(x):
    w = x * 2.0
    h = lambda t: t * w  # noqa: E731
    w = np.sin(x)          # a closure reads the value at the call, as in Python
    return np.sum(h(x))


def c_varargs_kwargs(x, y):
    def g(*xs, **kw):
        a, b = xs
        return a * b * kw["scale"] + xs[0]

    return np.sum(g(x, y, scale=3.0))


def c_module_varargs_kwargs(x, y):
    return np.sum(total(x, y, x * y, scale=2.0, gain=y) + total(y, y, x, gain=x, bias=x))


def c_function_argument(x):
    return np.sum(apply(sq, x))


def c_primitive_argument(x):
    return np.sum(apply(np.sin, x) + apply(np.tanh, x))


def c_higher_order(x):
    return np.sum(compose(sq, np.tanh, x) + compose(np.exp, sq, x * 0.3))


def c_recursion(x):
    return np.sum(power(x, 4) + power(x, 1))


def c_tree(x):
    return np.sum(tree(x, 3))


def c_mutual_recursion(x):
    return np.sum(even_step(x, 5))


def c_recursion_on_shape(v):
    return rsum_squares(v) + rsum_squares(v * v)


def c_recursion_in_loop(x):
    s = x
    for i in range(3):
        s = power(s, 2) * 0.5 + x
    return np.sum(s)


CASES = [
    (c_simple, (V,), 0),
    (c_two_active, (V, U), (0, 1)),
    (c_defaults_and_keywords, (V,), 0),
    (c_active_by_keyword, (V, U), (0, 1)),
    (c_constant_argument, (V,), 0),
    (c_same_callee_twice, (V, U), (0, 1)),
    (c_same_callee_twice, (V, U), 1),
    (c_chain, (V,), 0),
    (c_decorated_callee, (V,), 0),
    (c_tuple_return, (V, U), (0, 1)),
    (c_tuple_item, (V, U), (0, 1)),
    (c_callee_loop, (V * 0.5,), 0),
    (c_callee_while, (V,), 0),
    (c_callee_branches, (V,), 0),
    (c_layer, (X, W, B), (0, 1, 2)),
    (c_scalar_math, (0.7,), 0),
    (c_call_in_loop, (V, U), (0, 1)),
    (c_call_in_branch, (np.abs(V),), 0),
    (c_call_in_branch, (-np.abs(V),), 0),
    (c_call_in_while, (V,), 0),
    (c_nested_def, (V, U), (0, 1)),
    (c_nested_def_loop, (V,), 0),
    (c_lambda, (V, U), (0, 1)),
    (c_late_binding_closure, (V,), 0),
    (c_varargs_kwargs, (V, U), (0, 1)),
    (c_module_varargs_kwargs, (V, U), (0, 1)),
    (c_module_varargs_kwargs, (V, U), 1),
    (c_function_argument, (V,), 0),
    (c_primitive_argument, (V,), 0),
    (c_higher_order, (V,), 0),
    (c_recursion, (V,), 0),
    (c_tree, (V,), 0),
    (c_mutual_recursion, (V,), 0),
    (c_recursion_on_shape, (V,), 0),
    (c_recursion_in_loop, (V * 0.5,), 0),
]


# --- a gradient used inside the function (its generated code is differentiated in turn) -----
def energy(x):
    return np.sum(np.sin(x) * x)


def c_gradient_inside(x):
    from_grad = GRAD_ENERGY(x)
    return np.sum(from_grad * from_grad)


from transpiler import grad as _grad  # noqa: E402

GRAD_ENERGY = _grad(energy)
CASES.append((c_gradient_inside, (V,), 0))


def pair_sum(x, y):
    return polar(x, y)


def c_tuple_passed_on(x, y):
    r, theta = pair_sum(x, y)          # a tuple returned whole by one callee, unpacked here
    return np.sum(r * theta)


CASES.append((c_tuple_passed_on, (V, U), (0, 1)))
