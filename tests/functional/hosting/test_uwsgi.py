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

"""etc/uwsgi/masakari-api.ini serves the API under the uWSGI of the venv."""

import grp
import os
import pwd
import re

import testtools

from tests.fixtures import polling
from tests.fixtures import processes
from tests.functional.hosting import api_checks
from tests.functional.hosting import servers

SAMPLE = os.path.join(servers.ETC, 'uwsgi', 'masakari-api.ini')


def _sample():
    with open(SAMPLE) as f:
        return f.read()


def sample_for(port, config_dir, root):
    """The sample with its port, config directory and user (masakari)
    moved to the test's.
    """
    text = _sample()
    for old, new in (('http-socket = 127.0.0.1:15868',
                      'http-socket = 127.0.0.1:%d' % port),
                     ('OS_MASAKARI_CONFIG_DIR=/etc/masakari',
                      'OS_MASAKARI_CONFIG_DIR=' + config_dir),
                     ('uid = masakari',
                      'uid = ' + pwd.getpwuid(os.getuid()).pw_name),
                     ('gid = masakari',
                      'gid = ' + grp.getgrgid(os.getgid()).gr_name)):
        if text.count(old) != 1:
            raise AssertionError('%s: expected one %r' % (SAMPLE, old))
        text = text.replace(old, new)
    path = os.path.join(root, 'masakari-api.ini')
    with open(path, 'w') as f:
        f.write(text)
    return path


def uwsgi_server(config):
    """A ServerProcess of uWSGI with the sample, on a free port."""
    port = processes.free_port()
    ini = sample_for(port, config.path, config.root)
    # The environment variable of the sample must be what counts.
    env = {k: v for k, v in os.environ.items()
           if k != 'OS_MASAKARI_CONFIG_DIR'}
    return servers.ServerProcess([processes.executable('uwsgi'), '--ini', ini],
                                 'http://127.0.0.1:%d/' % port, env=env)


class TestUWSGI(api_checks.SegmentRoundTrip, testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.config = servers.ConfigDir()
        cls.config.setUp()
        cls.addClassCleanup(cls.config.cleanUp)
        cls.server = uwsgi_server(cls.config)
        cls.server.setUp()
        cls.addClassCleanup(cls.server.cleanUp)
        cls.base_url = cls.server.probe_url.rstrip('/')

    def test_sigterm_stops_master_and_workers(self):
        # NOTE: the sample maps SIGTERM to "gracefully_kill_them_all".
        server = self.useFixture(uwsgi_server(self.config))
        # With lazy-apps a worker still loading the application misses the
        # graceful kill and only goes after worker-reload-mercy: wait for
        # every worker first.
        workers = int(re.search(r'^processes = (\d+)$', _sample(),
                                re.M).group(1))
        polling.wait_until(
            lambda: server.logs(limit=None).count(
                'WSGI app 0 (mountpoint=') >= workers, 60, interval=0.5,
            message='uWSGI workers loaded')
        self.assertEqual(0, server.stop())
