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

"""The capacity model read from the simulated cloud's Placement and Nova,
with the segment's hosts on MariaDB: what is read, with how many
requests, and how errors surface.
"""

import testtools

from masakari.capacity import reader
from masakari.compute import nova
from masakari import exception
from tests.fixtures import database
from tests.fixtures import engine as engine_fixture

TWO_MEDIUM = {'VCPU': {'total': 4, 'allocation_ratio': 2.0},
              'MEMORY_MB': {'total': 8704, 'reserved': 512},
              'DISK_GB': 100}
TOPOLOGY = {
    'hosts': [{'name': 'compute-1', 'resources': TWO_MEDIUM},
              {'name': 'compute-2', 'resources': TWO_MEDIUM},
              {'name': 'compute-3', 'status': 'disabled'},
              {'name': 'reserved-1', 'status': 'disabled'},
              {'name': 'reserved-2', 'state': 'down'},
              'elsewhere'],
    'delays': {'evacuate': 0, 'stop': 0, 'start': 0},
    'servers': [
        {'name': 'vip', 'host': 'compute-1', 'flavor': 'm1.medium',
         'metadata': {'HA_Enabled': 'True', 'HA_Priority': '10'}},
        {'name': 'plain', 'host': 'compute-1', 'flavor': 'm1.small'},
        {'name': 'odd', 'host': 'compute-1', 'flavor': 'm1.tiny',
         'metadata': {'HA_Enabled': 'yes', 'HA_Priority': 'high'}},
        {'name': 'other', 'host': 'compute-2', 'flavor': 'm1.medium'},
        {'name': 'outside', 'host': 'elsewhere'}],
}


class PlacementReadsTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.engine = self.useFixture(engine_fixture.EngineFixture(
            TOPOLOGY, database_fixture=database.MySQLDatabase()))
        self.nova = self.engine.nova
        self.segment = self.engine.create_segment('rh_priority')
        for name, reserved in (('compute-1', False), ('compute-2', False),
                               ('compute-3', False), ('reserved-1', True),
                               ('reserved-2', True)):
            self.engine.create_host(self.segment, name=name,
                                    reserved=reserved)
        self.nova.reset_calls()

    def read(self, **kwargs):
        return reader.read_segment(self.engine.context, self.segment,
                                   **kwargs)

    def test_hosts_servers_and_resources(self):
        model = self.read()
        first = model.hosts['compute-1']
        self.assertEqual(
            ({'VCPU': 8, 'MEMORY_MB': 8192, 'DISK_GB': 100},
             {'VCPU': 4, 'MEMORY_MB': 6656, 'DISK_GB': 61},
             {'VCPU': 4, 'MEMORY_MB': 8704, 'DISK_GB': 100}),
            (first.capacity, first.used, first.max_unit))
        # HA-enabled first, then the others (evacuate_all_instances).
        self.assertEqual(
            {('odd', 0, True, 1), ('vip', 10, True, 2),
             ('plain', 0, False, 1)},
            {(server.name, server.priority, server.ha_enabled,
              server.resources['VCPU']) for server in first.servers})
        self.assertEqual(['plain'], [server.name for server in
                                     first.servers[2:]])
        self.assertEqual(
            {'compute-1': (True, True), 'compute-2': (True, True),
             'compute-3': (True, False), 'reserved-1': (True, False),
             'reserved-2': (False, True)},
            {name: (host.service_up, host.service_enabled)
             for name, host in model.hosts.items()})
        self.assertEqual(['reserved-2', 'reserved-1'], model.reserved_order)
        self.assertEqual(
            ['reserved-1', 'compute-1', 'compute-2'],
            [host.name for host in model.targets()])

    def test_requests(self):
        self.read()
        placement = [call['path'].split('/')[-1]
                     for call in self.nova.calls('placement')]
        # The provider list, then inventories and allocations per host.
        self.assertEqual(['resource_providers'], placement[:1])
        self.assertEqual({'inventories': 5, 'allocations': 5},
                         {kind: placement.count(kind)
                          for kind in ('inventories', 'allocations')})
        self.assertEqual(11, len(placement))
        self.assertEqual(1 + 5, len(self.nova.calls('nova')))
        for call in self.nova.calls('placement'):
            self.assertEqual('placement 1.14',
                             call['headers']['OpenStack-API-Version'])

        self.nova.reset_calls()
        model = self.read(servers_of={'compute-2'})
        self.assertIsNone(model.hosts['compute-1'].servers)
        self.assertEqual(['other'], [server.name for server in
                                     model.hosts['compute-2'].servers])
        self.assertEqual(1 + 1, len(self.nova.calls('nova')))

    def test_an_evacuation_moves_the_usage(self):
        self.nova.set_host_state('compute-1', 'down')
        nova.API().evacuate_instance(self.engine.context,
                                     self.nova.server_id('vip'),
                                     target='compute-2')
        model = self.read()
        self.assertEqual((2, 4), (model.hosts['compute-1'].used['VCPU'],
                                  model.hosts['compute-2'].used['VCPU']))
        self.assertIn(self.nova.server_id('vip'),
                      model.hosts['compute-2'].allocations)

    def test_errors(self):
        self.nova.add_fault(service='placement', status=503, times=1)
        self.assertRaises(exception.MasakariException, self.read)
        self.nova.add_fault(service='nova', path='/os-services',
                            status=500, times=1)
        self.assertRaises(exception.MasakariException, self.read)
        # A host Placement does not know: no room there.
        self.engine.create_host(self.segment, name='ghost')
        model = self.read()
        self.assertEqual(({}, False), (model.hosts['ghost'].capacity,
                                       model.hosts['ghost'].service_up))
        self.assertEqual([], model.hosts['ghost'].servers)


class ProviderNamesTestCase(testtools.TestCase):

    def test_fully_qualified_provider_names(self):
        self.assertEqual(
            {'c1': 'u1', 'c1.example.org': 'u1', 'c2': 'u2',
             'c2.b.example.org': 'u3', 'c2.a.example.org': 'u4'},
            reader._provider_names({'c1.example.org': 'u1', 'c2': 'u2',
                                    'c2.b.example.org': 'u3',
                                    'c2.a.example.org': 'u4'}))
