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

"""Evacuate one instance of a failed host and confirm it.

Runs in one thread of the evacuation pool of EvacuateInstancesTask and
records the outcome in the instance's vmove row: ``ongoing`` when the
evacuation is requested, then ``succeeded`` (with ``dest_host``) or
``failed`` (with the reason), each with ``end_time`` in the same write.
The confirmation polls Nova every [DEFAULT]/verify_interval seconds, or
faster with [host_failure]/evacuation_poll_interval.

A server that is no longer on the failed host when its evacuation starts
was moved by an earlier request whose answer was lost (Nova timed out,
then the periodic retry came): it is confirmed, never evacuated again. A
resumed evacuation (its vmove was left ``ongoing`` by an engine that
died, or the recovery was taken over) also confirms, by polling, one that
Nova is still moving.
"""

from oslo_log import log as logging
from oslo_utils import timeutils

import masakari.conf
from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import waiting
from masakari.engine import evacuation_budget
from masakari import exception
from masakari.objects import fields

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

VM_STATE, TASK_STATE, HYPERVISOR = (base.VM_STATE, base.TASK_STATE,
                                    base.HYPERVISOR)
ACTIVE, ERROR, STOPPED = base.ACTIVE, base.ERROR, base.STOPPED
TIMEOUT_MESSAGE = 'Failed reason: timeout.'
# An evacuation older than this many evacuation_poll_intervals is checked
# every tenth of its age (the slowest: verify_interval).
BACKOFF_AFTER = 10


def confirmation_interval():
    """The ``interval`` of waiting.poll for confirming an evacuation.

    [DEFAULT]/verify_interval unless [host_failure]/evacuation_poll_interval
    is set: then that interval while the evacuation is young, backing off
    to a tenth of its age, at most verify_interval.
    """
    fast = CONF.host_failure.evacuation_poll_interval
    if fast is None:
        return CONF.verify_interval
    slowest = max(CONF.verify_interval, fast)
    return lambda waited: min(max(fast, waited / BACKOFF_AFTER), slowest)


def wait_for_the_end(ended):
    """Poll ``ended()`` at ``confirmation_interval()`` for up to
    [DEFAULT]/wait_period_after_evacuation seconds.

    NOTE: with [host_failure]/evacuation_poll_interval set, the first check
    comes one interval after the request, not at once: an evacuation just
    asked for has not ended, and in a fast recovery these reads would
    compete with the evacuation requests still being sent.

    :raises waiting.Timeout: when it has not ended in time.
    """
    fast = CONF.host_failure.evacuation_poll_interval is not None
    waiting.poll(ended, CONF.wait_period_after_evacuation,
                 confirmation_interval(), check_first=not fast)


def _prepare(context, novaclient, instance):
    """Bring the server to a state Nova evacuates; returns the server as
    last read and whether it must be stopped again afterwards.
    """
    vm_state = getattr(instance, VM_STATE)
    task_state = getattr(instance, TASK_STATE)
    if vm_state not in (ACTIVE, ERROR, STOPPED):
        novaclient.reset_instance_state(context, instance.id)
        instance = novaclient.get_server(context, instance.id)
        stop_after = not (vm_state == base.RESIZED and
                          getattr(instance, base.POWER_STATE) !=
                          base.POWER_SHUTDOWN)
    elif vm_state == STOPPED and task_state is None:
        # NOTE: Nova powers an evacuated stopped server off by itself.
        stop_after = False
    elif task_state is not None:
        novaclient.reset_instance_state(context, instance.id)
        instance = novaclient.get_server(context, instance.id)
        stop_after = vm_state != ACTIVE
    else:
        stop_after = True
    return instance, stop_after


def _confirm_evacuated(context, novaclient, vmove, before):
    def moved():
        server = novaclient.get_server(context, vmove.instance_uuid)
        old_state = getattr(before, VM_STATE)
        new_state = getattr(server, VM_STATE)
        if new_state == ERROR and new_state != old_state:
            raise exception.InstanceEvacuateFailed(
                instance_uuid=vmove.instance_uuid)
        return (getattr(server, HYPERVISOR) != vmove.source_host and
                (new_state == old_state or
                 (old_state == ERROR and new_state == ACTIVE)))

    try:
        wait_for_the_end(moved)
    except waiting.Timeout:
        LOG.warning("Timeout for instance '%s' evacuation.",
                    vmove.instance_uuid)
        raise


def _stop(context, novaclient, uuid):
    novaclient.stop_server(context, uuid)
    try:
        waiting.poll(lambda: getattr(novaclient.get_server(context, uuid),
                                     VM_STATE) == STOPPED,
                     CONF.wait_period_after_power_off, CONF.verify_interval)
    except waiting.Timeout:
        LOG.warning("Instance '%s' is successfully evacuated but timeout "
                    "to stop.", uuid)
        raise


