"""The checkpoint schedules on their own: budgets, the binomial formula, memory bounds."""

import functools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from transpiler.modes import checkpoint_schedule
from transpiler.modes.checkpoint_schedule import (Checkpoints, advances, best_split, choose_chunks, first_advances,
                                                  parse_budget, plan_loop, revolve, size_of)


# --- budgets -------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [
    (1000, 1000), ("1000", 1000), ("512KB", 512_000), ("8MB", 8_000_000), ("1.5GB", 1_500_000_000),
    ("2MiB", 2 * 1024 ** 2), (" 3 kb ", 3000), ("10B", 10), (np.int64(7), 7), (None, None)])
def test_budget_parsing(text, value):
    assert parse_budget(text) == value


@pytest.mark.parametrize("bad", ["", "MB", "8 XB", "1.2.3MB", "-5MB", "0", 0, -1, "eight MB"])
def test_malformed_budget_is_a_value_error(bad):
    with pytest.raises(ValueError, match="memory_budget"):
        parse_budget(bad)


@pytest.mark.parametrize("bad", [1.5e6, True, [8], b"8MB"])
def test_budget_of_another_type_is_a_type_error(bad):
    with pytest.raises(TypeError, match="memory_budget"):
        parse_budget(bad)


# --- the binomial schedule -----------------------------------------------------------------------
@functools.lru_cache(None)
def fewest(steps, slots):
    """The fewest recomputed steps, by exhaustive dynamic programming over every first split."""
    if steps == 1:
        return 0
    if slots == 0:
        return math.inf
    return min(j + fewest(steps - j, slots - 1) + fewest(j, slots) for j in range(1, steps))


def test_binomial_formula_matches_exhaustive_search():
    for slots in range(1, 7):
        for steps in range(1, 70):
            assert advances(steps, slots) == fewest(steps, slots), (steps, slots)


def test_best_split_is_optimal():
    for slots in range(1, 7):
        for steps in range(2, 70):
            j = best_split(steps, slots)
            assert j + fewest(steps - j, slots - 1) + fewest(j, slots) == fewest(steps, slots), (steps, slots)


def play(actions, held, last, strict):
    """Run revolve's actions on a model holding snapshots ``held``: (advanced steps, most
    snapshots held, reversed order).  Advances stay below ``last``; ``strict``: never onto a
    snapshot already held, and a release must drop one that is held."""
    advanced, most, order = 0, len(held), []
    for action in actions:
        if action[0] == "advance":
            _, a, b = action
            assert a in held and a < b <= last and not (strict and b in held)
            advanced += b - a
            held.add(b)
            most = max(most, len(held))
        elif action[0] == "reverse":
            assert action[1] in held
            order.append(action[1])
        elif strict:
            held.remove(action[1])
        else:
            held.discard(action[1])
    return advanced, most, order


def simulate(steps, slots):
    """Every action of revolve from the start: (advanced steps, most snapshots held, reversed order)."""
    return play(revolve(steps, slots), {0}, steps, strict=False)


@given(st.integers(1, 400), st.integers(1, 12))
@settings(max_examples=200, deadline=None)
def test_revolve_reverses_every_step_once_within_its_slots(steps, slots):
    advanced, most, order = simulate(steps, slots)
    assert order == list(reversed(range(steps)))
    assert most <= 1 + slots
    assert advanced == advances(steps, slots)


def whole_loop(steps, slots):
    """A primal sweep that runs every step keeping ``first_advances``, then the rest of
    revolve's actions: (advances beyond the primal, most snapshots held, reversed order)."""
    chain = first_advances(steps, slots)
    actions = revolve(steps, slots)
    for a, b in zip([0] + chain, chain):            # the primal sweep did these
        assert next(actions) == ("advance", a, b)
    return play(actions, {0, *chain}, steps - 1, strict=True)


