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

"""masakari.rpc: transports, the context on the wire, client and server."""

import datetime
import queue

import oslo_messaging as messaging
from oslotest import base as test_base

import masakari.conf
from masakari import context
from masakari.objects import base as objects_base
from masakari import rpc
from tests.fixtures import conf as conf_fixture
from tests.fixtures import rpc as rpc_fixture

CONF = masakari.conf.CONF

# What RequestContext.to_dict() sends with oslo.context 6.x.
CONTEXT_KEYS = {
    'user', 'project_id', 'project', 'system_scope', 'domain', 'user_domain',
    'project_domain', 'is_admin', 'read_only', 'show_deleted', 'auth_token',
    'request_id', 'global_request_id', 'resource_uuid', 'roles',
    'user_identity', 'is_admin_project', 'user_id', 'read_deleted',
    'remote_address', 'timestamp', 'user_name', 'service_catalog',
    'project_name',
}


class TestInit(test_base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture(CONF))

    def test_init_and_cleanup(self):
        self.useFixture(messaging.conffixture.ConfFixture(CONF, 'fake:/'))
        self.assertFalse(rpc.initialized())

        rpc.init(CONF)
        self.assertTrue(rpc.initialized())
        self.assertIsNotNone(rpc.get_versioned_notifier('masakari-api:h'))

        rpc.cleanup()
        self.assertFalse(rpc.initialized())
        self.assertRaises(AssertionError, rpc.cleanup)
        self.assertRaises(AssertionError, rpc.get_versioned_notifier, 'x')

    def test_control_exchange_defaults_to_masakari(self):
        self.useFixture(messaging.conffixture.ConfFixture(CONF, 'fake:/'))
        self.assertEqual('masakari', CONF.control_exchange)

    def test_remote_exceptions_of_masakari_exception_only(self):
        self.assertEqual(['masakari.exception'], rpc.ALLOWED_EXMODS)


class TestRequestContextOnTheWire(test_base.BaseTestCase):
    """The 24 ``_context_*`` keys and their formats."""

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture(CONF))
        self.serializer = rpc.RequestContextSerializer(None)

    def test_serialised_keys_and_formats(self):
        ctxt = context.RequestContext(
            user_id='u1', project_id='p1', is_admin=True, roles=['admin'],
            remote_address='10.0.0.1', auth_token='t',
            timestamp=datetime.datetime(2026, 10, 28, 22, 43, 57),
            service_catalog=[{'type': 'compute', 'name': 'nova'},
                             {'type': 'identity', 'name': 'keystone'},
                             {'type': 'image', 'name': 'glance'}])

        values = self.serializer.serialize_context(ctxt)

        self.assertEqual(CONTEXT_KEYS, set(values))
        self.assertEqual('2026-10-28T22:43:57.000000', values['timestamp'])
        self.assertEqual(['compute', 'identity'],
                         [entry['type']
                          for entry in values['service_catalog']])
        self.assertEqual(('u1', 'u1', 'p1', 'p1'),
                         (values['user'], values['user_id'],
                          values['project'], values['project_id']))
        self.assertEqual('u1 p1 - - -', values['user_identity'])
        self.assertEqual('no', values['read_deleted'])
        self.assertRegex(values['request_id'],
                         r'^req-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$')

    def test_reference_context_is_rebuilt(self):
        frame = rpc_fixture.load_frame('cast_process_notification')
        values = {key[len('_context_'):]: value
                  for key, value in frame.items()
                  if key.startswith('_context_')}
        values['an_unknown_key'] = 'ignored'

        ctxt = self.serializer.deserialize_context(values)

        self.assertIsInstance(ctxt, context.RequestContext)
        self.assertEqual(
            datetime.datetime(2026, 10, 28, 22, 43, 57, 954076),
            ctxt.timestamp)
        self.assertEqual(('6a3e1d3c5c0e4b1f9b2b7f0a7d9e8c11',
                          '9f4c2e7d1b3a4c5d8e6f7a8b9c0d1e22'),
                         (ctxt.user_id, ctxt.project_id))
        self.assertEqual('10.0.0.1', ctxt.remote_address)
        self.assertEqual(values['service_catalog'], ctxt.service_catalog)
        self.assertEqual(values['auth_token'], ctxt.auth_token)
        self.assertTrue(ctxt.is_admin)
        # What comes back goes out unchanged.
        values.pop('an_unknown_key')
        self.assertEqual(values, self.serializer.serialize_context(ctxt))

    def test_timestamp_without_microseconds_is_refused(self):
        values = context.RequestContext(is_admin=True).to_dict()
        values['timestamp'] = '2026-10-28T22:43:57'
        self.assertRaises(ValueError, self.serializer.deserialize_context,
                          values)

    def test_read_deleted_must_be_no_yes_or_only(self):
        values = context.RequestContext(is_admin=True).to_dict()
        values['read_deleted'] = 'maybe'
        self.assertRaises(ValueError, self.serializer.deserialize_context,
                          values)

    def test_entities_pass_through_without_a_base(self):
        self.assertEqual({'a': 1},
                         self.serializer.serialize_entity(None, {'a': 1}))
        self.assertEqual({'a': 1},
                         self.serializer.deserialize_entity(None, {'a': 1}))


class Endpoint(object):
    target = messaging.Target(version='1.1')

    def __init__(self):
        self.casts = queue.Queue()

    def echo(self, context, value):
        return {'value': value, 'user_id': context.user_id}

    def record(self, context, value):
        self.casts.put(value)

    def _hidden(self, context):
        return 'hidden'


class ExposingEndpoint(Endpoint):
    """An endpoint that lists its RPC methods, as the engine manager."""

    @messaging.expose
    def echo(self, context, value):
        return super().echo(context, value)


class TestClientAndServer(test_base.BaseTestCase):
    """get_client/get_server on the fake transport others' tests use."""

    endpoint_class = Endpoint

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture(CONF))
        self.useFixture(rpc_fixture.RPCFixture(CONF))
        self.endpoint = self.endpoint_class()
        server = rpc.get_server(
            messaging.Target(topic='test_topic', server='s1'),
            [self.endpoint], executor='threading',
            serializer=objects_base.MasakariObjectSerializer())
        server.start()
        self.addCleanup(server.wait)
        self.addCleanup(server.stop)
        self.client = rpc.get_client(
            messaging.Target(topic='test_topic', version='1.1'),
            serializer=objects_base.MasakariObjectSerializer())
        self.ctxt = context.RequestContext(user_id='u1', is_admin=True)

    def test_call_and_cast(self):
        self.assertEqual({'value': 3, 'user_id': 'u1'},
                         self.client.call(self.ctxt, 'echo', value=3))
        self.client.cast(self.ctxt, 'record', value='x')
        self.assertEqual('x', self.endpoint.casts.get(timeout=10))

    def test_private_methods_are_not_callable(self):
        self.assertRaises(messaging.NoSuchMethod, self.client.call,
                          self.ctxt, '_hidden')


class TestExposedMethods(TestClientAndServer):
    """An endpoint that marks methods with messaging.expose offers those
    alone.
    """

    endpoint_class = ExposingEndpoint

    def test_call_and_cast(self):
        self.assertEqual({'value': 3, 'user_id': 'u1'},
                         self.client.call(self.ctxt, 'echo', value=3))
        self.assertRaises(messaging.NoSuchMethod, self.client.call,
                          self.ctxt, 'record', value='x')
