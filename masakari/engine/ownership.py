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

"""An engine's hold on a recovery it runs: a lease with a fencing token.

With ``[takeover]/lease_timeout`` set, a peer takes a ``running``
recovery over once its ``updated_at`` stayed put for the lease while its
engine looked gone (see takeover.py). An engine that was frozen rather
than dead (a paused VM, a stall in the kernel, SIGSTOP) wakes up with
threads that still hold servers to evacuate: it must not act on the
recovery any more.

The notification's ``updated_at`` as this engine last wrote it is the
fencing token (the lease's *generation*): the claim and every renewal
write a newer one in a compare-and-set that expects the previous one, and
the takeover moves it on in the same way. So the first write of a frozen
engine after a takeover matches no row, and the engine knows it lost.

Before each step that changes the world (each Nova call, each write to
the database, each write of the taskflow records) the recovery confirms
the lease: at no cost while the last confirmation is younger than a
third of the lease, by a renewal otherwise. A peer takes over only after
watching the token unchanged for a whole lease on its own clock, so a
token confirmed less than a third of a lease ago still holds. This
engine's clock is monotonic and runs on while the process is stopped: a
thawed engine always renews, and learns it lost, before its next step.

A write to the database also holds the token's row in its own
transaction (``fence``), so that a takeover cannot commit between the
confirmation and the write: an engine frozen in between has its write
land before the takeover, which then sees it.
"""

import threading
import time

from oslo_db import exception as db_exception
from oslo_log import log as logging

from masakari import context as masakari_context
from masakari.db import api as db
from masakari import exception
from masakari import objects

LOG = logging.getLogger(__name__)


class Lease:
    """This engine's lease on the recovery of one notification.

    :param notification: the Notification, ``running`` as this engine
        just claimed or took it over (its ``updated_at`` is the first
        generation).
    :param timeout: ``[takeover]/lease_timeout`` in seconds.
    """

    def __init__(self, notification, timeout, clock=time.monotonic):
        self.notification_uuid = notification.notification_uuid
        self.generation = notification.updated_at
        self._timeout = timeout
        self._clock = clock
        self._confirmed_at = clock()
        self._context = masakari_context.get_admin_context()
        self._lock = threading.Lock()
        self.lost = False

    def confirm(self):
        """Return when the lease holds; renew it when its last
        confirmation is a third of a lease old.

        :raises: RecoveryLost when another engine holds the recovery.
        """
        with self._lock:
            if (not self.lost and
                    self._clock() - self._confirmed_at < self._timeout / 3.0):
                return
            self._renew()
            if self.lost:
                raise exception.RecoveryLost(self.notification_uuid)

    def renew(self):
        """Renew now (the watch's round). :returns: False when lost."""
        with self._lock:
            self._renew()
            return not self.lost

    def save(self, notification):
        """Write the notification's changes fenced by the lease (the
        recovery's own writes of its row: a hold, its end).

        :raises: RecoveryLost when another engine holds the recovery.
        """
        with self._lock:
            if not self.lost:
                started = self._clock()
                if notification.save_if_held(self._context, self.generation):
                    self._held(notification.updated_at, started)
                else:
                    self._lose()
            if self.lost:
                raise exception.RecoveryLost(self.notification_uuid)

    def fence(self, context):
        """Within a write transaction of the recovery (``context``'s):
        hold the fencing token until the transaction ends, so that no
        takeover commits in its middle.

        :raises: DBDeadlock when the token moved on, so that the
            transaction runs again after a confirmation that goes to the
            database (this engine's own renewal may have moved it; a
            takeover makes the confirmation raise RecoveryLost).
        """
        if db.notification_fence(context, self.notification_uuid,
                                 self.generation):
            return
        # NOTE: without the lock: a renewal holding it may be waiting for
        # the row this transaction holds until it is rolled back.
        self._confirmed_at = float('-inf')
        raise db_exception.DBDeadlock()

    def _renew(self):
        if self.lost:
            return
        started = self._clock()
        stamp = objects.Notification(context=self._context,
                                     notification_uuid=self.notification_uuid)
        if stamp.take_over(self.generation):
            self._held(stamp.updated_at, started)
        else:
            self._lose()

    def _held(self, generation, since):
        self.generation = generation
        self._confirmed_at = since

    def _lose(self):
        self.lost = True
        LOG.warning('Notification %s: another engine took this recovery '
                    'over while this engine was silent past its lease; '
                    'stopping it here without further action.',
                    self.notification_uuid)
