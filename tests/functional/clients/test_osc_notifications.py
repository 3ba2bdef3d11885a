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

"""The ``openstack notification`` and ``notification vmove`` commands.

python-masakariclient 8.9.0's plugin runs unchanged, as a subprocess, at its
default microversion 1.3, which shows the recovery progress of microversion
1.1; the tests check its output and the API's state.
"""

import json

from oslo_utils import uuidutils

from tests.fixtures import api as api_fixture
from tests.functional.clients import base

DEFAULT_MICROVERSION = base.OSC_MICROVERSION


def _progress(details):
    """The recovery_workflow_details keys the API sends (the client adds
    SDK resource attributes such as ``id`` and ``location``).
    """
    return [{'name': step['name'], 'progress': step['progress'],
             'state': step['state'],
             'progress_details': [
                 {key: item[key] for key in ('timestamp', 'progress',
                                             'message')}
                 for item in step['progress_details']]}
            for step in details]


class NotificationCommandsTest(base.ClientsTestCase):

    def setUp(self):
        super().setUp()
        segment = self.create_segment('seg-a')
        self.host = self.create_host(segment, 'compute-1')

    def test_create_and_show_with_recovery_progress(self):
        payload = {'event': 'STOPPED', 'host_status': 'NORMAL',
                   'cluster_status': 'OFFLINE'}
        created = self.openstack_json(
            'notification', 'create', 'COMPUTE_HOST', 'compute-1',
            '2016-01-01T01:00:00.000', json.dumps(payload))
        self.assertEqual(
            {'type': 'COMPUTE_HOST', 'status': 'new',
             'source_host_uuid': self.host['uuid'],
             'generated_time': '2016-01-01T01:00:00.000000',
             'payload': payload},
            {key: created[key] for key in ('type', 'status',
                                           'source_host_uuid',
                                           'generated_time', 'payload')})
        # Shown at 1.3: the engine's progress report (microversion 1.1).
        self.assertEqual(api_fixture.WORKFLOW_DETAILS,
                         _progress(created['recovery_workflow_details']))
        post, = self.api.requests_to('/v1/notifications', 'POST')
        self.assertEqual({'notification': {
            'type': 'COMPUTE_HOST', 'hostname': 'compute-1',
            'generated_time': '2016-01-01T01:00:00.000',
            'payload': payload}}, json.loads(post.body))

        uuid = created['notification_uuid']
        self.wait_processed(uuid)
        shown = self.openstack_json('notification', 'show', uuid)
        self.assertEqual(api_fixture.WORKFLOW_DETAILS,
                         _progress(shown['recovery_workflow_details']))

        at_1_0 = self.openstack_json('--os-ha-api-version', '1.0',
                                     'notification', 'show', uuid)
        self.assertNotIn('recovery_workflow_details', at_1_0)
        self.assertEqual(uuid, at_1_0['notification_uuid'])
        self.assertEqual('instance-ha 1.0', self.api.requests_to(
            '/v1/notifications/')[-1].headers['Openstack-Api-Version'])

    def test_vm_and_process_notifications(self):
        vm_payload = {'event': 'LIFECYCLE',
                      'instance_uuid': uuidutils.generate_uuid(),
                      'vir_domain_event': 'STOPPED_FAILED'}
        vm = self.openstack_json('notification', 'create', 'VM', 'compute-1',
                                 '2026-01-01T10:00:00Z',
                                 json.dumps(vm_payload))
        self.assertEqual(('VM', vm_payload), (vm['type'], vm['payload']))
        process = self.openstack_json(
            'notification', 'create', 'PROCESS', 'compute-1',
            '2026-01-01 10:00:00',
            '{"event": "STOPPED", "process_name": "nova-compute"}')
        self.assertEqual('PROCESS', process['type'])

        listed = self.openstack_json('notification', 'list', '--limit', '1',
                                     '--filters', 'type=PROCESS')
        self.assertEqual([process['notification_uuid']],
                         [row['notification_uuid'] for row in listed])
        self.assertEqual(
            ['notification_uuid', 'generated_time', 'status', 'type',
             'source_host_uuid', 'payload'], list(listed[0]))
        since = self.openstack_json(
            'notification', 'list', '--sort', 'type:asc',
            '--filters', 'generated-since=2026-01-01T09:59:59')
        self.assertEqual(['PROCESS', 'VM'], [row['type'] for row in since])
        self.assertEqual([], self.openstack_json(
            'notification', 'list',
            '--filters', 'generated-since=2026-01-01T10:00:01'))

    def test_refusals_are_the_servers(self):
        arguments = ('notification', 'create', 'COMPUTE_HOST', 'compute-1',
                     '2026-01-01T10:00:00', '{"event": "STOPPED"}')
        self.openstack(*arguments)
        duplicate = self.openstack(*arguments, expect_status=1)
        self.assertIn('Notification received from host compute-1 of type '
                      'COMPUTE_HOST is duplicate.', duplicate.stderr)
        unknown = self.openstack('notification', 'create', 'PROCESS',
                                 'no-such-host', '2026-01-01T10:00:00',
                                 '{"event": "STOPPED", "process_name": "x"}',
                                 expect_status=1)
        self.assertIn('Host with name no-such-host could not be found.',
                      unknown.stderr)
        self.assertEqual(1, len(self.rest('GET', '/notifications',
                                          200).json()['notifications']))


class VMoveCommandsTest(base.ClientsTestCase):

    def setUp(self):
        super().setUp()
        segment = self.create_segment('seg-a')
        self.create_host(segment, 'compute-1')

    def test_list_and_show(self):
        notification = self.create_notification()
        uuid = notification['notification_uuid']
        self.wait_processed(uuid)
        stored, = self.rest('GET', '/notifications/%s/vmoves' % uuid,
                            200).json()['vmoves']

        listed = self.openstack_json('notification', 'vmove', 'list', uuid)
        self.assertEqual(
            [{'uuid': stored['uuid'], 'server_id': stored['instance_uuid'],
              'server_name': stored['instance_name'],
              'source_host': 'compute-1', 'dest_host': None,
              'start_time': None, 'end_time': None, 'type': 'evacuation',
              'status': 'pending'}], listed)

        shown = self.openstack_json('notification', 'vmove', 'show', uuid,
                                    stored['uuid'])
        self.assertEqual(dict(listed[0], message=None,
                              created_at=stored['created_at'],
                              updated_at=None), shown)
        self.assertEqual(
            [DEFAULT_MICROVERSION] * 2,
            [request.headers['Openstack-Api-Version'] for request in
             self.api.requests_to('/v1/notifications/%s/vmoves' % uuid)])

    def test_refusals_are_the_servers(self):
        process = self.create_notification(
            type='PROCESS',
            payload={'event': 'STOPPED', 'process_name': 'nova-compute'})
        uuid = process['notification_uuid']
        result = self.openstack('notification', 'vmove', 'list', uuid,
                                expect_status=1)
        self.assertIn('This notification %s without vm moves.' % uuid,
                      result.stderr)

        host_failure = self.create_notification()['notification_uuid']
        missing = uuidutils.generate_uuid()
        result = self.openstack('notification', 'vmove', 'show',
                                host_failure, missing, expect_status=1)
        self.assertIn(missing, result.stderr)
