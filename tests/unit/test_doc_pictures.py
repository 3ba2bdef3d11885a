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

"""The documentation's pictures of a recorded run (doc/source/_exts): the
recording matches the sources, a stale one fails the build, the sequence
diagram attributes and orders the calls, the dashboard picture draws
every panel.
"""

import copy
import json
import os
import sys
from xml.etree import ElementTree

import fixtures
from sphinx import errors
import testtools

SOURCE = os.path.join(os.path.dirname(__file__), '..', '..', 'doc',
                      'source')
sys.path.insert(0, os.path.join(SOURCE, '_exts'))

import dashboard_picture  # noqa: E402
import pictures  # noqa: E402
import recovery_sequence  # noqa: E402

NS = '{http://www.w3.org/2000/svg}'


def load(*path):
    with open(os.path.join(SOURCE, *path)) as stream:
        return json.load(stream)


class TestRecordings(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.recovery = load(pictures.DATA, 'host-recovery.json')
        self.dashboard = load(pictures.DASHBOARD)
        self.recording = load(pictures.DATA, 'dashboard.json')

    def test_recordings_match_the_sources(self):
        pictures.check_recovery(self.recovery)
        pictures.check_dashboard(self.dashboard, self.recording)

    def test_a_changed_query_fails_the_build(self):
        changed = copy.deepcopy(self.dashboard)
        changed['panels'][0]['targets'][0]['expr'] += ' > 0'
        error = self.assertRaises(errors.ExtensionError,
                                  pictures.check_dashboard, changed,
                                  self.recording)
        self.assertIn('run tools/doc-pictures', str(error))

    def test_a_changed_default_flow_fails_the_build(self):
        self.useFixture(fixtures.MockPatchObject(
            pictures, 'default_host_tasks',
            return_value=['fence_host_task', 'disable_compute_service_task',
                          'prepare_HA_enabled_instances_task',
                          'evacuate_instances_task']))
        self.assertRaises(errors.ExtensionError, pictures.check_recovery,
                          self.recovery)

    def test_dashboard_picture_draws_every_panel(self):
        root = ElementTree.fromstring(dashboard_picture.render(
            self.dashboard, self.recording, 'title'))
        texts = [text.text for text in root.iter(NS + 'text')]
        for panel in self.dashboard['panels']:
            self.assertTrue(any(text.rstrip('\u2026') and
                                panel['title'].startswith(
                                    text.rstrip('\u2026'))
                                for text in texts), panel['title'])
        self.assertIn('Alerts firing at the end: %s'
                      % ', '.join(self.recording['alerts_firing']), texts)


class TestSequence(testtools.TestCase):

    RECORDING = {
        'posted': 100.0, 'answered': 100.5, 'status': 'finished',
        'calls': [
            {'time': 100.2, 'service': 'nova', 'method': 'GET',
             'path': '/v2.1/os-services', 'body': None, 'status': 200},
            {'time': 101.1, 'service': 'keystone', 'method': 'POST',
             'path': '/v3/auth/tokens', 'body': {'auth': {}}, 'status': 201},
            {'time': 101.2, 'service': 'nova', 'method': 'PUT',
             'path': '/v2.1/os-services/7', 'body': {'status': 'disabled'},
             'status': 200},
            {'time': 102.1, 'service': 'nova', 'method': 'POST',
             'path': '/v2.1/servers/5b1c0a32-4c9c-4b8e-9e3f-0d3d5c0f3a11/'
                     'action', 'body': {'evacuate': {}}, 'status': 200},
            {'time': 102.2, 'service': 'nova', 'method': 'POST',
             'path': '/v2.1/servers/8c1c0a32-4c9c-4b8e-9e3f-0d3d5c0f3a11/'
                     'action', 'body': {'evacuate': {}}, 'status': 200}],
        'runs': [{'steps': [
            {'task': 'DisableComputeServiceTask', 'state': 'SUCCESS',
             'start': '1970-01-01T00:01:41', 'end': '1970-01-01T00:01:42'},
            {'task': 'EvacuateInstancesTask', 'state': 'SUCCESS',
             'start': '1970-01-01T00:01:42', 'end': '1970-01-01T00:01:43'}]}],
    }

    def test_events_in_order(self):
        self.assertEqual([
            ('monitor', 'api', 'POST /v1/notifications COMPUTE_HOST STOPPED',
             False),
            # Before the API answered: the API's own call.
            ('api', 'nova', 'GET /os-services -> 200', False),
            ('api', 'db', 'store notification (new)', False),
            ('api', 'engine', 'RPC cast process_notification', False),
            ('api', 'monitor', '202 Accepted', True),
            ('engine', 'db', 'notification running', False),
            ('engine', 'engine', 'DisableComputeServiceTask|disable, 1.0 s',
             False),
            ('engine', 'keystone', 'POST /auth/tokens -> 201', False),
            ('engine', 'nova', 'PUT /os-services/{id} -> 200', False),
            ('engine', 'engine', 'EvacuateInstancesTask|evacuate, 1.0 s',
             False),
            ('engine', 'nova',
             'POST /servers/{id}/action evacuate -> 200 x 2', False),
            ('engine', 'db', 'notification finished', False),
        ], recovery_sequence.events(self.RECORDING))

    def test_diagram_columns(self):
        root = ElementTree.fromstring(recovery_sequence.render(
            self.RECORDING))
        heads = [text.text for text in root.iter(NS + 'text')][:6]
        self.assertEqual(['host monitor', 'masakari-api', 'database',
                          'masakari-engine', 'Keystone', 'Nova'], heads)
