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

"""The reads of the DB API: every row comes back as a ``rows.Row``."""

from masakari.db import facade
from masakari.db import sorting
from masakari.db import statements
from masakari import exception


def first(context, model, criteria, embed=None):
    """The first row of ``model`` (live ones as the context reads them)
    whose columns equal ``criteria``, carrying the row of the
    relationship ``embed`` when given; None when there is none.
    """
    statement = statements.first_row(model, embed, context.read_deleted,
                                     tuple(sorted(criteria)))
    values = facade.read(context, statement, criteria).first()
    if values is None:
        return None
    return statements.selection(model, embed).row(values)


def column(context, model, name, filters, at_least=None):
    """The values of column ``name`` of the rows of ``model`` (live ones as
    the context reads them) whose columns pass ``filters`` and
    ``at_least`` (see ``page``), in no particular order.
    """
    at_least = at_least or {}
    tests = statements.tests_of(filters)
    statement = statements.select(model, None, context.read_deleted, tests,
                                  tuple(sorted(at_least)), only=name)
    return list(facade.read(context, statement,
                            _parameters(tests, filters, at_least)).scalars())


def scalars(context, statement, parameters):
    """The first column of every row ``statement`` gives."""
    return list(facade.read(context, statement, parameters).scalars())


def page(context, model, filters=None, at_least=None, sort_keys=None,
         sort_dirs=None, limit=None, marker=None, embed=None):
    """One page of the rows of ``model`` (live ones as the context reads
    them), each carrying the row of the relationship ``embed`` when given.

    :param filters: column name -> the value it must equal, a
        collection of values (one of them), or None (NULL).
    :param at_least: column name -> its lowest value.
    :raises: InvalidInput, MarkerNotFound, InvalidSortKey (checked in this
        order, after ``limit == 0`` has returned an empty list untouched).
    """
    if limit == 0:
        return []
    sort_keys, sort_dirs = sorting.normalize_sort(sort_keys, sort_dirs)
    marker_row = None
    if marker is not None:
        marker_id = sorting.marker_id(marker)
        if marker_id is not None:
            marker_row = first(context, model, {'id': marker_id})
        if marker_row is None:
            raise exception.MarkerNotFound(marker=marker)
    sorting.check_sort_keys(model, sort_keys)
    filters, at_least = filters or {}, at_least or {}
    tests = statements.tests_of(filters)
    shape = (model, embed, context.read_deleted, tests,
             tuple(sorted(at_least)))
    build = statements.first_page if marker_row is None else statements.page
    statement = build(shape, tuple(sort_keys), tuple(sort_dirs),
                      limit is not None, marker_row)
    parameters = _parameters(tests, filters, at_least)
    if limit is not None:
        parameters[statements.LIMIT] = limit
    row = statements.selection(model, embed).row
    return [row(values)
            for values in facade.read(context, statement, parameters)]


def _parameters(tests, filters, at_least):
    parameters = statements.bound_values(tests, filters)
    parameters.update((statements.AT_LEAST % key, value)
                      for key, value in at_least.items())
    return parameters
