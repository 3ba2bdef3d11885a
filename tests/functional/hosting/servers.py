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

"""Fixtures that host masakari.wsgi.api:application in a real server.

A configuration directory (noauth2, SQLite, fake transport) for
$OS_MASAKARI_CONFIG_DIR, and a server process started on a loopback port,
waited for, and stopped with SIGTERM.
"""

import os
import signal
import sqlite3
import subprocess
import tempfile

import fixtures
import requests

from tests.fixtures import polling
from tests.fixtures import processes

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..',
                                    '..'))
ETC = os.path.join(REPO, 'etc')

_MASAKARI_CONF = """[DEFAULT]
auth_strategy = noauth2
transport_url = fake:/
[database]
connection = sqlite:///{db}
[taskflow]
connection = sqlite:///{db}
"""


class ConfigDir(fixtures.Fixture):
    """$OS_MASAKARI_CONFIG_DIR with api-paste.ini, masakari.conf, a synced DB.

    Everything lives in ``root`` (world-readable so that a server running
    as another user can read it).

    :param defaults: more ``[DEFAULT]`` options of masakari.conf.
    """

    def __init__(self, defaults=None):
        super().__init__()
        self.defaults = defaults or {}

    def _setUp(self):
        self.root = tempfile.mkdtemp(prefix='masakari-hosting-')
        self.addCleanup(subprocess.run, ['rm', '-rf', self.root])
        os.chmod(self.root, 0o755)
        self.path = os.path.join(self.root, 'conf')
        os.mkdir(self.path)
        self.db_file = os.path.join(self.root, 'masakari.sqlite')
        self.conf_file = os.path.join(self.path, 'masakari.conf')
        with open(self.conf_file, 'w') as f:
            f.write(_MASAKARI_CONF.format(db=self.db_file).replace(
                '[DEFAULT]\n', '[DEFAULT]\n' + ''.join(
                    '%s = %s\n' % item for item in self.defaults.items())))
        with open(os.path.join(ETC, 'masakari', 'api-paste.ini')) as src:
            with open(os.path.join(self.path, 'api-paste.ini'), 'w') as dst:
                dst.write(src.read())
        subprocess.run([processes.executable('masakari-manage'),
                        '--config-file', self.conf_file, 'db', 'sync'],
                       check=True, capture_output=True, timeout=120)

    def segment_uuids(self):
        """The uuids of the failover_segments rows, straight from SQLite."""
        with sqlite3.connect(self.db_file) as db:
            return {row[0] for row in
                    db.execute('SELECT uuid FROM failover_segments')}


class ServerProcess(fixtures.Fixture):
    """``argv`` started in its own session, ready when ``probe_url`` is 200.

    :param log_files: files whose tail is shown when the server fails.
    """

    def __init__(self, argv, probe_url, env=None, log_files=(),
                 timeout=120):
        super().__init__()
        self.argv = argv
        self.probe_url = probe_url
        self.env = env
        self.log_files = list(log_files)
        self.timeout = timeout

    def _setUp(self):
        self.output = tempfile.TemporaryFile()
        self.addCleanup(self.output.close)
        self.log_files.append(self.output)
        self.process = subprocess.Popen(
            self.argv, env=self.env, stdout=self.output,
            stderr=subprocess.STDOUT, start_new_session=True)
        self.addCleanup(self.stop)
        self._wait_ready()

    def _wait_ready(self):
        def answers():
            if self.process.poll() is not None:
                raise AssertionError('%s exited with %s:\n%s' % (
                    self.argv[0], self.process.returncode, self.logs()))
            return requests.get(self.probe_url, timeout=30).ok

        polling.wait_until(
            answers, self.timeout, interval=0.5,
            ignored=(requests.ConnectionError, requests.Timeout),
            message=lambda: '%s not answering on %s:\n%s' % (
                self.argv[0], self.probe_url, self.logs()))

    def stop(self, timeout=30):
        """SIGTERM, then SIGKILL to the session; returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode

    def logs(self, limit=6000):
        text = []
        for log in self.log_files:
            if hasattr(log, 'seek'):
                log.seek(0)
                text.append(log.read().decode(errors='replace'))
            elif os.path.exists(log):
                with open(log, errors='replace') as f:
                    text.append(f.read())
        text = '\n'.join(text)
        return text[-limit:] if limit else text
