"""Rules of masakari/ha/api.py seen through the API.

Only process edges are replaced: the bus (a failing cast or call), the
clock (the random delay). The rest is the real pipeline on SQLite.
"""

from unittest import mock

import fixtures
import oslo_messaging as messaging
import testtools

from masakari import coordination
from masakari.engine import rpcapi
from tests.fixtures import api as api_fixture

NOTIFICATION = api_fixture.HOST_FAILURE


class APITestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(api_fixture.APIFixture())
        self.segment, _ = self.api.create_segment_and_host()

    def request(self, method, path, body=None, **headers):
        return self.api.request(method, path, body, headers)


class TestCastFailure(APITestCase):

    def test_failed_cast_leaves_nothing_behind(self):
        with mock.patch.object(rpcapi.EngineAPI, 'process_notification',
                               side_effect=messaging.MessagingTimeout()):
            response = self.request('POST', '/v1/notifications',
                                    NOTIFICATION)
        self.assertEqual(500, response.status_int)
        self.assertEqual(
            "Unexpected API Error. Please report this at "
            "https://bugs.launchpad.net/masakari/ and attach the Masakari "
            "API log if possible.\n"
            "<class 'oslo_messaging.exceptions.MessagingTimeout'>",
            response.json['masakariFault']['message'])
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

    def test_engine_timeout_is_a_500(self):
        created = self.request('POST', '/v1/notifications', NOTIFICATION)
        uuid = created.json['notification']['notification_uuid']
        with mock.patch.object(
                rpcapi.EngineAPI, 'get_notification_recovery_workflow_details',
                side_effect=messaging.MessagingTimeout()):
            response = self.request('GET', '/v1/notifications/' + uuid, **{
                'OpenStack-API-Version': 'instance-ha 1.1'})
        self.assertEqual(500, response.status_int)
        self.assertTrue(response.json['masakariFault']['message'].endswith(
            "<class 'oslo_messaging.exceptions.MessagingTimeout'>"))
        self.assertEqual('instance-ha 1.1',
                         response.headers['OpenStack-API-Version'])


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
