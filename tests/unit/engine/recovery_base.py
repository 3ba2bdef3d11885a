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

"""Shared scaffolding of the recovery tests: a cloud, a segment, a failed
host and ways to read what the engine did to Nova.
"""

import testtools

from tests.fixtures import engine

FAILED_HOST = engine.FAILED_HOST
HA = {'HA_Enabled': 'True'}


def topology(servers=(), hosts=None, aggregates=(), **extra):
    """A cloud with compute-1 down (the failed host) and two spares."""
    cloud = {'hosts': hosts or [{'name': FAILED_HOST, 'state': 'down'},
                                'compute-2', 'compute-3'],
             'delays': {'evacuate': 0, 'stop': 0, 'start': 0},
             'servers': list(servers), 'aggregates': list(aggregates)}
    cloud.update(extra)
    return cloud


def server(name, host=FAILED_HOST, metadata=HA, **fields):
    return dict(fields, name=name, host=host, metadata=metadata)


class RecoveryTestCase(testtools.TestCase):
    """A test with an engine, a segment and its failed host record."""

    recovery_method = 'auto'
    servers = ()
    hosts = None
    aggregates = ()

    def setUp(self):
        super().setUp()
        self.engine = self.useFixture(engine.EngineFixture(topology(
            self.servers, hosts=self.hosts, aggregates=self.aggregates)))
        self.nova = self.engine.nova
        self.context = self.engine.context
        self.manager = self.engine.manager
        self.segment = self.engine.create_segment(self.recovery_method)
        self.host = self.engine.create_host(self.segment)

    def config(self, **kwargs):
        self.engine.conf.config(**kwargs)

    def id_of(self, name):
        return self.nova.server_id(name)

    def process(self, notification):
        self.manager.process_notification(self.context, notification)
        return self.engine.reload(notification)

    def host_down(self, type='COMPUTE_HOST', **payload):
        """Create and process a notification; return it as stored."""
        notification = self.engine.create_notification(
            self.host, type=type, payload=payload or None)
        self.nova.reset_calls()
        self.engine.rpc.clear()
        return self.process(notification)

    def requests(self):
        """Nova calls as ``(request line, body)``, path without /v2.1."""
        lines = self.nova.nova_requests()
        bodies = [call['body'] for call in self.nova.calls('nova')]
        return list(zip(lines, bodies))

    def server_calls(self, name):
        """The calls about one server: ``GET`` or the action's body."""
        server_path = '/servers/%s' % self.id_of(name)
        calls = []
        for line, body in self.requests():
            path = line.split(' ', 1)[1]
            if path == server_path:
                calls.append('GET')
            elif path == server_path + '/action':
                calls.append(body)
        return calls

    def service_id(self, host):
        return self.nova.service(host)['id']

    def messages(self, notification):
        """``{task: [messages]}`` of the read-back (last run wins)."""
        return {name: messages
                for name, _state, messages in
                self.engine.progress(notification)}

    def assert_events(self, *event_types):
        self.assertEqual(list(event_types), self.engine.rpc.event_types)
