"""Griewank's *revolve* and the choice of chunks and snapshot slots for a checkpointed loop.

Pure functions of trip counts and byte sizes (``checkpoint_schedule`` applies them at run time),
so the schedules are tested on their own: ``revolve(steps, slots)`` yields the actions that
reverse ``steps`` steps from one snapshot with ``slots`` more, recomputing the fewest steps
(``advances``); ``plan_loop`` picks the chunk length and slots a budget allows.
"""

import math

__all__ = ["SPACING", "advances", "best_split", "revolve", "first_advances", "choose_chunks", "plan_loop"]

SPACING = 16      # the primal keeps at most one snapshot per this many trips: the bookkeeping of a
                  # snapshot and of a reverse action stays small next to the trips themselves


def _reach(slots, reps):
    """How many steps ``slots`` snapshot slots reverse when each step is recomputed at most
    ``reps`` times: the binomial coefficient C(slots + reps, slots)."""
    return math.comb(slots + reps, slots)


def _reps(steps, slots):
    """The fewest repetitions with which ``slots`` slots reverse ``steps`` steps."""
    reps = 0
    while _reach(slots, reps) < steps:
        reps += 1
    return reps


def advances(steps, slots):
    """The fewest trips recomputed (advanced without saving) to reverse ``steps`` steps when the
    state at the first is kept and ``slots`` more snapshots fit: r*steps - C(slots+r, slots+1),
    r the repetition number (Griewank & Walther, Evaluating Derivatives, ch. 12)."""
    if steps <= 1:
        return 0
    if slots < 1:
        return math.inf
    r = _reps(steps, slots)
    return r * steps - math.comb(slots + r, slots + 1)


def best_split(steps, slots):
    """Where to keep the next snapshot (steps from the start) so ``revolve`` stays optimal.

    The cost ``j + advances(steps - j, slots - 1) + advances(j, slots)`` is convex in j, so the
    first j where it stops falling is a minimum: found by bisection.  ``advances(n, s)`` grows
    by ``_reps(n, s)`` from n-1 to n, so the cost grows by ``1 + _reps(j+1, slots) -
    _reps(steps-j, slots-1)`` from j to j+1.  With a slot for every step, it is the next step."""
    if slots == 1:
        return steps - 1
    if slots >= steps - 1 or 1 + _reps(2, slots) >= _reps(steps - 1, slots - 1):
        return 1
    lo, hi = 2, steps - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if 1 + _reps(mid + 1, slots) >= _reps(steps - mid, slots - 1):
            hi = mid
        else:
            lo = mid + 1
    return lo


def revolve(steps, slots):
    """The actions that reverse steps ``0..steps-1`` from a snapshot at 0 with ``slots`` more.

    Yields ``("advance", a, b)`` (run a..b-1 unsaved, keep a snapshot at b), ``("reverse", a)``
    (record and reverse step a) and ``("drop", a)`` (the snapshot at a is no longer needed)."""
    if steps > 1 and slots < 1:
        raise ValueError("reversing more than one step needs at least one snapshot slot")
    todo = [(0, steps, slots)]
    while todo:
        a, m, s = todo.pop()
        if m == 1:
            yield ("reverse", a)
            yield ("drop", a)
            continue
        j = best_split(m, s)
        yield ("advance", a, a + j)
        todo.append((a, j, s))              # reversed after the part behind the new snapshot
        todo.append((a + j, m - j, s - 1))


def first_advances(steps, slots):
    """The steps where ``revolve(steps, slots)`` keeps snapshots before its first reverse.

    They lead from step 0 to the last step, so a primal sweep that runs every step anyway keeps
    them on its way: what revolve recomputes beyond the primal is the rest of its advances."""
    a, out = 0, []
    while steps - a > 1:
        a += best_split(steps - a, slots)
        slots -= 1
        out.append(a)
    return out


def choose_chunks(trips, free, snapshot, tape, prefer=None, least=1, primal=False):
    """``(chunk, slots)`` to reverse ``trips`` trips in ``free`` bytes, or None if nothing fits.

    A chunk of trips is recorded and reversed at once (its tape is ``chunk * tape`` bytes); the
    chunks are reversed with ``revolve`` in the slots the rest of the memory holds.  Chunk
    lengths are tried on a geometric scale, around the one whose stretches all fit at once
    (sqrt(trips * snapshot / tape)) and ``prefer``, at least ``least`` trips when that fits; the
    one recomputing the fewest trips wins, then the one keeping the fewest bytes.  With
    ``primal`` the first advances cost nothing: a primal sweep runs them anyway."""
    if trips * tape <= free:
        return trips, 0
    largest = int(free // max(tape, 1))
    if largest < 1:
        return None
    even = math.sqrt(trips * max(tape, 1) / max(snapshot, 1))       # steps, evenly spaced
    steps = {int(even) + d for d in range(-3, 4)} | {int(1.25 ** e) for e in range(int(math.log(trips, 1.25)) + 2)}
    candidates = {largest, prefer or largest} | {-(-trips // m) for m in steps if m >= 1}
    candidates |= {-(-trips // -(-trips // c)) for c in set(candidates)}   # the same steps, shorter chunks
    candidates |= {max(c, least) for c in set(candidates)}
    for low in (min(least, largest), 1):
        best = None
        for chunk in sorted(c for c in candidates if max(1, low) <= c <= min(largest, trips)):
            slots = int((free - chunk * tape) // max(snapshot, 1))
            steps = -(-trips // chunk)
            slots = min(slots, steps - 1)
            if steps > 1 and slots < 1:
                continue
            cost = (advances(steps, slots) - (steps - 1 if primal else 0)) * chunk
            key = (cost, chunk * tape + slots * snapshot)
            if best is None or key < best[0]:
                best = (key, chunk, slots)
        if best is not None:
            return best[1:]
    return None


def plan_loop(trips, free, snapshot, tape):
    """``(chunk, slots)`` of the revolve schedule of a whole loop of ``trips`` trips whose first
    snapshot is kept: chunks of at least ``SPACING`` trips when they fit, the fewest trips
    recomputed beyond the primal sweep, then the fewest bytes.  None if nothing fits."""
    return choose_chunks(trips, free, snapshot, tape, least=SPACING, primal=True)
