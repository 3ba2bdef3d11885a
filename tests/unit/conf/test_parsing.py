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

"""Options read from config files: types, interpolation, reload, flows."""

import os
import types as pytypes

import fixtures
from oslo_config import cfg
from oslo_db import options as oslo_db_options
import testtools

import masakari.conf
from masakari.conf import opts
from tests.unit.conf import option_table as table


class FreshConfTestCase(testtools.TestCase):
    """A new ConfigOpts with every Masakari option, read from one file."""

    def setUp(self):
        super().setUp()
        self.conf = cfg.ConfigOpts()
        for module in masakari.conf.OPTION_MODULES:
            module.register_opts(self.conf)
        self.path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                                 'masakari.conf')

    def load(self, text):
        with open(self.path, 'w') as f:
            f.write(text)
        self.conf([], project='masakari', default_config_files=[self.path],
                  default_config_dirs=[])


class TestDefaults(FreshConfTestCase):

    def test_database_connection_defaults_to_sqlite_in_state_path(self):
        self.load('')
        self.assertEqual(
            'sqlite:///%s/masakari.sqlite' % table.PACKAGE_PARENT,
            self.conf.database.connection)

    def test_state_path_interpolation_follows_the_file(self):
        self.load('[DEFAULT]\nstate_path = /var/lib/masakari\n')
        self.assertEqual('sqlite:////var/lib/masakari/masakari.sqlite',
                         self.conf.database.connection)

    def test_connection_default_is_on_the_object_not_the_option(self):
        # The generator reads option defaults: the sample shows <None>.
        connection = [o for o in oslo_db_options.database_opts
                      if o.dest == 'connection']
        self.assertIsNone(connection[0].default)

    def test_every_listed_default_is_read_back(self):
        self.load('')
        for group, name, _, default, _flags in table.LISTED:
            where = self.conf if group == 'DEFAULT' else self.conf[group]
            expected = table.PACKAGE_PARENT if name == 'state_path' \
                else default
            self.assertEqual(expected, where[name], name)


class TestTypedValues(FreshConfTestCase):

    def test_values_are_converted_to_their_types(self):
        self.load('[DEFAULT]\n'
                  'osapi_max_limit = 50\n'
                  'nova_api_insecure = true\n'
                  'nova_api_timeout = 2.5\n'
                  'monkey_patch_modules = a:b, c:d\n'
                  'masakari_api_listen = ::1\n'
                  '[wsgi]\nkeep_alive = false\n')
        self.assertEqual(50, self.conf.osapi_max_limit)
        self.assertIs(True, self.conf.nova_api_insecure)
        self.assertEqual(2.5, self.conf.nova_api_timeout)
        self.assertEqual(['a:b', 'c:d'], self.conf.monkey_patch_modules)
        self.assertEqual('::1', self.conf.masakari_api_listen)
        self.assertIs(False, self.conf.wsgi.keep_alive)

    def _assert_rejected(self, text, group, name):
        self.load(text)
        where = self.conf if group == 'DEFAULT' else self.conf[group]
        self.assertRaises(cfg.ConfigFileValueError, getattr, where, name)

    def test_bounds_and_choices_are_enforced(self):
        for text, group, name in [
                ('[DEFAULT]\nauth_strategy = ldap\n', 'DEFAULT',
                 'auth_strategy'),
                ('[DEFAULT]\nnotification_delay_max = -1\n', 'DEFAULT',
                 'notification_delay_max'),
                ('[DEFAULT]\nhost_failure_recovery_threads = 0\n',
                 'DEFAULT', 'host_failure_recovery_threads'),
                ('[DEFAULT]\nmasakari_api_listen_port = 0\n', 'DEFAULT',
                 'masakari_api_listen_port'),
                ('[DEFAULT]\nmasakari_api_listen_port = 65536\n',
                 'DEFAULT', 'masakari_api_listen_port'),
                ('[DEFAULT]\nnova_api_timeout = 0.5\n', 'DEFAULT',
                 'nova_api_timeout'),
                ('[DEFAULT]\nduplicate_notification_detection_interval'
                 ' = -5\n', 'DEFAULT',
                 'duplicate_notification_detection_interval'),
                ('[DEFAULT]\nos_privileged_user_auth_url = not a url\n',
                 'DEFAULT', 'os_privileged_user_auth_url')]:
            self._assert_rejected(text, group, name)

    def test_keystoneauth_session_options_live_in_default_section(self):
        self.load('[DEFAULT]\ncafile = /ca.pem\ninsecure = true\n'
                  'timeout = 3\ncollect_timing = true\n')
        session = self.conf.DEFAULT
        self.assertEqual('/ca.pem', session.cafile)
        self.assertIs(True, session.insecure)
        self.assertEqual(3.0, session.timeout)
        self.assertIs(True, session.collect_timing)

    def test_keystoneauth_session_option_defaults(self):
        self.load('')
        for name, _type_name, default in table.SESSION:
            self.assertEqual(default, self.conf.DEFAULT[name], name)
        self.assertEqual(9, len(table.SESSION))

    def test_osapi_v1_has_no_real_alias(self):
        self.load('[osapi_v1]\nproject_id_regex = [0-9]+\n')
        self.assertEqual('[0-9]+', self.conf.osapi_v1.project_id_regex)


