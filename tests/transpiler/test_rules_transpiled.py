"""Every registered rule through the transpiler: generated gradient, tangent and Hessian-vector
code against central finite differences of the primitive itself.

tests/runtime/rules/test_every_rule.py checks each rule function directly and on the tape; this
file checks what the transpiler makes of the same rules.  For each spec it writes a small
module ``def probe(a0, ...): return np.sum(W * fn(a0, C1, ...))`` (a real file, since the
transpiler reads source), then compares ``grad``, ``jvp`` and ``hvp`` of ``probe`` with finite
differences of ``fn``.  The second-order code differentiates the rules' own VJP functions (plain
numpy helpers in runtime/rules), so a rule whose VJP the transpiler models wrongly fails here.
"""

import importlib.util
import itertools
import os
import tempfile
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.fd import assert_close
from tests.runtime.rules.rule_specs import all_specs
from tests.runtime.rules.test_every_rule import _fd_of_fd, _flat, _phi
from transpiler import TranspileError, ZeroGradientWarning, grad, hvp, jvp

EPS = 1e-6
EXAMPLES = int(os.environ.get("REGISTRY_EXAMPLES", 1))


def _eligible(spec):
    # math/builtin rules take Python floats (test_scalar_floats.py); symmetric-matrix rules are
    # checked on symmetrized inputs by the registry tests
    return not spec.scalar and not spec.symmetric


SPECS = [s for s in all_specs() if _eligible(s)]

# Second order is refused (a TranspileError, never a wrong number) for these: their VJP
# functions use constructs the transpiler does not differentiate yet.  (Empty today: keep it so
# a future refusal is listed with its reason rather than silently skipped.)
SECOND_ORDER_REFUSED = {}

_DIR = tempfile.mkdtemp(prefix="adjoin_rules_")
_COUNT = itertools.count()


def _probe(spec, args, kwargs, weights, params, multi=False):
    """A module function of the differentiated inputs: sum_j <W_j, fn(...)_j>.

    ``params`` maps argument k to its parameter names: one (``a2``) for an array, one per item
    (``a0_0, a0_1``) for a list or tuple of arrays, passed to fn as a list literal.  fn, the
    weights, the other arguments and the keywords are module globals."""
    call = []
    for k in range(len(args)):
        names = params.get(k)
        call.append((_literal(args[k]) or f"C{k}") if names is None else names[0] if not isinstance(args[k], (list, tuple))
                    else "[" + ", ".join(names) + "]")
    call += [f"{key}=KW[{key!r}]" for key in kwargs]
    call = ", ".join(call)
    if multi:
        body = f"    out = FN({call})\n    return " + " + ".join(
            f"np.sum(W{j} * out[{j}])" for j in range(len(weights)))
    else:
        body = f"    return np.sum(W0 * FN({call}))"
    flat = [n for k in sorted(params) for n in params[k]]
    name = f"rules_probe_{next(_COUNT)}"
    path = os.path.join(_DIR, name + ".py")
    with open(path, "w") as fh:
        fh.write(f"import numpy as np\n\n\ndef probe({', '.join(flat)}):\n{body}\n")
    loader = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    module.FN, module.KW = spec.fn, kwargs
    for k, a in enumerate(args):
        setattr(module, f"C{k}", a)
    for j, w in enumerate(weights):
        setattr(module, f"W{j}", w)
    return module.probe


def _literal(value):
    """Source text for a plain Python constant (an int, string, tuple of ints...), else None: the
    transpiler needs some arguments (einsum's sublists, axes) written out."""
    if isinstance(value, (bool, int, float, str, type(None))) and not isinstance(value, np.generic):
        return repr(value)
    if isinstance(value, (tuple, list)) and all(_literal(v) for v in value):
        return repr(type(value)(value))
    return None


def _fd_grad(f, xs, pos):
    x = np.array(xs[pos], dtype=np.float64, order="C")      # C order: out.reshape(-1) is a view
    out = np.zeros_like(x)
    for i in range(x.size):
        for sign in (1.0, -1.0):
            moved = x.copy()
            moved.reshape(-1)[i] += sign * EPS
            out.reshape(-1)[i] += sign * f(*xs[:pos], moved, *xs[pos + 1:]) / (2 * EPS)
    return out


def _as_float(a):
    if isinstance(a, (list, tuple)):
        return type(a)(np.asarray(v, dtype=np.float64) for v in a)
    return np.asarray(a, dtype=np.float64)


