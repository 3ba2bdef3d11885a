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

"""masakari-api and masakari.wsgi.api started as an operator would."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import urllib.request

import fixtures
import testtools

from tests.fixtures import api as api_fixture
from tests.fixtures import polling
from tests.fixtures import processes

CONFIG = textwrap.dedent("""\
    [DEFAULT]
    auth_strategy = noauth2
    transport_url = fake:/
    masakari_api_listen = 127.0.0.1
    masakari_api_listen_port = {port}
    masakari_api_workers = {workers}
    [wsgi]
    api_paste_config = {directory}/api-paste.ini
    default_pool_size = 7
    [database]
    connection = sqlite://
    """)


def _free_port():
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


class ServerTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.directory = self.useFixture(fixtures.TempDir()).path
        shutil.copy(api_fixture.PASTE_INI, self.directory)
        self.port = _free_port()

    def write_config(self, workers=1):
        path = os.path.join(self.directory, 'masakari.conf')
        with open(path, 'w') as config:
            config.write(CONFIG.format(port=self.port, workers=workers,
                                       directory=self.directory))
        return path


class TestStandaloneServer(ServerTestCase):

    def _get(self, path, timeout=60):
        def answer():
            with urllib.request.urlopen('http://127.0.0.1:%d%s' % (
                    self.port, path), timeout=5) as response:
                return response.status, response.read()

        return polling.wait_until(
            answer, timeout, interval=0.1, ignored=OSError,
            message='masakari-api did not answer on port %d' % self.port)

    def test_serves_and_stops_on_sigterm(self):
        process = subprocess.Popen(
            [sys.executable, '-c', 'from masakari.cmd import api; api.main()',
             '--config-file', self.write_config()],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.addCleanup(process.kill)
        status, body = self._get('/')
        self.assertEqual(200, status)
        self.assertIn(b'"versions"', body)
        status, body = self._get('/v1/extensions')
        self.assertEqual(200, status)
        process.send_signal(signal.SIGTERM)
        self.assertEqual(0, process.wait(timeout=60))
        output = process.stdout.read().decode()
        self.assertIn('masakari_api listening on 127.0.0.1:%d' % self.port,
                      output)

    def _raw(self, request_line):
        """The whole answer to ``request_line`` sent over a raw socket."""
        with socket.create_connection(('127.0.0.1', self.port),
                                      timeout=30) as sock:
            sock.sendall(request_line.encode() +
                         b'\r\nHost: x\r\nConnection: close\r\n\r\n')
            answer = b''
            while chunk := sock.recv(65536):
                answer += chunk
        return answer.decode(errors='replace')

    def test_request_targets(self):
        process = subprocess.Popen(
            [processes.executable('masakari-api'),
             '--config-file', self.write_config()],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(process.kill)
        self.assertEqual(200, self._get('/')[0])
        for request_line in ('GET * HTTP/1.1', 'GET v1/segments HTTP/1.1',
                             'OPTIONS * HTTP/1.1'):
            answer = self._raw(request_line)
            self.assertTrue(answer.startswith('HTTP/1.1 400 '),
                            '%s: %s' % (request_line, answer))
            self.assertNotIn('Traceback', answer)
            self.assertNotIn(os.path.dirname(processes.BIN_DIR), answer)
        self.assertTrue(self._raw('GET /v1 HTTP/1.1').startswith(
            'HTTP/1.1 200 '))
        # The absolute form is the path's resource, as in 22.0.0.
        path_form = self._get('/v1/extensions')[1].decode()
        for request_line in ('GET http://127.0.0.1:%d/v1/extensions '
                             'HTTP/1.1' % self.port,
                             'GET https://api.example/v1/extensions '
                             'HTTP/1.1'):
            answer = self._raw(request_line)
            self.assertTrue(answer.startswith('HTTP/1.1 200 '), answer)
            self.assertTrue(answer.endswith('\r\n\r\n' + path_form),
                            answer)

    def test_negative_workers_fail_start_up(self):
        process = subprocess.run(
            [sys.executable, '-c', 'from masakari.cmd import api; api.main()',
             '--config-file', self.write_config(workers=-2)],
            capture_output=True, timeout=120)
        self.assertEqual(1, process.returncode)
        self.assertIn(b'masakari_api_workers value of -2 is invalid, must be '
                      b'greater than 0', process.stdout + process.stderr)


class TestWSGIApplication(ServerTestCase):

    SCRIPT = textwrap.dedent("""\
        import socket, sys, webob
        from masakari.wsgi import api
        response = webob.Request.blank('/v1/extensions').get_response(
            api.application)
        print(response.status_int, api.CONF.masakari_api_listen_port,
              socket.socket.__module__)
        """)

    def test_application_from_the_config_dir(self):
        self.write_config()
        process = subprocess.run(
            [sys.executable, '-c', self.SCRIPT], capture_output=True,
            timeout=120, env=dict(os.environ,
                                  OS_MASAKARI_CONFIG_DIR=self.directory))
        self.assertEqual(0, process.returncode, process.stderr)
        # The directory's values are kept and nothing is monkey patched.
        self.assertEqual('200 %d socket' % self.port,
                         process.stdout.decode().strip().splitlines()[-1])

    def test_missing_files(self):
        process = subprocess.run(
            [sys.executable, '-c', 'import masakari.wsgi.api'],
            capture_output=True, timeout=120,
            env=dict(os.environ, OS_MASAKARI_CONFIG_DIR='/nonexistent'))
        self.assertNotEqual(0, process.returncode)
        self.assertIn(b'Failed to find some config files: '
                      b'/nonexistent/api-paste.ini,'
                      b'/nonexistent/masakari.conf', process.stderr)
