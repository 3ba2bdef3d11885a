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

"""A broker that is down costs seconds, not a hang (every call to the
bus has a timeout).

The reference retried for ever: POST /v1/notifications (its
notifications and its cast) and the 1.1 read-back hung while RabbitMQ
was down. Two ways down are checked: a transport URL whose port is
closed (never reachable), and the real RabbitMQ reached through a relay
that the test takes away (the connections Masakari made are cut).
"""

import json
import socket
import subprocess
import sys
import textwrap
import threading
import time
from urllib import parse

import fixtures
import oslo_messaging as messaging
import testtools
from testtools import content
import webob

from masakari.engine import rpcapi
from masakari import objects
from masakari import rpc
from tests.fixtures import api as api_fixture
from tests.functional.rpc import base
from tests.functional.rpc import broker_proxy
from tests.functional.rpc import test_rpc

objects.register_all()

# NOTE: generous: the retry bounds give about 1-3 s per message on this
# machine; the reference never returned.
BOUND = 15

FIRST_CALL_SCRIPT = textwrap.dedent('''
    import json, sys, time
    from masakari import config, context, objects
    from masakari.engine import rpcapi
    objects.register_all()
    config.parse_args(['probe', '--config-file', sys.argv[1]],
                      configure_db=False)
    rpcapi.CALL_DEADLINE_MARGIN = 2
    notification = objects.Notification(
        id=1, notification_uuid='7882ccb9-ebb1-43b3-848b-f2333ae4b79c')
    started = time.monotonic()
    try:
        rpcapi.EngineAPI().get_notification_recovery_workflow_details(
            context.get_admin_context(), notification)
        error = None
    except Exception as failure:
        error = type(failure).__name__
    print(json.dumps({'error': error,
                      'seconds': time.monotonic() - started}))
''')


