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

"""MasakariManager: the engine's RPC endpoint and periodic tasks.

It receives notifications from masakari-api (``process_notification``,
a cast), moves them through their statuses (new -> running -> finished,
ignored or error), hands the recovery to the notification driver and
answers the progress read-back of API 1.1. Periodic tasks re-drive
notifications a lost message or a failure left behind, and expire old
ones (doc/source/admin/periodic-tasks.rst). The background loop
(engine/background.py) runs whether periodic tasks do or not: the
takeover watch (engine/watch.py) resumes recoveries a dead engine left
``running`` and processes notifications whose cast was lost; the
extensions' checks resume what the mass-failure brake lets through and
return fenced hosts to service.
"""

import contextlib
import threading

from oslo_concurrency import lockutils
from oslo_db import exception as db_exception
from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_service import periodic_task
from oslo_utils import timeutils
import tenacity

from masakari.compute import nova
import masakari.conf
from masakari import context as masakari_context
from masakari.engine import background
from masakari.engine import brake
from masakari.engine import claims
from masakari.engine import driver
from masakari.engine import notification_handlers
from masakari.engine import ownership
from masakari.engine import records
from masakari.engine import recovery_report
from masakari.engine import rpcapi
from masakari.engine import watch
from masakari import exception
from masakari.i18n import _
from masakari import manager
from masakari.notifications import api as notifications
from masakari import objects
from masakari.objects import fields

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

Status = fields.NotificationStatus
SEGMENT_DISABLED_MESSAGE = 'Recovery aboart: the segment HA is disabled.'
INTERRUPTED_MESSAGE = ('Failed reason: the engine stopped during the '
                       'evacuation.')
# How long the end of a recovery is retried while the database cannot be
# reached (seconds), and the longest pause between two tries.
END_RECORD_PATIENCE = 600
END_RECORD_MAX_PAUSE = 5


def _is_older_than(notification, seconds):
    return timeutils.is_older_than(notification.generated_time, seconds)


def _database_slots():
    """What the database steps of a notification's processing hold: one
    of ``[database]/max_pool_size`` slots (none to hold when the pool is
    unbounded).

    NOTE: the RPC server runs many notifications at once (up to
    ``[DEFAULT]/executor_thread_pool_size``); past the pool's size, each
    of their transactions would open a connection of its own and close it
    again, and opening one costs far more than the transaction. The pool's
    own bounds do not fit: ``[database]/max_overflow`` and
    ``pool_timeout`` are the operator's, with oslo.db's defaults, and they
    bound every transaction of the process, so that with no overflow the
    recovery flows' reads and writes would fail after ``pool_timeout``
    instead of waiting, while these steps only queue behind each other.
    """
    size = CONF.database.max_pool_size
    if not size or size < 0:
        return contextlib.nullcontext()
    return threading.BoundedSemaphore(size)


def _unlock_after_interruption(context, novaclient, instance_uuid):
    """Best effort: unlock a server whose evacuation an engine stop cut
    short, since nobody else ever will.

    NOTE: only servers of ``ongoing`` moves: the evacuation locked them
    (unless they already were, which the row does not record); a
    ``pending`` move's server was not locked by Masakari.
    """
    try:
        novaclient.unlock_server(context, instance_uuid)
    except Exception as error:
        LOG.warning('Could not unlock instance %(uuid)s after the '
                    'interrupted evacuation: %(error)s',
                    {'uuid': instance_uuid, 'error': error})
        return
    LOG.info('Unlocked instance %s: its evacuation was interrupted by the '
             'stop of this engine.', instance_uuid)


