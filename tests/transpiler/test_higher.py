"""Higher order: generated gradients transformed again (reverse over reverse, forward over reverse).

Second derivatives of every reverse-mode corpus (tests/transpiler/corpus.py: straight-line
code, control flow, and the corpora still to come), loops included -- grad(f) seeds with
ones, so for an array-valued f these are derivatives of sum(f): hvp == finite differences of
the gradient, grad(grad(f)) == hvp along ones; analytic Hessians; third derivatives (one
through loops' stacks, nested ones included); hessian/jacobian.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fd import assert_close, numeric_jvp, numeric_vjp
from tests.transpiler import corpus as corpora
from tests.transpiler.frontend.control import test_control_flow as flow
from tests.transpiler.modes import test_forward as fwd_tests
from tests.transpiler.test_random_programs import build, programs
from transpiler import TranspileError, grad, hessian, hvp, jacobian, jvp

CASES = [(cid, f, args, corpora.wrt_indices(f, wrt)[0]) for cid, f, args, wrt in corpora.cases()]


def _direction(x, seed=3):
    return np.random.default_rng(seed).normal(size=np.shape(x)) if np.ndim(x) else 0.37


def _fd_of_grad(f, args, w, v, eps=1e-5):
    g = grad(f, wrt=w)

    def at(xw):
        a = list(args)
        a[w] = xw
        return np.asarray(g(*a), dtype=float)

    return (at(np.asarray(args[w]) + eps * v) - at(np.asarray(args[w]) - eps * v)) / (2 * eps)


@pytest.mark.parametrize("fn,args,w", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_second_derivatives(fn, args, w):
    x = args[w]
    v = _direction(x)
    h = hvp(fn, tuple(args), v, wrt=w)
    assert np.shape(h) == np.shape(x)
    assert_close(h, _fd_of_grad(fn, args, w, v), 1e-4, 1e-5,
                 what=f"{fn.__name__}: hvp vs finite differences of grad\n{hvp(fn, wrt=w).source}")
    ones = np.ones_like(x) if np.ndim(x) else 1.0
    gg = grad(grad(fn, wrt=w), wrt=w)
    assert_close(gg(*args), hvp(fn, tuple(args), ones, wrt=w), 1e-7, 1e-9,
                 what=f"{fn.__name__}: grad(grad) vs hvp(ones)\n{gg.source}")


def test_corpus_second_derivatives_include_loops():
    loops = {f for _, f, _, _ in CASES if f.__module__ == flow.__name__ and f.__name__.startswith(("for_", "while_"))}
    assert len({c[1] for c in CASES}) >= 30 and len(loops) >= 20


# --- analytic Hessians ---------------------------------------------------------------------
rng = np.random.default_rng(7)
Q = rng.normal(size=(4, 4))
AM = rng.normal(size=(6, 4))


def quadratic(x):
    return x @ Q @ x


def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def tanh_net(x):
    return np.sum(np.tanh(AM @ x)) ** 2


def logsumexp_like(x):
    m = np.max(x)
    return m + np.log(np.sum(np.exp(x - m)))


def poly_scalar(x):
    return np.sin(x) * x ** 3


def rosen_hessian(x):
    n = x.size
    H = np.zeros((n, n))
    for i in range(n - 1):
        H[i, i] += 1200 * x[i] ** 2 - 400 * x[i + 1] + 2
        H[i, i + 1] += -400 * x[i]
        H[i + 1, i] += -400 * x[i]
        H[i + 1, i + 1] += 200
    return H


X4 = rng.normal(size=4)


def test_quadratic_hessian_is_q_plus_qt():
    assert_close(hessian(quadratic)(X4), Q + Q.T, 1e-10, 1e-10)


def test_rosenbrock_hessian():
    assert_close(hessian(rosenbrock)(X4), rosen_hessian(X4), 1e-10, 1e-8)


def test_softmax_hessian():
    p = np.exp(X4) / np.sum(np.exp(X4))
    assert_close(hessian(logsumexp_like)(X4), np.diag(p) - np.outer(p, p), 1e-9, 1e-10)


def test_tanh_net_hessian_symmetric_and_fd():
    H = hessian(tanh_net)(X4)
    assert_close(H, H.T, 1e-10, 1e-10)
    cols = [_fd_of_grad(tanh_net, (X4,), 0, e) for e in np.eye(4)]
    assert_close(H, np.stack(cols, axis=-1), 1e-5, 1e-6)


def test_scalar_second_and_third_derivative():
    x = 0.7
    d2 = 6 * x * math.sin(x) + 6 * x ** 2 * math.cos(x) - x ** 3 * math.sin(x)
    d3 = 6 * math.sin(x) + 18 * x * math.cos(x) - 9 * x ** 2 * math.sin(x) - x ** 3 * math.cos(x)
    assert math.isclose(grad(grad(poly_scalar))(x), d2, rel_tol=1e-12)
    assert math.isclose(grad(grad(grad(poly_scalar)))(x), d3, rel_tol=1e-12)
    assert math.isclose(hessian(poly_scalar)(x), d2, rel_tol=1e-12)


def test_hvp_jvp_of_grad_and_reverse_over_reverse_agree():
    v = _direction(X4)
    a = hvp(tanh_net, X4, v)
    b = jvp(grad(tanh_net), X4, v)[1]
    assert_close(a, b, 1e-12, 1e-12)
    assert_close(a, hessian(tanh_net)(X4) @ v, 1e-10, 1e-10)


@given(programs())
def test_hvp_property(program):
    """hvp(f, x, v) == jvp(grad(f), x, v) == (grad f(x + eps v) - grad f(x - eps v)) / 2 eps."""
    names, shapes, lines, seed = program
    fn, source = build(names, lines)
    r = np.random.default_rng(seed)
    args = [r.normal(size=s) if s else np.float64(r.normal()) for s in shapes]
    v = r.normal(size=shapes[0]) if shapes[0] else np.float64(r.normal())
    try:
        a = hvp(fn, tuple(args), v)
        b = jvp(grad(fn), tuple(args), (v,) + tuple(np.zeros_like(x) for x in args[1:]))[1]
        assert_close(a, b, 1e-10, 1e-10, what="hvp vs jvp(grad)")
        assert_close(a, _fd_of_grad(fn, args, 0, v), 1e-4, 1e-5, what="hvp vs fd of grad")
    except AssertionError as e:
        raise AssertionError(f"program:\n{source}\n{e}") from None


# --- jacobians -------------------------------------------------------------------------------
def wide(x):
    return np.sin(AM @ x) * 2.0          # 4 -> 6: forward is cheaper


def narrow(y):
    return np.tanh(y[:2] * y[2:4]) + y[-1]  # 6 -> 2: reverse is cheaper


@pytest.mark.parametrize("f,x", [(wide, X4), (narrow, rng.normal(size=6))])
def test_jacobian_forward_reverse_fd(f, x):
    jf = jacobian(f, mode="forward")(x)
    jr = jacobian(f, mode="reverse")(x)
    ja = jacobian(f)(x)
    fd = np.stack([numeric_jvp(f, (x,), (e,)) for e in np.eye(x.size)], axis=-1)
    assert jf.shape == np.shape(f(x)) + x.shape
    assert_close(jf, fd, 1e-6, 1e-7)
    assert_close(jr, jf, 1e-12, 1e-12)
    assert_close(ja, jf, 1e-12, 1e-12)


def test_jacobian_of_gradient_is_hessian():
    assert_close(jacobian(grad(tanh_net))(X4), hessian(tanh_net)(X4), 1e-10, 1e-10)


# --- readable sources ---------------------------------------------------------------------------
def test_sources_are_readable():
    src = hvp(tanh_net).source
    assert "def jvp_dtanh_netdx(x, bout=1.0, *, dx):" in src
    assert "dbx = " in src and "return dbx" in src       # the tangent alone: hvp needs nothing else
    assert "def ddtanh_netdxdx(" in grad(grad(tanh_net)).source
    assert "jvp_wide" in jacobian(wide).source
    assert hessian(tanh_net).source == hvp(tanh_net).source
    compile(grad(grad(grad(poly_scalar))).source, "<test>", "exec")


def test_hvp_wrt_must_be_single():
    with pytest.raises(TypeError):
        hvp(quadratic, wrt=(0, 1))


# --- loops: the generated gradient's stacks, differentiated ------------------------------------
def cubic_loop(x):
    y = x
    for i in range(4):
        y = y * np.sin(y) + 0.5 * y
    return y


def test_third_derivative_through_a_loop():
    x = 0.6
    g1, g2 = grad(cubic_loop), grad(grad(cubic_loop))
    g3 = grad(g2)
    eps = 1e-4
    assert math.isclose(g2(x), (g1(x + eps) - g1(x - eps)) / (2 * eps), rel_tol=1e-5)
    assert math.isclose(g3(x), (g2(x + eps) - g2(x - eps)) / (2 * eps), rel_tol=1e-5)
    assert math.isclose(hvp(g1, x, 1.0), g3(x), rel_tol=1e-10)      # forward over reverse over reverse
    # the third-order code is still loops over stacks, whatever the trip count
    src = g3.source
    assert "for " in src and "bpush" in src and "bpop" in src, src
    assert src.count("np.sin(") < 12, src


def test_second_derivative_code_keeps_loops():
    src = grad(grad(flow.for_data_count)).source
    loops = [ln for ln in src.splitlines() if ln.strip().startswith("for ")]
    assert len(loops) == 4, src            # primal, adjoint, and the adjoint's adjoint of each
    for n in (0, 1, 6):
        v = flow.V
        gg = grad(grad(flow.for_data_count))(v, n)
        assert_close(gg, hvp(flow.for_data_count, (v, n), np.ones_like(v)), 1e-9, 1e-10)
        assert_close(gg, _fd_of_grad(flow.for_data_count, (v, n), 0, np.ones_like(v)), 1e-5, 1e-6)


def stack_concat(x):
    a = np.concatenate([x, x * x, np.sin(x[:2])])
    return np.sum(a ** 2) * np.sum(np.stack((x, x * x), axis=1) ** 3)


def test_third_derivative_through_stack_and_concatenate():
    """Their adjoints return tuples; a tuple's cotangent adds item by item."""
    g2 = grad(grad(stack_concat))
    g3 = grad(g2)
    assert_close(g2(X4), hvp(stack_concat, X4, np.ones(4)), 1e-10, 1e-10)
    fd = np.array([(np.sum(g2(X4 + 1e-5 * e)) - np.sum(g2(X4 - 1e-5 * e))) / 2e-5 for e in np.eye(4)])
    assert_close(g3(X4), fd, 1e-6, 1e-6)


