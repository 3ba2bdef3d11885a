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

"""The placement-aware evacuation of a failed host's instances (opt-in,
[host_failure]/placement_aware).

EvacuateInstancesTask hands its moves to PlannedRecovery. They are planned
by the capacity model (``masakari.capacity``) onto the hosts the running
workflow fills: the segment's enabled hosts (auto) or the attempt's
reserved host. The planned moves go, highest restart priority first,
through the task's own evacuation pool, each asked of Nova with its
planned host as target (checked by Nova's scheduler, never forced). An
evacuation Nova fails makes the plan stale: the next one to start plans
again, from fresh reads, the moves not started yet, filling the hosts
that refused one last; and the failed instance, if it is still on the
failed host and was active or in error, is planned again away from the
hosts that refused it (at most MAX_HOSTS per instance).

When the capacity cannot be read at the start (Placement unreachable, no
endpoint), the task evacuates as without the option, Nova's scheduler
picking; a later read that fails keeps the plan it has.

Instances without room are never asked of Nova. On a reserved host that
is not the workflow's last chance (another reserved host of the segment
is still free) they stay ``pending`` for the next attempt, and a
reserved host the plan puts nothing on is not taken; otherwise their
vmoves end ``ignored``, with the reason. Either way the task then fails,
naming them: a priority recovery method goes on with its other workflow,
as for any failure.
"""

import contextlib
import threading

from oslo_log import log as logging
from oslo_utils import timeutils

from masakari.capacity import packing
from masakari.capacity import reader
from masakari.compute import nova
from masakari import exception
from masakari import objects
from masakari.objects import fields

LOG = logging.getLogger(__name__)

Status = fields.VMoveStatus
# Hosts one instance is planned on at most, in one execution.
MAX_HOSTS = 3
# vm_state before a failed evacuation -> the state to reset it to before
# asking again (None: as Nova left it); other states are not retried.
RETRIED_STATES = {'active': 'active', 'error': None}
NO_ROOM = ('No room for this instance in the failover segment '
           '(placement_aware)')
# The planned target of an instance the plan has no room for (None is
# "Nova's scheduler picks", for a move whose instance left the host).
WITHOUT_ROOM = object()


