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

"""Versioned notifications as consumers see them.

Compared with messages captured from 22.0.0 and with the two samples of
its documentation that match its code (create-notification-start,
process-notification-start), kept under ./expected/.
"""

import datetime
import json
import os
import socket
import traceback

from oslotest import base as test_base

import masakari.conf
from masakari import context
from masakari import exception
from masakari.notifications import api as notifications
from masakari.notifications.objects import base as notification_base
from masakari.notifications.objects import notification as notification_obj
from masakari import objects
from masakari.objects import fields
from tests.fixtures import conf as conf_fixture
from tests.fixtures import rpc as rpc_fixture

CONF = masakari.conf.CONF
objects.register_all()

Action = fields.EventNotificationAction
Phase = fields.EventNotificationPhase
EXPECTED_DIR = os.path.join(os.path.dirname(__file__), 'expected')
# The keys the reference documentation presents to consumers.
ENVELOPE_KEYS = {'message_id', 'publisher_id', 'event_type', 'priority',
                 'payload', 'timestamp'}
VARIABLE_KEYS = ('message_id', 'timestamp', '_context_timestamp',
                 '_context_request_id')


def load_expected(name):
    with open(os.path.join(EXPECTED_DIR, name)) as expected_file:
        return json.load(expected_file)


def normalise(entry, keys=VARIABLE_KEYS):
    """Mask ids, times and the publisher host, after checking formats."""
    entry = rpc_fixture.normalise(entry, keys=keys)
    binary, _host = entry['publisher_id'].split(':')
    entry['publisher_id'] = binary + ':<host>'
    return entry


def make_segment(**values):
    segment = objects.FailoverSegment(
        id=1, uuid='f9703c93-8acc-4d9f-b44b-0bc97e581222', name='seg1',
        service_type='compute', enabled=True, description='d2',
        recovery_method='auto',
        created_at=datetime.datetime(2026, 12, 2, 15, 37, 40),
        updated_at=datetime.datetime(2026, 12, 2, 15, 37, 40),
        deleted_at=None, deleted=False)
    segment.update(values)
    segment.obj_reset_changes()
    return segment


def make_host(**values):
    host = objects.Host(
        id=1, uuid='907be468-9eb1-44a8-9360-b07152519417', name='h1',
        type='COMPUTE', control_attributes='SSH', on_maintenance=False,
        reserved=False, failover_segment=make_segment(),
        created_at=None, updated_at=None, deleted_at=None, deleted=False)
    host.obj_reset_changes()
    host.update(values)
    return host


def make_notification(**values):
    notification = objects.Notification(
        id=1, notification_uuid='7882ccb9-ebb1-43b3-848b-f2333ae4b79c',
        generated_time=datetime.datetime(2026, 10, 28, 10, 0, 0),
        source_host_uuid='e3fe016c-f32c-4971-8e7f-8ca518e30f72',
        type='COMPUTE_HOST', status='running',
        payload={'event': 'STOPPED', 'host_status': 'NORMAL',
                 'cluster_status': 'OFFLINE'},
        failover_segment_uuid=None, message=None, created_at=None,
        updated_at=None, deleted_at=None, deleted=False)
    notification.update(values)
    notification.obj_reset_changes()
    return notification


def raise_duplicate_segment():
    raise exception.FailoverSegmentExists(name='test')


class NotificationTestCase(test_base.BaseTestCase):
    binary = notifications.API_BINARY

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture(CONF))
        self.bus = self.useFixture(rpc_fixture.RPCFixture(
            CONF, binary=self.binary))
        self.ctxt = context.RequestContext(
            user_id='u1', project_id='p1', is_admin=True, roles=['admin'],
            auth_token='secret-token', remote_address='10.0.0.1',
            request_id='req-11111111-2222-3333-4444-555555555555',
            service_catalog=[{'type': 'compute', 'name': 'nova'}])

    def only(self):
        captured = self.bus.notifications
        self.assertEqual(1, len(captured), self.bus.event_types)
        return captured[0]


