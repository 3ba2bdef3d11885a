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

"""masakari.config.parse_args: library overrides, parsing, RPC, DB."""

import contextlib
import io
import os
import subprocess
import sys

import fixtures
import oslo_messaging as messaging
from oslo_middleware import cors
import testtools
import webob

from masakari import config
from masakari.db import api as db_api
from masakari.db import facade
from masakari import rpc
from masakari import version
from tests.fixtures import conf as conf_fixture

CONF = config.CONF


class ParseArgsTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture())
        self.tmp = self.useFixture(fixtures.TempDir()).path

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def parse(self, text='', argv=(), **kwargs):
        kwargs.setdefault('configure_db', False)
        kwargs.setdefault('init_rpc', False)
        path = self.write('masakari.conf', text)
        config.parse_args(['masakari-test'] + list(argv),
                          default_config_files=[path], **kwargs)


class TestControlExchange(ParseArgsTestCase):

    def _transport_exchange(self, text):
        self.parse('[DEFAULT]\ntransport_url = fake:/\n' + text,
                   init_rpc=True)
        self.addCleanup(rpc.cleanup)
        self.assertTrue(rpc.initialized())
        # NOTE: the exchange the RPC driver puts every target into.
        return rpc.TRANSPORT._driver._default_exchange

    def test_default_is_masakari(self):
        self.assertEqual('masakari', self._transport_exchange(''))
        self.assertEqual('masakari', CONF.control_exchange)

    def test_explicit_value_wins(self):
        self.assertEqual('other', self._transport_exchange(
            'control_exchange = other\n'))

    def test_without_rpc_the_default_is_still_set(self):
        self.parse()
        messaging.get_rpc_transport(CONF, url='fake:/').cleanup()
        self.assertEqual('masakari', CONF.control_exchange)


class TestCorsDefaults(ParseArgsTestCase):

    def setUp(self):
        super().setUp()
        self.parse('[cors]\nallowed_origin = http://dashboard.example\n')
        self.app = cors.CORS(webob.Response(body=b'ok'), CONF)

    def _preflight(self, method, headers='X-Auth-Token'):
        request = webob.Request.blank('/v1/segments', method='OPTIONS')
        request.headers['Origin'] = 'http://dashboard.example'
        request.headers['Access-Control-Request-Method'] = method
        request.headers['Access-Control-Request-Headers'] = headers
        return request.get_response(self.app)

    def test_option_defaults(self):
        self.assertEqual(['GET', 'PUT', 'POST', 'DELETE', 'PATCH'],
                         CONF.cors.allow_methods)
        self.assertEqual(['X-Auth-Token', 'X-Openstack-Request-Id',
                          'X-Identity-Status', 'X-Roles',
                          'X-Service-Catalog', 'X-User-Id', 'X-Tenant-Id'],
                         CONF.cors.allow_headers)
        self.assertEqual(['X-Auth-Token', 'X-Openstack-Request-Id',
                          'X-Subject-Token', 'X-Service-Token'],
                         CONF.cors.expose_headers)

    def test_preflight_allows_the_api_methods_and_headers(self):
        response = self._preflight('PATCH', 'X-Auth-Token,X-Roles')
        self.assertEqual('http://dashboard.example',
                         response.headers['Access-Control-Allow-Origin'])
        self.assertEqual('PATCH',
                         response.headers['Access-Control-Allow-Methods'])

    def test_preflight_refuses_other_methods(self):
        response = self._preflight('TRACE')
        self.assertNotIn('Access-Control-Allow-Origin', response.headers)

    def test_responses_expose_the_request_id(self):
        request = webob.Request.blank('/v1/segments')
        request.headers['Origin'] = 'http://dashboard.example'
        response = request.get_response(self.app)
        self.assertIn('X-Openstack-Request-Id',
                      response.headers['Access-Control-Expose-Headers'])

    def test_lib_defaults_entry_point_applies_them(self):
        from importlib import metadata
        entry_point, = [ep for ep in metadata.entry_points(
            group='oslo.config.opts.defaults') if ep.name == 'masakari.api']
        self.addCleanup(cors.set_defaults, allow_methods=[])
        cors.set_defaults(allow_methods=[])
        entry_point.load()()
        self.assertIn('PATCH', CONF.cors.allow_methods)


