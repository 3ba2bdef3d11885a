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

"""Host failure, recovery method ``auto``, against the simulated cloud:
Nova calls, vmoves, progress messages, final status and versioned
notifications.
"""

import time
from unittest import mock

from oslo_db import exception as db_exc

from masakari.db import api as db_api
from masakari.engine.drivers.taskflow import evacuation
from masakari.engine.drivers.taskflow import waiting
from masakari import objects
from masakari.objects import fields
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus


class OneServerTestCase(base.RecoveryTestCase):

    servers = [base.server('vm')]

    def test_call_sequence_status_vmove_and_progress(self):
        notification = self.host_down(event='STOPPED', host_status='NORMAL')

        self.assertEqual(Status.FINISHED, notification.status)
        vm = self.id_of('vm')
        self.assertEqual([
            ('GET /os-services?host=compute-1&binary=nova-compute', None),
            ('PUT /os-services/%s' % self.service_id(base.FAILED_HOST),
             {'status': 'disabled',
              'disabled_reason': 'Masakari detected host failed.'}),
            ('GET /servers/detail?all_tenants=True&host=compute-1', None),
            ('GET /servers/%s' % vm, None),
            ('GET /servers/%s' % vm, None),
            ('POST /servers/%s/action' % vm, {'lock': None}),
            ('POST /servers/%s/action' % vm, {'evacuate': {}}),
            ('GET /servers/%s' % vm, None),
            ('GET /servers/%s' % vm, None),
            ('POST /servers/%s/action' % vm, {'unlock': None}),
        ], self.requests())
        # One token for the whole recovery, whatever the number of calls.
        self.assertEqual(1, self.nova.token_requests())

        [move] = self.engine.vmoves(notification)
        self.assertEqual(
            (vm, 'vm', base.FAILED_HOST, 'compute-2', 'succeeded',
             'evacuation', None),
            (move.instance_uuid, move.instance_name, move.source_host,
             move.dest_host, move.status, move.type, move.message))
        self.assertIsNotNone(move.start_time)
        self.assertLessEqual(move.start_time, move.end_time)

        self.assertEqual('compute-2', self.nova.server('vm')['host'])
        self.assertFalse(self.nova.server('vm')['locked'])
        self.assertEqual('disabled',
                         self.nova.service(base.FAILED_HOST)['status'])
        self.assert_events('notification.process.start',
                           'host.update.start', 'host.update.end',
                           'notification.process.end')
        end = self.engine.rpc.payload_data('notification.process.end')
        self.assertEqual('running', end['status'])
        self.assertIsNone(end['fault'])

    def test_progress_read_back(self):
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        vm = self.id_of('vm')
        details = self.engine.progress(notification)
        self.assertEqual([
            ('DisableComputeServiceTask', 'SUCCESS', [
                "Disabling compute service on host: 'compute-1'",
                "Disabled compute service on host: 'compute-1'"]),
            ('PrepareHAEnabledInstancesTask', 'SUCCESS', [
                'Preparing instances for evacuation',
                "Total instances running on failed host 'compute-1' is 1",
                "Total HA Enabled instances count: '1'",
                "Total Non-HA Enabled instances count: '0'",
                "All instances (HA Enabled/Non-HA Enabled) should be "
                "considered for evacuation. Total count is: '1'",
                "Instances to be evacuated are: '%s'" % vm]),
            ('EvacuateInstancesTask', 'SUCCESS', [
                "Start evacuation of instances from failed host "
                "'compute-1', instance uuids are: '%s'" % vm,
                "Evacuation of instance started: '%s'" % vm,
                "Successfully evacuate instances '%s' from host "
                "'compute-1'" % vm,
                'Evacuation process completed!']),
        ], details)

    def test_progress_values_and_timestamps(self):
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        result = self.manager.get_notification_recovery_workflow_details(
            self.context, self.engine.reload(notification))
        prepare = result.recovery_workflow_details[1]
        self.assertEqual(1.0, prepare.progress)
        self.assertEqual(['0.0', '0.3', '0.6', '0.7', '0.8', '1.0'],
                         [entry['progress']
                          for entry in prepare.progress_details])
        for entry in prepare.progress_details:
            self.assertRegex(entry['timestamp'],
                             r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{6})?$')
        self.assertEqual(['0.0', '0.5', '0.7', '1.0'], [
            entry['progress'] for entry in
            result.recovery_workflow_details[2].progress_details])

    def test_host_put_on_maintenance_by_the_engine(self):
        self.host_down(event='STOPPED', host_status='NORMAL')
        host = self.engine.rpc.payload_data('host.update.end')
        self.assertTrue(host['on_maintenance'])
        publisher = [entry['publisher_id']
                     for entry in self.engine.rpc.notifications
                     if entry['event_type'] == 'host.update.end'][0]
        self.assertTrue(publisher.startswith('masakari-engine:'))

    def test_nothing_to_evacuate_when_not_ha_and_not_all(self):
        self.config(evacuate_all_instances=False, group='host_failure')
        self.nova.update_server('vm', metadata={'HA_Enabled': 'False'})
        notification = self.host_down(event='STOPPED', host_status='NORMAL')

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual([
            'GET /os-services?host=compute-1&binary=nova-compute',
            'PUT /os-services/%s' % self.service_id(base.FAILED_HOST),
            'GET /servers/detail?all_tenants=True&host=compute-1',
        ], self.nova.nova_requests())
        self.assertEqual([], self.engine.vmoves(notification))
        details = self.engine.progress(notification)
        self.assertEqual([('DisableComputeServiceTask', 'REVERTED'),
                          ('PrepareHAEnabledInstancesTask', 'REVERTED')],
                         [(name, state) for name, state, _m in details])
        self.assertEqual([
            'Preparing instances for evacuation',
            "Total instances running on failed host 'compute-1' is 1",
            "Total HA Enabled instances count: '0'",
            "Skipped host 'compute-1' recovery as no instances needs to be "
            "evacuated"], details[1][2])
        self.assertEqual('notification.process.end',
                         self.engine.rpc.event_types[-1])


