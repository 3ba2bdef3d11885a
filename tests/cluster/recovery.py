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

"""Host recoveries and API load on a running cluster, observed over HTTP
only (the API through HAProxy, the simulator's control API): shared by the
chaos suite, tools/run-cluster --demo and tools/bench-cluster.
"""

import collections
import concurrent.futures
import datetime
import re
import time
import uuid

import requests

from tests.fixtures import polling
from tests.fixtures import processes
from tests.fixtures.simulator_client import SimulatorClient

HOST_DOWN = {'event': 'STOPPED', 'host_status': 'NORMAL',
             'cluster_status': 'OFFLINE'}
HA = {'HA_Enabled': 'True'}
SERVERS = 20
EVACUATE_DELAY = 1
FINAL = ('finished', 'failed', 'error', 'ignored')
EVACUATION = re.compile(r'POST /servers/([^/]+)/action$')
# The host of the API load's notifications, in a disabled segment: the
# engines record them as ignored without calling Nova.
LOAD_HOST = 'load-host'


def generated_time():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y-%m-%dT%H:%M:%S.%f')


def create_segment(api, prefix, hosts):
    """An auto segment named after ``prefix`` with the compute ``hosts``;
    returns its uuid.
    """
    segment = api.call('POST', '/segments', {'segment': {
        'name': '%s-%s' % (prefix, uuid.uuid4().hex[:6]),
        'recovery_method': 'auto', 'service_type': 'COMPUTE'}})
    segment_uuid = segment['segment']['uuid']
    for host in hosts:
        api.call('POST', '/segments/%s/hosts' % segment_uuid,
                 {'host': {'name': host, 'type': 'COMPUTE',
                           'control_attributes': 'x'}})
    return segment_uuid


def topology(prefixes):
    """A source host with SERVERS HA servers and two spare hosts per
    prefix, and the API load's host.
    """
    hosts, servers = [LOAD_HOST], []
    for prefix in prefixes:
        hosts += ['%s-src' % prefix, '%s-dst1' % prefix, '%s-dst2' % prefix]
        servers += [{'name': '%s-vm%d' % (prefix, index),
                     'host': '%s-src' % prefix, 'metadata': HA,
                     'evacuate_delay': EVACUATE_DELAY}
                    for index in range(SERVERS)]
    return {'delays': {'evacuate': 0, 'stop': 0, 'start': 0},
            'hosts': hosts, 'servers': servers}


class Api:
    """The Masakari API through HAProxy, as an admin (noauth2)."""

    def __init__(self, url, timeout=20):
        self.url = url + '/v1'
        self.session = requests.Session()
        self.session.headers['X-Auth-Token'] = 'admin:admin'
        self.timeout = timeout

    def request(self, method, path, body=None, version='1.3'):
        return self.session.request(
            method, self.url + path, json=body, timeout=self.timeout,
            headers={'OpenStack-API-Version': 'instance-ha %s' % version})

    def call(self, method, path, body=None, version='1.3', attempts=20):
        """A call that must succeed; retried while the cluster is between
        states (a 503, a refused connection).
        """
        for attempt in range(attempts):
            try:
                response = self.request(method, path, body, version)
            except requests.RequestException:
                response = None
            if response is not None and response.status_code < 500:
                if response.status_code >= 300:
                    raise AssertionError('%s %s: %d %s' % (
                        method, path, response.status_code, response.text))
                return response.json() if response.content else None
            time.sleep(1)
        raise AssertionError('%s %s failed %d times: %s' % (
            method, path, attempts,
            response.text if response is not None else 'no connection'))

    def notification(self, uuid):
        # NOTE: 1.0, without the recovery's progress, which the API asks
        # an engine for over RPC: the poll sees the database only.
        return self.call('GET', '/notifications/%s' % uuid,
                         version='1.0')['notification']

    def post_notification(self, type, host, payload):
        return self.request('POST', '/notifications', {'notification': {
            'type': type, 'hostname': host, 'payload': payload,
            'generated_time': generated_time()}})

    def wait_final(self, uuid, timeout=120):
        seen = []

        def final():
            seen.append(self.notification(uuid)['status'])
            return seen[-1] in FINAL and seen[-1]
        return polling.wait_until(
            final, timeout, interval=0.25,
            message=lambda: 'notification %s still %s' % (uuid, seen[-1:]))


