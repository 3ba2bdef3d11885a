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

"""The host-notification lock on a real tooz backend (Redis).

A reference API process names the lock the same way, so a lock held
elsewhere must hold back a COMPUTE_HOST notification for that host.
"""

import os
import threading
import uuid

import testtools
from tooz import coordination as tooz_coordination

from masakari import coordination
from tests.fixtures import api as api_fixture

REDIS_URL = os.environ.get('MASAKARI_TEST_REDIS_URL',
                           'redis://127.0.0.1:6379')


class TestHostNotificationLock(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(api_fixture.APIFixture())
        self.api.conf.set_override('backend_url', REDIS_URL,
                                   group='coordination')
        self.addCleanup(coordination.COORDINATOR.stop)
        self.api.create_segment_and_host()

    def test_waits_for_the_lock_held_by_another_member(self):
        other = tooz_coordination.get_coordinator(
            REDIS_URL, ('test-%s' % uuid.uuid4()).encode())
        other.start()
        self.addCleanup(other.stop)
        lock = other.get_lock(b'masakari-create_host_notification-compute-1')
        self.assertTrue(lock.acquire())
        answers = []
        request = threading.Thread(
            target=lambda: answers.append(
                self.api.request('POST', '/v1/notifications',
                                 api_fixture.HOST_FAILURE).status_int))
        request.start()
        request.join(1.0)
        self.assertEqual([], answers)
        lock.release()
        request.join(30)
        self.assertEqual([202], answers)
