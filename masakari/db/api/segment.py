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

"""The DB API of failover segments."""

from masakari.db.api import base
from masakari.db import facade
from masakari.db import reads
from masakari.db.sqlalchemy import models
from masakari.db import statements
from masakari.db import writes
from masakari import exception


@facade.reader
def failover_segment_get_all_by_filters(context, filters=None, sort_keys=None,
                                        sort_dirs=None, limit=None,
                                        marker=None):
    """List live segments; filters ``recovery_method``, ``service_type``,
    ``enabled`` (equality).

    :raises: InvalidInput, MarkerNotFound, InvalidSortKey
    """
    return reads.page(
        context, models.FailoverSegment,
        base.filters(filters, 'recovery_method', 'service_type', 'enabled'),
        sort_keys=sort_keys, sort_dirs=sort_dirs, limit=limit, marker=marker)


@facade.reader
def failover_segment_get_by_id(context, segment_id):
    """:raises: FailoverSegmentNotFound"""
    return base.get(context, models.FailoverSegment,
                    exception.FailoverSegmentNotFound(id=segment_id),
                    id=segment_id)


@base.named_in_faults
def _failover_segment_get_by_uuid(context, segment_uuid):
    return base.get(context, models.FailoverSegment,
                    exception.FailoverSegmentNotFound(id=segment_uuid),
                    uuid=segment_uuid)


@facade.reader
def failover_segment_get_by_uuid(context, segment_uuid):
    """:raises: FailoverSegmentNotFound"""
    return _failover_segment_get_by_uuid(context, segment_uuid)


@facade.reader
def failover_segment_get_by_name(context, name):
    """:raises: FailoverSegmentNotFoundByName"""
    return base.get(context, models.FailoverSegment,
                    exception.FailoverSegmentNotFoundByName(segment_name=name),
                    name=name)


@base.named_in_faults
@facade.writer
def failover_segment_create(context, values):
    """Insert a segment (``enabled`` defaults to true) and return it.

    :raises: FailoverSegmentExists on a name or uuid collision
    """
    duplicate = exception.FailoverSegmentExists(name=values.get('name'))
    with base.collision_raises(duplicate):
        return writes.insert(context, models.FailoverSegment, values)


@base.named_in_faults
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
    return base.update(context, models.FailoverSegment, segment, values,
                       duplicate)


@base.named_in_faults
@facade.writer
def failover_segment_delete(context, segment_uuid):
    """Soft-delete the segment and, in the same transaction, its hosts.

    :raises: FailoverSegmentNotFound
    """
    base.soft_delete(context, models.FailoverSegment,
                     exception.FailoverSegmentNotFound(id=segment_uuid),
                     uuid=segment_uuid)
    writes.soft_delete(context, models.Host,
                       {'failover_segment_id': segment_uuid})


@facade.reader
def is_failover_segment_under_recovery(context, failover_segment_id,
                                       filters=None):
    """Whether a live notification about a live host currently in the
    segment (a uuid) matches ``filters['status']`` (one or a collection;
    absent means any status).
    """
    status = base.filters(filters, 'status')
    tests = statements.tests_of(status)
    statement = statements.under_recovery(
        context.read_deleted, tests[0][1] if tests else None)
    parameters = statements.bound_values(tests, status)
    parameters['failover_segment_id'] = failover_segment_id
    return bool(reads.scalars(context, statement, parameters))
