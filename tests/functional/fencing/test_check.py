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

"""``masakari-simulator --fencing-config`` and ``masakari-manage fencing
check --connect``, both as the operator runs them.
"""

import json
import os
import queue
import subprocess
import threading

import fixtures
import testtools

from tests.fixtures import polling
from tests.fixtures import processes
from tests.fixtures import tls

START_TIMEOUT = 60
TOPOLOGY = {'hosts': ['compute-1', 'compute-2'], 'service_down_time': 5}


class TestFencingCheck(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path

    def simulator(self, driver, *options):
        """Start masakari-simulator with BMCs; return its fencing file."""
        topology = os.path.join(self.dir, 'topology.json')
        with open(topology, 'w') as stream:
            json.dump(TOPOLOGY, stream)
        path = os.path.join(self.dir, 'fencing-%s.yaml' % driver)
        process = subprocess.Popen(
            [processes.executable('masakari-simulator'), '--topology',
             topology, '--port', '0', '--fencing-config', path,
             '--fencing-driver', driver, '--bmc-password', 'S3cret-BMC']
            + list(options),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.addCleanup(self._stop, process)
        banner = self._read_until(process, 'config_file = ')
        self.assertIn('  config_file = %s' % path, banner)
        self.assertNotIn('S3cret-BMC', banner)
        self.assertEqual(0o600, os.stat(path).st_mode & 0o777)
        return path

    def _read_until(self, process, marker):
        # NOTE: a reader thread, so that the deadline holds even when the
        # process prints nothing.
        output = queue.Queue()
        threading.Thread(target=lambda: [output.put(line) for line in
                                         iter(process.stdout.readline, '')],
                         daemon=True).start()
        lines = []

        def marked():
            try:
                lines.append(output.get(timeout=0.5))
            except queue.Empty:
                return False
            return marker in lines[-1]

        polling.wait_until(marked, START_TIMEOUT, interval=0,
                           message=lambda: ''.join(lines))
        return ''.join(lines)

    def _stop(self, process):
        process.terminate()
        self.assertEqual(0, process.wait(30))

    def manage(self, path):
        """``fencing check --connect``: (exit status, report); the
        libraries' log lines (sushy's fall back from sessions to basic
        authentication) stay on standard error.
        """
        result = subprocess.run(
            [processes.executable('masakari-manage'), '--config-file',
             os.devnull, 'fencing', 'check', '--connect', '--file', path],
            capture_output=True, text=True, timeout=120)
        return result.returncode, result.stdout

    def test_check_connect_with_each_driver(self):
        for driver in ('ipmi', 'redfish'):
            path = self.simulator(driver)
            code, out = self.manage(path)
            self.assertEqual(0, code, out)
            lines = out.splitlines()
            self.assertEqual('%s: 2 host(s), valid.' % path, lines[0])
            self.assertEqual(2, len(lines[1:]), out)
            for line in lines[1:]:
                self.assertIn(': %s ' % driver, line)
                self.assertTrue(line.endswith(': OK power on'), line)

    def test_check_connect_over_tls(self):
        certificate, key = tls.self_signed_certificate(self.dir)
        path = self.simulator('redfish', '--bmc-tls-cert', certificate,
                              '--bmc-tls-key', key)
        code, out = self.manage(path)
        self.assertEqual(0, code, out)
        self.assertIn('compute-1: redfish address=https://127.0.0.1:', out)
        with open(path) as stream:
            entries = json.load(stream)
        self.assertEqual(certificate, entries['compute-1']['verify'])
        del entries['compute-1']['verify']
        with open(path, 'w') as stream:
            json.dump(entries, stream)
        code, out = self.manage(path)
        self.assertEqual(1, code, out)
        self.assertIn('compute-1: redfish address=https://127.0.0.1:', out)
        self.assertIn('presented a TLS certificate that cannot be verified '
                      '(self-signed certificate)', out)

    def test_bad_credentials_fail_the_check(self):
        path = self.simulator('redfish')
        with open(path) as stream:
            entries = json.load(stream)
        entries['compute-2']['password'] = 'Wrong-Pa55'
        with open(path, 'w') as stream:
            json.dump(entries, stream)
        code, out = self.manage(path)
        self.assertEqual(1, code, out)
        [first, second] = out.splitlines()[1:]
        self.assertTrue(first.endswith(': OK power on'), out)
        self.assertIn('compute-2: redfish', second)
        self.assertIn(': FAILED the Redfish BMC at http://127.0.0.1:',
                      second)
        self.assertTrue(second.endswith('refused the credentials'), second)
        self.assertNotIn('Wrong-Pa55', out)
        self.assertNotIn('S3cret-BMC', out)
