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

"""VM notifications: the instance failure flow against the simulated
cloud.
"""

import threading

from masakari.objects import fields
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
STOP, START = {'os-stop': None}, {'os-start': None}
RESET_ACTIVE = {'os-resetState': {'state': 'active'}}


class InstanceFailureTestCase(base.RecoveryTestCase):

    servers = [base.server('vm', host='compute-2')]
    hosts = ['compute-1', 'compute-2']

    def instance_down(self, event='LIFECYCLE', domain_event='STOPPED_FAILED',
                      name='vm'):
        return self.host_down(type='VM', event=event,
                              vir_domain_event=domain_event,
                              instance_uuid=self.id_of(name))

    def test_call_sequence_and_progress(self):
        notification = self.instance_down()

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(['GET', STOP, 'GET', 'GET', START, 'GET'],
                         self.server_calls('vm'))
        self.assertEqual(len(self.nova.nova_requests()),
                         len(self.server_calls('vm')))
        self.assertEqual('active', self.nova.server('vm')['vm_state'])
        vm = self.id_of('vm')
        self.assertEqual([
            ('StopInstanceTask', 'SUCCESS',
             ['Stopping instance: %s' % vm, "Stopped instance: '%s'" % vm]),
            ('StartInstanceTask', 'SUCCESS',
             ["Starting instance: '%s'" % vm, "Instance started: '%s'" % vm]),
            ('ConfirmInstanceActiveTask', 'SUCCESS',
             ["Confirming instance '%s' vm_state is ACTIVE" % vm,
              "Confirmed instance '%s' vm_state is ACTIVE" % vm]),
        ], self.engine.progress(notification))
        self.assert_events('notification.process.start',
                           'notification.process.end')

    def test_every_recognised_event_pair(self):
        for event, domain_event in (('QEMU_GUEST_AGENT_ERROR',
                                     'STOPPED_FAILED'),
                                    ('IO_ERROR', 'IO_ERROR_REPORT')):
            notification = self.instance_down(event, domain_event)
            self.assertEqual(Status.FINISHED, notification.status)

    def test_other_event_pairs_are_ignored_silently(self):
        for event, domain_event in (('LIFECYCLE', 'IO_ERROR_REPORT'),
                                    ('lifecycle', 'STOPPED_FAILED'),
                                    ('REBOOT', 'STOPPED_FAILED')):
            notification = self.instance_down(event, domain_event)
            self.assertEqual(Status.IGNORED, notification.status)
            self.assertEqual([], self.nova.nova_requests())
            # No process.end for an invalid VM event, as in 22.0.0.
            self.assert_events('notification.process.start')

    def test_resized_is_reset_to_active_first(self):
        self.nova.update_server('vm', vm_state='resized')
        notification = self.instance_down()
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(['GET', RESET_ACTIVE, STOP, 'GET', 'GET', START,
                          'GET'], self.server_calls('vm'))

    def test_already_stopped_is_only_started(self):
        self.nova.update_server('vm', vm_state='stopped', power_state=4)
        notification = self.instance_down()
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(['GET', 'GET', 'GET', START, 'GET'],
                         self.server_calls('vm'))
        self.assertEqual(["Stopped instance: '%s'" % self.id_of('vm')],
                         self.messages(notification)['StopInstanceTask'])

    def test_not_ha_enabled_is_skipped(self):
        self.nova.update_server('vm', metadata={'HA_Enabled': 'no'})
        notification = self.instance_down()
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(['GET'], self.server_calls('vm'))
        self.assertEqual(
            [('StopInstanceTask', 'REVERTED',
              ['Skipping recovery for instance: %s as it is not Ha_Enabled'
               % self.id_of('vm')])],
            self.engine.progress(notification))
        self.assertEqual('notification.process.end',
                         self.engine.rpc.event_types[-1])

    def test_process_all_instances(self):
        self.config(process_all_instances=True, group='instance_failure')
        self.nova.update_server('vm', metadata={})
        self.assertEqual(Status.FINISHED, self.instance_down().status)
        self.assertEqual('active', self.nova.server('vm')['vm_state'])

    def test_paused_is_ignored_with_an_error_notification(self):
        self.nova.update_server('vm', vm_state='paused')
        notification = self.instance_down()
        self.assertEqual(Status.IGNORED, notification.status)
        self.assertEqual(['GET'], self.server_calls('vm'))
        message = ("Recovery of instance '%s' is ignored as it is in "
                   "'paused' state." % self.id_of('vm'))
        error = self.engine.rpc.payload_data('notification.process.error')
        self.assertEqual(
            message,
            error['fault']['masakari_object.data']['exception_message'])

    def test_stop_conflict_on_a_running_server_fails(self):
        self.nova.add_fault(method='POST', path='/servers/*/action',
                            action='os-stop', status=409, message='busy')
        notification = self.instance_down()
        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual(['GET', STOP, 'GET'], self.server_calls('vm'))
        self.assertEqual(
            ['Stopping instance: %s' % self.id_of('vm'),
             'Conflict when stopping instance: %s' % self.id_of('vm')],
            self.messages(notification)['StopInstanceTask'])
        error = self.engine.rpc.payload_data('notification.process.error')
        self.assertEqual(
            "Failed to execute instance failure flow for notification "
            "'%s'." % notification.notification_uuid,
            error['fault']['masakari_object.data']['exception_message'])

    def test_stop_conflict_on_a_stopped_server_goes_on(self):
        # Nova answers 409 (slowly) while the server finishes stopping: as
        # soon as the stop request arrives, the server becomes stopped.
        self.nova.add_fault(method='POST', path='/servers/*/action',
                            action='os-stop', status=409, message='busy',
                            hang=1)
        arrived = threading.Event()

        def stop_when_asked():
            while not arrived.wait(0.01):
                if any(call['body'] == STOP
                       for call in self.nova.calls('nova')):
                    self.nova.update_server('vm', vm_state='stopped',
                                            power_state=4)
                    arrived.set()

        watcher = threading.Thread(target=stop_when_asked, daemon=True)
        watcher.start()
        self.addCleanup(arrived.set)
        notification = self.instance_down()
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(['GET', STOP, 'GET', 'GET', 'GET', START, 'GET'],
                         self.server_calls('vm'))

    def test_stop_timeout(self):
        self.config(wait_period_after_power_off=0)
        self.nova.set_delays(stop=30)
        notification = self.instance_down()
        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual('Failed to stop instance %s' % self.id_of('vm'),
                         self.messages(notification)['StopInstanceTask'][-1])

    def test_start_timeout(self):
        self.config(wait_period_after_power_on=0)
        self.nova.set_delays(start=30)
        notification = self.instance_down()
        self.assertEqual(Status.ERROR, notification.status)
        details = self.engine.progress(notification)
        self.assertEqual(
            ('ConfirmInstanceActiveTask', 'REVERTED',
             ["Confirming instance '%s' vm_state is ACTIVE" % self.id_of('vm'),
              'Failed to start instance %s' % self.id_of('vm')]),
            details[-1])
        error = self.engine.rpc.payload_data('notification.process.error')
        self.assertEqual(
            'Failed to start instance %s' % self.id_of('vm'),
            error['fault']['masakari_object.data']['exception_message'])

    def test_unknown_instance(self):
        notification = self.host_down(
            type='VM', event='LIFECYCLE', vir_domain_event='STOPPED_FAILED',
            instance_uuid='6f4bbcd4-2a9d-4e8e-9a7b-0c7c4a0a6a11')
        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual([], self.engine.progress(notification))
