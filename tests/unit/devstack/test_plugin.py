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

"""devstack/plugin.sh phase by phase: the files it writes, the calls it makes.

The reference's defects fixed here (the config namespace, the tls-proxy
test, the uwsgi site name; doc/source/user/differences/deploy.rst) are
pinned by name below.
"""

import filecmp
import os
import sqlite3

import fixtures
import testtools

from tests.unit.devstack import host as devstack

CATALOGUE_SUFFIX = 'v1/$(tenant_id)s'


class TestStackController(testtools.TestCase):
    """A controller stacked with the defaults (uWSGI behind Apache)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.host = devstack.class_host(cls)
        cls.host.stack()
        cls.conf = cls.host.ini()

    def test_install_develops_the_tree_and_the_client(self):
        self.assertEqual([('setup_develop', devstack.REPO)],
                         self.host.calls('setup_develop'))
        self.assertEqual([('pip_install_gr', 'python-masakariclient')],
                         self.host.calls('pip_install_gr'))

    def test_api_paste_ini_is_the_shipped_file(self):
        shipped = os.path.join(devstack.REPO, 'etc', 'masakari',
                               'api-paste.ini')
        copied = os.path.join(self.host.conf_dir, 'api-paste.ini')
        self.assertTrue(filecmp.cmp(shipped, copied, shallow=False))

    def test_masakari_conf_options(self):
        db_url = 'sqlite:///' + self.host.db_file
        expected = [
            ('DEFAULT', 'masakari_api_workers', '2'),
            ('DEFAULT', 'debug', 'True'),
            ('DEFAULT', 'use_syslog', 'False'),
            ('DEFAULT', 'os_privileged_user_name', 'nova'),
            ('DEFAULT', 'os_privileged_user_auth_url', devstack.KEYSTONE_URI),
            ('DEFAULT', 'os_privileged_user_password',
             devstack.SERVICE_PASSWORD),
            ('DEFAULT', 'os_privileged_user_tenant', 'service'),
            ('DEFAULT', 'graceful_shutdown_timeout', '5'),
            ('database', 'connection', db_url),
            ('taskflow', 'connection', db_url),
        ]
        for section, option, value in expected:
            self.assertEqual(value, self.conf.get(section, option),
                             '[%s]/%s' % (section, option))

    def test_sample_lists_masakari_options(self):
        # Fixed: the namespace is "masakari.conf", so the generated
        # file documents Masakari's own options, not only the libraries'.
        with open(self.host.conf_file) as f:
            text = f.read()
        for line in ('#masakari_topic = ha_engine',
                     '#evacuate_all_instances = true',
                     '#backend_url = <None>',
                     '#www_authenticate_uri = <None>',
                     '#max_pool_size = 5'):
            self.assertIn('\n%s\n' % line, text)
        for section in ('coordination', 'host_failure', 'instance_failure',
                        'process_failure', 'keystone_authtoken', 'wsgi'):
            self.assertTrue(self.conf.has_section(section), section)

    def test_no_tls_port_and_no_colour_formats(self):
        self.assertFalse(self.conf.has_option('DEFAULT',
                                              'masakari_api_listen_port'))
        self.assertEqual([], self.host.calls('setup_colorized_logging'))

    def test_library_helpers_configure_auth_and_messaging(self):
        conf = self.host.conf_file
        self.assertEqual(
            [('configure_keystone_authtoken_middleware', conf, 'masakari')],
            self.host.calls('configure_keystone_authtoken_middleware'))
        self.assertEqual([('iniset_rpc_backend', 'masakari', conf,
                           'DEFAULT')],
                         self.host.calls('iniset_rpc_backend'))

    def test_uwsgi_config_requested(self):
        self.assertEqual(
            [('write_uwsgi_config',
              os.path.join(self.host.conf_dir, 'masakari-api-uwsgi.ini'),
              'masakari.wsgi.api:application', '/instance-ha', '',
              'masakari-api')],
            self.host.calls('write_uwsgi_config'))

    def test_keystone_user_service_and_public_endpoint(self):
        self.assertEqual([('create_service_user', 'masakari', 'admin')],
                         self.host.calls('create_service_user'))
        self.assertEqual([('get_or_create_service', 'masakari', 'instance-ha',
                           'OpenStack High Availability')],
                         self.host.calls('get_or_create_service'))
        self.assertEqual(
            [('get_or_create_endpoint', 'service-id-masakari', 'RegionOne',
              'http://192.0.2.10/instance-ha/' + CATALOGUE_SUFFIX)],
            self.host.calls('get_or_create_endpoint'))

    def test_database_recreated_and_synced(self):
        self.assertEqual([('recreate_database', 'masakari')],
                         self.host.calls('recreate_database'))
        with sqlite3.connect(self.host.db_file) as db:
            tables = {row[0] for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
            revision = db.execute('SELECT version_num FROM '
                                  'masakari_alembic_version').fetchone()
        self.assertTrue({'failover_segments', 'hosts', 'notifications',
                         'vmoves', 'logbooks', 'flowdetails',
                         'atomdetails'} <= tables, tables)
        self.assertEqual(('13adff5efb9a',), revision)

    def test_tempest_alt_accounts(self):
        self.assertEqual(
            [('get_or_create_user', 'alt_demo', devstack.ADMIN_PASSWORD,
              'default', 'alt_demo@example.com'),
             ('get_or_create_user', 'admin_alt_demo', devstack.ADMIN_PASSWORD,
              'default', 'admin_alt_demo@example.com')],
            self.host.calls('get_or_create_user'))
        self.assertEqual(
            [('get_or_add_user_project_role', 'member', 'user-id-alt_demo',
              'project-id-alt_demo'),
             ('get_or_add_user_project_role', 'admin',
              'user-id-admin_alt_demo', 'project-id-alt_demo')],
            self.host.calls('get_or_add_user_project_role'))

    def test_api_started_and_awaited_before_engine(self):
        uwsgi_ini = os.path.join(self.host.conf_dir, 'masakari-api-uwsgi.ini')
        started = [c for c in self.host.calls()
                   if c[0] in ('run_process', 'wait_for_service')]
        self.assertEqual(
            [('run_process', 'masakari-api',
              '/usr/local/bin/uwsgi --procname-prefix masakari-api '
              '--ini ' + uwsgi_ini),
             ('wait_for_service', '60', 'http://192.0.2.10/instance-ha/v1'),
             ('run_process', 'masakari-engine',
              '%s/masakari-engine --config-file=%s --debug'
              % (devstack.BIN_DIR, self.host.conf_file))],
            started)


class TestPluginVariants(testtools.TestCase):
    """Other shapes of devstack node, one fresh host each."""

    def _host(self, **kwargs):
        root = self.useFixture(fixtures.TempDir()).path
        return devstack.DevstackHost(root, **kwargs)

    def test_standalone_api_behind_tls_proxy(self):
        host = self._host(services='key,mysql,rabbit,tls-proxy',
                          MASAKARI_USE_MOD_WSGI='False')
        host.stack()
        conf = host.ini()
        self.assertEqual('25868',
                         conf.get('DEFAULT', 'masakari_api_listen_port'))
        self.assertEqual([], host.calls('write_uwsgi_config'))
        self.assertEqual(
            [('get_or_create_endpoint', 'service-id-masakari', 'RegionOne',
              'https://192.0.2.10:15868/' + CATALOGUE_SUFFIX)],
            host.calls('get_or_create_endpoint'))
        self.assertIn(('run_process', 'masakari-api',
                       '%s/masakari-api --config-file=%s --debug'
                       % (devstack.BIN_DIR, host.conf_file)),
                      host.calls('run_process'))
        # Fixed: the reference tested "tls_proxy" and never started it.
        self.assertEqual([('start_tls_proxy', 'masakari-service', '*',
                           '15868', '192.0.2.10', '25868')],
                         host.calls('start_tls_proxy'))
        self.assertEqual([('wait_for_service', '60',
                           'https://192.0.2.10:15868')],
                         host.calls('wait_for_service'))

    def test_colorized_logging_without_syslog(self):
        host = self._host(LOG_COLOR='True')
        host.run('stack', 'post-config')
        self.assertEqual([('setup_colorized_logging', host.conf_file)],
                         host.calls('setup_colorized_logging'))

    def test_client_from_git_when_asked(self):
        host = self._host(LIBS_FROM_GIT='python-masakariclient')
        host.run('stack', 'install')
        self.assertEqual([('git_clone_by_name', 'python-masakariclient')],
                         host.calls('git_clone_by_name'))
        self.assertEqual([('setup_dev_lib', 'python-masakariclient')],
                         host.calls('setup_dev_lib'))
        self.assertEqual([], host.calls('pip_install_gr'))

    def test_without_keystone_no_accounts(self):
        host = self._host(services='mysql,rabbit')
        host.run('stack', 'post-config')
        self.assertTrue(os.path.exists(host.conf_file))
        self.assertEqual([], host.calls('create_service_user'))
        self.assertEqual([], host.calls('get_or_create_service'))

    def test_api_not_answering_stops_the_stack(self):
        host = self._host(WAIT_FOR_SERVICE_RC='1')
        host.run('stack', 'post-config')
        result = host.run('stack', 'extra', check=False)
        self.assertNotEqual(0, result.returncode)
        self.assertEqual('masakari-api did not start',
                         host.calls('die')[0][-1])
        self.assertNotIn('masakari-engine',
                         [c[1] for c in host.calls('run_process')])

    def test_unstack_stops_services_and_removes_config(self):
        host = self._host()
        host.run('stack', 'post-config')
        host.run('unstack')
        self.assertEqual([('stop_process', 'masakari-engine'),
                          ('stop_process', 'masakari-api')],
                         host.calls('stop_process'))
        self.assertEqual([], os.listdir(host.conf_dir))
        # Fixed: the site to remove is named after the service.
        self.assertEqual(
            [('remove_uwsgi_config',
              os.path.join(host.conf_dir, 'masakari-api-uwsgi.ini'),
              'masakari-api')],
            host.calls('remove_uwsgi_config'))

    def test_node_without_masakari_api_does_nothing(self):
        # Reference behaviour kept: every core step needs the API.
        host = self._host(disabled='masakari-api')
        host.stack()
        self.assertEqual([], host.calls())
        self.assertFalse(os.path.exists(host.conf_dir))

    def test_compute_node_runs_the_monitors(self):
        host = self._host(services='n-cpu,rabbit',
                          disabled='masakari-api,masakari-engine')
        host.stack()
        monitors_conf = os.path.join(host.monitors_conf_dir,
                                     'masakarimonitors.conf')
        process_list = os.path.join(host.monitors_conf_dir,
                                    'process_list.yaml')
        conf = host.ini(monitors_conf)
        self.assertEqual({'auth_url': devstack.KEYSTONE_URI,
                          'password': devstack.SERVICE_PASSWORD,
                          'project_name': 'service',
                          'username': 'masakari',
                          'user_domain_id': 'default',
                          'project_domain_id': 'default',
                          'region': 'RegionOne'},
                         dict(conf.items('api')))
        self.assertEqual(process_list,
                         conf.get('process', 'process_list_path'))
        self.assertEqual(0, os.path.getsize(process_list))
        self.assertEqual(
            [('run_process', name, '%s/%s' % (devstack.BIN_DIR, name))
             for name in ('masakari-processmonitor',
                          'masakari-instancemonitor',
                          'masakari-introspectiveinstancemonitor')],
            host.calls('run_process'))
        self.assertFalse(os.path.exists(host.conf_dir))

        host.run('unstack')
        self.assertEqual(3, len(host.calls('stop_process')))
        self.assertEqual([], os.listdir(host.monitors_conf_dir))

    def test_horizon_panels_linked_and_unlinked(self):
        host = self._host(services='key,mysql,rabbit,horizon')
        dashboard = os.path.join(host.root, 'opt', 'masakari-dashboard')
        links = {
            'openstack_dashboard/local/enabled/_50_masakaridashboard.py':
                'masakaridashboard/local/enabled/_50_masakaridashboard.py',
            'openstack_dashboard/local/local_settings.d/_50_masakari.py':
                'masakaridashboard/local/local_settings.d/_50_masakari.py',
            'openstack_dashboard/conf/masakari_policy.yaml':
                'masakaridashboard/conf/masakari_policy.yaml'}
        for link in links:
            os.makedirs(os.path.dirname(
                os.path.join(host.horizon_dir, link)), exist_ok=True)
        host.stack()
        for link, target in links.items():
            self.assertEqual(os.path.join(dashboard, target),
                             os.readlink(os.path.join(host.horizon_dir,
                                                      link)))
        host.run('unstack')
        for link in links:
            self.assertFalse(os.path.lexists(
                os.path.join(host.horizon_dir, link)))
        self.assertEqual([('restart_apache_server',)],
                         host.calls('restart_apache_server'))
