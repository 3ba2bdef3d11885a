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

"""masakari-status: the command as a process (output, exit codes), then
each check of doc/source/admin/upgrade-check.rst passing and failing, in
oslo.upgradecheck's terms (Result, Code).
"""

import http.server
import json
import os
import socket
import subprocess
import sys
import textwrap
import threading

import fixtures
from oslo_upgradecheck import upgradecheck
import testtools

from masakari.cmd import upgrade_checks
from masakari.db import api as db_api
from masakari.db import migration
from masakari.engine.drivers.taskflow import persistence
from tests.fixtures import conf as conf_fixture

Code = upgradecheck.Code

RUN_STATUS = ('import sys; from masakari.cmd import status; '
              'sys.argv[0] = "masakari-status"; sys.exit(status.main())')

POLICY_DETAILS = (
    'Your policy file is JSON-formatted which is deprecated. You need to '
    'switch to YAML-formatted file. Use the '
    '``oslopolicy-convert-json-to-yaml`` tool to convert the existing '
    'JSON-formatted files to YAML in a backwards-compatible manner: '
    'https://docs.openstack.org/oslo.policy/latest/cli/'
    'oslopolicy-convert-json-to-yaml.html.')
CHECKS = ['Policy File JSON to YAML Migration', 'Configuration options',
          'Database revision', 'Taskflow database', 'Fencing file',
          'Takeover lease', 'Metrics ports']


