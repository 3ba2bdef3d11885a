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
simulator's control API (state, call log, faults). Nothing else reaches
the services under test.
"""

import time

import requests

TERMINAL_STATUSES = ('finished', 'failed', 'error', 'ignored')
NOVA_PREFIX = '/v2.1'


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
        deadline = time.monotonic() + timeout
        while True:
            notification = self.notification(uuid, version='1.0')
            if notification['status'] in statuses:
                return notification
            if time.monotonic() > deadline:
                raise AssertionError('notification %s still %s after %ss'
                                     % (uuid, notification['status'],
                                        timeout))
            time.sleep(0.2)


class SimulatorClient:
    """The simulator's /_simulator control API."""

    def __init__(self, control_url, timeout=30):
        self.url = control_url.rstrip('/')
        self.timeout = timeout
        self.session = requests.Session()

    def call(self, method, path, body=None):
        response = self.session.request(method, self.url + path, json=body,
                                        timeout=self.timeout)
        if response.status_code >= 300:
            raise AssertionError('simulator %s %s: %d %s' % (
                method, path, response.status_code, response.text))
        return response.json() if response.content else None

    def state(self):
        return self.call('GET', '/state')

    def server(self, name):
        """A server's fields by name."""
        for server in self.state()['servers']:
            if server['name'] == name:
                return server
        raise KeyError(name)

    def service(self, host):
        for service in self.state()['services']:
            if service['host'] == host and service['binary'] == (
                    'nova-compute'):
                return service
        raise KeyError(host)

    def set_host_state(self, host, state):
        return self.call('PUT', '/hosts/%s' % host, {'state': state})

    def add_fault(self, **rule):
        return self.call('POST', '/faults', rule)

    def reset_calls(self):
        self.call('DELETE', '/calls')

    def nova_calls(self):
        """Nova calls, oldest first: dicts of ``line`` (``'METHOD
        /path?query'``, the path relative to /v2.1), ``body`` (decoded
        JSON), ``status`` (the simulator's answer) and ``request_id`` (the
        X-OpenStack-Request-ID header sent).
        """
        calls = []
        for call in self.call('GET', '/calls?service=nova')['calls']:
            path = call['path']
            if path.startswith(NOVA_PREFIX + '/'):
                path = path[len(NOVA_PREFIX):]
            line = '%s %s%s' % (call['method'], path,
                                '?' + call['query'] if call['query'] else '')
            calls.append({'line': line, 'body': call['body'],
                          'status': call['status'],
                          'request_id': call['headers'].get(
                              'X-OpenStack-Request-ID')})
        return calls
