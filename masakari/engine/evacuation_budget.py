# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.

"""One evacuation budget for the whole engine (opt-in).

With [host_failure]/max_concurrent_evacuations set, every host recovery
of this engine draws its evacuation slots from one budget instead of
running host_failure_recovery_threads evacuations of its own:

- Fair: a free slot goes to the waiting host that has had the fewest
  slots so far, the hosts with as many served round robin (a host that
  got a slot waits behind the others for its next one). A host that joins
  while others recover counts as having had one window fewer than the
  least served of them: the hosts that fail together but reach their
  evacuations a moment apart (fencing, listing the servers) catch up with
  the first one, which took the whole window, and hosts of equal size
  finish together; one joining late gets at most a window ahead. No host
  starves. Inside a host, slots go to its moves in the order the recovery
  asks for them: the order of the capacity plan (highest restart priority
  first) where there is one.
- Adaptive (AIMD): the number of slots in use at once, the window, starts
  at the budget. It halves when Nova answers 429 or 503 to an evacuation,
  or when an evacuation takes more than SLOW_FACTOR times its recent
  baseline (the quickest of the last BASELINE_SAMPLES ones): Nova is
  queueing. It halves at most once per baseline (FIRST_HOLD seconds
  before there is one), so that one burst of answers from the same window
  counts once, and never below one slot. Each evacuation that ends in
  time grows it by one, back up to the budget. An evacuation Nova refused
  gives its slot back and is asked again, first of its host, once it has
  a slot again (and RETRY_PAUSE has passed): the window, not a timer per
  request, paces the retries.
- Shared between engines: with a coordination backend and the takeover
  watch on, the engines of the group ``masakari-engines`` (see
  masakari/engine/membership.py) each take an equal share of the budget,
  rounded down, at least one: the watch tells the budget how many engines
  the group has at each round. Otherwise each engine takes the whole
  budget (set it to the engine's share).

Unset (the default), nothing here is used: each host recovery runs
host_failure_recovery_threads evacuations at once, as Masakari 22.0.0.
"""

import collections
import contextlib
import threading
import time

from keystoneauth1 import exceptions as ks_exceptions
from novaclient import exceptions as nova_exceptions

import masakari.conf

CONF = masakari.conf.CONF

# An evacuation this many times slower than the baseline means Nova queues.
SLOW_FACTOR = 3.0
# How many recent evacuation times the baseline is the quickest of.
BASELINE_SAMPLES = 20
# Evacuation times needed before one can be judged slow.
MIN_SAMPLES = 5
# Seconds between two halvings before there is a baseline.
FIRST_HOLD = 1.0
# Seconds at least between two requests of an evacuation Nova refused as
# overloaded.
RETRY_PAUSE = 0.5
OVERLOAD_CODES = (429, 503)


class Window:
    """The AIMD window of evacuations in flight (see the module docstring).

    :param limit: the largest window (the budget, or this engine's share).
    :param clock: seconds, monotonic (a fake one in tests).
    """

    def __init__(self, limit, clock=time.monotonic):
        self.limit = limit
        self.size = float(limit)
        self.clock = clock
        self.durations = collections.deque(maxlen=BASELINE_SAMPLES)
        self.last_halved = None

    def slots(self):
        """How many evacuations may run at once now."""
        return max(1, int(self.size))

    def baseline(self):
        """The quickest recent evacuation, None before MIN_SAMPLES."""
        if len(self.durations) < MIN_SAMPLES:
            return None
        return min(self.durations)

    def ended(self, seconds):
        """An evacuation ended after ``seconds``: grow, or halve if slow."""
        baseline = self.baseline()
        self.durations.append(seconds)
        if baseline is not None and seconds > SLOW_FACTOR * baseline:
            self.overloaded()
        else:
            self.size = min(float(self.limit), self.size + 1)

    def overloaded(self):
        """Nova is overloaded: halve, unless halved within one baseline."""
        now = self.clock()
        hold = self.baseline() or FIRST_HOLD
        if self.last_halved is not None and now - self.last_halved < hold:
            return
        self.last_halved = now
        self.size = max(1.0, self.size / 2)

    def resize(self, limit):
        """A new largest window (the number of engines changed)."""
        self.limit = limit
        self.size = min(self.size, float(limit))


class Slot:
    """One evacuation's turn; ``started`` is when it was granted."""

    def __init__(self, host):
        self.host = host
        self.started = None
        self.released = False


