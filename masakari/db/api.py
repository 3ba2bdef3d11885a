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

"""The DB API of the main database, called by the object layer.

Every function takes the request context first and runs in its own
transaction (reader or writer), retried on deadlock. Rows come back as
model instances or ``paging.Row`` dicts (the readers' and the engine's
writes', which run Core statements only), both with attribute and item
access and ``get``; create and update return the row as the same
transaction sees it after the write, delete returns nothing. Reads only
see live rows (``deleted = 0``).
"""

import functools

from oslo_db import exception as db_exc
from oslo_utils import timeutils
import sqlalchemy as sa

from masakari.db import facade
from masakari.db import paging
from masakari.db import purge
from masakari.db.sqlalchemy import models
from masakari.db import updates
from masakari import exception

# Upper bound of masakari-manage db purge --max_rows.
MAX_INT = purge.MAX_INT

configure = facade.configure
get_engine = facade.get_engine
model_query = facade.model_query
reading = facade.reading
purge_deleted_rows = purge.purge_deleted_rows

# The module Masakari 22.0.0's versioned error notifications name for the
# errors of its database layer.
FAULT_MODULE = 'masakari.db.sqlalchemy.api'
# The relationship whose row a model's rows carry, as readers give them.
EMBEDDED = {models.Host: 'failover_segment'}


def _named_in_faults(function):
    """Name ``function`` in the ``fault`` of the versioned error
    notification of a Masakari error raised while it runs.

    Masakari 22.0.0 names the write operation (``host_create`` ...), or
    the row reader (``_host_get_by_uuid``) when the row is gone, never a
    shared helper such as ``_save``. The innermost decorated function
    wins, so a reader's name survives the operation around it.
    """
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except exception.MasakariException as error:
            if error.raised_in is None:
                error.raised_in = (FAULT_MODULE, function.__name__)
            raise
    return wrapper


def _first(context, model, not_found, **criteria):
    row = facade.model_query(context, model).filter_by(**criteria).first()
    if row is None:
        raise not_found
    return row


def _read_first(context, model, not_found, **criteria):
    """``_first`` for a reader: a Row (see masakari.db.paging) rather
    than a model instance, carrying the row of its EMBEDDED relationship.
    Nothing can be saved through it.
    """
    row = paging.get_row(context, model, criteria, EMBEDDED.get(model))
    if row is None:
        raise not_found
    return row


def _save(context, row, values, duplicate=None):
    """Apply ``values`` to ``row`` and flush; a unique-key collision
    raises ``duplicate`` (oslo.db's DBDuplicateEntry when None). Only
    changed columns are written.
    """
    row.update(values)
    try:
        row.save(session=context.session)
    except db_exc.DBDuplicateEntry:
        if duplicate is None:
            raise
        raise duplicate


def _soft_delete(context, model, not_found, **criteria):
    count = facade.model_query(context, model).filter_by(
        **criteria).soft_delete(synchronize_session=False)
    if count == 0:
        raise not_found


def _filters(filters, *names):
    """The entries of ``filters`` (may be None) that ``names`` name."""
    filters = filters or {}
    return {name: filters[name] for name in names if name in filters}


# --- failover segments -------------------------------------------------------

@facade.reader
def failover_segment_get_all_by_filters(context, filters=None, sort_keys=None,
                                        sort_dirs=None, limit=None,
                                        marker=None):
    """List live segments; filters ``recovery_method``, ``service_type``,
    ``enabled`` (equality).

    :raises: InvalidInput, MarkerNotFound, InvalidSortKey
    """
    return paging.get_page(
        context, models.FailoverSegment,
        _filters(filters, 'recovery_method', 'service_type', 'enabled'),
        sort_keys=sort_keys, sort_dirs=sort_dirs, limit=limit, marker=marker)


@facade.reader
def failover_segment_get_by_id(context, segment_id):
    """:raises: FailoverSegmentNotFound"""
    return _read_first(context, models.FailoverSegment,
                       exception.FailoverSegmentNotFound(id=segment_id),
                       id=segment_id)