class TestStatusCommand(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.config_file = os.path.join(self.dir, 'masakari.conf')
        url = 'sqlite:///%s/masakari.sqlite' % self.dir
        with open(self.config_file, 'w') as f:
            f.write(textwrap.dedent('''\
                [DEFAULT]
                rpc_response_timeout = 20
                [database]
                connection = {url}
                [taskflow]
                connection = {url}
                [oslo_policy]
                policy_file = {dir}/policy.yaml
                ''').format(url=url, dir=self.dir))

    def status(self, *args, config_file=None):
        return subprocess.run(
            [sys.executable, '-c', RUN_STATUS, '--config-file',
             config_file or self.config_file] + list(args),
            capture_output=True, text=True, timeout=120,
            env=dict(os.environ, COLUMNS='80'))

    def test_every_check_succeeds_on_a_ready_deployment(self):
        subprocess.run([sys.executable, '-m', 'masakari.cmd.manage',
                        '--config-file', self.config_file, 'db', 'sync'],
                       check=True, capture_output=True, timeout=120)
        result = self.status('upgrade', 'check')
        self.assertEqual(0, result.returncode, result.stdout)
        self.assertEqual(CHECKS, [line[len('| Check: '):].rstrip(' |')
                                  for line in result.stdout.splitlines()
                                  if line.startswith('| Check: ')])
        self.assertEqual(7, result.stdout.count('| Result: Success'))

    def test_json_policy_file_fails_in_json_output(self):
        # The reference's check, first, with its text.
        with open(os.path.join(self.dir, 'policy.yaml'), 'w') as f:
            f.write('{"os_masakari_api:segments:index": ""}')
        result = self.status('upgrade', 'check', '--json')
        self.assertEqual(2, result.returncode, result.stderr)
        output = json.loads(result.stdout)
        self.assertEqual('Upgrade Check Results', output['name'])
        self.assertEqual({'check': 'Policy File JSON to YAML Migration',
                          'result': 2, 'details': POLICY_DETAILS},
                         output['checks'][0])
        self.assertEqual(CHECKS, [check['check']
                                  for check in output['checks']])

    def test_missing_subcommand(self):
        result = self.status()
        self.assertEqual(2, result.returncode)
        self.assertIn('error: the following arguments are required: command',
                      result.stderr)

    def test_missing_configuration_file_exits_255_in_one_line(self):
        missing = os.path.join(self.dir, 'missing.conf')
        result = self.status('upgrade', 'check', config_file=missing)
        self.assertEqual(255, result.returncode)
        self.assertEqual('', result.stdout)
        self.assertEqual('masakari-status: error: configuration file not '
                         'found: %s; check the --config-file arguments\n'
                         % missing, result.stderr)


class ChecksTestCase(testtools.TestCase):
    """One check at a time, on the global configuration."""

    def setUp(self):
        super().setUp()
        self.fixture = self.useFixture(conf_fixture.ConfFixture())
        self.conf = self.fixture.conf
        upgrade_checks.register_opts(self.conf)
        self.dir = self.useFixture(fixtures.TempDir()).path

    def assertResult(self, code, details, result):
        self.assertIsInstance(result, upgradecheck.Result)
        self.assertEqual((code, details), (result.code, result.details))

    def parse(self, text):
        path = os.path.join(self.dir, 'masakari.conf')
        with open(path, 'w') as f:
            f.write(text)
        self.conf(['--config-file', path], project='masakari',
                  default_config_files=[], default_config_dirs=[])
        return path


class TestConfigurationOptions(ChecksTestCase):

    def test_known_options_pass(self):
        path = self.parse('[DEFAULT]\nrpc_response_timeout = 20\n'
                          '[takeover]\nlease_timeout = 90\n'
                          '[keystone_authtoken]\nauth_type = password\n')
        self.assertResult(
            Code.SUCCESS, 'Checked with oslo-config-validator: %s.' % path,
            upgrade_checks.configuration_options(self.conf))

    def test_unknown_and_deprecated_options_warn(self):
        path = self.parse('[DEFAULT]\nlogfile = /tmp/masakari.log\n'
                          '[takeover]\nlease_timout = 90\n')
        self.assertResult(
            Code.WARNING,
            '%(path)s: [DEFAULT]/logfile: deprecated name; %(path)s: '
            '[takeover]/lease_timout: unknown option. Masakari ignores '
            'unknown options: correct their names or remove them; rename '
            'deprecated ones (see the configuration reference).'
            % {'path': path},
            upgrade_checks.configuration_options(self.conf))

    def test_a_bad_value_fails(self):
        path = self.parse('[metrics]\napi_listen_port = 99999\n')
        self.assertResult(
            Code.FAILURE,
            'invalid value of [metrics]/api_listen_port in %s: Should be '
            'less than or equal to 65535; correct it (the configuration '
            'reference lists the allowed values)' % path,
            upgrade_checks.configuration_options(self.conf))


class TestDatabases(ChecksTestCase):

    def setUp(self):
        super().setUp()
        self.url = 'sqlite:///%s/masakari.sqlite' % self.dir

    def use(self, url, group):
        self.fixture.config(connection=url, group=group)

    def test_at_the_newest_revision(self):
        self.use(self.url, 'database')
        self.use(self.url, 'taskflow')
        self.addCleanup(db_api.configure(self.conf))
        migration.db_sync()
        persistence.upgrade(self.url)
        self.addCleanup(persistence.reset)
        self.assertResult(Code.SUCCESS, 'At the newest revision, %s.'
                          % migration.head_revision(),
                          upgrade_checks.database_revision(self.conf))
        self.assertResult(Code.SUCCESS, None,
                          upgrade_checks.taskflow_database(self.conf))

    def test_an_empty_database_needs_a_sync(self):
        self.use(self.url, 'database')
        self.use(self.url, 'taskflow')
        self.assertResult(
            Code.FAILURE, 'The database is at revision none (no Masakari '
            'schema); this release needs %s. Run "masakari-manage db sync" '
            'before starting the services.' % migration.head_revision(),
            upgrade_checks.database_revision(self.conf))
        self.assertResult(
            Code.FAILURE, 'The taskflow tables logbooks, flowdetails, '
            'atomdetails are missing. Run "masakari-manage db sync".',
            upgrade_checks.taskflow_database(self.conf))

    def test_unreachable_database_fails_without_its_password(self):
        url = 'mysql+pymysql://masakari:s3cret@127.0.0.1:1/masakari'
        self.use(url, 'database')
        result = upgrade_checks.database_revision(self.conf)
        self.assertEqual(Code.FAILURE, result.code)
        self.assertTrue(result.details.startswith(
            'Cannot connect to [database]/connection (mysql+pymysql://'
            'masakari:***@127.0.0.1:1/masakari): '), result.details)
        self.assertNotIn('s3cret', result.details)

    def test_default_connection_fails(self):
        result = upgrade_checks.database_revision(self.conf)
        self.assertEqual(Code.FAILURE, result.code)
        self.assertTrue(result.details.startswith(
            '[database]/connection is not set'), result.details)

    def test_taskflow_connection_unset_fails(self):
        self.assertResult(
            Code.FAILURE, '[taskflow]/connection is not set: masakari-engine '
            'does not start without it. Set it (it may be the URL of '
            '[database]/connection) and run "masakari-manage db sync".',
            upgrade_checks.taskflow_database(self.conf))


class TestFencingFile(ChecksTestCase):

    def write(self, text, mode=0o600):
        path = os.path.join(self.dir, 'fencing.yaml')
        with open(path, 'w') as f:
            f.write(text)
        os.chmod(path, mode)
        self.fixture.config(config_file=path, group='fencing')
        return path

    def test_off(self):
        self.assertResult(
            Code.SUCCESS, 'Fencing is off ([fencing]/config_file is not '
            'set).', upgrade_checks.fencing_file(self.conf))

    def test_valid(self):
        path = self.write('compute-1:\n  driver: ipmi\n  address: 10.0.0.1\n'
                          '  username: admin\n  password: secret\n')
        self.assertResult(Code.SUCCESS, '%s: 1 host(s).' % path,
                          upgrade_checks.fencing_file(self.conf))

    def test_invalid(self):
        path = self.write('compute-1:\n  driver: ipmi\n  adress: 10.0.0.1\n'
                          '  username: admin\n  password: secret\n')
        result = upgrade_checks.fencing_file(self.conf)
        self.assertEqual(Code.FAILURE, result.code)
        self.assertTrue(result.details.startswith(
            "%s: compute-1: unknown setting 'adress'; " % path),
            result.details)
        self.assertTrue(result.details.endswith(
            '. Correct the file ("masakari-manage fencing check" lists the '
            'same problems).'), result.details)
        self.assertNotIn('secret', result.details)

    def test_readable_by_others_warns(self):
        self.write('compute-1:\n  driver: ipmi\n  address: 10.0.0.1\n'
                   '  username: admin\n  password: secret\n', mode=0o644)
        result = upgrade_checks.fencing_file(self.conf)
        self.assertEqual(Code.WARNING, result.code)
        self.assertIn('accessible by group or others (mode 0o644)',
                      result.details)


class TestTakeoverLease(ChecksTestCase):

    def test_lease_longer_than_the_rpc_timeout(self):
        self.fixture.config(lease_timeout=90, group='takeover')
        self.assertResult(Code.SUCCESS, None,
                          upgrade_checks.takeover_lease(self.conf))

    def test_default_lease_is_shorter_than_the_default_rpc_timeout(self):
        self.assertResult(
            Code.WARNING, '[takeover]/lease_timeout (30 s) is not longer '
            'than [DEFAULT]/rpc_response_timeout (60 s): a short outage of '
            'the message bus or the database can then move recoveries '
            'between live engines. Set lease_timeout above 60 s, or lower '
            'rpc_response_timeout.',
            upgrade_checks.takeover_lease(self.conf))

    def test_takeover_off(self):
        self.fixture.config(lease_timeout=0, group='takeover')
        self.assertResult(
            Code.SUCCESS, 'Takeover is off ([takeover]/lease_timeout = 0).',
            upgrade_checks.takeover_lease(self.conf))


def _free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


class _MetricsHandler(http.server.BaseHTTPRequestHandler):
    """A running masakari-api's metrics endpoint, in short."""

    def do_GET(self):
        body = b'masakari_api_requests_total 0.0\n'
        self.send_response(200)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class TestMetricsPorts(ChecksTestCase):

    def setUp(self):
        super().setUp()
        self.api_port, self.engine_port = _free_port(), _free_port()
        self.fixture.config(enabled=True, api_listen_port=self.api_port,
                            engine_listen_port=self.engine_port,
                            group='metrics')

    def test_off(self):
        self.fixture.config(enabled=False, group='metrics')
        self.assertResult(
            Code.SUCCESS, 'Metrics are off ([metrics]/enabled is false).',
            upgrade_checks.metrics_ports(self.conf))

    def test_free_ports(self):
        self.assertResult(Code.SUCCESS, None,
                          upgrade_checks.metrics_ports(self.conf))

    def test_a_port_of_another_program_warns(self):
        with socket.socket() as other:
            other.bind(('127.0.0.1', self.engine_port))
            other.listen()
            self.assertResult(
                Code.WARNING,
                'port %d on 127.0.0.1 is already in use by another program: '
                'stop it, or choose another port with '
                '[metrics]/engine_listen_port (the services start without '
                'their metrics endpoint).' % self.engine_port,
                upgrade_checks.metrics_ports(self.conf))

    def test_a_port_masakari_serves_passes(self):
        metrics = http.server.ThreadingHTTPServer(
            ('127.0.0.1', self.api_port), _MetricsHandler)
        threading.Thread(target=metrics.serve_forever, daemon=True).start()
        self.addCleanup(metrics.server_close)
        self.addCleanup(metrics.shutdown)
        self.assertResult(Code.SUCCESS, None,
                          upgrade_checks.metrics_ports(self.conf))

    def test_one_port_for_both_warns(self):
        self.fixture.config(engine_listen_port=self.api_port,
                            group='metrics')
        result = upgrade_checks.metrics_ports(self.conf)
        self.assertEqual(Code.WARNING, result.code)
        self.assertTrue(result.details.startswith(
            '[metrics]/api_listen_port and engine_listen_port are both %d'
            % self.api_port), result.details)
