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

"""The services behave as their systemd units expect.

Each console script is started with its unit's ExecStart arguments (paths
moved to the test's) and a NOTIFY_SOCKET, as systemd would: it must report
READY=1 (Type=notify), survive the unit's ExecReload signal (SIGHUP) and
exit 0 on the unit's KillSignal (SIGTERM) within TimeoutStopSec.
"""

import os
import shlex
import signal
import socket
import subprocess
import uuid

import fixtures
import requests
import testtools
from testtools import content

from tests.fixtures import polling
from tests.fixtures import processes
from tests.functional.hosting import servers
from tests.functional.hosting import test_systemd_units as units


class TestServiceLifecycle(testtools.TestCase):

    def _start(self, name, config):
        """The unit's ExecStart with NOTIFY_SOCKET.

        :returns: (process, notify socket, TimeoutStopSec, output path)
        """
        service = units.read_unit(units.UNITS[name])['Service']
        argv = [arg.replace(units.INSTALLED_BIN, processes.BIN_DIR + '/')
                   .replace('/etc/masakari/masakari.conf', config.conf_file)
                for arg in shlex.split(service['ExecStart'])]
        notify_path = os.path.join(config.root, 'notify')
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.addCleanup(sock.close)
        sock.bind(notify_path)
        sock.settimeout(90)
        output = self.useFixture(fixtures.TempDir()).path + '/output'
        with open(output, 'w') as out:
            process = subprocess.Popen(
                argv, env=dict(os.environ, NOTIFY_SOCKET=notify_path),
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True)
        # Cleanups run last first: kill, keep the output, remove the file.
        self.addCleanup(lambda: self.addDetail('output', content.
                        content_from_file(output, buffer_now=True)))
        self.addCleanup(self._kill, process)
        return process, sock, int(service['TimeoutStopSec']), output

    @staticmethod
    def _kill(process):
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def _ready_reload_stop(self, process, sock, stop_timeout, output,
                           ready_line, check=None):
        self.assertEqual(b'READY=1', sock.recv(1024))
        # NOTE: oslo.service's ServiceLauncher (the engine) sends READY=1
        # just before it installs its signal handlers; a SIGHUP in that
        # instant takes the default action and ends the process (library
        # behaviour, 22.0.0 too).  A reload comes later in practice: after
        # ready_line, which the service logs once the handlers exist.
        processes.wait_until(processes.file_contains(output, ready_line),
                             60, ready_line)
        if check:
            check()
        process.send_signal(signal.SIGHUP)
        processes.wait_until(
            processes.file_contains(output, 'Caught SIGHUP'), 60,
            'SIGHUP handled')
        self.assertIsNone(process.poll(), 'exited on SIGHUP')
        if check:
            check()
        process.send_signal(signal.SIGTERM)
        self.assertEqual(0, process.wait(stop_timeout))

    def test_masakari_api(self):
        port = processes.free_port()
        config = self.useFixture(servers.ConfigDir(defaults={
            'masakari_api_listen': '127.0.0.1',
            'masakari_api_listen_port': port,
            'masakari_api_workers': 1}))
        process, sock, stop_timeout, output = self._start('masakari-api',
                                                          config)

        def answers():
            response = polling.wait_until(
                lambda: requests.get('http://127.0.0.1:%d/' % port,
                                     timeout=10), 30, interval=0.5,
                ignored=requests.ConnectionError)
            self.assertEqual(200, response.status_code)

        self._ready_reload_stop(process, sock, stop_timeout, output,
                                'listening on', answers)

    def test_masakari_engine(self):
        config = self.useFixture(servers.ConfigDir(defaults={
            'host': 'engine-%s' % uuid.uuid4().hex}))
        process, sock, stop_timeout, output = self._start('masakari-engine',
                                                          config)
        self._ready_reload_stop(process, sock, stop_timeout, output,
                                'Starting ha_engine')
