"""Test inputs for every registered derivative rule: the registry test (test_every_rule.py)
draws a case from each spec and checks the rule against finite differences.

A spec names a primitive and says how to draw its arguments: ``make(draw, rng)`` returns
``(args, kwargs)``; ``argnums`` are the positional arguments whose VJP/JVP are checked (an
argument that is a list or tuple is checked element by element).  ``second=False`` skips the
second-order check, with the reason in ``why``; ``scalar=True`` marks Python-float rules
(``math``, builtins), which the tape cannot run on tensors.

Each family module below registers its specs with ``@spec``; rules covered by a dedicated
test instead (container cotangents) are listed in ``COVERED_ELSEWHERE`` with that test.
"""

import importlib

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

SPECS = []


class Spec:
    def __init__(self, fn, make, argnums=(0,), second=True, scalar=False, why="", label=None, symmetric=False):
        self.fn, self.make, self.argnums, self.symmetric = fn, make, tuple(argnums), symmetric
        self.second, self.scalar, self.why = second, scalar, why
        self.label = label or getattr(fn, "__name__", repr(fn))

    def __repr__(self):
        return self.label


def spec(fn, argnums=(0,), second=True, scalar=False, why="", label=None, symmetric=False):
    """Decorator: register ``make`` as the input generator of ``fn``.

    ``symmetric``: fn reads a symmetric matrix (one triangle); its rule's gradient is the
    symmetric one, so the check compares against finite differences of fn((x + x.T) / 2).
    """
    def deco(make):
        SPECS.append(Spec(fn, make, argnums, second, scalar, why, label, symmetric))
        return make
    return deco


def add(fn, make, **kw):
    SPECS.append(Spec(fn, make, **kw))


# --- drawing helpers --------------------------------------------------------------------------

def shape(draw, min_dims=0, max_dims=3, min_side=1, max_side=3):
    return draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)) \
        if max_dims > 0 else ()


def broadcast_shapes(draw, n=2, max_dims=3):
    return draw(hnp.mutually_broadcastable_shapes(num_shapes=n, min_dims=0, max_dims=max_dims,
                                                  max_side=3)).input_shapes


def values(rng, shp, lo=-2.0, hi=2.0, signed=False):
    x = rng.uniform(lo, hi, size=shp)
    if signed:
        x = x * rng.choice([-1.0, 1.0], size=shp)
    return np.asarray(x, dtype=np.float64)


def axis_of(draw, ndim, none=True, tuples=False):
    """None, an int axis (possibly negative) or, with ``tuples``, a tuple of distinct axes."""
    options = [st.integers(-ndim, ndim - 1)] if ndim else []
    if none or not ndim:
        options.append(st.none())
    if tuples and ndim:
        options.append(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True).map(tuple))
    return draw(st.one_of(*options))


FAMILIES = ("elementwise", "reductions", "shapes", "products", "scalars", "internal", "linalg", "conv", "scipy")

COVERED_ELSEWHERE = {
    # rule name -> "module::test" that checks it (container cotangents: Grads and item_arrays
    # that the finite-difference harness cannot perturb)
    "append_at": "tests.runtime.rules.test_containers::test_append_at_rules",
    "make_complex": "tests.runtime.engine.test_complex_second_order::test_tf_complex",   # a complex output
    "builtins.tuple": "tests.transpiler.frontend.containers.test_concatenation::test_tuple_and_list_of_a_container",
    "builtins.list": "tests.transpiler.frontend.containers.test_concatenation::test_tuple_and_list_of_a_container",
    "slot": "tests.transpiler.frontend.containers.test_containers_higher::test_helpers_have_rules_both_ways",
    "spread": "tests.runtime.rules.test_containers::test_builtin_sum_over_a_list_of_broadcasting_items",
    "spread_vjp_g": "tests.transpiler.frontend.containers.test_containers_higher::test_spread_vjp_is_its_transpose",
    "total": "tests.runtime.rules.test_containers::test_builtin_sum_over_a_list_of_broadcasting_items",
    "total_vjp_t": "tests.transpiler.frontend.containers.test_containers_higher::test_total_vjp_is_its_transpose",
    "item_seed": "tests.runtime.rules.test_containers::test_scatter_into_a_container_and_restructure",
    "rows_like": "tests.runtime.rules.test_containers::test_array_and_asarray",
    "rows_like_vjp": "tests.transpiler.frontend.containers.test_containers_higher::test_rows_like_vjp_is_its_transpose",
    "split_like_vjp": "tests.runtime.rules.test_shape::test_concatenate_and_stack_on_the_tape_second_order",
    "unstack_vjp": "tests.runtime.rules.test_shape::test_concatenate_and_stack_on_the_tape_second_order",
    "items_like": "tests.runtime.rules.test_containers::test_items_like_rules_are_its_transposes",
    "concat": "tests.transpiler.frontend.containers.test_concatenation::test_hvp",              # list/tuple `+`, `*`, slices,
    "repeat": "tests.transpiler.frontend.containers.test_concatenation::test_hvp",              # dict `|` (containers.py)
    "take": "tests.transpiler.frontend.containers.test_concatenation::test_hvp",
    "merge": "tests.transpiler.frontend.containers.test_concatenation::test_hvp",
    "concat_part": "tests.transpiler.frontend.containers.test_concatenation::test_parts_are_transposes",
    "repeat_part": "tests.transpiler.frontend.containers.test_concatenation::test_parts_are_transposes",
    "take_part": "tests.transpiler.frontend.containers.test_concatenation::test_parts_are_transposes",
    "merge_part": "tests.transpiler.frontend.containers.test_concatenation::test_grad_of_grad",
    "assign_slice_": "tests.transpiler.frontend.containers.test_list_positions::test_reverse_forward_and_hvp_match_finite_differences",
    "slice_part": "tests.transpiler.frontend.containers.test_containers_higher::test_slice_parts_are_transposes",   # l[i:j] = v
    "slice_back": "tests.transpiler.frontend.containers.test_containers_higher::test_slice_parts_are_transposes",
    "builtins.dict": "tests.transpiler.frontend.effects.test_probe_aliasing::test_named_nested_literal_arguments",
    "pairs_part": "tests.transpiler.frontend.effects.test_probe_aliasing::test_named_nested_literal_arguments",
}


def all_specs():
    for family in FAMILIES:
        importlib.import_module(f"{__name__}.{family}")
    return SPECS
