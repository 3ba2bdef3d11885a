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

"""The engine's watch over work no engine is doing (see takeover.py).

Each round, in the engine's background loop: renew the lease of every
recovery this engine runs (ownership.Lease); take over ``running``
recoveries whose lease stayed put for ``[takeover]/lease_timeout``
seconds while their engine is not a live member (or is this engine host,
whose previous process died), except those held by the mass-failure
brake;
process ``new`` notifications nobody picked up within
``[takeover]/new_notification_age`` seconds.
"""

import collections
import contextlib
import threading

from oslo_log import log as logging
from oslo_utils import timeutils

import masakari.conf
from masakari import context as masakari_context
from masakari.engine import brake
from masakari.engine import evacuation_budget
from masakari.engine import membership
from masakari.engine import takeover
from masakari import objects
from masakari.objects import fields

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

Status = fields.NotificationStatus


class RecoveryWatch:
    """The watch of one engine.

    :param driver: the notification driver (tells who ran a recovery).
    :param resume: ``resume(context, notification, note)``, run on a
        worker thread for each recovery this engine took over.
    :param process_new: ``process_new(context, notification)``, run on a
        worker thread for each lost ``new`` notification.
    """

    def __init__(self, driver, resume, process_new):
        self.driver = driver
        self.resume = resume
        self.process_new = process_new
        self.lease = CONF.takeover.lease_timeout
        self.new_age = CONF.takeover.new_notification_age
        self.interval = takeover.watch_interval(self.lease, self.new_age)
        self.members = membership.for_config(CONF)
        self.observations = takeover.Observations()
        # NOTE: counts, since a worker and the processing it runs both
        # mark the same notification.
        self._active = collections.Counter()
        # notification uuid -> the lease of its recovery run here.
        self._leases = {}
        self._lock = threading.Lock()
        self._workers = []
        self._joined = False

    # --- what this engine runs ----------------------------------------------

    @contextlib.contextmanager
    def running(self, notification_uuid):
        """Mark a notification as run by this process while in the block.
        """
        self._mark(notification_uuid, 1)
        try:
            yield
        finally:
            self._mark(notification_uuid, -1)

    @contextlib.contextmanager
    def renewing(self, lease):
        """Renew ``lease`` (an ownership.Lease; None: nothing to renew)
        at each watch round while in the block.
        """
        if lease is None:
            yield
            return
        uuid = lease.notification_uuid
        with self._lock:
            self._leases[uuid] = lease
        try:
            yield
        finally:
            with self._lock:
                if self._leases.get(uuid) is lease:
                    del self._leases[uuid]

    def _mark(self, notification_uuid, count):
        with self._lock:
            self._active[notification_uuid] += count
            if self._active[notification_uuid] <= 0:
                del self._active[notification_uuid]

    def _is_active(self, notification_uuid):
        with self._lock:
            return self._active[notification_uuid] > 0

    def _spawn(self, notification_uuid, function, *args):
        def run():
            try:
                function(*args)
            finally:
                self._mark(notification_uuid, -1)
        worker = threading.Thread(target=run, daemon=True,
                                  name='takeover-%s' % notification_uuid)
        self._mark(notification_uuid, 1)
        with self._lock:
            self._workers = [alive for alive in self._workers
                             if alive.is_alive()] + [worker]
        worker.start()

    def wait(self, timeout=None):
        """Join the worker threads started so far (tests, stop)."""
        with self._lock:
            workers = list(self._workers)
        for worker in workers:
            worker.join(timeout)

    # --- the watch ----------------------------------------------------------

    def start(self):
        """Join the membership (with takeover on); the background loop
        then runs ``watch_round`` every ``interval`` seconds (None: both
        the takeover and the sweep are off).
        """
        if not self.lease:
            return
        self._joined = True
        try:
            self.members.start()
        except Exception:
            LOG.exception('Could not join the engine group; retried at '
                          'the next watch round.')

    def stop(self):
        """Leave the membership."""
        if self._joined:
            self._joined = False
            self.members.stop()

    def watch_round(self):
        """One look at the database (see the module docstring).

        :raises: whatever the database or the membership backend raise;
            what was observed so far is then forgotten.
        """
        context = masakari_context.get_admin_context()
        try:
            keys = []
            if self.lease:
                self.members.refresh()
                evacuation_budget.engines_in_group(self.members.count())
                self._renew()
                keys += self._look_for_orphans(context)
            if self.new_age:
                keys += self._look_for_lost_casts(context)
            self.observations.keep(keys)
        except Exception:
            self.observations.clear()
            raise

    def _renew(self):
        with self._lock:
            leases = list(self._leases.values())
        for lease in leases:
            # NOTE: a lost lease stops its recovery at the next step.
            lease.renew()

    def _not_run_here(self, context, status):
        """The notifications in ``status`` this process does not run."""
        return [notification for notification in
                objects.NotificationList.get_all(
                    context, filters={'status': status})
                if not self._is_active(notification.notification_uuid)]

    def _look_for_orphans(self, context):
        keys = []
        for notification in self._not_run_here(context, Status.RUNNING):
            if brake.is_held(notification):
                # NOTE: no engine runs a held recovery: the brake's check
                # resumes it, or an operator releases it.
                continue
            uuid = notification.notification_uuid
            owner = self.driver.run_owner(context, uuid)
            if owner is None:
                # NOTE: a run this engine cannot judge (recorded by
                # Masakari 22.0.0 or a driver that does not tell).
                continue
            key = ('running', uuid)
            keys.append(key)
            quiet = self.observations.unchanged_for(
                key, (notification.updated_at, owner))
            if self._orphaned(owner, quiet):
                self._take_over(context, notification, owner)
        return keys

    def _orphaned(self, owner, quiet):
        if owner == CONF.host:
            # NOTE: this engine host's run, not run by this process: its
            # previous process died. Two rounds let an engine that has just
            # claimed the notification record itself as the new owner.
            return quiet >= 2 * self.interval
        return quiet >= self.lease and not self.members.alive(owner)

    def _take_over(self, context, notification, owner):
        observed = notification.updated_at
        uuid = notification.notification_uuid
        with self.running(uuid):
            if not notification.take_over(observed):
                return
            note = {'from_engine': owner or None, 'by_engine': CONF.host,
                    'at': timeutils.utcnow().isoformat()}
            self._spawn(uuid, takeover.run_noted, note, self.resume,
                        context, notification, note)
        LOG.warning('Notification %(uuid)s: %(note)s.',
                    {'uuid': uuid, 'note': takeover.describe(note)})

    def _look_for_lost_casts(self, context):
        keys = []
        for notification in self._not_run_here(context, Status.NEW):
            uuid = notification.notification_uuid
            key = ('new', uuid)
            keys.append(key)
            if self.observations.unchanged_for(key, Status.NEW) >= (
                    self.new_age):
                LOG.warning('Notification %s stayed new for %s seconds: '
                            'processing it (its message never reached an '
                            'engine).', uuid, self.new_age)
                self._spawn(uuid, self.process_new, context, notification)
        return keys
