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

"""Sort keys, directions and markers of the list functions.

The semantics are the reference's: ``created_at`` and ``id`` are always
appended to the sort keys, the marker is a row's integer ``id``, and a
page is the rows after the marker in sort order.
"""

import re

from oslo_db import exception as db_exc
from oslo_db.sqlalchemy import utils as sqlalchemyutils
import sqlalchemy as sa

from masakari import exception
from masakari.i18n import _

SORT_DIRECTIONS = ('asc', 'desc')
DEFAULT_SORT_KEYS = ('created_at', 'id')

# NOTE: the largest id a SQL INTEGER column can hold on any backend we
# support; larger markers cannot name a row (and overflow SQLite).
_MAX_ID = 2 ** 63 - 1
_DECIMAL_ID = re.compile(r'[0-9]+')


def normalize_sort(sort_keys=None, sort_dirs=None):
    """Return ``(keys, dirs)`` of equal length, ending in created_at, id.

    :raises: InvalidInput for an unknown direction or more directions than
        keys.
    """
    sort_keys = list(sort_keys or [])
    sort_dirs = list(sort_dirs or [])
    default_dir = sort_dirs[0] if sort_dirs else 'desc'
    if any(direction not in SORT_DIRECTIONS for direction in sort_dirs):
        raise exception.InvalidInput(
            reason=_("Unknown sort direction, must be 'asc' or 'desc'"))
    if len(sort_dirs) > len(sort_keys):
        raise exception.InvalidInput(
            reason=_("Sort direction size exceeds sort key size"))
    sort_dirs += [default_dir] * (len(sort_keys) - len(sort_dirs))
    for key in DEFAULT_SORT_KEYS:
        if key not in sort_keys:
            sort_keys.append(key)
            sort_dirs.append(default_dir)
    return sort_keys, sort_dirs


def marker_id(marker):
    """The row id a marker names, or None when it can name no row.

    NOTE: only a decimal integer names a row. MySQL would compare a text
    marker by its numeric prefix ('7882ccb9-...' -> 7882); we answer
    MarkerNotFound on every backend, as SQLite does.
    """
    if isinstance(marker, int) and not isinstance(marker, bool):
        row_id = marker
    else:
        text = str(marker)
        row_id = int(text) if _DECIMAL_ID.fullmatch(text) else None
    if row_id is None or not 0 <= row_id <= _MAX_ID:
        return None
    return row_id


def check_sort_keys(model, sort_keys):
    """:raises: InvalidSortKey for a key that is no column of ``model``.

    NOTE: only columns can be sorted on; a relationship name such as
    'failover_segment' is an invalid key like any other (the reference
    crashed with NotImplementedError).
    """
    columns = sa.inspect(model).column_attrs.keys()
    for key in sort_keys:
        if key not in columns:
            raise exception.InvalidSortKey(
                str(db_exc.InvalidSortKey(key)))


def in_order(statement, model, sort_keys, sort_dirs, marker_row=None):
    """``statement`` (rows of ``model``) in sort order, from the row after
    ``marker_row`` (oslo.db's keyset criteria) or the first.
    """
    return sqlalchemyutils.paginate_query(
        statement, model, None, list(sort_keys), marker=marker_row,
        sort_dirs=list(sort_dirs))
