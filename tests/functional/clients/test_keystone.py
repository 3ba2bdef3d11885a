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

"""auth_strategy=keystone against a real Keystone.

One Keystone (the ``keystone`` package, SQLite) and one API for the whole
class: keystonemiddleware in the shipped pipeline validates real tokens, the
roles the policy sees come from real role assignments, and the clients find
the API through Keystone's catalogue (service type ``instance-ha``) as
devstack registers it.
"""

import json

import openstack
from oslo_utils import uuidutils
import requests
import testtools

from tests.fixtures import keystone as keystone_fixture
from tests.functional.clients import base
from tests.functional.clients import monitors
from tests.functional.clients import server

PASSWORD = 'user-secret'
PROJECT = 'demo'
UNAUTHORIZED = {'error': {
    'code': 401, 'title': 'Unauthorized',
    'message': 'The request you have made requires authentication.'}}
SEGMENT_BODY = {'segment': {'name': 'refused', 'recovery_method': 'auto',
                            'service_type': 'COMPUTE'}}
NOTIFICATION_BODY = {'notification': {
    'type': 'PROCESS', 'hostname': 'compute-1',
    'generated_time': '2026-01-01T10:00:00',
    'payload': {'event': 'STOPPED', 'process_name': 'nova-compute'}}}


class KeystoneTest(testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.keystone = keystone_fixture.KeystoneFixture()
        cls.keystone.setUp()
        try:
            cls._set_up_api()
        except BaseException:
            cls.keystone.cleanUp()
            raise

    @classmethod
    def _set_up_api(cls):
        keystone = cls.keystone
        keystone.create_user(server.SERVICE_USER, server.SERVICE_PASSWORD,
                             server.SERVICE_PROJECT, ('service', 'admin'))
        for name, roles in (('demo-member', ['member']),
                            ('demo-reader', ['reader']),
                            ('demo-nobody', [])):
            keystone.create_user(name, PASSWORD, PROJECT, roles)
        cls.api = server.ClientsAPI(keystone=keystone)
        cls.api.setUp()
        try:
            keystone.register_service(
                'masakari', 'instance-ha', 'OpenStack High Availability',
                cls.api.url + '/v1/$(tenant_id)s')
            cls.admin_token = keystone.token(
                'admin', keystone_fixture.ADMIN_PASSWORD, 'admin')
            cls.admin_project = keystone.project('admin').id
        except BaseException:
            cls.api.cleanUp()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.api.cleanUp()
        cls.keystone.cleanUp()
        super().tearDownClass()

    def setUp(self):
        super().setUp()
        self.api.recorder.clear()

    def call(self, method, path, token=None, **kwargs):
        headers = dict(base.JSON_HEADERS)
        if token is not None:
            headers['X-Auth-Token'] = token
        return requests.request(method, self.api.url + '/v1' + path,
                                headers=headers, timeout=60, **kwargs)

    def openstack(self, username, password, project, *args,
                  expect_status=0):
        environment = base.client_environment(
            OS_AUTH_URL=self.keystone.auth_url, OS_IDENTITY_API_VERSION='3',
            OS_USERNAME=username, OS_PASSWORD=password,
            OS_PROJECT_NAME=project, OS_USER_DOMAIN_NAME='Default',
            OS_PROJECT_DOMAIN_NAME='Default', OS_INTERFACE='public',
            OS_REGION_NAME=keystone_fixture.REGION)
        return base.run_openstack(args, environment, expect_status)

    def admin_openstack_json(self, *args):
        result = self.openstack('admin', keystone_fixture.ADMIN_PASSWORD,
                                'admin', *(args + ('-f', 'json')))
        return json.loads(result.stdout)

    def segment(self, **fields):
        body = {'segment': dict({'name': 'seg-' + uuidutils.generate_uuid(),
                                 'recovery_method': 'auto',
                                 'service_type': 'COMPUTE'}, **fields)}
        response = self.call('POST', '/segments', self.admin_token,
                             json=body)
        self.assertEqual(201, response.status_code, response.text)
        return response.json()['segment']

    # --- keystonemiddleware ----------------------------------------------

    def assert_unauthorized(self, response):
        self.assertEqual(401, response.status_code, response.text)
        self.assertEqual(UNAUTHORIZED, response.json())
        self.assertEqual('Keystone uri="%s"' % self.keystone.url,
                         response.headers['WWW-Authenticate'])
        self.assertTrue(
            response.headers['x-openstack-request-id'].startswith('req-'))

    def test_a_request_without_a_token_gets_authtokens_401(self):
        self.assert_unauthorized(self.call('GET', '/segments'))
        self.assert_unauthorized(self.call('POST', '/segments',
                                           json=SEGMENT_BODY))
        # The version document too: keystoneauth then retries with a token.
        self.assert_unauthorized(self.call('GET', ''))

    def test_an_invalid_token_gets_authtokens_401(self):
        self.assert_unauthorized(self.call('GET', '/segments',
                                           token='not-a-token'))

    def test_an_admin_token_passes(self):
        version = self.call('GET', '', self.admin_token)
        self.assertEqual(200, version.status_code, version.text)
        self.assertEqual('1.3', version.json()['version']['version'])
        segment = self.segment()
        listed = self.call('GET', '/%s/segments' % self.admin_project,
                           self.admin_token)
        self.assertEqual(200, listed.status_code, listed.text)
        self.assertIn(segment['uuid'],
                      [s['uuid'] for s in listed.json()['segments']])

    def test_member_reader_and_roleless_tokens_are_refused_by_policy(self):
        segment = self.segment()
        requests_and_rules = [
            (('GET', '/segments'), 'os_masakari_api:segments:index'),
            (('POST', '/segments', SEGMENT_BODY),
             'os_masakari_api:segments:create'),
            (('GET', '/segments/%s' % segment['uuid']),
             'os_masakari_api:segments:detail'),
            (('GET', '/segments/%s/hosts' % segment['uuid']),
             'os_masakari_api:os-hosts:index'),
            (('GET', '/notifications'),
             'os_masakari_api:notifications:index'),
            (('POST', '/notifications', NOTIFICATION_BODY),
             'os_masakari_api:notifications:create'),
            (('GET', '/extensions'), 'os_masakari_api:extensions:index'),
        ]
        tokens = {
            'member': self.keystone.token('demo-member', PASSWORD, PROJECT),
            'reader': self.keystone.token('demo-reader', PASSWORD, PROJECT),
            # Without any role assignment only an unscoped token exists.
            'no role': self.keystone.token('demo-nobody', PASSWORD),
        }
        for who, token in tokens.items():
            for (method, path, *body), rule in requests_and_rules:
                response = self.call(method, path, token,
                                     json=body[0] if body else None)
                self.assertEqual(
                    (403, {'forbidden': {
                        'code': 403, 'message':
                        "Policy doesn't allow %s to be performed." % rule}}),
                    (response.status_code, response.json()),
                    '%s: %s %s' % (who, method, path))

    def test_the_admin_role_comes_from_keystone(self):
        self.keystone.create_user('demo-promoted', PASSWORD, PROJECT,
                                  ['member'])
        token = self.keystone.token('demo-promoted', PASSWORD, PROJECT)
        self.assertEqual(403, self.call('GET', '/segments', token)
                         .status_code)
        self.keystone.grant('demo-promoted', PROJECT, 'admin')
        token = self.keystone.token('demo-promoted', PASSWORD, PROJECT)
        response = self.call('GET', '/segments', token)
        self.assertEqual(200, response.status_code, response.text)

    # --- clients through the catalogue -----------------------------------

    def test_openstack_cli_through_the_catalogue(self):
        name = 'seg-' + uuidutils.generate_uuid()
        created = self.admin_openstack_json(
            'segment', 'create', name, 'auto', 'COMPUTE')
        host = self.admin_openstack_json(
            'segment', 'host', 'create', 'compute-1', 'COMPUTE', 'SSH', name)
        notification = self.admin_openstack_json(
            'notification', 'create', 'COMPUTE_HOST', 'compute-1',
            '2026-01-01T10:00:00', '{"event": "STOPPED"}')
        self.assertEqual(host['uuid'], notification['source_host_uuid'])
        self.assertEqual('DisableComputeServiceTask',
                         notification['recovery_workflow_details'][0]['name'])
        listed = self.admin_openstack_json('segment', 'list')
        self.assertIn(created['uuid'], [row['uuid'] for row in listed])

        prefix = '/v1/%s/' % self.admin_project
        received = self.api.requests_to(prefix)
        self.assertEqual(
            ['POST %ssegments' % prefix,
             'GET %ssegments/%s' % (prefix, created['uuid'])],
            ['%s %s' % (r.method, r.path) for r in received[:2]])
        self.assertEqual({base.OSC_MICROVERSION},
                         {r.headers['Openstack-Api-Version']
                          for r in received})
        self.assertTrue(all('X-Auth-Token' in r.headers for r in received))
        # keystoneauth's discovery: GET /v1 without a token, then with one.
        first_discovery = self.api.requests_to('/v1')[:2]
        self.assertEqual(['/v1', '/v1'],
                         [r.path for r in first_discovery])
        self.assertEqual([False, True], ['X-Auth-Token' in r.headers
                                         for r in first_discovery])

    def test_openstack_cli_member_is_refused(self):
        result = self.openstack('demo-member', PASSWORD, PROJECT,
                                'segment', 'list', expect_status=1)
        self.assertIn("Policy doesn't allow os_masakari_api:segments:index "
                      "to be performed.", result.stderr)

    def test_openstacksdk_through_the_catalogue(self):
        connection = openstack.connection.Connection(
            session=self.keystone.session(
                'admin', keystone_fixture.ADMIN_PASSWORD, 'admin'),
            region_name=keystone_fixture.REGION)
        segment = connection.instance_ha.create_segment(
            name='seg-' + uuidutils.generate_uuid(), recovery_method='auto',
            service_type='COMPUTE')
        self.assertIn(segment.uuid,
                      [s.uuid for s in connection.instance_ha.segments()])
        connection.instance_ha.delete_segment(segment.uuid)
        self.assertEqual(404, self.call('GET', '/segments/' + segment.uuid,
                                        self.admin_token).status_code)

    def test_monitors_send_with_the_service_account(self):
        def client(username, password, project):
            return lambda: openstack.connection.Connection(
                session=self.keystone.session(username, password, project),
                interface='public',
                region_name=keystone_fixture.REGION).instance_ha

        segment = self.segment()
        self.call('POST', '/segments/%s/hosts' % segment['uuid'],
                  self.admin_token, json={'host': {
                      'name': 'compute-2', 'type': 'COMPUTE',
                      'control_attributes': 'SSH'}})
        event = monitors.process_event('compute-2', 'nova-compute')

        sleeps = []
        reader = monitors.NotificationSender(
            client('demo-reader', PASSWORD, PROJECT), 2, 10, sleeps.append)
        # 403 is not final for a monitor: retried, then given up.
        self.assertIsNone(reader.send(event))
        self.assertEqual([10, 10], sleeps)

        sender = monitors.NotificationSender(
            client(server.SERVICE_USER, server.SERVICE_PASSWORD,
                   server.SERVICE_PROJECT), 2, 10, sleeps.append)
        notification = sender.send(event)
        self.assertEqual([10, 10], sleeps)
        stored = self.call('GET', '/notifications/%s' %
                           notification.notification_uuid, self.admin_token)
        self.assertEqual(200, stored.status_code, stored.text)
        self.assertEqual(event['notification']['payload'],
                         stored.json()['notification']['payload'])
