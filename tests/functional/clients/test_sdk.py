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

"""openstacksdk's instance_ha proxy (4.22) in-process against our API.

Plain SDK use sends the segments' pinned microversion 1.2 and no header for
hosts, notifications and vmoves; a configured default
microversion is sent on every call.
"""

import datetime
import json
from urllib import parse

from openstack import exceptions
from oslo_utils import uuidutils

from tests.fixtures import api as api_fixture
from tests.functional.clients import base


class SDKTest(base.ClientsTestCase):

    def setUp(self):
        super().setUp()
        self.ha = self.sdk().instance_ha

    def versions_sent(self, path_prefix):
        return {request.headers.get('Openstack-Api-Version') for request in
                self.api.requests_to(path_prefix)}

    def test_segments(self):
        disabled = self.ha.create_segment(
            name='seg-a', recovery_method='auto', service_type='COMPUTE',
            is_enabled=False, description='d1')
        enabled = self.ha.create_segment(
            name='seg-b', recovery_method='reserved_host',
            service_type='COMPUTE')
        self.assertEqual((False, True),
                         (disabled.is_enabled, enabled.is_enabled))
        self.assertFalse(self.rest('GET', '/segments/' + disabled.uuid,
                                   200).json()['segment']['enabled'])

        self.assertEqual(['seg-a'], [s.name for s in
                                     self.ha.segments(is_enabled=False)])
        self.assertEqual(['seg-b'], [s.name for s in
                                     self.ha.segments(is_enabled=True)])
        self.assertEqual(['seg-b'], [s.name for s in self.ha.segments(
            recovery_method='reserved_host')])
        self.assertEqual(['seg-a', 'seg-b'], [s.name for s in self.ha.segments(
            limit=1, sort_key='name', sort_dir='asc')])
        # Pages follow the integer id of each page's last item.
        markers = [parse.parse_qs(request.query)['marker'] for request in
                   self.api.requests_to('/v1/segments')
                   if 'marker=' in request.query]
        self.assertEqual([[str(disabled.id)], [str(enabled.id)]], markers)

        updated = self.ha.update_segment(disabled.uuid, description='d2',
                                         is_enabled=True)
        self.assertEqual(('d2', True),
                         (updated.description, updated.is_enabled))
        put, = self.api.requests_to('/v1/segments/', 'PUT')
        self.assertEqual({'segment': {'description': 'd2', 'enabled': True}},
                         json.loads(put.body))
        self.assertEqual('d2', self.ha.get_segment(disabled.uuid).description)

        self.ha.delete_segment(disabled.uuid)
        self.rest('GET', '/segments/' + disabled.uuid, 404)
        self.assertEqual({'instance-ha 1.2', None},
                         self.versions_sent('/v1'))
        self.assertEqual({'instance-ha 1.2'},
                         self.versions_sent('/v1/segments'))

    def test_hosts(self):
        segment = self.ha.create_segment(
            name='seg-a', recovery_method='auto', service_type='COMPUTE')
        reserved = self.ha.create_host(
            segment.uuid, name='compute-1', type='COMPUTE',
            control_attributes='SSH', reserved=True)
        other = self.ha.create_host(
            segment.uuid, name='compute-2', type='COMPUTE',
            control_attributes='SSH')
        self.assertEqual((True, False, segment.uuid),
                         (reserved.reserved, reserved.on_maintenance,
                          reserved.failover_segment_id))

        self.assertEqual(['compute-1'], [h.name for h in self.ha.hosts(
            segment.uuid, reserved=True)])
        self.assertEqual(['compute-2'], [h.name for h in self.ha.hosts(
            segment.uuid, reserved=False)])

        self.ha.update_host(other.uuid, segment.uuid, on_maintenance=True)
        shown = self.ha.get_host(other.uuid, segment.uuid)
        self.assertTrue(shown.on_maintenance)
        self.ha.delete_host(other.uuid, segment.uuid)
        self.assertEqual(['compute-1'],
                         [h.name for h in self.ha.hosts(segment.uuid)])
        self.assertEqual({None},
                         self.versions_sent('/v1/segments/%s/hosts' %
                                            segment.uuid))

    def test_notifications_and_vmoves(self):
        segment = self.ha.create_segment(
            name='seg-a', recovery_method='auto', service_type='COMPUTE')
        host = self.ha.create_host(segment.uuid, name='compute-1',
                                   type='COMPUTE', control_attributes='SSH')
        generated = datetime.datetime(2026, 1, 1, 10, 0, 0, 250000)
        created = self.ha.create_notification(
            type='COMPUTE_HOST', hostname='compute-1',
            generated_time=generated, payload={'event': 'STOPPED'})
        self.assertEqual(('new', host.uuid),
                         (created.status, created.source_host_uuid))
        post, = self.api.requests_to('/v1/notifications', 'POST')
        self.assertEqual('2026-01-01T10:00:00.250000',
                         json.loads(post.body)['notification'][
                             'generated_time'])
        process = self.ha.create_notification(
            type='PROCESS', hostname='compute-1',
            generated_time=generated,
            payload={'event': 'STOPPED', 'process_name': 'nova-compute'})

        self.assertEqual([process.notification_uuid], [
            n.notification_uuid for n in self.ha.notifications(
                type='PROCESS')])
        self.assertEqual(2, len(list(self.ha.notifications(
            generated_since=datetime.datetime(2026, 1, 1, 9)))))
        self.assertEqual([], list(self.ha.notifications(
            generated_since=datetime.datetime(2026, 1, 1, 11))))

        uuid = created.notification_uuid
        shown = self.ha.get_notification(uuid)
        self.assertEqual(uuid, shown.notification_uuid)
        self.assertIsNone(shown.recovery_workflow_details)

        self.wait_processed(uuid)
        vmove, = self.ha.vmoves(uuid)
        self.assertEqual(('compute-1', 'evacuation', 'pending'),
                         (vmove.source_host, vmove.type, vmove.status))
        shown_vmove = self.ha.get_vmove(vmove.uuid, uuid)
        stored = self.rest('GET', '/notifications/%s/vmoves/%s' % (
            uuid, vmove.uuid), 200).json()['vmove']
        self.assertEqual((stored['instance_uuid'], stored['instance_name']),
                         (shown_vmove.server_id, shown_vmove.server_name))
        self.assertEqual({None}, self.versions_sent('/v1/notifications'))

    def test_default_microversion_shows_recovery_progress(self):
        ha = self.sdk(instance_ha_api_version='1.1').instance_ha
        segment = ha.create_segment(
            name='seg-a', recovery_method='auto', service_type='COMPUTE')
        ha.create_host(segment.uuid, name='compute-1', type='COMPUTE',
                       control_attributes='SSH')
        created = ha.create_notification(
            type='COMPUTE_HOST', hostname='compute-1',
            generated_time=datetime.datetime(2026, 1, 1, 10),
            payload={'event': 'STOPPED'})
        shown = ha.get_notification(created.notification_uuid)
        self.assertEqual(
            [step['name'] for step in api_fixture.WORKFLOW_DETAILS],
            [step['name'] for step in shown.recovery_workflow_details])
        self.assertEqual(
            api_fixture.WORKFLOW_DETAILS[0]['progress_details'][1]['message'],
            shown.recovery_workflow_details[0]['progress_details'][1][
                'message'])
        self.assertEqual({'instance-ha 1.1'},
                         self.versions_sent('/v1/notifications'))

    def test_default_microversion_is_checked_against_the_version_document(
            self):
        connection = self.sdk(instance_ha_api_version='1.4')
        error = self.assertRaises(exceptions.ConfigException, getattr,
                                  connection, 'instance_ha')
        self.assertIn('the cloud only supports a minimum of 1.0 and a '
                      'maximum of 1.3.', str(error))
        self.assertEqual(['/v1'], [request.path for request in
                                   self.api.requests_to('/v1')])

    def test_errors_carry_the_servers_message(self):
        missing = uuidutils.generate_uuid()
        error = self.assertRaises(exceptions.NotFoundException,
                                  self.ha.get_segment, missing)
        self.assertIn('No failover segment with id %s.' % missing,
                      str(error))
        segment = self.ha.create_segment(
            name='seg-a', recovery_method='auto', service_type='COMPUTE')
        error = self.assertRaises(exceptions.ConflictException,
                                  self.ha.create_segment, name='seg-a',
                                  recovery_method='auto',
                                  service_type='COMPUTE')
        self.assertIn('Failover segment with name seg-a already exists.',
                      str(error))
        error = self.assertRaises(
            exceptions.BadRequestException, self.ha.create_host,
            segment.uuid, name='not-in-nova', type='COMPUTE',
            control_attributes='SSH')
        self.assertIn('Compute service with name not-in-nova could not be '
                      'found.', str(error))
        error = self.assertRaises(
            exceptions.BadRequestException, self.ha.create_notification,
            type='COMPUTE_HOST', hostname='not-a-host',
            generated_time=datetime.datetime(2026, 1, 1),
            payload={'event': 'STOPPED'})
        self.assertIn('Host with name not-a-host could not be found.',
                      str(error))
