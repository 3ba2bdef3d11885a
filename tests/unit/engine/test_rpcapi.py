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

"""The engine RPC API on the wire, against frames captured from 22.0.0.

Runs oslo.messaging's RabbitMQ driver over kombu's in-process broker
(``kombu+memory``), so the frames checked here are byte for byte what a
RabbitMQ would carry; the frames captured from 22.0.0 are in ./frames/.
"""

import datetime
import json
import threading
import uuid

import oslo_messaging as messaging
from oslotest import base as test_base

import masakari.conf
from masakari import context
from masakari.engine.drivers.taskflow import persistence
from masakari.engine import manager
from masakari.engine import rpcapi
from masakari import exception
from masakari import objects
from masakari.objects import base as objects_base
from masakari import rpc
from tests.fixtures import conf as conf_fixture
from tests.fixtures import database as database_fixture
from tests.fixtures import rpc as rpc_fixture

CONF = masakari.conf.CONF
objects.register_all()

NOTIFICATION_UUID = rpc_fixture.NOTIFICATION_UUID
FAILURE_TEXT = rpc_fixture.FAILURE_TEXT


def reference_context():
    """The request context of the captured frames."""
    return context.RequestContext(
        user_id='6a3e1d3c5c0e4b1f9b2b7f0a7d9e8c11',
        project_id='9f4c2e7d1b3a4c5d8e6f7a8b9c0d1e22',
        is_admin=True, roles=['admin'],
        auth_token='gAAAAABpZ2VuZXJhdGVkLXRva2Vu',
        request_id='req-2f1b6f1e-8a3c-4d57-9c5e-0b1d2e3f4a5b',
        user_name='admin', project_name='admin',
        remote_address='10.0.0.1',
        timestamp='2026-10-28T22:43:57.954076',
        service_catalog=[
            {'type': 'compute', 'name': 'nova', 'endpoints': []},
            {'type': 'image', 'name': 'glance', 'endpoints': []},
        ])