@_named_in_faults
def _failover_segment_get_by_uuid(context, segment_uuid, read=_first):
    return read(context, models.FailoverSegment,
                exception.FailoverSegmentNotFound(id=segment_uuid),
                uuid=segment_uuid)


@facade.reader
def failover_segment_get_by_uuid(context, segment_uuid):
    """:raises: FailoverSegmentNotFound"""
    return _failover_segment_get_by_uuid(context, segment_uuid,
                                         read=_read_first)


@facade.reader
def failover_segment_get_by_name(context, name):
    """:raises: FailoverSegmentNotFoundByName"""
    return _read_first(
        context, models.FailoverSegment,
        exception.FailoverSegmentNotFoundByName(segment_name=name),
        name=name)


@_named_in_faults
@facade.writer
def failover_segment_create(context, values):
    """Insert a segment (``enabled`` defaults to true) and return it.

    :raises: FailoverSegmentExists on a name or uuid collision
    """
    segment = models.FailoverSegment()
    _save(context, segment, values,
          exception.FailoverSegmentExists(name=values.get('name')))
    return _failover_segment_get_by_uuid(context, segment.uuid)


@_named_in_faults
@facade.writer
def failover_segment_update(context, segment_uuid, values):
    """Update the live segment ``segment_uuid`` and return it.

    :raises: FailoverSegmentNotFound, FailoverSegmentExists
    """
    segment = _failover_segment_get_by_uuid(context, segment_uuid)
    # NOTE: name the segment even when 'name' is not being changed (the
    # reference said "Failover segment with name None already exists").
    duplicate = exception.FailoverSegmentExists(
        name=values.get('name', segment.name))
    _save(context, segment, values, duplicate)
    return _failover_segment_get_by_uuid(context, segment_uuid)


@_named_in_faults
@facade.writer
def failover_segment_delete(context, segment_uuid):
    """Soft-delete the segment and, in the same transaction, its hosts.

    :raises: FailoverSegmentNotFound
    """
    _soft_delete(context, models.FailoverSegment,
                 exception.FailoverSegmentNotFound(id=segment_uuid),
                 uuid=segment_uuid)
    facade.model_query(context, models.Host).filter_by(
        failover_segment_id=segment_uuid).soft_delete(
            synchronize_session=False)


@facade.reader
def is_failover_segment_under_recovery(context, failover_segment_id,
                                       filters=None):
    """Whether a live notification about a live host currently in the
    segment (a uuid) matches ``filters['status']`` (one or a collection;
    absent means any status).
    """
    host_uuids = sa.select(models.Host.uuid).where(
        models.Host.deleted == 0,
        models.Host.failover_segment_id == failover_segment_id)
    query = facade.model_query(context, models.Notification,
                               args=(models.Notification.id,))
    query = query.filter(
        models.Notification.source_host_uuid.in_(host_uuids))
    if 'status' in (filters or {}):
        query = paging.filter_equal(query, models.Notification.status,
                                    filters['status'])
    return query.first() is not None


# --- hosts -------------------------------------------------------------------

@facade.reader
def host_get_all_by_filters(context, filters=None, sort_keys=None,
                            sort_dirs=None, limit=None, marker=None):
    """List live hosts with their segment; filters ``failover_segment_id``
    (a segment uuid), ``type``, ``on_maintenance``, ``reserved``.

    :raises: InvalidInput, MarkerNotFound, InvalidSortKey
    """
    return paging.get_page(
        context, models.Host,
        _filters(filters, 'failover_segment_id', 'type', 'on_maintenance',
                 'reserved'),
        sort_keys=sort_keys, sort_dirs=sort_dirs, limit=limit, marker=marker,
        embed=EMBEDDED[models.Host])


@_named_in_faults
def _host_get_by_uuid(context, host_uuid, segment_uuid=None, read=_first):
    criteria = {'uuid': host_uuid}
    not_found = exception.HostNotFound(id=host_uuid)
    if segment_uuid:
        criteria['failover_segment_id'] = segment_uuid
        not_found = exception.HostNotFoundUnderFailoverSegment(
            host_uuid=host_uuid, segment_uuid=segment_uuid)
    return read(context, models.Host, not_found, **criteria)


