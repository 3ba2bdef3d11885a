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

"""Each console script's start-up errors, run as an operator runs it: one
line on stderr naming what to fix, the exit status of
doc/source/cli/index.rst, and a traceback only with --debug.
"""

from importlib import metadata
import os
import socket
import subprocess
import sys

import fixtures
import testscenarios
import testtools

import masakari
from tests.fixtures import api as api_fixture

# section -> option lines of a configuration that starts; a scenario
# replaces or removes some.
GOOD = {
    'DEFAULT': {'transport_url': 'fake:/', 'auth_strategy': 'noauth2',
                'masakari_api_listen': '127.0.0.1',
                'masakari_api_workers': '1'},
    'wsgi': {'api_paste_config': api_fixture.PASTE_INI},
    'database': {'connection': 'sqlite:///{dir}/masakari.sqlite'},
    'taskflow': {'connection': 'sqlite:///{dir}/masakari.sqlite'},
}
MODULES = {'masakari-api': 'masakari.cmd.api',
           'masakari-engine': 'masakari.cmd.engine',
           'masakari-manage': 'masakari.cmd.manage',
           'masakari-aio': 'masakari.cmd.aio',
           'masakari-simulator': 'masakari.simulator.cli'}
NO_DATABASE = (
    '[database]/connection is not set, and its default would create an '
    'empty SQLite database in the Python installation ({state}); set '
    '[database]/connection to the URL of the Masakari database (e.g. '
    'mysql+pymysql://masakari:PASSWORD@controller/masakari?charset=utf8) '
    'and run "masakari-manage db sync"')
BAD_WORKERS = (
    "invalid value of [DEFAULT]/masakari_api_workers in {conf}: invalid "
    "literal for int() with base 10: 'abc'; correct it (the configuration "
    "reference lists the allowed values)")
BUSY = ('port {port} on 127.0.0.1 is already in use by another program: '
        'stop it, or choose another port with {option}')


# Where the default [database]/connection would put its file.
DEFAULT_SQLITE = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(masakari.__file__))), 'masakari.sqlite')
TRANSPORTS = ', '.join(sorted({entry.name for entry in metadata.entry_points(
    group='oslo.messaging.drivers')}))