def closed_port_url():
    """A RabbitMQ transport URL whose port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        port = probe.getsockname()[1]
    return 'rabbit://guest:guest@127.0.0.1:%d/' % port


def finishes_within(test, what, function, *args):
    """``function(*args)``'s result (or exception), failing ``test`` when
    it takes BOUND seconds or more; the time is kept as a detail.

    NOTE: in a thread, so that a regression fails instead of hanging the
    test run (the thread is then left behind).
    """
    outcome = {}

    def run():
        try:
            outcome['result'] = function(*args)
        except Exception as error:
            outcome['error'] = error

    started = time.monotonic()
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(BOUND)
    seconds = time.monotonic() - started
    test.addDetail(what, content.text_content('%.2f s' % seconds))
    if worker.is_alive():
        test.fail('%s: still waiting after %s s' % (what, BOUND))
    if 'error' in outcome:
        raise outcome['error']
    return outcome.get('result')


class BrokerGoneTestCase(test_rpc.EngineRPCTestCase):
    """Connected to RabbitMQ through a relay, which then goes away."""

    def setUp(self):
        broker = parse.urlsplit(base.rabbit_url())
        self.proxy = broker_proxy.BrokerProxy(
            (broker.hostname, broker.port or 5672))
        self.proxy.setUp()
        self.addCleanup(self.proxy.cleanUp)
        super().setUp()

    def transport_url(self):
        return self.proxy.url(base.rabbit_url())

    def test_cast_fails_within_seconds(self):
        engine = self.start_engine()
        self.engine_api.process_notification(self.ctxt, self.notification)
        engine.received.get(timeout=30)

        self.proxy.stop()
        self.assertRaises(messaging.MessageDeliveryFailure, finishes_within,
                          self, 'cast with the broker gone',
                          self.engine_api.process_notification, self.ctxt,
                          self.notification)

    def test_call_fails_within_seconds(self):
        self.start_engine()
        self.engine_api.get_notification_recovery_workflow_details(
            self.ctxt, self.notification)

        self.proxy.stop()
        self.assertRaises(
            messaging.MessageDeliveryFailure, finishes_within, self,
            'call with the broker gone',
            self.engine_api.get_notification_recovery_workflow_details,
            self.ctxt, self.notification)

    def test_calls_during_an_outage_leave_no_growth_in_threads(self):
        # 22.0.0 hangs; earlier versions of this API left one thread per
        # call behind. The process's first call finds the broker gone: its
        # reply queue cannot be made, and every call waits at most the
        # deadline, on a pool of rpcapi.CALL_WORKERS threads.
        self.conf.config(rpc_response_timeout=1)
        self.useFixture(fixtures.MockPatchObject(
            rpcapi, 'CALL_DEADLINE_MARGIN', 0))
        self.proxy.cut()
        self.addCleanup(self.proxy.restore)

        def calls(count):
            for _call in range(count):
                self.assertRaises(
                    messaging.MessagingTimeout,
                    self.engine_api.get_notification_recovery_workflow_details,
                    self.ctxt, self.notification)

        finishes_within(self, 'the first 20 calls', calls, 20)
        threads = threading.active_count()
        finishes_within(self, '180 more calls', calls, 180)
        self.assertEqual(threads, threading.active_count())

    def test_notification_is_dropped_within_seconds(self):
        notifier = rpc.get_versioned_notifier('masakari-api:test')
        notifier.info(self.ctxt, 'notification.create.start', {})

        self.proxy.stop()
        # oslo.messaging logs the failure and drops the notification.
        finishes_within(self, 'notification with the broker gone',
                        notifier.info, self.ctxt,
                        'notification.create.start', {})


class FirstCallTestCase(testtools.TestCase):
    """A process's first call, with the broker unreachable: oslo makes its
    reply queue first and retries that for ever. Run in a child process,
    which takes the retrying thread with it when it exits.
    """

    def test_first_call_gives_up_after_the_timeout(self):
        config = self.useFixture(fixtures.TempDir()).join(
            'masakari.conf')
        with open(config, 'w') as conf_file:
            conf_file.write('[DEFAULT]\ntransport_url = %s\n'
                            'rpc_response_timeout = 1\n' % closed_port_url())
        probe = subprocess.run(
            [sys.executable, '-c', FIRST_CALL_SCRIPT, config],
            capture_output=True, text=True, timeout=60)
        self.addDetail('stderr', content.text_content(probe.stderr))
        outcome = json.loads(probe.stdout.splitlines()[-1])
        self.assertEqual('MessagingTimeout', outcome['error'])
        # rpc_response_timeout + CALL_DEADLINE_MARGIN (2 in the probe)
        self.assertLess(outcome['seconds'], 6)


class ClosedPortAPITestCase(testtools.TestCase):
    """POST /v1/notifications with [DEFAULT]/transport_url on a closed
    port and [takeover]/new_notification_age = 0: 500 within seconds,
    nothing left behind (masakari/ha/api.py drops the row when the cast
    fails).
    """

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(api_fixture.APIFixture())
        # NOTE: the row is dropped only without the sweep of lost casts
        # (by default the stored notification is answered 202).
        self.api.conf.set_override('new_notification_age', 0,
                                   group='takeover')
        segment = self.request('POST', '/v1/segments', {'segment': {
            'name': 'segment-1', 'recovery_method': 'auto',
            'service_type': 'COMPUTE'}}).json['segment']
        self.request('POST', '/v1/segments/%s/hosts' % segment['uuid'],
                     {'host': {'name': 'compute-1', 'type': 'COMPUTE',
                               'control_attributes': 'SSH'}})
        # NOTE: the API process's transports, re-made on the closed port,
        # with notifications published on it too (RPCFixture's clean-up
        # closes them).
        conf = self.api.conf
        conf.set_override('transport_url', closed_port_url())
        conf.set_override('driver', ['messagingv2'],
                          group='oslo_messaging_notifications')
        rpc.cleanup()
        rpc.init(conf)

    def request(self, method, path, body=None):
        req = webob.Request.blank(path, method=method, headers={
            'Content-Type': 'application/json'})
        if body is not None:
            req.body = json.dumps(body).encode()
        return req.get_response(self.api.app)

    def test_post_answers_500_within_seconds(self):
        response = finishes_within(
            self, 'POST /v1/notifications, broker unreachable', self.request,
            'POST', '/v1/notifications', {'notification': {
                'type': 'COMPUTE_HOST', 'hostname': 'compute-1',
                'generated_time': '2026-10-28T10:00:00',
                'payload': {'event': 'STOPPED', 'host_status': 'NORMAL',
                            'cluster_status': 'OFFLINE'}}})

        self.assertEqual(500, response.status_int)
        # NOTE: no connection was ever made: the RabbitMQ driver raises
        # kombu's connection error (MessageDeliveryFailure when a made
        # connection is lost).
        self.assertIn('kombu.exceptions.OperationalError',
                      response.json['masakariFault']['message'])
        self.assertEqual(
            [], self.request('GET', '/v1/notifications').json[
                'notifications'])
        self.assertEqual([], self.api.engine.processed)
