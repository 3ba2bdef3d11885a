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

"""The ``openstack segment`` and ``segment host`` commands against our API.

python-masakariclient 8.9.0's plugin runs unchanged, as a subprocess, at its
default microversion 1.3; the tests check its output and the
state the API is left in.
"""

import json

from oslo_utils import uuidutils

from tests.functional.clients import base

DEFAULT_MICROVERSION = base.OSC_MICROVERSION


class SegmentCommandsTest(base.ClientsTestCase):

    def test_create_update_show_delete(self):
        created = self.openstack_json(
            'segment', 'create', 'seg-a', 'auto', 'COMPUTE',
            '--is_enabled', 'False', '--description', 'd1')
        self.assertEqual(
            {'name': 'seg-a', 'recovery_method': 'auto',
             'service_type': 'COMPUTE', 'description': 'd1',
             'is_enabled': False},
            {key: created[key] for key in ('name', 'recovery_method',
                                           'service_type', 'description',
                                           'is_enabled')})
        post, = self.api.requests_to('/v1/segments', 'POST')
        self.assertEqual(DEFAULT_MICROVERSION,
                         post.headers['Openstack-Api-Version'])
        self.assertEqual(
            {'segment': {'name': 'seg-a', 'recovery_method': 'auto',
                         'service_type': 'COMPUTE', 'description': 'd1',
                         'enabled': False}}, json.loads(post.body))
        stored = self.rest('GET', '/segments/' + created['uuid'], 200).json()
        self.assertFalse(stored['segment']['enabled'])

        updated = self.openstack_json('segment', 'update', 'seg-a',
                                      '--description', 'd2',
                                      '--is_enabled', 'True')
        self.assertEqual(('d2', True),
                         (updated['description'], updated['is_enabled']))
        put, = self.api.requests_to('/v1/segments/', 'PUT')
        self.assertEqual({'segment': {'description': 'd2', 'enabled': True}},
                         json.loads(put.body))

        shown = self.openstack_json('segment', 'show', created['uuid'])
        self.assertEqual(stored['segment']['id'], shown['id'])
        self.assertEqual(('d2', True, created['created_at']),
                         (shown['description'], shown['is_enabled'],
                          shown['created_at']))
        self.assertIsNotNone(shown['updated_at'])

        deleted = self.openstack('segment', 'delete', 'seg-a')
        self.assertIn('Segment deleted: seg-a', deleted.stdout)
        self.rest('GET', '/segments/' + created['uuid'], 404)

    def test_is_enabled_is_sent_from_microversion_1_2(self):
        created = self.openstack_json(
            '--os-ha-api-version', '1.1', 'segment', 'create', 'seg-a',
            'auto', 'COMPUTE', '--is_enabled', 'False')
        self.assertNotIn('is_enabled', created)
        post, = self.api.requests_to('/v1/segments', 'POST')
        self.assertEqual('instance-ha 1.1',
                         post.headers['Openstack-Api-Version'])
        self.assertNotIn('enabled', json.loads(post.body)['segment'])
        self.assertTrue(self.rest('GET', '/segments/' + created['uuid'],
                                  200).json()['segment']['enabled'])

    def test_list_follows_pages_sort_and_filters(self):
        for name, method in (('seg-b', 'auto'), ('seg-c', 'reserved_host'),
                             ('seg-a', 'rh_priority')):
            self.create_segment(name, method)
        listed = self.openstack_json('segment', 'list', '--limit', '2',
                                     '--sort', 'name:asc')
        self.assertEqual(['seg-a', 'seg-b', 'seg-c'],
                         [row['name'] for row in listed])
        self.assertEqual(
            ['uuid', 'name', 'description', 'service_type',
             'recovery_method', 'is_enabled'], list(listed[0]))
        # The SDK pages with the integer id of the last item as marker.
        queries = [request.query for request in
                   self.api.requests_to('/v1/segments', 'GET')]
        last_of_first_page = self.rest(
            'GET', '/segments?sort_key=name&sort_dir=asc&limit=2',
            200).json()['segments'][-1]['id']
        self.assertIn('marker=%d' % last_of_first_page, queries[1])
        self.assertIn('limit=2', queries[1])

        filtered = self.openstack_json(
            'segment', 'list', '--filters', 'recovery_method=reserved_host')
        self.assertEqual(['seg-c'], [row['name'] for row in filtered])

    def test_delete_reports_a_missing_segment_and_goes_on(self):
        segment = self.create_segment('seg-a')
        result = self.openstack('segment', 'delete', 'no-such-segment',
                                'seg-a')
        self.assertIn('No failover segment with id no-such-segment.',
                      result.stdout + result.stderr)
        self.assertIn('Segment deleted: seg-a', result.stdout)
        self.rest('GET', '/segments/' + segment['uuid'], 404)

    def test_errors_are_the_servers(self):
        self.create_segment('seg-a')
        duplicate = self.openstack('segment', 'create', 'seg-a', 'auto',
                                   'COMPUTE', expect_status=1)
        self.assertIn('Failover segment with name seg-a already exists.',
                      duplicate.stderr)
        missing = uuidutils.generate_uuid()
        shown = self.openstack('segment', 'show', missing, expect_status=1)
        self.assertIn('Segment is not found: ' + missing, shown.stderr)