@given(st.integers(1, 3000), st.integers(1, 40))
@settings(max_examples=300, deadline=None)
def test_whole_loop_schedule(steps, slots):
    """The binomial schedule over a whole loop: every step's adjoint once, last first; never more
    than the slots (and the start); recomputation beyond the primal the binomial bound."""
    slots = min(slots, max(steps - 1, 1))
    advanced, most, order = whole_loop(steps, slots)
    assert order == list(reversed(range(steps)))
    assert most <= 1 + slots
    assert advanced == advances(steps, slots) - (steps - 1)
    assert advanced == fewest(steps, slots) - (steps - 1) if steps <= 60 and slots <= 6 else True
    r = 0
    while math.comb(slots + r, slots) < steps:
        r += 1
    assert advanced <= max(r - 1, 0) * steps      # each step recomputed at most r-1 times beyond the primal


def test_revolve_known_counts():
    # with one slot, step k is reached again from 0 for each k: sum of 1..steps-1
    assert simulate(10, 1)[0] == 45
    # C(2+3, 2) = 10 steps fit 2 slots with each step recomputed at most 3 times
    assert advances(10, 2) == 3 * 10 - math.comb(5, 3)
    assert advances(1, 0) == 0 and advances(2, 0) == math.inf


@given(st.integers(1, 5000), st.integers(100, 10 ** 6), st.integers(1, 500), st.integers(1, 500))
@settings(max_examples=200, deadline=None)
def test_chunks_fit_the_memory(trips, free, snapshot, tape):
    plan = choose_chunks(trips, free, snapshot, tape)
    if plan is None:
        # nothing fits: not even one trip's tape with one snapshot slot, unless there is one trip
        assert trips > 1 and free < tape + snapshot or free < tape
        return
    chunk, slots = plan
    assert 1 <= chunk <= trips
    assert chunk * tape + slots * snapshot <= free
    if chunk < trips:
        assert slots >= 1


def test_whole_loop_when_it_fits():
    assert choose_chunks(100, 10_000, 50, 100) == (100, 0)


