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

"""Failure injection: error answers and hung calls, from file or run time."""

import threading
import time

import requests

from masakari.simulator import server
from tests.fixtures import processes
from tests.unit.simulator import base


class FaultsTestCase(base.SimulatorTestCase):

    def topology(self):
        topology = super().topology()
        topology['servers'] = [{'name': 'vm', 'host': 'compute-1'}]
        topology['faults'] = [{'method': 'GET', 'path': '/os-aggregates',
                               'status': 503, 'message': 'Nova restarts',
                               'times': 1}]
        return topology

    def test_fault_from_the_topology_applies_once(self):
        self.assertFault(self.nova('GET', '/os-aggregates'), 503,
                         'serviceUnavailable', 'Nova restarts')
        self.assertEqual(200, self.nova('GET', '/os-aggregates').status_code)
        [rule] = self.cloud.faults.rules()
        self.assertEqual(2, rule['matched'])

    def test_action_rule_with_skip(self):
        self.cloud.faults.add({'path': '/servers/*/action',
                               'action': 'os-stop', 'status': 500,
                               'skip': 1})
        server_id = self.server_id('vm')
        self.assertEqual(202, self.action(server_id, {'lock': None})
                         .status_code)
        self.assertEqual(202, self.action(server_id, {'os-stop': None})
                         .status_code)
        self.cloud.update_server(server_id, vm_state='active')
        self.assertFault(self.action(server_id, {'os-stop': None}), 500,
                         'computeFault', 'Injected fault (HTTP 500).')
        self.assertEqual(500, self.action(server_id, {'os-stop': None})
                         .status_code)

    def test_keystone_fault(self):
        self.cloud.faults.add({'service': 'keystone', 'method': 'POST',
                               'path': '/v3/auth/tokens', 'status': 503})
        response = self.http.post(self.simulator.identity_url +
                                  '/v3/auth/tokens', json={})
        self.assertEqual(503, response.status_code)
        self.assertEqual(503, response.json()['error']['code'])

    def test_hung_call_answers_after_the_hang(self):
        token = self.token()
        self.cloud.faults.add({'path': '/v2.1/os-services', 'hang': 0.3,
                               'times': 1})
        started = time.monotonic()
        self.assertEqual(200, self.nova('GET', '/os-services',
                                        token=token).status_code)
        self.assertGreaterEqual(time.monotonic() - started, 0.3)

    def test_hung_call_times_a_client_out(self):
        token = self.token()
        self.cloud.faults.add({'path': '/os-services', 'hang': 2,
                               'times': 1})
        self.assertRaises(requests.Timeout, requests.get,
                          self.simulator.compute_url + '/os-services',
                          headers={'X-Auth-Token': token}, timeout=0.2)
        [call] = self.simulator.calls('nova')
        self.assertIsNone(call['status'])

    def test_bad_rules_are_refused(self):
        for rule in ({'status': 200}, {'path': '/x'}, {'status': 500,
                                                       'colour': 'red'},
                     {'service': 'glance', 'status': 500}):
            self.assertRaises(ValueError, self.cloud.faults.add, rule)

    def test_stop_releases_hung_calls(self):
        simulator = server.Simulator({'faults': [
            {'service': 'keystone', 'hang': 30}]}).start()
        self.addCleanup(simulator.stop)
        errors = []

        def call():
            try:
                requests.get(simulator.identity_url, timeout=10)
            except requests.RequestException as error:
                errors.append(error)
        caller = threading.Thread(target=call)
        caller.start()
        processes.wait_until(lambda: simulator.calls('keystone'), 10,
                             'the hung call')
        started = time.monotonic()
        simulator.stop()
        caller.join(5)
        self.assertLess(time.monotonic() - started, 2)
        self.assertFalse(caller.is_alive())
