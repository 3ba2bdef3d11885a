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

"""etc/masakari/api-paste.ini has the sections and keys of 22.0.0."""

import configparser
import os

import testtools

from tests.unit.conf.test_generators import ETC

PASTE_FILE = os.path.join(ETC, 'api-paste.ini')

_FILTERS = 'cors http_proxy_to_wsgi request_id faultwrap sizelimit'

EXPECTED = [
    ('composite:masakari_api', {
        'use': 'call:masakari.api.urlmap:urlmap_factory',
        '/': 'apiversions',
        '/v1': 'masakari_api_v1',
        '/healthcheck': 'healthcheck'}),
    ('composite:masakari_api_v1', {
        'use': 'call:masakari.api.auth:pipeline_factory_v1',
        'keystone': _FILTERS + ' authtoken keystonecontext '
                               'osapi_masakari_app_v1',
        'noauth2': _FILTERS + ' noauth2 osapi_masakari_app_v1'}),
    ('filter:cors', {
        'paste.filter_factory': 'oslo_middleware.cors:filter_factory',
        'oslo_config_project': 'masakari'}),
    ('filter:http_proxy_to_wsgi', {
        'paste.filter_factory':
            'oslo_middleware.http_proxy_to_wsgi:HTTPProxyToWSGI.factory'}),
    ('filter:request_id', {
        'paste.filter_factory': 'oslo_middleware:RequestId.factory'}),
    ('filter:faultwrap', {
        'paste.filter_factory':
            'masakari.api.openstack:FaultWrapper.factory'}),
    ('filter:sizelimit', {
        'paste.filter_factory':
            'oslo_middleware:RequestBodySizeLimiter.factory'}),
    ('filter:authtoken', {
        'paste.filter_factory': 'keystonemiddleware.auth_token:'
                                'filter_factory'}),
    ('filter:keystonecontext', {
        'paste.filter_factory':
            'masakari.api.auth:MasakariKeystoneContext.factory'}),
    ('filter:noauth2', {
        'paste.filter_factory': 'masakari.api.auth:NoAuthMiddleware.factory'}),
    ('app:osapi_masakari_app_v1', {
        'paste.app_factory': 'masakari.api.openstack.ha:APIRouterV1.factory'}),
    ('pipeline:apiversions', {
        'pipeline': 'faultwrap http_proxy_to_wsgi apiversionsapp'}),
    ('app:apiversionsapp', {
        'paste.app_factory':
            'masakari.api.openstack.ha.versions:Versions.factory'}),
    ('app:healthcheck', {
        'paste.app_factory': 'oslo_middleware:Healthcheck.app_factory',
        'backends': 'disable_by_file',
        'disable_by_file_path': '/etc/masakari/healthcheck_disable'}),
]


class TestApiPaste(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.parser = configparser.RawConfigParser(default_section='none')
        self.parser.optionxform = str
        self.parser.read(PASTE_FILE)
        with open(PASTE_FILE) as f:
            self.lines = f.read().splitlines()

    def test_sections_in_order(self):
        self.assertEqual([name for name, _ in EXPECTED],
                         self.parser.sections())

    def test_each_section_keys_and_values(self):
        for name, keys in EXPECTED:
            self.assertEqual(keys, dict(self.parser[name]), name)

    def test_no_default_section(self):
        self.assertNotIn('[DEFAULT]', self.lines)

    def test_group_comments(self):
        self.assertEqual('[filter:cors]',
                         self.lines[self.lines.index('# filters') + 1])
        self.assertEqual('[app:osapi_masakari_app_v1]',
                         self.lines[self.lines.index('# apps') + 1])