def loop_family(x, a, n):
    y = x
    k = 0
    while k < n:
        y = np.tanh(y * a) + y * 0.3
        if np.sum(y) > 1.0:
            y = y * 0.8
        k += 1
    s = 0.0
    for row in np.stack((y, y * a)):
        s = s + np.sum(np.sin(row) * row)
    return s


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 6), st.floats(-1.5, 1.5), st.integers(0, 2 ** 31 - 1))
def test_loop_hvp_property(n, a, seed):
    """hvp == jvp(grad) == finite differences of grad, for loops with any trip count."""
    r = np.random.default_rng(seed)
    x, v = r.normal(size=3), r.normal(size=3)
    h = hvp(loop_family, (x, a, n), v)
    assert_close(h, jvp(grad(loop_family), (x, a, n), v, wrt=0)[1], 1e-10, 1e-10)
    assert_close(h, _fd_of_grad(loop_family, (x, a, n), 0, v), 1e-4, 1e-5, what=f"n={n} a={a}")


# --- the stack idiom in user code ---------------------------------------------------------------
def user_stack(x):
    saved = []
    keep = saved.append
    take = saved.pop
    keep(x * 2.0)
    keep(np.sin(x))
    a = take()
    b = take()
    return a * b * x


def user_stack_read_whole(x):
    acc = []
    add = acc.append
    for i in range(3):
        add(x * i)
    return np.sum(np.stack(acc))