class TestApiSide(NotificationTestCase):

    def test_segment_create_start_as_spec_example(self):
        segment = objects.FailoverSegment(
            self.ctxt, name='test', service_type='compute', description=None,
            recovery_method='auto', enabled=True)

        notifications.notify_about_segment_api(
            self.ctxt, segment, action=Action.SEGMENT_CREATE,
            phase=Phase.START)

        sent = self.only()
        self.assertEqual(normalise(load_expected('segment-create-start.json')),
                         normalise(sent))
        self.assertEqual('masakari-api:%s' % socket.gethostname(),
                         sent['publisher_id'])

    def test_context_is_redacted(self):
        notifications.notify_about_segment_api(
            self.ctxt, make_segment(), action=Action.SEGMENT_UPDATE,
            phase=Phase.END)

        sent = self.only()
        self.assertIsNone(sent['_context_auth_token'])
        self.assertIsNone(sent['_context_remote_address'])
        self.assertEqual([], sent['_context_service_catalog'])
        self.assertEqual(24, len([key for key in sent
                                  if key.startswith('_context_')]))

    def test_create_notification_start_matches_reference_sample(self):
        sample = load_expected('create-notification-start.json')
        notification = objects.Notification(
            self.ctxt, type='VM', status='new',
            generated_time='2017-06-13T15:34:55Z',
            source_host_uuid='d4ffe3a4-b2a8-41f3-a2b0-bae3b06fc1a3',
            payload={'process_name': 'nova-compute'})

        notifications.notify_about_notification_api(
            self.ctxt, notification, action=Action.NOTIFICATION_CREATE,
            phase=Phase.START)

        sent = self.only()
        self.assertEqual(set(sample), ENVELOPE_KEYS)
        view = {key: sent[key] for key in ENVELOPE_KEYS}
        self.assertEqual(normalise(sample, ('message_id', 'timestamp')),
                         normalise(view, ('message_id', 'timestamp')))

    def test_error_phase_records_the_raising_frame(self):
        segment = objects.FailoverSegment(
            self.ctxt, name='test', service_type='compute', description=None,
            recovery_method='auto', enabled=True)
        try:
            raise_duplicate_segment()
        except exception.FailoverSegmentExists as error:
            formatted = traceback.format_exc()
            notifications.notify_about_segment_api(
                self.ctxt, segment, action=Action.SEGMENT_CREATE,
                phase=Phase.ERROR, exception=error, tb=formatted)

        sent = self.only()
        self.assertEqual(('segment.create.error', 'ERROR'),
                         (sent['event_type'], sent['priority']))
        fault = sent['payload']['masakari_object.data']['fault']
        self.assertEqual('ExceptionPayload', fault['masakari_object.name'])
        self.assertEqual('1.0', fault['masakari_object.version'])
        self.assertNotIn('masakari_object.changes', fault)
        self.assertEqual(
            {'module_name': __name__,
             'function_name': 'raise_duplicate_segment',
             'exception': 'FailoverSegmentExists',
             'exception_message':
                 'Failover segment with name test already exists.',
             'traceback': formatted},
            fault['masakari_object.data'])

    def test_host_update_from_the_api(self):
        notifications.notify_about_host_api(
            self.ctxt, make_host(on_maintenance=True),
            action=Action.HOST_UPDATE, phase=Phase.START)

        sent = self.only()
        self.assertEqual('masakari-api:%s' % socket.gethostname(),
                         sent['publisher_id'])

    def test_event_type_without_phase(self):
        event_type = notification_base.EventType(action=Action.HOST_CREATE)
        self.assertEqual('host.create',
                         event_type.to_notification_event_type_field())

    def test_unpopulated_payload_is_not_sent(self):
        payload = notification_obj.SegmentApiPayload(
            segment=make_segment(), fault=None)
        payload.populated = False
        notification = notification_obj.SegmentApiNotification(
            priority='info', payload=payload,
            event_type=notification_base.EventType(
                action=Action.SEGMENT_CREATE, phase=Phase.START),
            publisher=notification_base.NotificationPublisher(
                host='h', binary='masakari-api'))

        self.assertRaises(AssertionError, notification.emit, self.ctxt)
        self.assertEqual([], self.bus.notifications)