class HAMetadataTestCase(base.RecoveryTestCase):
    """Which servers count as HA-enabled."""

    servers = [base.server('yes', metadata={'HA_Enabled': ' Yes '}),
               base.server('one', metadata={'HA_Enabled': '1'}),
               base.server('no', metadata={'HA_Enabled': 'False'}),
               base.server('junk', metadata={'HA_Enabled': 'enabled'}),
               base.server('none', metadata={}),
               base.server('other-key', metadata={'ha': 'true'})]

    def test_only_true_strings_count(self):
        self.config(evacuate_all_instances=False, group='host_failure')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(['one', 'yes'],
                         sorted(move.instance_name for move in
                                self.engine.vmoves(notification)))

    def test_configured_metadata_key(self):
        self.config(evacuate_all_instances=False,
                    ha_enabled_instance_metadata_key='ha',
                    group='host_failure')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(['other-key'],
                         [move.instance_name for move in
                          self.engine.vmoves(notification)])

    def test_all_instances_ha_first_evacuated_newest_first(self):
        self.config(host_failure_recovery_threads=1)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        moves = self.engine.vmoves(notification)
        ha = ['yes', 'one']
        # Nova lists newest first: HA ones in that order, then the others.
        self.assertEqual(['one', 'yes', 'other-key', 'none', 'junk', 'no'],
                         [move.instance_name for move in moves])
        messages = self.messages(notification)
        self.assertIn("Total HA Enabled instances count: '2'",
                      messages['PrepareHAEnabledInstancesTask'])
        self.assertIn("Total Non-HA Enabled instances count: '4'",
                      messages['PrepareHAEnabledInstancesTask'])
        # Evacuated in reverse creation order: non-HA ones first.
        started = [message.split("'")[1] for message in
                   messages['EvacuateInstancesTask']
                   if message.startswith('Evacuation of instance started')]
        self.assertEqual([move.instance_uuid for move in reversed(moves)],
                         started)
        self.assertEqual({self.id_of(name) for name in ha},
                         {move.instance_uuid for move in moves[:2]})