class PlannedRecovery:
    """One execution of EvacuateInstancesTask with placement_aware.

    :param task: the EvacuateInstancesTask (its progress, evacuation
        pool, reserved host taking).
    :param reserved_host: the attempt's reserved host (None: auto).
    """

    def __init__(self, task, host_name, reserved_host=None):
        self.task = task
        self.context = task.context
        self.host_name = host_name
        self.reserved_host = reserved_host
        self.segment = objects.Host.get_by_name(
            self.context, host_name).failover_segment
        # NOTE: the last chance of this workflow unless another reserved
        # host is still free to try.
        self.last_chance = reserved_host is None or not [
            name for name in reader.reserved_hosts(self.context,
                                                   self.segment.uuid)
            if name != reserved_host]
        self.lock = threading.Lock()
        self.taken = False
        self.stale = False
        # instance uuid -> hosts that refused it; -> its planned target;
        # -> the model's Server as first read.
        self.refused = {}
        self.targets = {}
        self.servers = {}
        # move uuid -> the target it was asked of Nova with.
        self.started = {}
        # The moves of the current round, the latest move of each
        # instance, the moves without room.
        self.round = []
        self.latest = {}
        self.without_room = []

    # --- the plan -----------------------------------------------------------

    def _read(self):
        model = reader.read_segment(self.context, self.segment,
                                    servers_of={self.host_name})
        self._claim_in_flight(model)
        return model

    def _claim_in_flight(self, model):
        """Count the started evacuations Placement does not show yet on
        their target (the scheduler's claim may lag the request).
        """
        for move in self.round:
            host = model.hosts.get(self.started.get(move.uuid))
            if (host is None or move.end_time is not None or
                    move.instance_uuid in host.allocations):
                continue
            server = self.servers[move.instance_uuid]
            for resource_class, amount in server.resources.items():
                host.used[resource_class] = (
                    host.used.get(resource_class, 0) + amount)

    def _hosts(self, model):
        """The hosts to fill, in order; a host that refused an instance
        comes last (a scheduler filter the plan cannot see may refuse
        the others too).
        """
        if self.reserved_host is None:
            hosts = model.auto_targets(failed=(self.host_name,))
        else:
            hosts = [host for host in model.reserved_targets()
                     if host.name == self.reserved_host]
        refusing = set().union(*self.refused.values())
        return sorted(hosts, key=lambda host: host.name in refusing)

    def _plan(self, moves, model):
        """Plan ``moves`` on ``model``; returns the moves with a target,
        in plan order, and those without room.
        """
        on_host = {server.id: server
                   for server in model.hosts[self.host_name].servers}
        for server in on_host.values():
            self.servers.setdefault(server.id, server)
        by_instance = {move.instance_uuid: move for move in moves}
        plan = packing.plan(
            [on_host[uuid] for uuid in by_instance if uuid in on_host],
            self._hosts(model), self.refused)
        for uuid in by_instance:
            self.targets[uuid] = None
        for server, target in plan.placements:
            self.targets[server.id] = (WITHOUT_ROOM if target is None
                                       else target)
        return ([by_instance[server.id] for server, target
                 in plan.placements if target is not None],
                [by_instance[server.id] for server in plan.unplaced()])

    # --- one round of evacuations --------------------------------------------

    def _evacuate_one(self, move):
        with self.lock:
            if self.stale:
                self.stale = False
                self._replan_waiting()
            target = self.targets[move.instance_uuid]
            if target is WITHOUT_ROOM:
                self.without_room.append(move)
                return
            self.started[move.uuid] = target
        self.task.evacuate_move(move, target)
        if move.status == Status.FAILED and target is not None:
            with self.lock:
                self.refused.setdefault(move.instance_uuid,
                                        set()).add(target)
                self.stale = True

    def _replan_waiting(self):
        try:
            model = self._read()
        except exception.MasakariException as error:
            # NOTE: the plan made from the last reads stays.
            LOG.warning('Failover capacity not read again, the plan stays: '
                        '%s', error)
            return
        self._plan([waiting for waiting in self.round
                    if waiting.uuid not in self.started], model)

    def _round(self, moves, stack, model):
        planned, left = self._plan(moves, model)
        if planned:
            self.task.update_details(
                "Planned targets of the instances of host '%(host)s': "
                "%(plan)s" % {'host': self.host_name, 'plan': ', '.join(
                    "'%s' -> '%s'" % (move.instance_uuid,
                                      self.targets[move.instance_uuid])
                    for move in planned)}, 0.4)
            if self.reserved_host is not None and not self.taken:
                stack.enter_context(self.task.taking(self.host_name,
                                                     self.reserved_host))
                self.taken = True
        planned_ids = {move.uuid for move in planned + left}
        self.round = planned + [move for move in moves
                                if move.uuid not in planned_ids]
        self.without_room.extend(left)
        self.task._evacuate(self.round, self._evacuate_one)
        for move in self.round:
            self.latest[move.instance_uuid] = move
        retries = self._retries()
        return retries, self._read() if retries else None

    def _retries(self):
        """New moves for the instances Nova refused that may be planned
        again; with the moves without room they make the next round.
        """
        retries = []
        for move in self.round:
            target = self.started.get(move.uuid)
            if move.status != Status.FAILED or target is None:
                continue
            self.task.update_details(
                "Evacuation of instance '%(uuid)s' to host '%(target)s' "
                "failed" % {'uuid': move.instance_uuid, 'target': target},
                0.5)
            server = self.servers[move.instance_uuid]
            if (server.vm_state in RETRIED_STATES and
                    len(self.refused[move.instance_uuid]) < MAX_HOSTS and
                    self._back_on_failed_host(move, server)):
                retries.append(self._new_move(move))
        if not retries:
            return []
        waiting, self.without_room = self.without_room, []
        return retries + waiting

    def _back_on_failed_host(self, move, server):
        """Whether the instance is still on the failed host; if so, its
        state is reset to the one it had before the failed evacuation.
        """
        novaclient = self.task.novaclient
        current = novaclient.get_server(self.context, move.instance_uuid)
        if getattr(current, nova.HYPERVISOR, None) != self.host_name:
            return False
        reset_to = RETRIED_STATES[server.vm_state]
        if reset_to is not None:
            novaclient.reset_instance_state(self.context, move.instance_uuid,
                                            reset_to)
        return True

    def _new_move(self, move):
        retry = objects.VMove(
            context=self.context, notification_uuid=move.notification_uuid,
            instance_uuid=move.instance_uuid, instance_name=move.instance_name,
            source_host=move.source_host, status=Status.PENDING,
            type=fields.VMoveType.EVACUATION)
        retry.create()
        return retry

    # --- the whole execution -------------------------------------------------

    def run(self, moves):
        """Evacuate ``moves`` by the plan, round after round.

        :returns: False, having done nothing, when the capacity cannot be
            read (the task then evacuates as without placement_aware).
        """
        try:
            model = self._read()
        except exception.MasakariException as error:
            message = ("Failover capacity not read (%s): Nova's scheduler "
                       "picks the targets" % error)
            LOG.warning(message)
            self.task.update_details(message, 0.1)
            return False
        with contextlib.ExitStack() as stack:
            while moves:
                moves, model = self._round(moves, stack, model)
        if self.last_chance:
            for move in self.without_room:
                move.update({'status': Status.IGNORED, 'message': NO_ROOM,
                             'end_time': timeutils.utcnow()})
                move.save()
        return True

    def final_moves(self):
        """The last move of each instance that was asked of Nova."""
        without_room = {move.uuid for move in self.without_room}
        return [move for move in self.latest.values()
                if move.uuid not in without_room]

    def no_room_message(self):
        """The message naming the instances without room, or None."""
        if not self.without_room:
            return None
        names = {'count': len(self.without_room), 'host': self.host_name,
                 'reserved': self.reserved_host, 'uuids': ','.join(
                     move.instance_uuid for move in self.without_room)}
        if self.reserved_host is None:
            message = ("No room in the failover segment for %(count)d "
                       "instances of host '%(host)s': '%(uuids)s'" % names)
        else:
            message = ("No room on reserved host '%(reserved)s' for "
                       "%(count)d instances of host '%(host)s': "
                       "'%(uuids)s'" % names)
        LOG.warning(message)
        return message