class HostCommandsTest(base.ClientsTestCase):

    def setUp(self):
        super().setUp()
        self.segment = self.create_segment('seg-a')

    def test_create_list_show_update_delete(self):
        created = self.openstack_json(
            'segment', 'host', 'create', 'compute-1', 'COMPUTE', 'SSH',
            'seg-a', '--reserved', 'True', '--on_maintenance', 'False')
        self.assertEqual(
            {'name': 'compute-1', 'type': 'COMPUTE',
             'control_attributes': 'SSH', 'reserved': True,
             'on_maintenance': False,
             'failover_segment_id': self.segment['uuid']},
            {key: created[key] for key in (
                'name', 'type', 'control_attributes', 'reserved',
                'on_maintenance', 'failover_segment_id')})
        # The plugin sends its booleans as strings ("True", "False").
        post, = self.api.requests_to('/v1/segments/', 'POST')
        self.assertEqual({'host': {
            'name': 'compute-1', 'type': 'COMPUTE',
            'control_attributes': 'SSH', 'reserved': 'True',
            'on_maintenance': 'False'}}, json.loads(post.body))
        self.assertEqual(DEFAULT_MICROVERSION,
                         post.headers['Openstack-Api-Version'])

        listed = self.openstack_json('segment', 'host', 'list', 'seg-a')
        self.assertEqual([created['uuid']], [row['uuid'] for row in listed])
        self.assertEqual(
            ['uuid', 'name', 'type', 'control_attributes', 'reserved',
             'on_maintenance', 'failover_segment_id'], list(listed[0]))
        shown = self.openstack_json('segment', 'host', 'show', 'seg-a',
                                    'compute-1')
        self.assertEqual(created, shown)

        updated = self.openstack_json(
            'segment', 'host', 'update', 'seg-a', 'compute-1',
            '--reserved', 'False', '--on_maintenance', 'True',
            '--control_attributes', 'IPMI')
        self.assertEqual((False, True, 'IPMI'),
                         (updated['reserved'], updated['on_maintenance'],
                          updated['control_attributes']))
        stored = self.rest('GET', '/segments/%s/hosts/%s' % (
            self.segment['uuid'], created['uuid']), 200).json()['host']
        self.assertEqual((False, True, 'IPMI'),
                         (stored['reserved'], stored['on_maintenance'],
                          stored['control_attributes']))

        deleted = self.openstack('segment', 'host', 'delete', 'seg-a',
                                 'compute-1')
        self.assertIn('Host deleted: compute-1', deleted.stdout)
        self.assertEqual([], self.rest(
            'GET', '/segments/%s/hosts' % self.segment['uuid'],
            200).json()['hosts'])

    def test_list_filters_and_sorts(self):
        self.create_host(self.segment, 'compute-1', reserved=True)
        self.create_host(self.segment, 'compute-2')
        self.create_host(self.segment, 'compute-3', reserved=True)
        listed = self.openstack_json(
            'segment', 'host', 'list', 'seg-a', '--filters', 'reserved=True',
            '--sort', 'name:desc', '--limit', '1')
        self.assertEqual(['compute-3', 'compute-1'],
                         [row['name'] for row in listed])
        first_page = self.rest('GET', '/segments/%s/hosts?reserved=True&'
                               'sort_key=name&sort_dir=desc&limit=1' %
                               self.segment['uuid'], 200).json()['hosts']
        queries = [request.query for request in self.api.requests_to(
            '/v1/segments/%s/hosts' % self.segment['uuid'], 'GET')]
        self.assertIn('marker=%d' % first_page[0]['id'], queries[1])

    def test_unknown_compute_host_is_refused(self):
        result = self.openstack('segment', 'host', 'create', 'not-in-nova',
                                'COMPUTE', 'SSH', 'seg-a', expect_status=1)
        self.assertIn('Compute service with name not-in-nova could not be '
                      'found.', result.stderr)

    def test_host_in_use_is_not_deleted(self):
        host = self.create_host(self.segment)
        self.create_notification()
        result = self.openstack('segment', 'host', 'delete', 'seg-a',
                                'compute-1', expect_status=1)
        self.assertIn("Host %s can't be deleted as it is in-use to process "
                      "notifications." % host['uuid'], result.stderr)
        self.rest('GET', '/segments/%s/hosts/%s' % (
            self.segment['uuid'], host['uuid']), 200)
