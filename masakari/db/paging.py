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

"""Sorting, filtering and keyset paging shared by the four list functions.

The semantics are the reference's: ``created_at`` and ``id`` are
always appended to the sort keys, the marker is a row's integer ``id``,
and a page is the rows after the marker in sort order.
"""

import functools
import re

from oslo_db import exception as db_exc
from oslo_db.sqlalchemy import utils as sqlalchemyutils
import sqlalchemy as sa
from sqlalchemy.sql import util as sql_util

from masakari.db import facade
from masakari import exception
from masakari.i18n import _

SORT_DIRECTIONS = ('asc', 'desc')
DEFAULT_SORT_KEYS = ('created_at', 'id')
COLLECTION_TYPES = (list, tuple, set, frozenset)

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


# How a column is compared with the value of a filter: ``=``, ``IN`` (a
# collection) or ``IS NULL`` (None, as the ORM compares it).
EQUAL, AMONG, NULL = 'equal', 'among', 'null'


def comparison(value):
    """How a column is compared with ``value``: EQUAL, AMONG or NULL."""
    if value is None:
        return NULL
    if isinstance(value, COLLECTION_TYPES):
        return AMONG
    return EQUAL


def condition(column, test, parameter='%s'):
    """``column`` compared as ``test`` says with the bind parameter named
    ``parameter % column.key`` (none for NULL).
    """
    if test == NULL:
        return column.is_(None)
    name = parameter % column.key
    if test == AMONG:
        return column.in_(sa.bindparam(name, expanding=True))
    return column == sa.bindparam(name)


def bound_values(tests, values, parameter='%s'):
    """The bind parameters of the ``condition``s of ``tests`` ((column
    name, test) pairs) for the column values ``values``.
    """
    return {parameter % name: (list(values[name]) if test == AMONG
                               else values[name])
            for name, test in tests if test != NULL}


def filter_equal(query, column, value):
    """``column = value``, or ``column IN value`` for a collection."""
    if comparison(value) == AMONG:
        return query.filter(column.in_(value))
    return query.filter(column == value)


def _marker_row(context, model, marker):
    # NOTE: only a decimal integer names a row. MySQL would compare a text
    # marker by its numeric prefix ('7882ccb9-...' -> 7882); we answer
    # MarkerNotFound on every backend, as SQLite does.
    marker_id = marker
    if not isinstance(marker, int) or isinstance(marker, bool):
        text = str(marker)
        marker_id = int(text) if _DECIMAL_ID.fullmatch(text) else None
    row = None
    if marker_id is not None and 0 <= marker_id <= _MAX_ID:
        row = facade.model_query(context, model).filter(
            model.id == marker_id).first()
    if row is None:
        raise exception.MarkerNotFound(marker=marker)
    return row


def _check_sort_keys(model, sort_keys):
    # NOTE: only columns can be sorted on; a relationship name such as
    # 'failover_segment' is an invalid key like any other (the reference
    # crashed with NotImplementedError).
    columns = sa.inspect(model).column_attrs.keys()
    for key in sort_keys:
        if key not in columns:
            raise exception.InvalidSortKey(
                str(db_exc.InvalidSortKey(key)))


class Row(dict):
    """A row of a page: item access, ``get`` and attribute access, as a
    model instance has, without the ORM's per-instance bookkeeping (the
    identity map, change tracking), which cost more than the query itself
    on pages of a hundred rows.
    """

    __slots__ = ()

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _columns(mapper, table):
    """The columns of ``table`` that ``mapper`` maps, in its order."""
    return [table.c[column.key] for column in mapper.columns]


@functools.lru_cache(maxsize=None)
def _selection(model, embed):
    """The columns ``_filtered_statement`` selects for ``model`` and
    ``embed``, their names, the alias of the embedded row's table and the
    condition joining it.

    NOTE: worked out once per model rather than per request (the alias,
    its columns and the join cost a tenth of a list request); these are
    immutable SQL expression constructs, safe to share. They are the
    tables' columns, not the ORM's attributes: a statement of attributes
    runs through the ORM's compilation and result set-up, a tenth of a
    single-row read.
    """
    mapper = sa.inspect(model)
    columns = _columns(mapper, mapper.local_table)
    names = [column.key for column in columns]
    if embed is None:
        return columns, names, None, None, (), ()
    relationship = mapper.relationships[embed]
    joined = relationship.mapper.local_table.alias()
    join = sql_util.ClauseAdapter(joined).traverse(relationship.primaryjoin)
    joined_columns = _columns(relationship.mapper, joined)
    return (columns, names, joined, join, joined_columns,
            [column.key for column in joined_columns])


