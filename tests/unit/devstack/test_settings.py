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

"""devstack/settings: the reference's variable names and defaults, and
ours (the opt-in features).
"""

import os
import socket
import subprocess

import testtools

from tests.unit.devstack import host as devstack

_PRINT = '''
source "$STUBS"
source "$SETTINGS"
for name in "$@"; do printf '%s=%s\\n' "$name" "${!name}"; done
printf 'ENABLED_SERVICES=%s\\n' "$ENABLED_SERVICES"
printf 'CLIENT=%s|%s|%s\\n' "${GITREPO[python-masakariclient]}" \
    "${GITBRANCH[python-masakariclient]}" "${GITDIR[python-masakariclient]}"
'''

EXPECTED = {
    'MASAKARI_DIR': '/opt/stack/masakari',
    # The reference's value had a stray "}"; the name is kept.
    'MASAKARI_REPO': 'https://opendev.org/openstack/masakari.git',
    'MASAKARI_BRANCH': 'master',
    'MASAKARI_DASHBOARD_DIR': '/opt/stack/masakari-dashboard',
    'MASAKARI_DASHBOARD_REPO':
        'https://opendev.org/openstack/masakari-dashboard',
    'MASAKARI_DASHBOARD_BRANCH': 'master',
    'MASAKARI_MONITORS_DIR': '/opt/stack/masakari-monitors',
    'MASAKARI_MONITORS_REPO':
        'https://opendev.org/openstack/masakari-monitors',
    'MASAKARI_MONITORS_BRANCH': 'master',
    'MASAKARI_CLIENT_DIR': '/opt/stack/python-masakariclient',
    'MASAKARI_CLIENT_REPO':
        'https://opendev.org/openstack/python-masakariclient',
    'MASAKARI_CLIENT_BRANCH': 'master',
    'MASAKARI_CONF_DIR': '/etc/masakari',
    'MASAKARI_CONF': '/etc/masakari/masakari.conf',
    'MASAKARI_API_PASTE_INI': '/etc/masakari/api-paste.ini',
    'MASAKARI_POLICY_JSON': '/etc/masakari/policy.yaml',
    'MASAKARI_MONITORS_CONF_DIR': '/etc/masakarimonitors',
    'MASAKARI_MONITORS_CONF': '/etc/masakarimonitors/masakarimonitors.conf',
    'MASAKARI_LOCAL_CONF_DIR': '/opt/stack/masakari/etc/masakari',
    'MASAKARI_LOCAL_API_PASTE_INI':
        '/opt/stack/masakari/etc/masakari/api-paste.ini',
    'MASAKARI_LOCAL_POLICY_JSON':
        '/opt/stack/masakari/etc/masakari/policy.yaml',
    'MASAKARI_AUTH_CACHE_DIR': '/var/cache/masakari',
    'MASAKARI_SERVICE_HOST': '10.0.0.5',
    'MASAKARI_SERVICE_PROTOCOL': 'http',
    'USERNAME': 'masakari',
    'SERVICE_DOMAIN_ID': 'default',
    'MASAKARI_BIN_DIR': '/usr/local/bin',
    'MASAKARI_MANAGE': '/usr/local/bin/masakari-manage',
    'MASAKARI_SERVICE_PORT': '15868',
    'MASAKARI_SERVICE_PORT_INT': '25868',
    'MASAKARI_UWSGI': 'masakari.wsgi.api:application',
    'MASAKARI_UWSGI_CONF': '/etc/masakari/masakari-api-uwsgi.ini',
    # Ours: the opt-in features, all off.
    'MASAKARI_FENCING_EMULATOR': 'False',
    'MASAKARI_FENCING_FILE': '',
    'MASAKARI_FENCING_REQUIRED': 'False',
    'MASAKARI_FENCING_DRIVER': 'redfish',
    'MASAKARI_BMC_EMULATOR_HOST': '127.0.0.1',
    'MASAKARI_BMC_EMULATOR_PORT': '18774',
    'MASAKARI_BMC_POWER_DELAY': '2',
    'MASAKARI_BMC_TOPOLOGY': '/etc/masakari/bmc-topology.json',
    'MASAKARI_METRICS': 'False',
    'MASAKARI_METRICS_LISTEN_ADDRESS': '127.0.0.1',
    'MASAKARI_METRICS_API_PORT': '9781',
    'MASAKARI_METRICS_ENGINE_PORT': '9782',
    'MASAKARI_METRICS_DIR': '/opt/stack/data/masakari/api-metrics',
    'MASAKARI_TAKEOVER_LEASE_TIMEOUT': '',
    'MASAKARI_TAKEOVER_NEW_NOTIFICATION_AGE': '',
    'MASAKARI_COORDINATION_BACKEND_URL': '',
}

SERVICES = ['masakari', 'masakari-api', 'masakari-engine',
            'masakari-monitors', 'masakari-processmonitor',
            'masakari-instancemonitor', 'masakari-hostmonitor',
            'masakari-introspectiveinstancemonitor']


class TestSettings(testtools.TestCase):

    def _settings(self, **env):
        base = {'PATH': os.environ['PATH'], 'DEST': '/opt/stack',
                'GIT_BASE': 'https://opendev.org', 'SERVICE_HOST': '10.0.0.5',
                'PYTHON_BIN_DIR': '/usr/local/bin', 'ENABLED_SERVICES': 'key',
                'STUBS': os.path.join(devstack.HERE, 'stubs.sh'),
                'SETTINGS': os.path.join(devstack.PLUGIN_DIR, 'settings')}
        base.update(env)
        out = subprocess.run(['bash', '-c', _PRINT, 'settings'] +
                             list(EXPECTED) + ['MASAKARI_FENCING_HOSTS'],
                             env=base, check=True,
                             capture_output=True, text=True).stdout
        return dict(line.split('=', 1) for line in out.splitlines())

    def test_defaults(self):
        values = self._settings()
        for name, default in EXPECTED.items():
            self.assertEqual(default, values[name], name)
        self.assertEqual(
            'https://opendev.org/openstack/python-masakariclient|master|'
            '/opt/stack/python-masakariclient', values['CLIENT'])

    def test_enables_the_plugin_services(self):
        enabled = self._settings()['ENABLED_SERVICES'].split(',')
        self.assertEqual(['key'] + SERVICES, enabled)

    def test_fencing_hosts_default_to_this_host(self):
        self.assertEqual(socket.gethostname(),
                         self._settings()['MASAKARI_FENCING_HOSTS'])

    def test_the_emulator_has_a_fencing_file(self):
        values = self._settings(MASAKARI_FENCING_EMULATOR='true')
        self.assertEqual('True', values['MASAKARI_FENCING_EMULATOR'])
        self.assertEqual('/etc/masakari/fencing.yaml',
                         values['MASAKARI_FENCING_FILE'])
        values = self._settings(MASAKARI_FENCING_EMULATOR='True',
                                MASAKARI_FENCING_FILE='/srv/bmcs.yaml')
        self.assertEqual('/srv/bmcs.yaml', values['MASAKARI_FENCING_FILE'])

    def test_local_conf_overrides_win(self):
        values = self._settings(MASAKARI_REPO='https://mirror/masakari.git',
                                MASAKARI_BRANCH='stable/2026.2')
        self.assertEqual('https://mirror/masakari.git',
                         values['MASAKARI_REPO'])
        self.assertEqual('stable/2026.2', values['MASAKARI_BRANCH'])
