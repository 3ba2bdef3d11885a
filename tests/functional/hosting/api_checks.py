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

"""The requests every hosting test sends through its server.

A segment created, read, listed and deleted through the server under test,
with the answers 22.0.0 gives, and the row found in the SQLite database
of $OS_MASAKARI_CONFIG_DIR (so that directory's configuration was used).
"""

import requests

JSON = {'Content-Type': 'application/json', 'Accept': 'application/json'}


class SegmentRoundTrip(object):
    """Mixin for a testtools.TestCase with ``base_url`` and ``config``."""

    def test_version_document_links_back_through_the_server(self):
        response = requests.get(self.base_url + '/', timeout=30)
        self.assertEqual(200, response.status_code, response.text)
        self.assertEqual(
            self.base_url + '/v1/',
            response.json()['versions'][0]['links'][0]['href'])

    def test_segment_round_trip(self):
        segments = self.base_url + '/v1/segments'
        body = {'segment': {'name': 'hosted-seg', 'recovery_method': 'auto',
                            'service_type': 'COMPUTE'}}
        created = requests.post(segments, json=body, headers=JSON,
                                timeout=30)
        self.assertEqual(201, created.status_code, created.text)
        uuid = created.json()['segment']['uuid']
        self.assertEqual('instance-ha 1.0',
                         created.headers['OpenStack-API-Version'])
        self.assertIn(uuid, self.config.segment_uuids())

        shown = requests.get(segments + '/' + uuid, headers=JSON, timeout=30)
        self.assertEqual(200, shown.status_code, shown.text)
        self.assertEqual('hosted-seg', shown.json()['segment']['name'])

        listed = requests.get(segments, headers=JSON, timeout=30)
        self.assertEqual(200, listed.status_code, listed.text)
        self.assertEqual([uuid],
                         [s['uuid'] for s in listed.json()['segments']])

        deleted = requests.delete(segments + '/' + uuid, headers=JSON,
                                  timeout=30)
        self.assertEqual(204, deleted.status_code, deleted.text)
        gone = requests.get(segments + '/' + uuid, headers=JSON, timeout=30)
        self.assertEqual(404, gone.status_code)
        self.assertEqual(404, gone.json()['itemNotFound']['code'])

    def test_invalid_body_is_a_400_fault(self):
        response = requests.post(self.base_url + '/v1/segments',
                                 data='{"segment": ', headers=JSON,
                                 timeout=30)
        self.assertEqual(400, response.status_code, response.text)
        self.assertEqual(400, response.json()['badRequest']['code'])
