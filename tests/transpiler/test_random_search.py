"""The random search in CI: generated programs are differentiated right, or refused at the
user's line -- never a wrong number, never an internal error.

Two generators:

* numeric programs: the loop programs of test_random_loops.py (loops, branches, ``while``,
  ``break``/``continue``, early returns), whose new values and updates are widened here with
  calls to helper functions (one raises on a branch that is never taken, one appends to the
  list it is given), an object's method,
  closures over live values, lists, dicts and tuple unpacking, ``try``/``except`` around code
  that does not raise, and ``assert``.  Each must match central finite differences in reverse
  mode and forward mode, and (every third) its Hessian-vector product too.
* hypothesmith bodies (syntax breadth): random valid Python statements inside ``def prog(x)``.
  Whatever the primal does, the gradient must run and match finite differences, raise the
  primal's own exception, or refuse with a TranspileError located in the program's file.

Profiles (tests/conftest.py): the default runs a few hundred programs; HYPOTHESIS_PROFILE=thorough
runs 2,000 numeric programs and 1,000 hypothesmith bodies.
"""

import linecache
import math
import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.fd import assert_close, numeric_grad, numeric_jvp, numeric_vjp
from tests.transpiler import test_random_loops as loops
from transpiler import TranspileError, differentiate, grad, jvp
from transpiler.higher import hvp

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
NUMERIC = 2000 if THOROUGH else 120
BODIES = 1000 if THOROUGH else 50

HELPERS = '''
def scale(u, b):
    return u * 0.5 + np.sin(b) * 0.1


def mixed(u, b):
    if np.sum(np.abs(u)) > 1e6:
        raise ValueError("unreachable: the values stay small")
    parts = [u, b * 0.3]
    return parts[0] + parts[1]


def push(lst, v):
    lst.append(v * 0.5)


class Cell:
    def __init__(self, w):
        self.w = w

    def step(self, h):
        return np.tanh(h * self.w) + 0.1 * h

'''

_counter = [0]


class Writer(loops.Writer):
    """The loop programs' writer, with more kinds of new values and updates."""

    def new_value(self, indent, live):
        kind = self.draw(st.sampled_from(["plain", "plain", "call", "method", "closure", "list", "dict",
                                          "unpack", "try", "mutating call"]))
        if kind == "plain":
            return super().new_value(indent, live)
        b, c = self.pick(live), self.pick(live)
        v = self.fresh("v")
        nd = max(self.ndim[b], self.ndim[c])
        if kind == "call":
            self.emit(indent, f"{v} = {self.draw(st.sampled_from(['scale', 'mixed']))}({b}, {c})")
        elif kind == "method":
            cell = self.fresh("cell")
            self.emit(indent, f"{cell} = Cell({self.draw(st.sampled_from(['0.7', '1.3', '-0.4']))})")
            self.emit(indent, f"{v} = {cell}.step({b}) * {c}")
        elif kind == "closure":
            inner = self.fresh("inner")
            self.emit(indent, f"def {inner}(t):")
            self.emit(indent + 1, f"return np.sin(t) * {c} + 0.2 * t")
            self.emit(indent, f"{v} = {inner}({b})")
        elif kind == "list":
            lst = self.fresh("lst")
            self.emit(indent, f"{lst} = [{b}, {c} * 0.5]")
            self.emit(indent, f"{lst}.append(np.cos({b}))")
            self.emit(indent, f"{v} = {lst}[0] * {lst}[-1] + {lst}[1]")
        elif kind == "mutating call":          # a callee that changes its argument (the effects analysis)
            lst = self.fresh("lst")
            self.emit(indent, f"{lst} = [{b}]")
            self.emit(indent, f"push({lst}, {c})")
            self.emit(indent, f"{v} = {lst}[0] * {lst}[-1] + {lst}[-1]")
        elif kind == "dict":
            d = self.fresh("d")
            self.emit(indent, f"{d} = dict(p={b}, q=np.tanh({c}))")     # (no braces: render formats lines)
            self.emit(indent, f"{d}['p'] = {d}['p'] * 0.8")
            self.emit(indent, f"{v} = {d}['p'] + {d}['q']")
        elif kind == "unpack":
            w = self.fresh("w")
            self.emit(indent, f"{v}, {w} = {b} * 0.9, np.cos({c})")
            self.ndim[w] = self.ndim[c]
            self.emit(indent, f"{v} = {v} + {w}")
        else:
            self.emit(indent, "try:")
            self.emit(indent + 1, f"{v} = np.sin({b}) * {c}")
            self.emit(indent, "except ZeroDivisionError:")
            self.emit(indent + 1, f"{v} = {b} + {c}")
        self.ndim[v] = nd
        return v

    def update(self, indent, live, state, index=None):
        kind = self.draw(st.sampled_from(["plain", "plain", "plain", "assert", "guard"]))
        if kind == "assert":
            u = self.pick(state)
            self.emit(indent, f"assert np.all(np.isfinite({u})), 'finite'")
        elif kind == "guard":
            u = self.pick(state)
            self.emit(indent, f"if np.sum(np.abs({u})) > 1e6:")
            self.emit(indent + 1, "raise ValueError('unreachable')")
        super().update(indent, live, state, index)


