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

"""A throw-away devstack host on which devstack/plugin.sh runs for real.

The devstack helpers are the stand-ins of stubs.sh: iniset edits real
files, the database is SQLite and the keystone/process helpers record
their calls.  oslo-config-generator and masakari-manage are the real ones
of the running interpreter's environment.
"""

import configparser
import os
import pwd
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
PLUGIN_DIR = os.path.join(REPO, 'devstack')
BIN_DIR = os.path.dirname(sys.executable)

SERVICE_HOST = '192.0.2.10'
KEYSTONE_URI = 'http://192.0.2.10/identity'
SERVICE_PASSWORD = 'service-secret'
ADMIN_PASSWORD = 'admin-secret'


class DevstackHost(object):
    """Devstack's environment in ``root`` and the plugin's phases run there.

    :param services: ENABLED_SERVICES before the plugin's settings add its
        own services.
    :param disabled: services disabled after the settings (comma-separated).
    :param env: more devstack variables (e.g. LOG_COLOR='True').
    """

    def __init__(self, root, services='key,mysql,rabbit', disabled='',
                 **env):
        self.root = root
        self.conf_dir = os.path.join(root, 'etc', 'masakari')
        self.conf_file = os.path.join(self.conf_dir, 'masakari.conf')
        self.monitors_conf_dir = os.path.join(root, 'etc', 'masakarimonitors')
        self.horizon_dir = os.path.join(root, 'opt', 'horizon')
        self.db_file = os.path.join(root, 'masakari.sqlite')
        self.calls_file = os.path.join(root, 'calls')
        self.env = dict(
            os.environ,
            PATH=BIN_DIR + os.pathsep + os.environ.get('PATH', ''),
            PYTHON=sys.executable,
            PYTHON_BIN_DIR=BIN_DIR,
            INISET_TOOL=os.path.join(HERE, 'iniset.py'),
            DEVSTACK_CALLS=self.calls_file,
            DEVSTACK_STATE=root,
            ENABLED_SERVICES=services,
            DISABLED_SERVICES=disabled,
            DEST=os.path.join(root, 'opt'),
            GIT_BASE='https://git.example.org',
            HORIZON_DIR=self.horizon_dir,
            MASAKARI_DIR=REPO,
            MASAKARI_CONF_DIR=self.conf_dir,
            MASAKARI_MONITORS_CONF_DIR=self.monitors_conf_dir,
            STACK_USER=pwd.getpwuid(os.getuid()).pw_name,
            SERVICE_HOST=SERVICE_HOST,
            KEYSTONE_SERVICE_URI=KEYSTONE_URI,
            SERVICE_PASSWORD=SERVICE_PASSWORD,
            ADMIN_PASSWORD=ADMIN_PASSWORD,
            SERVICE_PROJECT_NAME='service',
            SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT='5',
            SERVICE_TIMEOUT='60',
            API_WORKERS='2',
            ENABLE_DEBUG_LOG_LEVEL='True',
            SYSLOG='False',
            LOG_COLOR='False',
            REGION_NAME='RegionOne',
            LIBS_FROM_GIT='')
        self.env.update(env)
        os.makedirs(self.horizon_dir, exist_ok=True)

    def run(self, mode, phase='', check=True):
        """Source settings + plugin.sh as devstack does for one phase."""
        result = subprocess.run(
            ['bash', os.path.join(HERE, 'run_phase.sh'), PLUGIN_DIR, mode,
             phase],
            env=self.env, cwd=self.root, capture_output=True, text=True,
            timeout=120)
        if check and result.returncode != 0:
            raise AssertionError('plugin.sh %s %s failed (%d):\n%s' % (
                mode, phase, result.returncode, result.stderr[-4000:]))
        return result

    def stack(self):
        for phase in ('install', 'post-config', 'extra'):
            self.run('stack', phase)

    def calls(self, name=None):
        """The recorded helper calls as tuples (name, arg, ...)."""
        if not os.path.exists(self.calls_file):
            return []
        with open(self.calls_file) as f:
            calls = [tuple(line.rstrip('\n').split('\t')) for line in f]
        return [c for c in calls if name is None or c[0] == name]

    def ini(self, path=None):
        """The ini file as configparser reads it (no interpolation)."""
        parser = configparser.RawConfigParser(strict=False)
        with open(path or self.conf_file) as f:
            parser.read_file(f)
        return parser


def class_host(test_class, **kwargs):
    """A DevstackHost shared by ``test_class``'s tests (from setUpClass),
    its root removed when the class is done.
    """
    root = tempfile.mkdtemp(prefix='devstack-')
    test_class.addClassCleanup(shutil.rmtree, root)
    return DevstackHost(root, **kwargs)
