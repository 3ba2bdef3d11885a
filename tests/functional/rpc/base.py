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

"""RabbitTestCase: Masakari's RPC and notifier on the real RabbitMQ.

Each test gets its own control exchange and engine topic, so parallel
runs (ours or other developers') never see each other's messages, and
deletes what it declared. The broker is $MASAKARI_TEST_RABBIT_URL
(default rabbit://guest:guest@127.0.0.1:5672/); a broker that is down
fails the tests.
"""

import os
import uuid

from oslotest import base as test_base

import masakari.conf
from masakari import context
from masakari import rpc
from tests.fixtures import conf as conf_fixture
from tests.fixtures import rpc as rpc_fixture

CONF = masakari.conf.CONF
DEFAULT_RABBIT_URL = 'rabbit://guest:guest@127.0.0.1:5672/'
NOTIFICATION_QUEUES = ('versioned_notifications.info',
                       'versioned_notifications.error')


def rabbit_url():
    return os.environ.get('MASAKARI_TEST_RABBIT_URL') or DEFAULT_RABBIT_URL


def kombu_url(transport_url):
    """The kombu URL of an oslo.messaging ``rabbit://`` transport URL."""
    scheme, rest = transport_url.split('://', 1)
    return 'amqp://' + rest


class RabbitTestCase(test_base.BaseTestCase):
    """oslo.messaging on RabbitMQ with a per-test exchange and topic.

    :attr unique_exchange: False keeps the default control exchange
        (``masakari``) instead of a per-test one.
    :attr binary: the publisher binary of the process under test.
    """

    unique_exchange = True
    binary = 'masakari-api'

    def setUp(self):
        super().setUp()
        run = uuid.uuid4().hex[:16]
        self.conf = self.useFixture(conf_fixture.ConfFixture(CONF))
        self.raw = self.useFixture(rpc_fixture.RawBus(
            kombu_url(rabbit_url())))
        # NOTE: fail fast (instead of retrying for ever) when the broker
        # is down.
        self.raw.connection.ensure_connection(max_retries=2)

        self.topic = 'ha_engine_test_%s' % run
        self.conf.config(masakari_topic=self.topic)
        if self.unique_exchange:
            self.exchange = 'masakari_test_%s' % run
            self.raw.delete_exchange_on_cleanup(self.exchange)
        else:
            self.exchange = 'masakari'
            if not self.raw.exchange_exists(self.exchange):
                self.raw.delete_exchange_on_cleanup(self.exchange)
        # The notifier declares queues named after its routing keys; they
        # are shared by name, so only delete those this test created.
        for name in NOTIFICATION_QUEUES:
            if not self.raw.queue_exists(name):
                self.raw.delete_queue_on_cleanup(name)
        # Declared by an RPC server on the topic.
        self.raw.delete_queue_on_cleanup(self.topic)
        self.raw.delete_exchange_on_cleanup('%s_fanout' % self.topic)

        # NOTE: our RPC client's reply queue is not auto-deleted (it expires
        # after [oslo_messaging_rabbit]/rabbit_transient_queues_ttl) and
        # the driver re-declares it while running: note its name before
        # rpc.cleanup(), delete it after.
        self._reply_queue = None
        self.addCleanup(self._delete_reply_queue)
        self.useFixture(rpc_fixture.RPCFixture(
            CONF, transport_url=self.transport_url(),
            notification_driver='messagingv2', binary=self.binary,
            control_exchange=self.exchange if self.unique_exchange else None))
        self.addCleanup(self._note_reply_queue)

        self.ctxt = context.RequestContext(
            user_id='u1', project_id='p1', is_admin=True, roles=['admin'],
            auth_token='secret-token', remote_address='10.0.0.1',
            request_id='req-%s' % uuid.uuid4(),
            service_catalog=[{'type': 'compute', 'name': 'nova',
                              'endpoints': []}])

    def transport_url(self):
        """The URL Masakari's transports use (the broker by default)."""
        return rabbit_url()

    def _note_reply_queue(self):
        self._reply_queue = getattr(rpc.TRANSPORT._driver, '_reply_q', None)

    def _delete_reply_queue(self):
        if self._reply_queue:
            self.raw.delete_queue(self._reply_queue)
