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

"""What the engine reports when it has processed a notification: the
metrics of the processing and, for a host recovery, one INFO line with
its per-phase timeline and a WARNING when it exceeded
[host_failure]/recovery_time_budget.

The timeline comes from the stored progress details (see
masakari.engine.drivers.taskflow.timeline), so that the line, the metrics
and ``masakari-manage notification timeline`` always agree.
"""

import functools
import time

from oslo_log import log as logging
from oslo_utils import timeutils

import masakari.conf
from masakari.engine.drivers.taskflow import timeline
from masakari import exception
from masakari import metrics
from masakari.metrics import engine as engine_metrics
from masakari import objects
from masakari.objects import fields

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

Status = fields.NotificationStatus


def initialise_metrics():
    """Make the engine's series of every known label value exist at 0
    (when metrics are enabled), before the first notification.
    """
    engine_metrics.initialise(timeline.phases_by_type())


def observe(handler, received_status):
    """``handler`` (of notification_handlers.HANDLERS), reporting on the
    processing it does.

    :param received_status: the notification's status before the engine
        claimed it (``error`` means this processing is a retry).
    """
    @functools.wraps(handler)
    def observed(context, driver, notification):
        engine_metrics.recovery_started(notification.type,
                                        received_status == Status.ERROR)
        started, started_at = time.monotonic(), timeutils.utcnow()
        status = Status.ERROR
        try:
            status = handler(context, driver, notification)
            return status
        except exception.RecoveryLost:
            # NOTE: the engine that took the recovery over reports on it.
            status = None
            raise
        finally:
            if status is not None:
                _report_safely(context, notification, status,
                               time.monotonic() - started, started_at)
    return observed


def _report_safely(context, notification, status, seconds, started_at):
    try:
        _report(context, notification, status, seconds, started_at)
    except Exception:
        # NOTE: a report never changes the outcome of a recovery.
        LOG.exception('Could not report on notification %s.',
                      notification.notification_uuid)


def _source_host(context, notification):
    try:
        return objects.Host.get_by_uuid(context,
                                        notification.source_host_uuid)
    except exception.HostNotFound:
        return None


def _report(context, notification, status, seconds, started_at):
    is_host = notification.type == fields.NotificationType.COMPUTE_HOST
    host = _source_host(context, notification) if is_host else None
    method = (host.failover_segment.recovery_method
              if host is not None else engine_metrics.NO_METHOD)
    engine_metrics.recovery_ended(notification.type, method, status,
                                  seconds)
    # NOTE: the timeline is read for the log line of host recoveries and
    # for the metrics; nothing else needs the extra database reads.
    if (status == Status.IGNORED or not CONF.taskflow.connection or
            not (is_host or metrics.enabled())):
        return
    run = timeline.merge([
        run for run in timeline.load(context,
                                     notification.notification_uuid)
        if run.started >= started_at.replace(tzinfo=None)])
    if run is None:
        return
    over_budget = False
    if is_host:
        host_name = host.name if host else notification.source_host_uuid
        LOG.info(timeline.summary(run, host_name, status))
        over_budget = _check_budget(run, host_name)
    engine_metrics.run_recorded(notification.type, run, over_budget)


def _check_budget(run, host_name):
    budget = CONF.host_failure.recovery_time_budget
    if budget is None or run.seconds <= budget:
        return False
    slowest = max(run.phases, key=lambda phase: phase.seconds)
    LOG.warning('Recovery of host %(host)s took %(seconds).1f s, over the '
                'budget of %(budget).1f s; slowest phase: %(phase)s '
                '(%(phase_seconds).1f s).',
                {'host': host_name, 'seconds': run.seconds,
                 'budget': budget, 'phase': slowest.name,
                 'phase_seconds': slowest.seconds})
    return True
