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

"""Recoveries with the main and the taskflow databases on MariaDB, and
the cost of a 20-server host recovery in Nova and Keystone calls.
"""

import collections
import time

import testtools

from masakari.objects import fields
from tests.fixtures import database
from tests.fixtures import engine as engine_fixture
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
SERVERS = 20


def _kind(call):
    """``METHOD path`` with ids replaced, or the action's name."""
    parts = [part if len(part) < 32 else '{id}'
             for part in call['path'].split('/')]
    path = '/'.join(parts)
    if call['method'] == 'POST' and path.endswith('/action'):
        return 'POST %s %s' % (path, next(iter(call['body'])))
    return '%s %s' % (call['method'], path)


class MariaDBRecoveryTestCase(testtools.TestCase):

    def start(self, servers, reserved=False):
        self.engine = self.useFixture(engine_fixture.EngineFixture(
            base.topology(servers, hosts=[
                {'name': base.FAILED_HOST, 'state': 'down'}, 'compute-2',
                'compute-3', {'name': 'reserved-1', 'status': 'disabled'}]),
            database_fixture=database.MySQLDatabase(taskflow=True)))
        segment = self.engine.create_segment(
            'auto_priority' if reserved else 'auto')
        self.host = self.engine.create_host(segment)
        if reserved:
            self.engine.create_host(segment, name='reserved-1', reserved=True)

    def recover(self):
        notification = self.engine.create_notification(self.host)
        self.engine.nova.reset_calls()
        started = time.monotonic()
        self.engine.manager.process_notification(self.engine.context,
                                                 notification)
        self.elapsed = time.monotonic() - started
        return self.engine.reload(notification)

    def test_twenty_servers_one_token(self):
        self.start([base.server('vm', count=SERVERS)])
        notification = self.recover()

        self.assertEqual(Status.FINISHED, notification.status)
        moves = self.engine.vmoves(notification)
        self.assertEqual(SERVERS, len(moves))
        self.assertEqual({'succeeded'}, {move.status for move in moves})
        counts = collections.Counter(
            '%s %s' % (call['service'], _kind(call))
            for call in self.engine.nova.calls())
        self.assertEqual(1, counts['keystone POST /v3/auth/tokens'])
        nova = {kind: count for kind, count in counts.items()
                if kind.startswith('nova')}
        self.assertEqual({
            'nova GET /v2.1/os-services': 1,
            'nova PUT /v2.1/os-services/{id}': 1,
            'nova GET /v2.1/servers/detail': 1,
            # original state, lock state, confirmation, destination
            'nova GET /v2.1/servers/{id}': 4 * SERVERS,
            'nova POST /v2.1/servers/{id}/action lock': SERVERS,
            'nova POST /v2.1/servers/{id}/action evacuate': SERVERS,
            'nova POST /v2.1/servers/{id}/action unlock': SERVERS,
        }, nova)
        self.addDetail('calls', testtools.content.text_content(
            '%s\nelapsed %.2f s' % (sorted(counts.items()), self.elapsed)))
        details = self.engine.progress(notification)
        self.assertEqual(['SUCCESS'] * 3, [state for _n, state, _m in details])

    def test_runs_read_back_in_order(self):
        # auto fails once, then the reserved host workflow: two runs in
        # one logbook, read back oldest first whatever InnoDB's order.
        self.start([base.server('vm')], reserved=True)
        self.engine.nova.add_fault(method='POST', path='/servers/*/action',
                                   action='evacuate', status=500,
                                   message='once', times=1)
        notification = self.recover()
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(
            ['REVERTED'] * 3 + ['SUCCESS'] * 3,
            [state for _n, state, _m in self.engine.progress(notification)])
        self.assertEqual('reserved-1',
                         self.engine.nova.server('vm')['host'])
