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

"""Host failure with reserved hosts: ``reserved_host``, ``auto_priority``,
``rh_priority``.
"""

from oslo_concurrency import lockutils

from masakari.engine import claims
from masakari.engine.drivers.taskflow import driver as taskflow_driver
from masakari import exception
from masakari import objects
from masakari.objects import fields
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
RESERVED = [{'name': 'reserved-1', 'status': 'disabled'},
            {'name': 'reserved-2', 'status': 'disabled'}]
HOSTS = [{'name': base.FAILED_HOST, 'state': 'down'}, 'compute-2'] + RESERVED
EVACUATE_TO = {'evacuate': {'host': 'reserved-2'}}


class ReservedHostTestCase(base.RecoveryTestCase):
    """Two reserved hosts; the newest record (reserved-2) is tried first."""

    recovery_method = 'reserved_host'
    servers = [base.server('vm')]
    hosts = HOSTS
    aggregates = [{'name': 'agg-1', 'id': 7, 'hosts': [base.FAILED_HOST]},
                  {'name': 'agg-2', 'id': 8, 'hosts': ['compute-2']}]

    def setUp(self):
        super().setUp()
        for name in ('reserved-1', 'reserved-2'):
            self.engine.create_host(self.segment, name=name, reserved=True)

    def record(self, name):
        return objects.Host.get_by_name(self.context, name)

    def test_call_sequence_with_aggregates(self):
        self.config(add_reserved_host_to_aggregate=True,
                    group='host_failure')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')

        self.assertEqual(Status.FINISHED, notification.status)
        vm = self.id_of('vm')
        self.assertEqual([
            ('GET /os-services?host=compute-1&binary=nova-compute', None),
            ('PUT /os-services/%s' % self.service_id(base.FAILED_HOST),
             {'status': 'disabled',
              'disabled_reason': 'Masakari detected host failed.'}),
            ('GET /servers/detail?all_tenants=True&host=compute-1', None),
            ('GET /os-aggregates', None),
            ('POST /os-aggregates/7/action',
             {'add_host': {'host': 'reserved-2'}}),
            ('GET /os-services?host=reserved-2&binary=nova-compute', None),
            ('PUT /os-services/%s' % self.service_id('reserved-2'),
             {'status': 'enabled'}),
            ('GET /servers/%s' % vm, None),
            ('GET /servers/%s' % vm, None),
            ('POST /servers/%s/action' % vm, {'lock': None}),
            ('POST /servers/%s/action' % vm, EVACUATE_TO),
            ('GET /servers/%s' % vm, None),
            ('GET /servers/%s' % vm, None),
            ('POST /servers/%s/action' % vm, {'unlock': None}),
        ], self.requests())
        self.assertEqual(1, self.nova.token_requests())
        self.assertEqual('reserved-2', self.nova.server('vm')['host'])
        self.assertIn('reserved-2', self.nova.aggregate('agg-1')['hosts'])
        self.assertFalse(self.record('reserved-2').reserved)
        self.assertTrue(self.record('reserved-1').reserved)
        failed = self.record(base.FAILED_HOST)
        self.assertEqual((True, False), (failed.on_maintenance,
                                         failed.reserved))
        [move] = self.engine.vmoves(notification)
        self.assertEqual(('succeeded', 'reserved-2'),
                         (move.status, move.dest_host))
        messages = self.messages(notification)['EvacuateInstancesTask']
        self.assertEqual([
            "Start evacuation of instances from failed host 'compute-1', "
            "instance uuids are: '%s'" % vm,
            "Enabling reserved host: 'reserved-2'",
            'Add host reserved-2 to aggregate agg-1',
            'Added host reserved-2 to aggregate agg-1',
            "Evacuation of instance started: '%s'" % vm,
            "Successfully evacuate instances '%s' from host 'compute-1'" % vm,
            'Evacuation process completed!'], messages)
        # The failed host, then the reserved host taken, both as the engine.
        self.assert_events(
            'notification.process.start', 'host.update.start',
            'host.update.end', 'host.update.start', 'host.update.end',
            'notification.process.end')

    def test_already_in_aggregate(self):
        self.config(add_reserved_host_to_aggregate=True,
                    group='host_failure')
        self.nova.add_fault(method='POST', path='/os-aggregates/7/action',
                            status=409, message='already there')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertIn("Host 'reserved-2' already has been added to "
                      "aggregate 'agg-1'.",
                      self.messages(notification)['EvacuateInstancesTask'])

    def test_next_reserved_host_after_a_failure(self):
        self.nova.add_fault(method='PUT', path='/os-services/%s'
                            % self.service_id('reserved-2'), status=500,
                            message='broken')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual([
            'GET /os-services?host=compute-1&binary=nova-compute',
            'PUT /os-services/%s' % self.service_id(base.FAILED_HOST),
            'GET /servers/detail?all_tenants=True&host=compute-1',
            'GET /os-services?host=reserved-2&binary=nova-compute',
            'PUT /os-services/%s' % self.service_id('reserved-2'),
            'GET /servers/detail?all_tenants=True&host=compute-1',
            'GET /os-services?host=reserved-1&binary=nova-compute',
            'PUT /os-services/%s' % self.service_id('reserved-1'),
        ], self.nova.nova_requests()[:8])
        self.assertEqual('reserved-1', self.nova.server('vm')['host'])
        # The pending move of the failed attempt is reused, not doubled.
        [move] = self.engine.vmoves(notification)
        self.assertEqual(('succeeded', 'reserved-1'),
                         (move.status, move.dest_host))
        self.assertEqual(1, self.server_calls('vm').count(
            {'evacuate': {'host': 'reserved-1'}}))
        # One atom per task; a retried task lists every attempt's messages.
        details = self.engine.progress(notification)
        self.assertEqual(
            [('DisableComputeServiceTask', 'SUCCESS'),
             ('PrepareHAEnabledInstancesTask', 'SUCCESS'),
             ('EvacuateInstancesTask', 'SUCCESS')],
            [(name, state) for name, state, _m in details])
        self.assertEqual(2, details[1][2].count(
            'Preparing instances for evacuation'))
        self.assertEqual(["Enabling reserved host: 'reserved-2'",
                          "Enabling reserved host: 'reserved-1'"],
                         [message for message in details[2][2]
                          if message.startswith('Enabling')])

    def test_earlier_failed_moves_do_not_fail_a_successful_retry(self):
        self.nova.add_fault(method='POST', path='/servers/*/action',
                            action='evacuate', status=500, message='once',
                            times=1)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')

        # 22.0.0 failed every later attempt once a move had failed.
        self.assertEqual(Status.FINISHED, notification.status)
        first, second = self.engine.vmoves(notification)
        self.assertEqual(('failed', None), (first.status, first.dest_host))
        self.assertEqual(('succeeded', 'reserved-1'),
                         (second.status, second.dest_host))
        messages = self.messages(notification)['EvacuateInstancesTask']
        self.assertIn("Failed to evacuate instances '%s' from host "
                      "'compute-1'" % self.id_of('vm'), messages)
        self.assertEqual('Evacuation process completed!', messages[-1])

    def test_every_reserved_host_failing(self):
        # NOTE: the second attempt starts from 'error', where only the
        # timeout tells that the evacuation did not happen.
        self.config(wait_period_after_evacuation=0)
        self.nova.update_server('vm', fail_evacuate=True)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')

        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual(['failed', 'failed'],
                         [move.status for move in
                          self.engine.vmoves(notification)])
        details = self.engine.progress(notification)
        self.assertEqual(
            [('DisableComputeServiceTask', 'SUCCESS'),
             ('PrepareHAEnabledInstancesTask', 'REVERTED'),
             ('EvacuateInstancesTask', 'REVERTED')],
            [(name, state) for name, state, _m in details])
        error = self.engine.rpc.payload_data('notification.process.error')
        self.assertEqual(
            "Failed to evacuate instances '%s' from host 'compute-1'"
            % self.id_of('vm'),
            error['fault']['masakari_object.data']['exception_message'])

    def test_skip_is_retried_for_each_reserved_host(self):
        self.config(evacuate_all_instances=False, group='host_failure')
        self.nova.update_server('vm', metadata={})
        notification = self.host_down(event='STOPPED', host_status='NORMAL')

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(
            ['GET /os-services?host=compute-1&binary=nova-compute',
             'PUT /os-services/%s' % self.service_id(base.FAILED_HOST)] +
            ['GET /servers/detail?all_tenants=True&host=compute-1'] * 2,
            self.nova.nova_requests())
        skipped = [message for _n, _s, messages in
                   self.engine.progress(notification)
                   for message in messages if message.startswith('Skipped')]
        self.assertEqual(2, len(skipped))

    def test_reserved_host_busy_in_this_engine(self):
        with lockutils.lock('masakari-reserved-2'):
            notification = self.host_down(event='STOPPED',
                                          host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual('reserved-1', self.nova.server('vm')['host'])
        self.assertTrue(self.record('reserved-2').reserved)

    def test_only_reserved_host_busy(self):
        self.record('reserved-1').destroy()
        with lockutils.lock('masakari-reserved-2'):
            notification = self.host_down(event='STOPPED',
                                          host_status='NORMAL')
        self.assertEqual(Status.ERROR, notification.status)
        error = self.engine.rpc.payload_data('notification.process.error')
        self.assertEqual(
            'Lock is already acquired on reserved-2.',
            error['fault']['masakari_object.data']['exception_message'])

    def test_reserved_host_taken_by_another_engine(self):
        # Another engine took reserved-2 after this one listed it.
        claims.take_reserved_host(self.context, 'reserved-2')
        notification = self.engine.create_notification(self.host)
        self.nova.reset_calls()
        taskflow_driver.TaskFlowDriver().execute_host_failure(
            self.context, base.FAILED_HOST, 'reserved_host',
            notification.notification_uuid,
            update_host_method=claims.take_reserved_host,
            reserved_host_list=['reserved-2', 'reserved-1'])
        self.assertEqual('reserved-1', self.nova.server('vm')['host'])
        self.assertFalse(self.record('reserved-1').reserved)

    def test_a_reserved_host_is_taken_once(self):
        claims.take_reserved_host(self.context, 'reserved-1')
        self.assertRaises(exception.LockAlreadyAcquired,
                          claims.take_reserved_host, self.context,
                          'reserved-1')


class NoReservedHostTestCase(base.RecoveryTestCase):

    recovery_method = 'reserved_host'
    servers = [base.server('vm')]

    def test_error_without_nova_calls(self):
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual([], self.nova.nova_requests())
        self.assertTrue(objects.Host.get_by_name(
            self.context, base.FAILED_HOST).on_maintenance)
        error = self.engine.rpc.payload_data('notification.process.error')
        self.assertEqual(
            'No reserved_hosts available for evacuation.',
            error['fault']['masakari_object.data']['exception_message'])
        self.assertEqual([], self.engine.progress(notification))


class PriorityTestCase(base.RecoveryTestCase):

    servers = [base.server('vm')]
    hosts = HOSTS

    def setUp(self):
        super().setUp()
        self.engine.create_host(self.segment, name='reserved-2',
                                reserved=True)

    def use(self, method):
        self.segment.recovery_method = method
        self.segment.save()

    def test_auto_priority_success_is_auto(self):
        self.use('auto_priority')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual('compute-2', self.nova.server('vm')['host'])
        self.assertTrue(objects.Host.get_by_name(
            self.context, 'reserved-2').reserved)

    def test_auto_priority_falls_back_to_reserved_host(self):
        self.use('auto_priority')
        self.nova.add_fault(method='POST', path='/servers/*/action',
                            action='evacuate', status=500, message='once',
                            times=1)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual('reserved-2', self.nova.server('vm')['host'])
        requests = self.nova.nova_requests()
        # The whole RH workflow runs again, disabling the host again.
        self.assertEqual(2, requests.count(
            'PUT /os-services/%s' % self.service_id(base.FAILED_HOST)))
        details = self.engine.progress(notification)
        self.assertEqual(
            [('DisableComputeServiceTask', 'REVERTED'),
             ('PrepareHAEnabledInstancesTask', 'REVERTED'),
             ('EvacuateInstancesTask', 'REVERTED'),
             ('DisableComputeServiceTask', 'SUCCESS'),
             ('PrepareHAEnabledInstancesTask', 'SUCCESS'),
             ('EvacuateInstancesTask', 'SUCCESS')],
            [(name, state) for name, state, _m in details])

    def test_rh_priority_uses_the_reserved_host(self):
        self.use('rh_priority')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual('reserved-2', self.nova.server('vm')['host'])

    def test_rh_priority_falls_back_to_auto(self):
        self.use('rh_priority')
        self.nova.add_fault(method='PUT', path='/os-services/%s'
                            % self.service_id('reserved-2'), status=500,
                            message='broken')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual('compute-2', self.nova.server('vm')['host'])
        self.assertEqual(
            [('DisableComputeServiceTask', 'SUCCESS'),
             ('PrepareHAEnabledInstancesTask', 'REVERTED'),
             ('EvacuateInstancesTask', 'REVERTED'),
             ('DisableComputeServiceTask', 'SUCCESS'),
             ('PrepareHAEnabledInstancesTask', 'SUCCESS'),
             ('EvacuateInstancesTask', 'SUCCESS')],
            [(name, state) for name, state, _m in
             self.engine.progress(notification)])

    def test_rh_priority_without_reserved_host_runs_auto(self):
        objects.Host.get_by_name(self.context, 'reserved-2').destroy()
        self.use('rh_priority')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual('compute-2', self.nova.server('vm')['host'])
        self.assertEqual(
            ['DisableComputeServiceTask', 'PrepareHAEnabledInstancesTask',
             'EvacuateInstancesTask'],
            [name for name, _s, _m in self.engine.progress(notification)])

    def test_skip_is_not_a_failure(self):
        self.use('auto_priority')
        self.config(evacuate_all_instances=False, group='host_failure')
        self.nova.update_server('vm', metadata={})
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(1, self.nova.nova_requests().count(
            'GET /servers/detail?all_tenants=True&host=compute-1'))