class ErrorStateTestCase(base.RecoveryTestCase):

    servers = [base.server('broken-ha', vm_state='error'),
               base.server('broken', vm_state='error', metadata={}),
               base.server('fine')]

    def test_ignore_instances_in_error_state(self):
        self.config(ignore_instances_in_error_state=True,
                    group='host_failure')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(['fine'], [move.instance_name for move in
                                    self.engine.vmoves(notification)])
        self.assertIn(
            "Ignoring recovery of HA_Enabled instance '%s' as it is in "
            "'error' state." % self.id_of('broken-ha'),
            self.messages(notification)['PrepareHAEnabledInstancesTask'])

    def test_error_instances_evacuated_stopped_and_reset(self):
        self.config(host_failure_recovery_threads=1)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        # A stopped server: evacuate, poll, stop, poll, reset to error.
        self.assertEqual(
            ['GET', 'GET', {'lock': None}, {'evacuate': {}}, 'GET',
             {'os-stop': None}, 'GET', {'os-resetState': {'state': 'error'}},
             'GET', {'unlock': None}], self.server_calls('broken'))
        self.assertEqual(('error', 4, 'compute-2'), (
            self.nova.server('broken')['vm_state'],
            self.nova.server('broken')['power_state'],
            self.nova.server('broken')['host']))


LOCK, UNLOCK = {'lock': None}, {'unlock': None}
EVACUATE, STOP = {'evacuate': {}}, {'os-stop': None}
RESET_ERROR = {'os-resetState': {'state': 'error'}}


class ServerVariantsTestCase(base.RecoveryTestCase):
    """Per-server call sequences by original state."""

    servers = [
        base.server('locked', locked=True),
        base.server('active'),
        base.server('stopped', vm_state='stopped', power_state=4),
        base.server('busy', task_state='rebooting'),
        base.server('busy-stopped', vm_state='stopped', power_state=4,
                    task_state='powering-on'),
        base.server('busy-error', vm_state='error', task_state='deleting'),
        base.server('paused', vm_state='paused', power_state=3),
        base.server('resized', vm_state='resized'),
        base.server('resized-off', vm_state='resized', power_state=4),
    ]

    def setUp(self):
        super().setUp()
        self.notification = self.host_down(event='STOPPED',
                                           host_status='NORMAL')

    def test_all_evacuated(self):
        self.assertEqual(Status.FINISHED, self.notification.status)
        self.assertEqual({'succeeded'}, {move.status for move in
                                         self.engine.vmoves(
                                             self.notification)})

    def test_already_locked_is_neither_locked_nor_unlocked(self):
        self.assertEqual(['GET', 'GET', EVACUATE, 'GET', 'GET'],
                         self.server_calls('locked'))
        self.assertTrue(self.nova.server('locked')['locked'])

    def test_active(self):
        self.assertEqual(['GET', 'GET', LOCK, EVACUATE, 'GET', 'GET', UNLOCK],
                         self.server_calls('active'))
        self.assertEqual('active', self.nova.server('active')['vm_state'])

    def test_stopped_is_not_stopped_again(self):
        self.assertEqual(['GET', 'GET', LOCK, EVACUATE, 'GET', 'GET', UNLOCK],
                         self.server_calls('stopped'))
        self.assertEqual('stopped', self.nova.server('stopped')['vm_state'])

    def test_task_state_active(self):
        self.assertEqual(['GET', 'GET', LOCK, RESET_ERROR, 'GET', EVACUATE,
                          'GET', 'GET', UNLOCK], self.server_calls('busy'))
        self.assertEqual('active', self.nova.server('busy')['vm_state'])

    def test_task_state_stopped(self):
        self.assertEqual(['GET', 'GET', LOCK, RESET_ERROR, 'GET', EVACUATE,
                          'GET', STOP, 'GET', 'GET', UNLOCK],
                         self.server_calls('busy-stopped'))
        self.assertEqual('stopped',
                         self.nova.server('busy-stopped')['vm_state'])

    def test_task_state_error(self):
        self.assertEqual(['GET', 'GET', LOCK, RESET_ERROR, 'GET', EVACUATE,
                          'GET', STOP, 'GET', RESET_ERROR, 'GET', UNLOCK],
                         self.server_calls('busy-error'))

    def test_other_vm_state(self):
        self.assertEqual(['GET', 'GET', LOCK, RESET_ERROR, 'GET', EVACUATE,
                          'GET', STOP, 'GET', 'GET', UNLOCK],
                         self.server_calls('paused'))

    def test_resized_running_is_not_stopped(self):
        self.assertEqual(['GET', 'GET', LOCK, RESET_ERROR, 'GET', EVACUATE,
                          'GET', 'GET', UNLOCK], self.server_calls('resized'))

    def test_resized_shut_down_is_stopped(self):
        self.assertEqual(['GET', 'GET', LOCK, RESET_ERROR, 'GET', EVACUATE,
                          'GET', STOP, 'GET', 'GET', UNLOCK],
                         self.server_calls('resized-off'))


