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

"""Versioned notifications consumed from the real RabbitMQ.

The objects run over a throwaway MariaDB database, as in production; what
the test's own queues receive is compared field by field with the
catalogue below (event types, priorities, payload classes, versions and
data keys) and with the samples of ../../unit/notifications/expected/
(ids, times and hosts normalised).
"""

import json
import os
import re
import socket
import traceback
import uuid

from masakari import exception
from masakari.notifications import api as notifications
from masakari import objects
from masakari.objects import fields
from tests.fixtures import database as database_fixture
from tests.fixtures import rpc as rpc_fixture
from tests.functional.rpc import base

objects.register_all()

Action = fields.EventNotificationAction
Phase = fields.EventNotificationPhase
EXPECTED_DIR = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                            'unit', 'notifications', 'expected')
SEGMENT_UUID = 'f9703c93-8acc-4d9f-b44b-0bc97e581222'
HOST_UUID = '907be468-9eb1-44a8-9360-b07152519417'

SEGMENT_START = {'name', 'service_type', 'description', 'recovery_method',
                 'enabled', 'fault'}
SEGMENT_FULL = SEGMENT_START | {'id', 'uuid'}
HOST_START = {'name', 'failover_segment', 'type', 'control_attributes',
              'on_maintenance', 'reserved', 'fault'}
HOST_FULL = HOST_START | {'id', 'uuid'}
NOTIFICATION_START = {'type', 'generated_time', 'source_host_uuid',
                      'payload', 'status', 'fault'}
NOTIFICATION_FULL = NOTIFICATION_START | {'id', 'notification_uuid'}
SEGMENT_PAYLOAD = ('SegmentApiPayload', '1.1')
HOST_PAYLOAD = ('HostApiPayload', '1.0')
NOTIFICATION_PAYLOAD = ('NotificationApiPayload', '1.0')

# What 22.0.0 emits, in emission order, for the API-side operations below.
API_CATALOGUE = [
    ('segment.create.start', 'INFO', SEGMENT_PAYLOAD, SEGMENT_START),
    ('segment.create.end', 'INFO', SEGMENT_PAYLOAD, SEGMENT_START),
    ('segment.update.start', 'INFO', SEGMENT_PAYLOAD, SEGMENT_FULL),
    ('segment.update.end', 'INFO', SEGMENT_PAYLOAD, SEGMENT_FULL),
    ('host.create.start', 'INFO', HOST_PAYLOAD, HOST_START),
    ('host.create.end', 'INFO', HOST_PAYLOAD, HOST_START),
    ('host.update.start', 'INFO', HOST_PAYLOAD, HOST_FULL),
    ('host.update.end', 'INFO', HOST_PAYLOAD, HOST_FULL),
    ('notification.create.start', 'INFO', NOTIFICATION_PAYLOAD,
     NOTIFICATION_START),
    ('notification.create.end', 'INFO', NOTIFICATION_PAYLOAD,
     NOTIFICATION_START),
    ('host.delete.start', 'INFO', HOST_PAYLOAD, HOST_FULL),
    ('host.delete.end', 'INFO', HOST_PAYLOAD, HOST_FULL),
    ('segment.delete.start', 'INFO', SEGMENT_PAYLOAD, SEGMENT_FULL),
    ('segment.delete.end', 'INFO', SEGMENT_PAYLOAD, SEGMENT_FULL),
]

CONTEXT_KEYS = {
    'user', 'project_id', 'project', 'system_scope', 'domain', 'user_domain',
    'project_domain', 'is_admin', 'read_only', 'show_deleted', 'auth_token',
    'request_id', 'global_request_id', 'resource_uuid', 'roles',
    'user_identity', 'is_admin_project', 'user_id', 'read_deleted',
    'remote_address', 'timestamp', 'user_name', 'service_catalog',
    'project_name',
}
MESSAGE_KEYS = ({'message_id', 'publisher_id', 'event_type', 'priority',
                 'payload', 'timestamp', '_unique_id'} |
                {'_context_%s' % key for key in CONTEXT_KEYS})
DB_TIME = r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ'
# Who announces the writes of each object, by object name.
NOTIFY = {'FailoverSegment': notifications.notify_about_segment_api,
          'Host': notifications.notify_about_host_api,
          'Notification': notifications.notify_about_notification_api}


def load_expected(name):
    with open(os.path.join(EXPECTED_DIR, name)) as expected_file:
        return json.load(expected_file)


