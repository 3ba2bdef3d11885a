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

"""Start and stop the all-in-one process: the simulated cloud, the engine
(RPC server on threads) and the API (threaded WSGI server), sharing one
configuration, the ``fake:/`` transport and SQLite databases; with
[metrics]/enabled, the two metrics endpoints.
"""

import errno
import functools
import os
import shutil
import tempfile

from oslo_log import log as logging
from paste import deploy
import sqlalchemy as sa

from masakari.aio import metrics_endpoints
from masakari.aio import profile
from masakari.aio import wsgi_server
from masakari.api import metrics as api_metrics
from masakari.capacity import report
from masakari.compute import nova
import masakari.conf
from masakari import config
from masakari.db import api as db_api
from masakari.db import migration
from masakari.engine import brake
from masakari.engine.drivers.taskflow import persistence
from masakari import metrics
from masakari.metrics import capacity as capacity_metrics
from masakari.metrics import engine as engine_metrics
from masakari import objects
from masakari import policy
from masakari import rpc
from masakari import service
from masakari.simulator import bmcs as simulator_bmcs
from masakari.simulator import server as simulator_server
from masakari.simulator import topology as simulator_topology

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

APP_NAME = 'masakari_api'
# Seconds the simulated BMCs take to power a host off or on.
BMC_POWER_DELAY = 2
# Seconds a transaction waits for another one's lock on a SQLite file.
SQLITE_BUSY_TIMEOUT_MS = 30000


def _bind(what, option, host, port, start):
    """``start()``, which binds ``host``:``port``; a port in use becomes an
    OSError naming the port and how to change it (``option``).
    """
    try:
        return start()
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        raise OSError(errno.EADDRINUSE, '%s port %d on %s is already in use; '
                      'choose another with %s' % (what, port, host, option)
                      ) from error


def queue_sqlite_transactions(engine):
    """Make every transaction on this SQLite ``engine`` take the write lock
    when it begins (BEGIN IMMEDIATE) and wait for it.

    NOTE: API requests, the engine's flows and its evacuation threads share
    the files. With SQLite's default deferred transactions, two of them
    that read and then write deadlock, and one fails at once with
    "database is locked"; taking the lock up front makes them queue.
    """
    def connect(dbapi_connection, connection_record):
        # NOTE: no implicit BEGIN from the driver; one is emitted below
        # (oslo.db's engines emit their own first).
        dbapi_connection.isolation_level = None
        dbapi_connection.execute('PRAGMA busy_timeout = %d'
                                 % SQLITE_BUSY_TIMEOUT_MS)

    def begin(connection):
        if 'in_transaction' not in connection.info:
            connection.exec_driver_sql('BEGIN')
            connection.info['in_transaction'] = True

    def end(connection):
        connection.info.pop('in_transaction', None)

    def immediate(connection, cursor, statement, parameters, context,
                  executemany):
        if statement == 'BEGIN':
            statement = 'BEGIN IMMEDIATE'
        return statement, parameters

    sa.event.listen(engine, 'connect', connect)
    sa.event.listen(engine, 'begin', begin)
    sa.event.listen(engine, 'commit', end)
    sa.event.listen(engine, 'rollback', end)
    sa.event.listen(engine, 'before_cursor_execute', immediate, retval=True)
    # Connections opened before the listeners existed are dropped.
    engine.dispose()