class EvacuationFailureTestCase(base.RecoveryTestCase):

    servers = [base.server('vm')]

    def assert_failed(self, notification, message):
        self.assertEqual(Status.ERROR, notification.status)
        [move] = self.engine.vmoves(notification)
        self.assertEqual(('failed', message), (move.status, move.message))
        self.assertIsNotNone(move.end_time)
        failure = ("Failed to evacuate instances '%s' from host "
                   "'compute-1'" % self.id_of('vm'))
        details = self.engine.progress(notification)
        self.assertEqual(('EvacuateInstancesTask', 'REVERTED'),
                         details[2][:2])
        self.assertEqual(failure, details[2][2][-1])
        self.assertNotIn('Evacuation process completed!', details[2][2])
        error = self.engine.rpc.payload_data('notification.process.error')
        self.assertEqual('running', error['status'])
        fault = error['fault']['masakari_object.data']
        self.assertEqual(
            {'exception': 'str', 'exception_message': failure,
             'function_name': 'unknown', 'module_name': 'unknown',
             'traceback': 'NoneType: None\n'}, fault)
        return move

    def test_server_ends_in_error(self):
        self.nova.update_server('vm', fail_evacuate=True)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        move = self.assert_failed(notification, 'Failed to evacuate '
                                  'instance %s' % self.id_of('vm'))
        self.assertIsNotNone(move.start_time)
        # Unlocked although the evacuation failed.
        self.assertEqual(['GET', 'GET', LOCK, EVACUATE, 'GET', UNLOCK],
                         self.server_calls('vm'))

    def test_evacuation_refused(self):
        self.nova.add_fault(method='POST', path='/servers/*/action',
                            action='evacuate', status=409,
                            message='Cannot evacuate')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assert_failed(notification, 'Conflict')
        self.assertEqual(['GET', 'GET', LOCK, EVACUATE, UNLOCK],
                         self.server_calls('vm'))

    def test_nova_server_error_is_recorded(self):
        self.nova.add_fault(method='POST', path='/servers/*/action',
                            action='evacuate', status=500,
                            message='Nova broke')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        [move] = self.engine.vmoves(notification)
        self.assertEqual(Status.ERROR, notification.status)
        self.assertTrue(move.message.startswith('Nova broke (HTTP 500)'),
                        move.message)

    def test_lookup_failure_fails_the_move_without_unlock(self):
        self.nova.add_fault(method='GET', path='/servers/%s'
                            % self.id_of('vm'), status=404,
                            message='gone')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        move = self.assert_failed(notification,
                                  'Resource could not be found.')
        self.assertIsNone(move.start_time)
        self.assertEqual(['GET'], self.server_calls('vm'))

    def test_evacuation_timeout(self):
        self.config(wait_period_after_evacuation=0)
        self.nova.update_server('vm', evacuate_delay=30)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assert_failed(notification, 'Failed reason: timeout.')

    def test_stop_timeout_after_evacuation(self):
        self.config(wait_period_after_power_off=0)
        self.nova.update_server('vm', vm_state='error')
        self.nova.set_delays(stop=30)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assert_failed(notification, 'Failed reason: timeout.')

    def test_stop_refused_after_evacuation_keeps_the_reason(self):
        # 22.0.0 recorded an UnboundLocalError text here
        # (doc/source/user/differences/engine.rst).
        self.nova.update_server('vm', vm_state='error')
        self.nova.add_fault(method='POST', path='/servers/*/action',
                            action='os-stop', status=409,
                            message='Cannot stop')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assert_failed(notification, 'Conflict')
        self.assertEqual(['GET', 'GET', LOCK, EVACUATE, 'GET', STOP, UNLOCK],
                         self.server_calls('vm'))

    def test_a_move_left_unfinished_fails_the_recovery(self):
        # The database fails after the evacuation was requested: the move
        # stays 'ongoing' (22.0.0 then reported success).
        real_update = db_api.vmove_update

        def update(context, uuid, values):
            if values.get('status') == fields.VMoveStatus.ONGOING or (
                    values.get('message') or '').startswith(
                        'Failed reason: the recovery ended'):
                return real_update(context, uuid, values)
            raise db_exc.DBError('database gone')

        with mock.patch.object(db_api, 'vmove_update', side_effect=update):
            notification = self.host_down(event='STOPPED',
                                          host_status='NORMAL')
        self.assertEqual(Status.ERROR, notification.status)
        # The end of the recovery closes it (22.0.0 and earlier versions of
        # this engine left it 'ongoing' for good).
        [move] = self.engine.vmoves(notification)
        self.assertEqual(
            ('failed', 'Failed reason: the recovery ended (error) before '
                       'this move was confirmed.'),
            (move.status, move.message))
        self.assertIsNotNone(move.end_time)
        message = ("Instances '%s' were not evacuated from host 'compute-1': "
                   "vmove status is still pending" % self.id_of('vm'))
        self.assertEqual(message, self.messages(notification)[
            'EvacuateInstancesTask'][-1])

    def test_unlock_failure_is_only_logged(self):
        self.nova.add_fault(method='POST', path='/servers/*/action',
                            action='unlock', status=500, message='no')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        [move] = self.engine.vmoves(notification)
        self.assertEqual('succeeded', move.status)
        self.assertTrue(self.nova.server('vm')['locked'])


