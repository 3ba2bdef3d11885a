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

"""The mass-failure brake: when too many hosts of one segment fail in a
short time, the cause is more likely a partition (of the network, of the
monitors) than real failures; fencing and evacuating them all would do
more harm than waiting.

A held notification keeps the status ``running`` (no status is added:
the object fingerprints are a contract) and says why in its ``message``
and in its progress. It is never dropped: the engine recovers it once the
brake lets it through (``resume_candidates``), or when an operator
releases it (``release``: status back to ``new`` with the
``RELEASED_MESSAGE``; masakari-manage then asks an engine to process it
at once, and the brake lets it through).

Which hosts count as failed, for a notification N of segment S: N's
host, the hosts of S whose recovery is held, and the hosts of S reported
failed before N (by generated time) within ``failed_hosts_window``
seconds whose notification is not ignored. Counting only earlier
failures makes the verdict independent of the order in which engines
happen to process simultaneous notifications; counting held ones keeps a
partition braked after the window has passed.
"""

import datetime

from oslo_log import log as logging
from oslo_utils import timeutils

import masakari.conf
from masakari import objects
from masakari.objects import fields

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

Status = fields.NotificationStatus
HELD_PREFIX = 'Held by the mass-failure brake: '
RELEASED_MESSAGE = 'Released from the mass-failure brake by an operator.'
# Statuses of a reported failure that count (ignored ones do not).
COUNTED = [Status.NEW, Status.RUNNING, Status.ERROR, Status.FINISHED,
           Status.FAILED]


def enabled():
    """Whether a brake limit is configured."""
    options = CONF.host_failure
    return bool(options.max_failed_hosts or options.max_failed_hosts_percent)


def is_held(notification):
    return (notification.status == Status.RUNNING and
            (notification.message or '').startswith(HELD_PREFIX))


def is_released(notification):
    return notification.message == RELEASED_MESSAGE


def _is_host_failure(notification):
    payload = notification.payload or {}
    return (notification.type == fields.NotificationType.COMPUTE_HOST and
            str(payload.get('event', '')).upper() ==
            fields.EventType.STOPPED and
            str(payload.get('host_status', '')).upper() ==
            fields.HostStatusType.NORMAL)


def _order(notification):
    return (timeutils.normalize_time(notification.generated_time),
            notification.id)


def _limit(context, segment_uuid):
    options = CONF.host_failure
    limits = []
    if options.max_failed_hosts:
        limits.append(options.max_failed_hosts)
    if options.max_failed_hosts_percent:
        hosts = objects.HostList.get_all(
            context, filters={'failover_segment_id': segment_uuid})
        limits.append(len(hosts) * options.max_failed_hosts_percent // 100)
    return min(limits)


def failed_hosts(context, notification, segment_uuid):
    """Uuids of the hosts counted as failed for ``notification``."""
    since = (timeutils.utcnow() -
             datetime.timedelta(seconds=CONF.host_failure.failed_hosts_window))
    base_filters = {'failover_segment_uuid': segment_uuid,
                    'type': fields.NotificationType.COMPUTE_HOST}
    recent = objects.NotificationList.get_all(
        context, filters=dict(base_filters, status=COUNTED,
                              **{'generated-since': since}))
    running = objects.NotificationList.get_all(
        context, filters=dict(base_filters, status=Status.RUNNING))
    hosts = {notification.source_host_uuid}
    for other in list(recent) + list(running):
        if (other.notification_uuid == notification.notification_uuid or
                not _is_host_failure(other)):
            continue
        if is_held(other) or _order(other) < _order(notification):
            hosts.add(other.source_host_uuid)
    return hosts


def verdict(context, notification, segment_uuid):
    """``(held, text)``: whether the brake holds this recovery, and the
    counts that decided, for the progress details.
    """
    count = len(failed_hosts(context, notification, segment_uuid))
    limit = _limit(context, segment_uuid)
    numbers = {'count': count, 'limit': limit,
               'window': CONF.host_failure.failed_hosts_window}
    text = ('%(count)d hosts of the segment failed within %(window)d s (or '
            'are held)' % numbers)
    if count > limit:
        return True, text + ', over the limit of %(limit)d' % numbers
    return False, text + ', within the limit of %(limit)d' % numbers


def hold(notification, reason):
    """Record the hold in the notification's message and log it."""
    notification.message = (
        HELD_PREFIX + reason + "; it proceeds once fewer hosts fail, or "
        "with 'masakari-manage notification release %s'"
        % notification.notification_uuid)
    notification.save()
    LOG.warning('Mass-failure brake: holding the recovery of notification '
                '%(uuid)s: %(reason)s',
                {'uuid': notification.notification_uuid, 'reason': reason})


def resume_candidates(context):
    """Held notifications the brake now lets through, oldest first."""
    filters = {'status': Status.RUNNING,
               'type': fields.NotificationType.COMPUTE_HOST}
    held = [notification for notification in
            objects.NotificationList.get_all(context, filters=filters)
            if is_held(notification)]
    for notification in sorted(held, key=_order):
        segment_uuid = _segment_of(context, notification)
        if segment_uuid is None or not enabled() or not verdict(
                context, notification, segment_uuid)[0]:
            yield notification


def _segment_of(context, notification):
    if notification.failover_segment_uuid:
        return notification.failover_segment_uuid
    try:
        return objects.Host.get_by_uuid(
            context, notification.source_host_uuid).failover_segment.uuid
    except Exception:
        return None


def requeue(notification, message=None):
    """Hand a held notification back to processing (status ``new``, with
    ``message``), unless another engine moved it first.

    :returns: True when this caller made the change.
    """
    # NOTE: the message first: once 'new', any engine may pick the
    # notification up, and must see the release.
    notification.message = message
    notification.save()
    return notification.transition_status(Status.RUNNING, Status.NEW)


def release(notification):
    """An operator's release: back to ``new``, to be recovered without
    the brake.

    :returns: True when the notification was held and is now released.
    """
    return is_held(notification) and requeue(notification, RELEASED_MESSAGE)