class TestEngineSide(NotificationTestCase):
    binary = notifications.ENGINE_BINARY

    def test_host_update_is_published_as_masakari_engine(self):
        # The reference publishes this as masakari-api; we
        # publish under the binary of the process, see
        # doc/source/user/differences/objects.rst.
        notifications.notify_about_host_api(
            self.ctxt, make_host(on_maintenance=True),
            action=Action.HOST_UPDATE, phase=Phase.START)

        sent = self.only()
        self.assertEqual('masakari-engine:%s' % socket.gethostname(),
                         sent['publisher_id'])
        self.assertEqual(('host.update.start', 'INFO'),
                         (sent['event_type'], sent['priority']))
        self.assertEqual(
            load_expected('host-update-start-engine-payload.json'),
            sent['payload'])

    def test_process_error_fault_is_the_reference_constant(self):
        error = exception.HostRecoveryFailureException(
            'Failed to execute host recovery.')
        try:
            raise error
        except exception.HostRecoveryFailureException:
            # Even from inside an except block the fault is the constant
            # one a reference engine sends.
            notifications.notify_about_notification_update(
                self.ctxt, make_notification(),
                action=Action.NOTIFICATION_PROCESS, phase=Phase.ERROR,
                exception=error)

        sent = self.only()
        self.assertEqual(('notification.process.error', 'ERROR'),
                         (sent['event_type'], sent['priority']))
        self.assertEqual(
            load_expected('process-notification-error-payload-data.json'),
            sent['payload']['masakari_object.data'])
        self.assertEqual('masakari-engine',
                         sent['publisher_id'].split(':')[0])

    def test_process_start_matches_reference_sample(self):
        sample = load_expected('process-notification-start.json')
        notification = make_notification(
            id=47, notification_uuid='15505a8c-8856-4f3d-9747-55b6e899c0f5',
            source_host_uuid='6bfaf80d-7592-4ea8-ad12-60d45476d056',
            generated_time=datetime.datetime(2017, 6, 13, 15, 34, 55),
            type='VM', status='new',
            payload={'process_name': 'nova-compute'})

        notifications.notify_about_notification_update(
            self.ctxt, notification, action=Action.NOTIFICATION_PROCESS,
            phase=Phase.START)

        sent = self.only()
        view = {key: sent[key] for key in ENVELOPE_KEYS}
        self.assertEqual(normalise(sample, ('message_id', 'timestamp')),
                         normalise(view, ('message_id', 'timestamp')))

    def test_process_notification_is_always_masakari_engine(self):
        notifications.set_binary(notifications.API_BINARY)

        notifications.notify_about_notification_update(
            self.ctxt, make_notification(),
            action=Action.NOTIFICATION_PROCESS, phase=Phase.END)

        self.assertEqual('masakari-engine',
                         self.only()['publisher_id'].split(':')[0])


class BusTestCase(test_base.BaseTestCase):
    """Notifications over kombu's in-process broker, with ``driver``."""

    driver = None

    def setUp(self):
        super().setUp()
        self.conf = self.useFixture(conf_fixture.ConfFixture(CONF))
        self.conf.config(topics=['notifications'],
                         group='oslo_messaging_notifications')
        self.useFixture(rpc_fixture.RPCFixture(
            CONF, transport_url='kombu+memory:////',
            notification_driver=self.driver))
        self.conf.config(heartbeat_timeout_threshold=0,
                         group='oslo_messaging_rabbit')
        self.raw = self.useFixture(rpc_fixture.RawBus('memory://'))
        self.info = self.raw.declare_queue('versioned_notifications.info',
                                           'masakari')
        self.error = self.raw.declare_queue('versioned_notifications.error',
                                            'masakari')
        self.ctxt = context.RequestContext(user_id='u1', is_admin=True)

    def emit(self, **kwargs):
        notifications.notify_about_notification_update(
            self.ctxt, make_notification(),
            action=Action.NOTIFICATION_PROCESS, **kwargs)


class TestWithoutDriver(BusTestCase):

    def test_nothing_is_sent(self):
        self.emit(phase=Phase.START)
        self.assertIsNone(self.info.get(no_ack=True))


class TestWithMessagingV2(BusTestCase):
    driver = 'messagingv2'

    def test_topics_option_is_ignored_and_priority_routes(self):
        self.emit(phase=Phase.START)
        self.emit(phase=Phase.ERROR, exception='boom')

        info = self.raw.get(self.info)
        self.assertEqual({'exchange': 'masakari',
                          'routing_key': 'versioned_notifications.info'},
                         {key: info.delivery_info[key]
                          for key in ('exchange', 'routing_key')})
        self.assertEqual('application/json', info.content_type)
        message = rpc_fixture.unwrap(info)
        self.assertEqual('notification.process.start', message['event_type'])
        self.assertRegex(message['_unique_id'], '^[0-9a-f]{32}$')

        error = rpc_fixture.unwrap(self.raw.get(self.error))
        self.assertEqual(('notification.process.error', 'ERROR'),
                         (error['event_type'], error['priority']))
