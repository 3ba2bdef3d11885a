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

"""masakari-api: serve the paste app ``masakari_api`` with eventlet workers.

The server lives here, not in masakari/service.py (the engine's module),
so that eventlet stays confined to masakari/cmd.
"""

from masakari.cmd import monkey_patch  # noqa: F401,H306 (must be first)

import os  # noqa: I100
import socket
import ssl
import sys

import eventlet
import eventlet.wsgi
import greenlet
from oslo_concurrency import processutils
from oslo_config import cfg
from oslo_log import log as logging
from oslo_service import service
from paste import deploy

from masakari.api import metrics as api_metrics
from masakari.common import cli
from masakari.common import startup
from masakari import config
from masakari import coordination
from masakari import exception
from masakari import metrics
from masakari.metrics import server as metrics_server
from masakari import objects

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

APP_NAME = 'masakari_api'
BACKLOG = 128
# The exit status of a start-up error, as in Masakari 22.0.0.
STARTUP_FAILED = 1


def find_paste_config():
    """Path of ``[wsgi]api_paste_config`` (relative: config search path).

    :raises: ConfigNotFound
    """
    name = CONF.wsgi.api_paste_config
    path = name if os.path.isabs(name) else CONF.find_file(name)
    if not path or not os.path.exists(path):
        raise exception.ConfigNotFound(path=name)
    return os.path.abspath(path)


def load_app(name=APP_NAME):
    """Load the paste application ``name``.

    :raises: ConfigNotFound, PasteAppNotFound
    """
    path = find_paste_config()
    try:
        LOG.debug('Loading app %(name)s from %(path)s',
                  {'name': name, 'path': path})
        return deploy.loadapp('config:%s' % path, name=name)
    except LookupError:
        LOG.exception('Could not load paste app %s', name)
        raise exception.PasteAppNotFound(name=name, path=path)


def _worker_count():
    workers = CONF.masakari_api_workers
    if workers is None or workers == 0:
        return processutils.get_worker_count()
    if workers < 0:
        raise exception.InvalidInput(reason=(
            'masakari_api_workers value of %d is invalid, must be greater '
            'than 0' % workers))
    return workers


def _ssl_context():
    """The server TLS context of [wsgi]ssl_*; fails fast when unusable."""
    cert, key, ca = (CONF.wsgi.ssl_cert_file, CONF.wsgi.ssl_key_file,
                     CONF.wsgi.ssl_ca_file)
    for label, path in (('cert_file', cert), ('ca_file', ca),
                        ('key_file', key)):
        if path and not os.path.exists(path):
            raise RuntimeError('Unable to find %s : %s' % (label, path))
    if not (cert and key):
        raise RuntimeError('When running server in SSL mode, you must '
                           'specify both a cert_file and key_file option '
                           'value in your configuration file')
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    if ca:
        context.load_verify_locations(ca)
        context.verify_mode = ssl.CERT_REQUIRED
    return context


