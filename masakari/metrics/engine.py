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

"""What masakari-engine records: notifications processed, recoveries and
their phases, evacuations, the mass-failure brake, and (at each scrape)
the age of the oldest unfinished notification.

Every function does nothing unless metrics are enabled, and none raises
for a metric's sake.
"""

from oslo_utils import timeutils
from prometheus_client.core import GaugeMetricFamily

from masakari import context as masakari_context
from masakari import metrics
from masakari.metrics import families
from masakari import objects
from masakari.objects import fields

Status = fields.NotificationStatus
NotificationType = fields.NotificationType
# The recovery_method label of instance and process notifications.
NO_METHOD = 'none'
# The final statuses a processing is counted under (``running``: held by
# the mass-failure brake, which has its own gauge).
FINAL = (Status.FINISHED, Status.ERROR, Status.IGNORED)
# The statuses an evacuation ends with.
EVACUATION_RESULTS = (fields.VMoveStatus.SUCCEEDED, fields.VMoveStatus.FAILED,
                      fields.VMoveStatus.IGNORED)
# Statuses of a notification that is not done yet, reported by the
# oldest-age gauge (0 when there is none).
UNFINISHED = (Status.NEW, Status.RUNNING, Status.ERROR)


def initialise(phases_by_type):
    """Make the series of every known label value exist at 0.

    NOTE: a labelled series otherwise appears at its first event, at 1,
    and increase() over a series that starts at 1 is 0: the first
    over-budget recovery or failed evacuation after a start would not
    alert.

    :param phases_by_type: notification type -> the phases its recovery
        may go through (the engine's timeline knows them).
    """
    if not metrics.enabled():
        return
    engine = families.engine()
    for notification_type, phases in phases_by_type.items():
        engine.in_progress.labels(notification_type)
        engine.retries.labels(notification_type)
        methods = (fields.FailoverSegmentRecoveryMethod.ALL
                   if notification_type == NotificationType.COMPUTE_HOST
                   else (NO_METHOD,))
        for method in methods:
            engine.duration.labels(notification_type, method)
            for status in FINAL:
                engine.processed.labels(notification_type, method, status)
        for phase in phases:
            engine.phase.labels(notification_type, phase)
    for phase in phases_by_type.get(NotificationType.COMPUTE_HOST, ()):
        engine.over_budget.labels(phase)
    for result in EVACUATION_RESULTS:
        engine.evacuations.labels(result)


def recovery_started(notification_type, retry):
    """A notification starts being processed (``retry``: after an error)."""
    if not metrics.enabled():
        return
    engine = families.engine()
    engine.in_progress.labels(notification_type).inc()
    if retry:
        engine.retries.labels(notification_type).inc()


def recovery_ended(notification_type, recovery_method, status, seconds):
    """A notification was processed, with this final status."""
    if not metrics.enabled():
        return
    engine = families.engine()
    engine.in_progress.labels(notification_type).dec()
    engine.processed.labels(notification_type, recovery_method,
                            status).inc()
    engine.duration.labels(notification_type, recovery_method).observe(
        seconds)


def run_recorded(notification_type, run, over_budget):
    """The timeline of a processing: phase durations, evacuations by
    result, instances recovered (host recoveries) and the budget.
    """
    if not metrics.enabled():
        return
    engine = families.engine()
    for phase in run.phases:
        engine.phase.labels(notification_type, phase.name).observe(
            phase.seconds)
    for result, count in run.evacuations.items():
        engine.evacuations.labels(result).inc(count)
    if notification_type == NotificationType.COMPUTE_HOST:
        engine.instances.observe(
            run.evacuations.get(fields.VMoveStatus.SUCCEEDED, 0))
    if over_budget:
        engine.over_budget.labels(run.slowest_phase()).inc()


def brake_held():
    """The mass-failure brake holds a host notification."""
    if metrics.enabled():
        families.engine().holds.inc()


class OldestNotificationCollector:
    """``masakari_engine_oldest_notification_age_seconds{status}`` and
    ``masakari_engine_notifications_held``, read from the database at each
    scrape: they are the same for every engine, and a hold released by
    ``masakari-manage`` shows at once.

    :param is_held: whether a notification is held by the mass-failure
        brake (the engine's rule: metrics do not import the engine).
    """

    def __init__(self, is_held):
        self._is_held = is_held

    @staticmethod
    def _families():
        ages = GaugeMetricFamily(
            'masakari_engine_oldest_notification_age_seconds',
            'Seconds since the oldest notification in this status was '
            'received (0 when there is none).', labels=['status'])
        held = GaugeMetricFamily(
            'masakari_engine_notifications_held',
            'Host notifications held by the mass-failure brake now.')
        return ages, held

    def collect(self):
        ages, held = self._families()
        oldest = {}
        holds = 0
        for notification in objects.NotificationList.get_all(
                masakari_context.get_admin_context(),
                filters={'status': list(UNFINISHED)}):
            created = notification.created_at.replace(tzinfo=None)
            status = notification.status
            oldest[status] = min(oldest.get(status, created), created)
            holds += self._is_held(notification)
        now = timeutils.utcnow()
        for status in UNFINISHED:
            age = ((now - oldest[status]).total_seconds()
                   if status in oldest else 0)
            ages.add_metric([status], max(age, 0))
        held.add_metric([], holds)
        yield ages
        yield held

    def describe(self):
        # NOTE: the families without samples: no database query when the
        # collector is registered.
        return list(self._families())
