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

"""masakari-aio wiring: the embedded profile, the in-process services
answering over HTTP (API, RPC to the engine, the simulated Nova), the demo's
progress reporting and the command's start-up errors.
"""

import contextlib
import io
import os
import shutil
import socket
import threading
import time

import fixtures
from oslo_config import cfg
from oslo_db.sqlalchemy import engines
from oslo_log import log as oslo_log
from prometheus_client import parser
import requests
import testtools
import yaml

from masakari.aio import demo
from masakari.aio import profile
from masakari.aio import runtime
from masakari.cmd import aio
import masakari.conf
from masakari import metrics
from masakari import rpc
from tests.fixtures import conf as conf_fixture
from tests.fixtures import processes

CONF = masakari.conf.CONF

# One failed host with two instances; transitions are instant.
TOPOLOGY = {
    'delays': {'evacuate': 0, 'stop': 0, 'start': 0},
    'hosts': ['compute-1', 'compute-2',
              {'name': 'spare-1', 'status': 'disabled'}],
    'servers': [{'name': 'vm', 'count': 2, 'host': 'compute-1',
                 'metadata': {'HA_Enabled': 'True'}}],
}
USER = {'name': 'operator', 'password': 'secret',
        'roles': {'admin-project': ['admin']}}


def _parse(path):
    """``path`` read by a fresh ConfigOpts holding Masakari's options."""
    conf = cfg.ConfigOpts()
    for module in masakari.conf.OPTION_MODULES:
        module.register_opts(conf)
    oslo_log.register_options(conf)
    # Registered by oslo.messaging and keystonemiddleware in a service.
    conf.register_opt(cfg.StrOpt('transport_url'))
    conf.register_opt(cfg.StrOpt('auth_type'), group='keystone_authtoken')
    conf(['--config-file', path], project='masakari',
         default_config_files=[])
    return conf


class TestProfile(testtools.TestCase):

    def test_embedded_backends_and_simulated_cloud(self):
        state = self.useFixture(fixtures.TempDir()).path
        path = profile.write(state, 'http://127.0.0.1:9/identity', USER,
                             wait=7, debug=True)
        self.assertEqual(os.path.join(state, 'masakari.conf'), path)
        conf = _parse(path)
        self.assertEqual('fake:/', conf.transport_url)
        self.assertEqual('noauth2', conf.auth_strategy)
        self.assertEqual(0, conf.notification_delay_max)
        self.assertEqual(7, conf.wait_period_after_service_update)
        self.assertTrue(conf.debug)
        self.assertEqual(os.path.join(state, 'masakari.log'), conf.log_file)
        self.assertEqual('sqlite:///%s/masakari.sqlite' % state,
                         conf.database.connection)
        self.assertEqual('sqlite:///%s/taskflow.sqlite' % state,
                         conf.taskflow.connection)
        self.assertEqual('http://127.0.0.1:9/identity',
                         conf.os_privileged_user_auth_url)
        self.assertEqual(('operator', 'secret', 'admin-project'), (
            conf.os_privileged_user_name, conf.os_privileged_user_password,
            conf.os_privileged_user_tenant))
        self.assertIsNone(conf.os_system_scope)
        self.assertEqual('password', conf.keystone_authtoken.auth_type)
        self.assertTrue(os.path.isfile(conf.wsgi.api_paste_config))

    def test_system_scoped_user(self):
        state = self.useFixture(fixtures.TempDir()).path
        conf = _parse(profile.write(
            state, 'http://h/identity',
            {'name': 'ops', 'password': 'x', 'system_roles': ['admin']},
            wait=0))
        self.assertEqual('all', conf.os_system_scope)
        self.assertIsNone(conf.os_privileged_user_tenant)


