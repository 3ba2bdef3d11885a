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

"""The API as operators host it under a WSGI server: masakari.wsgi.api:
application in the virtualenv's uWSGI (OS_MASAKARI_CONFIG_DIR = the test's
configuration directory), with the real engine behind it.
"""

from tests.e2e import base
from tests.e2e import nova_calls

HA = {'HA_Enabled': 'True'}
API = base.API_PUBLISHER


class CrudScenario:
    """Segment and host CRUD; needs ``crud_host`` in the topology."""

    crud_host = 'crud-host'

    def test_segment_and_host_crud(self):
        self.bus.clear()
        name = self.unique('crud')
        segment = self.api.create_segment(name, 'auto')
        uuid = segment['uuid']
        path = '/segments/%s' % uuid
        self.assertEqual(segment, self.api.call('GET', path)['segment'])
        self.assertIn(uuid, [s['uuid'] for s in self.api.call(
            'GET', '/segments')['segments']])
        updated = self.api.call('PUT', path, {'segment': {
            'description': 'rack 1', 'recovery_method': 'reserved_host'}})
        self.assertEqual(('rack 1', 'reserved_host'), (
            updated['segment']['description'],
            updated['segment']['recovery_method']))

        host = self.api.create_host(uuid, self.crud_host)
        host_path = '%s/hosts/%s' % (path, host['uuid'])
        self.assertEqual([host['uuid']], [h['uuid'] for h in self.api.call(
            'GET', path + '/hosts')['hosts']])
        unknown = self.api.request('POST', path + '/hosts', {'host': {
            'name': 'no-such-host', 'type': 'COMPUTE',
            'control_attributes': 'SSH'}})
        self.assertEqual(400, unknown.status_code)
        self.assertEqual('Compute service with name no-such-host could not '
                         'be found.',
                         unknown.json()['badRequest']['message'])
        self.assertTrue(self.api.call('PUT', host_path, {'host': {
            'reserved': True}})['host']['reserved'])

        self.api.call('DELETE', host_path, expected=204)
        self.api.call('GET', host_path, expected=404)
        self.api.call('DELETE', path, expected=204)
        self.api.call('GET', path, expected=404)
        self.assert_events([
            ('segment.create.start', API), ('segment.create.end', API),
            ('segment.update.start', API), ('segment.update.end', API),
            ('host.create.start', API), ('host.create.end', API),
            ('host.update.start', API), ('host.update.end', API),
            ('host.delete.start', API), ('host.delete.end', API),
            ('segment.delete.start', API), ('segment.delete.end', API)])


class TestUWSGI(CrudScenario, base.E2ETestCase):

    api_server = 'uwsgi'
    topology = {
        'delays': base.INSTANT,
        'hosts': ['crud-host', 'vm-host'],
        'servers': [{'name': 'vm-inst', 'host': 'vm-host', 'metadata': HA}],
    }

    def test_instance_recovery_and_its_details(self):
        segment = self.api.create_segment(self.unique('vm'), 'auto')
        self.api.create_host(segment['uuid'], 'vm-host')
        server_id = self.simulator.server('vm-inst')['id']
        self.simulator.reset_calls()
        notification = self.post_notification('VM', 'vm-host', {
            'event': 'LIFECYCLE', 'instance_uuid': server_id,
            'vir_domain_event': 'STOPPED_FAILED'})
        uuid = notification['notification_uuid']
        self.assertEqual('finished',
                         self.api.wait_for_notification(uuid)['status'])
        expected = nova_calls.recover_instance(server_id)
        self.assertEqual(expected, nova_calls.comparable(
            expected, nova_calls.fold(self.simulator.nova_calls())))
        # 1.1: the uWSGI worker asks the engine over RPC (a call).
        details = self.api.notification(uuid)['recovery_workflow_details']
        self.assertEqual(
            [('StopInstanceTask', 'SUCCESS'), ('StartInstanceTask', 'SUCCESS'),
             ('ConfirmInstanceActiveTask', 'SUCCESS')],
            [(task['name'], task['state']) for task in details])
        self.assertNotIn('recovery_workflow_details',
                         self.api.notification(uuid, version='1.0'))
