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

"""devstack/plugin.sh with the opt-in features of its variables: fencing
(a fencing file, or emulated BMCs), metrics, takeover, coordination; and
a Masakari tree cloned from MASAKARI_REPO when MASAKARI_DIR is missing.
"""

import json
import os

import fixtures
import testtools

from masakari.simulator import topology
from tests.unit.devstack import host as devstack

FEATURES = {
    'MASAKARI_FENCING_EMULATOR': 'True',
    'MASAKARI_FENCING_HOSTS': 'compute-1,compute-2',
    'MASAKARI_FENCING_REQUIRED': 'True',
    'MASAKARI_METRICS': 'True',
    'MASAKARI_METRICS_API_PORT': '19781',
    'MASAKARI_TAKEOVER_LEASE_TIMEOUT': '90',
    'MASAKARI_TAKEOVER_NEW_NOTIFICATION_AGE': '15',
    'MASAKARI_COORDINATION_BACKEND_URL': 'redis://127.0.0.1:6379',
}


def write_fencing_file(path, hosts=('compute-1', 'compute-2')):
    """A valid file, as the BMC emulators would write it."""
    with open(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600), 'w') as f:
        json.dump({host: {'driver': 'redfish',
                          'address': 'http://127.0.0.1:8000',
                          'username': 'admin', 'password': 'password',
                          'system_id': host} for host in hosts}, f)


class TestEveryFeature(testtools.TestCase):
    """A controller with emulated BMCs, metrics, takeover, coordination."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.host = devstack.class_host(cls, **FEATURES)
        cls.fencing_file = os.path.join(cls.host.conf_dir, 'fencing.yaml')
        cls.metrics_dir = os.path.join(cls.host.root, 'opt', 'data',
                                       'masakari', 'api-metrics')
        cls.host.run('stack', 'install')
        cls.host.run('stack', 'post-config')
        # NOTE: the BMC emulators' unit only runs in a real devstack;
        # write what it writes at its start.
        write_fencing_file(cls.fencing_file)
        cls.host.run('stack', 'extra')
        cls.conf = cls.host.ini()

    def test_extras_and_packages_of_the_features(self):
        self.assertEqual([('setup_develop', devstack.REPO,
                           'fencing,coordination')],
                         self.host.calls('setup_develop'))
        self.assertEqual([('pip_install', 'sushy-tools')],
                         self.host.calls('pip_install'))

    def test_options(self):
        expected = [
            ('fencing', 'config_file', self.fencing_file),
            ('fencing', 'required', 'True'),
            ('metrics', 'enabled', 'True'),
            ('metrics', 'listen_address', '127.0.0.1'),
            ('metrics', 'api_listen_port', '19781'),
            ('metrics', 'engine_listen_port', '9782'),
            ('metrics', 'multiprocess_dir', self.metrics_dir),
            ('takeover', 'lease_timeout', '90'),
            ('takeover', 'new_notification_age', '15'),
            ('coordination', 'backend_url', 'redis://127.0.0.1:6379'),
        ]
        for section, option, value in expected:
            self.assertEqual(value, self.conf.get(section, option),
                             '[%s]/%s' % (section, option))
        self.assertTrue(os.path.isdir(self.metrics_dir))

    def test_bmc_topology_names_the_fencing_hosts(self):
        path = os.path.join(self.host.conf_dir, 'bmc-topology.json')
        services = topology.build_services(topology.load(path))
        self.assertEqual(['compute-1', 'compute-2'],
                         [service.host for service in services.values()])

    def test_bmc_emulators_start_first_and_the_engine_last(self):
        started = [c[:2] for c in self.host.calls()
                   if c[0] in ('run_process', 'wait_for_service')]
        self.assertEqual([('run_process', 'masakari-bmc'),
                          ('run_process', 'masakari-api'),
                          ('wait_for_service', '60'),
                          ('run_process', 'masakari-engine')], started)
        self.assertEqual(
            '%s/masakari-simulator --topology %s --host 127.0.0.1 '
            '--port 18774 --bmc --bmc-power-delay 2 --fencing-config %s '
            '--fencing-driver redfish' % (
                devstack.BIN_DIR,
                os.path.join(self.host.conf_dir, 'bmc-topology.json'),
                self.fencing_file),
            self.host.calls('run_process')[0][2])

    def test_unstack_stops_the_emulators(self):
        host = devstack.DevstackHost(
            self.useFixture(fixtures.TempDir()).path, **FEATURES)
        host.run('unstack')
        self.assertEqual(['masakari-engine', 'masakari-api', 'masakari-bmc'],
                         [c[1] for c in host.calls('stop_process')])


class TestFeatureFailures(testtools.TestCase):
    """What stops the stack, and where the tree comes from."""

    def _host(self, **env):
        root = self.useFixture(fixtures.TempDir()).path
        return devstack.DevstackHost(root, **env)

    def test_an_invalid_fencing_file_stops_before_the_engine(self):
        host = self._host()
        path = os.path.join(host.root, 'bmcs.yaml')
        with open(path, 'w') as f:
            f.write('compute-1:\n  driver: redfish\n')
        host.env['MASAKARI_FENCING_FILE'] = path
        host.run('stack', 'post-config')
        self.assertEqual(path, host.ini().get('fencing', 'config_file'))
        result = host.run('stack', 'extra', check=False)
        self.assertNotEqual(0, result.returncode)
        self.assertIn("compute-1: 'address' is required by the redfish "
                      "driver", result.stdout)
        self.assertEqual('the fencing file %s is not valid' % path,
                         host.calls('die')[0][-1])
        self.assertNotIn('masakari-engine',
                         [c[1] for c in host.calls('run_process')])

    def test_emulators_that_write_no_file_stop_the_stack(self):
        host = self._host(MASAKARI_FENCING_EMULATOR='True',
                          SERVICE_TIMEOUT='1')
        host.run('stack', 'post-config')
        result = host.run('stack', 'extra', check=False)
        self.assertNotEqual(0, result.returncode)
        self.assertEqual('masakari-bmc wrote no fencing file',
                         host.calls('die')[0][-1])
        self.assertEqual(['masakari-bmc'],
                         [c[1] for c in host.calls('run_process')])

    def test_etcd_coordination_installs_its_driver(self):
        host = self._host(MASAKARI_COORDINATION_BACKEND_URL=(
            'etcd3+http://192.0.2.10:2379'))
        host.run('stack', 'install')
        self.assertEqual([('setup_develop', devstack.REPO)],
                         host.calls('setup_develop'))
        self.assertEqual([('pip_install', 'etcd3gw')],
                         host.calls('pip_install'))

    def test_missing_tree_is_cloned_from_masakari_repo(self):
        host = self._host(MASAKARI_REPO='/srv/git/masakari',
                          MASAKARI_BRANCH='feature')
        tree = os.path.join(host.root, 'src', 'masakari')
        host.env['MASAKARI_DIR'] = tree
        host.run('stack', 'install')
        self.assertEqual([('git_clone', '/srv/git/masakari', tree,
                           'feature')], host.calls('git_clone'))
        self.assertEqual([('setup_develop', tree)],
                         host.calls('setup_develop'))

    def test_the_plugin_tree_is_not_cloned_again(self):
        host = self._host()
        host.run('stack', 'install')
        self.assertEqual([], host.calls('git_clone'))