def check(spec, args, kwargs, rng):
    args = [_as_float(a) if k in spec.argnums else a for k, a in enumerate(args)]
    params = {k: [f"a{k}_{j}" for j in range(len(args[k]))] if isinstance(args[k], (list, tuple)) else [f"a{k}"]
              for k in spec.argnums}
    ans = spec.fn(*args, **kwargs)
    weights = [rng.standard_normal(np.shape(o)) for o in _flat(ans)]
    multi = isinstance(ans, (tuple, list))
    probe = _probe(spec, args, kwargs, weights, params, multi)
    phi = _phi(spec.fn, kwargs, weights)
    xs = [v for k in sorted(params) for v in (args[k] if isinstance(args[k], (list, tuple)) else [args[k]])]
    sequence = {k for k in params if isinstance(args[k], (list, tuple))}
    for pos, (k, name) in enumerate((k, n) for k in sorted(params) for n in params[k]):
        what = f"{spec.label} argument {name}, shapes {[np.shape(x) for x in xs]}, kwargs {kwargs}"
        want = _fd_grad(probe, xs, pos)
        got = grad(probe, wrt=pos)(*xs)
        assert_close(got, want, what=f"reverse {what}")
        t = rng.standard_normal(np.shape(xs[pos]))
        tangents = tuple(t if j == pos else np.zeros_like(x) for j, x in enumerate(xs))
        _, dt = jvp(probe, tuple(xs), tangents)
        # (a complex output makes the probe complex: finite differences above read its real part)
        assert_close(np.real(dt), np.sum(want * t), what=f"forward {what}")
        if not spec.second or k in sequence:
            continue
        u = rng.standard_normal(np.shape(xs[pos]))
        reference = _fd_of_fd(phi, args, k, u, t, False)
        try:
            hv = hvp(probe, tuple(xs), t, wrt=pos) if len(xs) > 1 else hvp(probe, xs[0], t)
        except TranspileError:
            if spec.label in SECOND_ORDER_REFUSED:
                continue
            raise
        got = float(np.sum(np.asarray(hv, dtype=np.float64) * u))
        assert_close(got, reference, rtol=2e-4, atol=2e-4 * (1 + abs(reference)), what=f"hvp {what}")


@pytest.mark.parametrize("spec", SPECS, ids=[s.label for s in SPECS])
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_rule_through_the_transpiler(spec, data, seed):
    rng = np.random.default_rng(seed)
    args, kwargs = spec.make(data.draw, rng)
    with np.errstate(all="ignore"):
        check(spec, list(args), kwargs, rng)


def _linalg_samples():
    """The linalg and fft samples of tests/runtime/rules/test_linalg_registry.py (inputs chosen for
    decompositions: well conditioned, well-separated spectra) as specs; complex inputs are checked
    by the tape tests only."""
    from tests.runtime.rules.rule_specs import Spec
    from tests.runtime.rules.test_linalg_registry import SAMPLES
    out = []
    for fn, sample in SAMPLES.items():
        if sample is None or any(np.iscomplexobj(a) for a in sample[0] if isinstance(a, np.ndarray)):
            continue
        args, kwargs, argnums = sample[:3]
        out.append(Spec(fn, lambda draw, rng, args=args, kwargs=kwargs: (list(args), dict(kwargs)), argnums,
                        label=getattr(fn, "__name__", repr(fn))))
    return out


LINALG = _linalg_samples()


@pytest.mark.parametrize("spec", LINALG, ids=[s.label for s in LINALG])
def test_linalg_rule_through_the_transpiler(spec):
    args, kwargs = spec.make(None, None)
    with np.errstate(all="ignore"):
        check(spec, args, kwargs, np.random.default_rng(0))


def test_refusal_list_names_real_specs():
    labels = {s.label for s in SPECS + LINALG}
    assert set(SECOND_ORDER_REFUSED) <= labels


def test_forward_mode_adds_tuple_tangents_item_by_item():
    """np.divmod with both arguments moving: each argument's JVP term is a tuple; added with `+`
    they would concatenate and the remainder's tangent would be lost."""
    spec = next(s for s in SPECS if s.fn is np.divmod)
    a, b = np.array([2.3, -1.7]), np.array([0.9, 0.6])
    weights = [np.array([0.7, -1.3]), np.array([0.4, 2.0])]
    probe = _probe(spec, [a, b], {}, weights, {0: ["a0"], 1: ["a1"]}, multi=True)
    ta, tb = np.array([1.0, 0.5]), np.array([-0.3, 0.8])
    _, dt = jvp(probe, (a, b), (ta, tb))
    want = np.sum(_fd_grad(probe, [a, b], 0) * ta) + np.sum(_fd_grad(probe, [a, b], 1) * tb)
    assert_close(dt, want, what="divmod tangent")


# --- second order transforms rule helpers: their zero-gradient notes are not the user's -------------

def _spectrum_energy(x):
    return np.sum(np.abs(np.fft.fft(x)) ** 2) + np.sum(np.linalg.norm(np.reshape(x, (2, 2)), axis=0) ** 3) \
        + np.trapezoid(x ** 3)


def _scaled_by_an_int(x, n):
    return np.sum(np.real(np.fft.rfft(x)) ** 2) * int(n)


def _zero_gradient_warnings(run):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    return [str(w.message) for w in caught if issubclass(w.category, ZeroGradientWarning)]


def test_second_order_gives_no_zero_gradient_warnings_from_rules_code():
    """hvp transforms the rules' VJP helpers (fft.like_input, norm_grad, trapezoid_vjp_y...), whose
    dtype checks and shape reads cut gradients by design: nothing for the user to fix."""
    x = np.array([0.5, -1.0, 2.0, 0.3])
    found = _zero_gradient_warnings(lambda: hvp(_spectrum_energy, x, np.ones(4)))
    assert found == []


def test_the_users_own_zero_gradient_still_warns_at_second_order():
    x = np.array([0.5, -1.0, 2.0, 0.3])

    def both():
        hvp(_scaled_by_an_int, (x, 3.0), np.ones(4), wrt=0)
        grad(_scaled_by_an_int, wrt=(0, 1))(x, 3.0)
    found = _zero_gradient_warnings(both)
    assert len(found) == 1 and "`n`" in found[0] and "int()" in found[0] and __file__ in found[0], found
    assert "runtime/rules" not in found[0]