class TestStartupErrors(testscenarios.WithScenarios, testtools.TestCase):

    scenarios = [
        ('api-missing-file', {
            'prog': 'masakari-api', 'argv': ['--config-file', '{missing}'],
            'status': 1, 'line': 'configuration file not found: {missing}; '
                                 'check the --config-file arguments'}),
        ('engine-missing-file', {
            'prog': 'masakari-engine', 'argv': ['--config-file', '{missing}'],
            'status': 1, 'line': 'configuration file not found: {missing}; '
                                 'check the --config-file arguments'}),
        ('api-bad-value', {
            'prog': 'masakari-api', 'set': ('DEFAULT', 'masakari_api_workers',
                                            'abc'),
            'status': 1, 'line': BAD_WORKERS}),
        ('engine-no-taskflow-connection', {
            'prog': 'masakari-engine', 'set': ('taskflow', 'connection', None),
            'status': 1,
            'line': '[taskflow]/connection is not set: the engine keeps the '
                    'state of its recovery workflows in that database; set '
                    'it (it may be the URL of [database]/connection) and run '
                    '"masakari-manage db sync"'}),
        ('api-no-database-connection', {
            'prog': 'masakari-api', 'set': ('database', 'connection', None),
            'status': 1, 'line': NO_DATABASE}),
        ('api-busy-port', {
            'prog': 'masakari-api', 'busy': True, 'status': 1,
            'line': BUSY.replace('{option}',
                                 '[DEFAULT]/masakari_api_listen_port')}),
        ('engine-transport-typo', {
            'prog': 'masakari-engine',
            'set': ('DEFAULT', 'transport_url', 'rabit://guest@127.0.0.1//'),
            'status': 1,
            'line': '[DEFAULT]/transport_url names the transport "rabit", '
                    'which no installed oslo.messaging driver provides '
                    '(installed: {drivers}); correct the scheme of the URL, '
                    'e.g. rabbit://'}),
        ('manage-bad-value', {
            'prog': 'masakari-manage', 'extra': ['db', 'version'],
            'set': ('DEFAULT', 'masakari_api_workers', 'abc'),
            'status': 2, 'line': BAD_WORKERS}),
        ('manage-no-database-connection', {
            'prog': 'masakari-manage', 'extra': ['db', 'version'],
            'set': ('database', 'connection', None),
            'status': 2, 'line': NO_DATABASE}),
        ('aio-bad-value', {
            'prog': 'masakari-aio', 'extra': ['--port', '0'],
            'set': ('DEFAULT', 'masakari_api_workers', 'abc'),
            'status': 2, 'line': BAD_WORKERS}),
        ('simulator-busy-port', {
            'prog': 'masakari-simulator', 'argv': ['--topology', 'small'],
            'busy': True, 'status': 2,
            'line': BUSY.replace('{option}', '--port')}),
        ('simulator-unknown-topology', {
            'prog': 'masakari-simulator', 'argv': ['--topology', 'nowhere'],
            'status': 2,
            'line': 'topology nowhere: no such file, and no bundled '
                    'topology of that name (capacity, failures, '
                    'reserved_host, small)'}),
    ]
    argv = None
    extra = ()
    busy = False

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.values = {'dir': self.dir,
                       'missing': os.path.join(self.dir, 'missing.conf'),
                       'conf': os.path.join(self.dir, 'masakari.conf'),
                       'state': DEFAULT_SQLITE, 'drivers': TRANSPORTS}

    def write_config(self):
        sections = {name: dict(options) for name, options in GOOD.items()}
        if 'port' not in self.values:
            with socket.socket() as probe:
                probe.bind(('127.0.0.1', 0))
                self.values['port'] = probe.getsockname()[1]
        sections['DEFAULT']['masakari_api_listen_port'] = str(
            self.values['port'])
        if hasattr(self, 'set'):
            section, option, value = self.set
            if value is None:
                del sections[section][option]
            else:
                sections[section][option] = value
        with open(self.values['conf'], 'w') as f:
            for name, options in sections.items():
                f.write('[%s]\n' % name)
                for option, value in options.items():
                    f.write('%s = %s\n' % (option, value.format(
                        **self.values)))
        return ['--config-file', self.values['conf']]

    def run_script(self, *more):
        if self.busy:
            sock = socket.socket()
            self.addCleanup(sock.close)
            sock.bind(('127.0.0.1', 0))
            sock.listen()
            self.values['port'] = sock.getsockname()[1]
        if self.argv is None:
            argv = self.write_config()
        else:
            argv = [arg.format(**self.values) for arg in self.argv]
            if self.busy:
                argv += ['--port', str(self.values['port'])]
        module = MODULES[self.prog]
        return subprocess.run(
            [sys.executable, '-c',
             'import sys; from %s import main; sys.argv[0] = %r; '
             'sys.exit(main())' % (module, self.prog)]
            + argv + list(self.extra) + list(more),
            capture_output=True, text=True, timeout=120, cwd=self.dir)

    def test_one_line_and_the_exit_status(self):
        result = self.run_script()
        self.assertEqual(self.status, result.returncode, result.stderr)
        self.assertEqual('%s: error: %s\n' % (
            self.prog, self.line.format(**self.values)), result.stderr)
        self.assertNotIn('Traceback', result.stdout)


class TestDebugShowsTheTraceback(testtools.TestCase):

    def test_debug(self):
        missing = os.path.join(self.useFixture(fixtures.TempDir()).path,
                               'missing.conf')
        result = subprocess.run(
            [sys.executable, '-m', 'masakari.cmd.engine', '--config-file',
             missing, '--debug'],
            capture_output=True, text=True, timeout=120)
        self.assertEqual(1, result.returncode)
        lines = result.stderr.splitlines()
        self.assertEqual('Traceback (most recent call last):', lines[0])
        self.assertIn('oslo_config.cfg.ConfigFilesNotFoundError', lines[-2])
        self.assertEqual('masakari-engine: error: configuration file not '
                         'found: %s; check the --config-file arguments'
                         % missing, lines[-1])
