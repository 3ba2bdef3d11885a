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

"""A running simulator and a small HTTP client for its tests."""

import requests
import testtools

from masakari.simulator import server

ADMIN = {'name': 'admin', 'password': 'secret',
         'roles': {'service': ['admin']}, 'system_roles': ['admin']}
MEMBER = {'name': 'alice', 'password': 'wonderland',
          'roles': {'demo': ['member']}}
INSTANT = {'evacuate': 0, 'stop': 0, 'start': 0}


class SimulatorTestCase(testtools.TestCase):
    """Start the topology of ``topology()`` and talk to it over HTTP."""

    def topology(self):
        return {'users': [ADMIN, MEMBER],
                'hosts': ['compute-1', 'compute-2', 'compute-3'],
                'delays': INSTANT}

    def setUp(self):
        super().setUp()
        self.simulator = server.Simulator(self.topology()).start()
        self.addCleanup(self.simulator.stop)
        self.cloud = self.simulator.cloud
        self.http = requests.Session()
        self.addCleanup(self.http.close)
        self._tokens = {}

    def token(self, user=ADMIN, project=None, system=False):
        """A token id for that user (project-scoped unless system)."""
        key = (user['name'], project, system)
        if key not in self._tokens:
            scope = ({'system': {'all': True}} if system else
                     {'project': {'name': project or next(iter(
                         user['roles'])), 'domain': {'name': 'Default'}}})
            response = self.http.post(
                self.simulator.identity_url + '/v3/auth/tokens',
                json={'auth': {'identity': {'methods': ['password'],
                                            'password': {'user': {
                                                'name': user['name'],
                                                'password': user['password'],
                                                'domain': {'id': 'default'}}}},
                               'scope': scope}})
            self.assertEqual(201, response.status_code, response.text)
            self._tokens[key] = response.headers['X-Subject-Token']
        return self._tokens[key]

    def nova(self, method, path, body=None, user=ADMIN, version='2.53',
             token=None, headers=None):
        """A Nova request (path relative to /v2.1); returns the response."""
        all_headers = {'X-Auth-Token': token or self.token(user)}
        if version:
            all_headers['X-OpenStack-Nova-API-Version'] = version
        all_headers.update(headers or {})
        kwargs = {} if body is None else {'json': body}
        return self.http.request(method, self.simulator.compute_url + path,
                                 headers=all_headers, **kwargs)

    def action(self, server_id, body, **kwargs):
        return self.nova('POST', '/servers/%s/action' % server_id, body,
                         **kwargs)

    def server(self, server_id):
        return self.nova('GET', '/servers/%s' % server_id).json()['server']

    def server_id(self, name):
        for server in self.cloud.snapshot()['servers']:
            if server['name'] == name:
                return server['id']
        raise KeyError(name)

    def assertFault(self, response, status, kind, message):
        self.assertEqual(status, response.status_code, response.text)
        self.assertEqual({kind: {'code': status, 'message': message}},
                         response.json())
