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

"""The versioned notifications a deployment publishes, read from RabbitMQ.

A queue of the test's own, bound to the deployment's control exchange with
the notifier's routing keys, receives a copy of everything the API and the
engine publish (the notifier's own queues stay untouched).
"""

import uuid

import fixtures
import kombu

from tests.fixtures import polling
from tests.fixtures import rpc as rpc_fixture

ROUTING_KEYS = ('versioned_notifications.info',
                'versioned_notifications.error')


class NotificationListener(fixtures.Fixture):
    """Collect the versioned notifications of ``exchange``.

    :param raw_bus: a tests.fixtures.rpc.RawBus (connection, clean-up).
    """

    def __init__(self, raw_bus, exchange):
        super().__init__()
        self.raw_bus = raw_bus
        self.exchange = exchange

    def _setUp(self):
        name = 'e2e_listener_%s' % uuid.uuid4().hex[:12]
        exchange = self.raw_bus.exchange(self.exchange)
        self.queue = kombu.Queue(
            name, bindings=[kombu.binding(exchange, routing_key=key)
                            for key in ROUTING_KEYS],
            durable=False, channel=self.raw_bus.channel)
        self.queue.declare()
        self.addCleanup(self.raw_bus.delete_queue, name)
        self.received = []

    def drain(self):
        """Move what arrived into ``received``; returns ``received``."""
        while True:
            message = self.queue.get(no_ack=True)
            if message is None:
                return self.received
            self.received.append(rpc_fixture.unwrap(message))

    def clear(self):
        """Forget what arrived so far."""
        self.drain()
        self.received = []

    def wait_for(self, condition, timeout=20):
        """Wait until ``condition(received)`` is true; returns received."""
        polling.wait_until(
            lambda: condition(self.drain()), timeout, interval=0.1,
            message=lambda: 'condition not met; received: %s' %
            self.event_types())
        return self.received

    def event_types(self):
        return [message['event_type'] for message in self.received]