class EngineRPCTestCase(test_base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.conf = self.useFixture(conf_fixture.ConfFixture(CONF))
        self.useFixture(rpc_fixture.RPCFixture(
            CONF, transport_url='kombu+memory:////',
            notification_driver=None))
        self.conf.config(heartbeat_timeout_threshold=0,
                         group='oslo_messaging_rabbit')
        self.topic = 'ha_engine_%s' % uuid.uuid4().hex
        self.conf.config(masakari_topic=self.topic)
        self.bus = self.useFixture(rpc_fixture.RawBus('memory://'))
        self.ctxt = reference_context()
        self.notification = rpc_fixture.stored_notification(self.ctxt)
        self.engine_api = rpcapi.EngineAPI()

    def start_engine(self):
        """Serve EngineEndpoint on the topic, as masakari-engine would."""
        endpoint = rpc_fixture.EngineEndpoint()
        server = rpc.get_server(
            messaging.Target(topic=self.topic, server='engine-1'),
            [endpoint], serializer=objects_base.MasakariObjectSerializer(),
            executor='threading')
        server.start()
        self.addCleanup(server.wait)
        self.addCleanup(server.stop)
        return endpoint

    def reference_frame(self, name, **changes):
        frame = rpc_fixture.load_frame(name)
        frame.update(changes)
        return frame

    def _call_as_reference_api(self, **changes):
        """Publish the captured call frame; return the raw reply frame."""
        reply_queue = self.bus.declare_queue('reply_%s' % uuid.uuid4().hex)
        call = self.reference_frame(
            'call_get_notification_recovery_workflow_details',
            _reply_q=reply_queue.name, _msg_id=uuid.uuid4().hex)
        call.update(changes)
        self.bus.publish(call, exchange='masakari', routing_key=self.topic)
        message = self.bus.get(reply_queue, timeout=10)
        self.assertEqual({'exchange': '', 'routing_key': reply_queue.name},
                         {key: message.delivery_info[key]
                          for key in ('exchange', 'routing_key')})
        reply = rpc_fixture.unwrap(message)
        self.assertEqual(call['_msg_id'], reply['_msg_id'])
        return reply

    def call_in_thread(self, method, *args):
        outcome = {}

        def run():
            try:
                outcome['result'] = method(*args)
            except Exception as error:
                outcome['error'] = error

        thread = threading.Thread(target=run)
        thread.start()
        self.addCleanup(thread.join, 70)
        return thread, outcome


class TestClientFrames(EngineRPCTestCase):
    """What our masakari-api publishes, compared with the reference's."""

    def test_cast_process_notification_frame(self):
        engine_queue = self.bus.declare_queue(self.topic, 'masakari')

        self.engine_api.process_notification(self.ctxt, self.notification)

        message = self.bus.get(engine_queue)
        self.assertEqual('application/json', message.content_type)
        self.assertEqual(2, message.properties['delivery_mode'])
        self.assertNotIn('expiration', message.properties)
        self.assertEqual({'exchange': 'masakari', 'routing_key': self.topic},
                         {key: message.delivery_info[key]
                          for key in ('exchange', 'routing_key')})
        self.assertEqual(
            rpc_fixture.normalise(
                rpc_fixture.load_frame('cast_process_notification')),
            rpc_fixture.normalise(rpc_fixture.unwrap(message)))

    def test_default_topic_is_ha_engine(self):
        self.conf.config(masakari_topic='ha_engine')
        engine_queue = self.bus.declare_queue('ha_engine', 'masakari')

        self.engine_api.process_notification(self.ctxt, self.notification)

        message = self.bus.get(engine_queue)
        self.assertEqual('ha_engine', message.delivery_info['routing_key'])
        self.assertEqual('process_notification',
                         rpc_fixture.unwrap(message)['method'])

    def test_call_frame_and_a_reference_reply(self):
        engine_queue = self.bus.declare_queue(self.topic, 'masakari')
        thread, outcome = self.call_in_thread(
            self.engine_api.get_notification_recovery_workflow_details,
            self.ctxt, self.notification)

        message = self.bus.get(engine_queue)
        self.assertEqual('60000', message.properties['expiration'])
        call = rpc_fixture.unwrap(message)
        self.assertEqual(
            rpc_fixture.normalise(rpc_fixture.load_frame(
                'call_get_notification_recovery_workflow_details')),
            rpc_fixture.normalise(call))

        # Answer as a reference masakari-engine does.
        reply = self.reference_frame(
            'reply_get_notification_recovery_workflow_details',
            _msg_id=call['_msg_id'])
        self.bus.publish(reply, exchange='', routing_key=call['_reply_q'],
                         exchange_type='direct')
        thread.join(30)

        self.assertNotIn('error', outcome)
        result = outcome['result']
        self.assertIsInstance(result, objects.Notification)
        self.assertEqual('1.3', result.VERSION)
        self.assertEqual(NOTIFICATION_UUID, result.notification_uuid)
        details = result.recovery_workflow_details
        self.assertEqual(1, len(details))
        self.assertEqual(
            {'name': 'DisableComputeServiceTask', 'progress': 1.0,
             'state': 'SUCCESS',
             'progress_details': [{
                 'timestamp': '2026-01-01 00:00:00.000001',
                 'progress': '0.0',
                 'message': "Disabling compute service on host: 'h1'"}]},
            dict(details[0].items()))

    def test_reference_failure_reply_is_a_masakari_exception(self):
        engine_queue = self.bus.declare_queue(self.topic, 'masakari')
        thread, outcome = self.call_in_thread(
            self.engine_api.get_notification_recovery_workflow_details,
            self.ctxt, self.notification)
        call = rpc_fixture.unwrap(self.bus.get(engine_queue))

        failure = self.reference_frame(
            'reply_failure_get_notification_recovery_workflow_details',
            _msg_id=call['_msg_id'])
        self.bus.publish(failure, exchange='', routing_key=call['_reply_q'],
                         exchange_type='direct')
        thread.join(30)

        error = outcome['error']
        self.assertIsInstance(error, exception.MasakariException)
        self.assertEqual('MasakariException_Remote',
                         error.__class__.__name__)
        self.assertEqual(FAILURE_TEXT, error.format_message())


class TestServerSide(EngineRPCTestCase):
    """What a reference masakari-api sends, received by our server side."""

    def test_reference_cast_is_rebuilt(self):
        endpoint = self.start_engine()
        self.bus.publish(rpc_fixture.load_frame('cast_process_notification'),
                         exchange='masakari', routing_key=self.topic)

        ctxt, notification = endpoint.received.get(timeout=10)

        self.assertIsInstance(notification, objects.Notification)
        self.assertEqual('1.3', notification.VERSION)
        self.assertEqual(set(), notification.obj_what_changed())
        self.assertFalse(
            notification.obj_attr_is_set('recovery_workflow_details'))
        self.assertTrue(objects_base.obj_equal_prims(self.notification,
                                                     notification))
        self.assertIsInstance(ctxt, context.RequestContext)
        expected = reference_context()
        for attr in ('user_id', 'project_id', 'is_admin', 'roles',
                     'auth_token', 'request_id', 'user_name', 'project_name',
                     'remote_address', 'timestamp', 'read_deleted',
                     'service_catalog'):
            self.assertEqual(getattr(expected, attr), getattr(ctxt, attr),
                             attr)
        self.assertEqual(datetime.datetime(2026, 10, 28, 22, 43, 57, 954076),
                         ctxt.timestamp)

    def test_reply_frame(self):
        self.start_engine()

        reply = self._call_as_reference_api()

        self.assertEqual(
            rpc_fixture.normalise(rpc_fixture.load_frame(
                'reply_get_notification_recovery_workflow_details')),
            rpc_fixture.normalise(reply))

    def test_failure_reply_frame(self):
        endpoint = self.start_engine()
        endpoint.fail = True

        reply = self._call_as_reference_api()

        expected = rpc_fixture.load_frame(
            'reply_failure_get_notification_recovery_workflow_details')
        failure = json.loads(reply.pop('failure'))
        expected_failure = json.loads(expected.pop('failure'))
        self.assertEqual(rpc_fixture.normalise(expected),
                         rpc_fixture.normalise(reply))
        traceback_lines = failure.pop('tb')
        expected_failure.pop('tb')
        self.assertEqual(expected_failure, failure)
        self.assertTrue(all(isinstance(line, str)
                            for line in traceback_lines))

    def test_newer_notification_version_is_refused(self):
        self.start_engine()
        call = rpc_fixture.load_frame(
            'call_get_notification_recovery_workflow_details')
        args = call['args']
        args['notification']['masakari_object.version'] = '1.4'

        reply = self._call_as_reference_api(args=args)

        failure = json.loads(reply['failure'])
        self.assertEqual(('IncompatibleObjectVersion',
                          'oslo_versionedobjects.exception'),
                         (failure['class'], failure['module']))
        self.assertEqual('Version 1.4 of Notification is not supported, '
                         'supported version is 1.3', failure['message'])

    def test_newer_message_version_is_refused(self):
        self.start_engine()

        reply = self._call_as_reference_api(version='1.2')

        failure = json.loads(reply['failure'])
        self.assertEqual('UnsupportedVersion', failure['class'])


class TestRoundTrip(EngineRPCTestCase):
    """Our client against our server side."""

    def test_cast(self):
        endpoint = self.start_engine()

        self.engine_api.process_notification(self.ctxt, self.notification)

        ctxt, notification = endpoint.received.get(timeout=10)
        self.assertTrue(objects_base.obj_equal_prims(self.notification,
                                                     notification))
        self.assertEqual(self.ctxt.to_dict(), ctxt.to_dict())

    def test_call(self):
        self.start_engine()

        result = self.engine_api.get_notification_recovery_workflow_details(
            self.ctxt, self.notification)

        self.assertEqual(['DisableComputeServiceTask'],
                         [details.name
                          for details in result.recovery_workflow_details])

    def test_call_failure(self):
        endpoint = self.start_engine()
        endpoint.fail = True

        error = self.assertRaises(
            exception.MasakariException,
            self.engine_api.get_notification_recovery_workflow_details,
            self.ctxt, self.notification)
        self.assertEqual(FAILURE_TEXT, error.format_message())

    def test_call_timeout(self):
        self.conf.config(rpc_response_timeout=1)

        self.assertRaises(
            messaging.MessagingTimeout,
            self.engine_api.get_notification_recovery_workflow_details,
            self.ctxt, self.notification)


class _ObservedManager(manager.MasakariManager):
    """The manager, telling the test when it has handled a cast.

    NOTE: the test waits for this rather than polling the database: the
    in-memory SQLite database is one connection, which the RPC server's
    thread and the test's thread must not use at the same time.
    """

    def __init__(self):
        super().__init__()
        self.handled = threading.Event()

    @messaging.expose
    def process_notification(self, context, notification=None):
        try:
            return super().process_notification(context, notification)
        finally:
            self.handled.set()


class TestManagerEndpoint(EngineRPCTestCase):
    """The real MasakariManager behind the engine topic: the two methods
    of the RPC API and nothing else (22.0.0 dispatched any public
    method; see doc/source/user/differences/objects.rst).
    """

    def setUp(self):
        super().setUp()
        self.useFixture(database_fixture.Database(CONF))
        self.conf.config(connection='sqlite://', group='taskflow')
        persistence.upgrade('sqlite://')
        self.addCleanup(persistence.reset)
        admin = context.get_admin_context()
        # The records the captured frames speak of; the segment is
        # disabled, so processing stops before any Nova call.
        segment = objects.FailoverSegment(
            admin, uuid='44f3f05c-8e15-4fac-9e0b-994d3c1f4991',
            name='segment-1', service_type='COMPUTE', recovery_method='auto',
            enabled=False)
        segment.create()
        objects.Host(admin, uuid='e3fe016c-f32c-4971-8e7f-8ca518e30f72',
                     name='compute-1', failover_segment=segment,
                     type='COMPUTE', control_attributes='SSH',
                     reserved=False, on_maintenance=False).create()
        objects.Notification(
            admin, notification_uuid=NOTIFICATION_UUID, type='PROCESS',
            generated_time=datetime.datetime(2026, 10, 28, 10),
            source_host_uuid='e3fe016c-f32c-4971-8e7f-8ca518e30f72',
            failover_segment_uuid='44f3f05c-8e15-4fac-9e0b-994d3c1f4991',
            payload={'event': 'STOPPED', 'process_name': 'nova-compute'},
            status='new').create()
        self.manager = _ObservedManager()
        server = rpc.get_server(
            messaging.Target(topic=self.topic, server='engine-1'),
            [self.manager],
            serializer=objects_base.MasakariObjectSerializer(),
            executor='threading')
        server.start()
        self.addCleanup(server.wait)
        self.addCleanup(server.stop)

    def stored_status(self):
        return objects.Notification.get_by_uuid(
            context.get_admin_context(), NOTIFICATION_UUID).status

    def test_reference_cast_is_processed(self):
        self.bus.publish(rpc_fixture.load_frame('cast_process_notification'),
                         exchange='masakari', routing_key=self.topic)

        self.assertTrue(self.manager.handled.wait(30))
        self.assertEqual('ignored', self.stored_status())

    def test_reference_call_is_answered(self):
        reply = self._call_as_reference_api()

        self.assertIsNone(reply['failure'])
        self.assertEqual(
            (NOTIFICATION_UUID, []),
            tuple(reply['result']['masakari_object.data'][key] for key in
                  ('notification_uuid', 'recovery_workflow_details')))

    def test_other_public_methods_are_refused(self):
        for method in ('init_host', 'periodic_tasks', 'reset',
                       'run_periodic_tasks', 'set_periodic_spacing'):
            # NOTE: a fresh _unique_id: the server drops duplicates.
            reply = self._call_as_reference_api(
                method=method, _unique_id=uuid.uuid4().hex)
            failure = json.loads(reply['failure'])
            self.assertEqual(('NoSuchMethod', 'oslo_messaging.rpc.dispatcher',
                              'Endpoint does not support RPC method %s'
                              % method),
                             (failure['class'], failure['module'],
                              failure['message']))

    def test_our_client_gets_the_refusal(self):
        client = rpc.get_client(
            messaging.Target(topic=self.topic, version='1.1'),
            serializer=objects_base.MasakariObjectSerializer())
        error = self.assertRaises(messaging.RemoteError, client.call,
                                  self.ctxt, 'init_host')
        self.assertEqual('NoSuchMethod', error.exc_type)
