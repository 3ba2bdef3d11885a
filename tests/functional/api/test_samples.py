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

"""doc/api_samples match what the API answers: keys, key order, types.

Each ``*-req.json`` is sent through the real pipeline and the answer is
compared with the matching ``*-resp.json`` (values differ: ids, times).
A ``null`` on either side matches any type (nullable fields); payloads are
only checked to be objects.
"""

import json
import os

import testtools
import webob

from tests.fixtures import api as api_fixture

SAMPLES = os.path.join(api_fixture.REPO_ROOT, 'doc', 'api_samples')
LATEST = {'OpenStack-API-Version': 'instance-ha 1.3'}


def _load(name):
    with open(os.path.join(SAMPLES, name)) as sample:
        return json.load(sample)


class TestAPISamples(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(api_fixture.APIFixture())

    def call(self, method, path, body=None, headers=None):
        req = webob.Request.blank(path, method=method, headers=headers or {})
        if body is not None:
            req.json = body
        response = req.get_response(self.api.app)
        self.assertLess(response.status_int, 300, response.text)
        return response.json

    def assertShape(self, sample, answer, where='$'):
        if sample is None or answer is None:
            return
        self.assertEqual(type(sample), type(answer), where)
        # NOTE: a payload holds the sender's keys, whatever they are.
        if isinstance(sample, dict) and not where.endswith('.payload'):
            self.assertEqual(list(sample), list(answer), where)
            for key in sample:
                self.assertShape(sample[key], answer[key], where + '.' + key)
        elif isinstance(sample, list) and sample and answer:
            self.assertShape(sample[0], answer[0], where + '[0]')

    def check(self, name, answer):
        self.assertShape(_load(name), answer, name)

    def test_samples(self):
        segment = self.call('POST', '/v1/segments',
                            _load('segments/segment-create-req.json'), LATEST)
        self.check('segments/segment-create-resp.json', segment)
        segment_path = '/v1/segments/%s' % segment['segment']['uuid']
        self.check('segments/segment-get-resp.json',
                   self.call('GET', segment_path))
        self.check('segments/segments-list-resp.json',
                   self.call('GET', '/v1/segments'))
        self.check('segments/segment-update-resp.json', self.call(
            'PUT', segment_path, _load('segments/segment-update-req.json'),
            LATEST))

        host = self.call('POST', segment_path + '/hosts',
                         _load('hosts/host-create-req.json'))
        self.check('hosts/host-create-resp.json', host)
        host_path = '%s/hosts/%s' % (segment_path, host['host']['uuid'])
        self.check('hosts/host-get-resp.json', self.call('GET', host_path))
        self.check('hosts/hosts-list-resp.json',
                   self.call('GET', segment_path + '/hosts'))
        self.check('hosts/host-update-resp.json', self.call(
            'PUT', host_path, _load('hosts/host-update-req.json')))

        for kind in ('vm', 'process', 'host'):
            created = self.call('POST', '/v1/notifications', _load(
                'notifications/%s-notification-create-req.json' % kind))
            self.check('notifications/%s-notification-create-resp.json'
                       % kind, created)
        uuid = created['notification']['notification_uuid']
        self.check('notifications/notification-get-resp.json', self.call(
            'GET', '/v1/notifications/' + uuid, headers=LATEST))
        self.check('notifications/notifications-list-resp.json',
                   self.call('GET', '/v1/notifications'))

        vmoves_path = '/v1/notifications/%s/vmoves' % uuid
        vmoves = self.call('GET', vmoves_path)
        self.check('vmoves/vmoves-list-resp.json', vmoves)
        self.check('vmoves/vmove-get-resp.json', self.call(
            'GET', '%s/%s' % (vmoves_path, vmoves['vmoves'][0]['uuid'])))

        self.check('extensions/extensions-list-resp.json',
                   self.call('GET', '/v1/extensions'))
        self.check('extensions/extension-get-resp.json',
                   self.call('GET', '/v1/extensions/segments'))
        self.check('versions/versions-get-resp.json', self.call('GET', '/'))
        self.check('versions/version-v1-get-resp.json',
                   self.call('GET', '/v1/'))