class TestParsing(ParseArgsTestCase):

    def test_files_and_command_line(self):
        override = self.write('override.conf',
                              '[DEFAULT]\nosapi_max_limit = 7\n')
        self.parse('[DEFAULT]\nosapi_max_limit = 3\nverify_interval = 4\n')
        self.assertEqual(3, CONF.osapi_max_limit)
        self.parse('[DEFAULT]\nosapi_max_limit = 3\n',
                   argv=['--config-file', override, '--debug'])
        self.assertEqual(7, CONF.osapi_max_limit)
        self.assertIs(True, CONF.debug)

    def test_unknown_argument_is_refused(self):
        with contextlib.redirect_stderr(io.StringIO()):
            error = self.assertRaises(SystemExit, self.parse,
                                      argv=['--no-such-flag'])
        self.assertEqual(2, error.code)

    def test_version_flag(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            error = self.assertRaises(SystemExit, self.parse,
                                      argv=['--version'])
        self.assertEqual(0, error.code)
        self.assertEqual(version.version_string(), out.getvalue().strip())

    def test_configures_the_database_from_the_parsed_files(self):
        url = 'sqlite:///%s/parsed.sqlite' % self.tmp
        self.parse('[database]\nconnection = %s\n' % url,
                   configure_db=True)
        self.addCleanup(db_api.configure, CONF)
        self.addCleanup(CONF.set_override, 'connection', 'sqlite://',
                        group='database')
        self.assertEqual(url, str(facade.get_engine().url))


class TestReleaseFile(ParseArgsTestCase):

    def test_strings_come_from_the_release_file(self):
        self.write('release', '[Masakari]\nvendor = ACME\n'
                              'product = ACME HA\npackage = 3.el9\n')
        self.parse()
        self.assertEqual('ACME', version.vendor_string())
        self.assertEqual('ACME HA', version.product_string())
        self.assertEqual(version.version_string() + '-3.el9',
                         version.version_string_with_package())

    def test_defaults_without_release_file(self):
        self.parse()
        self.assertEqual(version.VENDOR, version.vendor_string())
        self.assertEqual(version.PRODUCT, version.product_string())
        self.assertIsNone(version.package_string())
        self.assertEqual(version.version_string(),
                         version.version_string_with_package())


def _run_python(code):
    return subprocess.run([sys.executable, '-c', code], capture_output=True,
                          text=True, timeout=60, check=True).stdout.split()


class TestImportSideEffects(testtools.TestCase):
    """Checked in fresh interpreters: this test process stays unpatched."""

    def test_cmd_package_patches_nothing(self):
        self.assertEqual(['socket'], _run_python(
            'import masakari.cmd, socket; print(socket.socket.__module__)'))

    def test_monkey_patch_module_patches_everything(self):
        self.assertEqual(['True', 'True', 'yes'], _run_python(
            'import masakari.cmd.monkey_patch, os\n'
            'from eventlet import patcher\n'
            'print(patcher.is_monkey_patched("socket"),'
            ' patcher.is_monkey_patched("thread"),'
            ' os.environ["EVENTLET_NO_GREENDNS"])'))

    def test_conf_package_sets_the_database_default(self):
        parent = os.path.dirname(os.path.dirname(config.__file__))
        self.assertEqual(['sqlite:///%s/masakari.sqlite' % parent],
                         _run_python(
            'import masakari.conf as c\n'
            'c.CONF([], default_config_files=[], default_config_dirs=[])\n'
            'print(c.CONF.database.connection)'))

    def test_this_process_is_not_monkey_patched(self):
        import socket
        self.assertEqual('socket', socket.socket.__module__)