@functools.lru_cache(maxsize=None)
def _row_maker(model, embed):
    """The function turning the values of ``_selection``'s columns into
    a Row.
    """
    _, names, _, _, _, joined_names = _selection(model, embed)
    if embed is None:
        return lambda values: Row(zip(names, values))
    width = len(names)
    joined_id = width + joined_names.index('id')

    def row(values):
        result = Row(zip(names, values))
        result[embed] = (Row(zip(joined_names, values[width:]))
                         if values[joined_id] is not None else None)
        return result
    return row


# NOTE: names of bind parameters that no column key takes: the page
# size, and a column's lower bound.
_LIMIT = 'page_limit'
_AT_LEAST = '%s_at_least'


@functools.lru_cache(maxsize=256)
def _filtered_statement(model, embed, read_deleted, tests=(), at_least=()):
    """The SELECT of ``_selection``'s columns: the rows (live ones as
    ``read_deleted`` says) whose columns pass ``tests`` ((column name,
    test) pairs: see ``condition``, the bind parameters named as the
    columns) and whose columns named in ``at_least`` are at least their
    bind parameters (named ``_AT_LEAST``).

    NOTE: built once per shape and reused, the values bound when it runs:
    building a statement through the ORM's Query on each call cost a
    third of a list request, and several times a single-row read.
    """
    columns, _, joined, join, joined_columns, _ = _selection(model, embed)
    statement = sa.select(*columns, *joined_columns)
    if embed is not None:
        statement = statement.outerjoin(joined, join)
    table = model.__table__
    criterion = facade.deleted_criterion(table.c, read_deleted)
    if criterion is not None:
        statement = statement.where(criterion)
    return statement.where(
        *(condition(table.c[name], test) for name, test in tests),
        *(table.c[key] >= sa.bindparam(_AT_LEAST % key)
          for key in at_least))


def _page(shape, sort_keys, sort_dirs, limited, marker_row=None):
    """``_filtered_statement(*shape)`` in sort order, from the row after
    ``marker_row`` (oslo.db's keyset criteria) or the first, and at most
    ``_LIMIT`` rows when ``limited``.
    """
    statement = sqlalchemyutils.paginate_query(
        _filtered_statement(*shape), shape[0], None, list(sort_keys),
        marker=marker_row, sort_dirs=list(sort_dirs))
    return statement.limit(sa.bindparam(_LIMIT)) if limited else statement


# The first pages' statements, built once per shape (as
# _filtered_statement); a page after a marker has its own criteria.
_first_page = functools.lru_cache(maxsize=256)(_page)


@functools.lru_cache(maxsize=None)
def _first_row_statement(model, embed, read_deleted, keys):
    return _filtered_statement(model, embed, read_deleted,
                               tuple((key, EQUAL) for key in keys)).limit(1)


def get_row(context, model, criteria, embed=None):
    """The first row of ``model`` (live ones as the context reads them)
    whose columns equal ``criteria``, as a Row like ``get_page`` gives,
    or None.
    """
    statement = _first_row_statement(model, embed, context.read_deleted,
                                     tuple(sorted(criteria)))
    values = facade.executor(context).execute(statement, criteria).first()
    return None if values is None else _row_maker(model, embed)(values)


def get_page(context, model, filters=None, at_least=None, sort_keys=None,
             sort_dirs=None, limit=None, marker=None, embed=None):
    """Return one page of the rows of ``model`` (live ones as the context
    reads them) as Rows; ``embed`` names a many-to-one relationship of
    ``model`` whose row each Row carries under that name (e.g. a host's
    segment).

    :param filters: column name -> the value it must equal, a
        collection of values (one of them), or None (NULL).
    :param at_least: column name -> its lowest value.
    :raises: InvalidInput, MarkerNotFound, InvalidSortKey (checked in this
        order, after ``limit == 0`` has returned an empty list untouched).
    """
    if limit == 0:
        return []
    sort_keys, sort_dirs = normalize_sort(sort_keys, sort_dirs)
    marker_row = None
    if marker is not None:
        marker_row = _marker_row(context, model, marker)
    _check_sort_keys(model, sort_keys)
    filters, at_least = filters or {}, at_least or {}
    tests = tuple(sorted((name, comparison(value))
                         for name, value in filters.items()))
    shape = (model, embed, context.read_deleted, tests,
             tuple(sorted(at_least)))
    values = bound_values(tests, filters)
    values.update((_AT_LEAST % key, value) for key, value in at_least.items())
    page = _first_page if marker_row is None else _page
    statement = page(shape, tuple(sort_keys), tuple(sort_dirs),
                     limit is not None, marker_row)
    if limit is not None:
        values[_LIMIT] = limit
    row = _row_maker(model, embed)
    return [row(result)
            for result in context.session.execute(statement, values)]