class AllInOne:
    """masakari-api + masakari-engine + the simulator in this process.

    :param topology: the simulator's topology (dict).
    :param state_dir: where masakari.conf, the log and the SQLite files go;
        None: a temporary directory, removed by stop() unless ``keep``.
    :param host: address the API and the simulator listen on.
    :param port: the API's port (0: a free one).
    :param simulator_port: the simulator's port (0: a free one).
    :param wait: [DEFAULT]/wait_period_after_service_update, seconds.
    :param config_files: more configuration files, read after the
        embedded profile (e.g. masakari-custom-recovery-methods.conf).
    :param debug: debug logging (to the log file).
    :param fencing: start the simulated hosts' BMCs and fence failed
        hosts through their Redfish BMC (needs sushy, sushy-tools and
        pyghmi: the ``test`` extra).
    :param keep: keep the temporary state directory at stop().
    :param metrics: turn [metrics]/enabled on, with a short recovery
        budget (the configuration files may do it too): serve the API's
        and the engine's metrics on their [metrics] ports.
    :param setup_logging: set up oslo.log from the configuration (the
        console script); False leaves the process's logging alone (tests).
    """

    def __init__(self, topology, state_dir=None, host='127.0.0.1', port=0,
                 simulator_port=0, wait=profile.DEFAULT_WAIT, config_files=(),
                 debug=False, setup_logging=True, fencing=False, keep=False,
                 metrics=False):
        self.topology = topology
        self.state_dir = state_dir
        self.host = host
        self.port = port
        self.simulator_port = simulator_port
        self.wait = wait
        self.config_files = list(config_files)
        self.debug = debug
        self.setup_logging = setup_logging
        self.fencing = fencing
        self.bmcs = None
        self.keep = keep
        self.metrics = metrics
        #: ``api`` and ``engine`` -> their metrics_endpoints.Endpoint.
        self.metrics_endpoints = {}
        #: The failover capacity's collectors (started; see [metrics]/
        #: segment_capacity_interval).
        self.capacity_collectors = []
        self.prometheus_file = None
        self.simulator = None
        self.engine = None
        self.api = None
        self.config_file = None
        self._temporary_state = False
        self._restore_db = None

    @property
    def api_url(self):
        return self.api.url

    @property
    def log_file(self):
        return os.path.join(self.state_dir, profile.LOG_FILE)

    @property
    def state_removed_at_stop(self):
        """Whether stop() removes the state directory (and the log)."""
        return self._temporary_state and not self.keep

    def start(self):
        """Start everything; on failure stop what was started and raise.

        :raises: OSError (a port is taken, a file is missing), ValueError
            (bad topology), oslo.config errors (bad configuration file).
        """
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self):
        if self.state_dir is None:
            self.state_dir = tempfile.mkdtemp(prefix='masakari-aio-')
            self._temporary_state = True
        else:
            os.makedirs(self.state_dir, exist_ok=True)
        # NOTE: bind first, so that a port in use fails before anything
        # else is set up.
        self.api = _bind('API', '--port (0: a free port)', self.host,
                         self.port,
                         lambda: wsgi_server.WSGIServer(self.host, self.port))
        self.simulator = _bind(
            'simulator', '--simulator-port (0: a free port)', self.host,
            self.simulator_port,
            lambda: simulator_server.Simulator(
                self.topology, host=self.host,
                port=self.simulator_port).start())
        user = self.topology.get('users',
                                 simulator_topology.DEFAULT_USERS)[0]
        self.config_file = profile.write(
            self.state_dir, self.simulator.identity_url, user, self.wait,
            debug=self.debug)
        option_files = [self._start_bmcs()] if self.fencing else []
        if self.metrics:
            option_files.append(profile.write_metrics(self.state_dir))
        argv = ['masakari-aio']
        for path in [self.config_file] + option_files + self.config_files:
            argv += ['--config-file', path]
        config.parse_args(argv, default_config_files=[], configure_db=False)
        if self.setup_logging:
            logging.setup(CONF, 'masakari')
        # NOTE: before the engine and the API are made: they record from
        # their start.
        if metrics.configure(multiprocess=False):
            self._start_metrics()
        self._restore_db = db_api.configure(CONF)
        objects.register_all()
        queue_sqlite_transactions(db_api.get_engine())
        queue_sqlite_transactions(
            persistence.get_backend(CONF.taskflow.connection).engine)
        migration.db_sync()
        persistence.upgrade(CONF.taskflow.connection)

        self.engine = service.Service.create(executor='threading')
        self.engine.start()
        app = deploy.loadapp('config:%s' % CONF.wsgi.api_paste_config,
                             name=APP_NAME)
        self.api.start(api_metrics.wrap(app))
        LOG.info('masakari-aio: API on %(api)s, simulator on %(sim)s',
                 {'api': self.api.url, 'sim': self.simulator.url})

    def _start_metrics(self):
        """Serve the API's and the engine's metrics; write the Prometheus
        configuration that scrapes them.
        """
        address = CONF.metrics.listen_address
        self.capacity_collectors = capacity_metrics.collectors(
            report.capacity)
        for name, endpoint, option in (
                ('api', metrics_endpoints.api_endpoint(),
                 'api_listen_port'),
                ('engine', metrics_endpoints.engine_endpoint(
                    [engine_metrics.OldestNotificationCollector(
                        brake.is_held)] + self.capacity_collectors),
                 'engine_listen_port')):
            port = getattr(CONF.metrics, option)
            self.metrics_endpoints[name] = _bind(
                'metrics', '[metrics]/%s in a --config-file' % option,
                address, port, functools.partial(endpoint.start, address,
                                                 port))
        self.prometheus_file = profile.write_prometheus(
            self.state_dir, *('%s:%d' % (address, getattr(
                CONF.metrics, option)) for option in (
                    'api_listen_port', 'engine_listen_port')))

    def _start_bmcs(self):
        """Start the BMCs; returns the configuration file pointing the
        engine at them.
        """
        self.bmcs = simulator_bmcs.BMCs(
            self.simulator.cloud, self.simulator.control_url,
            address=self.host, power_delay=BMC_POWER_DELAY).start()
        return profile.write_fencing(
            self.state_dir, self.bmcs.fencing_entries('redfish'))

    def stop(self):
        """Stop the API, the engine and the simulator; forget the process
        wide set-up (RPC transport, database engines); remove a temporary
        state directory.
        """
        if self.api is not None:
            self.api.stop()
            self.api = None
        if self.engine is not None:
            self.engine.stop()
            self.engine.wait()
            self.engine = None
        if self.bmcs is not None:
            self.bmcs.stop()
            self.bmcs = None
        for endpoint in self.metrics_endpoints.values():
            endpoint.stop()
        self.metrics_endpoints = {}
        for collector in self.capacity_collectors:
            collector.stop()
        self.capacity_collectors = []
        metrics.disable()
        if self.simulator is not None:
            self.simulator.stop()
            self.simulator = None
        if rpc.initialized():
            rpc.cleanup()
        persistence.reset()
        nova.forget_session()
        policy.reset()
        if self._restore_db is not None:
            self._restore_db()
            self._restore_db = None
        if self.state_removed_at_stop:
            shutil.rmtree(self.state_dir, ignore_errors=True)
        self._temporary_state = False
