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

"""The packing rule and the hosts each recovery method fills."""

import testtools

from masakari.capacity import model
from masakari.capacity import packing

CLASSES = ('VCPU', 'MEMORY_MB')


def host(name, vcpu=8, memory=8, used=(0, 0), servers=(), **fields):
    return model.Host(name=name,
                      capacity={'VCPU': vcpu, 'MEMORY_MB': memory},
                      used=dict(zip(CLASSES, used)),
                      max_unit={'VCPU': vcpu, 'MEMORY_MB': memory},
                      servers=list(servers), **fields)


def server(name, vcpu=1, memory=1, priority=0, ha_enabled=True,
           source='failed'):
    return model.Server(id=name, name=name, host=source,
                        resources={'VCPU': vcpu, 'MEMORY_MB': memory},
                        priority=priority, ha_enabled=ha_enabled)


def segment(method, *hosts, reserved_order=()):
    return model.Segment(name='s', uuid='u', recovery_method=method,
                         hosts={item.name: item for item in hosts},
                         reserved_order=list(reserved_order))


class TestPackingRule(testtools.TestCase):

    def test_priority_then_ha_then_dominant_share_then_uuid(self):
        targets = [host('a', vcpu=8, memory=16)]
        servers = [server('small', 1, 1), server('big-mem', 1, 8),
                   server('big-cpu', 4, 1), server('vip', 1, 1, priority=5),
                   server('not-ha', 8, 8, ha_enabled=False),
                   server('also-small', 1, 1)]
        self.assertEqual(
            ['vip', 'big-cpu', 'big-mem', 'also-small', 'small', 'not-ha'],
            [item.id for item in packing.order(servers, targets)])

    def test_first_fit_in_target_order(self):
        targets = [host('a', vcpu=2), host('b', vcpu=4)]
        plan = packing.plan([server('x', 2), server('y', 1),
                             server('z', 3)], targets)
        self.assertEqual({'z': 'b', 'x': 'a', 'y': 'b'}, plan.targets())
        # The hosts themselves are not changed.
        self.assertEqual({'VCPU': 0, 'MEMORY_MB': 0}, targets[0].used)

    def test_room_runs_out_for_the_lowest_priorities(self):
        plan = packing.plan(
            [server('low', 2, priority=1), server('high', 2, priority=9),
             server('mid', 2, priority=5)],
            [host('a', vcpu=5, used=(1, 0))])
        self.assertEqual([('high', 'a'), ('mid', 'a'), ('low', None)],
                         [(item.id, target)
                          for item, target in plan.placements])
        self.assertEqual(['low'], [item.id for item in plan.unplaced()])

    def test_every_class_must_fit_and_max_unit_holds(self):
        roomy = host('roomy', vcpu=16, memory=16)
        roomy.max_unit['VCPU'] = 2
        plan = packing.plan([server('wide', 4, 1), server('tall', 1, 20),
                             server('fits', 2, 16)], [roomy])
        self.assertEqual({'wide': None, 'tall': None, 'fits': 'roomy'},
                         plan.targets())

    def test_a_class_the_host_lacks_does_not_fit(self):
        gpu = server('gpu')
        gpu.resources['CUSTOM_GPU'] = 1
        self.assertEqual({'gpu': None},
                         packing.plan([gpu], [host('a')]).targets())

    def test_refused_hosts_are_skipped(self):
        plan = packing.plan([server('x')], [host('a'), host('b')],
                            refused={'x': {'a'}})
        self.assertEqual({'x': 'b'}, plan.targets())

    def test_overcommitted_host_has_no_room(self):
        plan = packing.plan([server('x')], [host('a', vcpu=2, used=(3, 0))])
        self.assertEqual({'x': None}, plan.targets())


class TestTargets(testtools.TestCase):

    def hosts(self):
        return [host('c1'), host('c2', service_enabled=False),
                host('c3', on_maintenance=True), host('c4'),
                host('r1', reserved=True, service_enabled=False),
                host('r2', reserved=True, service_up=False),
                host('r3', reserved=True)]

    def names(self, method, failed=()):
        found = segment(method, *self.hosts(),
                        reserved_order=['r3', 'r2', 'r1'])
        return [item.name for item in found.targets(failed)]

    def test_auto_fills_enabled_up_hosts_not_reserved(self):
        self.assertEqual(['c1', 'c4'], self.names('auto'))
        self.assertEqual(['c4'], self.names('auto', failed=('c1',)))

    def test_reserved_hosts_in_their_order_when_up(self):
        self.assertEqual(['r3', 'r1'], self.names('reserved_host'))

    def test_priority_methods_fill_the_preferred_hosts_first(self):
        self.assertEqual(['c1', 'c4', 'r3', 'r1'],
                         self.names('auto_priority'))
        self.assertEqual(['r3', 'r1', 'c1', 'c4'],
                         self.names('rh_priority'))
        self.assertEqual(self.names('rh_priority'), self.names('unknown'))

    def test_failing_hosts_are_those_not_on_maintenance(self):
        found = segment('auto', *self.hosts())
        self.assertNotIn('c3', [item.name for item in found.failing()])
        self.assertEqual(6, len(found.failing()))
