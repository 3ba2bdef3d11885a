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

"""UPDATEs the engine runs for every notification, as Core statements
built once per shape and reused, the values bound when they run.

NOTE: the ORM's way (a Query's bulk update, or an instance loaded,
changed and flushed) cost the engine more CPU than the round trips
themselves: statement building, the identity map and the unit of work.
Both functions keep what the ORM did: only changed columns are written,
``updated_at`` is ours (whole seconds), and a row is live as the
context reads it.
"""

import functools

import sqlalchemy as sa

from masakari.db import facade
from masakari.db import paging
from masakari.db.sqlalchemy import models

# NOTE: prefixes of the bind parameters: a column may be tested and set
# in the same statement, and SQLAlchemy reserves the column names
# themselves for the SET clause.
_WHERE = 'where_%s'
_SET = 'set_%s'


def _setting(names):
    return {name: sa.bindparam(_SET % name) for name in names}


@functools.lru_cache(maxsize=None)
def _update_if_statement(model, read_deleted, tests, names):
    """UPDATE the live rows of ``model`` whose columns pass ``tests``
    (column name, test) and SET the columns ``names``.
    """
    table = model.__table__
    criterion = facade.deleted_criterion(table.c, read_deleted)
    return sa.update(table).where(
        *(() if criterion is None else (criterion,)),
        *(paging.condition(table.c[name], test, _WHERE)
          for name, test in tests)).values(_setting(names))


@functools.lru_cache(maxsize=None)
def _update_by_id_statement(model, names):
    table = model.__table__
    return sa.update(table).where(
        table.c.id == sa.bindparam(_WHERE % 'id')).values(
            _setting(names))


def update_if(context, model, expected, values):
    """One ``UPDATE ... WHERE`` of the live rows whose columns have the
    values of ``expected`` (one of them for a collection; None is NULL).
    ``updated_at`` is now unless ``values`` gives it.

    :returns: how many rows matched.
    """
    values = dict({'updated_at': models.utcnow_whole_seconds()}, **values)
    tests = tuple(sorted((name, paging.comparison(value))
                         for name, value in expected.items()))
    names = tuple(sorted(values))
    statement = _update_if_statement(model, context.read_deleted, tests,
                                     names)
    parameters = paging.bound_values(tests, expected, _WHERE)
    parameters.update((_SET % name, value) for name, value in values.items())
    return facade.executor(context).execute(statement, parameters).rowcount


def update_row(context, model, row, values):
    """Write the columns of ``values`` whose value differs from ``row``'s
    (a Row read in this transaction) to that row, with ``updated_at``
    now, and apply them to ``row``; nothing differs, nothing is written
    (``updated_at`` stays), as an ORM flush does.

    NOTE: the row is not read again: it is what was read plus what was
    written, which is what the flushed ORM instance held.
    """
    changes = {name: value for name, value in values.items()
               if not row[name] == value}
    if not changes:
        return
    changes['updated_at'] = models.utcnow_whole_seconds()
    statement = _update_by_id_statement(model, tuple(sorted(changes)))
    parameters = {_SET % name: value for name, value in changes.items()}
    parameters[_WHERE % 'id'] = row['id']
    facade.executor(context).execute(statement, parameters)
    row.update(changes)
