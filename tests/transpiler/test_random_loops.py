"""Hypothesis writes random programs with loops and branches; transpiler == tape == FD,
for the gradient (reverse mode, and its value) and for the JVP (forward mode).

Programs over ``x`` (a vector of length 1-3) and ``a`` (a scalar, a Python float or an
np.float64) use: ``for`` over ``range`` with drawn trip counts (0 included) and
data-dependent ones (``len(x)``, ``for e in x``), nested loops, ``if``/``elif``/``else`` on
data (``np.sum(h) > c``), ``while`` with a counter and a data condition,
``break``/``continue``, early ``return``, loop-carried values and augmented assignment.

Kinks: a condition evaluated close to its threshold would make finite differences cross
it.  Thresholds are therefore placed by construction: the program is first run with each
condition replaced by a probe that records how far its value is from the threshold, and a
threshold that comes within ``MARGIN`` is moved (at worst to a value the bounded program
never reaches).  Every update is bounded (tanh, sin, contractions), so values stay O(10).
"""

import linecache

import numpy as np
from hypothesis import given, strategies as st

from tests.fd import assert_close, numeric_jvp
from tests.transpiler.checks import check
from transpiler import jvp

MARGIN = 1e-3
NEVER = 1e6          # a threshold no value of these bounded programs comes near

# updates whose adjoint reads {b} itself, next to popped values: a loop counter's order matters
MIXING = ["np.sin({u}) * 0.5 + 0.2 * {u} * {b}", "np.tanh({u} * {b} * 0.3 + {u})"]
# update forms: the result has the shape of {u} when {b} has no more dimensions than {u}
UPDATE = ["np.tanh({u} * 0.9 + {b})", "0.8 * {u} + 0.2 * np.tanh({b})", "{u} + 0.3 * np.sin({b})",
          "{u} * 0.9 * np.cos({b})", "np.sqrt({u} * {u} + 1.0) * 0.6", "{u} - 0.1 * np.exp(np.tanh({b}))",
          "{u} / ({b} * {b} + 1.0)"] + MIXING
AUG = ["{u} += 0.3 * np.sin({b})", "{u} *= 0.9", "{u} -= 0.2 * np.tanh({b})", "{u} *= np.cos({b})"]
# new values from any two operands (broadcasting): (template, result is 0-d regardless)
NEW = [("np.sin({b}) * {c}", False), ("np.tanh({b} * {c})", False), ("{b} * {c} + 0.5", False),
       ("{b} / ({c} * {c} + 1.0)", False), ("np.sum({b} * {c}) * 0.1", True),
       ("np.cos({b}) - {c}", False)]
REDUCE = ["np.sum({v})", "np.max({v})", "np.mean({v})"]

_counter = [0]