class TestAllInOne(testtools.TestCase):
    """The API, the engine and the simulator wired together in-process."""

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture(CONF))
        self.aio = runtime.AllInOne(TOPOLOGY, wait=0, setup_logging=False)
        self.addCleanup(self.aio.stop)
        self.aio.start()

    def test_demo_recovers_the_failed_host(self):
        lines = []
        self.assertTrue(demo.run(self.aio.api_url,
                                 self.aio.simulator.control_url,
                                 recovery_method='reserved_host',
                                 say=lines.append, timeout=60))
        self.assertIn('added host spare-1 (reserved)', lines)
        self.assertIn('host compute-1 is down with 2 instance(s): '
                      'vm-1, vm-2', lines)
        self.assertIn('status: finished', lines)
        # 1.1 details came back from the engine over RPC, 1.3 vmoves from
        # the database, the evacuations from the simulated Nova.
        self.assertIn("  [EvacuateInstancesTask] Enabling reserved host: "
                      "'spare-1' (0.1)", lines)
        # The tasks' messages name the instances as the vmove lines do.
        self.assertIn("  [EvacuateInstancesTask] Evacuation of instance "
                      "started: 'vm-1' (0.5)", lines)
        for name in ('vm-1', 'vm-2'):
            self.assertIn('  vmove %s: succeeded (compute-1 -> spare-1)'
                          % name, lines)
            self.assertIn('instance %s: active on spare-1' % name, lines)
        self.assertEqual('recovery finished', lines[-1])

    def test_instance_stopped_before_the_failure(self):
        self.aio.simulator.cloud.update_server(self._server_id('vm-2'),
                                               vm_state='stopped')
        lines = []
        self.assertTrue(demo.run(self.aio.api_url,
                                 self.aio.simulator.control_url,
                                 recovery_method='reserved_host',
                                 say=lines.append, timeout=60))
        self.assertIn('host compute-1 is down with 2 instance(s): '
                      'vm-1, vm-2 (stopped)', lines)
        self.assertIn('instance vm-1: active on spare-1', lines)
        self.assertIn('instance vm-2: stopped on spare-1 (already stopped '
                      'before the failure)', lines)

    def _server_id(self, name):
        return next(server.id for server in
                    self.aio.simulator.cloud.servers.values()
                    if server.name == name)

    def test_stop_releases_everything(self):
        state_dir, port = self.aio.state_dir, self.aio.api.port
        self.assertEqual(200, requests.get(self.aio.api_url).status_code)
        self.assertTrue(os.path.exists(os.path.join(state_dir,
                                                    'masakari.sqlite')))
        self.aio.stop()
        self.assertFalse(os.path.exists(state_dir))
        self.assertFalse(rpc.initialized())
        with socket.socket() as sock:
            self.assertNotEqual(0, sock.connect_ex(('127.0.0.1', port)))


def scrape(url):
    """``{(sample name, frozenset of labels): value}`` of an endpoint."""
    text = requests.get(url, timeout=10).text
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in parser.text_string_to_metric_families(text)
            for sample in family.samples}


def value(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())), 0)


def write_metrics_ports(directory):
    """A configuration file giving the metrics endpoints free ports."""
    path = os.path.join(directory, 'ports.conf')
    with open(path, 'w') as conf_file:
        conf_file.write('[metrics]\napi_listen_port = %d\n'
                        'engine_listen_port = %d\n'
                        % (processes.free_port(), processes.free_port()))
    return path


