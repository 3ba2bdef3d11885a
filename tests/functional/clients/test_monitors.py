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

"""Notifications sent the way masakari-monitors sends them.

The exact payloads of the host, instance, introspective and process
monitors, with generated_time as a naive UTC isoformat() and no
microversion, are accepted; 400 and 409 answers end a send, other failures
are retried.
"""

import datetime
import json
import logging
import re

import fixtures
from oslo_utils import uuidutils

from tests.functional.clients import base
from tests.functional.clients import monitors

RETRY_MAX = 3
RETRY_INTERVAL = 10
ISOFORMAT = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$')
INSTANCE_EVENTS = [
    ('LIFECYCLE', 'STOPPED_FAILED'), ('LIFECYCLE', 'SUSPENDED_IOERROR'),
    ('LIFECYCLE', 'SHUTDOWN_FINISHED'), ('REBOOT', 'UNKNOWN'),
    ('WATCHDOG', 'WATCHDOG_POWEROFF'), ('WATCHDOG', 'WATCHDOG_RESET'),
    ('IO_ERROR', 'IO_ERROR_PAUSE'), ('IO_ERROR_REASON', 'IO_ERROR_REPORT'),
    ('CONTROL_ERROR', 'UNKNOWN'),
    # The introspective instance monitor (QEMU guest agent).
    ('QEMU_GUEST_AGENT_ERROR', 'STOPPED_FAILED'),
]


class MonitorsTest(base.ClientsTestCase):

    def setUp(self):
        super().setUp()
        self.log = self.useFixture(fixtures.FakeLogger(
            name=monitors.__name__, level=logging.INFO))
        logger = logging.getLogger(monitors.__name__)
        self.addCleanup(setattr, logger, 'propagate', logger.propagate)
        logger.propagate = False
        segment = self.create_segment()
        self.hosts = {name: self.create_host(segment, name)
                      for name in ('compute-1', 'compute-2', 'compute-3',
                                   'compute-4')}
        self.clients_made = 0
        self.sleeps = []
        self.sender = monitors.NotificationSender(
            self._client, RETRY_MAX, RETRY_INTERVAL, self.sleeps.append)

    def _client(self):
        self.clients_made += 1
        return self.sdk().instance_ha

    def posts(self):
        return self.api.requests_to('/v1/notifications', 'POST')

    def stored(self):
        return self.rest('GET', '/notifications?sort_dir=asc',
                         200).json()['notifications']

    def assert_accepted(self, events):
        """Send each event; each is stored as sent, with the sender's
        generated_time (to the second: MariaDB keeps no fraction).
        """
        for event in events:
            self.assertIsNotNone(self.sender.send(event), event)
        sent = [event['notification'] for event in events]
        stored = self.stored()
        self.assertEqual(
            [(n['type'], self.hosts[n['hostname']]['uuid'], n['payload'])
             for n in sent],
            [(n['type'], n['source_host_uuid'], n['payload'])
             for n in stored])
        for notification, row in zip(sent, stored):
            generated = datetime.datetime.fromisoformat(
                row['generated_time'])
            self.assertLess(
                abs(generated - notification['generated_time']),
                datetime.timedelta(seconds=1))
        for post in self.posts():
            self.assertNotIn('Openstack-Api-Version', post.headers)
            self.assertRegex(
                json.loads(post.body)['notification']['generated_time'],
                ISOFORMAT)
        self.assertEqual([], self.sleeps)

    def test_host_monitor_events(self):
        self.assert_accepted([
            monitors.host_event('compute-1', online=False),
            monitors.host_event('compute-2', online=False,
                                ipmi_power_off=False),
            monitors.host_event('compute-3', online=True, driver='consul'),
            monitors.host_event('compute-4', online=False,
                                driver='kubernetes'),
        ])
        self.assertEqual(
            {'event': 'STOPPED', 'host_status': 'UNKNOWN',
             'cluster_status': 'OFFLINE'}, self.stored()[1]['payload'])
        self.assertEqual({'event': 'STOPPED', 'host_status': 'NORMAL'},
                         self.stored()[3]['payload'])

    def test_instance_monitor_events(self):
        instance = uuidutils.generate_uuid()
        self.assert_accepted([
            monitors.instance_event('compute-1', instance, event, detail)
            for event, detail in INSTANCE_EVENTS])

    def test_process_monitor_event(self):
        self.assert_accepted([
            monitors.process_event('compute-1', '/usr/bin/nova-compute')])
        self.assertEqual({'event': 'STOPPED', 'process_name': 'nova-compute'},
                         self.stored()[0]['payload'])

    def assert_final(self, event, message):
        self.assertIsNone(self.sender.send(event))
        self.assertEqual(1, len(self.posts()))
        self.assertEqual([], self.sleeps)
        self.assertIn(message, self.log.output)

    def test_a_duplicate_is_final(self):
        event = monitors.host_event('compute-1', online=False)
        self.assertIsNotNone(self.sender.send(event))
        self.api.recorder.clear()
        self.assert_final(event, 'Notification received from host compute-1 '
                                 'of type COMPUTE_HOST is duplicate.')
        self.assertEqual(1, len(self.stored()))

    def test_a_host_on_maintenance_is_final(self):
        host = self.hosts['compute-2']
        self.rest('PUT', '/segments/%s/hosts/%s' % (
            host['failover_segment_id'], host['uuid']), 200,
            json={'host': {'on_maintenance': True}})
        self.assert_final(
            monitors.process_event('compute-2', 'nova-compute'),
            "Notification received from host compute-2 of type 'PROCESS' is "
            "ignored as the host is already under maintenance.")
        self.assertEqual([], self.stored())

    def test_an_unknown_host_is_final(self):
        self.assert_final(monitors.host_event('compute-9', online=False),
                          'Host with name compute-9 could not be found.')

    def test_server_errors_are_retried(self):
        self.api.recorder.fail_next(2, 503, method='POST')
        event = monitors.process_event('compute-1', 'nova-compute')
        self.assertIsNotNone(self.sender.send(event))
        self.assertEqual(3, len(self.posts()))
        self.assertEqual([RETRY_INTERVAL] * 2, self.sleeps)
        self.assertEqual(1, len(self.stored()))
        self.assertEqual(2, self.log.output.count(
            'Retry sending a notification.'))

    def test_gives_up_after_the_last_retry_and_drops_the_client(self):
        self.api.recorder.fail_next(RETRY_MAX + 1, 500, method='POST')
        event = monitors.process_event('compute-1', 'nova-compute')
        self.assertIsNone(self.sender.send(event))
        self.assertEqual(RETRY_MAX + 1, len(self.posts()))
        self.assertEqual([RETRY_INTERVAL] * RETRY_MAX, self.sleeps)
        self.assertIn('Exception caught:', self.log.output)
        self.assertEqual([], self.stored())

        self.assertIsNotNone(self.sender.send(event))
        self.assertEqual(2, self.clients_made)

    def test_an_unreachable_api_is_retried(self):
        self.api.server.stop()
        event = monitors.process_event('compute-1', 'nova-compute')
        self.assertIsNone(self.sender.send(event))
        self.assertEqual([RETRY_INTERVAL] * RETRY_MAX, self.sleeps)