@st.composite
def programs(draw):
    lines, conds = Writer(draw).program()
    thresholds = [round(draw(st.floats(-1.5, 1.5)), 3) for _ in conds]
    return lines, conds, thresholds, draw(st.integers(1, 3)), draw(st.integers(0, 2 ** 31 - 1))


def _build(source, name="prog"):
    _counter[0] += 1
    filename = f"<random-search-{_counter[0]}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name], filename


def _margins_with_helpers(lines, conds, thresholds, args):
    """loops.margins, with the helpers defined where the probe runs the program."""
    namespace = {"np": np}
    exec(HELPERS, namespace)
    closest = [np.inf] * len(conds)

    def probe(k, value, op):
        value = float(value)
        closest[k] = min(closest[k], abs(value - thresholds[k]))
        return value > thresholds[k] if op == ">" else value < thresholds[k]

    namespace["_probe"] = probe
    tests = [f"_probe({k}, {value}, {op!r})" for k, (value, op) in enumerate(conds)]
    exec(loops.render(lines, tests), namespace)
    namespace["prog"](*args)
    return closest


def _place(lines, conds, thresholds, args):
    thresholds = list(thresholds)
    for attempt in range(6):
        near = [k for k, m in enumerate(_margins_with_helpers(lines, conds, thresholds, args)) if m < loops.MARGIN]
        if not near:
            return thresholds
        for k in near:
            thresholds[k] = loops.NEVER if attempt == 4 else round(thresholds[k] + 0.137, 3)
        if attempt == 4:
            thresholds = [loops.NEVER] * len(conds)
    raise AssertionError("thresholds could not be placed")


def _located(error, filename):
    """A refusal is fine when it names the program's file (the user's line)."""
    return isinstance(error, TranspileError) and error.filename == filename


def _judge(run, source, filename, what):
    """``run()``; a located refusal is fine (returns None); anything else but success fails."""
    try:
        return run()
    except TranspileError as e:
        if _located(e, filename):
            return None
        raise AssertionError(f"{what}: a refusal not located in the program ({e.filename}):\n{source}\n{e}") from None
    except AssertionError:
        raise
    except Exception as e:      # noqa: BLE001  (an internal error: the point of this search)
        raise AssertionError(f"{what}: internal error {type(e).__name__}: {e}\n{source}") from e


_SEEN = {"programs": 0, "refused": 0, "bodies": 0, "bodies run": 0, "bodies refused": 0, "bodies raised": 0}


def _progress():
    """With ADJOIN_SEARCH_LOG=path, the counts so far are written there after every program."""
    path = os.environ.get("ADJOIN_SEARCH_LOG")
    if path:
        with open(path, "w") as fh:
            fh.write(f"{_SEEN}\n")


@pytest.fixture(scope="module", autouse=True)
def _counts():
    """With -s, the counts of what the search met (programs, located refusals)."""
    yield
    print(f"\nrandom search: {_SEEN}")


