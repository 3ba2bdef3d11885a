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

"""VM and PROCESS notifications, and the rules that refuse or ignore
notifications, through the real masakari-api and masakari-engine (Nova
calls and bus notifications).
"""

from tests.e2e import base
from tests.e2e import nova_calls
from tests.e2e import test_uwsgi

HA = {'HA_Enabled': 'True'}
HOST_DOWN = {'event': 'STOPPED', 'host_status': 'NORMAL',
             'cluster_status': 'OFFLINE'}
NOVA_COMPUTE_DOWN = {'event': 'STOPPED', 'process_name': 'nova-compute'}
API = base.API_PUBLISHER
ENGINE = base.ENGINE_PUBLISHER
CREATED = [('notification.create.start', API),
           ('notification.create.end', API)]


class TestNotifications(test_uwsgi.CrudScenario, base.E2ETestCase):
    """The console script masakari-api (eventlet server) and the engine."""

    topology = {
        'delays': base.INSTANT,
        'hosts': ['crud-host', 'vm-host', 'bad-host', 'proc-host', 'dup-host',
                  'off-host', 'maint-host'],
        'servers': [{'name': 'vm-inst', 'host': 'vm-host', 'metadata': HA},
                    {'name': 'bad-inst', 'host': 'bad-host',
                     'metadata': HA}],
    }

    def _register(self, host, enabled=None, on_maintenance=False):
        """A segment of its own for ``host``; returns the host record."""
        segment = self.api.create_segment(self.unique(host), 'auto',
                                          enabled=enabled)
        self.segment_uuid = segment['uuid']
        return self.api.create_host(segment['uuid'], host,
                                    on_maintenance=on_maintenance)

    def _details(self, notification_uuid):
        notification = self.api.notification(notification_uuid)
        return [(task['name'], task['state'],
                 [(item['message'], item['progress'])
                  for item in task['progress_details']])
                for task in notification['recovery_workflow_details']]

    def assert_nova_calls(self, expected):
        actual = nova_calls.fold(self.simulator.nova_calls())
        self.assertEqual(expected, nova_calls.comparable(expected, actual))

    def test_vm_notification_restarts_the_instance(self):
        self._register('vm-host')
        server_id = self.simulator.server('vm-inst')['id']
        self.simulator.reset_calls()
        self.bus.clear()
        notification = self.post_notification('VM', 'vm-host', {
            'event': 'LIFECYCLE', 'instance_uuid': server_id,
            'vir_domain_event': 'STOPPED_FAILED'})
        uuid = notification['notification_uuid']
        self.assertEqual('finished',
                         self.api.wait_for_notification(uuid)['status'])

        self.assert_nova_calls(nova_calls.recover_instance(server_id))
        self.assertEqual('active',
                         self.simulator.server('vm-inst')['vm_state'])
        events = self.assert_events(CREATED + [
            ('notification.process.start', ENGINE),
            ('notification.process.end', ENGINE)])
        self.assertEqual(('VM', 'new'), (self.payload(events[2])['type'],
                                         self.payload(events[2])['status']))
        self.assertEqual([
            ('StopInstanceTask', 'SUCCESS', [
                ('Stopping instance: %s' % server_id, '0.0'),
                ("Stopped instance: '%s'" % server_id, '1.0')]),
            ('StartInstanceTask', 'SUCCESS', [
                ("Starting instance: '%s'" % server_id, '0.0'),
                ("Instance started: '%s'" % server_id, '1.0')]),
            ('ConfirmInstanceActiveTask', 'SUCCESS', [
                ("Confirming instance '%s' vm_state is ACTIVE" % server_id,
                 '0.0'),
                ("Confirmed instance '%s' vm_state is ACTIVE" % server_id,
                 '1.0')]),
        ], self._details(uuid))
        response = self.api.request('GET', '/notifications/%s/vmoves' % uuid,
                                    version='1.3')
        self.assertEqual(400, response.status_code)
        self.assertEqual('This notification %s without vm moves.' % uuid,
                         response.json()['badRequest']['message'])

    def test_failed_recovery_is_retried_once_then_failed(self):
        self._register('bad-host')
        server_id = self.simulator.server('bad-inst')['id']
        self.simulator.add_fault(service='nova', method='POST',
                                 path='/servers/*/action', action='os-start',
                                 status=503, message='Nova is restarting')
        self.bus.clear()
        notification = self.post_notification('VM', 'bad-host', {
            'event': 'LIFECYCLE', 'instance_uuid': server_id,
            'vir_domain_event': 'STOPPED_FAILED'})
        uuid = notification['notification_uuid']
        # error, then the periodic task's single retry fails too.
        self.assertEqual('failed', self.api.wait_for_notification(
            uuid, statuses=('failed', 'finished'), timeout=30)['status'])

        failure = ("Failed to execute instance failure flow for "
                   "notification '%s'." % uuid)
        events = self.assert_events(CREATED + [
            ('notification.process.start', ENGINE),
            ('notification.process.error', ENGINE),
            ('notification.process.start', ENGINE),
            ('notification.process.error', ENGINE)])
        self.assertEqual('error', self.payload(events[4])['status'])
        for error in (events[3], events[5]):
            self.assertEqual('ERROR', error['priority'])
            fault = self.payload(error)['fault']['masakari_object.data']
            self.assertEqual(
                {'exception': 'str', 'exception_message': failure,
                 'function_name': 'unknown', 'module_name': 'unknown',
                 'traceback': 'NoneType: None\n'}, fault)
        starts = [call for call in self.simulator.nova_calls()
                  if call['body'] == {'os-start': None}]
        self.assertEqual([503, 503], [call['status'] for call in starts])

    def test_process_notification_disables_the_compute_service(self):
        host = self._register('proc-host')
        service_id = self.simulator.service('proc-host')['id']
        self.simulator.reset_calls()
        self.bus.clear()
        notification = self.post_notification('PROCESS', 'proc-host',
                                              NOVA_COMPUTE_DOWN)
        uuid = notification['notification_uuid']
        self.assertEqual('finished',
                         self.api.wait_for_notification(uuid)['status'])

        self.assert_nova_calls(
            nova_calls.recover_process('proc-host', service_id))
        service = self.simulator.service('proc-host')
        self.assertEqual(('disabled', nova_calls.PROCESS_DISABLE_REASON),
                         (service['status'], service['disabled_reason']))
        events = self.assert_events(CREATED + [
            ('notification.process.start', ENGINE),
            ('host.update.start', ENGINE),
            ('host.update.end', ENGINE),
            ('notification.process.end', ENGINE)])
        updated = self.payload(events[4])
        self.assertEqual(('proc-host', True),
                         (updated['name'], updated['on_maintenance']))
        self.assertEqual([
            ('DisableComputeNodeTask', 'SUCCESS', [
                ("Disabling compute service on host: 'proc-host'", '0.0'),
                ("Disabled compute service on host: 'proc-host'", '1.0')]),
            ('ConfirmComputeNodeDisabledTask', 'SUCCESS', [
                ("Confirming compute service is disabled on host: "
                 "'proc-host'", '0.0'),
                ("Confirmed compute service is disabled on host: "
                 "'proc-host'", '1.0')]),
        ], self._details(uuid))
        shown = self.api.call('GET', '/segments/%s/hosts/%s' % (
            self.segment_uuid, host['uuid']))['host']
        self.assertTrue(shown['on_maintenance'])

    def test_duplicate_notification_is_refused(self):
        host = self._register('dup-host')
        payload = {'event': 'STARTED', 'process_name': 'nova-compute'}
        when = base.generated_time()
        first = self.api.post_notification('PROCESS', 'dup-host', payload,
                                           when)
        self.assertEqual(202, first.status_code, first.text)
        second = self.api.post_notification('PROCESS', 'dup-host', payload,
                                            when)
        self.assertEqual(409, second.status_code)
        self.assertEqual(
            {'conflictingRequest': {
                'code': 409,
                'message': 'Notification received from host dup-host of '
                           'type PROCESS is duplicate.'}}, second.json())
        listed = self.api.call('GET', '/notifications?source_host_uuid=%s'
                               % host['uuid'])['notifications']
        self.assertEqual([first.json()['notification']['notification_uuid']],
                         [n['notification_uuid'] for n in listed])

    def test_host_on_maintenance_is_refused(self):
        self._register('maint-host', on_maintenance=True)
        self.bus.clear()
        response = self.api.post_notification(
            'COMPUTE_HOST', 'maint-host', HOST_DOWN, base.generated_time())
        self.assertEqual(409, response.status_code)
        self.assertEqual(
            "Notification received from host maint-host of type "
            "'COMPUTE_HOST' is ignored as the host is already under "
            "maintenance.",
            response.json()['conflictingRequest']['message'])
        self.assertEqual([], self.bus.drain())

    def test_disabled_segment_is_ignored(self):
        host = self._register('off-host', enabled=False)
        self.simulator.set_host_state('off-host', 'down')
        self.simulator.reset_calls()
        self.bus.clear()
        notification = self.post_notification('COMPUTE_HOST', 'off-host',
                                              HOST_DOWN)
        final = self.api.wait_for_notification(
            notification['notification_uuid'])
        self.assertEqual(
            ('ignored', 'Recovery aboart: the segment HA is disabled.'),
            (final['status'], final['message']))
        self.assertEqual([], self.simulator.nova_calls())
        self.assert_events(CREATED)
        shown = self.api.call('GET', '/segments/%s/hosts/%s' % (
            self.segment_uuid, host['uuid']))['host']
        self.assertFalse(shown['on_maintenance'])
