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

"""``masakari-simulator`` as operators run it, driven with python-novaclient.

Starts the console script on a free port with a topology file, reads where
it listens from its first line, then rehearses a host recovery by hand.
"""

import json
import os
import signal
import subprocess
import sys

import fixtures
from keystoneauth1 import loading
from keystoneauth1 import session
from novaclient import client
from novaclient import exceptions as nova_exceptions
import requests
import testtools

from tests.fixtures import polling

SCRIPT = os.path.join(os.path.dirname(sys.executable), 'masakari-simulator')
TOPOLOGY = {
    'delays': {'evacuate': 0.3, 'stop': 0.1, 'start': 0.1},
    'hosts': ['compute-1', 'compute-2',
              {'name': 'reserved', 'status': 'disabled'}],
    'servers': [{'name': 'vm', 'count': 2, 'host': 'compute-1',
                 'metadata': {'HA_Enabled': 'True'}},
                {'name': 'doomed', 'host': 'compute-1',
                 'fail_evacuate': True}],
    'aggregates': [{'name': 'rack-a', 'hosts': ['compute-1']}],
}


class SimulatorProcessTestCase(testtools.TestCase):

    def start(self, topology, *extra):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'topology.json')
        with open(path, 'w') as topology_file:
            json.dump(topology, topology_file)
        process = subprocess.Popen(
            [SCRIPT, '--topology', path, '--port', '0'] + list(extra),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(self._stop, process)
        return process

    def _stop(self, process):
        if process.poll() is None:
            process.kill()
            process.wait(10)
        process.stdout.close()
        process.stderr.close()

    def nova(self, identity_url):
        auth = loading.get_plugin_loader('password').load_from_options(
            auth_url=identity_url, username='masakari', password='masakari',
            project_name='service', user_domain_name='default',
            project_domain_name='default')
        return client.Client('2.53', session=session.Session(
            auth=auth, timeout=10), service_type='compute',
            service_name='nova', endpoint_type='publicURL')

    def test_rehearse_a_host_recovery(self):
        process = self.start(TOPOLOGY)
        banner = [process.stdout.readline().strip() for _ in range(5)]
        self.assertTrue(banner[0].startswith(
            'masakari-simulator listening on http://127.0.0.1:'), banner)
        base_url = banner[0].split()[-1]
        self.assertIn('Nova v2.1:   %s/compute/v2.1' % base_url, banner)
        control = base_url + '/_simulator'
        nova = self.nova(base_url + '/identity')

        [service] = nova.services.list(host='compute-1',
                                       binary='nova-compute')
        nova.services.disable_log_reason(service.id, 'Masakari detected '
                                         'host failed.')
        requests.put(control + '/hosts/compute-1', json={'state': 'down'})
        servers = nova.servers.list(search_opts={'all_tenants': True,
                                                 'host': 'compute-1'})
        self.assertEqual(['doomed', 'vm-2', 'vm-1'],
                         [server.name for server in servers])
        [reserved] = nova.services.list(host='reserved',
                                        binary='nova-compute')
        nova.services.enable(reserved.id)
        nova.aggregates.add_host(1, 'reserved')
        for server in servers:
            nova.servers.lock(server.id)
            nova.servers.evacuate(server.id, host='reserved')

        def settled():
            return all(getattr(nova.servers.get(server.id),
                               'OS-EXT-STS:task_state') is None
                       for server in servers)
        polling.wait_until(settled)
        placed = {server.name: (getattr(server, 'OS-EXT-SRV-ATTR:host'),
                                getattr(server, 'OS-EXT-STS:vm_state'))
                  for server in (nova.servers.get(s.id) for s in servers)}
        self.assertEqual({'vm-1': ('reserved', 'active'),
                          'vm-2': ('reserved', 'active'),
                          'doomed': ('compute-1', 'error')}, placed)

        calls = requests.get(control + '/calls',
                             params={'service': 'nova'}).json()['calls']
        evacuations = [call['body'] for call in calls
                       if call['body'] and 'evacuate' in call['body']]
        self.assertEqual([{'evacuate': {'host': 'reserved'}}] * 3,
                         evacuations)
        self.assertEqual(
            [('GET', '/'), ('POST', '/v3/auth/tokens')],
            [(call['method'], call['path']) for call in requests.get(
                control + '/calls', params={'service': 'keystone'}).json()[
                    'calls']])
        self.assertEqual(204, requests.delete(control + '/calls')
                         .status_code)
        self.assertEqual([], requests.get(control + '/calls').json()['calls'])

        process.send_signal(signal.SIGTERM)
        self.assertEqual(0, process.wait(10))

    def test_runtime_fault_injection(self):
        process = self.start(TOPOLOGY)
        base_url = process.stdout.readline().split()[-1]
        nova = self.nova(base_url + '/identity')
        requests.post(base_url + '/_simulator/faults', json={
            'path': '/os-aggregates', 'status': 500, 'times': 1})
        error = self.assertRaises(nova_exceptions.ClientException,
                                  nova.aggregates.list)
        self.assertIn('(HTTP 500)', str(error))
        self.assertEqual(1, len(nova.aggregates.list()))

    def test_verbose_prints_each_call(self):
        process = self.start(TOPOLOGY, '--verbose')
        base_url = process.stdout.readline().split()[-1]
        requests.get(base_url + '/identity/v3')
        process.send_signal(signal.SIGTERM)
        output, _errors = process.communicate(timeout=10)
        self.assertIn('keystone GET /v3 -> 200', output.splitlines())

    def test_bad_topology_is_refused(self):
        process = self.start({'hosts': ['c1'], 'servers': [
            {'name': 'x', 'host': 'c9'}]})
        self.assertEqual(2, process.wait(10))
        self.assertIn("host 'c9' is not a nova-compute host",
                      process.stderr.read())