@given(st.integers(1, 3000), st.integers(1000, 10 ** 6), st.integers(50, 5000), st.integers(50, 5000))
@settings(max_examples=200, deadline=None)
def test_loop_plan_fits_and_recomputes_nothing_when_even_spacing_does(trips, free, snapshot, tape):
    """plan_loop's chunks and slots fit the memory, and it recomputes nothing beyond the primal
    when some evenly spaced snapshots (each stretch recorded whole, of at least SPACING trips
    when such fit) fit."""
    plan = plan_loop(trips, free, snapshot, tape)
    if plan is None:
        assert free < tape + snapshot
        return
    chunk, slots = plan
    steps = -(-trips // chunk)
    assert chunk * tape + slots * snapshot <= free and slots <= max(steps - 1, 0)
    extra = (advances(steps, slots) - (steps - 1)) * chunk
    assert extra >= 0
    least = min(checkpoint_schedule.SPACING, free // tape)
    if any((-(-trips // c) - 1) * snapshot + c * tape <= free for c in range(least, trips + 1)):
        assert extra == 0


def test_loop_plan_prefers_fewer_bytes_when_nothing_is_recomputed():
    chunk, slots = plan_loop(100_000, 2_600_000, 700, 2650)
    assert advances(-(-100_000 // chunk), slots) == -(-100_000 // chunk) - 1      # nothing recomputed
    assert 100 < chunk < 250          # about sqrt(trips * snapshot / tape) = 163


# --- the run-time plan -----------------------------------------------------------------------------
@pytest.fixture
def bare(monkeypatch):
    """No fixed reserve and a snapshot may be due every trip: small models reach every schedule."""
    monkeypatch.setattr(checkpoint_schedule, "WORKING", 0)
    monkeypatch.setattr(checkpoint_schedule, "SPACING", 1)


def run(trips, budget, known=True, width=8, snapshots=None):
    """Drive a plan the way generated code does, on x <- x * 1.01 + k: the reversed trips, and
    the state each reverse started from, checked against a plain run."""
    states = [np.arange(width, dtype=float)]
    for k in range(trips):
        states.append(states[-1] * 1.01 + k)
    plan = Checkpoints(budget, "for k in range(trips):", trips if known else None, snapshots)
    x = states[0]
    for k in range(trips):
        if plan.take((x,)):          # measure: record this trip
            plan.sized([x])
        x = x * 1.01 + k
    reversed_trips = []
    recomputed = 0
    for start, stop, record, (x,) in plan.reversal():
        np.testing.assert_array_equal(x, states[start])
        if record:
            tape = []
            for k in range(start, stop):
                tape.append(x)
                x = x * 1.01 + k
            plan.taped(tape, start, stop)
            for k in reversed(range(start, stop)):
                assert tape.pop() is not None
                reversed_trips.append(k)
        else:
            for k in range(start, stop):
                x = x * 1.01 + k
            recomputed += stop - start
            plan.keep(stop, (x,))
    assert reversed_trips == list(reversed(range(trips)))
    return plan, recomputed


@pytest.mark.parametrize("known", [True, False])
@pytest.mark.parametrize("trips, budget", [(1, 10_000), (7, 5_000), (500, 20_000), (500, 5_000), (2000, 8_000)])
def test_plan_reverses_in_order_within_budget(trips, budget, known, bare):
    plan, _ = run(trips, budget, known)
    assert plan.peak + plan.working() <= budget
    assert plan.held == 0 and not plan.snaps


@given(st.integers(2, 3000), st.integers(3, 200))
@settings(max_examples=60, deadline=None)
def test_run_time_plan_of_a_for_loop_is_the_whole_loop_revolve(trips, slots):
    """Driven like generated code (a second run: the size of a trip's tape is known), a for
    loop's plan reverses every trip once, last first, within the budget, and recomputes no
    more than revolve over the whole loop with its chunk and slots (plus the last stretch's
    trips, advanced once to record the last trip on its own)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(checkpoint_schedule, "WORKING", 0)
        state = size_of((np.zeros(8),)) + 64
        budget = Checkpoints(None, "").working() + (slots + 1) * state + 20 * size_of([np.zeros(8)])
        run(trips, budget)                         # learns the size of a trip's tape
        plan, recomputed = run(trips, budget)
        assert plan.peak + plan.working() <= budget
    assert plan.chain == [] and len(plan.snaps) == 0
    if plan.chunk is not None:
        steps = -(-trips // plan.chunk)
        bound = (advances(steps, plan.slots) - (steps - 1)) * plan.chunk + plan.chunk - 1
        assert recomputed <= bound
        assert plan.capacity <= 1 + plan.slots


def test_plan_recomputes_less_with_more_memory(bare):
    costs = [run(1000, budget)[1] for budget in (5_000, 10_000, 100_000)]
    assert costs[0] > costs[1] > costs[2] >= 0


def test_online_thinning_keeps_at_most_its_capacity(bare):
    plan = Checkpoints(20_000, "while", None)
    x = np.zeros(8)
    for _ in range(5000):
        if plan.take((x,)):
            plan.sized([x])
    assert 8 <= len(plan.snaps) <= plan.capacity
    assert plan.held <= 10_000
    assert all(t % plan.stride == 0 for t in plan.snaps)


def test_fixed_number_of_snapshots():
    plan, recomputed = run(100, None, snapshots=4)
    assert plan.capacity == 4 and recomputed == 0     # four stretches of 25, each recorded once


def test_budget_below_one_snapshot_says_what_is_needed(bare):
    with pytest.raises(ValueError, match=r"too small .*one snapshot of the loop's state takes \d+ bytes"):
        run(10, 50)


def test_budget_below_one_trip_says_what_is_needed(bare):
    with pytest.raises(ValueError, match=r"one trip's saved values with three snapshots .* takes \d+ bytes"):
        plan = Checkpoints(int(size_of((np.zeros(8),)) * 5 / (1 - checkpoint_schedule.OUTSIDE)) + 1, "loop", 10)
        plan.take((np.zeros(8),))
        plan.trips = 10
        for start, stop, record, state in plan.reversal():
            if record:
                plan.taped([np.zeros(8) for _ in range(20)], start, stop)   # saves much more than its state
            else:
                plan.keep(stop, state)


def test_sizes_follow_containers():
    a = np.zeros(100)
    assert size_of(a) >= 800
    assert size_of((a, a)) < 2 * size_of(a)           # one array, counted once
    assert size_of([a[1:], {"k": a}]) >= 2 * 800 - 8  # a view counts its data