class TestMetrics(testtools.TestCase):
    """--metrics: the API's and the engine's endpoints, as a deployment's."""

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture(CONF))
        ports = write_metrics_ports(self.useFixture(fixtures.TempDir()).path)
        self.aio = runtime.AllInOne(TOPOLOGY, wait=0, setup_logging=False,
                                    metrics=True, config_files=[ports])
        self.addCleanup(self.aio.stop)
        self.aio.start()

    def test_both_endpoints_after_a_recovery(self):
        api_url = self.aio.metrics_endpoints['api'].url
        engine_url = self.aio.metrics_endpoints['engine'].url
        before = scrape(engine_url), scrape(api_url)
        self.assertTrue(demo.run(self.aio.api_url,
                                 self.aio.simulator.control_url,
                                 recovery_method='auto', say=lambda line: 0,
                                 timeout=60))
        engine, api = scrape(engine_url), scrape(api_url)

        for expected, samples, name, labels in (
                (1, api, 'masakari_api_requests_total',
                 {'route': '/v1/notifications', 'method': 'POST',
                  'status': '202'}),
                (1, api, 'masakari_api_notifications_accepted_total',
                 {'type': 'COMPUTE_HOST'}),
                (1, engine, 'masakari_engine_notifications_processed_total',
                 {'type': 'COMPUTE_HOST', 'recovery_method': 'auto',
                  'status': 'finished'}),
                (2, engine, 'masakari_engine_evacuations_total',
                 {'result': 'succeeded'})):
            earlier = before[0] if samples is engine else before[1]
            self.assertEqual(expected, value(samples, name, **labels) -
                             value(earlier, name, **labels), name)
        # Read from the database at each scrape.
        self.assertIn(('masakari_engine_oldest_notification_age_seconds',
                       frozenset({'status': 'new'}.items())), engine)
        # The failover capacity, as last computed (here: now).
        self.assertEqual(profile.METRICS_CAPACITY_INTERVAL,
                         CONF.metrics.segment_capacity_interval)
        [capacity] = self.aio.capacity_collectors
        capacity.refresh()
        self.assertIn('masakari_segment_failures_tolerated',
                      {name for name, _labels in scrape(engine_url)})
        # Nothing is served twice.
        self.assertEqual(set(), {name for name, _labels in engine
                                 if name.startswith('masakari_api_')})
        self.assertEqual(set(), {name for name, _labels in api
                                 if not name.startswith('masakari_api_')})

    def test_prometheus_configuration_and_banner(self):
        with open(self.aio.prometheus_file) as stream:
            prometheus = yaml.safe_load(stream)
        [alerts] = prometheus['rule_files']
        self.assertTrue(os.path.isfile(alerts))
        targets = {job['job_name']: job['static_configs'][0]['targets']
                   for job in prometheus['scrape_configs']}
        self.assertEqual(
            {'masakari-api': ['127.0.0.1:%d' % CONF.metrics.api_listen_port],
             'masakari-engine': ['127.0.0.1:%d'
                                 % CONF.metrics.engine_listen_port]},
            targets)
        self.assertEqual(profile.METRICS_RECOVERY_BUDGET,
                         CONF.host_failure.recovery_time_budget)
        banner = '\n'.join(aio._banner(self.aio, serve=False))
        self.assertIn('metrics of the API on http://127.0.0.1:%d/metrics, '
                      'of the engine on http://127.0.0.1:%d/metrics'
                      % (CONF.metrics.api_listen_port,
                         CONF.metrics.engine_listen_port), banner)
        self.assertIn('--config.file=%s' % self.aio.prometheus_file, banner)
        self.assertIn('grafana-dashboard.json', banner)

    def test_stop_closes_the_endpoints_and_stops_recording(self):
        ports = [CONF.metrics.api_listen_port,
                 CONF.metrics.engine_listen_port]
        self.assertTrue(metrics.enabled())
        self.aio.stop()
        self.assertFalse(metrics.enabled())
        for port in ports:
            with socket.socket() as sock:
                self.assertNotEqual(0, sock.connect_ex(('127.0.0.1', port)))


