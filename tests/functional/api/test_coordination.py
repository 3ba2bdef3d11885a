"""The host-notification lock on a real tooz backend (Redis), 01 §10.7.

A reference API process names the lock the same way, so a lock held
elsewhere must hold back a COMPUTE_HOST notification for that host.
"""

import os
import threading
import uuid

import testtools
from tooz import coordination as tooz_coordination
import webob

from masakari import coordination
from tests.fixtures import api as api_fixture

REDIS_URL = os.environ.get('MASAKARI_TEST_REDIS_URL',
                           'redis://127.0.0.1:6379')
NOTIFICATION = {'notification': {
    'type': 'COMPUTE_HOST', 'hostname': 'compute-1',
    'generated_time': '2026-12-02T10:00:00Z',
    'payload': {'event': 'STOPPED', 'host_status': 'NORMAL'}}}


class TestHostNotificationLock(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(api_fixture.APIFixture())
        self.api.conf.set_override('backend_url', REDIS_URL,
                                   group='coordination')
        self.addCleanup(coordination.COORDINATOR.stop)
        self.post('/v1/segments', {'segment': {
            'name': 's', 'recovery_method': 'auto',
            'service_type': 'COMPUTE'}})
        segment = self.get('/v1/segments')['segments'][0]['uuid']
        self.post('/v1/segments/%s/hosts' % segment, {'host': {
            'name': 'compute-1', 'type': 'COMPUTE',
            'control_attributes': 'SSH'}})

    def post(self, path, body):
        req = webob.Request.blank(path, method='POST', json=body)
        return req.get_response(self.api.app)

    def get(self, path):
        return webob.Request.blank(path).get_response(self.api.app).json

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
                self.post('/v1/notifications', NOTIFICATION).status_int))
        request.start()
        request.join(1.0)
        self.assertEqual([], answers)
        lock.release()
        request.join(30)
        self.assertEqual([202], answers)
