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

"""How many host failures a segment tolerates, its spare room, and the
host whose failure hurts most.

A segment tolerates k failures when the servers of every set of at most k
failed hosts fit on the rest by the packing rule. Checking every set is
exponential, so three steps, each exact where it answers:

1. A bound that holds for any packing that places a server wherever it
   fits. Let M be, per resource class, the largest amount one server of
   the segment uses, and slots(h) = min over classes of
   floor(free(h) / M) (and of the number of servers N) for a target host
   h, 0 for other hosts. A target with s slots takes at least s servers
   before refusing one, whatever their sizes; so the servers of a failed
   set F fit when
   sum(slots(h), h not in F) >= servers(F), i.e. when
   sum(servers(h) + slots(h), h in F) <= total slots. The k hosts with
   the largest servers(h) + slots(h) are the worst set of size k: every
   size up to the largest k that passes is proven.
2. Above that, every set of the next sizes is checked (with the bound
   first, M taken over that set's servers; the packing when the bound
   cannot tell), as long as the sets checked stay within ``budget``. The
   first failing set gives the exact answer.
3. Past the budget, candidate sets (the k hosts with the most servers
   plus slots, the most servers, the most room) are packed for each
   size: the first failing one bounds the answer from above. When it is
   of the first size not proven, the answer is exact; otherwise the
   answer is the proven lower bound, reported as not exact.
"""

import itertools
import math
import typing

from masakari.capacity import packing

# Sets of failed hosts examined by step 2 at most.
BUDGET = 3000


class Tolerance(typing.NamedTuple):
    """Failures tolerated, as far as it is proven."""

    #: Every set of this many failed hosts (or fewer) fits.
    count: int
    #: Whether count is the answer (else: at least count).
    exact: bool
    #: A failing set of the fewest hosts found (host names), or ().
    worst: tuple = ()


def _largest_units(servers):
    largest = {}
    for server in servers:
        for resource_class, amount in server.resources.items():
            if amount > largest.get(resource_class, 0):
                largest[resource_class] = amount
    return largest


def _slots(host, largest, servers):
    """How many servers no larger than ``largest`` the host surely takes
    (at most ``servers``: more are never needed).
    """
    free = host.free()
    return min([servers] + [
        free.get(resource_class, 0) // amount
        if host.max_unit.get(resource_class, amount) >= amount else 0
        for resource_class, amount in largest.items()])


def _proven_by_bound(segment, failed, servers):
    count = len(servers)
    largest = _largest_units(servers)
    room = 0
    for host in segment.targets(failed):
        if room >= count:
            break
        room += _slots(host, largest, count)
    return room >= count


def fits(segment, failed):
    """Whether the servers of the ``failed`` hosts all find room."""
    return not packing.plan(segment.servers_of(failed),
                            segment.targets(failed)).unplaced()


class _Search:
    """One computation of failures_tolerated."""

    def __init__(self, segment, budget):
        self.segment = segment
        self.budget = budget
        self.hosts = [host.name for host in segment.failing()]
        servers = segment.servers_of(self.hosts)
        largest = _largest_units(servers)
        targets = {host.name for host in segment.targets()}
        self.slots = {name: (_slots(segment.hosts[name], largest,
                                    len(servers))
                             if name in targets else 0)
                      for name in self.hosts}
        self.score = {name: len(segment.hosts[name].servers or ()) +
                      self.slots[name] for name in self.hosts}

    def proven_size(self):
        """Step 1: the largest size the bound proves."""
        total = sum(self.slots.values())
        proven, taken = 0, 0
        for score in sorted(self.score.values(), reverse=True):
            taken += score
            if taken > total:
                break
            proven += 1
        return proven

    def failing_set(self, size):
        """Step 2 for one size: a failing set, or None."""
        total = sum(self.slots.values())
        for failed in itertools.combinations(self.hosts, size):
            if sum(self.score[name] for name in failed) <= total:
                continue
            if _proven_by_bound(self.segment, failed,
                                self.segment.servers_of(failed)):
                continue
            if not fits(self.segment, failed):
                return failed
        return None

    def candidate(self, size):
        """Step 3 for one size: a failing candidate set, or None."""
        hosts = self.segment.hosts
        for key in (self.score.get,
                    lambda name: len(hosts[name].servers or ()),
                    lambda name: self.slots[name]):
            failed = tuple(sorted(self.hosts, key=key, reverse=True)[:size])
            if not fits(self.segment, failed):
                return failed
        return None

    def run(self):
        size = self.proven_size() + 1
        examined = 0
        while size <= len(self.hosts):
            sets = math.comb(len(self.hosts), size)
            if examined + sets > self.budget:
                break
            examined += sets
            failed = self.failing_set(size)
            if failed is not None:
                return Tolerance(size - 1, True, failed)
            size += 1
        else:
            return Tolerance(len(self.hosts), True)
        proven = size - 1
        for larger in range(size, len(self.hosts) + 1):
            failed = self.candidate(larger)
            if failed is not None:
                return Tolerance(proven, larger == size, failed)
        return Tolerance(proven, False)


def failures_tolerated(segment, budget=BUDGET):
    """The Tolerance of a segment whose hosts' servers were all read."""
    return _Search(segment, budget).run()


def worst_host(segment):
    """The host whose failure leaves the most servers without room, and
    those servers: ``(name, [Server])``; ``(None, [])`` when every single
    failure fits.
    """
    worst, left = None, []
    for host in segment.failing():
        unplaced = packing.plan(host.servers or (),
                                segment.targets((host.name,))).unplaced()
        if len(unplaced) > len(left):
            worst, left = host.name, unplaced
    return worst, left


def spare(segment):
    """Resource class -> room left on the hosts the recovery method
    fills, with no host failed.
    """
    room = {}
    for host in segment.targets():
        for resource_class, amount in host.free().items():
            room[resource_class] = room.get(resource_class, 0) + amount
    return room
