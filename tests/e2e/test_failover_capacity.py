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

"""Failover capacity through the real programs: ``masakari-manage segment
what-if`` before a host fails, then the placement-aware recovery by
masakari-engine; the plan and what the recovery did must agree, in a
segment that has room and in one that does not.
"""

import json
import subprocess
import time

from tests.e2e import base
from tests.e2e import test_metrics
from tests.fixtures import processes

HOST_DOWN = {'event': 'STOPPED', 'host_status': 'NORMAL',
             'cluster_status': 'OFFLINE'}
# Room for two m1.medium servers (2 VCPU, 4096 MB, 40 GB each).
TWO = {'VCPU': 4, 'MEMORY_MB': 8192, 'DISK_GB': 100}
ONE = {'VCPU': 2, 'MEMORY_MB': 4096, 'DISK_GB': 40}
PRIORITIES = {'db': 9, 'app': 5, 'web': 3, 'batch': 1}


def _scenario(prefix, rooms):
    hosts = [{'name': '%s-src' % prefix, 'state': 'down'}] + [
        {'name': '%s-%d' % (prefix, number), 'resources': room}
        for number, room in enumerate(rooms, 1)]
    servers = [{'name': '%s-%s' % (prefix, name), 'host': '%s-src' % prefix,
                'flavor': 'm1.medium',
                'metadata': {'HA_Enabled': 'True',
                             'HA_Priority': str(priority)}}
               for name, priority in PRIORITIES.items()]
    return hosts, servers


FITS = _scenario('fits', [TWO, TWO])
TIGHT = _scenario('tight', [TWO, ONE])
CAPACITY = _scenario('cap', [TWO, ONE])


class TestFailoverCapacity(base.E2ETestCase):

    topology = {'delays': base.INSTANT,
                'hosts': FITS[0] + TIGHT[0] + CAPACITY[0],
                'servers': FITS[1] + TIGHT[1] + CAPACITY[1]}
    engine_port = processes.free_port()
    options = {
        'host_failure': {'placement_aware': True},
        # No periodic retry of an error: the outcome stays as recovered.
        'DEFAULT': {'process_unfinished_notifications_interval': 3600},
        'metrics': {'enabled': True, 'engine_listen_port': engine_port,
                    'segment_capacity_interval': 2},
    }

    def manage(self, *args):
        result = subprocess.run(
            [processes.executable('masakari-manage'), '--config-file',
             self.deployment.conf_file, 'segment'] + list(args),
            capture_output=True, text=True, timeout=120)
        self.assertEqual(0, result.returncode, result.stdout + result.stderr)
        return result.stdout

    def fail_host(self, prefix):
        """Register the scenario's segment, ask what-if, fail its source
        host; returns (the what-if plan, the final notification).
        """
        segment = self.api.create_segment(self.unique(prefix), 'auto')
        for host in self.topology['hosts']:
            if host['name'].startswith(prefix + '-'):
                self.api.create_host(segment['uuid'], host['name'])
        source = '%s-src' % prefix
        plan = json.loads(self.manage('what-if', segment['name'], '--host',
                                      source, '--format', 'json'))
        self.simulator.reset_calls()
        notification = self.post_notification('COMPUTE_HOST', source,
                                              HOST_DOWN)
        final = self.api.wait_for_notification(
            notification['notification_uuid'])
        return plan, final

    def outcome(self, final):
        """Server name -> (vmove status, destination)."""
        return {vmove['instance_name']: (vmove['status'], vmove['dest_host'])
                for vmove in self.api.vmoves(final['notification_uuid'])}

    def evacuations(self):
        """Server id -> the evacuate body, for every evacuation asked."""
        return {call['line'].split('/')[2]: call['body']['evacuate']
                for call in self.simulator.nova_calls()
                if call['body'] and 'evacuate' in call['body']}

    def test_a_segment_that_fits(self):
        plan, final = self.fail_host('fits')
        self.assertEqual('finished', final['status'])
        self.assertEqual(0, plan['without_room'])
        # Every server evacuated to its planned host, and only there.
        self.assertEqual(
            {server['name']: ('succeeded', server['target'])
             for server in plan['servers']}, self.outcome(final))
        self.assertEqual({server['id']: {'host': server['target']}
                          for server in plan['servers']},
                         self.evacuations())
        self.assertEqual(['fits-db', 'fits-app', 'fits-web', 'fits-batch'],
                         [server['name'] for server in plan['servers']])

    def test_a_segment_without_room_for_everything(self):
        plan, final = self.fail_host('tight')
        self.assertEqual('error', final['status'])
        # Room for three: the lowest priority has none.
        self.assertEqual(
            [('tight-db', 'tight-1'), ('tight-app', 'tight-1'),
             ('tight-web', 'tight-2'), ('tight-batch', None)],
            [(server['name'], server['target'])
             for server in plan['servers']])
        self.assertEqual(
            {server['name']: ('succeeded', server['target'])
             if server['target'] else ('ignored', None)
             for server in plan['servers']}, self.outcome(final))
        # No evacuation asked that was bound to fail: one per placed
        # server, each to its planned host; the last server untouched.
        self.assertEqual({server['id']: {'host': server['target']}
                          for server in plan['servers'] if server['target']},
                         self.evacuations())
        batch = self.simulator.server('tight-batch')
        self.assertEqual(('tight-src', 'active', False),
                         (batch['host'], batch['vm_state'], batch['locked']))
        messages = [item['message']
                    for task in self.api.notification(
                        final['notification_uuid'])[
                            'recovery_workflow_details']
                    for item in task['progress_details']]
        self.assertIn("No room in the failover segment for 1 instances of "
                      "host 'tight-src': '%s'" % batch['id'], messages)

    def test_capacity_before_any_failure(self):
        segment = self.api.create_segment(self.unique('cap'), 'auto')
        for host in CAPACITY[0]:
            self.api.create_host(segment['uuid'], host['name'])
        [summary] = json.loads(self.manage('capacity', segment['uuid'],
                                           '--format', 'json'))
        self.assertEqual((0, True, 'cap-src', 1),
                         (summary['failures_tolerated'], summary['exact'],
                          summary['worst_host'],
                          len(summary['worst_host_servers_without_room'])))
        # The engine exports the same, on its next computation.
        name = segment['name']
        deadline = time.monotonic() + 30
        while True:
            samples = test_metrics.scrape(self.engine_port)
            if test_metrics.value(samples, 'masakari_segment_spare',
                                  segment=name, resource='VCPU'):
                break
            self.assertLess(time.monotonic(), deadline, samples)
            time.sleep(0.5)
        self.assertEqual(
            (0, 1, summary['spare']['VCPU']),
            tuple(test_metrics.value(samples, family, segment=name)
                  for family in ('masakari_segment_failures_tolerated',
                                 'masakari_segment_failures_tolerated_'
                                 'target'))
            + (test_metrics.value(samples, 'masakari_segment_spare',
                                  segment=name, resource='VCPU'),))