@facade.core_reader
def host_get_by_uuid(context, host_uuid, segment_uuid=None):
    """The live host ``host_uuid``, within ``segment_uuid`` when given.

    :raises: HostNotFound, HostNotFoundUnderFailoverSegment
    """
    return _host_get_by_uuid(context, host_uuid, segment_uuid,
                             read=_read_first)


@facade.reader
def host_get_by_id(context, host_id):
    """:raises: HostNotFound"""
    return _read_first(context, models.Host,
                       exception.HostNotFound(id=host_id),
                       id=host_id)


@facade.reader
def host_get_by_name(context, name):
    """:raises: HostNotFoundByName"""
    return _read_first(context, models.Host,
                       exception.HostNotFoundByName(host_name=name),
                       name=name)


@_named_in_faults
@facade.writer
def host_create(context, values):
    """Insert a host (``reserved``/``on_maintenance`` default to false).

    :raises: HostExists on a name or uuid collision; oslo.db
        DBReferenceError for an unknown segment where foreign keys are
        enforced
    """
    host = models.Host()
    _save(context, host, values, exception.HostExists(name=values.get('name')))
    return _host_get_by_uuid(context, host.uuid)


@_named_in_faults
@facade.writer
def host_update(context, host_uuid, values):
    """Update the live host ``host_uuid`` and return it.

    :raises: HostNotFound, HostExists
    """
    host = _host_get_by_uuid(context, host_uuid)
    duplicate = exception.HostExists(name=values.get('name', host.name))
    _save(context, host, values, duplicate)
    return _host_get_by_uuid(context, host_uuid)


@facade.core_writer
def host_update_if(context, host_uuid, expected, values):
    """Compare-and-set: apply ``values`` to the live host only if every
    column of ``expected`` has the given value (or one of a list of them),
    in a single UPDATE, so that two engines never both win.

    :returns: the updated host, or None when no row matched.
    """
    if not updates.update_if(context, models.Host,
                             dict(expected, uuid=host_uuid), values):
        return None
    return _host_get_by_uuid(context, host_uuid, read=_read_first)


@_named_in_faults
@facade.writer
def host_delete(context, host_uuid):
    """Soft-delete the live host ``host_uuid``.

    :raises: HostNotFound
    """
    _soft_delete(context, models.Host, exception.HostNotFound(id=host_uuid),
                 uuid=host_uuid)


# --- notifications -----------------------------------------------------------

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
    return paging.get_page(
        context, models.Notification,
        _filters(filters, 'source_host_uuid', 'failover_segment_uuid',
                 'type', 'status'),
        at_least, sort_keys, sort_dirs, limit, marker)


@facade.reader
def notification_payloads_since(context, type, source_host_uuid, since):
    """The payloads (JSON texts) of the live notifications of ``type`` from
    ``source_host_uuid`` generated at or after ``since`` (a
    timezone-aware value is taken as UTC), in no particular order.
    """
    statement = _payloads_since_statement(context.read_deleted)
    return list(context.session.execute(statement, {
        'type': type, 'source_host_uuid': source_host_uuid,
        'since': timeutils.normalize_time(since)}).scalars())


@functools.lru_cache(maxsize=None)
def _payloads_since_statement(read_deleted):
    # NOTE: built once and reused (the duplicate check of every POST
    # /v1/notifications): building it as a Query cost more than running it.
    model = models.Notification
    criterion = facade.deleted_criterion(model, read_deleted)
    return sa.select(model.payload).where(
        *(() if criterion is None else (criterion,)),
        model.type == sa.bindparam('type'),
        model.source_host_uuid == sa.bindparam('source_host_uuid'),
        model.generated_time >= sa.bindparam('since'))


@_named_in_faults
def _notification_get_by_uuid(context, notification_uuid, read=_first):
    return read(context, models.Notification,
                exception.NotificationNotFound(id=notification_uuid),
                notification_uuid=notification_uuid)


@facade.core_reader
def notification_get_by_uuid(context, notification_uuid):
    """:raises: NotificationNotFound"""
    return _notification_get_by_uuid(context, notification_uuid,
                                     read=_read_first)


@facade.core_reader
def notification_get_by_id(context, notification_id):
    """:raises: NotificationNotFound"""
    return _read_first(context, models.Notification,
                       exception.NotificationNotFound(id=notification_id),
                       id=notification_id)


