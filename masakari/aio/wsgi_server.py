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

"""A small threaded HTTP server for the API application (standard library
only: no eventlet in the all-in-one process).
"""

import socketserver
import threading
from wsgiref import simple_server

from oslo_log import log as logging

LOG = logging.getLogger(__name__)


class _Handler(simple_server.WSGIRequestHandler):

    def log_message(self, format, *args):
        LOG.info('%s %s', self.address_string(), format % args)


class _Server(socketserver.ThreadingMixIn, simple_server.WSGIServer):
    daemon_threads = True
    allow_reuse_address = True

    def server_bind(self):
        # NOTE: HTTPServer.server_bind resolves the host's FQDN, which can
        # take seconds on a machine without DNS; the address is enough.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]
        self.setup_environ()


class WSGIServer:
    """Bind ``host``:``port`` (0: a free port) at once; serve a WSGI
    application from a thread once started.

    :raises: OSError when the address cannot be bound.
    """

    def __init__(self, host='127.0.0.1', port=0):
        self._httpd = _Server((host, port), _Handler)
        self.host, self.port = self._httpd.server_address[:2]
        self._thread = None

    @property
    def url(self):
        host = '[%s]' % self.host if ':' in self.host else self.host
        return 'http://%s:%d' % (host, self.port)

    def start(self, app):
        """Serve ``app``; returns self."""
        self._httpd.set_app(app)
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        args=(0.1,), name='api-http',
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self):
        """Stop accepting requests and release the port."""
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(5)
            self._thread = None
        self._httpd.server_close()
