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

"""etc/systemd/masakari-{api,engine}.service: valid units fitting the services.

``systemd-analyze verify`` checks each unit where systemd is installed (a
copy whose ExecStart points at this environment's console script, since
verify insists that the binary exists, and with the manual pages of
doc/source built, since it looks up those Documentation= names); the
settings that must agree with
how oslo.service runs the services are read from the files themselves.
"""

import configparser
import os
import re
import shutil
import subprocess
import sys

import fixtures
import testtools

from tests.fixtures import processes
from tests.functional.hosting import servers

UNITS = {'masakari-api': os.path.join(servers.ETC, 'systemd',
                                      'masakari-api.service'),
         'masakari-engine': os.path.join(servers.ETC, 'systemd',
                                         'masakari-engine.service')}
# The virtualenv of the manual installation (doc/source/install/manual.rst).
VIRTUALENV = '/opt/masakari'
INSTALLED_BIN = VIRTUALENV + '/bin/'
MANUAL = os.path.join(servers.REPO, 'doc', 'source', 'install', 'manual.rst')
# oslo.service's default [DEFAULT]/graceful_shutdown_timeout.
GRACEFUL_SHUTDOWN_TIMEOUT = 60


def read_unit(path):
    parser = configparser.RawConfigParser(strict=True)
    parser.optionxform = str
    with open(path) as f:
        parser.read_file(f)
    return parser


class TestSystemdUnits(testtools.TestCase):

    def test_systemd_analyze_verify(self):
        analyze = shutil.which('systemd-analyze')
        if analyze is None:
            self.skipTest('systemd-analyze not installed')
        root = self.useFixture(fixtures.TempDir()).path
        # NOTE: verify runs man for each Documentation=man:... page: the
        # pages doc/source builds must be the ones the units name.
        manpath = os.path.join(root, 'man')
        subprocess.run([sys.executable, '-m', 'sphinx', '-q', '-b', 'man',
                        os.path.join(servers.REPO, 'doc', 'source'),
                        manpath], check=True, capture_output=True,
                       timeout=300)
        for name, path in UNITS.items():
            with open(path) as f:
                text = f.read()
            self.assertEqual(1, text.count('ExecStart=' + INSTALLED_BIN))
            copy = os.path.join(root, os.path.basename(path))
            with open(copy, 'w') as f:
                f.write(text.replace('ExecStart=' + INSTALLED_BIN,
                                     'ExecStart=%s/' % processes.BIN_DIR))
            result = subprocess.run([analyze, 'verify', copy],
                                    capture_output=True, text=True,
                                    timeout=60,
                                    env=dict(os.environ, MANPATH=manpath))
            # verify exits 0 on unknown keys or bad values, but says so.
            self.assertEqual((0, ''), (result.returncode,
                                       result.stdout + result.stderr),
                             name)

    def test_runs_the_documented_virtualenv_as_the_documented_user(self):
        with open(MANUAL) as f:
            manual = f.read()
        self.assertIn('python3 -m venv %s\n' % VIRTUALENV, manual)
        self.assertIn('useradd --system', manual)
        for path in UNITS.values():
            service = read_unit(path)['Service']
            self.assertTrue(service['ExecStart'].startswith(INSTALLED_BIN))
            self.assertEqual(('masakari', 'masakari'),
                             (service['User'], service['Group']))

    def test_service_settings(self):
        for name, path in UNITS.items():
            service = read_unit(path)['Service']
            self.assertEqual(
                '%s%s --config-file=/etc/masakari/masakari.conf'
                % (INSTALLED_BIN, name), service['ExecStart'])
            self.assertTrue(os.path.exists(
                os.path.join(processes.BIN_DIR, name)), name)
            # oslo.service sends READY=1 itself.
            self.assertEqual('notify', service['Type'])
            self.assertEqual('/bin/kill -HUP $MAINPID', service['ExecReload'])
            self.assertEqual('mixed', service['KillMode'])
            self.assertEqual('SIGTERM', service['KillSignal'])
            self.assertEqual('on-failure', service['Restart'])
            self.assertEqual('masakari', service['User'])
            # systemd must not SIGKILL before oslo.service gives up itself.
            stop = int(re.fullmatch(r'(\d+)', service['TimeoutStopSec'])[1])
            self.assertGreater(stop, GRACEFUL_SHUTDOWN_TIMEOUT, name)
