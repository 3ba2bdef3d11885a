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

"""Safety tasks of the host failure flow: the mass-failure brake, fencing
and force-down, and the return to service of a fenced host.

They are ordinary ``masakari.task_flow.tasks``: the engine puts the brake
and the fencing pair into the host flow when those options are set (see
``host_workflows.task_list``), and a custom task list may name them.
Force-down takes the fencing task's result (``fenced``) as input, so no
flow can force a service down without having fenced the host first.
"""

from oslo_log import log as logging

import masakari.conf
from masakari.engine import brake
from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import waiting
from masakari import exception
from masakari import fencing
from masakari.metrics import engine as engine_metrics
from masakari import objects

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)


class MassFailureBrakeTask(base.MasakariTask):
    """Hold the recovery when too many hosts of the segment failed."""

    def execute(self, host_name, notification_uuid):
        notification = objects.Notification.get_by_uuid(
            self.context, notification_uuid)
        if brake.is_released(notification):
            LOG.info('Mass-failure brake: notification %s was released by '
                     'an operator; recovering it without the brake.',
                     notification_uuid)
            self.update_details('Released from the mass-failure brake by '
                                'an operator: recovering', 1.0)
            return
        segment_uuid = objects.Host.get_by_uuid(
            self.context, notification.source_host_uuid).failover_segment.uuid
        held, reason = brake.verdict(self.context, notification, segment_uuid)
        if not held:
            self.update_details('Mass-failure brake: %s: recovering' % reason,
                                1.0)
            return
        brake.hold(notification, reason)
        engine_metrics.brake_held()
        self.update_details(notification.message, 1.0)
        raise exception.HostRecoveryHeld(host=host_name, reason=reason)


def _driver_of(host_name):
    """The host's fencing driver; FencingFailed when it has none."""
    driver = fencing.driver_for(host_name)
    if driver is None:
        raise exception.FencingFailed(
            host=host_name, reason='the host has no entry in the fencing '
                                   'file ([fencing]/config_file)')
    return driver


def _bmc(driver):
    described = driver.describe()
    return '%s driver%s' % (described['driver'],
                            ' at %s' % described['address']
                            if described.get('address') else '')


class FenceHostTask(base.MasakariTask):
    """Power the failed host off through its BMC and confirm it is off.

    Provides ``fenced``: what the fencing did, without secrets, and
    whether the host was reserved (for its return to service).
    """

    default_provides = 'fenced'

    def execute(self, host_name, notification_uuid, host_was_reserved=False):
        self.update_details("Fencing host '%s'" % host_name)
        try:
            driver = _driver_of(host_name)
            self.update_details("Fencing host '%s' through the %s"
                                % (host_name, _bmc(driver)), 0.1)
            payload = objects.Notification.get_by_uuid(
                self.context, notification_uuid).payload
            try:
                result = driver.fence(notification_payload=payload)
            except exception.FencingFailed:
                raise
            except Exception as error:
                # NOTE: a driver must raise FencingFailed; anything else
                # still goes through its password filter.
                raise driver.failed(error)
        except exception.FencingFailed as error:
            reason = error.format_message()
            self.update_details('%s; nothing is evacuated' % reason, 1.0)
            # NOTE: a fresh exception without its causes: taskflow records
            # the chain, and a library's exception may not serialise.
            raise exception.FencingFailed(message=reason) from None
        self.update_details(
            "Host '%(host)s' fenced by the %(bmc)s: power state %(before)s "
            "before, %(after)s after, in %(seconds).1f s"
            % {'host': host_name, 'bmc': _bmc(driver),
               'before': result.state_before, 'after': result.state_after,
               'seconds': result.seconds}, 1.0)
        return {'driver': result.driver, 'address': result.address,
                'state_before': result.state_before,
                'state_after': result.state_after,
                'seconds': result.seconds,
                'host_was_reserved': bool(host_was_reserved)}


class ForceDownComputeServiceTask(base.MasakariTask):
    """Disable the fenced host's nova-compute and mark it forced down, so
    that Nova evacuates at once instead of after its service_down_time.
    """

    def execute(self, host_name, fenced):
        self.update_details(
            "Disabling compute service on host: '%s'" % host_name)
        self.novaclient.enable_disable_service(
            self.context, host_name,
            reason=CONF.host_failure.service_disable_reason)
        self.novaclient.force_down_service(self.context, host_name)
        self.update_details(
            "Compute service on host '%s' disabled and forced down; "
            "evacuating without waiting for Nova to see it down"
            % host_name, 1.0)


class ReturnToServiceTask(base.MasakariTask):
    """Bring a fenced host back once its maintenance ended: power on,
    wait for a heartbeat of nova-compute sent since, enable it, give the
    reserved flag back.

    Every step is idempotent: run twice (two engines), it does no harm.
    """

    def execute(self, host_name, host_was_reserved=False):
        driver = _driver_of(host_name)
        if driver.CAN_POWER_ON:
            self.update_details("Powering on host '%s' through the %s"
                                % (host_name, _bmc(driver)))
            try:
                driver.power_on()
            finally:
                driver.close()
            since = 'its power on'
        else:
            self.update_details("Not powering on host '%s': the %s cannot "
                                "(whoever fenced the host powers it on)"
                                % (host_name, _bmc(driver)))
            since = 'the end of its maintenance'
        # NOTE: Nova reports a forced-down service down whatever its
        # heartbeats say, so forced_down is cleared first; the service
        # stays disabled, so nothing is scheduled to it meanwhile.
        self.update_details("Clearing forced_down of the compute service "
                            "on host '%s' (it stays disabled)" % host_name,
                            0.3)
        self.novaclient.force_down_service(self.context, host_name,
                                           forced_down=False)
        self._wait_for_a_heartbeat(host_name, since)
        self.update_details("Enabling compute service on host: '%s'"
                            % host_name, 0.8)
        self.novaclient.enable_disable_service(self.context, host_name,
                                               enable=True)
        if host_was_reserved:
            host = objects.Host.get_by_name(self.context, host_name)
            host.reserved = True
            host.save()
            self.update_details("Host '%s' is a reserved host again"
                                % host_name, 0.9)
        self.update_details("Host '%s' returned to service" % host_name, 1.0)

    def _wait_for_a_heartbeat(self, host_name, since):
        """Wait until Nova reports the service up with a report stored
        after the one it showed once forced_down was cleared.

        NOTE: "up" alone is not enough: within service_down_time of the
        failure Nova still counts the heartbeat sent before it, and would
        report a host that has not booted (or never will) up. Nova's own
        timestamps are compared, so the engine's clock does not matter.
        """
        timeout = CONF.fencing.compute_up_timeout
        self.update_details("Waiting up to %d s for nova-compute on host "
                            "'%s' to report up with a heartbeat sent after "
                            "%s" % (timeout, host_name, since), 0.4)
        _up, cleared_at = self.novaclient.get_service_report(self.context,
                                                             host_name)

        def reported_since():
            up, reported_at = self.novaclient.get_service_report(
                self.context, host_name)
            return up and reported_at is not None and (
                cleared_at is None or reported_at > cleared_at)

        try:
            waiting.poll(reported_since, timeout, CONF.verify_interval)
        except waiting.Timeout:
            message = ("nova-compute on host '%s' reported no heartbeat "
                       "within %d s after %s; the host stays disabled (the "
                       "return to service is tried again at the next check)"
                       % (host_name, timeout, since))
            self.update_details(message, 1.0)
            raise exception.MasakariException(message)
