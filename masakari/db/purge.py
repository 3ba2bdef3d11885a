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

"""``masakari-manage db purge``: hard-delete old soft-deleted rows.

Walks Masakari's own tables in the order Masakari 22.0.0 does (dependants
first): hosts, vmoves, notifications, failover_segments. Each table (each
batch of notifications) is deleted in its own transaction, retried on
deadlock, so a retry never starts the walk again.
"""

import datetime

from oslo_log import log as logging
from oslo_utils import timeutils
import sqlalchemy as sa

from masakari.db import facade
from masakari.db.sqlalchemy import models
from masakari import enums

LOG = logging.getLogger(__name__)

# Upper bound of --max_rows.
MAX_INT = 0x7FFFFFFF

# Notifications in these states are done with; they are purged by age of
# their last update rather than by soft delete.
FINAL_STATUSES = enums.NotificationStatus.FINAL

# Notifications are deleted this many at a time (with their vm moves and,
# if asked, their workflow logbooks).
NOTIFICATION_BATCH = 1000

_segments = models.FailoverSegment.__table__
_hosts = models.Host.__table__
_notifications = models.Notification.__table__
_vmoves = models.VMove.__table__


def _soft_deleted_before(table, cutoff):
    return table.c.deleted_at < cutoff


@facade.writer
def _delete(context, table, criteria, limit):
    """Delete up to ``limit`` rows matching ``criteria``, oldest deletion
    first; returns the count.
    """
    ids = sa.select(table.c.id).where(criteria).order_by(
        table.c.deleted_at, table.c.id)
    if limit is not None:
        ids = ids.limit(limit)
    # NOTE: MySQL refuses a LIMIT in an IN sub-query on the table being
    # deleted from, unless it is wrapped in a derived table.
    ids = sa.select(ids.subquery('T1').c.id)
    return facade.write(context,
                        table.delete().where(table.c.id.in_(ids))).rowcount


def _purge_hosts(context, cutoff, limit, purge_logbooks):
    return _delete(context, _hosts, _soft_deleted_before(_hosts, cutoff),
                   limit), {}


def _purge_vmoves(context, cutoff, limit, purge_logbooks):
    # NOTE: also the vm moves whose notification is gone: Masakari 22.0.0
    # purged notifications and left their vm moves behind.
    orphaned = ~sa.exists().where(
        _notifications.c.notification_uuid == _vmoves.c.notification_uuid)
    return _delete(context, _vmoves,
                   sa.or_(_soft_deleted_before(_vmoves, cutoff), orphaned),
                   limit), {}


def _purge_segments(context, cutoff, limit, purge_logbooks):
    # NOTE: a segment still referenced by a host row (one whose own
    # deleted_at is younger than the cutoff) waits for a later purge
    # instead of failing on the foreign key.
    referenced = sa.exists().where(
        _hosts.c.failover_segment_id == _segments.c.uuid)
    return _delete(context, _segments,
                   sa.and_(_soft_deleted_before(_segments, cutoff),
                           ~referenced),
                   limit), {}


def _final(cutoff):
    return sa.and_(_notifications.c.updated_at < cutoff,
                   _notifications.c.status.in_(FINAL_STATUSES))


@facade.reader
def _final_notifications(context, cutoff, limit):
    """(id, notification_uuid) of up to ``limit`` final notifications."""
    # NOTE: ORDER BY status follows the ENUM order on MySQL (failed,
    # ignored, finished) and the alphabet on SQLite, as in 22.0.0.
    return facade.read(context, sa.select(
        _notifications.c.id, _notifications.c.notification_uuid).where(
            _final(cutoff)).order_by(_notifications.c.status,
                                     _notifications.c.id).limit(limit)).all()


@facade.writer
def _delete_notifications(context, cutoff, ids, uuids):
    """Delete the notifications ``ids`` (if still final) and the vm moves
    of ``uuids``; returns both counts.
    """
    vmoves = facade.write(context, _vmoves.delete().where(
        _vmoves.c.notification_uuid.in_(uuids))).rowcount
    notifications = facade.write(context, _notifications.delete().where(
        _notifications.c.id.in_(ids), _final(cutoff))).rowcount
    return notifications, vmoves


def _purge_notification_batch(context, cutoff, limit, purge_logbooks):
    """Delete one batch of final notifications with their vm moves.

    Returns ``(notifications, vmoves, logbook_counts)``.
    """
    rows = _final_notifications(context, cutoff, limit)
    if not rows:
        return 0, 0, {}
    uuids = [row.notification_uuid for row in rows]
    # NOTE: logbooks go first: if that fails the notifications stay and a
    # later purge retries; the taskflow database may also be this very
    # SQLite file, which a write transaction would keep locked.
    logbooks = purge_logbooks(uuids) if purge_logbooks else {}
    notifications, vmoves = _delete_notifications(
        context, cutoff, [row.id for row in rows], uuids)
    return notifications, vmoves, logbooks


def _purge_notifications(context, cutoff, limit, purge_logbooks):
    """Returns the count and ``{table: count}`` of the records deleted with
    the notifications (their vm moves, their workflow logbooks).
    """
    notifications = 0
    dependants = {'vmoves': 0}
    while limit is None or notifications < limit:
        batch = NOTIFICATION_BATCH
        if limit is not None:
            batch = min(batch, limit - notifications)
        count, vmoves, logbooks = _purge_notification_batch(
            context, cutoff, batch, purge_logbooks)
        notifications += count
        for table, rows in dict(logbooks, vmoves=vmoves).items():
            dependants[table] = dependants.get(table, 0) + rows
        if count < batch:
            break
    return notifications, dependants


# The walk: Masakari 22.0.0's order, which operators see in the log.
PURGERS = (('hosts', _purge_hosts), ('vmoves', _purge_vmoves),
           ('notifications', _purge_notifications),
           ('failover_segments', _purge_segments))


def purge_deleted_rows(context, age_in_days, max_rows, purge_logbooks=None):
    """Hard-delete rows older than ``age_in_days`` days.

    Soft-deleted hosts, vm moves and segments go by ``deleted_at``;
    notifications in a final state by ``updated_at``, together with their
    vm moves and (through ``purge_logbooks``) their workflow logbooks.
    ``max_rows`` (> 0) bounds the rows of the four tables, across tables;
    -1 means no bound. The records deleted along with a notification are
    logged on their own lines and not counted.

    :param purge_logbooks: optional callable taking the uuids of the
        notifications about to be purged and returning ``{table: count}``
        of the workflow records it deleted (masakari-manage passes the
        taskflow persistence purge).
    :returns: the number of rows deleted, as logged in the last line.
    """
    cutoff = timeutils.utcnow() - datetime.timedelta(days=age_in_days)
    total = 0
    for table, purger in PURGERS:
        LOG.info('Purging deleted rows older than %(age)s day(s) from '
                 'table %(table)s', {'age': age_in_days, 'table': table})
        limit = max_rows - total if max_rows > 0 else None
        count, dependants = purger(context, cutoff, limit, purge_logbooks)
        LOG.info('Deleted %(count)s row(s) from table %(table)s',
                 {'count': count, 'table': table})
        for other, other_count in dependants.items():
            LOG.info('Deleted %(count)s row(s) from table %(table)s along '
                     'with the purged notifications',
                     {'count': other_count, 'table': other})
        total += count
        if max_rows > 0 and total >= max_rows:
            break
    LOG.info('Total deleted rows are %s', total)
    return total
