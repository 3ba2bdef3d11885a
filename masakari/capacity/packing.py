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

"""The packing rule: where the servers of failed hosts go.

First fit by restart priority, then decreasing dominant share:

1. the servers are sorted by restart priority (highest first), then
   HA-enabled before the others, then by dominant share (largest
   first: the largest fraction, over their resource classes, of what
   the target hosts hold together), then by uuid;
2. each server in turn goes to the first target host, in the order the
   recovery method fills them (``Segment.targets``), where every class
   it uses fits: ``used + amount <= capacity`` and ``amount <=
   max_unit`` (Placement's rule); none: it has no room.

A server never takes room a higher one needed: when room runs out, the
servers left without are the lowest in that order.
"""

import typing

INFINITE = float('inf')


class Plan(typing.NamedTuple):
    """The outcome of packing: ``(server, target host name or None)``
    pairs, in packing order (None: no room).
    """

    placements: list

    def unplaced(self):
        """The servers without room, in packing order."""
        return [server for server, target in self.placements
                if target is None]

    def targets(self):
        """Server uuid -> target host name (None: no room)."""
        return {server.id: target for server, target in self.placements}


def totals(targets):
    """Resource class -> what the target hosts hold together."""
    summed = {}
    for host in targets:
        for resource_class, amount in host.capacity.items():
            summed[resource_class] = summed.get(resource_class, 0) + amount
    return summed


def dominant_share(server, summed):
    """The largest fraction of ``summed`` one of its classes takes."""
    share = 0.0
    for resource_class, amount in server.resources.items():
        if amount > 0:
            total = summed.get(resource_class, 0)
            share = max(share, amount / total if total else INFINITE)
    return share


def order(servers, targets):
    """The servers in packing order (step 1)."""
    summed = totals(targets)
    return sorted(servers, key=lambda server: (
        -server.priority, not server.ha_enabled,
        -dominant_share(server, summed), server.id))


def plan(servers, targets, refused=None):
    """Pack ``servers`` onto ``targets`` (Host objects, in fill order).

    :param refused: server uuid -> host names Nova refused for it: never
        its target again.
    :returns: a Plan. The hosts are not changed.
    """
    refused = refused or {}
    # NOTE: room as lists, one per target, so that the loop below (the
    # hot path of failures_tolerated) does dictionary reads only.
    rooms = [(host.name, host.free(), host.max_unit) for host in targets]
    placements = []
    for server in order(servers, targets):
        banned = refused.get(server.id, ())
        needs = [(resource_class, amount) for resource_class, amount
                 in server.resources.items() if amount > 0]
        target = None
        for name, free, max_unit in rooms:
            if name in banned:
                continue
            if all(free.get(resource_class, -1) >= amount and
                   max_unit.get(resource_class, amount) >= amount
                   for resource_class, amount in needs):
                for resource_class, amount in needs:
                    free[resource_class] -= amount
                target = name
                break
        placements.append((server, target))
    return Plan(placements)
