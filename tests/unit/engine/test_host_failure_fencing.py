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

"""Host failure with fencing: fence, force down, evacuate at once; fencing
failures, [fencing]/required, custom task lists, the secrets, and the
return to service of a fenced host.
"""

from unittest import mock

from masakari.engine.drivers.taskflow import host_failure
from masakari.engine import manager as engine_manager
from masakari import objects
from masakari.objects import fields
from tests.fixtures import fencing
from tests.fixtures import polling
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
GROUP = 'taskflow_driver_recovery_flows'


class FencingTestCase(base.RecoveryTestCase):

    servers = [base.server('vm')]
    fenced_hosts = (base.FAILED_HOST,)

    def setUp(self):
        super().setUp()
        self.bmc = self.useFixture(fencing.FencingFixture(
            self.engine.conf, self.fenced_hosts, nova=self.nova))

    def error_text(self):
        error = self.engine.rpc.payload_data('notification.process.error')
        return error['fault']['masakari_object.data']['exception_message']

    def assert_no_secret(self, notification):
        self.assertNotIn(fencing.PASSWORD, self.engine.logs.output)
        self.assertNotIn(fencing.PASSWORD, repr(
            self.engine.progress(notification)))
        self.assertNotIn(fencing.PASSWORD, repr(
            self.engine.rpc.notifications))


class FenceThenEvacuateTestCase(FencingTestCase):

    def test_fence_force_down_evacuate_without_waiting(self):
        # The wait for Nova's own detection would hang the test.
        self.config(wait_period_after_service_update=3600)
        with mock.patch.object(host_failure, 'time') as clock:
            notification = self.host_down(event='STOPPED',
                                          host_status='NORMAL')
        clock.sleep.assert_not_called()

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual([('power_state', base.FAILED_HOST),
                          ('power_off', base.FAILED_HOST),
                          ('power_state', base.FAILED_HOST)],
                         self.bmc.calls)
        service = '/os-services/%s' % self.service_id(base.FAILED_HOST)
        vm = self.id_of('vm')
        self.assertEqual([
            ('GET /os-services?host=compute-1&binary=nova-compute', None),
            ('PUT ' + service,
             {'status': 'disabled',
              'disabled_reason': 'Masakari detected host failed.'}),
            ('GET /os-services?host=compute-1&binary=nova-compute', None),
            ('PUT ' + service, {'forced_down': True}),
            ('GET /servers/detail?all_tenants=True&host=compute-1', None),
        ], self.requests()[:5])
        self.assertIn(('POST /servers/%s/action' % vm, {'evacuate': {}}),
                      self.requests())
        self.assertTrue(self.nova.service(base.FAILED_HOST)['forced_down'])
        self.assertEqual('compute-2', self.nova.server('vm')['host'])

        details = self.engine.progress(notification)
        self.assertEqual(['FenceHostTask', 'ForceDownComputeServiceTask',
                          'PrepareHAEnabledInstancesTask',
                          'EvacuateInstancesTask'],
                         [name for name, _state, _m in details])
        self.assertEqual([
            "Fencing host 'compute-1'",
            "Fencing host 'compute-1' through the fake driver at 192.0.2.10",
        ], details[0][2][:2])
        self.assertRegex(details[0][2][2],
                         r"^Host 'compute-1' fenced by the fake driver at "
                         r"192\.0\.2\.10: power state on before, off after, "
                         r"in \d+\.\d s$")
        self.assertEqual([
            "Disabling compute service on host: 'compute-1'",
            "Compute service on host 'compute-1' disabled and forced down; "
            "evacuating without waiting for Nova to see it down"],
            details[1][2])
        self.assert_no_secret(notification)

    def test_host_already_off_is_not_powered_off_again(self):
        self.bmc.power[base.FAILED_HOST] = 'off'
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual([('power_state', base.FAILED_HOST)], self.bmc.calls)

    def test_fencing_tasks_in_a_custom_list(self):
        self.config(host_auto_failure_recovery_tasks={
            'pre': ['fence_host_task', 'force_down_compute_service_task'],
            'main': ['prepare_HA_enabled_instances_task'],
            'post': ['evacuate_instances_task']}, group=GROUP)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(['FenceHostTask', 'ForceDownComputeServiceTask',
                          'PrepareHAEnabledInstancesTask',
                          'EvacuateInstancesTask'],
                         [name for name, _s, _m in
                          self.engine.progress(notification)])

    def test_force_down_alone_cannot_run(self):
        # Without the fencing task's result the flow does not even start.
        self.bmc.write([])
        self.config(host_auto_failure_recovery_tasks={
            'pre': ['force_down_compute_service_task'],
            'main': ['prepare_HA_enabled_instances_task'],
            'post': ['evacuate_instances_task']}, group=GROUP)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual([], self.nova.nova_requests())