def mask_db_times(segment_primitive):
    """Mask the DB-assigned timestamps of a nested segment primitive."""
    data = segment_primitive['masakari_object.data']
    for key in ('created_at', 'updated_at'):
        if data.get(key) is not None:
            assert re.fullmatch(DB_TIME, data[key]), data[key]
            data[key] = '<%s>' % key
    return segment_primitive


class NotificationBusTestCase(base.RabbitTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(database_fixture.MySQLDatabase(base.CONF))
        run = uuid.uuid4().hex[:16]
        self.queues = {
            priority: self.raw.declare_queue(
                'test_notifications_%s_%s' % (priority, run), self.exchange,
                routing_key='versioned_notifications.%s' % priority)
            for priority in ('info', 'error')}

    def receive(self, priority, count):
        """The next ``count`` messages published with ``priority``."""
        return [rpc_fixture.unwrap(self.raw.get(self.queues[priority],
                                                timeout=30))
                for _ in range(count)]

    def assert_envelope(self, message, binary):
        self.assertEqual(MESSAGE_KEYS, set(message))
        self.assertEqual('%s:%s' % (binary, socket.gethostname()),
                         message['publisher_id'])
        rpc_fixture.normalise(message, keys=(
            'message_id', 'timestamp', '_unique_id', '_context_timestamp'))
        # The context is the redacted copy oslo.messaging sends.
        self.assertEqual(
            (None, None, [], self.ctxt.request_id, 'u1', ['admin'], True),
            tuple(message['_context_%s' % key] for key in (
                'auth_token', 'remote_address', 'service_catalog',
                'request_id', 'user_id', 'roles', 'is_admin')))
        self.assertNotIn('masakari_object.changes', message['payload'])

    def create_segment(self, **values):
        segment = objects.FailoverSegment(
            self.ctxt, name='seg1', service_type='compute',
            description=None, recovery_method='auto', enabled=True)
        segment.update(values)
        self.announce(segment, Action.SEGMENT_CREATE, segment.create)
        return segment

    def create_host(self, segment, **values):
        host = objects.Host(
            self.ctxt, name='h1', type='COMPUTE', control_attributes='SSH',
            reserved=False, on_maintenance=False, failover_segment=segment)
        host.update(values)
        self.announce(host, Action.HOST_CREATE, host.create)
        return host

    def announce(self, obj, action, write):
        """``write()`` between the ``action``'s start and end, as
        masakari.ha and the engine announce their writes.
        """
        notifications.around_write(NOTIFY[obj.obj_name()], self.ctxt, obj,
                                   action, write)


class TestApiNotifications(NotificationBusTestCase):

    def test_catalogue_of_the_api_operations(self):
        segment = self.create_segment(name='test')
        segment.description = 'd2'
        self.announce(segment, Action.SEGMENT_UPDATE, segment.save)
        host = self.create_host(segment)
        host.reserved = True
        self.announce(host, Action.HOST_UPDATE, host.save)
        notification = objects.Notification(
            self.ctxt, type='PROCESS', status='new',
            generated_time='2026-10-28T10:00:00Z',
            source_host_uuid=host.uuid,
            payload={'event': 'STOPPED', 'process_name': 'nova-compute'},
            failover_segment_uuid=segment.uuid)
        self.announce(notification, Action.NOTIFICATION_CREATE,
                      notification.create)
        self.announce(host, Action.HOST_DELETE, host.destroy)
        self.announce(segment, Action.SEGMENT_DELETE, segment.destroy)

        received = self.receive('info', len(API_CATALOGUE))

        self.assertEqual([entry[0] for entry in API_CATALOGUE],
                         [message['event_type'] for message in received])
        for message, (event_type, priority, payload, keys) in zip(
                received, API_CATALOGUE):
            self.assert_envelope(message, 'masakari-api')
            self.assertEqual(priority, message['priority'], event_type)
            self.assertEqual(payload, (
                message['payload']['masakari_object.name'],
                message['payload']['masakari_object.version']), event_type)
            self.assertEqual(keys,
                             set(message['payload']['masakari_object.data']),
                             event_type)
        first = received[0]
        expected = load_expected('segment-create-start.json')
        self.assertEqual(expected['payload'], first['payload'])
        self.assertEqual('d2', received[2]['payload'][
            'masakari_object.data']['description'])
        self.assertIsNone(self.queues['info'].get(no_ack=True))

    def test_segment_create_error(self):
        self.create_segment()
        duplicate = objects.FailoverSegment(
            self.ctxt, name='seg1', service_type='compute',
            description=None, recovery_method='auto', enabled=True)
        try:
            self.announce(duplicate, Action.SEGMENT_CREATE, duplicate.create)
        except exception.FailoverSegmentExists as error:
            formatted = traceback.format_exc()
            notifications.notify_about_segment_api(
                self.ctxt, duplicate, action=Action.SEGMENT_CREATE,
                phase=Phase.ERROR, exception=error, tb=formatted)

        self.assertEqual(
            ['segment.create.start', 'segment.create.end',
             'segment.create.start'],
            [message['event_type'] for message in self.receive('info', 3)])
        [error_message] = self.receive('error', 1)
        self.assert_envelope(error_message, 'masakari-api')
        self.assertEqual(('segment.create.error', 'ERROR'),
                         (error_message['event_type'],
                          error_message['priority']))
        data = error_message['payload']['masakari_object.data']
        self.assertEqual(SEGMENT_START, set(data))
        fault = data['fault']['masakari_object.data']
        self.assertEqual(
            ('FailoverSegmentExists',
             'Failover segment with name seg1 already exists.', formatted),
            (fault['exception'], fault['exception_message'],
             fault['traceback']))
        # The operation that raised it, named as 22.0.0 names it.
        self.assertEqual(('masakari.db.sqlalchemy.api',
                          'failover_segment_create'),
                         (fault['module_name'], fault['function_name']))


class TestEngineNotifications(NotificationBusTestCase):
    binary = notifications.ENGINE_BINARY

    def test_host_update_by_the_engine(self):
        segment = self.create_segment(uuid=SEGMENT_UUID)
        segment.description = 'd2'
        self.announce(segment, Action.SEGMENT_UPDATE, segment.save)
        host = self.create_host(segment, uuid=HOST_UUID)
        self.receive('info', 6)

        host.on_maintenance = True
        self.announce(host, Action.HOST_UPDATE, host.save)

        start, end = self.receive('info', 2)
        self.assertEqual(('host.update.start', 'host.update.end'),
                         (start['event_type'], end['event_type']))
        for message in (start, end):
            # masakari-engine, where 22.0.0 says masakari-api.
            self.assert_envelope(message, 'masakari-engine')
            self.assertEqual('INFO', message['priority'])
        expected = load_expected('host-update-start-engine-payload.json')
        mask_db_times(expected['masakari_object.data']['failover_segment'])
        mask_db_times(start['payload']['masakari_object.data'][
            'failover_segment'])
        self.assertEqual(expected, start['payload'])

    def test_process_notifications(self):
        host = self.create_host(self.create_segment())
        notification = objects.Notification(
            self.ctxt, type='COMPUTE_HOST', status='new',
            generated_time='2026-10-28T10:00:00Z',
            source_host_uuid='e3fe016c-f32c-4971-8e7f-8ca518e30f72',
            payload={'event': 'STOPPED', 'host_status': 'NORMAL',
                     'cluster_status': 'OFFLINE'},
            failover_segment_uuid=host.failover_segment.uuid)
        self.announce(notification, Action.NOTIFICATION_CREATE,
                      notification.create)
        self.receive('info', 6)
        expected = load_expected('process-notification-error-payload-data'
                                 '.json')

        notifications.notify_about_notification_update(
            self.ctxt, notification, action=Action.NOTIFICATION_PROCESS,
            phase=Phase.START)
        notification.status = 'running'
        notification.save()
        notifications.notify_about_notification_update(
            self.ctxt, notification, action=Action.NOTIFICATION_PROCESS,
            phase=Phase.ERROR,
            exception=exception.HostRecoveryFailureException(
                'Failed to execute host recovery.'))

        [start] = self.receive('info', 1)
        [error] = self.receive('error', 1)
        for message in (start, error):
            self.assert_envelope(message, 'masakari-engine')
            self.assertEqual(NOTIFICATION_PAYLOAD, (
                message['payload']['masakari_object.name'],
                message['payload']['masakari_object.version']))
        self.assertEqual(('notification.process.start', 'INFO', 'new'),
                         (start['event_type'], start['priority'],
                          start['payload']['masakari_object.data'][
                              'status']))
        self.assertEqual(NOTIFICATION_FULL,
                         set(start['payload']['masakari_object.data']))
        self.assertEqual(('notification.process.error', 'ERROR'),
                         (error['event_type'], error['priority']))
        data = error['payload']['masakari_object.data']
        for key in ('id', 'notification_uuid'):
            self.assertEqual(notification[key], data[key])
            expected[key] = data[key]
        self.assertEqual(expected, data)
