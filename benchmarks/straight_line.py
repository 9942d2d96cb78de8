"""Straight-line scalar code: 200 statements on Python floats, gradient time over primal time;
and the transformation's own time per statement, for 50 to 400 statements (it should grow
linearly with the function's size).

The function is generated: five statement shapes in turn (a product with a sine, a weighted
sum, a tanh, a difference, a cosine plus a product), each reading the two values before it,
so every statement is active.  ``math`` functions (the natural choice on floats) and a numpy
twin of the same function (``np.sin`` on floats, as code written for arrays does).

    python benchmarks/straight_line.py
"""

import math
import time

import timing  # noqa: F401  (one BLAS thread, before numpy)
from timing import interleaved

import numpy as np  # noqa: E402

from transpiler import grad  # noqa: E402
from transpiler.api import transform  # noqa: E402

SHAPES = ("{m}.sin({a}) * {b}", "{a} * 0.9 + {b} * 0.1", "{m}.tanh({a} + {b})", "{a} - 0.5 * {b}",
          "{m}.cos({a}) + 0.1 * {b}")


def straight_line(n, module="math"):
    """A function of (x, y) with ``n`` assignments, compiled from generated source."""
    lines = [f"def line{n}_{module}(x, y):", "    v0 = x", "    v1 = y"]
    for k in range(2, n + 2):
        expr = SHAPES[k % len(SHAPES)].format(m=module, a=f"v{k - 1}", b=f"v{k - 2}")
        lines.append(f"    v{k} = {expr}")
    lines.append(f"    return v{n + 1}")
    src = "\n".join(lines) + "\n"
    # a real file, so the transpiler can read the source back (inspect.getsource)
    import os
    import tempfile
    path = os.path.join(tempfile.gettempdir(), f"adjoin_straight_line_{n}_{module}.py")
    with open(path, "w") as fh:
        fh.write(f"import math\nimport numpy as np\n\n\n{src}")
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"adjoin_straight_line_{n}_{module}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, f"line{n}_{module}")


def _fd(fn, x, y, h=1e-6):
    return ((fn(x + h, y) - fn(x - h, y)) / (2 * h), (fn(x, y + h) - fn(x, y - h)) / (2 * h))


def measure(n=200):
    """{name: seconds} for gradient and primal of the math and numpy variants."""
    x, y = 0.7, -0.4
    out = {}
    fns, names = [], []
    for module in ("math", "np"):
        fn = straight_line(n, module)
        g = grad(fn, wrt=(0, 1))
        for got, want in zip(g(x, y), _fd(fn, x, y)):
            assert abs(got - want) <= 1e-6 * max(1.0, abs(want)), (got, want)
        names += [f"{module}: primal", f"{module}: adjoin gradient"]
        fns += [lambda fn=fn: fn(x, y), lambda g=g: g(x, y)]
    out.update(zip(names, interleaved(fns)))
    return out


def transform_time(n, repeat=5):
    """Best seconds to transform the n-statement function (parse to compiled code, no cache),
    in process CPU time: on a machine shared with other work, wall time counts their turns too."""
    fn = straight_line(n, "math")
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        transform(fn, wrt=(0, 1))
        best = min(best, time.process_time() - t)
    return best


def goal_rows(times, per_statement):
    """The issue's row for both spellings of the function: with ``math`` (the primal at its
    fastest) and with numpy on floats (as the issue's scalar loop is written)."""
    return [("200 straight-line scalar statements: gradient / primal (math)", "6x",
             times["math: adjoin gradient"] / times["math: primal"], 3.0, "x", ""),
            ("200 straight-line scalar statements: gradient / primal (numpy)", "6x",
             times["np: adjoin gradient"] / times["np: primal"], 3.0, "x", ""),
            ("transformation time per statement", "1.6 ms", per_statement * 1e3, 1.0, "ms", "CPU time")]


def main():
    times = measure()
    print("200 straight-line scalar statements on Python floats, wrt (x, y)")
    for module in ("math", "np"):
        p, g = times[f"{module}: primal"], times[f"{module}: adjoin gradient"]
        print(f"  {module:5s} primal {p * 1e6:8.1f} us   gradient {g * 1e6:8.1f} us   {g / p:6.2f}x primal")
    print("\ntransformation time (parse .. compile), process CPU time, best of 5:")
    for n in (50, 100, 200, 400):
        t = transform_time(n)
        print(f"  {n:4d} statements: {t * 1e3:8.1f} ms   {t / n * 1e3:6.3f} ms per statement")


if __name__ == "__main__":
    main()