class WaitAfterDisableTestCase(base.RecoveryTestCase):
    """What happens between disabling the failed host and evacuating."""

    servers = [base.server('vm')]

    def test_fixed_wait_by_default(self):
        self.config(wait_period_after_service_update=180)
        with mock.patch('time.sleep') as sleep:
            notification = self.host_down(event='STOPPED',
                                          host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertIn(mock.call(180), sleep.call_args_list)

    def test_opt_in_polling_starts_once_nova_sees_the_host_down(self):
        self.config(wait_period_after_service_update=180)
        self.config(poll_compute_service_down=True, group='host_failure')
        with mock.patch('time.sleep') as sleep:
            notification = self.host_down(event='STOPPED',
                                          host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertNotIn(mock.call(180), sleep.call_args_list)
        self.assertEqual(
            ['GET /os-services?host=compute-1&binary=nova-compute',
             'PUT /os-services/%s' % self.service_id(base.FAILED_HOST),
             'GET /os-services?host=compute-1&binary=nova-compute',
             'GET /servers/detail?all_tenants=True&host=compute-1'],
            self.nova.nova_requests()[:4])

    def test_opt_in_polling_goes_on_after_the_wait(self):
        self.config(wait_period_after_service_update=0)
        self.config(poll_compute_service_down=True, group='host_failure')
        self.nova.set_host_state(base.FAILED_HOST, 'up')
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        # Nova then refuses the evacuation of a host it sees up.
        self.assertEqual(Status.ERROR, notification.status)
        [move] = self.engine.vmoves(notification)
        self.assertIn('Compute service of compute-1 is still in use.',
                      move.message)


class EvacuationPollTestCase(base.RecoveryTestCase):
    """How often an evacuation is checked: verify_interval unless
    [host_failure]/evacuation_poll_interval is set.
    """

    servers = [base.server('vm')]

    def evacuate(self, seconds):
        """Recover with an evacuation of ``seconds``; return the pauses
        between two checks and the server's calls.
        """
        self.nova.set_delays(evacuate=seconds)
        clock = mock.Mock(wraps=time)
        with mock.patch.object(waiting, 'time', clock):
            notification = self.host_down(event='STOPPED',
                                          host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        return ([pause for (pause,), _ in clock.sleep.call_args_list],
                self.server_calls('vm'))

    def test_unset_every_verify_interval_with_the_same_calls(self):
        self.config(verify_interval=1)
        pauses, calls = self.evacuate(0.3)
        self.assertEqual([1], pauses)
        self.assertEqual(['GET', 'GET', LOCK, EVACUATE, 'GET', 'GET', 'GET',
                          UNLOCK], calls)

    def test_set_checks_at_that_interval(self):
        self.config(verify_interval=1)
        self.config(evacuation_poll_interval=0.05, group='host_failure')
        pauses, calls = self.evacuate(0.3)
        self.assertGreaterEqual(len(pauses), 4)
        self.assertEqual({0.05}, set(pauses))
        # One check after each pause (none before the first), then the
        # read of the destination.
        self.assertEqual(['GET', 'GET', LOCK, EVACUATE] +
                         ['GET'] * (len(pauses) + 1) + [UNLOCK], calls)

    def test_backs_off_to_verify_interval(self):
        self.config(verify_interval=2)
        self.config(evacuation_poll_interval=0.25, group='host_failure')
        interval = evacuation.confirmation_interval()
        self.assertEqual([0.25, 0.25, 0.5, 1.5, 2, 2],
                         [interval(waited)
                          for waited in (0, 2.5, 5, 15, 20, 600)])

    def test_never_slower_than_the_poll_interval_itself(self):
        self.config(evacuation_poll_interval=0.25, group='host_failure')
        interval = evacuation.confirmation_interval()
        self.assertEqual([0.25, 0.25], [interval(0), interval(600)])

    def test_unset_is_verify_interval(self):
        self.config(verify_interval=3)
        self.assertEqual(3, evacuation.confirmation_interval())


class VMoveWritesTestCase(base.RecoveryTestCase):
    """The end time is written with the outcome, never after it."""

    servers = [base.server('vm')]

    def saved(self):
        writes = []
        save = objects.VMove.save

        def recorded(move):
            writes.append((move.status, move.end_time is not None))
            return save(move)

        with mock.patch.object(objects.VMove, 'save', autospec=True,
                               side_effect=recorded):
            notification = self.host_down(event='STOPPED',
                                          host_status='NORMAL')
        return notification, writes

    def test_succeeded(self):
        notification, writes = self.saved()
        self.assertEqual([('ongoing', False), ('succeeded', True)], writes)
        [move] = self.engine.vmoves(notification)
        self.assertLessEqual(move.start_time, move.end_time)

    def test_failed(self):
        self.nova.add_fault(method='POST', path='/servers/*/action',
                            action='evacuate', status=409,
                            message='Cannot evacuate')
        notification, writes = self.saved()
        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual([('ongoing', False), ('failed', True)], writes)
