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

"""The simulated Placement: providers, inventories, usages, allocations
that follow evacuations, and the scheduler's use of them (NoValidHost).
"""

import time

from masakari.simulator import placement
from masakari.simulator import topology
from tests.unit.simulator import base

SMALL = {'VCPU': 2, 'MEMORY_MB': {'total': 4608, 'reserved': 512},
         'DISK_GB': 100}
DELAY = 0.3


class PlacementTestCase(base.SimulatorTestCase):

    def topology(self):
        cloud = super().topology()
        cloud['hosts'] = [{'name': 'compute-1', 'state': 'down'},
                          {'name': 'compute-2', 'resources': SMALL},
                          {'name': 'compute-3', 'resources': SMALL}]
        cloud['flavors'] = {'gpu': {'vcpus': 1, 'ram': 1024, 'disk': 10,
                                    'swap': 1536, 'extra_specs': {
                                        'resources:CUSTOM_GPU': '1'}}}
        cloud['servers'] = [
            {'name': 'big', 'host': 'compute-1', 'flavor': 'm1.medium'},
            {'name': 'small', 'host': 'compute-1'},
            {'name': 'gpu', 'host': 'compute-1', 'flavor': 'gpu'},
            {'name': 'there', 'host': 'compute-2'}]
        return cloud

    def get(self, path, version='1.14', user=base.ADMIN, token=None):
        headers = {'X-Auth-Token': token or self.token(user)}
        if version:
            headers['OpenStack-API-Version'] = 'placement %s' % version
        return self.http.get(self.simulator.placement_url + path,
                             headers=headers)

    def provider(self, host):
        return placement.provider_uuid(host)

    def usages(self, host):
        return self.get('/resource_providers/%s/usages' %
                        self.provider(host)).json()['usages']

    def test_catalogue_entry_and_root(self):
        response = self.http.post(
            self.simulator.identity_url + '/v3/auth/tokens',
            json={'auth': {'identity': {'methods': ['password'], 'password': {
                'user': {'name': 'admin', 'password': 'secret',
                         'domain': {'id': 'default'}}}},
                'scope': {'system': {'all': True}}}})
        [entry] = [item for item in response.json()['token']['catalog']
                   if item['type'] == 'placement']
        self.assertEqual({self.simulator.placement_url},
                         {endpoint['url'] for endpoint in entry['endpoints']})
        root = self.http.get(self.simulator.placement_url + '/').json()
        self.assertEqual(('1.0', '1.39'), (root['versions'][0]['min_version'],
                                           root['versions'][0]['max_version']))

    def test_one_root_provider_per_compute_host(self):
        response = self.get('/resource_providers')
        self.assertEqual('placement 1.14',
                         response.headers['OpenStack-API-Version'])
        providers = response.json()['resource_providers']
        self.assertEqual(['compute-1', 'compute-2', 'compute-3'],
                         [item['name'] for item in providers])
        for item in providers:
            self.assertEqual((item['uuid'], None),
                             (item['root_provider_uuid'],
                              item['parent_provider_uuid']))
        [only] = self.get('/resource_providers?name=compute-2').json()[
            'resource_providers']
        self.assertEqual(self.provider('compute-2'), only['uuid'])
        self.assertNotIn('root_provider_uuid', self.get(
            '/resource_providers/%s' % only['uuid'], version='1.0').json())

    def test_inventories_from_the_topology_over_the_defaults(self):
        small = self.get('/resource_providers/%s/inventories' %
                         self.provider('compute-2')).json()['inventories']
        self.assertEqual(
            {'VCPU': {'total': 2, 'reserved': 0, 'min_unit': 1,
                      'max_unit': 2, 'step_size': 1,
                      'allocation_ratio': 1.0},
             'MEMORY_MB': {'total': 4608, 'reserved': 512, 'min_unit': 1,
                           'max_unit': 4608, 'step_size': 1,
                           'allocation_ratio': 1.0},
             'DISK_GB': {'total': 100, 'reserved': 0, 'min_unit': 1,
                         'max_unit': 100, 'step_size': 1,
                         'allocation_ratio': 1.0}}, small)
        default = self.get('/resource_providers/%s/inventories' %
                           self.provider('compute-1')).json()['inventories']
        self.assertEqual((128, 4.0), (default['VCPU']['total'],
                                      default['VCPU']['allocation_ratio']))

    def test_allocations_and_usages_of_the_servers_flavors(self):
        allocations = self.get('/resource_providers/%s/allocations' %
                               self.provider('compute-1')).json()
        self.assertEqual({
            self.server_id('big'): {'resources': {
                'VCPU': 2, 'MEMORY_MB': 4096, 'DISK_GB': 40}},
            self.server_id('small'): {'resources': {
                'VCPU': 1, 'MEMORY_MB': 2048, 'DISK_GB': 20}},
            # root + ephemeral + swap rounded up to GB, plus the extra
            # spec's class.
            self.server_id('gpu'): {'resources': {
                'VCPU': 1, 'MEMORY_MB': 1024, 'DISK_GB': 12,
                'CUSTOM_GPU': 1}}}, allocations['allocations'])
        self.assertEqual({'VCPU': 4, 'MEMORY_MB': 7168, 'DISK_GB': 72,
                          'CUSTOM_GPU': 1}, self.usages('compute-1'))
        consumer = self.get('/allocations/%s' % self.server_id('small'),
                            version='1.28').json()
        self.assertEqual({self.provider('compute-1'): {
            'generation': 1, 'resources': {
                'VCPU': 1, 'MEMORY_MB': 2048, 'DISK_GB': 20}}},
            consumer['allocations'])
        self.assertIn('consumer_generation', consumer)
        self.assertEqual({'allocations': {}},
                         self.get('/allocations/unknown').json())

    def test_server_view_shows_its_flavor(self):
        flavor = self.server(self.server_id('big'))['flavor']
        self.assertEqual({'original_name': 'm1.medium', 'vcpus': 2,
                          'ram': 4096, 'disk': 40, 'ephemeral': 0,
                          'swap': 0, 'extra_specs': {}}, flavor)

    def test_allocations_follow_an_evacuation(self):
        self.cloud.update_delays(evacuate=DELAY)
        small = self.server_id('small')
        self.assertEqual(200, self.action(
            small, {'evacuate': {'host': 'compute-3'}}).status_code)
        # While it moves, both hosts hold it (the scheduler's claim).
        self.assertEqual(1, self.usages('compute-3')['VCPU'])
        self.assertEqual(4, self.usages('compute-1')['VCPU'])
        deadline = time.monotonic() + 3
        while self.server(small)['OS-EXT-SRV-ATTR:host'] != 'compute-3':
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.02)
        self.assertEqual(3, self.usages('compute-1')['VCPU'])
        self.assertEqual([self.provider('compute-3')], list(self.get(
            '/allocations/%s' % small).json()['allocations']))

    def test_no_room_is_no_valid_host(self):
        big = self.server_id('big')
        # compute-3 has 2 VCPU and 4096 MB free: 'big' fits, once.
        self.assertEqual(200, self.action(
            big, {'evacuate': {'host': 'compute-3'}}).status_code)
        small = self.server_id('small')
        self.assertEqual(200, self.action(
            small, {'evacuate': {'host': 'compute-3'}}).status_code)
        server = self.server(small)
        self.assertEqual(('compute-1', 'error', None),
                         (server['OS-EXT-SRV-ATTR:host'],
                          server['OS-EXT-STS:vm_state'],
                          server['OS-EXT-STS:task_state']))
        self.assertEqual((500, 'No valid host was found. There are not '
                          'enough hosts available.'),
                         (server['fault']['code'],
                          server['fault']['message']))
        # Forced or not, the claim needs room; nor does the scheduler
        # find a host for a class no host has.
        self.action(self.server_id('gpu'), {'evacuate': {}})
        self.assertEqual('error', self.server(self.server_id('gpu'))[
            'OS-EXT-STS:vm_state'])
        self.assertEqual({'VCPU': 1, 'MEMORY_MB': 2048, 'DISK_GB': 20},
                         self.usages('compute-2'))

    def test_the_scheduler_picks_a_host_with_room(self):
        self.action(self.server_id('big'), {'evacuate': {}})
        self.assertEqual('compute-3', self.server(self.server_id('big'))[
            'OS-EXT-SRV-ATTR:host'])

    def test_authentication_and_versions(self):
        self.assertEqual(401, self.get('/resource_providers',
                                       token='bad').status_code)
        response = self.get('/resource_providers', user=base.MEMBER)
        self.assertEqual(403, response.status_code)
        self.assertEqual(403, response.json()['errors'][0]['status'])
        self.assertEqual(400, self.get('/resource_providers',
                                       version='one').status_code)
        self.assertEqual(406, self.get('/resource_providers',
                                       version='1.99').status_code)
        missing = self.get('/resource_providers/nope/usages')
        self.assertEqual((404, 'Not Found'), (
            missing.status_code, missing.json()['errors'][0]['title']))
        self.assertEqual('placement 1.0', self.get(
            '/resource_providers', version=None).headers[
                'OpenStack-API-Version'])

    def test_calls_are_logged_and_faults_injected(self):
        self.cloud.faults.add({'service': 'placement', 'method': 'GET',
                               'path': '/resource_providers', 'status': 503,
                               'times': 1})
        self.assertEqual(503, self.get('/resource_providers').status_code)
        self.assertEqual(200, self.get('/resource_providers').status_code)
        self.assertEqual(['/resource_providers'] * 2, [
            call['path'] for call in self.simulator.calls('placement')])

    def test_inventories_changed_at_run_time(self):
        self.cloud.update_host('compute-2', resources={'VCPU': 16})
        self.assertEqual(16, self.get(
            '/resource_providers/%s/inventories' %
            self.provider('compute-2')).json()['inventories']['VCPU'][
                'total'])
        self.assertRaises(ValueError, self.cloud.update_host, 'compute-2',
                          resources={'VCPU': {'total': 0}})


class TopologyTestCase(base.SimulatorTestCase):

    def test_mistakes_are_reported(self):
        typo = {'name': 'c', 'resources': {'VCPU': {'totl': 3}}}
        for mistake in ({'hosts': [typo]},
                        {'hosts': [{'name': 'c', 'resources': 4}]}):
            self.assertRaises(ValueError, topology.build_inventories,
                              mistake)
        self.assertRaises(ValueError, topology.build_flavors,
                          {'flavors': {'f': {'cpus': 1}}})
        self.assertRaisesRegex(ValueError, 'unknown flavor',
                               self.cloud.add_servers,
                               [{'name': 'x', 'host': 'compute-1',
                                 'flavor': 'nope'}])

    def test_a_default_class_can_be_dropped(self):
        self.assertNotIn('DISK_GB', topology.inventories(
            {'name': 'c', 'resources': {'DISK_GB': None}}))
