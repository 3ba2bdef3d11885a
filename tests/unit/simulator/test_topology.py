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

"""Reading topology files: defaults, expansion, stable ids, clear errors."""

import json
import os

import fixtures
import testtools

from masakari.simulator import server
from masakari.simulator import state
from masakari.simulator import topology


class TopologyTestCase(testtools.TestCase):

    def cloud(self, description):
        cloud = state.Cloud(description)
        self.addCleanup(cloud.close)
        return cloud

    def test_defaults(self):
        cloud = self.cloud({})
        self.assertEqual(('RegionOne', 'nova', 1000, 3600.0),
                         (cloud.region, cloud.compute_service_name,
                          cloud.max_limit, cloud.token_ttl))
        self.assertEqual({'evacuate': 2.0, 'stop': 1.0, 'start': 1.0},
                         cloud.delays)
        [user] = cloud.users.values()
        self.assertEqual(('masakari', 'masakari', ['admin']),
                         (user.name, user.password, user.system_roles))
        self.assertEqual({'demo', 'service'}, set(cloud.projects))

    def test_count_expansion_and_stable_ids(self):
        description = {'hosts': ['c1'], 'servers': [
            {'name': 'vm', 'count': 3, 'host': 'c1', 'vm_state': 'stopped'}]}
        first, second = self.cloud(description), self.cloud(description)
        self.assertEqual(['vm-1', 'vm-2', 'vm-3'],
                         [s.name for s in first.servers.values()])
        self.assertEqual(list(first.servers), list(second.servers))
        self.assertEqual({4}, {s.power_state
                               for s in first.servers.values()})

    def test_mistakes_are_reported(self):
        for description, words in (
                ({'hots': []}, 'unknown keys: hots'),
                ({'delays': {'reboot': 1}}, 'unknown keys: reboot'),
                ({'hosts': [{'name': 'c1', 'state': 'sleepy'}]},
                 'state must be up or down'),
                ({'hosts': ['c1'], 'servers': [{'name': 'x',
                                                'host': 'c2'}]},
                 "host 'c2' is not a nova-compute host"),
                ({'hosts': ['c1'], 'aggregates': [
                    {'name': 'a', 'hosts': ['c9']}]}, 'unknown hosts c9'),
                ({'faults': [{'status': 200}]}, '4xx or 5xx')):
            error = self.assertRaises(ValueError, state.Cloud, description)
            self.assertIn(words, str(error))

    def test_load_files_and_bundled_examples(self):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'cloud.json')
        with open(path, 'w') as topology_file:
            json.dump({'hosts': ['c1']}, topology_file)
        self.assertEqual({'hosts': ['c1']}, topology.load(path))
        error = self.assertRaises(ValueError, topology.load, 'nope')
        self.assertIn('small', str(error))
        for name in topology.bundled_names():
            simulator = server.Simulator(topology.load(name))
            simulator.stop()
        self.assertIn('small', topology.bundled_names())