class MasakariManager(manager.Manager):
    """Processes notifications and reads their recovery progress."""

    target = messaging.Target(version=rpcapi.EngineAPI.RPC_API_VERSION)

    def __init__(self, masakari_driver=None, *args, **kwargs):
        """Load the notification driver (may exit, see driver loading)."""
        super().__init__(service_name='engine', *args, **kwargs)
        self.driver = driver.load_masakari_driver(masakari_driver)
        self.set_periodic_spacing({
            '_process_unfinished_notifications':
                CONF.process_unfinished_notifications_interval,
            '_check_expired_notifications':
                CONF.check_expired_notifications_interval,
        })
        self._host_initialised = False
        self._database_step = _database_slots()
        self.watch = watch.RecoveryWatch(self.driver, self._resume,
                                         self._process_lost_cast)
        # NOTE: extensions' checks are off (None) unless configured.
        self.background = background.Loop([
            ('takeover_watch', self.watch.watch_round, self.watch.interval),
            ('resume_held_notifications', self._resume_held_notifications,
             CONF.host_failure.held_notifications_check_interval
             if brake.enabled() else None),
            ('return_fenced_hosts', self._return_fenced_hosts,
             CONF.fencing.return_to_service_interval
             if CONF.fencing.return_to_service else None),
        ])

    # --- RPC API ------------------------------------------------------------
    # NOTE: only the methods marked with messaging.expose are callable over
    # RPC (the reference let a client call any public method, e.g.
    # init_host or periodic_tasks).

    @messaging.expose
    @messaging.expected_exceptions(exception.HostNotFound,
                                   exception.FailoverSegmentDisabled)
    def process_notification(self, context, notification=None):
        """Process a new notification (RPC 1.0, cast).

        :param notification: the Notification, status ``new``.
        :raises: HostNotFound when its source host is gone (it stays
            ``new`` for the periodic retry); FailoverSegmentDisabled when
            the host's segment is disabled (it becomes ``ignored``).
        """
        with self._database_step:
            host = objects.Host.get_by_uuid(context,
                                            notification.source_host_uuid)
        if not host.failover_segment.enabled:
            self._ignore_for_disabled_segment(notification)
            raise exception.FailoverSegmentDisabled(
                _('Notification %(notification_uuid)s of type: %(type)s is '
                  'ignored, because the failover segment is disabled.')
                % {'notification_uuid': notification.notification_uuid,
                   'type': notification.type})
        self._process_notification(context, notification)

    @messaging.expose
    @messaging.expected_exceptions(exception.MasakariException)
    def get_notification_recovery_workflow_details(self, context,
                                                   notification):
        """Attach the recovery progress to a notification (RPC 1.1, call).

        :returns: the notification with ``recovery_workflow_details`` (a
            list of NotificationProgressDetails).
        :raises: MasakariException when the progress cannot be read (e.g.
            the source host was deleted).
        """
        try:
            host = objects.Host.get_by_uuid(context,
                                            notification.source_host_uuid)
            notification.recovery_workflow_details = (
                self.driver.get_notification_recovery_workflow_details(
                    context, host.failover_segment.recovery_method,
                    notification))
        except Exception:
            message = (_('Failed to fetch notification recovery workflow '
                         'details for %s') % notification.notification_uuid)
            LOG.exception(message)
            raise exception.MasakariException(message)
        return notification

    # --- processing ---------------------------------------------------------

    def _ignore_for_disabled_segment(self, notification):
        LOG.warning('Notification %s is ignored: its failover segment is '
                    'disabled.', notification.notification_uuid)
        notification.status = Status.IGNORED
        notification.message = SEGMENT_DISABLED_MESSAGE
        with self._database_step:
            notification.save()

    def _process_notification(self, context, notification):
        notifications.notify_about_notification_update(
            context, notification,
            action=fields.EventNotificationAction.NOTIFICATION_PROCESS,
            phase=fields.EventNotificationPhase.START)
        with self.watch.running(notification.notification_uuid), \
                lockutils.lock('masakari-%s' % notification.source_host_uuid):
            LOG.info('Processing notification %(uuid)s of type: %(type)s',
                     {'uuid': notification.notification_uuid,
                      'type': notification.type})
            received = notification.status
            with self._database_step:
                started = claims.start_notification(context, notification)
            if not started:
                return
            self._recover(context, notification, received)

    def _resume(self, context, notification, note):
        """Continue a recovery taken over from a silent engine (runs on a
        worker thread of the watch, with ``note`` as the takeover note).
        """
        with lockutils.lock('masakari-%s' % notification.source_host_uuid):
            LOG.info('Resuming notification %(uuid)s of type: %(type)s',
                     {'uuid': notification.notification_uuid,
                      'type': notification.type})
            self._recover(context, notification, Status.RUNNING)

    def _process_lost_cast(self, context, notification):
        """Process a ``new`` notification no engine received."""
        if self._segment_disabled(context, notification):
            self._ignore_for_disabled_segment(notification)
        else:
            self._process_notification(context, notification)

    def _recover(self, context, notification, received):
        """Run the notification's handler and record how it ended.

        :param received: the status the notification had when this engine
            took it (``error`` counts as a retry in the metrics).
        """
        handler = recovery_report.observe(
            notification_handlers.HANDLERS[notification.type], received)
        lease = None
        if CONF.takeover.lease_timeout:
            lease = ownership.Lease(notification,
                                    CONF.takeover.lease_timeout)
            context = context.for_recovery(lease)
        try:
            with self.watch.renewing(lease):
                status = self._handle(handler, context, notification)
                LOG.info('Notification %(uuid)s exits with status: '
                         '%(status)s.',
                         {'uuid': notification.notification_uuid,
                          'status': status})
                self._record_end(context, notification, status, lease)
        except exception.RecoveryLost:
            # NOTE: the lease said so in a warning; the new owner ends it.
            return

    def _handle(self, handler, context, notification):
        """Run ``handler``: the final status of the notification."""
        try:
            return handler(context, self.driver, notification)
        except exception.RecoveryLost:
            raise
        except Exception:
            # NOTE: the reference left the notification 'running' for a
            # day; 'error' lets the periodic task retry it once.
            LOG.exception('Unexpected error while processing '
                          'notification %s',
                          notification.notification_uuid)
            return Status.ERROR

    def _record_end(self, context, notification, status, lease=None):
        """Store the final status (and close the run's unfinished vmoves),
        fenced by the recovery's ``lease`` when it has one.

        NOTE: retried while the database cannot be reached: a recovery
        that ended must not stay ``running`` because its last write hit
        an outage.
        """
        def retrying(retry_state):
            LOG.warning('Could not record the end of notification %s: '
                        'the database cannot be reached; retrying.',
                        notification.notification_uuid)

        for attempt in tenacity.Retrying(
                retry=tenacity.retry_if_exception_type(
                    db_exception.DBConnectionError),
                stop=tenacity.stop_after_delay(END_RECORD_PATIENCE),
                wait=tenacity.wait_exponential(max=END_RECORD_MAX_PAUSE),
                before_sleep=retrying, reraise=True):
            with attempt, self._database_step:
                self._close_unfinished_moves(context, notification, status)
                notification.status = status
                if lease is None:
                    notification.save()
                else:
                    lease.save(notification)

    @staticmethod
    def _close_unfinished_moves(context, notification, status):
        if notification.type != fields.NotificationType.COMPUTE_HOST:
            # NOTE: only a host recovery records vmoves.
            return
        try:
            records.close_unfinished_moves(
                context, notification.notification_uuid, status)
        except (db_exception.DBConnectionError, exception.RecoveryLost):
            raise
        except Exception:
            # NOTE: the final status matters more than the vmove records.
            LOG.exception('Could not close the unfinished vmoves of '
                          'notification %s', notification.notification_uuid)

    def _segment_disabled(self, context, notification):
        try:
            host = objects.Host.get_by_uuid(context,
                                            notification.source_host_uuid)
        except exception.HostNotFound:
            return False
        return not host.failover_segment.enabled

    def init_host(self):
        """Once, before taking messages: set the metrics' series to 0;
        with takeover off, hand the notifications this engine host was
        recovering when it stopped to the retry task (with takeover on,
        the watch resumes them).

        A failure (e.g. the database is not reachable yet) is logged and
        does not stop the engine from starting.
        """
        if self._host_initialised:
            return
        self._host_initialised = True
        recovery_report.initialise_metrics()
        if CONF.takeover.lease_timeout:
            return
        admin = masakari_context.get_admin_context()
        try:
            for notification in objects.NotificationList.get_all(
                    admin, filters={'status': Status.RUNNING}):
                self._release_if_interrupted(admin, notification)
        except Exception:
            LOG.exception('Could not look for recoveries interrupted by the '
                          'last stop of this engine.')

    def start_background(self):
        """Start the background loop (the service calls it after
        init_host, whether periodic tasks run or not).
        """
        self.watch.start()
        self.background.start()

    def stop_background(self):
        """Stop the background loop."""
        self.background.stop()
        self.watch.stop()

    def _release_if_interrupted(self, context, notification):
        uuid = notification.notification_uuid
        if brake.is_held(notification) or not self.driver.was_interrupted(
                context, uuid):
            # NOTE: a held recovery was not cut short: it waits for the
            # brake.
            return
        if not notification.transition_status(Status.RUNNING, Status.ERROR):
            return
        novaclient = nova.API()
        for move, was_ongoing in records.close_unfinished_moves(
                context, uuid, Status.ERROR, message=INTERRUPTED_MESSAGE):
            if was_ongoing:
                _unlock_after_interruption(context, novaclient,
                                           move.instance_uuid)
        LOG.warning('Notification %s was being recovered when this engine '
                    'stopped; it is set to error, to be retried.', uuid)

    # --- periodic tasks -----------------------------------------------------

    @periodic_task.periodic_task(spacing=0)
    def _process_unfinished_notifications(self, context):
        for notification in objects.NotificationList.get_all(
                context, filters={'status': [Status.ERROR, Status.NEW]}):
            try:
                self._retry(context, notification)
            except Exception:
                # NOTE: one broken notification must not hold up the others.
                LOG.exception("Periodic task 'process_unfinished_"
                              "notifications': notification %s failed.",
                              notification.notification_uuid)

    def _retry(self, context, notification):
        if (notification.status == Status.ERROR or _is_older_than(
                notification, CONF.retry_notification_new_status_interval)):
            if self._segment_disabled(context, notification):
                self._ignore_for_disabled_segment(notification)
            else:
                self._process_notification(context, notification)
        stored = objects.Notification.get_by_uuid(
            context, notification.notification_uuid)
        if stored.status == Status.ERROR:
            stored.status = Status.FAILED
            stored.save()
            LOG.error("Periodic task 'process_unfinished_notifications': "
                      "Notification %(uuid)s exits with status: %(status)s.",
                      {'uuid': stored.notification_uuid,
                       'status': Status.FAILED})

    @periodic_task.periodic_task(spacing=0)
    def _check_expired_notifications(self, context):
        for notification in objects.NotificationList.get_all(
                context, filters={'status': [Status.RUNNING, Status.ERROR,
                                             Status.NEW]}):
            if _is_older_than(notification,
                              CONF.notifications_expired_interval):
                notification.status = Status.FAILED
                notification.save()
                LOG.error("Periodic task 'check_expired_notifications': "
                          "Notification %s is expired.",
                          notification.notification_uuid)

    # --- background checks of the extensions ----------------------------

    def _resume_held_notifications(self):
        """Recover the notifications the mass-failure brake lets through."""
        context = masakari_context.get_admin_context()
        for notification in brake.resume_candidates(context):
            if brake.requeue(notification):
                LOG.info('Mass-failure brake: resuming the recovery of '
                         'notification %s.', notification.notification_uuid)
                self._process_notification(context, notification)

    def _return_fenced_hosts(self):
        """Return fenced hosts whose maintenance ended to service."""
        self.driver.return_fenced_hosts(masakari_context.get_admin_context())
