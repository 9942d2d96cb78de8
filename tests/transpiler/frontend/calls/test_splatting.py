"""Splatting in calls (frontend/calls/arguments.py): ``f(*list)``, ``f(*tuple)``, ``f(**dict)``, ``*args``/``**kwargs``
callees, splatted array and list slices, and ``*xs`` parameters of the differentiated function itself.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).  Each takes numbers or arrays only and builds its structures itself.
"""

import numpy as np
import pytest

from tests.transpiler.checks import check
from transpiler import differentiate, grad, jvp

rng = np.random.default_rng(2026)
V = rng.normal(size=4)
W = rng.normal(size=4)
M = rng.normal(size=(2, 3))
T3 = rng.normal(size=(2, 3, 4))
S = 0.7
T = -0.4


def _three(a, b, c):
    return a * b + c


def _kw(a, b=1.0, c=2.0):
    return a * b - c


def _varargs(*vs):
    s = 0.0
    for v in vs:
        s = s + v * v
    return s


def _varkw(a, **kw):
    return a * kw["scale"] + kw["shift"]


def sp_list(x):
    args = [x[0], x[1], x[2]]
    return _three(*args)


def sp_tuple(x):
    return _three(*(x[0], x[1]), x[3])


def sp_dict(x):
    kw = {"b": x[1], "c": x[2]}
    return _kw(x[0], **kw)


def sp_dict_literal(x):
    return _kw(x[0], **{"c": x[3] * x[3]})


def sp_varargs_call(x):
    return _varargs(x[0], x[1] * 2.0, x[2])


def sp_varargs_splat(x):
    return _varargs(*[x[0], x[3]])


def sp_varkw(x):
    return _varkw(x[0], scale=x[1], shift=x[2])


def star_params(*xs):
    return xs[0] * xs[1] + np.sin(xs[0])


def mix_dict_kwargs_splat(x):
    params = dict(b=x[1], c=x[2] * x[3])
    return _kw(x[0], **params)


def mix_tuple_splat_user(x):
    t = (x[0], x[1]) + (x[2],)
    return _three(*t)


def splat_array_slice(x):
    return _three(*x[:2], x[3]) + _three(*x[1:4])


def splat_array_slice_step(x):
    return _three(*x[0:4:2], 1.0) + _three(*x[1:4:2], x[0])


def splat_list_slice(x):
    l = [x[0], x[1] * 2.0, x[2]]
    l.append(x[3] * x[0])
    return _three(*l[1:4])


def star_scaled(a, *xs, scale=2.0, **kw):
    s = a * 0.0
    for v in xs:
        s = s + np.sin(v) * v * a
    return np.sum(s * scale * kw.get("extra", 1.0))


def _fd(fn, args, i, eps=1e-6):
    """d fn / d args[i] by central differences, one element at a time (float64)."""
    from tests.fd import numeric_grad
    return numeric_grad(lambda xi: fn(*args[:i], xi, *args[i + 1:]), args[i], eps)


def test_star_parameter_items_by_index_name_and_tuple_match_finite_differences():
    from tests.fd import assert_close
    args = (S, T)
    assert_close(grad(star_params)(*args), _fd(star_params, args, 0))
    assert_close(grad(star_params, wrt=1)(*args), _fd(star_params, args, 1))
    assert_close(grad(star_params, wrt=-1)(*args), _fd(star_params, args, 1))
    for wrt in ("xs", (0, 1)):
        got = grad(star_params, wrt=wrt)(*args)
        assert isinstance(got, tuple) and len(got) == 2
        for i in range(2):
            assert_close(got[i], _fd(star_params, args, i))
    value, g = differentiate(star_params, wrt="xs").value_and_grad(*args)
    assert value == star_params(*args) and np.allclose(g, [_fd(star_params, args, i) for i in range(2)])


def test_star_parameter_items_with_named_and_keyword_parameters():
    from tests.fd import assert_close
    args = (0.5, V, W[:1] * 1.0, 1.3)
    f = lambda *a: star_scaled(*a, scale=3.0, extra=0.5)  # noqa: E731  (the reference: no adjoin)
    ga, gxs = grad(star_scaled, wrt=("a", "xs"))(*args, scale=3.0, extra=0.5)
    assert_close(ga, _fd(f, args, 0))
    assert len(gxs) == 3
    for i, g in enumerate(gxs):
        assert_close(g, _fd(f, args, i + 1), what=f"item {i}")
    assert_close(grad(star_scaled, wrt=2)(*args, scale=3.0, extra=0.5), _fd(f, args, 2))
    # the function is generated per number of items: another call shape gets its own code
    assert_close(grad(star_scaled, wrt=1)(0.5, V), _fd(lambda *a: star_scaled(*a), (0.5, V), 1))


def test_star_parameter_items_forward_vjp_and_hvp_match_finite_differences():
    from tests.fd import assert_close
    from transpiler import hvp, vjp
    args = (0.5, V, 1.3)
    f = lambda *a: star_scaled(*a)  # noqa: E731
    direction = W
    _, t = differentiate(star_scaled, wrt=1, mode="forward").jvp(args, (direction,))
    assert_close(t, _fd(f, args, 1) @ direction)
    _, t = jvp(star_scaled, args, (0.3, direction, -0.7))
    assert_close(t, 0.3 * _fd(f, args, 0) + _fd(f, args, 1) @ direction - 0.7 * _fd(f, args, 2))
    value, pullback = vjp(star_scaled, *args, wrt="xs")
    g1, g2 = pullback(2.0)
    assert_close(g1, 2.0 * _fd(f, args, 1))
    assert_close(g2, 2.0 * _fd(f, args, 2))
    eps = 1e-4
    step = lambda sign: (*args[:1], V + sign * eps * direction, *args[2:])  # noqa: E731
    hv = (_fd(f, step(1), 1) - _fd(f, step(-1), 1)) / (2 * eps)
    assert_close(hvp(star_scaled, args, direction, wrt=1), hv, rtol=1e-4, atol=1e-5)


def test_a_splatted_slice_longer_than_the_array_is_an_error_not_a_number():
    def f(x):
        return _three(*x[:3])
    with pytest.raises(IndexError):
        grad(f)(V[:2])


def test_star_parameter_code_before_a_call_says_what_works():
    with pytest.raises(ValueError, match=r"items of `\*xs` is generated per call"):
        grad(star_params).source


CASES = [
    (splat_array_slice, (V,), 0),
    (splat_array_slice_step, (V,), 0),
    (splat_list_slice, (V,), 0),
    (sp_list, (V,), 0),
    (sp_tuple, (V,), 0),
    (sp_dict, (V,), 0),
    (sp_dict_literal, (V,), 0),
    (sp_varargs_call, (V,), 0),
    (sp_varargs_splat, (V,), 0),
    (sp_varkw, (V,), 0),
    (mix_dict_kwargs_splat, (V,), 0),
    (mix_tuple_splat_user, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)   # finite differences; the tape cannot run list sorts etc.
