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

"""Texts the database cannot hold answer 400, on MariaDB as on SQLite.

``description`` (segments) and ``control_attributes`` (hosts) have no
maximum length in the schema, as in the reference. MariaDB in
strict mode refuses more than the 65,535 bytes of a TEXT column (a 500 in
the reference): here a 400 naming the field and the limit, without the
database's text; SQLite stores them, as the reference does. Names are
limited to 255 characters by the schema, which a VARCHAR(255) always
holds.
"""

import json

import testtools
import webob

from tests.fixtures import api as api_fixture

TEXT_COLUMN_BYTES = 65535
TOO_LONG = 'x' * 70000
# 90,000 bytes in UTF-8, 30,000 characters: under the request size limit
# (114,688 bytes) when sent unescaped.
TOO_LONG_IN_BYTES = '\u20ac' * 30000
# 80,000 bytes of 2-byte characters: the 65,535-byte limit cuts one in
# two, which MariaDB reports as an incorrect string, not as too long.
TOO_LONG_CUT_IN_A_CHARACTER = '\xa0' * 40000


def _too_long(field, size):
    return {'badRequest': {'code': 400, 'message': (
        'Invalid input for field/attribute %s. The value is %d bytes long '
        'in UTF-8; at most 65535 are allowed.' % (field, size))}}


class APITestCase(testtools.TestCase):

    backend = 'mysql'

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(api_fixture.APIFixture(
            backend=self.backend))
        self.segment, self.host = self.api.create_segment_and_host()
        self.segment_path = '/v1/segments/%s' % self.segment['uuid']
        self.host_path = '%s/hosts/%s' % (self.segment_path,
                                          self.host['uuid'])
        self.api.rpc.clear()

    def request(self, method, path, body):
        """Send ``body`` as UTF-8 JSON, non-ASCII characters unescaped."""
        req = webob.Request.blank(path, method=method, headers={
            'Content-Type': 'application/json'})
        req.body = json.dumps(body, ensure_ascii=False).encode('utf-8')
        return req.get_response(self.api.app)


class TestMariaDBTextColumns(APITestCase):

    def test_create_segment_with_an_over_long_description(self):
        response = self.request('POST', '/v1/segments', {'segment': {
            'name': 'long', 'recovery_method': 'auto',
            'service_type': 'COMPUTE', 'description': TOO_LONG}})
        self.assertEqual(400, response.status_int)
        self.assertEqual(_too_long('description', 70000), response.json)
        self.assertEqual(['segment.create.start', 'segment.create.error'],
                         self.api.rpc.event_types)
        self.assertEqual([self.segment['uuid']], [
            segment['uuid'] for segment in self.api.request(
                'GET', '/v1/segments').json['segments']])

    def test_the_limit_is_in_bytes(self):
        response = self.request('PUT', self.segment_path, {'segment': {
            'description': TOO_LONG_IN_BYTES}})
        self.assertEqual(400, response.status_int)
        self.assertEqual(_too_long('description', 90000), response.json)
        self.assertEqual(['segment.update.start', 'segment.update.error'],
                         self.api.rpc.event_types)

    def test_a_limit_inside_a_character(self):
        response = self.request('PUT', self.segment_path, {'segment': {
            'description': TOO_LONG_CUT_IN_A_CHARACTER}})
        self.assertEqual(400, response.status_int)
        # MariaDB calls it an "Incorrect string value": not said here.
        self.assertEqual(_too_long('description', 80000), response.json)
        self.assertEqual(['segment.update.start', 'segment.update.error'],
                         self.api.rpc.event_types)

    def test_a_full_column_is_accepted(self):
        description = 'x' * TEXT_COLUMN_BYTES
        response = self.request('PUT', self.segment_path, {'segment': {
            'description': description}})
        self.assertEqual(200, response.status_int)
        self.assertEqual(description, response.json['segment']['description'])

    def test_create_host_with_over_long_control_attributes(self):
        response = self.request('POST', self.segment_path + '/hosts', {
            'host': {'name': 'compute-2', 'type': 'COMPUTE',
                     'control_attributes': TOO_LONG}})
        self.assertEqual(400, response.status_int)
        self.assertEqual(_too_long('control_attributes', 70000),
                         response.json)

    def test_update_host_with_over_long_control_attributes(self):
        response = self.request('PUT', self.host_path, {
            'host': {'control_attributes': TOO_LONG_IN_BYTES}})
        self.assertEqual(400, response.status_int)
        self.assertEqual(_too_long('control_attributes', 90000),
                         response.json)
        self.assertEqual('SSH', self.api.request(
            'GET', self.host_path).json['host']['control_attributes'])

    def test_names_of_255_characters_fit(self):
        name = '\u20ac' * 255
        response = self.request('PUT', self.segment_path, {'segment': {
            'name': name, 'service_type': name}})
        self.assertEqual(200, response.status_int)
        self.assertEqual(name, response.json['segment']['service_type'])
        response = self.request('PUT', self.segment_path, {'segment': {
            'name': name + 'x'}})
        self.assertEqual(400, response.status_int)
        self.assertTrue(response.json['badRequest']['message'].endswith(
            ' is too long'))


class TestSQLiteTextColumns(APITestCase):
    """SQLite has no column limit: long texts are stored (reference)."""

    backend = 'sqlite'

    def test_over_long_texts_are_stored(self):
        response = self.request('PUT', self.segment_path, {'segment': {
            'description': TOO_LONG}})
        self.assertEqual(200, response.status_int)
        self.assertEqual(TOO_LONG, response.json['segment']['description'])
        response = self.request('PUT', self.host_path, {
            'host': {'control_attributes': TOO_LONG_IN_BYTES}})
        self.assertEqual(200, response.status_int)