class FencingFailureTestCase(FencingTestCase):

    def assert_nothing_evacuated(self, notification):
        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual([], self.nova.nova_requests())
        self.assertEqual([], self.engine.vmoves(notification))
        self.assertEqual(base.FAILED_HOST, self.nova.server('vm')['host'])

    def test_unreachable_bmc_then_retry(self):
        self.bmc.unreachable.add(base.FAILED_HOST)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')

        self.assert_nothing_evacuated(notification)
        reason = ('Fencing of host compute-1 failed: connection to '
                  '192.0.2.10 refused for admin:***')
        self.assertEqual(reason, self.error_text())
        [(name, state, messages)] = self.engine.progress(notification)
        self.assertEqual('FenceHostTask', name)
        self.assertEqual(reason + '; nothing is evacuated', messages[-1])
        self.assert_no_secret(notification)

        # The periodic retry fences again; the BMC answers this time.
        self.bmc.unreachable.clear()
        self.manager._process_unfinished_notifications(self.context)
        self.assertEqual(Status.FINISHED,
                         self.engine.reload(notification).status)
        self.assertEqual('compute-2', self.nova.server('vm')['host'])

    def test_power_still_on_at_the_deadline(self):
        self.bmc.stuck_on.add(base.FAILED_HOST)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assert_nothing_evacuated(notification)
        self.assertIn('power state still on 1 seconds after the power off '
                      'request', self.error_text())

    def test_no_fallback_workflow_after_a_fencing_failure(self):
        self.segment.recovery_method = 'auto_priority'
        self.segment.save()
        self.bmc.unreachable.add(base.FAILED_HOST)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assert_nothing_evacuated(notification)
        self.assertEqual(1, len([call for call in self.bmc.calls
                                 if call[0] == 'power_state']))

    def test_unusable_fencing_file_fails_the_recovery(self):
        with open(self.bmc.path, 'w') as stream:
            stream.write('compute-1: [not, a, mapping\n')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assert_nothing_evacuated(notification)
        self.assertIn('the fencing file %s is not usable' % self.bmc.path,
                      self.error_text())


class HostWithoutEntryTestCase(FencingTestCase):

    fenced_hosts = ('compute-2',)

    def test_recovered_as_without_fencing(self):
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual([], self.bmc.calls)
        self.assertEqual(
            ['GET /os-services?host=compute-1&binary=nova-compute',
             'PUT /os-services/%s' % self.service_id(base.FAILED_HOST),
             'GET /servers/detail?all_tenants=True&host=compute-1'],
            self.nova.nova_requests()[:3])
        self.assertEqual(['DisableComputeServiceTask',
                          'PrepareHAEnabledInstancesTask',
                          'EvacuateInstancesTask'],
                         [name for name, _s, _m in
                          self.engine.progress(notification)])

    def test_required_fencing_fails_with_the_reason(self):
        self.config(required=True, group='fencing')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual([], self.nova.nova_requests())
        self.assertEqual(
            'Fencing of host compute-1 failed: the host has no entry in '
            'the fencing file ([fencing]/config_file)', self.error_text())


