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

"""The DB API of notifications."""

from oslo_db import exception as db_exc
from oslo_utils import timeutils

from masakari.db.api import base
from masakari.db import facade
from masakari.db import reads
from masakari.db.sqlalchemy import models
from masakari.db import writes
from masakari import enums
from masakari import exception


@facade.reader
def notifications_get_all_by_filters(context, filters=None, sort_keys=None,
                                     sort_dirs=None, limit=None, marker=None):
    """List live notifications; filters ``source_host_uuid``,
    ``failover_segment_uuid``, ``type`` (equality), ``status`` (one or a
    collection) and ``generated-since`` (``generated_time >=``, a
    timezone-aware value is taken as UTC).

    :raises: InvalidInput, MarkerNotFound, InvalidSortKey
    """
    at_least = {}
    if 'generated-since' in (filters or {}):
        at_least['generated_time'] = timeutils.normalize_time(
            filters['generated-since'])
    return reads.page(
        context, models.Notification,
        base.filters(filters, 'source_host_uuid', 'failover_segment_uuid',
                     'type', 'status'),
        at_least, sort_keys, sort_dirs, limit, marker)


@facade.reader
def notification_payloads_since(context, type, source_host_uuid, since):
    """The payloads (JSON texts) of the live notifications of ``type`` from
    ``source_host_uuid`` generated at or after ``since`` (a
    timezone-aware value is taken as UTC), in no particular order.
    """
    return reads.column(
        context, models.Notification, 'payload',
        {'type': type, 'source_host_uuid': source_host_uuid},
        {'generated_time': timeutils.normalize_time(since)})


@base.named_in_faults
def _notification_get_by_uuid(context, notification_uuid):
    return base.get(context, models.Notification,
                    exception.NotificationNotFound(id=notification_uuid),
                    notification_uuid=notification_uuid)


@facade.reader
def notification_get_by_uuid(context, notification_uuid):
    """:raises: NotificationNotFound"""
    return _notification_get_by_uuid(context, notification_uuid)


@facade.reader
def notification_get_by_id(context, notification_id):
    """:raises: NotificationNotFound"""
    return base.get(context, models.Notification,
                    exception.NotificationNotFound(id=notification_id),
                    id=notification_id)


@base.named_in_faults
def notification_create(context, values):
    """Insert a notification and return it (a repeated uuid raises
    oslo.db's DBDuplicateEntry as is).

    NOTE: an insert whose COMMIT reached the database while its answer
    was lost (the node failed over) runs again with
    ``[database]/use_db_reconnect``, and meets its own row: that row,
    the same notification, is the answer.
    """
    try:
        return _notification_insert(context, values)
    except db_exc.DBDuplicateEntry:
        stored = _stored_already(context, values)
        if stored is None:
            raise
        return stored


@facade.writer
def _notification_insert(context, values):
    return writes.insert(context, models.Notification, values)


def _stored_already(context, values):
    """The live notification of ``values``'s uuid when it is the one
    ``values`` describe, else None.
    """
    try:
        stored = notification_get_by_uuid(context,
                                          values['notification_uuid'])
    except (KeyError, exception.NotificationNotFound):
        return None
    same = all(stored[name] == values.get(name) for name in
               ('source_host_uuid', 'type', 'payload'))
    return stored if same else None


@base.named_in_faults
@facade.writer
def notification_update(context, notification_uuid, values):
    """Update the live notification and return it.

    :raises: NotificationNotFound
    """
    return base.update(context, models.Notification,
                       _notification_get_by_uuid(context, notification_uuid),
                       values)


@facade.writer
def notification_update_if(context, notification_uuid, expected, values):
    """Compare-and-set: apply ``values`` to the live notification only if
    every column of ``expected`` has the given value (or one of a list of
    them), e.g. ``{'status': ['new', 'error']}``, in a single UPDATE.

    :returns: the updated notification, or None when no row matched.
    """
    return base.update_if(context, models.Notification,
                          {'notification_uuid': notification_uuid},
                          expected, values)


def notification_fence(context, notification_uuid, generation):
    """Within the caller's write transaction: hold the row of the running
    notification whose ``updated_at`` is ``generation`` (a recovery
    lease's fencing token) until the transaction ends, changing nothing.
    A takeover, which moves the token on, then waits for that end.

    :returns: True when the row matched.
    """
    return bool(writes.update_if(
        context, models.Notification,
        {'notification_uuid': notification_uuid,
         'status': enums.NotificationStatus.RUNNING,
         'updated_at': generation}, {'updated_at': generation}))


@base.named_in_faults
@facade.writer
def notification_delete(context, notification_uuid):
    """Soft-delete the notification and, in the same transaction, its vm
    moves.

    :raises: NotificationNotFound
    """
    base.soft_delete(context, models.Notification,
                     exception.NotificationNotFound(id=notification_uuid),
                     notification_uuid=notification_uuid)
    writes.soft_delete(context, models.VMove,
                       {'notification_uuid': notification_uuid})
