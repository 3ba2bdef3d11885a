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

"""How the API's rules reach the object layer: writes with their
versioned notifications, and lookups and lists of values a database may
be unable to store or compare (a 400 or "no match", never a 500).
"""

import contextlib
import functools
import traceback

from oslo_db import exception as db_exception
from oslo_utils import excutils
import sqlalchemy as sa

from masakari import exception
from masakari.notifications import api as notifications
from masakari.objects import fields
from masakari.objects import host as host_obj
from masakari.objects import segment as segment_obj

# Code points a MySQL utf8 (3-byte) connection can compare: the BMP.
LAST_COMPARABLE_CHARACTER = '\uffff'
# The texts of unbounded length (no maxLength in the request schemas) and
# what their TEXT columns hold on MySQL and MariaDB; SQLite and PostgreSQL
# take any length. (A notification's payload is bounded by its schema.)
TEXT_FIELDS = ('description', 'control_attributes')
TEXT_COLUMN_BYTES = 65535


@contextlib.contextmanager
def writing(notify, context, obj, action):
    """The versioned notifications of an API write of ``obj``.

    The block gets a function ``write``: ``write(obj.save)`` runs the
    save between ``<action>.start`` and ``.end``. When anything in the
    block fails (the write, or preparing the object before it), emit
    ``<action>.error``.

    :param notify: a ``masakari.notifications.api.notify_about_*_api``.
    :param action: a ``fields.EventNotificationAction`` value.
    :raises: the block's error, except a value the database cannot hold
        (a text over the 65,535 bytes of a MySQL TEXT column): that is bad
        input, a ValidationError (400) naming the field and the limit
        (:func:`too_long`).
    """
    try:
        yield functools.partial(notifications.around_write, notify,
                                context, obj, action)
    except Exception as error:
        with excutils.save_and_reraise_exception() as saved:
            notify(context, obj, action=action,
                   phase=fields.EventNotificationPhase.ERROR,
                   exception=error, tb=traceback.format_exc())
            saved.reraise = not _is_unstorable(error)
        raise too_long(obj) from error


def _is_unstorable(error):
    """Whether ``error`` is the database refusing a value it cannot hold.

    NOTE: oslo.db maps MySQL's "Data too long" (1406) to DBDataError but
    leaves "Incorrect string value" (1366) a plain DBError; MariaDB answers
    the latter when the TEXT limit cuts a multi-byte character in two.
    """
    return isinstance(error, db_exception.DBDataError) or (
        isinstance(error, db_exception.DBError) and
        isinstance(error.inner_exception, sa.exc.DataError))


def too_long(obj):
    """The ValidationError of a write of ``obj`` the database refused for
    a value's size: the field over TEXT_COLUMN_BYTES and that limit.

    NOTE: never the database's own text, which names its internals
    ("Data too long for column ... at row 1") or, when the limit falls
    inside a multi-byte character, calls the value an "Incorrect string".
    """
    for name in TEXT_FIELDS:
        value = getattr(obj, name) if _is_set(obj, name) else None
        size = len(value.encode('utf-8')) if value else 0
        if size > TEXT_COLUMN_BYTES:
            return exception.ValidationError(detail=(
                'Invalid input for field/attribute %s. The value is %d '
                'bytes long in UTF-8; at most %d are allowed.'
                % (name, size, TEXT_COLUMN_BYTES)))
    return exception.ValidationError(detail=exception.InvalidInput(
        reason='a value is longer than the database can store').
        format_message())


def _is_set(obj, name):
    """Whether the versioned object ``obj`` has a value for ``name``."""
    return name in getattr(obj, 'fields', ()) and obj.obj_attr_is_set(name)


def comparable(value):
    """False for a text with a code point above U+FFFF.

    NOTE: on a MySQL connection in utf8 (3 bytes: oslo.db's default, and
    ours when the URL asks for it) against MariaDB's default utf8mb4
    tables, comparing such a text with a column fails (error 1267, a 500
    in the reference). No stored name, type,
    status or uuid can hold one (the schemas refuse them), so such a value
    matches nothing: callers answer "not found" or an empty list.
    """
    return not isinstance(value, str) or max(
        value, default='') <= LAST_COMPARABLE_CHARACTER


def list_page(list_class, context, filters, sort_keys, sort_dirs, limit,
              marker):
    """A page of ``list_class`` (e.g. ``HostList``) from its ``get_all``.

    :raises: InvalidInput, MarkerNotFound, InvalidSortKey
    """
    matchable = {name: value for name, value in filters.items()
                 if comparable(value)}
    if matchable == filters:
        return list_class.get_all(
            context, filters=filters, sort_keys=sort_keys,
            sort_dirs=sort_dirs, limit=limit, marker=marker)
    # NOTE: still asked (for one row, without the filters that match
    # nothing) so that a bad marker or sort answers 400 as usual.
    list_class.get_all(context, filters=matchable, sort_keys=sort_keys,
                       sort_dirs=sort_dirs, limit=1, marker=marker)
    return []


def segment_by_uuid(context, segment_uuid):
    """:raises: FailoverSegmentNotFound"""
    if not comparable(segment_uuid):
        raise exception.FailoverSegmentNotFound(id=segment_uuid)
    return segment_obj.FailoverSegment.get_by_uuid(context, segment_uuid)


def host_by_uuid(context, segment_uuid, host_uuid):
    """The host ``host_uuid`` of segment ``segment_uuid``.

    :raises: HostNotFoundUnderFailoverSegment
    """
    if not (comparable(segment_uuid) and comparable(host_uuid)):
        raise exception.HostNotFoundUnderFailoverSegment(
            host_uuid=host_uuid, segment_uuid=segment_uuid)
    return host_obj.Host.get_by_uuid(context, host_uuid,
                                     segment_uuid=segment_uuid)
