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

"""The DB API of vm moves."""

from masakari.db.api import base
from masakari.db import facade
from masakari.db import reads
from masakari.db.sqlalchemy import models
from masakari.db import writes
from masakari import exception


@facade.reader
def vmoves_get_all_by_filters(context, filters=None, sort_keys=None,
                              sort_dirs=None, limit=None, marker=None):
    """List live vm moves; filters ``notification_uuid``, ``type``
    (equality) and ``status`` (one or a collection).

    :raises: InvalidInput, MarkerNotFound, InvalidSortKey
    """
    return reads.page(
        context, models.VMove,
        base.filters(filters, 'notification_uuid', 'type', 'status'),
        sort_keys=sort_keys, sort_dirs=sort_dirs, limit=limit, marker=marker)


def _vmove_get_by_uuid(context, vmove_uuid):
    return base.get(context, models.VMove,
                    exception.VMoveNotFound(id=vmove_uuid), uuid=vmove_uuid)


@facade.reader
def vmove_get_by_uuid(context, vmove_uuid):
    """:raises: VMoveNotFound"""
    return _vmove_get_by_uuid(context, vmove_uuid)


@facade.writer
def vmove_create(context, values):
    """Insert a vm move and return it (DBDuplicateEntry propagates)."""
    return writes.insert(context, models.VMove, values)


@facade.writer
def vmoves_create(context, values_list):
    """Insert one vm move per dict of ``values_list``, all in one
    transaction; return them in that order (DBDuplicateEntry propagates).
    """
    return [writes.insert(context, models.VMove, values)
            for values in values_list]


@facade.writer
def vmove_update(context, uuid, values):
    """Update the live vm move ``uuid`` and return it.

    :raises: VMoveNotFound
    """
    vmove = _vmove_get_by_uuid(context, uuid)
    return base.update(context, models.VMove, vmove, values)


@facade.writer
def vmove_delete(context, uuid):
    """Soft-delete the live vm move ``uuid``.

    :raises: VMoveNotFound
    """
    base.soft_delete(context, models.VMove, exception.VMoveNotFound(id=uuid),
                     uuid=uuid)
