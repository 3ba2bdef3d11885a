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

"""Tasks of the host failure flow: disable the failed compute service,
choose the instances to evacuate, evacuate them.

Flow inputs (the store): ``host_name``, ``notification_uuid`` and, for the
reserved-host workflow, ``reserved_host_list``, from which the retry
controller provides one ``reserved_host`` per attempt.
"""

import contextlib
import functools
import threading
import time

from oslo_concurrency import lockutils
from oslo_log import log as logging

from masakari.capacity import selection
import masakari.conf
from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import evacuation
from masakari.engine.drivers.taskflow import placement_aware
from masakari.engine.drivers.taskflow import waiting
from masakari.engine import evacuation_budget
from masakari import exception
from masakari import objects
from masakari.objects import fields

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)


class DisableComputeServiceTask(base.MasakariTask):
    """Disable the failed host's nova-compute, then give Nova time to see
    the host down (Nova refuses to evacuate from a host it sees up).
    """

    def execute(self, host_name):
        self.update_details(
            "Disabling compute service on host: '%s'" % host_name)
        self.novaclient.enable_disable_service(
            self.context, host_name,
            reason=CONF.host_failure.service_disable_reason)
        self._wait_for_service_down(host_name)
        self.update_details(
            "Disabled compute service on host: '%s'" % host_name, 1.0)

    def _wait_for_service_down(self, host_name):
        wait = CONF.wait_period_after_service_update
        if not CONF.host_failure.poll_compute_service_down:
            LOG.info('Sleeping %(wait)s sec before starting recovery thread '
                     'until nova recognizes the node down.', {'wait': wait})
            time.sleep(wait)
            return
        try:
            waiting.poll(lambda: self.novaclient.is_service_down(
                self.context, host_name), wait, CONF.verify_interval)
        except waiting.Timeout:
            LOG.warning('Nova still reports the compute service of %(host)s '
                        'up after %(wait)s sec; recovering anyway.',
                        {'host': host_name, 'wait': wait})


class PrepareHAEnabledInstancesTask(base.MasakariTask):
    """List the failed host's servers and record one ``pending`` vmove per
    server to evacuate: HA-enabled ones, then (with
    ``evacuate_all_instances``) the others.
    """

    def execute(self, host_name, notification_uuid):
        self.update_details('Preparing instances for evacuation')
        servers = self.novaclient.get_servers(self.context, host_name)
        self.update_details(
            "Total instances running on failed host '%(host_name)s' is "
            "%(count)d" % {'host_name': host_name, 'count': len(servers)},
            0.3)

        chosen = selection.select(servers)
        for server in chosen.ignored:
            message = ("Ignoring recovery of HA_Enabled instance "
                       "'%s' as it is in 'error' state." % server.id)
            LOG.info(message)
            self.update_details(message, 0.4)

        self.update_details(
            "Total HA Enabled instances count: '%d'" % len(chosen.ha_enabled),
            0.6)
        selected = chosen.evacuated()
        if CONF.host_failure.evacuate_all_instances:
            self.update_details(
                "Total Non-HA Enabled instances count: '%d'"
                % len(chosen.others), 0.7)
            self.update_details(
                "All instances (HA Enabled/Non-HA Enabled) should be "
                "considered for evacuation. Total count is: '%d'"
                % len(selected), 0.8)

        if not selected:
            message = ("Skipped host '%s' recovery as no instances needs to "
                       "be evacuated" % host_name)
            self.update_details(message, 1.0)
            LOG.info(message)
            raise exception.SkipHostRecoveryException(message=message)

        self._record_pending_moves(selected, host_name, notification_uuid)
        self.update_details(
            "Instances to be evacuated are: '%s'"
            % ','.join(server.id for server in selected), 1.0)

    def _record_pending_moves(self, servers, host_name, notification_uuid):
        # NOTE: a pending move left by a failed attempt of this notification
        # (reserved-host retry, re-run) is reused: a second row would make
        # the evacuation task evacuate the same instance twice at once.
        waiting_already = {move.instance_uuid for move in
                           objects.VMoveList.get_all_vmoves(
                               self.context, notification_uuid,
                               status=fields.VMoveStatus.PENDING)}
        # NOTE: in one transaction: a host's moves were as many
        # transactions, between the server list and the first evacuation.
        objects.VMove.create_all(self.context, [
            objects.VMove(
                context=self.context, notification_uuid=notification_uuid,
                instance_uuid=server.id, instance_name=server.name,
                source_host=host_name, status=fields.VMoveStatus.PENDING,
                type=fields.VMoveType.EVACUATION)
            for server in servers if server.id not in waiting_already])