class Writer:
    """Writes one random program; conditions are kept apart so thresholds can be placed."""

    def __init__(self, draw):
        self.draw = draw
        self.lines = []
        self.conds = []            # (value expression, operator) per condition, by index
        self.ndim = {"x": 1, "a": 0}
        self.count = 0
        self.early_return = False

    def fresh(self, prefix):
        self.count += 1
        return f"{prefix}{self.count}"

    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def pick(self, names):
        return self.draw(st.sampled_from(sorted(names)))

    def condition(self, live):
        v = self.pick(live)
        value = self.draw(st.sampled_from(REDUCE)).format(v=v) if self.ndim[v] else v
        self.conds.append((value, self.draw(st.sampled_from([">", "<"]))))
        return f"{{c{len(self.conds) - 1}}}"

    def new_value(self, indent, live):
        b, c = self.pick(live), self.pick(live)
        form, reduced = self.draw(st.sampled_from(NEW))
        v = self.fresh("v")
        self.emit(indent, f"{v} = {form.format(b=b, c=c)}")
        self.ndim[v] = 0 if reduced else max(self.ndim[b], self.ndim[c])
        return v

    def update(self, indent, live, state, index=None):
        u = self.pick(state)
        b = self.pick([n for n in live if self.ndim[n] <= self.ndim[u]])
        forms = AUG + UPDATE
        if index is not None and self.draw(st.booleans()):
            b, forms = index, MIXING      # the loop counter in the adjoint
        form = self.draw(st.sampled_from(forms))
        text = form.format(u=u, b=b)
        self.emit(indent, text if form in AUG else f"{u} = {text}")

    def block(self, indent, live, state, depth, in_loop, index=None):
        """Statements at one indentation; new names stay local to this block."""
        live, state = list(live), list(state)
        if index is not None:
            self.update(indent, live, state, index)
        kinds = ["update", "update", "new"]
        if depth < 2:
            kinds += ["for", "if", "while"]
        if in_loop:
            kinds += ["break", "continue"]
        if in_loop == "top-for" and not self.early_return:
            kinds += ["return"]
        for _ in range(self.draw(st.integers(1, 3 - depth))):
            kind = self.draw(st.sampled_from(kinds))
            if kind == "update":
                self.update(indent, live, state)
            elif kind == "new":
                live.append(self.new_value(indent, live))
            elif kind == "for":
                i = self.fresh("i")
                count = self.draw(st.sampled_from(["0", "1", "2", "3", "len(x)", "len(x) - 1", "x"]))
                # `for e in x`: one trip per element, e an active scalar
                self.emit(indent, f"for {i} in x:" if count == "x" else f"for {i} in range({count}):")
                self.ndim[i] = 0
                self.block(indent + 1, live + [i], state, depth + 1,
                           "top-for" if depth == 0 else "loop", index=i)
            elif kind == "if":
                self.emit(indent, f"if {self.condition(live)}:")
                self.block(indent + 1, live, state, depth + 1, in_loop and "loop")
                if self.draw(st.booleans()):
                    self.emit(indent, f"elif {self.condition(live)}:")
                    self.block(indent + 1, live, state, depth + 1, in_loop and "loop")
                if self.draw(st.booleans()):
                    self.emit(indent, "else:")
                    self.block(indent + 1, live, state, depth + 1, in_loop and "loop")
            elif kind == "while":
                k = self.fresh("k")
                trips = self.draw(st.integers(0, 4))
                self.emit(indent, f"{k} = 0")
                self.emit(indent, f"while {k} < {trips} and {self.condition(live)}:")
                self.emit(indent + 1, f"{k} += 1")
                self.block(indent + 1, live, state, depth + 1, "loop")
            elif kind in ("break", "continue"):
                self.emit(indent, f"if {self.condition(live)}:")
                self.emit(indent + 1, kind)
            else:
                self.emit(indent, f"if {self.condition(live)}:")
                self.emit(indent + 1, f"return np.sum({self.pick(state)}) * 1.5")
                self.early_return = True

    def program(self):
        live = ["x", "a"]
        state = [self.new_value(1, live), self.new_value(1, live)]
        self.block(1, live + state, state, 0, False)
        u, w = self.pick(state), self.pick(state)
        forms = [f"np.sum({u} * {w})", f"np.sum({u}) + np.sum({w})"]
        if not self.early_return:
            forms.append(u)
        self.emit(1, f"return {self.draw(st.sampled_from(forms))}")
        return self.lines, self.conds


@st.composite
def programs(draw):
    lines, conds = Writer(draw).program()
    thresholds = [round(draw(st.floats(-1.5, 1.5)), 3) for _ in conds]
    length = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2 ** 31 - 1))
    scalar_type = draw(st.sampled_from([float, np.float64]))
    return lines, conds, thresholds, length, seed, scalar_type


def render(lines, tests):
    body = "".join(f"{line}\n" for line in lines).format(**{f"c{k}": t for k, t in enumerate(tests)})
    return "def prog(x, a):\n" + body


def build(source):
    """Compile ``source`` under a fake file name that ``inspect.getsource`` can read."""
    _counter[0] += 1
    filename = f"<random-loop-program-{_counter[0]}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np}
    exec(compile(source, filename, "exec"), namespace)
    return namespace["prog"]


def margins(lines, conds, thresholds, args):
    """Run the program with probes: the closest approach of each condition to its threshold."""
    closest = [np.inf] * len(conds)

    def probe(k, value, op):
        value = float(value)
        closest[k] = min(closest[k], abs(value - thresholds[k]))
        return value > thresholds[k] if op == ">" else value < thresholds[k]

    tests = [f"_probe({k}, {value}, {op!r})" for k, (value, op) in enumerate(conds)]
    namespace = {"np": np, "_probe": probe}
    exec(render(lines, tests), namespace)
    namespace["prog"](*args)
    return closest


