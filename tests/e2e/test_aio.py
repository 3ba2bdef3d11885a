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

"""masakari-aio as a newcomer runs it (README's first command): the demo
recovers a host of the simulated cloud, fenced with ``--fencing``; a
custom recovery flow file is rehearsed against a topology; the plain mode
serves until SIGTERM; ``--metrics`` serves both endpoints after the demo.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import time

import fixtures
from prometheus_client import parser
import requests
import testtools

from tests.fixtures import processes

CUSTOM_FLOW = """\
[taskflow_driver_recovery_flows]
host_auto_failure_recovery_tasks = pre:['disable_compute_service_task', \
'no_op'],main:['prepare_HA_enabled_instances_task'],\
post:['evacuate_instances_task']
"""
INSTANT_TOPOLOGY = {
    'delays': {'evacuate': 0, 'stop': 0, 'start': 0},
    'hosts': ['compute-1', 'compute-2'],
    'servers': [{'name': 'app', 'count': 2, 'host': 'compute-1',
                 'metadata': {'HA_Enabled': 'True'}}],
}
API_BANNER = re.compile(r'API listening on (http://\S+)')
METRICS_BANNER = re.compile(r'metrics of the API on (http://\S+), of the '
                            r'engine on (http://\S+)$')


class TestAllInOne(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.state_dir = self.useFixture(fixtures.TempDir()).path

    def _demo(self, *arguments):
        result = subprocess.run(
            [processes.executable('masakari-aio'), '--demo'] +
            list(arguments), capture_output=True, text=True, timeout=180)
        self.addDetail('stdout', testtools.content.text_content(
            result.stdout))
        self.addDetail('stderr', testtools.content.text_content(
            result.stderr))
        return result

    def test_demo_recovers_a_host(self):
        result = self._demo('--wait', '1', '--keep')
        self.assertEqual(0, result.returncode)
        lines = result.stdout.splitlines()
        self.assertRegex(lines[0], API_BANNER)
        self.assertIn('host compute-1 is down with 4 instance(s): db '
                      '(stopped), scratch, web-1, web-2', lines)
        # The tasks' messages name instances as the vmove lines do.
        self.assertIn("  [EvacuateInstancesTask] Evacuation of instance "
                      "started: 'db' (0.5)", lines)
        self.assertTrue(any(re.match(
            r'instance db: stopped on compute-[23] \(already stopped '
            r'before the failure\)$', line) for line in lines), lines)
        self.assertIn('status: finished', lines)
        self.assertIn('  [EvacuateInstancesTask] Evacuation process '
                      'completed! (1.0)', lines)
        moved = [line for line in lines
                 if re.match(r'  vmove \S+: succeeded \(compute-1 -> '
                             r'compute-[23]\)$', line)]
        self.assertEqual(4, len(moved), moved)
        self.assertEqual('recovery finished', lines[-2])
        # --keep: the temporary state directory and its log stay.
        kept = re.match(r'masakari-aio: state kept in (\S+) \(log (\S+)\)$',
                        lines[-1])
        self.assertIsNotNone(kept, lines[-1])
        self.addCleanup(shutil.rmtree, kept.group(1), True)
        self.assertEqual(os.path.join(kept.group(1), 'masakari.log'),
                         kept.group(2))
        self.assertTrue(os.path.isfile(kept.group(2)))
        self.assertEqual('', result.stderr)

    def test_fencing_demo_fences_forces_down_and_evacuates_at_once(self):
        # The crashed host stays "up" for Nova for 60 s: only fencing and
        # force-down let the evacuation start before that.
        started = time.monotonic()
        result = self._demo('--fencing', '--wait', '600')
        self.assertEqual(0, result.returncode)
        self.assertLess(time.monotonic() - started, 60)
        lines = result.stdout.splitlines()
        self.assertIn('host compute-1 crashed with 4 instance(s): db '
                      '(stopped), scratch, web-1, web-2 (powered on; Nova '
                      'still reports its compute service up)', lines)
        fenced = [line for line in lines if re.match(
            r"  \[FenceHostTask\] Host 'compute-1' fenced by the redfish "
            r"driver at http://127\.0\.0\.1:\d+: power state on before, "
            r"off after, in \d+\.\d s \(1\.0\)$", line)]
        self.assertEqual(1, len(fenced), lines)
        self.assertIn("  [ForceDownComputeServiceTask] Compute service on "
                      "host 'compute-1' disabled and forced down; evacuating "
                      "without waiting for Nova to see it down (1.0)", lines)
        self.assertEqual('recovery finished', lines[-1])

    def test_custom_recovery_flow_rehearsal(self):
        flow_file = os.path.join(self.state_dir, 'custom-flow.conf')
        with open(flow_file, 'w') as f:
            f.write(CUSTOM_FLOW)
        topology_file = os.path.join(self.state_dir, 'topology.json')
        with open(topology_file, 'w') as f:
            json.dump(INSTANT_TOPOLOGY, f)
        result = self._demo('--wait', '0', '--topology', topology_file,
                            '--config-file', flow_file,
                            '--state-dir', self.state_dir)
        self.assertEqual(0, result.returncode)
        self.assertIn('recovery finished', result.stdout)
        with open(os.path.join(self.state_dir, 'masakari.log')) as log:
            self.assertIn('Custom task executed successfully..!!',
                          log.read())

    def test_serves_until_sigterm(self):
        process = subprocess.Popen(
            [processes.executable('masakari-aio'), '--port', '0',
             '--state-dir', self.state_dir], stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        self.addCleanup(process.kill)
        self.addCleanup(process.stdout.close)
        match = API_BANNER.search(process.stdout.readline())
        self.assertIsNotNone(match)
        api_url = match.group(1)
        # noauth2: no token needed.
        segments = requests.get(api_url + '/v1/segments', timeout=30)
        self.assertEqual({'segments': []}, segments.json())
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        self.assertEqual(0, process.wait(30))
        self.assertLess(time.monotonic() - started, 15)
        for name in ('masakari.conf', 'masakari.sqlite', 'taskflow.sqlite',
                     'masakari.log'):
            self.assertTrue(os.path.exists(os.path.join(self.state_dir,
                                                        name)), name)

    def test_metrics_demo_keeps_serving_both_endpoints(self):
        topology_file = os.path.join(self.state_dir, 'topology.json')
        with open(topology_file, 'w') as f:
            json.dump(INSTANT_TOPOLOGY, f)
        ports_file = os.path.join(self.state_dir, 'ports.conf')
        with open(ports_file, 'w') as f:
            f.write('[metrics]\napi_listen_port = %d\n'
                    'engine_listen_port = %d\n'
                    % (processes.free_port(), processes.free_port()))
        process = subprocess.Popen(
            [processes.executable('masakari-aio'), '--demo', '--metrics',
             '--wait', '2', '--topology', topology_file, '--config-file',
             ports_file], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True)
        self.addCleanup(process.kill)
        self.addCleanup(process.stdout.close)
        urls, lines = None, []
        for line in process.stdout:
            lines.append(line.rstrip('\n'))
            urls = urls or METRICS_BANNER.search(line)
            if 'stay served' in line:
                break
        self.addDetail('stdout', testtools.content.text_content(
            '\n'.join(lines)))
        self.assertIn('recovery finished', lines)
        self.assertIsNotNone(urls)

        def families(url):
            text = requests.get(url, timeout=30).text
            return {family.name: family for family in
                    parser.text_string_to_metric_families(text)}

        api, engine = families(urls.group(1)), families(urls.group(2))
        accepted = {sample.labels['type']: sample.value for sample in
                    api['masakari_api_notifications_accepted'].samples
                    if sample.name.endswith('_total')}
        self.assertEqual({'COMPUTE_HOST': 1, 'VM': 0, 'PROCESS': 0},
                         accepted)
        # The budget of --metrics (1 s) is shorter than the wait.
        over_budget = [sample.value for sample in
                       engine['masakari_engine_recovery_over_budget'].samples
                       if sample.name.endswith('_total')]
        self.assertEqual(1, sum(over_budget))
        self.assertNotIn('masakari_api_requests', engine)
        process.send_signal(signal.SIGINT)
        self.assertEqual(0, process.wait(30))