@settings(max_examples=NUMERIC, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.data_too_large])
@given(programs())
def test_random_numeric_program(program):
    lines, conds, thresholds, length, seed = program
    rng = np.random.default_rng(seed)
    args = (rng.normal(size=length), float(rng.normal()))
    thresholds = _place(lines, conds, thresholds, args)
    source = HELPERS + loops.render(lines, [f"{v} {op} {t!r}" for (v, op), t in zip(conds, thresholds)])
    fn, filename = _build(source)
    _SEEN["programs"] += 1
    _progress()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = _judge(lambda: differentiate(fn, wrt=(0, 1)), source, filename, "decorate")
        if d is None:
            _SEEN["refused"] += 1
            return
        got = _judge(lambda: d.grad(*args), source, filename, "reverse")
        if got is None:
            _SEEN["refused"] += 1
            return
        for i in (0, 1):
            assert_close(np.asarray(got[i], dtype=float), numeric_vjp(fn, args, i, 1.0), 1e-4, 1e-6,
                         what=f"reverse, d/d arg {i}\n{source}")
        tangents = (rng.normal(size=length), float(rng.normal()))
        out = _judge(lambda: jvp(fn, args, tangents, wrt=(0, 1)), source, filename, "forward")
        if out is not None:
            assert_close(out[1], numeric_jvp(fn, args, tangents), 1e-4, 1e-6, what=f"forward\n{source}")
        if seed % 3 == 0:
            v = rng.normal(size=length)
            h = _judge(lambda: hvp(fn, args, v, wrt=0), source, filename, "hvp")
            if h is not None:
                g0 = lambda x: np.asarray(grad(fn, wrt=0)(x, args[1]), dtype=float)   # noqa: E731
                assert_close(h, numeric_jvp(g0, [args[0]], [v], eps=1e-5), 1e-3, 1e-5, what=f"hvp\n{source}")


# --- hypothesmith: syntax breadth ------------------------------------------------------------

def _bodies():
    hypothesmith = pytest.importorskip("hypothesmith")      # in the [test] extra
    return hypothesmith.from_grammar(start="file_input")


def _program_of(body):
    """``def prog(x):`` around ``body``, then ``return`` of a value that depends on x."""
    import textwrap
    inner = textwrap.indent(body if body.strip() else "pass\n", "    ")
    return f"def prog(x):\n{inner}\n    return x * 2.0 + np.sin(x)\n"


def _primal(fn, x):
    try:
        return fn(x), None
    except Exception as e:       # noqa: BLE001  (the program's own behaviour)
        return None, e


@pytest.fixture(scope="module")
def body_strategy():
    return _bodies()


def test_random_syntax_bodies(body_strategy):
    @settings(max_examples=BODIES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body_strategy)
    def run(body):
        source = _program_of(body)
        try:
            compile(source, "<check>", "exec")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return                   # valid as a module, not inside a def (return, nonlocal, ...)
        if any(word in source for word in ("import", "open(", "exec", "eval", "__", "breakpoint", "input",
                                           "exit", "quit", "del ", "global", "while", "yield", "await")):
            return                   # nothing with effects outside the program, nothing that may not end
        try:
            fn, filename = _build(source)
        except Exception:            # noqa: BLE001  (a definition that raises: not a program to differentiate)
            return
        x = 0.3
        _SEEN["bodies"] += 1
        _progress()
        value, raised = _primal(fn, x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                g = grad(fn)(x)
            except TranspileError as e:
                assert _located(e, filename), f"refusal not located in the program:\n{source}\n{e}"
                _SEEN["bodies refused"] += 1
                return
            except Exception as e:   # noqa: BLE001
                if raised is not None and type(e) is type(raised):
                    _SEEN["bodies raised"] += 1
                    return           # the primal's own exception
                raise AssertionError(f"internal error {type(e).__name__}: {e}\n{source}") from e
        assert raised is None, f"the primal raised {raised!r} but the gradient ran:\n{source}"
        _SEEN["bodies run"] += 1
        want = numeric_grad(lambda t: fn(float(t)), x)
        if np.all(np.isfinite(want)) and np.isscalar(value) or np.ndim(value) == 0:
            assert_close(np.asarray(g, dtype=float), want, 1e-4, 1e-6, what=f"hypothesmith body\n{source}")

    run()
