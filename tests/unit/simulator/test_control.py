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

"""The call log and the control API, over HTTP and in-process."""

import requests

from tests.unit.simulator import base


class CallLogTestCase(base.SimulatorTestCase):

    def test_ordered_log_with_the_headers_that_matter(self):
        token = self.token()
        self.nova('GET', '/os-services?host=compute-1&binary=nova-compute',
                  headers={'X-OpenStack-Request-ID': 'req-global'})
        self.nova('PUT', '/os-services/%s' %
                  self.cloud.compute_service('compute-2').id,
                  {'status': 'disabled'})
        calls = self.simulator.calls()
        self.assertEqual([1, 2, 3], [call['seq'] for call in calls])
        self.assertEqual(
            [('keystone', 'POST', '/v3/auth/tokens', '', 201),
             ('nova', 'GET', '/v2.1/os-services',
              'host=compute-1&binary=nova-compute', 200),
             ('nova', 'PUT', '/v2.1/os-services/%s' %
              self.cloud.compute_service('compute-2').id, '', 200)],
            [(c['service'], c['method'], c['path'], c['query'], c['status'])
             for c in calls])
        self.assertEqual({'status': 'disabled'}, calls[2]['body'])
        self.assertEqual(
            {'X-Auth-Token': token, 'X-OpenStack-Nova-API-Version': '2.53',
             'X-OpenStack-Request-ID': 'req-global'},
            {key: calls[1]['headers'][key] for key in (
                'X-Auth-Token', 'X-OpenStack-Nova-API-Version',
                'X-OpenStack-Request-ID')})
        self.assertLessEqual(calls[0]['time'], calls[2]['time'])

    def test_read_and_reset_over_http(self):
        self.token()
        self.nova('GET', '/os-aggregates')
        url = self.simulator.control_url + '/calls'
        self.assertEqual(2, len(requests.get(url).json()['calls']))
        self.assertEqual(['keystone'], [c['service'] for c in requests.get(
            url, params={'service': 'keystone'}).json()['calls']])
        self.assertEqual(204, requests.delete(url).status_code)
        self.assertEqual([], self.simulator.calls())
        # Control requests are not logged.
        self.assertEqual([], requests.get(url).json()['calls'])


class ControlTestCase(base.SimulatorTestCase):

    def control(self, method, path, body=None):
        return requests.request(method, self.simulator.control_url + path,
                                json=body)

    def test_index_and_state(self):
        self.assertIn('GET /_simulator/state',
                      self.control('GET', '/').json()['endpoints'])
        state = self.control('GET', '/state').json()
        self.assertEqual(['compute-1', 'compute-2', 'compute-3'],
                         [s['host'] for s in state['services']])

    def test_mark_a_host_down_and_up(self):
        response = self.control('PUT', '/hosts/compute-1', {'state': 'down'})
        self.assertEqual(200, response.status_code)
        [service] = self.nova('GET', '/os-services?host=compute-1').json()[
            'services']
        self.assertEqual('down', service['state'])
        self.control('PATCH', '/hosts/compute-1', {'state': 'up'})
        self.assertTrue(self.cloud.compute_service('compute-1').is_up)
        self.assertEqual(404, self.control('PUT', '/hosts/nowhere',
                                           {'state': 'down'}).status_code)
        self.assertEqual(400, self.control('PUT', '/hosts/compute-1',
                                           {'colour': 'red'}).status_code)

    def test_add_hosts_and_servers(self):
        response = self.control('POST', '/hosts', {'name': 'compute-9'})
        self.assertEqual(201, response.status_code)
        response = self.control('POST', '/servers', [
            {'name': 'new', 'count': 2, 'host': 'compute-9'}])
        self.assertEqual(201, response.status_code)
        self.assertEqual(['new-1', 'new-2'],
                         [s['name'] for s in response.json()['servers']])
        listed = self.nova('GET', '/servers/detail?all_tenants=1&host='
                           'compute-9').json()['servers']
        self.assertEqual(['new-2', 'new-1'], [s['name'] for s in listed])
        self.assertEqual(400, self.control('POST', '/servers', {
            'name': 'x', 'host': 'nowhere'}).status_code)
        self.assertEqual(400, self.control('POST', '/hosts',
                                           {'name': 'compute-9'})
                         .status_code)

    def test_update_server(self):
        self.control('POST', '/servers', {'name': 'vm', 'host': 'compute-1'})
        server_id = self.server_id('vm')
        response = self.control('PUT', '/servers/' + server_id,
                                {'vm_state': 'error', 'fail_evacuate': True})
        self.assertEqual(200, response.status_code)
        self.assertEqual('error', self.server(server_id)[
            'OS-EXT-STS:vm_state'])
        self.assertEqual(404, self.control('PUT', '/servers/nope',
                                           {'vm_state': 'error'})
                         .status_code)

    def test_delays_faults_and_tokens(self):
        response = self.control('PUT', '/delays', {'evacuate': 5})
        self.assertEqual(5.0, response.json()['delays']['evacuate'])
        self.assertEqual(400, self.control('PUT', '/delays', {'reboot': 1})
                         .status_code)
        response = self.control('POST', '/faults', {'path': '/os-services',
                                                    'status': 500})
        self.assertEqual(201, response.status_code)
        self.assertEqual(500, self.nova('GET', '/os-services').status_code)
        self.assertEqual(1, len(self.control('GET', '/faults').json()[
            'faults']))
        self.assertEqual(204, self.control('DELETE', '/faults').status_code)
        self.assertEqual(200, self.nova('GET', '/os-services').status_code)
        self.assertEqual(400, self.control('POST', '/faults', {'x': 1})
                         .status_code)
        token = self.token()
        self.assertEqual(204, self.control('DELETE', '/tokens').status_code)
        self.assertEqual(401, self.nova('GET', '/os-services', token=token)
                         .status_code)
