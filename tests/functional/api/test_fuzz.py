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

"""Property: no request makes the API answer 5xx.

Hypothesis throws malformed bodies, query strings, headers and paths at
every endpoint of the real paste pipeline (fake transport, the Nova
simulator), on SQLite and on MariaDB, whose strict mode refuses what SQLite
accepts (over-long texts, characters it cannot compare). Any 5xx is a
defect: bad input must get a 4xx.
"""

import json
import os
from urllib import parse

from hypothesis import given
from hypothesis import HealthCheck
from hypothesis import settings
from hypothesis import strategies as st
import testtools
import webob

from tests.fixtures import api as api_fixture

SEGMENT = '{segment}'
HOST = '{host}'
NOTIFICATION = '{notification}'
ENDPOINTS = [
    ('GET', '/v1'), ('GET', '/v1/versions/{any}'),
    ('GET', '/v1/extensions'), ('GET', '/v1/extensions/{any}'),
    ('GET', '/v1/segments'), ('POST', '/v1/segments'),
    ('GET', '/v1/segments/{segment}'), ('PUT', '/v1/segments/{segment}'),
    ('DELETE', '/v1/segments/{any}'),
    ('GET', '/v1/segments/{segment}/hosts'),
    ('POST', '/v1/segments/{segment}/hosts'),
    ('GET', '/v1/segments/{segment}/hosts/{host}'),
    ('PUT', '/v1/segments/{segment}/hosts/{host}'),
    ('DELETE', '/v1/segments/{segment}/hosts/{any}'),
    ('GET', '/v1/notifications'), ('POST', '/v1/notifications'),
    ('GET', '/v1/notifications/{notification}'),
    ('GET', '/v1/notifications/{notification}/vmoves'),
    ('GET', '/v1/notifications/{notification}/vmoves/{any}'),
    ('GET', '/'), ('POST', '/v2'),
]
LIST_PARAMETERS = ['limit', 'marker', 'page_size', 'sort_key', 'sort_dir',
                   'enabled', 'recovery_method', 'service_type', 'type',
                   'reserved', 'on_maintenance', 'name', 'status',
                   'source_host_uuid', 'generated-since']
FIELDS = ['name', 'description', 'recovery_method', 'service_type',
          'enabled', 'type', 'control_attributes', 'reserved',
          'on_maintenance', 'hostname', 'generated_time', 'payload',
          'event', 'host_status', 'instance_uuid', 'process_name']
EXAMPLES = int(os.environ.get('MASAKARI_FUZZ_EXAMPLES', 400))
# NOTE: the MariaDB class runs the same test functions: the executors
# differ on purpose. The examples are the same at every run (derandomize)
# so that a test run gives the same verdict twice; set
# MASAKARI_FUZZ_RANDOM=1 (and MASAKARI_FUZZ_EXAMPLES) to explore new ones.
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    derandomize=not os.environ.get('MASAKARI_FUZZ_RANDOM'),
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.differing_executors])
# More than a MariaDB TEXT column holds (65,535 bytes).
LONG_TEXT = 'x' * 70000

latin1_text = st.text(alphabet=st.characters(min_codepoint=32,
                                             max_codepoint=255),
                      max_size=40)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() |
    st.text(max_size=30) | st.sampled_from(
        ['COMPUTE_HOST', 'VM', 'PROCESS', 'auto', 'STOPPED', 'compute-1',
         '2026-12-02T10:00:00Z', '0001-01-01T00:00:00+01:00', 'True',
         '\U0001F600', LONG_TEXT]),
    lambda children: (st.lists(children, max_size=3) |
                      st.dictionaries(st.sampled_from(FIELDS) | st.text(
                          max_size=8), children, max_size=5)),
    max_leaves=12)
resource_bodies = st.builds(
    lambda key, value: {key: value},
    st.sampled_from(['segment', 'host', 'notification']),
    st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6))
bodies = st.one_of(
    st.none(), st.binary(max_size=64),
    st.one_of(json_values, resource_bodies).map(
        lambda value: json.dumps(value).encode()))
# Bodies the schemas accept, per write endpoint: one field is given any
# value, so that the request reaches the domain rules and the database.
VALID_BODIES = {
    'segment': {'name': 'seg', 'recovery_method': 'auto',
                'service_type': 'COMPUTE', 'description': 'd'},
    'host': {'name': 'compute-2', 'type': 'COMPUTE',
             'control_attributes': 'SSH', 'reserved': False,
             'on_maintenance': False},
    'notification': {'type': 'PROCESS', 'hostname': 'compute-1',
                     'generated_time': '2026-12-02T10:00:00Z',
                     'payload': {'event': 'STOPPED',
                                 'process_name': 'nova-compute'}},
}
WRITES = [('POST', '/v1/segments', 'segment'),
          ('PUT', '/v1/segments/{segment}', 'segment'),
          ('POST', '/v1/segments/{segment}/hosts', 'host'),
          ('PUT', '/v1/segments/{segment}/hosts/{host}', 'host'),
          ('POST', '/v1/notifications', 'notification')]
# Up to 70,000 times one character: below and above the 65,535 bytes of a
# MariaDB TEXT column, and above the request size limit.
long_texts = st.builds(
    lambda char, count: char * count,
    st.characters(codec='utf-8'), st.integers(20000, 70000))
