"""When a checkpointed loop keeps a snapshot and what its adjoint recomputes.

A gradient with ``memory_budget`` does not keep every trip's values for the adjoint.  The
primal sweep keeps only snapshots of the loop-carried state (``Checkpoints.take``), and the
adjoint sweep (``Checkpoints.reversal``) asks for two kinds of action, last trips first:

* ``advance``: restore the snapshot at trip ``start``, run trips ``start..stop-1`` without
  saving anything, keep a snapshot at ``stop``;
* ``reverse``: restore the snapshot at ``start``, run trips ``start..stop-1`` saving their
  values on a tape (the ordinary recording body), then run their adjoint, last trip first.

For a ``for`` loop (trip count known when it starts) the whole loop follows the binomial
schedule of Griewank's *revolve* over chunks of trips: the chunk length and the number of
snapshot slots that fit the budget and recompute the fewest trips (``plan_loop``); the primal
keeps the snapshots revolve's first advances would (``first_advances``), and the adjoint
carries out the rest of the schedule.  A ``while`` loop keeps evenly spaced snapshots in half
of the budget, thinned online (their spacing doubles) as it runs; each stretch between two is
then reversed with revolve in the memory left.

Sizes are known only at run time, so they are measured there: the snapshot at the first trip
gives the size of the state; the first trip of a loop's first run is recorded to measure one
trip's tape (a later run of the same generated code reuses that), and the last trip is
recorded on its own first in the adjoint (trips that grow are largest there).

The schedules themselves (revolve, the choice of chunks and slots) are in ``revolve``.
"""

import itertools
import math
import re
import sys
import weakref

import numpy as np

from .revolve import SPACING, advances, best_split, choose_chunks, first_advances, plan_loop, revolve  # noqa: F401

__all__ = ["parse_budget", "advances", "best_split", "revolve", "first_advances", "choose_chunks",
           "plan_loop", "size_of", "Checkpoints"]

WORKING = 8192    # bytes of bookkeeping a checkpointed loop needs whatever it keeps
OUTSIDE = 0.2     # the part of the budget left to what the function keeps outside its checkpointed
                  # loops (their inputs and results, the adjoints accumulated across them)
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
_live = []        # [threading.local()]: made when a checkpointed loop first runs (import stays light)
_serial = itertools.count()
_LEARNED = weakref.WeakKeyDictionary()    # generated code -> {loop: (state bytes, bytes one trip saved)}