def calls_a_local(x):
    fn = np.sin
    return fn(x)


def test_user_code_push_pop_pairs_up():
    x = 0.7
    expected = (user_stack(x + 1e-6) - user_stack(x - 1e-6)) / 2e-6
    assert math.isclose(grad(user_stack)(x), expected, rel_tol=1e-7)
    assert math.isclose(grad(grad(user_stack))(x), hvp(user_stack, x, 1.0), rel_tol=1e-12)


def test_a_local_callable_is_called_through_its_own_rule():
    # calling a local name that holds a function is looked up when the code runs (calls.py)
    assert math.isclose(grad(calls_a_local)(0.5), math.cos(0.5), rel_tol=1e-12)


@pytest.mark.parametrize("fn,message", [(user_stack_read_whole, "also read directly")])
def test_unsupported_list_and_local_calls_are_errors(fn, message):
    with pytest.raises(TranspileError, match=message) as e:
        grad(fn)(0.5)
    assert "test_higher.py" in str(e.value)


WL = rng.normal(size=(4, 4)) * 0.5


def matmul_loop(x):
    h = x
    for t in range(3):
        h = np.tanh(WL @ h + x) + np.dot(h, WL) * 0.1
    return np.sum(h * h)


def test_third_derivative_of_a_matmul_loop():
    """Third order calls matmul's and dot's JVP rules by name: they have rules too."""
    g2 = grad(grad(matmul_loop))
    g3 = grad(g2)
    fd = np.array([(np.sum(g2(X4 + 1e-5 * e)) - np.sum(g2(X4 - 1e-5 * e))) / 2e-5 for e in np.eye(4)])
    assert_close(g3(X4), fd, 1e-6, 1e-6)
    assert_close(g3(X4), hvp(grad(matmul_loop), X4, np.ones(4)), 1e-9, 1e-10)


