"""When a checkpointed loop keeps a snapshot and what its adjoint recomputes.

A gradient with ``memory_budget`` does not keep every trip's values for the adjoint.  The
primal sweep keeps only snapshots of the loop-carried state (``Checkpoints.take``), and the
adjoint sweep (``Checkpoints.reversal``) asks for two kinds of action, last trips first:

* ``advance``: restore the snapshot at trip ``start``, run trips ``start..stop-1`` without
  saving anything, keep a snapshot at ``stop``;
* ``reverse``: restore the snapshot at ``start``, run trips ``start..stop-1`` saving their
  values on a tape (the ordinary recording body), then run their adjoint, last trip first.

Sizes are known only at run time, so they are measured there: the snapshot at the first trip
gives the size of the state, the first reversed trips the size of one trip's tape.  The
primal keeps evenly spaced snapshots in half of the budget (thinned online, by doubling their
spacing, when the trip count is not known: ``while`` loops).  A stretch between two of them
whose tape does not fit in what is left is reversed with the binomial schedule of Griewank's
*revolve*: the fewest recomputed trips for that many snapshot slots (``advances``).

Everything here is plain Python, so the schedules are tested on their own.
"""

import math
import re
import sys
import threading
import weakref

import numpy as np

__all__ = ["parse_budget", "advances", "best_split", "revolve", "choose_chunks", "size_of", "Checkpoints"]

SPACING = 16      # the primal keeps at most one snapshot per this many trips: the bookkeeping of a
                  # snapshot and of a reverse action stays small next to the trips themselves
WORKING = 8192    # bytes of bookkeeping a checkpointed loop needs whatever it keeps
_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}


def parse_budget(budget):
    """Bytes from an int (``8_000_000``) or a string (``"512KB"``, ``"8MB"``, ``"1.5GB"``, ``"2MiB"``).

    ``None`` means no budget.  Raises TypeError for other types, ValueError for malformed or
    non-positive amounts."""
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer, str)):
        raise TypeError(f"memory_budget must be a number of bytes (int) or a string such as '8MB', "
                        f"not {type(budget).__name__} {budget!r}")
    if isinstance(budget, str):
        m = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([A-Za-z]*)\s*", budget)
        unit = m.group(2).upper() if m else None
        if m is None or unit not in _UNITS:
            raise ValueError(f"memory_budget={budget!r} is not an amount of memory: write an int of bytes "
                             "or a number with a unit, such as '512KB', '8MB', '1.5GB' (or KiB, MiB, GiB)")
        amount = int(float(m.group(1)) * _UNITS[unit])
    else:
        amount = int(budget)
    if amount <= 0:
        raise ValueError(f"memory_budget={budget!r}: the budget must be positive")
    return amount


