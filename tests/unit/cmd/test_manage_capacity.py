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

"""``masakari-manage segment capacity|what-if`` against the simulated
cloud: tables, JSON, errors, and nothing changed.
"""

import json

from oslo_utils import uuidutils
import testtools

from masakari.cmd import segment_capacity
from masakari.compute import nova
from masakari.db.sqlalchemy import models
from masakari.simulator import server
from tests.unit.cmd import test_manage

ROOM_FOR_TWO = {'VCPU': 4, 'MEMORY_MB': 8192, 'DISK_GB': 100}
TOPOLOGY = {
    'hosts': [{'name': 'c%d' % number, 'resources': ROOM_FOR_TWO}
              for number in (1, 2, 3)],
    'servers': [{'name': 'vip', 'host': 'c1', 'flavor': 'm1.medium',
                 'metadata': {'HA_Enabled': 'True', 'HA_Priority': '7'}},
                {'name': 'web', 'host': 'c1', 'flavor': 'm1.medium',
                 'metadata': {'HA_Enabled': 'True'}},
                {'name': 'db', 'host': 'c2', 'flavor': 'm1.medium',
                 'metadata': {'HA_Enabled': 'True'}}],
}


class TestSegmentCapacity(test_manage.ManageTestCase):

    def setUp(self):
        super().setUp()
        self.simulator = server.Simulator(TOPOLOGY).start()
        self.addCleanup(self.simulator.stop)
        self.addCleanup(nova.forget_session)
        self.write_config(extra=(
            '[DEFAULT]\nos_privileged_user_auth_url = %s\n'
            'os_privileged_user_name = masakari\n'
            'os_privileged_user_password = masakari\n'
            'os_privileged_user_tenant = service\n'
            '[keystone_authtoken]\nauth_type = password\n'
            % self.simulator.identity_url))
        self.assertEqual(0, self.manage('db', 'sync')[0])
        self.segment = uuidutils.generate_uuid()
        with self.engine().begin() as conn:
            conn.execute(models.FailoverSegment.__table__.insert().values(
                uuid=self.segment, name='seg-1', service_type='COMPUTE',
                recovery_method='auto', deleted=0))
            for name in ('c1', 'c2', 'c3'):
                conn.execute(models.Host.__table__.insert().values(
                    uuid=uuidutils.generate_uuid(), name=name,
                    type='COMPUTE', control_attributes='SSH', deleted=0,
                    failover_segment_id=self.segment, reserved=False,
                    on_maintenance=False))
        self.ids = {item.name: item.id
                    for item in self.simulator.cloud.servers.values()}
        self.simulator.reset_calls()

    def test_capacity_as_json_and_table(self):
        code, out, _err = self.manage('segment', 'capacity', '--format',
                                      'json')
        self.assertEqual(0, code, out)
        [summary] = json.loads(out)
        # c1's two servers fit on c3 and c2's one, but not with c2 gone too.
        self.assertEqual(
            {'segment': 'seg-1', 'uuid': self.segment,
             'recovery_method': 'auto', 'hosts': 3,
             'failures_tolerated': 1, 'exact': True, 'at_most': 1,
             'spare': {'VCPU': 6, 'MEMORY_MB': 12288, 'DISK_GB': 180},
             'worst_host': None, 'worst_host_servers_without_room': []},
            {key: value for key, value in summary.items()
             if key != 'failing_set'})
        self.assertEqual(2, len(summary['failing_set']))

        code, out, _err = self.manage('segment', 'capacity', 'seg-1')
        self.assertEqual(0, code, out)
        self.assertEqual(
            ['Segment  Method  Hosts  Failures tolerated  Spare VCPU  '
             'Spare MEMORY_MB  Spare DISK_GB  Worst host (servers without '
             'room)',
             'seg-1    auto    3      1                   6           '
             '12288            180            -'], out.splitlines())
        # Read-only: Keystone, Nova reads and Placement reads alone.
        self.assertEqual({'GET'}, {call['method']
                                   for call in self.simulator.calls()
                                   if call['service'] != 'keystone'})

    def test_what_if_names_the_servers_without_room(self):
        code, out, _err = self.manage('segment', 'what-if', self.segment,
                                      '--host', 'c1', '--host', 'c3',
                                      '--format', 'json')
        self.assertEqual(0, code, out)
        plan = json.loads(out)
        self.assertEqual((['c1', 'c3'], 1), (plan['failed_hosts'],
                                             plan['without_room']))
        self.assertEqual(
            [('vip', 'c1', 7, 'c2'), ('web', 'c1', 0, None)],
            [(item['name'], item['host'], item['priority'], item['target'])
             for item in plan['servers']])
        self.assertEqual({'VCPU': 2, 'MEMORY_MB': 4096, 'DISK_GB': 40},
                         plan['servers'][0]['resources'])

        code, out, _err = self.manage('segment', 'what-if', 'seg-1',
                                      '--host', 'c1')
        self.assertEqual(0, code, out)
        lines = out.splitlines()
        self.assertEqual('Failure of c1 in segment seg-1 (auto):', lines[0])
        self.assertIn('%s  vip   c1    7         yes  2     4096       '
                      '40       c2' % self.ids['vip'], lines)
        self.assertEqual('2 servers placed, 0 without room.', lines[-1])

    def test_errors(self):
        code, out, _err = self.manage('segment', 'capacity', 'nope')
        self.assertEqual((1, 'Failover segment with name nope could not be '
                          'found.\n'), (code, out))
        code, out, _err = self.manage('segment', 'what-if', 'seg-1',
                                      '--host', 'c9')
        self.assertEqual(1, code)
        self.assertIn("host c9 not in segment 'seg-1'", out)
        code, _out, err = self.manage('segment', 'what-if', 'seg-1')
        self.assertEqual(2, code)
        self.assertIn('--host', err)
        self.simulator.cloud.faults.add({'service': 'placement',
                                         'status': 503})
        code, out, _err = self.manage('segment', 'capacity')
        self.assertEqual(1, code)
        self.assertIn('503', out)


class TestToleratedColumn(testtools.TestCase):

    def test_exact_or_bounds(self):
        def text(count, exact, at_most):
            return segment_capacity._tolerated({
                'failures_tolerated': count, 'exact': exact,
                'at_most': at_most})
        self.assertEqual(['2', '>= 2 (<= 5)', '>= 2'],
                         [text(2, True, 2), text(2, False, 5),
                          text(2, False, None)])