class _Evacuation:
    """One instance's evacuation; remembers what must be undone (the lock).
    """

    def __init__(self, context, novaclient, vmove, reserved_host,
                 resuming=False):
        self.context = context
        self.novaclient = novaclient
        self.vmove = vmove
        self.reserved_host = reserved_host
        self.resuming = resuming
        # NOTE: nothing is unlocked unless this procedure read the server
        # and locked it itself.
        self.instance = None
        self.already_locked = True

    def run(self):
        vmove = self.vmove
        lost = False
        try:
            self._evacuate()
        except exception.RecoveryLost:
            # NOTE: the move is the new owner's now: nothing is recorded
            # or unlocked here.
            lost = True
            raise
        except waiting.Timeout:
            self._end(fields.VMoveStatus.FAILED, message=TIMEOUT_MESSAGE)
        except Exception as error:
            LOG.warning('Failed to evacuate instance %(uuid)s: %(error)s',
                        {'uuid': vmove.instance_uuid, 'error': error})
            self._end(fields.VMoveStatus.FAILED, message=str(error))
        finally:
            if not lost:
                self._wind_up()

    def _wind_up(self):
        if self.vmove.end_time is None:
            # NOTE: interrupted by other than an Exception: no outcome,
            # but the end time is recorded all the same.
            self.vmove.end_time = timeutils.utcnow()
            self.vmove.save()
        if self.instance is not None and not self.already_locked:
            self._unlock()

    def _end(self, status, **values):
        """Record the outcome and the end time in one write."""
        self.vmove.update(dict(values, status=status,
                               end_time=timeutils.utcnow()))
        self.vmove.save()

    def _evacuate(self):
        context, novaclient, vmove = self.context, self.novaclient, self.vmove
        uuid = vmove.instance_uuid
        self.instance = novaclient.get_server(context, uuid)
        # NOTE: a server no longer on the failed host was moved by an
        # earlier request whose answer was lost (a Nova timeout before
        # the periodic retry); resuming, one still moving is confirmed too.
        if (_moved_or_moving(self.instance, vmove) if self.resuming
                else _moved(self.instance, vmove)):
            self._confirm_earlier_evacuation()
            return
        original_state = getattr(self.instance, VM_STATE)
        self.already_locked = novaclient.get_server(context, uuid).locked
        if not self.already_locked:
            novaclient.lock_server(context, uuid)

        instance, stop_after = _prepare(context, novaclient, self.instance)

        vmove.status = fields.VMoveStatus.ONGOING
        vmove.start_time = timeutils.utcnow()
        vmove.save()
        evacuation_budget.request(lambda: novaclient.evacuate_instance(
            context, uuid, target=self.reserved_host))
        _confirm_evacuated(context, novaclient, vmove, instance)
        evacuation_budget.evacuated()

        if original_state != ACTIVE and stop_after:
            _stop(context, novaclient, uuid)
            if original_state == ERROR:
                novaclient.reset_instance_state(context, uuid)

        self._succeeded(novaclient.get_server(context, uuid))

    def _succeeded(self, server):
        destination = getattr(server, HYPERVISOR)
        self._end(fields.VMoveStatus.SUCCEEDED,
                  **({'dest_host': destination} if destination else {}))

    def _confirm_earlier_evacuation(self):
        """Poll the evacuation an earlier engine requested until it ends.

        NOTE: the server is unlocked afterwards when it is locked now:
        the earlier engine locked it (as the restart path assumes too).
        """
        context, novaclient, vmove = self.context, self.novaclient, self.vmove
        self.already_locked = not self.instance.locked
        LOG.info('Instance %s was already being evacuated: confirming the '
                 'earlier evacuation instead of requesting another.',
                 vmove.instance_uuid)
        if vmove.status != fields.VMoveStatus.ONGOING:
            vmove.status = fields.VMoveStatus.ONGOING
            vmove.start_time = vmove.start_time or timeutils.utcnow()
            vmove.save()

        def ended():
            server = novaclient.get_server(context, vmove.instance_uuid)
            if getattr(server, TASK_STATE) is not None:
                return False
            if getattr(server, VM_STATE) == ERROR:
                raise exception.InstanceEvacuateFailed(
                    instance_uuid=vmove.instance_uuid)
            return getattr(server, HYPERVISOR) != vmove.source_host

        wait_for_the_end(ended)
        self._succeeded(novaclient.get_server(context, vmove.instance_uuid))

    def _unlock(self):
        uuid = self.vmove.instance_uuid
        try:
            self.novaclient.unlock_server(self.context, uuid)
        except Exception as error:
            LOG.warning('Failed to unlock instance %(uuid)s after '
                        'evacuation: %(error)s',
                        {'uuid': uuid, 'error': error})


def _moved(server, vmove):
    return getattr(server, HYPERVISOR) != vmove.source_host


def _moved_or_moving(server, vmove):
    return getattr(server, TASK_STATE) is not None or _moved(server, vmove)


def evacuate_and_confirm(context, novaclient, vmove, reserved_host=None,
                         resuming=False):
    """Evacuate ``vmove``'s instance and record the outcome in ``vmove``.

    Never raises for a failure of this instance: the vmove says what
    happened. The server is locked for the duration unless it already was.

    :param reserved_host: the destination; None lets Nova choose.
    :param resuming: the evacuation may have been requested by an engine
        that died: a server Nova already moved or is moving is confirmed
        by polling instead of evacuated again.
    """
    _Evacuation(context, novaclient, vmove, reserved_host,
                resuming).run()
