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

"""Rules of masakari/ha/api.py seen through the API.

Only process edges are replaced: the bus (a failing cast or call), the
clock (the random delay). The rest is the real pipeline on SQLite.
"""

from unittest import mock

import fixtures
from oslo_db import exception as db_exception
import oslo_messaging as messaging
import testtools

from masakari import context
from masakari import coordination
from masakari.engine import rpcapi
from masakari.ha import api as ha_api
from tests.fixtures import api as api_fixture

NOTIFICATION = api_fixture.HOST_FAILURE


class APITestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(api_fixture.APIFixture())
        self.segment, _ = self.api.create_segment_and_host()

    def request(self, method, path, body=None, **headers):
        return self.api.request(method, path, body, headers)

    def assert_unavailable(self, dependency, response):
        """503 naming ``dependency``, with Retry-After."""
        self.assertEqual(503, response.status_int)
        self.assertEqual(
            {'code': 503, 'message': 'The %s cannot be reached; retry '
                                     'later.' % dependency},
            response.json['serviceUnavailable'])
        self.assertEqual('5', response.headers['Retry-After'])


class TestCastFailure(APITestCase):

    def test_stored_notification_is_accepted_when_the_cast_fails(self):
        # The database is the durability point: an engine processes the
        # row once it stayed new for [takeover]/new_notification_age.
        # NOTE: through the domain API: the fixture's request() waits for
        # the fake engine to process every 202, and nothing is cast here.
        with mock.patch.object(rpcapi.EngineAPI, 'process_notification',
                               side_effect=messaging.MessagingTimeout()), \
                self.api.engine.database_turn:
            notification = ha_api.NotificationAPI().create_notification(
                context.get_admin_context(), NOTIFICATION['notification'])
        uuid = notification.notification_uuid
        self.assertEqual(['new'], [
            notification['status'] for notification in self.request(
                'GET', '/v1/notifications').json['notifications']
            if notification['notification_uuid'] == uuid])
        self.assertEqual(['notification.create.start',
                          'notification.create.end'],
                         [event for event in self.api.rpc.event_types
                          if event.startswith('notification.')])

    def test_failed_cast_leaves_nothing_behind_without_the_sweep(self):
        self.api.conf.set_override('new_notification_age', 0,
                                   group='takeover')
        with mock.patch.object(rpcapi.EngineAPI, 'process_notification',
                               side_effect=messaging.MessagingTimeout()):
            response = self.request('POST', '/v1/notifications',
                                    NOTIFICATION)
        # 22.0.0 answers 500 "Unexpected API Error" (and keeps the row).
        self.assertEqual(503, response.status_int)
        self.assertEqual('The masakari-engine cannot be reached; retry '
                         'later.',
                         response.json['serviceUnavailable']['message'])
        self.assertEqual(['notification.create.start',
                          'notification.create.end',
                          'notification.create.error'],
                         [event for event in self.api.rpc.event_types
                          if event.startswith('notification.')])
        error = self.api.rpc.payload_data('notification.create.error')
        self.assertEqual('MessagingTimeout',
                         error['fault']['masakari_object.data']['exception'])
        # Nothing recorded: the segment is free and a retry is accepted.
        self.assertEqual([], self.request('GET', '/v1/notifications')
                         .json['notifications'])
        self.assertEqual(200, self.request(
            'PUT', '/v1/segments/%s' % self.segment['uuid'],
            {'segment': {'description': 'free'}}).status_int)
        self.assertEqual(202, self.request('POST', '/v1/notifications',
                                           NOTIFICATION).status_int)


class TestRecoveryDetailsFailure(APITestCase):

    def test_engine_timeout_is_a_503(self):
        # 22.0.0 answers 500 "Unexpected API Error".
        created = self.request('POST', '/v1/notifications', NOTIFICATION)
        uuid = created.json['notification']['notification_uuid']
        with mock.patch.object(
                rpcapi.EngineAPI, 'get_notification_recovery_workflow_details',
                side_effect=messaging.MessagingTimeout()):
            response = self.request('GET', '/v1/notifications/' + uuid, **{
                'OpenStack-API-Version': 'instance-ha 1.1'})
        self.assert_unavailable('masakari-engine', response)
        self.assertEqual('instance-ha 1.1',
                         response.headers['OpenStack-API-Version'])


class TestDatabaseDown(APITestCase):

    def test_unreachable_database_is_a_503_naming_it(self):
        # 22.0.0 answers 500 "Unexpected API Error" naming
        # DBConnectionError.
        with mock.patch('masakari.db.api.notifications_get_all_by_filters',
                        side_effect=db_exception.DBConnectionError()):
            response = self.request('GET', '/v1/notifications')
        self.assert_unavailable('database', response)


class TestConcurrencyControls(APITestCase):

    def test_random_delay_without_coordination(self):
        self.api.conf.set_override('notification_delay_max', 5)
        with mock.patch('time.sleep') as sleep:
            self.assertEqual(202, self.request(
                'POST', '/v1/notifications', NOTIFICATION).status_int)
        (delay,), _ = sleep.call_args
        self.assertTrue(0 <= delay <= 5)

    def test_host_lock_with_coordination(self):
        locks = self.useFixture(fixtures.TempDir()).path
        self.api.conf.set_override('backend_url', 'file://%s' % locks,
                                   group='coordination')
        self.api.conf.set_override('notification_delay_max', 5)
        self.addCleanup(coordination.COORDINATOR.stop)
        with mock.patch('random.uniform') as delay, mock.patch.object(
                coordination.COORDINATOR, 'get_lock',
                wraps=coordination.COORDINATOR.get_lock) as get_lock:
            self.assertEqual(202, self.request(
                'POST', '/v1/notifications', NOTIFICATION).status_int)
            vm = {'notification': {
                'type': 'VM', 'hostname': 'compute-1',
                'generated_time': '2026-12-02T10:00:00Z',
                'payload': {'instance_uuid':
                            '96ab1c42-668c-4f2d-8689-afa3301d4ee9',
                            'vir_domain_event': 'STOPPED_FAILED',
                            'event': 'LIFECYCLE'}}}
            self.assertEqual(202, self.request(
                'POST', '/v1/notifications', vm).status_int)
        delay.assert_not_called()
        get_lock.assert_called_once_with(
            'create_host_notification-compute-1')
