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

"""What the resource modules of the DB API share: the naming of their
errors in versioned notifications, and the steps of a lookup, an update
and a soft delete.
"""

import contextlib
import functools

from oslo_db import exception as db_exc

from masakari.db import reads
from masakari.db.sqlalchemy import models
from masakari.db import writes
from masakari import exception

# The module Masakari 22.0.0's versioned error notifications name for the
# errors of its database layer.
FAULT_MODULE = 'masakari.db.sqlalchemy.api'
# The relationship whose row a model's rows carry.
EMBEDDED = {models.Host: 'failover_segment'}


def named_in_faults(function):
    """Name ``function`` in the ``fault`` of the versioned error
    notification of a Masakari error raised while it runs.

    Masakari 22.0.0 names the write operation (``host_create`` ...), or
    the row reader (``_host_get_by_uuid``) when the row is gone, never a
    shared helper. The innermost decorated function wins, so a reader's
    name survives the operation around it.
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


def get(context, model, not_found, **criteria):
    """The live row of ``model`` whose columns equal ``criteria``,
    carrying the row of its EMBEDDED relationship.

    :raises: ``not_found`` when there is none.
    """
    row = reads.first(context, model, criteria, EMBEDDED.get(model))
    if row is None:
        raise not_found
    return row


@contextlib.contextmanager
def collision_raises(error):
    """A unique-key collision within raises ``error``."""
    try:
        yield
    except db_exc.DBDuplicateEntry:
        raise error


def update(context, model, row, values, duplicate=None):
    """``writes.update_row``, then ``row``; a unique-key collision raises
    ``duplicate`` (oslo.db's DBDuplicateEntry when None).
    """
    if duplicate is None:
        writes.update_row(context, model, row, values)
    else:
        with collision_raises(duplicate):
            writes.update_row(context, model, row, values)
    return row


def update_if(context, model, key, expected, values):
    """Compare-and-set: ``writes.update_if`` of the live row that ``key``
    (column name -> value) names, then that row read again (carrying its
    EMBEDDED row).

    :returns: the updated row, or None when no row matched.
    """
    if not writes.update_if(context, model, dict(expected, **key), values):
        return None
    return reads.first(context, model, key, EMBEDDED.get(model))


def soft_delete(context, model, not_found, **criteria):
    """``writes.soft_delete``; :raises: ``not_found`` when no row matched.
    """
    if not writes.soft_delete(context, model, criteria):
        raise not_found


def filters(given, *names):
    """The entries of the filters ``given`` (may be None) that ``names``
    name.
    """
    given = given or {}
    return {name: given[name] for name in names if name in given}