class EvacuateInstancesTask(base.MasakariTask):
    """Evacuate the instances of the notification's pending vmoves, in
    parallel, to the reserved host when one is given; with
    [host_failure]/placement_aware, by the plan of ``placement_aware``.

    :param update_host_method: ``(context, host_name)`` called before
        evacuating to a reserved host; it marks the host as no longer
        reserved (and refuses a host another recovery took).
    """

    def __init__(self, context, novaclient, **kwargs):
        super().__init__(context, novaclient, **kwargs)
        self.update_host_method = kwargs.get('update_host_method')

    def execute(self, host_name, notification_uuid, reserved_host=None):
        # NOTE: an ongoing move at the start is one an interrupted
        # execution left (an engine died, or its record could not be
        # written): it is resumed, not requested again.
        moves = list(objects.VMoveList.get_all_vmoves(
            self.context, notification_uuid,
            status=[fields.VMoveStatus.PENDING, fields.VMoveStatus.ONGOING]))
        self.update_details(
            "Start evacuation of instances from failed host "
            "'%(host_name)s', instance uuids are: '%(uuids)s'"
            % {'host_name': host_name,
               'uuids': ','.join(move.instance_uuid for move in moves)})
        if CONF.host_failure.placement_aware:
            recovery = placement_aware.PlannedRecovery(
                self, host_name, reserved_host)
            if recovery.run(moves):
                self._check_outcome(recovery.final_moves(), host_name,
                                    notification_uuid,
                                    recovery.no_room_message())
                return
        if reserved_host:
            with self.taking(host_name, reserved_host):
                self._evacuate(moves, functools.partial(
                    self.evacuate_move, target=reserved_host))
        else:
            self._evacuate(moves, self.evacuate_move)
        self._check_outcome(moves, host_name, notification_uuid)

    @contextlib.contextmanager
    def taking(self, host_name, reserved_host):
        """Hold the reserved host's lock, and take it, while in the block.

        :raises LockAlreadyAcquired: another recovery holds it.
        """
        try:
            with lockutils.lock('masakari-%s' % reserved_host,
                                blocking=False):
                self._prepare_reserved_host(host_name, reserved_host)
                yield
        except lockutils.AcquireLockFailedException:
            raise exception.LockAlreadyAcquired(resource=reserved_host)

    def _prepare_reserved_host(self, host_name, reserved_host):
        self.update_details(
            "Enabling reserved host: '%s'" % reserved_host, 0.1)
        if CONF.host_failure.add_reserved_host_to_aggregate:
            for aggregate in self.novaclient.get_aggregate_list(self.context):
                if host_name in aggregate.hosts:
                    self._add_to_aggregate(reserved_host, aggregate)
        self.novaclient.enable_disable_service(
            self.context, reserved_host, enable=True)
        try:
            self.update_host_method(self.context, reserved_host)
        except exception.LockAlreadyAcquired:
            if self.takeover is None:
                raise
            # NOTE: the engine this recovery was taken over from took the
            # host already; it stays taken, by this recovery.
            self.update_details("Reserved host '%s' was already taken by "
                                "this recovery" % reserved_host, 0.1)

    def _add_to_aggregate(self, reserved_host, aggregate):
        names = {'host': reserved_host, 'aggregate': aggregate.name}
        self.update_details('Add host %(host)s to aggregate %(aggregate)s'
                            % names, 0.2)
        try:
            self.novaclient.add_host_to_aggregate(
                self.context, reserved_host, aggregate)
        except exception.Conflict:
            message = ("Host '%(host)s' already has been added to "
                       "aggregate '%(aggregate)s'." % names)
            self.update_details(message, 1.0)
            LOG.info(message)
        else:
            self.update_details(
                'Added host %(host)s to aggregate %(aggregate)s' % names,
                0.3)

    def _evacuate(self, moves, evacuate_one):
        """Run ``evacuate_one(move)`` for each move, in the list's order.
        """
        # NOTE: a move is announced, then waits for a free slot: one of
        # host_failure_recovery_threads, or of the engine's evacuation
        # budget when one is set. The moves that have a slot at once are
        # announced in one progress write, which would otherwise delay
        # each start by the previous write.
        budget = evacuation_budget.current()
        if budget is None:
            slots = _HostSlots(CONF.host_failure_recovery_threads)
        else:
            slots = _BudgetSlots(budget)
        count = slots.at_once()
        if moves:
            self._announce(moves[:count])
        threads, lost = [], []
        for number, move in enumerate(moves):
            if number >= count:
                self._announce([move])
            slot = slots.acquire(move)
            if lost:
                # NOTE: another engine recovers the host now.
                slots.release(slot, False)
                break
            thread = threading.Thread(
                target=self._evacuate_in_slot,
                args=(slots, slot, move, evacuate_one, lost),
                name='evacuate-%s' % move.instance_uuid)
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join()
        if lost:
            raise lost[0]

    def _announce(self, moves):
        self.update_details_together(
            ["Evacuation of instance started: '%s'" % move.instance_uuid
             for move in moves], 0.5)

    def _evacuate_in_slot(self, slots, slot, move, evacuate_one, lost):
        succeeded = False
        try:
            with slots.holding(slot):
                evacuate_one(move)
            succeeded = move.status == fields.VMoveStatus.SUCCEEDED
        except exception.RecoveryLost as error:
            lost.append(error)
        finally:
            slots.release(slot, succeeded)

    def evacuate_move(self, move, target=None):
        """Evacuate one move's instance to ``target`` (None: Nova's
        scheduler picks) and record the outcome in the move.
        """
        evacuation.evacuate_and_confirm(
            self.context, self.novaclient, move, target,
            resuming=(self.takeover is not None or
                      move.status == fields.VMoveStatus.ONGOING))

    def _check_outcome(self, moves, host_name, notification_uuid,
                       no_room=None):
        """Fail the task unless every move succeeded.

        :param no_room: the message naming instances a placement-aware
            plan found no room for (not in ``moves``), or None.
        """
        # NOTE: only this attempt's moves decide its outcome; a move that
        # failed in an earlier attempt does not fail a retry that works.
        attempted = {move.uuid for move in moves}
        succeeded, failed, unfinished = [], [], []
        for move in objects.VMoveList.get_all_vmoves(self.context,
                                                     notification_uuid):
            if move.uuid not in attempted:
                continue
            if move.status == fields.VMoveStatus.SUCCEEDED:
                succeeded.append(move.instance_uuid)
            elif move.status == fields.VMoveStatus.FAILED:
                failed.append(move.instance_uuid)
            else:
                unfinished.append(move.instance_uuid)
        names = {'host': host_name}

        if succeeded:
            self.update_details(
                "Successfully evacuate instances '%(uuids)s' from host "
                "'%(host)s'" % dict(names, uuids=','.join(sorted(succeeded))),
                0.7)
        if failed:
            self._fail("Failed to evacuate instances '%(uuids)s' from host "
                       "'%(host)s'" % dict(names, uuids=','.join(failed)))
        if unfinished:
            self._fail("Instances '%(uuids)s' were not evacuated from host "
                       "'%(host)s': vmove status is still pending"
                       % dict(names, uuids=','.join(unfinished)))
        if no_room:
            self._fail(no_room)
        self.update_details('Evacuation process completed!', 1.0)

    def _fail(self, message):
        self.update_details(message, 0.7)
        raise exception.HostRecoveryFailureException(message=message)


class _HostSlots:
    """host_failure_recovery_threads evacuations of this host at once."""

    def __init__(self, count):
        self.count = count
        self.semaphore = threading.BoundedSemaphore(count)

    def at_once(self):
        return self.count

    def acquire(self, move):
        self.semaphore.acquire()

    def holding(self, slot):
        return contextlib.nullcontext()

    def release(self, slot, succeeded):
        self.semaphore.release()


class _BudgetSlots:
    """This host's evacuations, in slots of the engine's budget (shared
    fairly by failed host: the moves' source host).
    """

    def __init__(self, budget):
        self.budget = budget

    def at_once(self):
        return self.budget.free()

    def acquire(self, move):
        return self.budget.acquire(move.source_host)

    def holding(self, slot):
        # NOTE: Nova's 429/503 gives the slot back (evacuation_budget).
        return evacuation_budget.holding(self.budget, slot)

    def release(self, slot, succeeded):
        self.budget.release(slot, succeeded)