def place_thresholds(lines, conds, thresholds, args):
    """Move thresholds away from the values their conditions see at ``args``."""
    thresholds = list(thresholds)
    for attempt in range(6):
        near = [k for k, m in enumerate(margins(lines, conds, thresholds, args)) if m < MARGIN]
        if not near:
            return thresholds
        for k in near:
            thresholds[k] = NEVER if attempt == 4 else round(thresholds[k] + 0.137, 3)
        if attempt == 4:    # last resort: every condition fixed, nothing left to cross
            thresholds = [NEVER] * len(conds)
    raise AssertionError("thresholds could not be placed")   # unreachable: NEVER is never near


def check_forward(fn, args, rng):
    """Forward mode on the same program: the JVP along a random direction == FD."""
    tangents = (rng.normal(size=np.shape(args[0])), float(rng.normal()))
    value, derivative = jvp(fn, args, tangents, wrt=(0, 1))
    np.testing.assert_allclose(value, fn(*args), rtol=1e-12, atol=0)
    assert_close(derivative, numeric_jvp(fn, args, tangents), 1e-4, 1e-6, what="jvp vs finite differences")


@given(programs())
def test_random_loop_program(program):
    lines, conds, thresholds, length, seed, scalar_type = program
    rng = np.random.default_rng(seed)
    args = (rng.normal(size=length), scalar_type(rng.normal()))
    thresholds = place_thresholds(lines, conds, thresholds, args)
    assert all(m >= MARGIN for m in margins(lines, conds, thresholds, args))
    source = render(lines, [f"{value} {op} {t!r}" for (value, op), t in zip(conds, thresholds)])
    fn = build(source)
    try:
        d = check(fn, *args, wrt=(0, 1), rtol=1e-4, atol=1e-6)
        value, _ = d.value_and_grad(*args)
        np.testing.assert_allclose(value, fn(*args), rtol=1e-12, atol=0)
        check_forward(fn, args, rng)
    except AssertionError as e:
        raise AssertionError(f"program:\n{source}\n{e}") from None


# --- what the generator found (kept as plain regression tests) ----------------------------
def zero_trip_loop_in_while(x, a):
    """The outer loop saved the inner loop's counter, unbound after zero trips."""
    v = np.cos(x) - a
    k = 0
    while k < 2:
        k += 1
        for i in range(0):
            v = np.tanh(v * i * 0.3 + v)
        v = v + 0.3 * np.sin(x)
    return np.sum(v)


def counter_read_after_inner_loop(x, a):
    """The counter read after the inner loop is still saved per outer trip."""
    v = x * a
    for j in range(2):
        for i in range(3):
            v = np.sin(v) * 0.5 + 0.2 * v * i
        v = v * (i + j + 0.5)
    return np.sum(v)


def branch_local_in_loop(x, a):
    """Forward mode gave loops no tangent code, and filled a zero tangent for a name local
    to the other branch (undefined there)."""
    v = x / (x * x + 1.0)
    k = 0
    while k < 3:
        k += 1
        if np.max(v) < 0.0:
            v = v * 0.9
        elif a > 0.5:
            break
        v = np.tanh(v + a)
    return np.sum(v * x)


def loop_value_of_value_and_grad(x, a):
    """value_and_grad returned the loop variable as rewound by the adjoint."""
    v = x
    for i in range(3):
        v = np.sin(v) * a
    return v


def test_regressions():
    x = np.array([0.3, -0.4, 0.8])
    for fn in (zero_trip_loop_in_while, counter_read_after_inner_loop, branch_local_in_loop,
               loop_value_of_value_and_grad):
        for a in (0.7, 0.2):
            d = check(fn, x, a, wrt=(0, 1))
            value, _ = d.value_and_grad(x, a)
            np.testing.assert_allclose(value, fn(x, a), rtol=1e-12, atol=0)
            check_forward(fn, (x, a), np.random.default_rng(3))
