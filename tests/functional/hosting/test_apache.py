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

"""etc/apache2/masakari-api.conf + masakari-api.wsgi under Apache mod_wsgi.

Debian's apache2 with the mod_wsgi module of the mod_wsgi package, built
for this environment's Python; the API answers at /instance-ha.
"""

import os
import subprocess
import sys

import requests
import testtools

from tests.fixtures import processes
from tests.functional.hosting import api_checks
from tests.functional.hosting import servers

SAMPLE_DIR = os.path.join(servers.ETC, 'apache2')
APACHE = '/usr/sbin/apache2'
APACHE_MODULES = '/usr/lib/apache2/modules'

_HTTPD_CONF = """ServerRoot {root}
ServerName 127.0.0.1
Listen 127.0.0.1:{port}
PidFile {root}/run/httpd.pid
DefaultRuntimeDir {root}/run
ErrorLog {root}/error.log
LogLevel info
LoadModule mpm_event_module {modules}/mod_mpm_event.so
LoadModule authz_core_module {modules}/mod_authz_core.so
{wsgi_module}
WSGISocketPrefix {root}/run/wsgi
Include {root}/masakari-api.conf
"""


def site_for(root):
    """The sample site with the script's directory and user replaced.

    The daemon runs as the server's own user, with a home and, for a
    virtualenv, its python-home.
    """
    with open(os.path.join(SAMPLE_DIR, 'masakari-api.conf')) as f:
        text = f.read()
    for old, new in (('/var/www/cgi-bin/masakari', SAMPLE_DIR),
                     ('user=masakari group=masakari',
                      'home=%s python-home=%s' % (root, sys.prefix))):
        if old not in text:
            raise AssertionError('sample site lost %r' % old)
        text = text.replace(old, new)
    with open(os.path.join(root, 'masakari-api.conf'), 'w') as f:
        f.write(text)


def apache_argv(conf):
    """apache2 in the foreground, never as root.

    NOTE: mod_wsgi refuses to run its daemons as root and Apache drops
    root for its workers; the interpreter may live where only root can
    read (e.g. /root/.pyenv).  As root, the server therefore runs in a user
    namespace where it is "nobody" while the kernel still checks file
    access with the test's own (root) identity.
    """
    argv = [APACHE, '-f', conf, '-DFOREGROUND']
    if os.getuid() == 0:
        argv = ['unshare', '--user', '--map-user=65534',
                '--map-group=65534'] + argv
    return argv


class TestApacheModWSGI(api_checks.SegmentRoundTrip, testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if not os.access(APACHE, os.X_OK):
            raise AssertionError(
                'apache2 missing: apt-get install -y apache2 apache2-dev')
        cls.config = servers.ConfigDir()
        cls.config.setUp()
        cls.addClassCleanup(cls.config.cleanUp)
        root = cls.config.root
        os.mkdir(os.path.join(root, 'run'))
        port = processes.free_port()
        cls.base_url = 'http://127.0.0.1:%d/instance-ha' % port
        site_for(root)
        wsgi_module = subprocess.run(
            [processes.executable('mod_wsgi-express'), 'module-config'],
            check=True, capture_output=True, text=True).stdout
        conf = os.path.join(root, 'httpd.conf')
        with open(conf, 'w') as f:
            f.write(_HTTPD_CONF.format(root=root, port=port,
                                       modules=APACHE_MODULES,
                                       wsgi_module=wsgi_module))
        # Daemons inherit Apache's environment: the .wsgi script takes
        # the configuration directory from it.
        env = dict(os.environ, OS_MASAKARI_CONFIG_DIR=cls.config.path)
        cls.server = servers.ServerProcess(
            apache_argv(conf), cls.base_url + '/', env=env,
            log_files=[os.path.join(root, 'error.log')])
        cls.server.setUp()
        cls.addClassCleanup(cls.server.cleanUp)

    def test_served_by_apache(self):
        response = requests.get(self.base_url + '/', timeout=30)
        self.assertIn('mod_wsgi', response.headers['Server'])