write_requests = st.sampled_from(WRITES).flatmap(
    lambda write: st.builds(
        lambda field, value: (write[0], write[1], {write[2]: dict(
            VALID_BODIES[write[2]], **{field: value})}),
        st.sampled_from(sorted(VALID_BODIES[write[2]])),
        json_values | long_texts))
query_strings = st.lists(
    st.tuples(st.sampled_from(LIST_PARAMETERS) | st.text(max_size=6),
              st.one_of(st.text(max_size=20), st.binary(max_size=8))),
    max_size=5)
headers = st.fixed_dictionaries({}, optional={
    'OpenStack-API-Version': st.one_of(
        latin1_text, st.sampled_from(['instance-ha 1.0', 'instance-ha 1.1',
                                      'instance-ha latest',
                                      'instance-ha 1.3'])),
    'Content-Type': st.one_of(latin1_text, st.sampled_from(
        ['application/json', 'text/plain', 'application/xml',
         'application/json;version=1'])),
    'Accept': st.one_of(latin1_text, st.sampled_from(
        ['application/json', '*/*', 'application/atom+xml'])),
    'X-Service-Catalog': latin1_text,
    'X-Roles': latin1_text, 'X-Project-Id': latin1_text,
    'X-Openstack-Request-Id': latin1_text,
})


def _encode_query(pairs):
    parts = []
    for key, value in pairs:
        if isinstance(value, bytes):
            value = parse.quote_from_bytes(value)
        else:
            value = parse.quote(value)
        parts.append('%s=%s' % (parse.quote(key), value))
    return '&'.join(parts)


def _wsgi_path(path):
    # NOTE: PATH_INFO holds the UTF-8 bytes as latin-1 text (PEP 3333).
    return path.encode('utf-8', 'surrogatepass').decode('latin-1')


class TestNoServerError(testtools.TestCase):
    """Every answer to generated input is below 500."""

    backend = 'sqlite'

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(api_fixture.APIFixture(
            backend=self.backend))
        segment, host = self.api.create_segment_and_host()
        # NOTE: the notification is on another segment, so that writes to
        # this one are not refused as in use and reach the database.
        self.api.create_segment_and_host('compute-3')
        failure = dict(api_fixture.HOST_FAILURE['notification'],
                       hostname='compute-3')
        response = self.api.request('POST', '/v1/notifications',
                                    {'notification': failure})
        self.assertEqual(202, response.status_int, response.text)
        self.ids = {'segment': segment['uuid'], 'host': host['uuid'],
                    'notification': response.json['notification'][
                        'notification_uuid']}

    def _send(self, method, path, body=None, query='', extra_headers=None):
        environ = webob.Request.blank('/').environ
        environ['REQUEST_METHOD'] = method
        environ['PATH_INFO'] = path
        environ['QUERY_STRING'] = query
        req = webob.Request(environ)
        for name, value in (extra_headers or {}).items():
            req.headers[name] = value
        if body is not None:
            req.body = body
        response = req.get_response(self.api.app)
        self.assertLess(response.status_int, 500, '%s %s?%s %r %.500r -> %s'
                        % (method, path, query, extra_headers, body,
                           response.text))

    def _path(self, template, any_id):
        return _wsgi_path(template.format(any=any_id, **self.ids))

    @SETTINGS
    @given(endpoint=st.sampled_from(ENDPOINTS), body=bodies,
           header_values=headers,
           any_id=st.text(min_size=1, max_size=20).filter(
               lambda text: '/' not in text))
    def test_bodies_and_headers(self, endpoint, body, header_values,
                                any_id):
        method, template = endpoint
        self._send(method, self._path(template, any_id), body=body,
                   extra_headers=header_values)

    @SETTINGS
    @given(request=write_requests)
    def test_write_bodies(self, request):
        method, template, body = request
        self._send(method, self._path(template, 'x'),
                   body=json.dumps(body, ensure_ascii=False).encode(),
                   extra_headers={'Content-Type': 'application/json'})

    @SETTINGS
    @given(endpoint=st.sampled_from([e for e in ENDPOINTS
                                     if e[0] == 'GET']),
           query=query_strings, any_id=st.text(max_size=10))
    def test_query_strings(self, endpoint, query, any_id):
        method, template = endpoint
        self._send(method, self._path(template, any_id or 'x'),
                   query=_encode_query(query))

    @SETTINGS
    @given(method=st.sampled_from(['GET', 'POST', 'PUT', 'DELETE', 'PATCH',
                                   'HEAD', 'OPTIONS']),
           segments=st.lists(st.one_of(
               st.sampled_from(['v1', 'segments', 'hosts', 'notifications',
                                'vmoves', 'extensions', 'versions', 'new',
                                'edit', 'action', '{segment}', '{host}',
                                '{notification}', 'x.json', '']),
               st.text(max_size=8)), max_size=6),
           raw=st.binary(max_size=6))
    def test_paths(self, method, segments, raw):
        parts = [self.ids.get(part.strip('{}'), part) for part in segments]
        path = _wsgi_path('/' + '/'.join(parts)) + raw.decode('latin-1')
        self._send(method, path, body=b'{}' if method in ('POST', 'PUT')
                   else None)


class TestNoServerErrorOnMariaDB(TestNoServerError):
    """The same properties against a MariaDB database."""

    backend = 'mysql'
