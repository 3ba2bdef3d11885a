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

"""The masakari-aio demo: a host recovery driven over HTTP, as a monitor and
an operator would do it.

It registers the simulated compute hosts in a failover segment, fails the
host with the most instances in the simulator, posts the COMPUTE_HOST
STOPPED notification a host monitor would send, then follows the recovery
through the API (microversion 1.1 progress details, 1.3 vmoves) and prints
each new progress message and vmove state until the notification ends.
"""

import datetime
import time

import requests

TERMINAL_STATUSES = ('finished', 'failed', 'error', 'ignored')
SUCCESS_STATUS = 'finished'
DETAILS_VERSION = 'instance-ha 1.1'
VMOVES_VERSION = 'instance-ha 1.3'
SEGMENT_NAME = 'demo-segment'


class DemoError(Exception):
    """The demo could not go on (an unexpected answer, a timeout)."""


class Client:
    """JSON over HTTP to the API (noauth2) and the simulator's control API.

    :param api_url: the API's root URL.
    :param control_url: the simulator's ``/_simulator`` URL.
    """

    def __init__(self, api_url, control_url, timeout=30):
        self.api_url = api_url.rstrip('/') + '/v1'
        self.control_url = control_url.rstrip('/')
        self.timeout = timeout
        self.session = requests.Session()
        # NOTE: noauth2 takes the user and project from the token.
        self.session.headers['X-Auth-Token'] = 'admin:admin'

    def _call(self, method, url, expected, version=None, body=None):
        headers = {'OpenStack-API-Version': version} if version else {}
        response = self.session.request(method, url, json=body,
                                        headers=headers,
                                        timeout=self.timeout)
        if response.status_code != expected:
            raise DemoError('%s %s answered %d (expected %d): %s' % (
                method, url, response.status_code, expected,
                response.text[:500]))
        return response.json() if response.content else None

    def api(self, method, path, expected=200, version=None, body=None):
        return self._call(method, self.api_url + path, expected, version,
                          body)

    def control(self, method, path, expected=200, body=None):
        return self._call(method, self.control_url + path, expected,
                          body=body)


def _compute_hosts(state):
    """(name, enabled) of the simulated nova-compute services."""
    return [(service['host'], service['status'] == 'enabled')
            for service in state['services']
            if service['binary'] == 'nova-compute']


def _failed_host(state, hosts):
    """The enabled host carrying the most servers."""
    load = {name: 0 for name, enabled in hosts if enabled}
    for server in state['servers']:
        if server['host'] in load:
            load[server['host']] += 1
    if not load or not max(load.values()):
        raise DemoError('the topology has no enabled compute host with '
                        'instances to recover')
    return max(sorted(load), key=load.get)


def _stopped_note(server, note):
    return note if server['vm_state'] == 'stopped' else ''


def set_up(client, recovery_method, say, crash=False):
    """Create the segment and its hosts; fail a host in the simulator.

    Hosts whose nova-compute service is disabled become reserved hosts.

    :param crash: crash the host (powered on, not running: Nova sees its
        service up until its service_down_time) instead of marking its
        service down.
    :returns: the failed host's name.
    """
    state = client.control('GET', '/state')
    hosts = _compute_hosts(state)
    segment = client.api('POST', '/segments', expected=201, body={
        'segment': {'name': SEGMENT_NAME, 'service_type': 'COMPUTE',
                    'recovery_method': recovery_method}})['segment']
    say('created segment %s (%s), recovery method %s' % (
        segment['name'], segment['uuid'], recovery_method))
    for name, enabled in hosts:
        client.api('POST', '/segments/%s/hosts' % segment['uuid'],
                   expected=201, body={'host': {
                       'name': name, 'type': 'COMPUTE',
                       'control_attributes': 'SSH',
                       'reserved': not enabled}})
        say('added host %s%s' % (name, '' if enabled else ' (reserved)'))
    failed = _failed_host(state, hosts)
    servers = [s['name'] + _stopped_note(s, ' (stopped)')
               for s in state['servers'] if s['host'] == failed]
    if crash:
        client.control('PUT', '/machines/%s' % failed, body={'alive': False})
        say('host %s crashed with %d instance(s): %s (powered on; Nova '
            'still reports its compute service up)' % (
                failed, len(servers), ', '.join(sorted(servers))))
        return failed
    client.control('PUT', '/hosts/%s' % failed, body={'state': 'down'})
    say('host %s is down with %d instance(s): %s' % (
        failed, len(servers), ', '.join(sorted(servers))))
    return failed