@pytest.mark.parametrize("fn,x", [(fwd_tests.over_reversed, X4), (fwd_tests.while_return, 0.4)])
def test_more_loops_second_order(fn, x):
    v = _direction(x)
    assert_close(hvp(fn, x, v), _fd_of_grad(fn, (x,), 0, v), 1e-5, 1e-6)
    ones = np.ones_like(x) if np.ndim(x) else 1.0
    assert_close(grad(grad(fn))(x), hvp(fn, x, ones), 1e-9, 1e-10)


def test_hessian_and_jacobian_of_loops():
    H = hessian(matmul_loop)(X4)
    assert_close(H, H.T, 1e-10, 1e-10)
    assert_close(H, np.stack([_fd_of_grad(matmul_loop, (X4,), 0, e) for e in np.eye(4)], axis=-1), 1e-5, 1e-6)
    x = np.linspace(0.1, 0.9, 5)
    for f in (flow.for_aug_array, fwd_tests.over_reversed):
        fd = np.stack([numeric_jvp(f, (x,), (e,)) for e in np.eye(5)], axis=-1)
        for mode in ("forward", "reverse"):
            assert_close(jacobian(f, mode=mode)(x), fd, 1e-6, 1e-7, what=f"{f.__name__} {mode}")


# --- third order through loops: second-order code pops values it does not read -----------------
# The adjoint of a push whose value needs no adjoint is a bare `bpop()`; at third order each pass
# must mirror it like any other pop, or the adjoint (and tangent) stacks stop pairing up.
THIRD_ORDER_LOOPS = {      # every nested loop of the control-flow corpus, and a sample of the rest
    "control_flow": ["for_nested", "for_break_nested", "while_in_for", "for_continue", "while_counter"],
    "structures": ["set_in_loop", "list_stack_matmul", "list_comprehension_if", "list_of_lists",
                   "dict_items_loop", "dict_comprehension"],
}


def _listed(case_id):
    module, name = case_id.split("-")[0].split(".")
    return name in THIRD_ORDER_LOOPS.get(module, ())


THIRD_CASES = [c for c in CASES if _listed(c[0])]


def test_third_order_cases_are_found():
    assert len(THIRD_CASES) >= sum(map(len, THIRD_ORDER_LOOPS.values()))


@pytest.mark.parametrize("fn,args,w", [c[1:] for c in THIRD_CASES], ids=[c[0] for c in THIRD_CASES])
def test_third_derivatives_through_loops(fn, args, w):
    g2 = grad(grad(fn, wrt=w), wrt=w)
    g3 = grad(g2, wrt=w)(*args)
    ones = np.ones(np.shape(g2(*args)))
    assert_close(g3, numeric_vjp(g2, args, w, ones, eps=1e-5), 1e-5, 1e-6, what=f"{fn.__name__} vs fd")
    # forward over reverse over reverse: the tangent stacks mirror the same pops
    assert_close(hvp(grad(fn, wrt=w), tuple(args), ones, wrt=w), g3, 1e-9, 1e-10, what=f"{fn.__name__} hvp")


def _pair_product(x):
    return np.sum(np.sin(x[0]) * x[1])


def test_hvp_of_a_function_of_one_tuple_keeps_the_tuple_whole():
    """hvp(f, ((a, b),), (va, vb)): the one argument is the tuple; its direction is a tuple too
    (closed form: d/da = cos(a) b, d/db = sin(a))."""
    rng = np.random.default_rng(3)
    a, b, va, vb = (rng.standard_normal((2, 3)) for _ in range(4))
    got = hvp(_pair_product, ((a, b),), (va, vb))
    assert_close(got[0], -np.sin(a) * b * va + np.cos(a) * vb, 1e-12, 1e-12)
    assert_close(got[1], np.cos(a) * va, 1e-12, 1e-12)
    short = hvp(_pair_product, ((a[:1], b[:1]),), (va[:1], vb[:1]))      # other shapes: a new variant
    assert_close(short[1], np.cos(a[:1]) * va[:1], 1e-12, 1e-12)