class EvacuationBudget:
    """Slots for evacuations, shared fairly by failed host.

    ``acquire`` blocks; ``enter``/``granted`` are its two halves, without
    waiting (for tests driving the budget step by step).

    :param budget: [host_failure]/max_concurrent_evacuations.
    :param clock: seconds, monotonic.
    """

    def __init__(self, budget, clock=time.monotonic):
        self.budget = budget
        self.clock = clock
        self.window = Window(budget, clock)
        self.in_use = 0
        # host -> its slots waiting, in the order asked; among the hosts
        # served as much, the order they are served next.
        self._waiting = collections.OrderedDict()
        # The hosts with slots running or waiting: slots granted, slots
        # running.
        self._served = {}
        self._running = collections.Counter()
        self._changed = threading.Condition()

    def enter(self, host):
        """Ask for a slot for one of ``host``'s evacuations."""
        slot = Slot(host)
        with self._changed:
            if host not in self._served:
                self._served[host] = max(0, min(
                    self._served.values(), default=0) - self.window.slots())
            self._waiting.setdefault(host, collections.deque()).append(slot)
            self._grant()
        return slot

    def free(self):
        """How many slots a host asking now would have at once."""
        with self._changed:
            waiting = sum(len(slots) for slots in self._waiting.values())
            return max(0, self.window.slots() - self.in_use - waiting)

    def granted(self, slot):
        """Whether ``slot`` may run now."""
        return slot.started is not None

    def acquire(self, host):
        """Wait for a slot for one of ``host``'s evacuations."""
        slot = self.enter(host)
        self.wait(slot)
        return slot

    def release(self, slot, succeeded):
        """The slot's evacuation ended; the time of one that ``succeeded``
        adapts the window (a failure's says nothing of Nova's pace).
        A slot already released stays so.
        """
        with self._changed:
            if slot.released:
                return
            slot.released = True
            self.in_use -= 1
            self._running[slot.host] -= 1
            if not self._running[slot.host] and slot.host not in self._waiting:
                del self._running[slot.host]
                del self._served[slot.host]
            if succeeded:
                self.window.ended(self.clock() - slot.started)
            self._grant()

    def requeue(self, slot):
        """Nova answered 429 or 503 to the slot's evacuation: halve the
        window, give the slot back and put it first in its host's queue
        (``wait`` then waits for it again).
        """
        with self._changed:
            self.window.overloaded()
            self.in_use -= 1
            self._running[slot.host] -= 1
            # NOTE: a refused evacuation does not count as served: its
            # host would fall behind the others.
            self._served[slot.host] -= 1
            slot.started = None
            self._waiting.setdefault(
                slot.host, collections.deque()).appendleft(slot)
            self._grant()

    def wait(self, slot):
        """Wait until ``slot`` is granted."""
        with self._changed:
            self._changed.wait_for(lambda: self.granted(slot))

    def share(self, engines):
        """``engines`` engines share the budget (None: this one alone)."""
        limit = max(1, self.budget // engines) if engines else self.budget
        with self._changed:
            self.window.resize(limit)
            self._grant()

    def _grant(self):
        granted = False
        while self._waiting and self.in_use < self.window.slots():
            # NOTE: min() takes the first of the least served.
            host = min(self._waiting, key=self._served.__getitem__)
            slots = self._waiting.pop(host)
            slot = slots.popleft()
            if slots:
                # NOTE: behind the other hosts waiting: round robin.
                self._waiting[host] = slots
            slot.started = self.clock()
            self.in_use += 1
            self._served[host] += 1
            self._running[host] += 1
            granted = True
        if granted:
            self._changed.notify_all()


_lock = threading.Lock()
_current = None
# The budget and slot of the evacuation this thread runs, if any.
_held = threading.local()


def current():
    """The engine's budget, None when [host_failure]/
    max_concurrent_evacuations is unset.
    """
    global _current
    budget = CONF.host_failure.max_concurrent_evacuations
    with _lock:
        if budget is None:
            _current = None
        elif _current is None or _current.budget != budget:
            _current = EvacuationBudget(budget)
        return _current


def forget():
    """Drop the engine's budget: the next ``current()`` starts afresh
    (between the runs of a benchmark or tests in one process).
    """
    global _current
    with _lock:
        _current = None


def engines_in_group(count):
    """The watch read ``count`` engines in the group (None: no group)."""
    budget = current()
    if budget is not None:
        budget.share(count)


def is_overload(error):
    """Whether ``error`` (or what it was raised from) is Nova's answer 429
    or 503. NOTE: not a timeout or a lost connection (NovaUnreachable,
    whose code is 503 too): Nova may have accepted that request.
    """
    while error is not None:
        if isinstance(error, nova_exceptions.ClientException):
            code = error.code
        elif isinstance(error, ks_exceptions.HttpError):
            code = error.http_status
        else:
            code = None
        if code in OVERLOAD_CODES:
            return True
        error = error.__cause__
    return False


@contextlib.contextmanager
def holding(budget, slot):
    """This thread runs the evacuation of ``slot`` while in the block."""
    _held.slot = (budget, slot)
    try:
        yield
    finally:
        _held.slot = None


def evacuated():
    """The evacuation of this thread's slot ended at Nova (it is
    confirmed): give the slot back now. What the procedure does next
    (stopping the server again, unlocking it) occupies none of Nova's
    evacuation workers, and holding the slot through it would leave them
    idle.
    """
    held = getattr(_held, 'slot', None)
    if held is not None:
        budget, slot = held
        budget.release(slot, True)


def request(call):
    """Run ``call()``, Nova's evacuation request.

    In an evacuation holding a slot of the budget, a 429 or 503 answer
    halves the window and gives the slot back; the request is sent again
    once the slot comes back (first of its host's) and RETRY_PAUSE
    seconds have passed, for up to [DEFAULT]/wait_period_after_evacuation
    seconds. Without the budget, as Masakari 22.0.0, the answer fails the
    evacuation at once.
    """
    held = getattr(_held, 'slot', None)
    if held is None:
        return call()
    budget, slot = held
    deadline = time.monotonic() + CONF.wait_period_after_evacuation
    while True:
        try:
            return call()
        except Exception as error:
            if not is_overload(error) or time.monotonic() >= deadline:
                raise
        budget.requeue(slot)
        # NOTE: the pause keeps a window of one, or the other engines'
        # load, from asking an overloaded Nova again at once.
        time.sleep(RETRY_PAUSE)
        budget.wait(slot)
