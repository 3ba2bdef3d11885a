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

"""Pipeline behaviour the gabbi files cannot express (raw bytes, options,
the filters on their own)."""

import json

import testtools
import webob
import webob.dec

from masakari.api import auth
from masakari.api import openstack
from masakari import exception
from tests.fixtures import api as api_fixture
from tests.fixtures import conf as conf_fixture


class TestRawRequests(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(api_fixture.APIFixture())

    def send(self, method, path, body=None, **headers):
        req = webob.Request.blank(path, method=method, headers=headers)
        if body is not None:
            req.body = body
        return req.get_response(self.api.app)

    def test_post_body_not_utf8(self):
        response = self.send('POST', '/v1/segments', b'{"segment": "\xff"}',
                             **{'Content-Type': 'application/json'})
        self.assertEqual(400, response.status_int)
        self.assertEqual({'badRequest': {'code': 400, 'message':
                                         'Malformed request body'}},
                         response.json)

    def test_get_ignores_a_body_not_utf8(self):
        response = self.send('GET', '/v1/segments', b'\xff\xfe',
                             **{'Content-Type': 'application/json'})
        self.assertEqual(200, response.status_int)

    def test_query_string_not_utf8(self):
        req = webob.Request.blank('/v1/segments')
        req.environ['QUERY_STRING'] = 'limit=%ff'
        response = req.get_response(self.api.app)
        self.assertEqual(400, response.status_int)
        self.assertEqual('Malformed request query string',
                         response.json['badRequest']['message'])

    def test_path_not_utf8(self):
        req = webob.Request.blank('/')
        req.environ['PATH_INFO'] = '/v1/segments/\xff'
        self.assertEqual(404, req.get_response(self.api.app).status_int)

    def _target(self, target):
        req = webob.Request.blank('/')
        req.environ['PATH_INFO'] = target
        return req.get_response(self.api.app)

    def test_absolute_form_target_is_its_path(self):
        path_form = self.send('GET', '/v1/segments?limit=1')
        for target in ('http://api.example/v1/segments',
                       'https://api.example:8443//v1//segments'):
            response = self._target(target)
            self.assertEqual(200, response.status_int, target)
            self.assertEqual(path_form.json, response.json)
        self.assertEqual(300, self._target('http://api.example').status_int)

    def test_targets_that_are_not_paths_answer_400(self):
        for target in ('*', 'v1/segments', 'ftp://api.example/v1',
                       'http:/v1/segments'):
            self.assertEqual(400, self._target(target).status_int, target)

    def test_noauth2_is_admin_whatever_the_roles(self):
        response = self.send('GET', '/v1/segments', **{'X-Roles': 'reader'})
        self.assertEqual(200, response.status_int)

    def test_link_prefix(self):
        self.api.conf.set_override('osapi_masakari_link_prefix',
                                   'https://api.example.com/ha')
        response = self.send('GET', '/v1/')
        self.assertEqual('https://api.example.com/ha/v1/',
                         response.json['version']['links'][0]['href'])
        root = self.send('GET', '/')
        self.assertEqual('https://api.example.com/ha/v1/',
                         root.json['versions'][0]['links'][0]['href'])

    def test_secure_proxy_ssl_header(self):
        self.api.conf.set_override('secure_proxy_ssl_header',
                                   'HTTP_X_FORWARDED_PROTO', group='wsgi')
        response = self.send('GET', '/', **{'X-Forwarded-Proto': 'https'})
        self.assertEqual('https://localhost:80/v1/',
                         response.json['versions'][0]['links'][0]['href'])


class TestKeystonemiddleware(testtools.TestCase):

    def test_401_without_token(self):
        api = self.useFixture(api_fixture.APIFixture(
            auth_strategy='keystone', token_stub=False))
        response = webob.Request.blank('/v1/segments').get_response(api.app)
        self.assertEqual(401, response.status_int)
        self.assertEqual('Keystone uri="http://keystone.test/identity"',
                         response.headers['WWW-Authenticate'])
        self.assertEqual({'error': {
            'code': 401, 'title': 'Unauthorized',
            'message': 'The request you have made requires authentication.'}},
            response.json)
        self.assertTrue(response.headers['x-openstack-request-id'].startswith(
            'req-'))


class TestFilters(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture())

    @staticmethod
    @webob.dec.wsgify
    def echo_context(req):
        ctx = req.environ['masakari.context']
        return webob.Response(json_body={
            'user': ctx.user_id, 'project': ctx.project_id,
            'roles': ctx.roles, 'is_admin': ctx.is_admin,
            'catalog': ctx.service_catalog})

    def test_keystone_context_without_user_is_401(self):
        app = auth.MasakariKeystoneContext(self.echo_context)
        response = webob.Request.blank('/').get_response(app)
        self.assertEqual(401, response.status_int)
        self.assertEqual('text/plain; charset=UTF-8',
                         response.headers['Content-Type'])

    def test_keystone_context_roles_decide_admin(self):
        app = auth.MasakariKeystoneContext(self.echo_context)
        for roles, admin in (('Admin', True), ('member, reader', False)):
            response = webob.Request.blank('/', headers={
                'X-User-Id': 'u', 'X-Project-Id': 'p',
                'X-Roles': roles}).get_response(app)
            self.assertEqual(admin, response.json['is_admin'], roles)

    def test_catalog_keeps_compute_and_identity(self):
        app = auth.NoAuthMiddleware(self.echo_context)
        catalog = [{'type': 'compute'}, {'type': 'image'},
                   {'type': 'identity'}]
        response = webob.Request.blank('/', headers={
            'X-Service-Catalog': json.dumps(catalog)}).get_response(app)
        self.assertEqual([{'type': 'compute'}, {'type': 'identity'}],
                         response.json['catalog'])
        self.assertTrue(response.json['is_admin'])

    def test_catalog_not_a_list_of_objects(self):
        app = auth.NoAuthMiddleware(self.echo_context)
        for value in ('1', '"x"', '[1]', '{"type": "compute"}', ''):
            response = webob.Request.blank('/', headers={
                'X-Service-Catalog': value}).get_response(app)
            self.assertEqual(400, response.status_int, value)

    def test_faultwrap_hides_the_exception_text(self):
        def failing(environ, start_response):
            raise exception.NotificationNotFound(id='secret')
        response = webob.Request.blank('/').get_response(
            openstack.FaultWrapper(failing))
        self.assertEqual(404, response.status_int)
        self.assertEqual({'itemNotFound': {
            'code': 404, 'message': 'The resource could not be found.'}},
            response.json)

    def test_faultwrap_500(self):
        def failing(environ, start_response):
            raise ValueError('secret')
        response = webob.Request.blank('/').get_response(
            openstack.FaultWrapper(failing))
        self.assertEqual(500, response.status_int)
        self.assertEqual(
            'The server has either erred or is incapable of performing the '
            'requested operation.',
            response.json['masakariFault']['message'])
        self.assertEqual('application/json; charset=UTF-8',
                         response.headers['Content-Type'])