class WSGIService(service.ServiceBase):
    """The listening socket (bound in the parent) and one eventlet server
    per worker process.
    """

    def __init__(self, name=APP_NAME):
        self.name = name
        self.app = api_metrics.wrap(load_app(name))
        self.workers = _worker_count()
        self.host = CONF.masakari_api_listen
        self.port = CONF.masakari_api_listen_port
        self.ssl_context = _ssl_context() if CONF.use_ssl else None
        self.socket = self._bind()
        self._server = None
        self._pool = None

    def _bind(self):
        try:
            family, _type, _proto, _name, address = socket.getaddrinfo(
                self.host, self.port, socket.AF_UNSPEC,
                socket.SOCK_STREAM)[0]
        except socket.gaierror:
            family, address = socket.AF_INET, (self.host, self.port)
        try:
            sock = eventlet.listen(address, family, backlog=BACKLOG)
        except OSError as error:
            raise cli.bind_error(error, self.host, self.port,
                                 '[DEFAULT]/masakari_api_listen_port')
        LOG.info('%(name)s listening on %(host)s:%(port)s',
                 {'name': self.name, 'host': self.host, 'port': self.port})
        return sock

    def start(self):
        """Serve in this (worker) process."""
        if CONF.coordination.backend_url:
            coordination.COORDINATOR.start()
        sock = self.socket.dup()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        if hasattr(socket, 'TCP_KEEPIDLE'):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE,
                            CONF.wsgi.tcp_keepidle)
        # NOTE: eventlet writes a response's headers and body separately;
        # with Nagle's algorithm the body then waits for the client's
        # delayed ACK of the headers (about 40 ms on Linux) whenever it
        # spans several segments, e.g. a list of a hundred segments.
        # Accepted connections inherit the option.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self.ssl_context:
            sock = self.ssl_context.wrap_socket(sock, server_side=True)
        eventlet.wsgi.MAX_HEADER_LINE = CONF.wsgi.max_header_line
        # NOTE: read after parsing, so [wsgi]default_pool_size is honoured
        # (the reference read it at import time and always used 1000).
        self._pool = eventlet.GreenPool(CONF.wsgi.default_pool_size)
        self._server = eventlet.spawn(
            eventlet.wsgi.server, sock, self.app,
            custom_pool=self._pool,
            log=logging.getLogger('masakari.%s.wsgi.server' % self.name),
            log_format=CONF.wsgi.wsgi_log_format,
            # NOTE: eventlet's default (debug=True) answers an exception
            # that escapes the application with its traceback.
            debug=False,
            keepalive=CONF.wsgi.keep_alive,
            socket_timeout=CONF.wsgi.client_socket_timeout or None)

    def stop(self):
        """Stop accepting connections."""
        LOG.info('Stopping WSGI server.')
        if self._server is not None:
            self._pool.resize(0)
            self._server.kill()

    def wait(self):
        """Wait for the requests in progress to finish."""
        try:
            if self._server is not None:
                self._pool.waitall()
                self._server.wait()
        except greenlet.GreenletExit:
            LOG.info('WSGI server has stopped.')

    def reset(self):
        """SIGHUP: restore the pool size after a stop."""
        if self._pool is not None:
            self._pool.resize(CONF.wsgi.default_pool_size)


@cli.exits('masakari-api', STARTUP_FAILED)
def main():
    """Console script ``masakari-api``; a start-up error exits 1 with one
    line (doc/source/cli/masakari-api.rst).
    """
    config.parse_args(sys.argv)
    logging.setup(CONF, 'masakari')
    objects.register_all()
    # NOTE: before the workers fork, so that they write where the parent
    # reads; the parent serves their sum.
    serve_metrics = (CONF.metrics.enabled and
                     metrics.configure(True, metrics_server.console_dir()))
    launcher = service.ProcessLauncher(CONF, restart_method='mutate')
    try:
        server = WSGIService(APP_NAME)
    except exception.ConfigNotFound as error:
        raise cli.StartupError(
            '%s: the paste file of [wsgi]/api_paste_config, looked up next '
            'to the configuration files when relative; set that option to '
            'the path of the api-paste.ini shipped with Masakari'
            % error.format_message())
    except exception.PasteAppNotFound as error:
        raise cli.StartupError(
            '%s ([wsgi]/api_paste_config); use the api-paste.ini shipped '
            'with Masakari' % error.format_message())
    except exception.InvalidInput as error:
        raise cli.StartupError(
            '[DEFAULT]/masakari_api_workers: %s; set it to the number of '
            'worker processes (unset or 0: one per CPU)'
            % error.kwargs['reason'])
    except RuntimeError as error:
        raise cli.StartupError('%s ([DEFAULT]/use_ssl is true)' % error)
    startup.freeze_loaded_objects()
    launcher.launch_service(server, workers=server.workers)
    if serve_metrics:
        metrics_server.serve(CONF.metrics.listen_address,
                             CONF.metrics.api_listen_port)
    launcher.wait()


if __name__ == '__main__':
    sys.exit(main())