# --- the binomial schedule ---------------------------------------------------------------------
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
    first j where it stops falling is a minimum: found by bisection."""
    if slots == 1:
        return steps - 1
    lo, hi = 1, steps - 1

    def cost(j):
        return j + advances(steps - j, slots - 1) + advances(j, slots)

    while lo < hi:
        mid = (lo + hi) // 2
        if cost(mid + 1) >= cost(mid):
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


def choose_chunks(trips, free, snapshot, tape):
    """``(chunk, slots)`` to reverse ``trips`` trips in ``free`` bytes, or None if nothing fits.

    A chunk of trips is recorded and reversed at once (its tape is ``chunk * tape`` bytes); the
    chunks are reversed with ``revolve`` in the slots the rest of the memory holds.  Chunk
    lengths are tried on a geometric scale, and the one recomputing the fewest trips wins."""
    if trips * tape <= free:
        return trips, 0
    best = None
    largest = int(free // max(tape, 1))
    candidates = {largest} | {int(1.25 ** e) for e in range(int(math.log(max(largest, 1), 1.25)) + 2)}
    for chunk in sorted(c for c in candidates if 1 <= c <= min(largest, trips)):
        slots = int((free - chunk * tape) // max(snapshot, 1))
        steps = -(-trips // chunk)
        slots = min(slots, steps - 1)
        if steps > 1 and slots < 1:
            continue
        cost = advances(steps, slots) * chunk
        if best is None or cost < best[0]:
            best = (cost, chunk, slots)
    return None if best is None else best[1:]


# --- sizes ---------------------------------------------------------------------------------------
def size_of(value, _seen=None):
    """Bytes ``value`` keeps alive, followed through tuples, lists, dicts and snapshots.

    An array that does not own its data counts its data anyway (it keeps its base alive), so
    the estimate errs on the large side."""
    if _seen is None:
        _seen = set()
    if id(value) in _seen:
        return 0
    _seen.add(id(value))
    if isinstance(value, np.ndarray):
        return sys.getsizeof(value) + (0 if value.flags.owndata else value.nbytes)
    if isinstance(value, (tuple, list)):
        return sys.getsizeof(value) + sum(size_of(v, _seen) for v in value)
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(size_of(k, _seen) + size_of(v, _seen) for k, v in value.items())
    if isinstance(value, Checkpoints):
        return sys.getsizeof(value) + value.held
    return sys.getsizeof(value)


# --- the run-time plan of one loop ----------------------------------------------------------------
_live = threading.local()
_LEARNED = weakref.WeakKeyDictionary()    # generated code -> {loop: (state bytes, bytes one trip saved)}


def _plans():
    if not hasattr(_live, "plans"):
        _live.plans = weakref.WeakSet()
    return _live.plans


class Checkpoints:
    """The snapshots of one run of a checkpointed loop, and the schedule of its reversal.

    ``budget`` bytes are shared by every checkpointed loop alive in this thread (loops run one
    after another keep their snapshots until their adjoint has run).  ``trips`` is the trip
    count when known before the loop (``for``); ``snapshots`` fixes the number of snapshots the
    primal keeps (the expert override: no budget needed).
    """

    def __init__(self, budget, where, trips=None, snapshots=None):
        self.budget, self.where, self.known, self.fixed = budget, where, trips, snapshots
        self.trips = 0            # trips taken so far (the trip count once the loop has ended)
        self.stride = SPACING
        self.snaps = {}           # trip -> (state tuple, its size)
        self.held = 0             # bytes in snapshots
        self.state_size = None
        self.tape_size = None     # bytes one trip saves, the largest seen
        self.peak = 0             # the most bytes held at once (snapshots + one tape), for tests
        self.spent = False        # primal snapshots dropped: no second reversal
        self.measured = 0         # tapes measured
        self.code = None          # the generated function's code (what it learned is kept there)
        self.items = 0            # the most tape items per trip seen
        _plans().add(self)

    # --- the primal sweep ---------------------------------------------------------------------
    def take(self, state):
        """Called at the top of every trip with the loop-carried values: keeps some of them."""
        k = self.trips
        self.trips = k + 1
        if k % self.stride:
            return
        if k == 0:
            self._first(state)
        self._keep(k, state)
        while len(self.snaps) > 1 and (len(self.snaps) > self.capacity or self.held > self.share):
            self.stride *= 2          # thin out: keep every other snapshot (a state may grow)
            for t in [t for t in self.snaps if t % self.stride]:
                self._drop(t)

    def _first(self, state):
        """Size the snapshots from the first.  How many the primal keeps depends on the size of
        a trip's tape, known only from an earlier run of the same loop: without it a quarter of
        the budget goes to snapshots (the first reversed trip measures the tape within the
        rest); with it half, or, for a known trip count, evenly spaced stretches whose tapes fit."""
        self.state_size = self.first_size = size_of(state)
        self.code = sys._getframe(2).f_code        # the generated function running this loop
        state, tape = _LEARNED.get(self.code, {}).get(self.where, (None, None))
        self.tape_size = tape if state == self.state_size else None     # (other shapes: measure again)
        self.share = math.inf
        if self.fixed is not None:
            self.capacity = max(1, int(self.fixed))
        elif getattr(_live, "recording", 0):
            # a loop inside a trip being recorded: its snapshots would sit on the outer tape,
            # so it keeps only its start, and is reversed from there when the outer adjoint runs
            self.capacity = 1
            self.stride = 1 << 62
            return
        else:
            avail = self.available() - self.working()
            if self.state_size > avail:
                raise ValueError(self._too_small(self.state_size, "one snapshot of the loop's state"))
            self.share = avail // (4 if self.tape_size is None else 2)
            self.capacity = max(1, int(self.share // self.state_size))
            if self.known and self.tape_size:
                spacing = max(SPACING, math.ceil(math.sqrt(self.known * self.state_size / self.tape_size)))
                count = -(-self.known // spacing)
                if count * (self.state_size + 64) + spacing * self.tape_size <= avail:
                    self.capacity = count
                    self.share = avail - spacing * self.tape_size
        if self.known is not None:
            self.stride = max(SPACING, -(-self.known // self.capacity))

    def available(self):
        """The budget less what the other live checkpointed loops hold."""
        if self.budget is None:
            return math.inf
        return self.budget - sum(p.held for p in list(_plans()) if p is not self)

    def working(self):
        """Bytes to leave for what runs while a trip does (its temporaries, the adjoints, the
        bookkeeping): estimated from the measured sizes, since tracemalloc sees them too."""
        return WORKING + 4 * (self.state_size or 0) + 4 * (self.tape_size or 0)

    def _too_small(self, need, what):
        others = int(self.budget - self.available())
        enough = int(need + self.working()) + others
        held = f", other checkpointed loops alive hold {others}" if others else ""
        return (f"memory_budget={self.budget} bytes is too small for the checkpointed loop `{self.where}`: "
                f"{what} takes {int(need)} bytes, and running a trip about {int(self.working())} more{held}; "
                f"give memory_budget={enough} at least")

    def _keep(self, k, state):
        if k in self.snaps:
            return
        size = size_of(state) + 64         # and its entry in self.snaps
        self.snaps[k] = (state, size)
        self.held += size
        self.state_size = max(self.state_size or 0, size)
        self.peak = max(self.peak, self.held)

    def _drop(self, k):
        state, size = self.snaps.pop(k)
        self.held -= size

    def keep(self, k, state):
        """The state at trip ``k`` reached by an ``advance``."""
        self._keep(k, state)

    def taped(self, tape, start, stop):
        """Measure what trips ``start..stop-1`` saved (the largest per trip counts).

        Sizing every item costs about as much as a trip, so a tape is measured the first few
        times, whenever its trips save more items than before, and every 16th time."""
        trips = max(stop - start, 1)
        items = len(tape) / trips
        self.measured += 1
        if self.measured > 3 and items <= self.items and self.measured % 16:
            return
        self.items = max(self.items, items)
        size = size_of(tape)
        self.peak = max(self.peak, self.held + size)
        if self.measured == 1 or size / trips > (self.tape_size or 0):
            self.tape_size = size / trips if self.measured == 1 else max(self.tape_size, size / trips)
            _LEARNED.setdefault(self.code, {})[self.where] = (self.first_size, self.tape_size)

    # --- the adjoint sweep ----------------------------------------------------------------------
    def reversal(self, repeat=False):
        """Actions ``(start, stop, record, state)`` for the adjoint sweep, last trips first:
        ``record`` true for a reverse (record then adjoint), false for an advance.

        With ``repeat`` the primal's snapshots stay, so a pullback can run again (``vjp``),
        unless memory ran short and some were dropped: then a second reversal is refused."""
        if self.spent:
            raise ValueError(f"the checkpointed loop `{self.where}` was reversed once already and dropped "
                             "snapshots to stay within memory_budget: call vjp again for another pullback, "
                             "or give a larger budget")
        primal = sorted(self.snaps)
        try:
            end = self.trips
            for a in reversed(primal):
                if a in self.snaps:          # (thinned out when memory ran short)
                    yield from self._segment(a, end)
                    end = a
        finally:
            for t in [t for t in self.snaps if t not in primal or not repeat]:
                self._drop(t)

    def _segment(self, a, b):
        """Reverse trips a..b-1; the snapshot at a is held."""
        if b <= a:
            return
        if self.fixed is not None:          # the override: reverse each stretch in one piece
            yield from self._record(a, b)
            return
        if self.measured == 0:              # measure one trip's tape on the last trip first
            if b - a > 1:
                yield (a, b - 1, False, self.snaps[a][0])
                yield from self._record(b - 1, b)
                self._drop(b - 1)
                b -= 1
            else:
                yield from self._record(a, b)
                b = a
            need = int(3 * self.state_size + self.tape_size)
            if need + self.working() > self.budget:
                raise ValueError(self._too_small(need, "one trip's saved values with three snapshots of "
                                                 "the loop's state"))
            if b <= a:
                return
        plan = self._plan(a, b)
        chunk, slots = plan

        def trip(step):
            return min(a + step * chunk, b)

        steps = -(-(b - a) // chunk)
        for action in revolve(steps, slots):
            if action[0] == "advance":
                yield (trip(action[1]), trip(action[2]), False, self.snaps[trip(action[1])][0])
            elif action[0] == "reverse":
                yield from self._record(trip(action[1]), trip(action[1] + 1))
            elif action[1] > 0:             # the segment's own snapshot goes with the segment
                self._drop(trip(action[1]))

    def _record(self, a, b):
        """A reverse action; loops started while it records know they are nested."""
        _live.recording = getattr(_live, "recording", 0) + 1
        try:
            yield (a, b, True, self.snaps[a][0])
        finally:
            _live.recording -= 1

    def _plan(self, a, b):
        """(chunk, slots) for trips a..b-1 in the memory left; thins earlier snapshots if needed."""
        while True:
            free = self.available() - self.held - self.working()
            plan = choose_chunks(b - a, free, self.state_size, self.tape_size)
            if plan is not None:
                return plan
            earlier = sorted(t for t in self.snaps if t < a)
            if len(earlier) <= 1:
                need = int(self.held + self.state_size + self.tape_size)
                raise ValueError(self._too_small(need, "reversing it with one snapshot slot"))
            self.spent = True
            for t in earlier[1::2]:         # merge earlier stretches: more recomputation, less memory
                self._drop(t)
