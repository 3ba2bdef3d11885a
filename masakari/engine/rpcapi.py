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

"""Client side of the masakari-engine RPC API, used by masakari-api."""

import functools
import queue
import threading

from oslo_config import cfg
import oslo_messaging as messaging

from masakari.objects import base as objects_base
from masakari import rpc

CONF = cfg.CONF

# Seconds a call may take beyond [DEFAULT]/rpc_response_timeout (sending
# it, with its reconnections) before the caller gives up on it.
CALL_DEADLINE_MARGIN = 10
# Calls that may be under way at once in a process; one more is refused
# at once (MessagingTimeout) rather than queued behind a dead broker.
CALL_WORKERS = 8


class EngineAPI(object):
    """Client side of the engine RPC API.

    The engine consumes the topic [DEFAULT]/masakari_topic (``ha_engine``)
    on the control exchange; no server is addressed, so any engine takes
    the message. There is no version cap: objects always travel at their
    current version (Notification 1.3).

    API version history:

    | 1.0 - Initial version: process_notification.
    | 1.1 - Added get_notification_recovery_workflow_details, to read the
    |       progress of the recovery tasks from the notification driver.
    """

    # NOTE: the engine's endpoint target carries the same version; bump
    # both together and add a line to the history above.
    RPC_API_VERSION = '1.1'

    # NOTE: how many times a message is sent again (each time after a
    # reconnection, [oslo_messaging_rabbit]/rabbit_retry_* apart) before
    # the caller gets the error: the reference retried for ever, so a
    # POST /v1/notifications hung while the broker was down.
    PUBLISH_RETRIES = 1

    def _client(self, version):
        # NOTE: the topic is read at call time so that a test or a reload
        # of the configuration takes effect (the reference reads it once,
        # at import).
        return _prepared_client(rpc.TRANSPORT, CONF.masakari_topic, version)

    def process_notification(self, context, notification):
        """Ask an engine to process a notification (cast, no reply).

        :param context: the request context, sent with the message.
        :param notification: the Notification as stored (13 fields, no
            change list).
        :raises: oslo_messaging.MessageDeliveryFailure (or the transport's
            connection error) when the broker cannot be reached within
            PUBLISH_RETRIES reconnections.
        """
        cctxt = self._client('1.0')
        cctxt.cast(context, 'process_notification',
                   notification=notification)

    def get_notification_recovery_workflow_details(self, context,
                                                   notification):
        """Ask an engine for the progress of a notification's recovery.

        Waits [DEFAULT]/rpc_response_timeout seconds for the reply (and
        CALL_DEADLINE_MARGIN more at most, when the message cannot be
        sent).

        :param context: the request context, sent with the message.
        :param notification: the Notification as stored.
        :returns: the Notification with ``recovery_workflow_details`` set
            (a list of NotificationProgressDetails).
        :raises: MasakariException (rebuilt from the engine's failure
            reply), oslo_messaging.MessagingTimeout,
            oslo_messaging.MessageDeliveryFailure.
        """
        cctxt = self._client('1.1')
        return _within(CONF.rpc_response_timeout + CALL_DEADLINE_MARGIN,
                       cctxt.call, context,
                       'get_notification_recovery_workflow_details',
                       notification=notification)


@functools.lru_cache(maxsize=8)
def _prepared_client(transport, topic, version):
    """The engine's RPC client for ``version``, made once per transport
    (``transport`` is rpc's current one, keying the cache) and topic.

    A prepared client holds no per-call state, so every request of the
    process shares it; building it is a noticeable part of a cast.
    """
    target = messaging.Target(topic=topic, version=EngineAPI.RPC_API_VERSION)
    client = rpc.get_client(
        target, serializer=objects_base.MasakariObjectSerializer())
    return client.prepare(version=version, retry=EngineAPI.PUBLISH_RETRIES)


class _BoundedCalls:
    """One pool of at most CALL_WORKERS threads for every call of the
    process.

    NOTE: oslo.messaging makes a process's reply queue on its first call
    and retries that for ever while the broker is down, so a call cannot
    be bounded by its own timeout alone: it runs on this pool, and the
    caller stops waiting after the deadline. A call that outlives its
    caller keeps its worker until the broker is back; with every worker
    taken, a further call is refused at once. The thread count stays
    bounded whatever the outage lasts.

    NOTE: a plain queue and daemon threads, because the executors do not
    fit: futurist's ThreadPoolExecutor (and concurrent.futures') joins
    every worker when the interpreter exits, so a call stuck on an
    unreachable broker would keep the API process from ever exiting; and
    concurrent.futures' queue blocks a monkey-patched process.
    """

    def __init__(self, workers):
        self._size = workers
        self._slots = threading.BoundedSemaphore(workers)
        self._jobs = queue.Queue()
        self._workers = []
        self._lock = threading.Lock()

    def _work(self):
        while True:
            call, args, kwargs, outcome, done = self._jobs.get()
            try:
                outcome['result'] = call(*args, **kwargs)
            except Exception as error:
                outcome['error'] = error
            finally:
                self._slots.release()
                done.set()

    def _start_workers(self):
        with self._lock:
            while len(self._workers) < self._size:
                worker = threading.Thread(target=self._work, daemon=True,
                                          name='engine-rpc-call')
                worker.start()
                self._workers.append(worker)

    def run(self, seconds, call, *args, **kwargs):
        """``call(*args, **kwargs)``, given up (MessagingTimeout) after
        ``seconds``, or at once when every worker is taken.
        """
        if not self._slots.acquire(blocking=False):
            raise messaging.MessagingTimeout(
                'No answer from masakari-engine: %d earlier calls are still '
                'waiting (is the message bus reachable?)' % self._size)
        self._start_workers()
        outcome, done = {}, threading.Event()
        self._jobs.put((call, args, kwargs, outcome, done))
        if not done.wait(seconds):
            raise messaging.MessagingTimeout(
                'No answer from masakari-engine within %s seconds (is the '
                'message bus reachable?)' % seconds)
        if 'error' in outcome:
            raise outcome['error']
        return outcome['result']


_CALLS = _BoundedCalls(CALL_WORKERS)


def _within(seconds, call, *args, **kwargs):
    """``call(*args, **kwargs)`` on the shared pool, bounded in time."""
    return _CALLS.run(seconds, call, *args, **kwargs)
