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

"""Two masakari-api processes with [coordination]/backend_url on Redis
receive the same host-down notification at once: the distributed lock
serialises them, so exactly one is accepted.
"""

import threading

import redis
from tooz import coordination

from tests.e2e import base
from tests.e2e import clients
from tests.fixtures import polling
from tests.fixtures import processes

HOST_DOWN = {'event': 'STOPPED', 'host_status': 'NORMAL',
             'cluster_status': 'OFFLINE'}


class TestTwoAPIsOnRedis(base.E2ETestCase):

    api_count = 2
    options = {'coordination': {'backend_url': processes.redis_url()}}

    def _hold_lock(self, host):
        """Take the API's lock for ``host`` from this process."""
        member = coordination.get_coordinator(
            processes.redis_url(), ('e2e-%s' % self.run_id).encode())
        member.start()
        self.addCleanup(member.stop)
        lock = member.get_lock(self._lock_name(host).encode())
        self.assertTrue(lock.acquire(blocking=False))
        return lock

    @staticmethod
    def _lock_name(host):
        return 'masakari-create_host_notification-%s' % host

    def _monitor(self):
        """Redis MONITOR on its own connection, reads bounded by 1 s."""
        client = redis.Redis.from_url(processes.redis_url(),
                                      socket_timeout=1)
        self.addCleanup(client.close)
        monitor = client.monitor()
        monitor.__enter__()
        self.addCleanup(monitor.__exit__, None, None, None)
        return monitor

    def _wait_for_lock_attempts(self, monitor, host, clients, timeout=30):
        """Until ``clients`` Redis connections tried to take the lock of
        ``host`` (its SET ... NX, which a blocked caller repeats).
        """
        seen = set()

        def attempted():
            command = monitor.next_command()
            words = command['command'].split()
            if (words[:1] == ['SET'] and 'NX' in words and
                    self._lock_name(host) in command['command']):
                seen.add((command['client_address'],
                          command['client_port']))
            return len(seen) >= clients

        polling.wait_until(attempted, timeout, interval=0,
                           ignored=redis.TimeoutError,
                           message=lambda: 'lock attempts seen: %s'
                           % sorted(seen))

    def test_one_of_two_concurrent_notifications_is_accepted(self):
        # NOTE: a host name of its own: the lock lives in a shared Redis.
        host = self.unique('co-host')
        self.simulator.call('POST', '/hosts', {'name': host})
        segment = self.api.create_segment(self.unique('co'), 'auto',
                                          enabled=False)
        created = self.api.create_host(segment['uuid'], host)

        lock = self._hold_lock(host)
        monitor = self._monitor()
        when = base.generated_time()
        answers = {}

        def post(url):
            answers[url] = clients.MasakariClient(url).post_notification(
                'COMPUTE_HOST', host, HOST_DOWN, when)
        threads = [threading.Thread(target=post, args=(url,))
                   for url in self.deployment.api_urls]
        for thread in threads:
            thread.start()
        # Both APIs wait for the lock held here.
        self._wait_for_lock_attempts(monitor, host,
                                     len(self.deployment.api_urls))
        self.assertEqual({}, answers)
        lock.release()
        for thread in threads:
            thread.join(30)

        self.assertEqual([202, 409], sorted(
            answer.status_code for answer in answers.values()))
        refused = [answer for answer in answers.values()
                   if answer.status_code == 409][0]
        self.assertEqual('Notification received from host %s of type '
                         'COMPUTE_HOST is duplicate.' % host,
                         refused.json()['conflictingRequest']['message'])
        listed = self.api.call('GET', '/notifications?source_host_uuid=%s'
                               % created['uuid'])['notifications']
        self.assertEqual(1, len(listed))
