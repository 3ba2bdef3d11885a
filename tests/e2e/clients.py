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

"""HTTP clients of the end-to-end tests: the Masakari API (noauth2) and the
simulator's control API (state, call log, faults; SimulatorClient, shared
with the fixtures). Nothing else reaches the services under test.
"""


import requests

from tests.fixtures import polling
from tests.fixtures.simulator_client import SimulatorClient  # noqa: F401

TERMINAL_STATUSES = ('finished', 'failed', 'error', 'ignored')


class MasakariClient:
    """The v1 API of one masakari-api endpoint, as an admin (noauth2)."""

    def __init__(self, url, timeout=60):
        self.url = url.rstrip('/')
        self.timeout = timeout
        self.session = requests.Session()
        self.session.headers['X-Auth-Token'] = 'admin:admin'

    def request(self, method, path, body=None, version=None, expected=None):
        """One call; ``expected`` (a status) is asserted when given."""
        headers = ({'OpenStack-API-Version': 'instance-ha %s' % version}
                   if version else {})
        response = self.session.request(method, self.url + '/v1' + path,
                                        json=body, headers=headers,
                                        timeout=self.timeout)
        if expected is not None and response.status_code != expected:
            raise AssertionError('%s %s: %d (expected %d) %s' % (
                method, path, response.status_code, expected,
                response.text[:2000]))
        return response

    def call(self, method, path, body=None, version=None, expected=200):
        """The JSON answer of a call that must answer ``expected``."""
        response = self.request(method, path, body, version, expected)
        return response.json() if response.content else None

    def create_segment(self, name, recovery_method='auto', enabled=None):
        segment = {'name': name, 'service_type': 'COMPUTE',
                   'recovery_method': recovery_method}
        version = None
        if enabled is not None:
            segment['enabled'] = enabled
            version = '1.2'
        return self.call('POST', '/segments', {'segment': segment},
                         version=version, expected=201)['segment']

    def create_host(self, segment_uuid, name, reserved=False,
                    on_maintenance=False):
        return self.call('POST', '/segments/%s/hosts' % segment_uuid, {
            'host': {'name': name, 'type': 'COMPUTE',
                     'control_attributes': 'SSH', 'reserved': reserved,
                     'on_maintenance': on_maintenance}},
            expected=201)['host']

    def post_notification(self, type, hostname, payload, generated_time):
        """POST /notifications; returns the response (202 or an error)."""
        return self.request('POST', '/notifications', {'notification': {
            'type': type, 'hostname': hostname,
            'generated_time': generated_time, 'payload': payload}})

    def notification(self, uuid, version='1.1'):
        return self.call('GET', '/notifications/%s' % uuid,
                         version=version)['notification']

    def vmoves(self, notification_uuid):
        return self.call('GET', '/notifications/%s/vmoves'
                         % notification_uuid, version='1.3')['vmoves']

    def wait_for_notification(self, uuid, statuses=TERMINAL_STATUSES,
                              timeout=60):
        """Poll the notification (1.0) until its status is in
        ``statuses``; returns it.
        """
        seen = []

        def ended():
            seen.append(self.notification(uuid, version='1.0'))
            return seen[-1] if seen[-1]['status'] in statuses else None

        return polling.wait_until(
            ended, timeout, interval=0.2,
            message=lambda: 'notification %s still %s' % (
                uuid, seen[-1]['status']))