def post_host_down(client, host_name, say):
    """Post the notification a host monitor sends; returns its uuid."""
    now = datetime.datetime.now(datetime.timezone.utc)
    notification = client.api('POST', '/notifications', expected=202, body={
        'notification': {
            'type': 'COMPUTE_HOST', 'hostname': host_name,
            'generated_time': now.strftime('%Y-%m-%dT%H:%M:%S.%f'),
            'payload': {'event': 'STOPPED', 'host_status': 'NORMAL',
                        'cluster_status': 'OFFLINE'}}})['notification']
    say('notification %s posted (status %s)' % (
        notification['notification_uuid'], notification['status']))
    return notification['notification_uuid']


class Progress:
    """What was already printed of a notification's recovery.

    :param names: instance uuid -> name; the tasks' messages name
        instances by uuid, the lines printed by name, as the vmoves do.
    """

    def __init__(self, names=None):
        self.status = None
        self.messages = set()
        self.vmoves = {}
        self.names = names or {}

    def _named(self, message):
        for uuid, name in self.names.items():
            message = message.replace(uuid, name)
        return message

    def news(self, notification, vmoves):
        """The lines describing what changed since the last call."""
        lines = []
        if notification['status'] != self.status:
            self.status = notification['status']
            lines.append('status: %s' % self.status)
        for task in notification.get('recovery_workflow_details') or []:
            for detail in task['progress_details']:
                key = (task['name'], detail.get('timestamp'),
                       detail.get('message'))
                if key not in self.messages:
                    self.messages.add(key)
                    lines.append('  [%s] %s (%s)' % (
                        task['name'], self._named(detail.get('message') or ''),
                        detail.get('progress')))
        for vmove in vmoves:
            seen = (vmove['status'], vmove['dest_host'])
            if self.vmoves.get(vmove['uuid']) != seen:
                self.vmoves[vmove['uuid']] = seen
                lines.append('  vmove %s: %s (%s -> %s)%s' % (
                    vmove['instance_name'], vmove['status'],
                    vmove['source_host'], vmove['dest_host'] or '?',
                    ': %s' % vmove['message'] if vmove['message'] else ''))
        return lines


def follow(client, notification_uuid, say, timeout=300, interval=0.5,
           names=None):
    """Print the recovery's progress until the notification ends.

    :param names: instance uuid -> name, see Progress.
    :returns: the final status.
    :raises: DemoError after ``timeout`` seconds.
    """
    progress = Progress(names)
    path = '/notifications/%s' % notification_uuid
    deadline = time.monotonic() + timeout
    while True:
        notification = client.api('GET', path,
                                  version=DETAILS_VERSION)['notification']
        vmoves = client.api('GET', path + '/vmoves',
                            version=VMOVES_VERSION)['vmoves']
        for line in progress.news(notification, vmoves):
            say(line)
        if notification['status'] in TERMINAL_STATUSES:
            return notification['status']
        if time.monotonic() > deadline:
            raise DemoError('notification %s still %s after %ss' % (
                notification_uuid, notification['status'], timeout))
        time.sleep(interval)


def run(api_url, control_url, recovery_method='auto', say=print,
        timeout=300, crash=False):
    """The whole demo; returns True when the host was recovered.

    :param crash: crash the host rather than mark it down (see set_up).
    """
    client = Client(api_url, control_url)
    before = {server['id']: server
              for server in client.control('GET', '/state')['servers']}
    failed = set_up(client, recovery_method, say, crash=crash)
    notification_uuid = post_host_down(client, failed, say)
    status = follow(client, notification_uuid, say, timeout=timeout,
                    names={uuid: s['name'] for uuid, s in before.items()})
    state = client.control('GET', '/state')
    for server in sorted(state['servers'], key=lambda s: s['name']):
        was = before.get(server['id'])
        note = _stopped_note(was, ' (already stopped before the failure)') \
            if was and was['host'] == failed else ''
        say('instance %s: %s on %s%s' % (server['name'], server['vm_state'],
                                         server['host'], note))
    say('recovery %s' % ('finished' if status == SUCCESS_STATUS
                         else 'ended with status %s' % status))
    return status == SUCCESS_STATUS