class ReturnToServiceTestCase(FencingTestCase):

    def setUp(self):
        super().setUp()
        self.config(return_to_service=True, group='fencing')

    def end_maintenance(self):
        host = objects.Host.get_by_uuid(self.context, self.host.uuid)
        host.on_maintenance = False
        host.save()

    def power_ons(self):
        return [call for call in self.bmc.calls if call[0] == 'power_on']

    def test_powered_on_and_enabled_once_maintenance_ends(self):
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.manager._return_fenced_hosts()
        self.assertEqual([], self.power_ons())

        self.end_maintenance()
        self.nova.reset_calls()
        self.manager._return_fenced_hosts()

        self.assertEqual([('power_on', base.FAILED_HOST)], self.power_ons())
        service = '/os-services/%s' % self.service_id(base.FAILED_HOST)
        lookup = 'GET /os-services?host=compute-1&binary=nova-compute'
        # The lookups after clearing forced_down: the report Nova shows
        # then, one newer than it, and the service to enable.
        requests = self.requests()
        self.assertEqual([(lookup, None),
                          ('PUT ' + service, {'forced_down': False})],
                         requests[:2])
        self.assertEqual([(lookup, None),
                          ('PUT ' + service, {'status': 'enabled'})],
                         requests[-2:])
        self.assertEqual({(lookup, None)}, set(requests[2:-2]))
        self.assertGreaterEqual(len(requests[2:-2]), 2)
        self.assertEqual(
            ('enabled', 'up', False),
            tuple(self.nova.service(base.FAILED_HOST)[key]
                  for key in ('status', 'state', 'forced_down')))
        self.assertEqual([
            "Powering on host 'compute-1' through the fake driver at "
            "192.0.2.10",
            "Clearing forced_down of the compute service on host "
            "'compute-1' (it stays disabled)",
            "Waiting up to 600 s for nova-compute on host 'compute-1' to "
            "report up with a heartbeat sent after its power on",
            "Enabling compute service on host: 'compute-1'",
            "Host 'compute-1' returned to service"],
            self.messages(notification)['ReturnToServiceTask'])
        self.assertFalse(objects.Host.get_by_uuid(
            self.context, self.host.uuid).reserved)
        self.assert_no_secret(notification)

        # Done once: later checks leave the host alone.
        self.manager._return_fenced_hosts()
        self.assertEqual(1, len(self.power_ons()))

    def test_a_reserved_host_gets_its_flag_back(self):
        self.host.reserved = True
        self.host.save()
        self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertFalse(objects.Host.get_by_uuid(
            self.context, self.host.uuid).reserved)
        self.end_maintenance()
        self.manager._return_fenced_hosts()
        self.assertTrue(objects.Host.get_by_uuid(
            self.context, self.host.uuid).reserved)

    def test_compute_not_up_in_time_is_tried_again(self):
        self.config(compute_up_timeout=1, group='fencing')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.end_maintenance()
        self.bmc.nova = None  # the power on does not bring nova-compute up
        self.manager._return_fenced_hosts()
        self.assertEqual('disabled',
                         self.nova.service(base.FAILED_HOST)['status'])
        self.assertEqual(
            "nova-compute on host 'compute-1' reported no heartbeat within "
            "1 s after its power on; the host stays disabled (the return to "
            "service is tried again at the next check)",
            self.messages(notification)['ReturnToServiceTask'][-1])

        self.nova.set_host_state(base.FAILED_HOST, 'up')
        self.manager._return_fenced_hosts()
        self.assertEqual('enabled',
                         self.nova.service(base.FAILED_HOST)['status'])
        self.assertEqual(2, len(self.power_ons()))

    def test_a_stale_heartbeat_does_not_bring_the_host_back(self):
        # Within service_down_time of the failure, Nova still counts the
        # heartbeat sent before it: the service looks up, with an old
        # report, and the host has not booted (here it never does).
        self.config(compute_up_timeout=1, group='fencing')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.end_maintenance()
        self.bmc.nova = None
        self.nova.set_host_state(base.FAILED_HOST, 'up')
        self.nova.cloud.update_machine(base.FAILED_HOST, alive=False)
        polling.wait_until(lambda: not self.nova.cloud.machine(
            base.FAILED_HOST)['alive'])

        self.manager._return_fenced_hosts()
        self.assertEqual(
            ('disabled', 'up'),
            (self.nova.service(base.FAILED_HOST)['status'],
             self.nova.cloud.machine(base.FAILED_HOST)['service_state']))
        self.assertIn('reported no heartbeat within 1 s after its power on',
                      self.messages(notification)['ReturnToServiceTask'][-1])

    def test_a_host_fenced_by_its_monitor_is_not_powered_on(self):
        with open(self.bmc.path, 'w') as stream:
            stream.write('compute-1:\n  driver: monitor\n')
        notification = self.host_down(event='STOPPED', host_status='NORMAL',
                                      cluster_status='OFFLINE')
        self.assertEqual(Status.FINISHED, notification.status)
        self.end_maintenance()
        # The cluster brought the host back.
        self.nova.set_host_state(base.FAILED_HOST, 'up')
        self.manager._return_fenced_hosts()
        self.assertEqual('enabled',
                         self.nova.service(base.FAILED_HOST)['status'])
        self.assertEqual([], self.bmc.calls)
        self.assertEqual(
            ["Not powering on host 'compute-1': the monitor driver cannot "
             "(whoever fenced the host powers it on)",
             "Clearing forced_down of the compute service on host "
             "'compute-1' (it stays disabled)",
             "Waiting up to 600 s for nova-compute on host 'compute-1' to "
             "report up with a heartbeat sent after the end of its "
             "maintenance",
             "Enabling compute service on host: 'compute-1'",
             "Host 'compute-1' returned to service"],
            self.messages(notification)['ReturnToServiceTask'])

    def test_hosts_recovered_without_fencing_are_left_alone(self):
        self.bmc.write(['compute-2'])
        self.host_down(event='STOPPED', host_status='NORMAL')
        self.end_maintenance()
        self.bmc.write([base.FAILED_HOST])
        self.manager._return_fenced_hosts()
        self.assertEqual([], self.power_ons())

    def test_the_check_runs_only_when_configured(self):
        self.assertIn('return_fenced_hosts',
                      engine_manager.MasakariManager().background.names)
        self.config(return_to_service=False, group='fencing')
        self.assertNotIn('return_fenced_hosts',
                         engine_manager.MasakariManager().background.names)
