"""Two masakari-api processes with [coordination]/backend_url on Redis
receive the same host-down notification at once: the distributed lock
serialises them, so exactly one is accepted.
"""

import threading
import time

from tooz import coordination

from tests.e2e import base
from tests.e2e import clients
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
        lock = member.get_lock(
            ('masakari-create_host_notification-%s' % host).encode())
        self.assertTrue(lock.acquire(blocking=False))
        return lock

    def test_one_of_two_concurrent_notifications_is_accepted(self):
        # NOTE: a host name of its own: the lock lives in a shared Redis.
        host = self.unique('co-host')
        self.simulator.call('POST', '/hosts', {'name': host})
        segment = self.api.create_segment(self.unique('co'), 'auto',
                                          enabled=False)
        created = self.api.create_host(segment['uuid'], host)

        lock = self._hold_lock(host)
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
        time.sleep(1)
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