class HostRecovery:
    """A SERVERS-server host recovery of ``prefix``'s hosts."""

    def __init__(self, cluster, api, simulator, prefix):
        self.cluster = cluster
        self.api = api
        self.simulator = simulator
        self.prefix = prefix
        self.source = '%s-src' % prefix
        self.uuid = None

    def prepare(self):
        create_segment(self.api, self.prefix,
                       ['%s-%s' % (self.prefix, suffix)
                        for suffix in ('src', 'dst1', 'dst2')])
        self.simulator.set_host_state(self.source, 'down')
        self.servers = {server['name']: server['id']
                        for server in self.simulator.state()['servers']
                        if server['name'].startswith(self.prefix + '-vm')}

    def start(self):
        response = self.api.post_notification('COMPUTE_HOST', self.source,
                                              HOST_DOWN)
        if response.status_code != 202:
            raise AssertionError('host-down notification refused: %d %s' % (
                response.status_code, response.text))
        self.uuid = response.json()['notification']['notification_uuid']
        return self.uuid

    def evacuations(self):
        """Evacuations Nova accepted, per server name."""
        counts = collections.Counter()
        for call in self.simulator.nova_calls():
            found = EVACUATION.match(call['line'])
            if (found and 'evacuate' in (call['body'] or {}) and
                    call['status'] is not None and call['status'] < 400):
                counts[found.group(1)] += 1
        return {name: counts[server_id]
                for name, server_id in self.servers.items()}

    def wait_evacuating(self, count=3, timeout=60):
        """Until ``count`` servers were evacuated: the recovery is in its
        middle.
        """
        polling.wait_until(
            lambda: sum(self.evacuations().values()) >= count, timeout,
            interval=0.1, message='%s: no evacuation started' % self.prefix)

    def owner(self):
        """The controller whose engine last took the recovery up."""
        latest = None
        for controller in self.cluster.controllers:
            for line in processes.lines_taking_up(
                    controller.processes['engine'].log_text(), self.uuid):
                stamp = line[:23]
                if latest is None or stamp > latest[0]:
                    latest = (stamp, controller)
        return latest and latest[1]

    def wait_owner(self, timeout=30):
        return polling.wait_until(self.owner, timeout, interval=0.2,
                                  message='no engine took %s' % self.uuid)


class ApiLoad:
    """``count`` VM notifications POSTed concurrently through HAProxy
    (``workers`` at a time), each with its own instance, to a host of a
    disabled segment.
    """

    def __init__(self, api, count=200, workers=50):
        self.api = api
        self.count = count
        self.workers = workers
        self.answers = []

    @staticmethod
    def prepare(api):
        segment_uuid = create_segment(api, 'load', [LOAD_HOST])
        api.call('PUT', '/segments/%s' % segment_uuid,
                 {'segment': {'enabled': False}}, version='1.2')

    def _post(self, index):
        instance = str(uuid.uuid4())
        payload = {'event': 'LIFECYCLE', 'instance_uuid': instance,
                   'vir_domain_event': 'STOPPED_FAILED'}
        try:
            response = self.api.post_notification('VM', LOAD_HOST, payload)
        except requests.RequestException as error:
            return ('connection', type(error).__name__, None, instance)
        accepted = None
        if response.status_code == 202:
            accepted = response.json()['notification']['notification_uuid']
        return (response.status_code, response.headers.get('Retry-After'),
                accepted, instance)

    def start(self):
        self.pool = concurrent.futures.ThreadPoolExecutor(self.workers)
        self.futures = [self.pool.submit(self._post, index)
                        for index in range(self.count)]

    def finish(self):
        self.answers = [future.result() for future in self.futures]
        self.pool.shutdown()
        return self.answers

    @property
    def accepted(self):
        return [answer[2] for answer in self.answers if answer[2]]

    @property
    def errors(self):
        """(status, Retry-After) of the answers other than 202 and 409:
        a 409 is the duplicate of a POST HAProxy sent again after the API
        that stored it died before answering (see ``duplicates``).
        """
        return [answer[:2] for answer in self.answers
                if answer[0] not in (202, 409)]

    @property
    def duplicates(self):
        """The instance uuids of the POSTs answered 409."""
        return [answer[3] for answer in self.answers if answer[0] == 409]


def nova_calls_by_user(cluster):
    """The simulator's Nova calls (records of its call log), by the name
    of the Keystone user whose token made them.
    """
    simulator = SimulatorClient(cluster.control_url)
    identity = cluster.simulator_url + '/identity/v3/auth/tokens'
    user = cluster.controllers[0].nova_user
    answer = requests.post(identity, timeout=10, json={'auth': {
        'identity': {'methods': ['password'], 'password': {'user': {
            'name': user, 'password': user,
            'domain': {'name': 'Default'}}}},
        'scope': {'project': {'name': 'service',
                              'domain': {'name': 'Default'}}}}})
    answer.raise_for_status()
    admin_token = answer.headers['X-Subject-Token']
    owners = {}
    calls = collections.defaultdict(list)
    for call in simulator.call('GET', '/calls?service=nova')['calls']:
        token = call['headers'].get('X-Auth-Token')
        if token not in owners:
            validated = requests.get(identity, timeout=10, headers={
                'X-Auth-Token': admin_token, 'X-Subject-Token': token})
            owners[token] = (validated.json()['token']['user']['name']
                             if validated.ok else None)
        calls[owners[token]].append(call)
    return calls
