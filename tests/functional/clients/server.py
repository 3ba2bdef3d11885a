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

"""The API served over real HTTP for the clients' tests.

``ClientsAPI`` is tests.fixtures.api.APIFixture (the paste app
``masakari_api`` of etc/masakari/api-paste.ini on a throwaway MariaDB
database, the fake RPC transport with the API developer's engine stand-in,
the Nova simulator for the host check) served by a threaded wsgiref server
on a free loopback port. In front of the app a recorder keeps what the
clients sent, and can answer the next requests with an injected error.
With ``keystone=`` the shipped keystone pipeline runs, keystonemiddleware
included, validating real tokens against that Keystone.
"""

import collections
import io
import socketserver
import threading
from wsgiref import simple_server

import fixtures
from keystoneauth1 import loading as ks_loading
import webob
from webob import exc as webob_exc

import masakari.conf
from tests.fixtures import api as api_fixture

AUTHTOKEN_GROUP = 'keystone_authtoken'
# The API's own account in Keystone, as devstack makes it.
SERVICE_USER = 'masakari'
SERVICE_PASSWORD = 'masakari-secret'
SERVICE_PROJECT = 'service'
TEST_USER_AGENT = 'masakari-clients-tests'

Request = collections.namedtuple(
    'Request', 'method path query headers body')


class _ThreadingServer(socketserver.ThreadingMixIn, simple_server.WSGIServer):
    daemon_threads = True


class _QuietHandler(simple_server.WSGIRequestHandler):
    def log_message(self, format, *args):
        pass


class Recorder:
    """WSGI middleware: records every request; injects errors on demand."""

    def __init__(self, application):
        self.application = application
        self.requests = []
        self._faults = []
        self._lock = threading.Lock()

    def fail_next(self, count, status=503, method=None):
        """Answer the next ``count`` requests (of ``method`` only, if
        given) with ``status`` and a proxy's plain error page instead of
        passing them to the API.
        """
        with self._lock:
            self._faults.extend([(status, method)] * count)

    def clear(self):
        with self._lock:
            self.requests.clear()

    def _take_fault(self, method):
        for index, (status, fault_method) in enumerate(self._faults):
            if fault_method in (None, method):
                del self._faults[index]
                return status
        return None

    def __call__(self, environ, start_response):
        length = int(environ.get('CONTENT_LENGTH') or 0)
        body = environ['wsgi.input'].read(length) if length else b''
        environ['wsgi.input'] = io.BytesIO(body)
        request = webob.Request(environ)
        with self._lock:
            self.requests.append(Request(
                request.method, request.path, request.query_string,
                dict(request.headers), body))
            fault = self._take_fault(request.method)
        if fault is not None:
            return webob_exc.status_map[fault]()(environ, start_response)
        return self.application(environ, start_response)


class HTTPServer(fixtures.Fixture):
    """Serve ``application`` on 127.0.0.1 (free port) in a thread.

    ``url`` is ``http://127.0.0.1:PORT``.
    """

    def __init__(self, application):
        super().__init__()
        self.application = application

    def _setUp(self):
        self.server = simple_server.make_server(
            '127.0.0.1', 0, self.application,
            server_class=_ThreadingServer, handler_class=_QuietHandler)
        self.url = 'http://127.0.0.1:%d' % self.server.server_address[1]
        thread = threading.Thread(target=self.server.serve_forever,
                                  kwargs={'poll_interval': 0.05},
                                  daemon=True)
        thread.start()
        self.addCleanup(thread.join, 10)
        self.addCleanup(self.server.server_close)
        self.addCleanup(self.server.shutdown)

    def stop(self):
        """Stop answering (new connections are refused) before clean-up."""
        self.server.shutdown()
        self.server.server_close()


class _APIWithAuthtoken(api_fixture.APIFixture):
    """APIFixture on the shipped paste file, keystonemiddleware included,
    with [keystone_authtoken] pointing at a real Keystone.
    """

    def __init__(self, keystone, backend, plugin_options):
        super().__init__(auth_strategy='keystone', backend=backend)
        self.keystone = keystone
        self.plugin_options = plugin_options

    def _paste_ini(self):
        # NOTE: called once the configuration fixture is up, right before
        # the app is loaded. keystonemiddleware registers the options of its
        # auth plugin only when it first needs a service token: register
        # them now so that they can be set.
        self.conf.register_opts(self.plugin_options, group=AUTHTOKEN_GROUP)
        options = {
            'www_authenticate_uri': self.keystone.url,
            'auth_url': self.keystone.url,
            'auth_type': 'password',
            'username': SERVICE_USER,
            'password': SERVICE_PASSWORD,
            'project_name': SERVICE_PROJECT,
            'user_domain_name': 'Default',
            'project_domain_name': 'Default',
        }
        for name, value in options.items():
            self.conf.set_override(name, value, group=AUTHTOKEN_GROUP)
        return api_fixture.PASTE_INI


class ClientsAPI(fixtures.Fixture):
    """The API over HTTP, with noauth2 or with a real Keystone.

    :param keystone: a started tests.fixtures.keystone.KeystoneFixture;
        None for noauth2. The Keystone side (the API's service user, the
        catalogue entry) is the caller's business.
    After set-up: ``url`` (root URL), ``api`` (the APIFixture: ``nova``,
    ``engine``, ``conf``...), ``recorder`` (requests as received).
    """

    def __init__(self, keystone=None, backend='mysql'):
        super().__init__()
        self.keystone = keystone
        self.backend = backend

    def _setUp(self):
        if self.keystone is None:
            self.api = self.useFixture(
                api_fixture.APIFixture('noauth2', self.backend))
        else:
            plugin_options = ks_loading.get_auth_plugin_conf_options(
                'password')
            # NOTE: some of them are required: left registered, they would
            # fail every later parse of the global configuration. Removing
            # them needs an unparsed configuration, i.e. after the API
            # fixture's clean-up (clean-ups run last added, first run).
            self.addCleanup(masakari.conf.CONF.unregister_opts,
                            plugin_options, group=AUTHTOKEN_GROUP)
            self.api = self.useFixture(_APIWithAuthtoken(
                self.keystone, self.backend, plugin_options))
        self.recorder = Recorder(self.api.app)
        self.server = self.useFixture(HTTPServer(self.recorder))
        self.url = self.server.url

    def requests_to(self, path_prefix, method=None):
        """The clients' recorded requests whose path starts with
        ``path_prefix`` (the tests' own, sent with TEST_USER_AGENT, left out).
        """
        return [request for request in self.recorder.requests
                if request.path.startswith(path_prefix) and
                method in (None, request.method) and
                request.headers.get('User-Agent') != TEST_USER_AGENT]