class TestMutableOptions(FreshConfTestCase):

    def test_only_mutable_options_change_on_reload(self):
        self.load('[DEFAULT]\nretry_notification_new_status_interval = 60\n'
                  'verify_interval = 1\n')
        with open(self.path, 'w') as f:
            f.write('[DEFAULT]\nretry_notification_new_status_interval = 5\n'
                    'verify_interval = 9\n')
        self.conf.mutate_config_files()
        self.assertEqual(5, self.conf.retry_notification_new_status_interval)
        self.assertEqual(1, self.conf.verify_interval)


class TestRecoveryFlowSyntax(FreshConfTestCase):
    """The value forms of the custom recovery flow options."""

    def _flows(self, value):
        self.load('[taskflow_driver_recovery_flows]\n'
                  'instance_failure_recovery_tasks = %s\n' % value)
        return self.conf.taskflow_driver_recovery_flows \
            .instance_failure_recovery_tasks

    def test_quoted_items(self):
        self.assertEqual({'pre': ['a', 'b'], 'main': ['c'], 'post': []},
                         self._flows("pre:['a','b'],main:['c'],post:[]"))

    def test_unquoted_items_with_spaces(self):
        self.assertEqual({'pre': ['a', 'b'], 'main': ['c'], 'post': []},
                         self._flows('pre:[a, b],main:[c],post:[]'))

    def test_double_quotes_and_spaces_around_pairs(self):
        self.assertEqual({'pre': ['a'], 'main': ['b', 'c'], 'post': ['d']},
                         self._flows('pre: ["a"], main: ["b", "c"], '
                                     'post: [d]'))

    def test_keys_are_free_form(self):
        self.assertEqual({'pre': ['a'], 'extra': []},
                         self._flows('pre:[a],extra:[]'))

    def test_brace_form_of_the_old_docs_is_rejected(self):
        self.load('[taskflow_driver_recovery_flows]\n'
                  "instance_failure_recovery_tasks = {'pre': ['a'], "
                  "'main': ['b'], 'post': ['c']}\n")
        error = self.assertRaises(
            cfg.ConfigFileValueError, getattr,
            self.conf.taskflow_driver_recovery_flows,
            'instance_failure_recovery_tasks')
        self.assertIn('Value should end with "]"', str(error))

    def test_list_without_brackets_is_rejected(self):
        self.load('[taskflow_driver_recovery_flows]\n'
                  'instance_failure_recovery_tasks = pre:a,main:b\n')
        self.assertRaises(
            cfg.ConfigFileValueError, getattr,
            self.conf.taskflow_driver_recovery_flows,
            'instance_failure_recovery_tasks')

    def test_unclosed_quote_is_rejected(self):
        self.load('[taskflow_driver_recovery_flows]\n'
                  "instance_failure_recovery_tasks = pre:['a],main:[]\n")
        self.assertRaises(
            cfg.ConfigFileValueError, getattr,
            self.conf.taskflow_driver_recovery_flows,
            'instance_failure_recovery_tasks')


class TestOptsModule(testtools.TestCase):

    def test_module_without_list_opts_is_reported_by_name(self):
        module = pytypes.ModuleType('masakari.conf.broken')
        error = self.assertRaises(AttributeError, opts._group_items, module)
        self.assertEqual("The module 'masakari.conf.broken' should have a "
                         "'list_opts' function which returns the config "
                         "options.", str(error))

    def test_list_opts_covers_every_option_module(self):
        modules = [m.__name__.rsplit('.', 1)[1]
                   for m in opts._option_modules()]
        self.assertEqual(['api', 'base', 'capacity', 'coordination',
                          'database',
                          'engine', 'engine_driver', 'exceptions',
                          'fencing', 'host_recovery_safety', 'metrics',
                          'nova', 'osapi_v1', 'paths', 'service', 'ssl',
                          'takeover',
                          'wsgi'],
                         modules)
