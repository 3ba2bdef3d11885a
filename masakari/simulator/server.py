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

"""The simulator's HTTP server: one port, four mounts.

``/identity`` is Keystone, ``/compute`` is Nova, ``/placement`` is
Placement, ``/_simulator`` is the control API. Keystone, Nova and
Placement requests go through the call log and the fault injector before
their handler runs. ``Simulator`` is also the
in-process entry point used by tests and by the all-in-one command.
"""

import http.server
import logging
import threading
from urllib import parse

from masakari.simulator import control
from masakari.simulator import keystone
from masakari.simulator import nova
from masakari.simulator import placement
from masakari.simulator import state
from masakari.simulator import web

LOG = logging.getLogger(__name__)

SERVICES = {'keystone': keystone, 'nova': nova, 'placement': placement}
# Seconds stop() may wait for the serving loop to notice it.
POLL_INTERVAL = 0.05
MOUNTS = ((keystone.MOUNT, 'keystone'), (nova.MOUNT, 'nova'),
          (placement.MOUNT, 'placement'), (control.MOUNT, 'control'))


class _Handler(http.server.BaseHTTPRequestHandler):
    # NOTE: HTTP/1.1 keeps connections alive, as keystoneauth expects; every
    # answer therefore carries a Content-Length.
    protocol_version = 'HTTP/1.1'
    # NOTE: buffered writes, so status line, headers and body leave in one
    # send at the flush that ends each request; unbuffered, the separate
    # sends meet Nagle and the client's delayed ACK (~40 ms per answer).
    wbufsize = -1

    def _serve(self):
        simulator = self.server.simulator
        split = parse.urlsplit(self.path)
        length = int(self.headers.get('Content-Length') or 0)
        body = self.rfile.read(length) if length else b''
        for mount, name in MOUNTS:
            if split.path == mount or split.path.startswith(mount + '/'):
                request = web.Request(self.command,
                                      split.path[len(mount):] or '/',
                                      split.query, self.headers, body)
                # NOTE: links and the catalogue use the address the client
                # used, so a simulator listening on 0.0.0.0 works remotely.
                request.environ['base_url'] = (
                    'http://%s' % self.headers['Host']
                    if self.headers.get('Host') else simulator.url)
                response = simulator.serve(name, request)
                break
        else:
            response = web.Response(404, {'error': 'Not found: use '
                                          '/identity, /compute, '
                                          '/placement or /_simulator'})
        self._send(response)

    def _send(self, response):
        data = response.encode()
        try:
            self.send_response(response.status)
            for name, value in response.headers.items():
                self.send_header(name, value)
            self.send_header('Content-Length', str(len(data)))
            self.end_headers()
            if self.command != 'HEAD':
                self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            # NOTE: the client gave up (e.g. its timeout fired during an
            # injected hang); nothing is left to answer.
            self.close_connection = True

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

    def log_message(self, format, *args):
        LOG.debug('%s %s', self.address_string(), format % args)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    block_on_close = False


class Simulator:
    """A running simulated cloud.

    :param topology: the topology dict (see ``masakari.simulator``).
    :param host: address to listen on.
    :param port: port to listen on; 0 picks a free one.
    :param echo: a callable given one line per Keystone, Nova or
        Placement call served (the CLI's ``--verbose``), or None.
    """

    def __init__(self, topology, host='127.0.0.1', port=0, echo=None):
        self.cloud = state.Cloud(topology)
        self._echo = echo
        try:
            self._httpd = _Server((host, port), _Handler)
        except OSError:
            self.cloud.close()
            raise
        self._httpd.simulator = self
        self._thread = None
        bound_host, bound_port = self._httpd.server_address[:2]
        self.url = 'http://%s:%d' % (bound_host, bound_port)

    @property
    def identity_url(self):
        """Keystone's unversioned URL (the auth_url to configure)."""
        return self.url + keystone.MOUNT

    @property
    def compute_url(self):
        """Nova's versioned endpoint, as the catalogue lists it."""
        return self.url + nova.MOUNT + '/v2.1'

    @property
    def placement_url(self):
        """Placement's endpoint, as the catalogue lists it."""
        return self.url + placement.MOUNT

    @property
    def control_url(self):
        return self.url + control.MOUNT

    def start(self):
        """Serve on a background thread; return self."""
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        args=(POLL_INTERVAL,),
                                        name='simulator-http', daemon=True)
        self._thread.start()
        return self

    def serve_forever(self):
        """Serve on the calling thread until stop() or an interruption."""
        try:
            self._httpd.serve_forever(POLL_INTERVAL)
        finally:
            self._close()

    def stop(self):
        """Stop serving, cancel pending transitions, release the port."""
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(5)
            self._thread = None
        self._close()

    def _close(self):
        self.cloud.close()
        self._httpd.server_close()

    def calls(self, service=None):
        """The call log (see ``calls.CallLog``), optionally of one service."""
        return self.cloud.calls.snapshot(service)

    def reset_calls(self):
        self.cloud.calls.reset()

    def serve(self, service, request):
        """Answer one request of a mount (log, faults, handler)."""
        if service == 'control':
            return control.handle(self.cloud, request)
        module = SERVICES[service]
        entry = self.cloud.calls.record(service, request)
        rule = self.cloud.faults.match(service, request)
        if rule and rule.get('hang'):
            self.cloud.stopping.wait(float(rule['hang']))
        if rule and 'status' in rule:
            status = int(rule['status'])
            response = module.fault_response(
                status, rule.get('message', 'Injected fault (HTTP %d).'
                                 % status))
            if service == 'nova':
                response.headers['x-compute-request-id'] = 'req-injected'
        else:
            try:
                response = module.handle(self.cloud, request)
            except Exception:
                LOG.exception('Simulator failure on %s %s', request.method,
                              request.path)
                response = module.fault_response(
                    500, 'Unexpected simulator error; see its log.')
        self.cloud.calls.complete(entry, response.status)
        if self._echo:
            self._echo('%s %s %s%s -> %d' % (
                service, request.method, request.path,
                '?' + request.query_string if request.query_string else '',
                response.status))
        return response
