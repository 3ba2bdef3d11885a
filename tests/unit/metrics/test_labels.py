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

"""Label values stay bounded: API route templates and Nova operations."""

import testtools

from masakari.api import metrics as api_metrics
from masakari.metrics import nova as nova_metrics
from tests.fixtures import conf as conf_fixture

UUID = '2f8a4b8e-4c9c-4b8e-9e3f-0d3d5c0f3a11'
PROJECT = '6f70656e737461636b20342065766572'


class RouteTemplateTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture())

    def test_templates(self):
        for method, path, route in [
                ('GET', '/', '/'),
                ('GET', '/healthcheck', '/healthcheck'),
                ('GET', '/v1', '/v1/'),
                ('GET', '/v1/', '/v1/'),
                ('GET', '/v1/segments', '/v1/segments'),
                ('POST', '/v1/notifications', '/v1/notifications'),
                ('GET', '/v1/segments/%s' % UUID,
                 '/v1/segments/{segment_id}'),
                ('GET', '/v1/segments/%s.json' % UUID,
                 '/v1/segments/{segment_id}'),
                ('PUT', '/v1/segments/%s/hosts/%s' % (UUID, UUID),
                 '/v1/segments/{segment_id}/hosts/{host_id}'),
                ('GET', '/v1/%s/notifications/%s/vmoves' % (PROJECT, UUID),
                 '/v1/{project_id}/notifications/{notification_id}/vmoves'),
                ('GET', '/v1/extensions', '/v1/extensions'),
                ('PATCH', '/v1/segments', 'unmatched'),
                ('GET', '/v1/no-such-thing/%s' % UUID, 'unmatched'),
                ('GET', '/v2/segments', 'unmatched')]:
            self.assertEqual(route, api_metrics.route_of(method, path),
                             (method, path))


class NovaOperationTestCase(testtools.TestCase):

    def test_operations(self):
        for method, url, body, name in [
                ('GET', 'http://nova:8774/v2.1/servers/detail?all_tenants=1'
                 '&host=compute-1', None, 'GET /servers/detail'),
                ('GET', 'http://h/compute/v2.1/servers/%s' % UUID, None,
                 'GET /servers/{id}'),
                ('PUT', 'http://h/compute/v2.1/os-services/%s' % UUID,
                 b'{"status": "disabled"}', 'PUT /os-services/{id}'),
                ('PUT', 'http://h/compute/v2.1/os-services/17', None,
                 'PUT /os-services/{id}'),
                ('POST', 'http://h/compute/v2.1/servers/%s/action' % UUID,
                 b'{"evacuate": {}}', 'POST /servers/{id}/action evacuate'),
                ('POST', 'http://h/v2.1/os-aggregates/3/action',
                 '{"add_host": {"host": "compute-2"}}',
                 'POST /os-aggregates/{id}/action add_host'),
                ('POST', 'http://h/v2.1/servers/%s/action' % UUID,
                 b'not json', 'POST /servers/{id}/action'),
                ('POST', '/v3/auth/tokens', None, 'POST /auth/tokens'),
                ('GET', '', None, 'GET /')]:
            self.assertEqual(name, nova_metrics.operation(method, url, body))