class TestSQLiteTransactions(testtools.TestCase):
    """Threads of one process sharing a SQLite file (oslo.db engine)."""

    def _increment_concurrently(self, engine):
        with engine.begin() as connection:
            connection.exec_driver_sql('CREATE TABLE counter (n INTEGER)')
            connection.exec_driver_sql('INSERT INTO counter VALUES (0)')
        errors = []

        def increment(delay_before, delay_inside):
            time.sleep(delay_before)
            try:
                with engine.begin() as connection:
                    n = connection.exec_driver_sql(
                        'SELECT n FROM counter').scalar()
                    time.sleep(delay_inside)
                    connection.exec_driver_sql(
                        'UPDATE counter SET n = %d' % (n + 1))
            except Exception as error:
                errors.append(str(error))
        # The second reads while the first is between its read and write.
        threads = [threading.Thread(target=increment, args=(0, 0.3)),
                   threading.Thread(target=increment, args=(0.1, 0))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with engine.begin() as connection:
            return errors, connection.exec_driver_sql(
                'SELECT n FROM counter').scalar()

    def _engine(self):
        path = self.useFixture(fixtures.TempDir()).join('db.sqlite')
        engine = engines.create_engine('sqlite:///%s' % path)
        self.addCleanup(engine.dispose)
        return engine

    def test_deferred_transactions_deadlock(self):
        # What the all-in-one process must not do (the reason for the fix).
        errors, count = self._increment_concurrently(self._engine())
        self.assertEqual(1, count)
        self.assertIn('database is locked', errors[0])

    def test_transactions_queue_up(self):
        engine = self._engine()
        runtime.queue_sqlite_transactions(engine)
        self.assertEqual(([], 2), self._increment_concurrently(engine))


class TestProgress(testtools.TestCase):

    def test_each_change_is_reported_once(self):
        progress = demo.Progress()
        detail = {'timestamp': '2026-01-01 00:00:00', 'progress': '0.0',
                  'message': 'Preparing instances for evacuation'}
        notification = {'status': 'running', 'recovery_workflow_details': [
            {'name': 'PrepareHAEnabledInstancesTask',
             'progress_details': [detail]}]}
        vmove = {'uuid': 'u1', 'instance_name': 'vm-1', 'status': 'pending',
                 'source_host': 'compute-1', 'dest_host': None,
                 'message': None}
        self.assertEqual([
            'status: running',
            '  [PrepareHAEnabledInstancesTask] Preparing instances for '
            'evacuation (0.0)',
            '  vmove vm-1: pending (compute-1 -> ?)'],
            progress.news(notification, [vmove]))
        self.assertEqual([], progress.news(notification, [vmove]))
        failed = dict(vmove, status='failed', message='Failed reason: '
                      'timeout.')
        self.assertEqual(['  vmove vm-1: failed (compute-1 -> ?): Failed '
                          'reason: timeout.'],
                         progress.news(notification, [failed]))


class TestCommand(testtools.TestCase):

    def _main(self, *argv):
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            status = aio.main(list(argv))
        return status, stderr.getvalue()

    def test_unknown_topology(self):
        status, error = self._main('--topology', 'no-such-topology')
        self.assertEqual(2, status)
        self.assertIn('no bundled topology of that name', error)

    def _main_with_port_taken(self, *argv):
        """(port, status, stderr) of main(argv), %d in argv being a busy
        port.
        """
        self.useFixture(conf_fixture.ConfFixture(CONF))
        with socket.socket() as busy:
            busy.bind(('127.0.0.1', 0))
            busy.listen()
            port = busy.getsockname()[1]
            status, error = self._main(*[arg.replace('%d', str(port))
                                         for arg in argv])
        return port, status, error

    def test_api_port_taken(self):
        port, status, error = self._main_with_port_taken('--port', '%d')
        self.assertEqual(2, status)
        self.assertIn('API port %d on 127.0.0.1 is already in use; choose '
                      'another with --port (0: a free port)' % port, error)
        self.assertFalse(rpc.initialized())

    def test_simulator_port_taken(self):
        port, status, error = self._main_with_port_taken(
            '--port', '0', '--simulator-port', '%d')
        self.assertEqual(2, status)
        self.assertIn('simulator port %d on 127.0.0.1 is already in use; '
                      'choose another with --simulator-port' % port, error)

    def test_metrics_port_taken(self):
        self.useFixture(conf_fixture.ConfFixture(CONF))
        # NOTE: the failure comes after the logging set-up, which would
        # send this process's log to the removed state directory.
        self.useFixture(fixtures.MockPatch(
            'masakari.aio.runtime.logging.setup'))
        path = self.useFixture(fixtures.TempDir()).join('busy.conf')
        with socket.socket() as busy:
            busy.bind(('127.0.0.1', 0))
            busy.listen()
            port = busy.getsockname()[1]
            with open(path, 'w') as conf_file:
                conf_file.write('[metrics]\napi_listen_port = %d\n' % port)
            status, error = self._main('--port', '0', '--metrics',
                                       '--config-file', path)
        self.assertEqual(2, status)
        self.assertIn('metrics port %d on 127.0.0.1 is already in use; '
                      'choose another with [metrics]/api_listen_port in a '
                      '--config-file' % port, error)
        self.assertFalse(metrics.enabled())

    def test_keep_keeps_the_state_directory(self):
        self.useFixture(conf_fixture.ConfFixture(CONF))
        kept = runtime.AllInOne(TOPOLOGY, wait=0, setup_logging=False,
                                keep=True).start()
        self.addCleanup(shutil.rmtree, kept.state_dir, True)
        self.assertFalse(kept.state_removed_at_stop)
        kept.stop()
        self.assertTrue(os.path.isfile(os.path.join(kept.state_dir,
                                                    'masakari.conf')))

    def test_serve_banner(self):
        self.useFixture(conf_fixture.ConfFixture(CONF))
        served = runtime.AllInOne(TOPOLOGY, wait=0,
                                  setup_logging=False).start()
        self.addCleanup(served.stop)
        banner = '\n'.join(aio._banner(served, serve=True))
        self.assertIn('(removed at exit; --keep keeps it)', banner)
        self.assertIn('export OS_AUTH_TYPE=none OS_ENDPOINT=%s/v1'
                      % served.api_url, banner)
        self.assertNotIn('X-Auth-Token', banner)
