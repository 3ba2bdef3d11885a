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

"""The engine RPC API on the real RabbitMQ.

(a) a cast of process_notification reaches an engine endpoint, (b) the
1.1 call gets its reply, and a failure comes back under the class and
module of masakari.exception; plus the default exchange ``masakari``.
"""

import json
import uuid

import oslo_messaging as messaging

from masakari.engine import rpcapi
from masakari import exception
from masakari.notifications import api as notifications
from masakari import objects
from masakari.objects import base as objects_base
from masakari.objects import fields
from masakari import rpc
from tests.fixtures import rpc as rpc_fixture
from tests.functional.rpc import base

objects.register_all()

NOTIFICATION_UUID = rpc_fixture.NOTIFICATION_UUID


class EngineRPCTestCase(base.RabbitTestCase):

    def setUp(self):
        super().setUp()
        self.notification = rpc_fixture.stored_notification(self.ctxt)
        self.engine_api = rpcapi.EngineAPI()

    def start_engine(self):
        endpoint = rpc_fixture.EngineEndpoint()
        server_name = 'engine-%s' % uuid.uuid4().hex[:8]
        self.raw.delete_queue_on_cleanup('%s.%s' % (self.topic, server_name))
        server = rpc.get_server(
            messaging.Target(topic=self.topic, server=server_name),
            [endpoint], serializer=objects_base.MasakariObjectSerializer(),
            executor='threading')
        server.start()
        self.addCleanup(server.wait)
        self.addCleanup(server.stop)
        return endpoint


class TestEngineRPC(EngineRPCTestCase):

    def test_cast_reaches_the_engine(self):
        endpoint = self.start_engine()

        self.engine_api.process_notification(self.ctxt, self.notification)

        ctxt, notification = endpoint.received.get(timeout=30)
        self.assertTrue(objects_base.obj_equal_prims(self.notification,
                                                     notification))
        self.assertEqual(set(), notification.obj_what_changed())
        self.assertEqual(self.ctxt.to_dict(), ctxt.to_dict())

    def test_call_gets_the_reply(self):
        self.start_engine()

        result = self.engine_api.get_notification_recovery_workflow_details(
            self.ctxt, self.notification)

        self.assertIsInstance(result, objects.Notification)
        self.assertEqual(NOTIFICATION_UUID, result.notification_uuid)
        self.assertEqual(
            [('DisableComputeServiceTask', 1.0, 'SUCCESS')],
            [(details.name, details.progress, details.state)
             for details in result.recovery_workflow_details])

    def test_call_failure_is_a_masakari_exception(self):
        endpoint = self.start_engine()
        endpoint.fail = True

        error = self.assertRaises(
            exception.MasakariException,
            self.engine_api.get_notification_recovery_workflow_details,
            self.ctxt, self.notification)

        self.assertEqual('MasakariException_Remote',
                         error.__class__.__name__)
        self.assertEqual('Failed to fetch notification recovery workflow '
                         'details for %s' % NOTIFICATION_UUID,
                         error.format_message())

    def test_failure_reply_frame(self):
        endpoint = self.start_engine()
        endpoint.fail = True
        reply_queue = self.raw.declare_queue('reply_%s' % uuid.uuid4().hex)
        call = rpc_fixture.load_frame(
            'call_get_notification_recovery_workflow_details')
        call.update(_reply_q=reply_queue.name, _msg_id=uuid.uuid4().hex)

        self.raw.publish(call, exchange=self.exchange,
                         routing_key=self.topic)

        reply = rpc_fixture.unwrap(self.raw.get(reply_queue, timeout=30))
        self.assertEqual({'_msg_id', '_unique_id', 'failure', 'ending',
                          'result'}, set(reply))
        self.assertEqual((call['_msg_id'], True, None),
                         (reply['_msg_id'], reply['ending'],
                          reply['result']))
        failure = json.loads(reply['failure'])
        self.assertEqual({'class', 'module', 'message', 'tb', 'args',
                          'kwargs'}, set(failure))
        self.assertEqual(('MasakariException', 'masakari.exception',
                          {'code': 500}),
                         (failure['class'], failure['module'],
                          failure['kwargs']))

    def test_cast_frame_on_the_wire(self):
        engine_queue = self.raw.declare_queue(
            'test_engine_%s' % uuid.uuid4().hex, self.exchange,
            routing_key=self.topic)

        self.engine_api.process_notification(self.ctxt, self.notification)

        message = self.raw.get(engine_queue, timeout=30)
        self.assertEqual('application/json', message.content_type)
        self.assertEqual(2, message.properties['delivery_mode'])
        frame = rpc_fixture.unwrap(message)
        expected = rpc_fixture.load_frame('cast_process_notification')
        self.assertEqual(set(expected), set(frame))
        self.assertEqual(expected['args'], frame['args'])


class TestDefaultExchange(EngineRPCTestCase):
    """Without [DEFAULT]/control_exchange, everything goes to 'masakari'."""

    unique_exchange = False

    def test_cast_goes_to_the_masakari_exchange(self):
        self.assertEqual('masakari', base.CONF.control_exchange)
        engine_queue = self.raw.declare_queue(
            'test_engine_%s' % uuid.uuid4().hex, 'masakari',
            routing_key=self.topic)

        self.engine_api.process_notification(self.ctxt, self.notification)

        message = self.raw.get(engine_queue, timeout=30)
        self.assertEqual({'exchange': 'masakari', 'routing_key': self.topic},
                         {key: message.delivery_info[key]
                          for key in ('exchange', 'routing_key')})

    def test_notifications_go_to_the_masakari_exchange(self):
        info_queue = self.raw.declare_queue(
            'test_notifications_%s' % uuid.uuid4().hex, 'masakari',
            routing_key='versioned_notifications.info')

        notifications.notify_about_notification_update(
            self.ctxt, self.notification,
            action=fields.EventNotificationAction.NOTIFICATION_PROCESS,
            phase=fields.EventNotificationPhase.START)

        # Other processes may publish on the shared exchange meanwhile.
        for _attempt in range(100):
            message = self.raw.get(info_queue, timeout=30)
            frame = rpc_fixture.unwrap(message)
            if frame.get('_context_request_id') == self.ctxt.request_id:
                break
        else:
            self.fail('our notification never arrived')
        self.assertEqual('masakari', message.delivery_info['exchange'])
        self.assertEqual('notification.process.start', frame['event_type'])