@_named_in_faults
@facade.writer
def notification_create(context, values):
    """Insert a notification and return it (a repeated uuid raises
    oslo.db's DBDuplicateEntry as is).
    """
    notification = models.Notification()
    _save(context, notification, values)
    # NOTE: no read-back: a query in this session would hand back this
    # very instance from the identity map, complete after the flush (every
    # default is computed here, none by the server).
    return notification


@_named_in_faults
@facade.core_writer
def notification_update(context, notification_uuid, values):
    """Update the live notification and return it.

    :raises: NotificationNotFound
    """
    notification = _notification_get_by_uuid(context, notification_uuid,
                                             read=_read_first)
    updates.update_row(context, models.Notification, notification, values)
    return notification


@facade.core_writer
def notification_update_if(context, notification_uuid, expected, values):
    """Compare-and-set: apply ``values`` to the live notification only if
    every column of ``expected`` has the given value (or one of a list of
    them), e.g. ``{'status': ['new', 'error']}``, in a single UPDATE.

    :returns: the updated notification, or None when no row matched.
    """
    if not updates.update_if(
            context, models.Notification,
            dict(expected, notification_uuid=notification_uuid), values):
        return None
    return _notification_get_by_uuid(context, notification_uuid,
                                     read=_read_first)


@_named_in_faults
@facade.writer
def notification_delete(context, notification_uuid):
    """Soft-delete the notification and, in the same transaction, its vm
    moves.

    :raises: NotificationNotFound
    """
    _soft_delete(context, models.Notification,
                 exception.NotificationNotFound(id=notification_uuid),
                 notification_uuid=notification_uuid)
    facade.model_query(context, models.VMove).filter_by(
        notification_uuid=notification_uuid).soft_delete(
            synchronize_session=False)


# --- vm moves ----------------------------------------------------------------

@facade.reader
def vmoves_get_all_by_filters(context, filters=None, sort_keys=None,
                              sort_dirs=None, limit=None, marker=None):
    """List live vm moves; filters ``notification_uuid``, ``type``
    (equality) and ``status`` (one or a collection).

    :raises: InvalidInput, MarkerNotFound, InvalidSortKey
    """
    return paging.get_page(
        context, models.VMove,
        _filters(filters, 'notification_uuid', 'type', 'status'),
        sort_keys=sort_keys, sort_dirs=sort_dirs, limit=limit, marker=marker)


def _vmove_get_by_uuid(context, vmove_uuid):
    return _first(context, models.VMove,
                  exception.VMoveNotFound(id=vmove_uuid), uuid=vmove_uuid)


@facade.reader
def vmove_get_by_uuid(context, vmove_uuid):
    """:raises: VMoveNotFound"""
    return _vmove_get_by_uuid(context, vmove_uuid)


@facade.writer
def vmove_create(context, values):
    """Insert a vm move and return it (DBDuplicateEntry propagates)."""
    return _insert_vmoves(context, [values])[0]


@facade.writer
def vmoves_create(context, values_list):
    """Insert one vm move per dict of ``values_list``, all in one
    transaction; return them in that order (DBDuplicateEntry propagates).
    """
    return _insert_vmoves(context, values_list)


def _insert_vmoves(context, values_list):
    # NOTE: no read-back: every default is computed here, none by the
    # server, and the flush fills in the ids.
    vmoves = []
    for values in values_list:
        vmove = models.VMove()
        vmove.update(values)
        context.session.add(vmove)
        vmoves.append(vmove)
    context.session.flush()
    return vmoves


@facade.writer
def vmove_update(context, uuid, values):
    """Update the live vm move ``uuid`` and return it.

    :raises: VMoveNotFound
    """
    _save(context, _vmove_get_by_uuid(context, uuid), values)
    return _vmove_get_by_uuid(context, uuid)


@facade.writer
def vmove_delete(context, uuid):
    """Soft-delete the live vm move ``uuid``.

    :raises: VMoveNotFound
    """
    _soft_delete(context, models.VMove, exception.VMoveNotFound(id=uuid),
                 uuid=uuid)
