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

"""The DB API of hosts: each row carries its segment's row."""

from masakari.db.api import base
from masakari.db import facade
from masakari.db import reads
from masakari.db.sqlalchemy import models
from masakari.db import writes
from masakari import exception


@facade.reader
def host_get_all_by_filters(context, filters=None, sort_keys=None,
                            sort_dirs=None, limit=None, marker=None):
    """List live hosts with their segment; filters ``failover_segment_id``
    (a segment uuid), ``type``, ``on_maintenance``, ``reserved``.

    :raises: InvalidInput, MarkerNotFound, InvalidSortKey
    """
    return reads.page(
        context, models.Host,
        base.filters(filters, 'failover_segment_id', 'type', 'on_maintenance',
                     'reserved'),
        sort_keys=sort_keys, sort_dirs=sort_dirs, limit=limit, marker=marker,
        embed=base.EMBEDDED[models.Host])


@base.named_in_faults
def _host_get_by_uuid(context, host_uuid, segment_uuid=None):
    criteria = {'uuid': host_uuid}
    not_found = exception.HostNotFound(id=host_uuid)
    if segment_uuid:
        criteria['failover_segment_id'] = segment_uuid
        not_found = exception.HostNotFoundUnderFailoverSegment(
            host_uuid=host_uuid, segment_uuid=segment_uuid)
    return base.get(context, models.Host, not_found, **criteria)


@facade.reader
def host_get_by_uuid(context, host_uuid, segment_uuid=None):
    """The live host ``host_uuid``, within ``segment_uuid`` when given.

    :raises: HostNotFound, HostNotFoundUnderFailoverSegment
    """
    return _host_get_by_uuid(context, host_uuid, segment_uuid)


@facade.reader
def host_get_by_id(context, host_id):
    """:raises: HostNotFound"""
    return base.get(context, models.Host, exception.HostNotFound(id=host_id),
                    id=host_id)


@facade.reader
def host_get_by_name(context, name):
    """:raises: HostNotFoundByName"""
    return base.get(context, models.Host,
                    exception.HostNotFoundByName(host_name=name), name=name)


@base.named_in_faults
@facade.writer
def host_create(context, values):
    """Insert a host (``reserved``/``on_maintenance`` default to false).

    :raises: HostExists on a name or uuid collision; oslo.db
        DBReferenceError for an unknown segment where foreign keys are
        enforced
    """
    with base.collision_raises(exception.HostExists(name=values.get('name'))):
        host = writes.insert(context, models.Host, values)
    # NOTE: read again for the row of its segment.
    return _host_get_by_uuid(context, host.uuid)


@base.named_in_faults
@facade.writer
def host_update(context, host_uuid, values):
    """Update the live host ``host_uuid`` and return it.

    :raises: HostNotFound, HostExists
    """
    host = _host_get_by_uuid(context, host_uuid)
    duplicate = exception.HostExists(name=values.get('name', host.name))
    return base.update(context, models.Host, host, values, duplicate)


@facade.writer
def host_update_if(context, host_uuid, expected, values):
    """Compare-and-set: apply ``values`` to the live host only if every
    column of ``expected`` has the given value (or one of a list of them),
    in a single UPDATE, so that two engines never both win.

    :returns: the updated host, or None when no row matched.
    """
    return base.update_if(context, models.Host, {'uuid': host_uuid},
                          expected, values)


@base.named_in_faults
@facade.writer
def host_delete(context, host_uuid):
    """Soft-delete the live host ``host_uuid``.

    :raises: HostNotFound
    """
    base.soft_delete(context, models.Host,
                     exception.HostNotFound(id=host_uuid), uuid=host_uuid)