def _plans():
    if not _live:
        import threading
        _live.append(threading.local())
    local = _live[0]
    if not hasattr(local, "plans"):
        local.plans = weakref.WeakSet()
    return local.plans


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
        self.due = 0              # the next trip whose state the primal keeps
        self.stride = SPACING     # while loops: the spacing of the primal's snapshots
        self.chain = None         # for loops: the trips revolve keeps snapshots at, last first
        self.chunk = None         # for loops: revolve's chunk of trips
        self.capacity = 1         # the most snapshots the primal keeps
        self.share = math.inf     # the most bytes the primal's snapshots take
        self.snaps = {}           # trip -> (state tuple, its size)
        self.held = 0             # bytes in snapshots
        self.taping = 0           # bytes of the tape whose adjoint runs now (nested loops count it)
        self.recording = 0        # a trip of this loop is being recorded: loops started now are nested
        self.state_size = None
        self.tape_size = None     # bytes one trip saves, the largest seen
        self.peak = 0             # the most bytes held at once (snapshots + one tape), for tests
        self.spent = False        # primal snapshots dropped: a second reversal would miss them
        self.measured = 0         # tapes measured
        self.last_done = False    # the last trip was reversed on its own (to measure it)
        self.code = None          # the generated function's code (what it learned is kept there)
        self.items = 0            # the most tape items per trip seen
        self.parent = None        # the loop whose recorded trip runs this one
        self.inner = 0            # bytes the loops nested in a trip of this one used at most
        self.current = 0          # the first trip of the stretch being reversed
        self.reversing = False    # its adjoint has started
        self.serial = next(_serial)
        _plans().add(self)

    # --- the primal sweep ---------------------------------------------------------------------
    def take(self, state):
        """Called at the top of every trip with the loop-carried values: keeps them when a
        snapshot is due.  True asks the generated code to record this trip and hand its tape
        to ``sized`` (the first trip of a loop whose trips were never measured)."""
        k = self.trips
        self.trips = k + 1
        if k != self.due:
            return False
        if k == 0:
            return self._first(state)
        self._keep(k, state)
        self._next(k)
        return False

    def _first(self, state):
        """Keep the first snapshot; plan the others if the size of a trip's tape is known (from
        an earlier run of the same loop), else ask for the first trip to be recorded."""
        self.state_size = self.first_size = size_of(state)
        self.code = sys._getframe(2).f_code        # the generated function running this loop
        state_size, tape, inner = _LEARNED.get(self.code, {}).get(self.where, (None, None, 0))
        if state_size == self.state_size:              # (other shapes: measure again)
            self.tape_size, self.inner = tape, inner
        recording = [p for p in list(_plans()) if p.recording and p is not self]
        if self.fixed is not None:
            self.capacity = max(1, int(self.fixed))
            if self.known is not None:
                self.stride = max(SPACING, -(-self.known // self.capacity))
        elif recording:
            # a loop inside a trip being recorded: its snapshots would sit on the outer tape,
            # so it keeps only its start, and is reversed from there when the outer adjoint runs
            self.parent = max(recording, key=lambda p: p.serial)
            self.stride = math.inf
        else:
            while self.state_size > self.available() - self.working():
                if not self._squeeze():
                    raise ValueError(self._too_small(self.state_size, "one snapshot of the loop's state"))
        self._keep(0, state)
        if self.fixed is not None or self.stride == math.inf:
            self.due = self.stride
            return False
        if self.tape_size is None:
            self.recording += 1
            return True
        self._schedule()
        return False

    def sized(self, tape):
        """The tape of the first trip, recorded to measure it: now the snapshots are planned."""
        self.recording -= 1
        self.taped(tape, 0, 1)
        self.taping = 0
        self._schedule()

    def _schedule(self):
        """Where the primal keeps snapshots.  A for loop: revolve's first advances, for the
        chunk length and slots that recompute the fewest trips in the budget; a while loop:
        every ``stride`` trips in half of it, the spacing doubling when they would not fit."""
        avail = self.available() - self.working()
        if self.known is not None:
            plan = plan_loop(self.known, avail - self.held, self.state_size, self.tape_size)
            self.chain = []           # (None: too little memory, said by the adjoint)
            if plan is not None:
                self.chunk, self.slots = plan
                slots = self.slots
                steps = -(-self.known // self.chunk)
                self.chain = [step * self.chunk for step in reversed(first_advances(steps, slots))]
                self.share = avail - self.chunk * self.tape_size
            self.capacity = 1 + len(self.chain)
        else:
            self.share = avail // 2
            self.capacity = max(1, int(self.share // self.state_size))
        self._next(0)

    def _next(self, k):
        """After keeping the snapshot at trip k: thin out if over the share, set the next due."""
        if self.chain is not None:
            if self.held > self.share:            # the state grew: keep no more, drop every other
                self.chain = []
                for t in sorted(self.snaps)[1::2]:
                    self._drop(t)
            self.due = self.chain.pop() if self.chain else math.inf
            return
        while len(self.snaps) > 1 and (len(self.snaps) > self.capacity or self.held > self.share):
            self.stride *= 2          # thin out: keep every other snapshot (a state may grow)
            for t in [t for t in self.snaps if t % self.stride]:
                self._drop(t)
        self.due = (k // self.stride + 1) * self.stride

    def available(self):
        """The budget less what the other live checkpointed loops hold (snapshots, and the tape
        of a loop whose adjoint runs the one asking: the loops nested in its trips are on it)."""
        if self.budget is None:
            return math.inf
        return self.budget * (1 - OUTSIDE) - sum(p.taping + (0 if p.parent and p.parent.taping else p.held)
                                                 for p in list(_plans()) if p is not self)

    def working(self):
        """Bytes to leave for what runs while a trip does (its temporaries, the adjoints, the
        bookkeeping): estimated from the measured sizes, since tracemalloc sees them too."""
        return WORKING + 4 * (self.state_size or 0) + 4 * (self.tape_size or 0) + self.inner

    def _too_small(self, need, what):
        others = int(self.budget * (1 - OUTSIDE) - self.available())
        enough = math.ceil((need + self.working() + others) / (1 - OUTSIDE))
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
            self.taping = int(trips * self.tape_size)
            return
        self.items = max(self.items, items)
        size = self.taping = size_of(tape)
        self.peak = max(self.peak, self.held + size)
        if self.measured == 1 or size / trips > (self.tape_size or 0):
            self.tape_size = size / trips if self.measured == 1 else max(self.tape_size, size / trips)
            self._learn()

    def _learn(self):
        _LEARNED.setdefault(self.code, {})[self.where] = (self.first_size, self.tape_size, self.inner)

    # --- the adjoint sweep ----------------------------------------------------------------------
    def reversal(self, repeat=False):
        """Actions ``(start, stop, record, state)`` for the adjoint sweep, last trips first:
        ``record`` true for a reverse (record then adjoint), false for an advance.

        With ``repeat`` the primal's snapshots stay, so a pullback can run again (``vjp``),
        unless memory ran short and some were dropped: then a second reversal is refused."""
        if self.spent and self.reversing:
            raise ValueError(f"the checkpointed loop `{self.where}` was reversed once already and dropped "
                             "snapshots to stay within memory_budget: call vjp again for another pullback, "
                             "or give a larger budget")
        primal = sorted(self.snaps)
        self.last_done = False
        self.reversing = True
        try:
            end = self.trips
            for a in reversed(primal):
                if a in self.snaps:          # (thinned out when memory ran short)
                    yield from self._segment(a, end)
                    end = a
                    if not repeat and a:
                        self._drop(a)        # its slot is free for the stretches before it
        finally:
            for t in [t for t in self.snaps if t not in primal or not repeat]:
                self._drop(t)
            # the outer loop leaves room for one trip and one slot of this one (and the running
            # trip's temporaries; the bookkeeping reserve, WORKING, it has already)
            least = self.working() - WORKING + 2 * (self.state_size or 0) + (self.tape_size or 0)
            if self.parent is not None and least > self.parent.inner:
                self.parent.inner = least
                self.parent._learn()

    def _segment(self, a, b):
        """Reverse trips a..b-1; the snapshot at a is held."""
        if b <= a:
            return
        self.current = a
        if self.fixed is not None:          # the override: reverse each stretch in one piece
            yield from self._record(a, b)
            return
        if not self.last_done:              # the last trip on its own first: growing trips peak there
            self.last_done = True
            if b - a > 1:
                yield (a, b - 1, False, self.snaps[a][0])
                yield from self._record(b - 1, b)
                self._drop(b - 1)
                b -= 1
            else:
                yield from self._record(a, b)
                b = a
            need = int(3 * self.state_size + self.tape_size)
            if need + self.working() > self.budget * (1 - OUTSIDE):
                raise ValueError(self._too_small(need, "one trip's saved values with three snapshots of "
                                                 "the loop's state"))
            if b <= a:
                return
        chunk, slots = self._plan(a, b)

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
        self.recording += 1
        try:
            yield (a, b, True, self.snaps[a][0])
        finally:
            self.recording -= 1
            self.taping = 0

    def _plan(self, a, b):
        """(chunk, slots) for trips a..b-1 in the memory left; thins earlier snapshots if needed."""
        while True:
            free = self.available() - self.held - self.working()
            plan = choose_chunks(b - a, free, self.state_size, self.tape_size, prefer=self.chunk)
            if plan is not None:
                return plan
            if not self._thin(a) and not self._squeeze():
                need = int(self.held + self.state_size + self.tape_size)
                raise ValueError(self._too_small(need, "reversing it with one snapshot slot"))

    def _squeeze(self):
        """Make room by thinning the snapshots of the other live loops (an outer loop, or loops
        that ran before this one and wait for their adjoint); False if none can give any."""
        return any(p._thin(p.current if p.reversing else math.inf)
                   for p in sorted(_plans(), key=lambda p: p.serial) if p is not self)

    def _thin(self, a):
        """Drop every other snapshot before trip ``a`` (merging earlier stretches: more
        recomputation, less memory); False if there is none to drop."""
        earlier = sorted(t for t in self.snaps if t < a)
        if len(earlier) <= 1:
            return False
        self.spent = True
        for t in earlier[1::2]:
            self._drop(t)
        return True
