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

"""The request middleware of masakari-api: what it counts, and that it is
only there when metrics are enabled.
"""

import fixtures
import prometheus_client
import testtools
import webob

from masakari.api import metrics as api_metrics
from masakari import metrics
from masakari.metrics import api as api_metrics_module
from masakari.metrics import families
from tests.fixtures import conf as conf_fixture
from tests.fixtures import metrics as metrics_fixture

ROUTE = '/v1/segments/{segment_id}'


def count(method, status):
    families.api()
    return prometheus_client.REGISTRY.get_sample_value(
        'masakari_api_requests_total',
        {'route': ROUTE, 'method': method, 'status': status}) or 0


@webob.dec.wsgify
def answer(req):
    if req.method == 'DELETE':
        raise RuntimeError('boom')
    return webob.Response(status=404 if req.method == 'PUT' else 200)


class MiddlewareTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture())

    def test_not_wrapped_when_disabled(self):
        self.assertIs(answer, api_metrics.wrap(answer))

    def test_counts_by_route_method_and_status(self):
        self.useFixture(fixtures.MockPatchObject(metrics, '_enabled', True))
        app = api_metrics.wrap(answer)
        before = [count('GET', '200'), count('PUT', '404'),
                  count('DELETE', '500')]
        for method in ('GET', 'GET', 'PUT'):
            request = webob.Request.blank('/v1/segments/abc', method=method)
            request.get_response(app)
        self.assertRaises(RuntimeError, webob.Request.blank(
            '/v1/segments/abc', method='DELETE').get_response, app)
        after = [count('GET', '200'), count('PUT', '404'),
                 count('DELETE', '500')]
        self.assertEqual([2, 1, 1], [a - b for a, b in zip(after, before)])

    def test_methods_outside_http_count_as_other(self):
        # The middleware is outermost: a request the authentication
        # refuses (401 here) is counted too, with a bounded method.
        @webob.dec.wsgify
        def refuse(req):
            return webob.Response(status=401)

        self.useFixture(fixtures.MockPatchObject(metrics, '_enabled', True))
        app = api_metrics.wrap(refuse)
        families.api()
        before = prometheus_client.REGISTRY.get_sample_value(
            'masakari_api_requests_total', {
                'route': 'unmatched', 'method': 'other',
                'status': '401'}) or 0
        for method in ('XYZ123', 'get', 'PROPFIND'):
            webob.Request.blank('/v1/segments', method=method).get_response(
                app)
        self.assertEqual(3, prometheus_client.REGISTRY.get_sample_value(
            'masakari_api_requests_total', {
                'route': 'unmatched', 'method': 'other',
                'status': '401'}) - before)
        methods = {sample.labels['method']
                   for metric in prometheus_client.REGISTRY.collect()
                   if metric.name == 'masakari_api_requests'
                   for sample in metric.samples}
        self.assertEqual(set(), methods - api_metrics_module.HTTP_METHODS -
                         {'other'})

    def test_accepted_notifications_start_at_zero(self):
        registry = self.useFixture(metrics_fixture.FreshFamilies(
            'api')).registry
        api_metrics.wrap(answer)
        for notification_type in ('COMPUTE_HOST', 'VM', 'PROCESS'):
            self.assertEqual(0, registry.get_sample_value(
                'masakari_api_notifications_accepted_total',
                {'type': notification_type}))
