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

"""Base class of the end-to-end tests: one deployment of the real programs
per test class (tests.fixtures.processes.Deployment), driven over HTTP.

Each test starts with an empty simulator call log and an empty list of
bus notifications, and carries the services' log lines written during it
as details (stestr prints them when the test fails).
"""

import datetime
import uuid

import testtools
from testtools import content

from tests.e2e import bus
from tests.e2e import clients
from tests.fixtures import processes

# Instant Nova transitions: a recovery's polls see the outcome at once.
INSTANT = {'evacuate': 0, 'stop': 0, 'start': 0}

API_PUBLISHER = 'masakari-api:'
ENGINE_PUBLISHER = 'masakari-engine:'


def generated_time(offset_seconds=0):
    """A notification's generated_time, ``offset_seconds`` from now."""
    moment = (datetime.datetime.now(datetime.timezone.utc) +
              datetime.timedelta(seconds=offset_seconds))
    return moment.strftime('%Y-%m-%dT%H:%M:%S.000000')


class E2ETestCase(testtools.TestCase):
    """Starts ``Deployment(topology, options, api_server, api_count,
    api_workers)`` once for the class; ``self.api``, ``self.simulator`` and
    ``self.bus`` talk to it.
    """

    topology = {'hosts': [], 'delays': INSTANT}
    options = {}
    api_server = 'console'
    api_count = 1
    api_workers = 1
    simulator_args = ()
    proxied = False

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.deployment = processes.Deployment(
            cls.topology, options=cls.options, api_server=cls.api_server,
            api_count=cls.api_count, api_workers=cls.api_workers,
            simulator_args=cls.simulator_args, proxied=cls.proxied)
        cls.deployment.setUp()
        cls.addClassCleanup(cls.deployment.cleanUp)
        cls.listener = bus.NotificationListener(cls.deployment.bus,
                                                cls.deployment.exchange)
        cls.listener.setUp()
        cls.addClassCleanup(cls.listener.cleanUp)

    def setUp(self):
        super().setUp()
        self.api = clients.MasakariClient(self.deployment.api_url)
        self.simulator = clients.SimulatorClient(
            self.deployment.control_url)
        self.bus = self.listener
        self.simulator.reset_calls()
        self.bus.clear()
        self.simulator.call('DELETE', '/faults')
        for name, process in self.deployment.processes.items():
            self._attach_log(name, process)
        self.run_id = uuid.uuid4().hex[:8]

    def _attach_log(self, name, process):
        start = process.log_size()
        self.addDetail(name, content.Content(
            content.UTF8_TEXT, lambda: [process.log_text(start).encode()]))

    def unique(self, name):
        """``name`` made unique for this test (segments, hosts)."""
        return '%s-%s' % (name, self.run_id)

    # --- helpers shared by the scenarios ----------------------------------

    def post_notification(self, type, hostname, payload, offset=0):
        """POST a notification that must be accepted; returns it (and
        keeps the request id the API answered in ``self.request_id``).
        """
        response = self.api.post_notification(
            type, hostname, payload, generated_time(offset))
        self.assertEqual(202, response.status_code, response.text)
        self.request_id = response.headers['x-openstack-request-id']
        notification = response.json()['notification']
        self.assertEqual('new', notification['status'])
        return notification

    def assert_events(self, expected, timeout=20):
        """Wait until the bus carried ``expected`` (event_type, publisher
        prefix) pairs, in this order and nothing else; returns the
        notifications.
        """
        received = self.bus.wait_for(
            lambda received: len(received) >= len(expected), timeout)
        self.assertEqual(
            expected,
            [(message['event_type'],
              message['publisher_id'].split(':')[0] + ':')
             for message in received])
        return received

    @staticmethod
    def payload(message):
        """The ``masakari_object.data`` of a versioned notification."""
        return message['payload']['masakari_object.data']
