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
from masakari.metrics import families
from tests.fixtures import conf as conf_fixture

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
