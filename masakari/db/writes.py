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

"""The writes of the DB API: every INSERT and UPDATE it runs.

They keep what the ORM did before them: only changed columns are
written, ``created_at`` and ``updated_at`` are ours (whole seconds), a
column with a default takes it for None, and a row is live as the
context reads it. A write gives back the row as the transaction holds it
(what was read, or inserted, plus what was written), without reading it
again.
"""

from oslo_utils import timeutils

from masakari.db import facade
from masakari.db import rows
from masakari.db.sqlalchemy import models
from masakari.db import statements


def insert(context, model, values):
    """Insert a row of ``model``: a Row of every column (None for those
    neither given nor defaulted), with its new ``id``. Names of no column
    are left out, as the ORM left them.
    """
    columns = model.__table__.c
    values = {name: value for name, value in values.items()
              if name in columns and (value is not None or
                                      columns[name].default is None)}
    result = facade.write(context, statements.insert(model), values)
    row = rows.Row.fromkeys(columns.keys())
    row.update(result.last_inserted_params())
    row['id'] = result.inserted_primary_key[0]
    return row


def update_row(context, model, row, values):
    """Write the columns of ``values`` whose value differs from ``row``'s
    (a Row read in this transaction) to that row, with ``updated_at`` now
    unless given, and apply them to ``row``; nothing differs, nothing is
    written (``updated_at`` stays).
    """
    changes = {name: value for name, value in values.items()
               if not row[name] == value}
    if not changes:
        return
    changes.setdefault('updated_at', models.utcnow_whole_seconds())
    _update(context, model, 'yes', {'id': row['id']}, changes)
    row.update(changes)


def update_if(context, model, expected, values):
    """One ``UPDATE ... WHERE`` of the live rows whose columns have the
    values of ``expected`` (one of them for a collection; None is NULL).
    ``updated_at`` is now unless ``values`` gives it.

    :returns: how many rows matched.
    """
    values = dict({'updated_at': models.utcnow_whole_seconds()}, **values)
    return _update(context, model, context.read_deleted, expected, values)


def soft_delete(context, model, criteria):
    """Mark the live rows whose columns equal ``criteria`` deleted.

    :returns: how many rows matched.
    """
    tests = statements.tests_of(criteria)
    statement = statements.soft_delete(model, context.read_deleted, tests)
    parameters = statements.bound_values(tests, criteria, statements.WHERE)
    parameters[statements.SET % 'deleted_at'] = timeutils.utcnow()
    return facade.write(context, statement, parameters).rowcount


def _update(context, model, read_deleted, expected, values):
    tests = statements.tests_of(expected)
    statement = statements.update_if(model, read_deleted, tests,
                                     tuple(sorted(values)))
    parameters = statements.bound_values(tests, expected, statements.WHERE)
    parameters.update((statements.SET % name, value)
                      for name, value in values.items())
    return facade.write(context, statement, parameters).rowcount
