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

"""The Core statements of the DB API, built once per shape and reused,
the values bound when they run.

A shape is what changes the SQL text: the model, the columns tested and
how (see ``comparison``), the columns set, the sort. SQLAlchemy caches
the compilation of a statement, but a statement built again for every
call costs its construction and its cache key each time; the measures
that keep construction cached here are in
doc/source/contributor/benchmarks.rst.
"""

import collections
import functools

import sqlalchemy as sa
from sqlalchemy.sql import util as sql_util

from masakari.db import rows
from masakari.db import sorting
from masakari.db.sqlalchemy import models

COLLECTION_TYPES = (list, tuple, set, frozenset)

# How a column is compared with the value of a filter: ``=``, ``IN`` (a
# collection) or ``IS NULL`` (None, as the ORM compares it).
EQUAL, AMONG, NULL = 'equal', 'among', 'null'

# NOTE: names of bind parameters that no column key takes: the page
# size, a column's lower bound, and the prefixes of an UPDATE's tested
# and set columns (a column may be both, and SQLAlchemy reserves the
# column names themselves for the SET clause).
LIMIT = 'page_limit'
AT_LEAST = '%s_at_least'
WHERE = 'where_%s'
SET = 'set_%s'


def comparison(value):
    """How a column is compared with ``value``: EQUAL, AMONG or NULL."""
    if value is None:
        return NULL
    if isinstance(value, COLLECTION_TYPES):
        return AMONG
    return EQUAL


def tests_of(values):
    """The shape of the filters ``values`` (column name -> value): sorted
    (column name, comparison) pairs.
    """
    return tuple(sorted((name, comparison(value))
                        for name, value in values.items()))


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
    """The bind parameters of the ``condition``s of ``tests`` for the
    column values ``values``.
    """
    return {parameter % name: (list(values[name]) if test == AMONG
                               else values[name])
            for name, test in tests if test != NULL}


def deleted_criterion(columns, read_deleted):
    """The condition on ``columns.deleted`` (a table's columns) that
    ``read_deleted`` asks for: 'no' live rows, 'only' deleted rows, None
    for 'yes' (all rows).
    """
    if read_deleted == 'no':
        return columns.deleted == 0
    if read_deleted == 'only':
        return columns.deleted != 0
    if read_deleted == 'yes':
        return None
    raise ValueError("Unrecognized read_deleted value '%s'" % read_deleted)


def _criteria(table, read_deleted, tests, parameter='%s'):
    criterion = deleted_criterion(table.c, read_deleted)
    return (*(() if criterion is None else (criterion,)),
            *(condition(table.c[name], test, parameter)
              for name, test in tests))


# The columns a read selects for a model: the table's (``columns``), then
# those of the row it embeds (``joined``, an alias of its table, joined
# on ``join``); ``row`` turns a result's values into a rows.Row.
Selection = collections.namedtuple('Selection',
                                   'columns joined join joined_columns row')


def _columns(mapper, table):
    """The columns of ``table`` that ``mapper`` maps, in its order."""
    return [table.c[column.key] for column in mapper.columns]


@functools.lru_cache(maxsize=None)
def selection(model, embed=None):
    """The Selection of ``model``, embedding the row of its many-to-one
    relationship ``embed`` (e.g. a host's segment) when given.

    NOTE: the tables' columns, not the ORM's attributes: a statement of
    attributes runs through the ORM's compilation and result set-up.
    """
    mapper = sa.inspect(model)
    columns = _columns(mapper, mapper.local_table)
    names = [column.key for column in columns]
    if embed is None:
        return Selection(columns, None, None, (), rows.maker(names))
    relationship = mapper.relationships[embed]
    joined = relationship.mapper.local_table.alias()
    join = sql_util.ClauseAdapter(joined).traverse(relationship.primaryjoin)
    joined_columns = _columns(relationship.mapper, joined)
    return Selection(columns, joined, join, joined_columns, rows.maker(
        names, embed, [column.key for column in joined_columns]))


@functools.lru_cache(maxsize=256)
def select(model, embed, read_deleted, tests=(), at_least=(), only=None):
    """The SELECT of the Selection's columns (of column ``only`` when
    given): the rows (live ones as ``read_deleted`` says) whose columns
    pass ``tests`` (the bind parameters named as the columns) and whose
    columns named in ``at_least`` are at least their bind parameters
    (named ``AT_LEAST``).
    """
    table = model.__table__
    if only is not None:
        statement = sa.select(table.c[only])
    else:
        chosen = selection(model, embed)
        statement = sa.select(*chosen.columns, *chosen.joined_columns)
        if embed is not None:
            statement = statement.outerjoin(chosen.joined, chosen.join)
    return statement.where(
        *_criteria(table, read_deleted, tests),
        *(table.c[key] >= sa.bindparam(AT_LEAST % key)
          for key in at_least))


@functools.lru_cache(maxsize=None)
def first_row(model, embed, read_deleted, keys):
    """The first row whose columns ``keys`` equal their bind parameters."""
    return select(model, embed, read_deleted,
                  tuple((key, EQUAL) for key in keys)).limit(1)


def page(shape, sort_keys, sort_dirs, limited, marker_row=None):
    """``select(*shape)`` in sort order, from the row after ``marker_row``
    or the first, and at most ``LIMIT`` rows when ``limited``.
    """
    statement = sorting.in_order(select(*shape), shape[0], sort_keys,
                                 sort_dirs, marker_row)
    return statement.limit(sa.bindparam(LIMIT)) if limited else statement


# The first pages' statements, built once per shape; a page after a
# marker has criteria of the marker row's values.
first_page = functools.lru_cache(maxsize=256)(page)


@functools.lru_cache(maxsize=None)
def under_recovery(read_deleted, status_test=None):
    """The first notification (as ``read_deleted`` says) about a live
    host of the segment bound as ``failover_segment_id``, whose status
    passes ``status_test`` (any status when None).
    """
    hosts = models.Host.__table__
    table = models.Notification.__table__
    host_uuids = sa.select(hosts.c.uuid).where(
        hosts.c.deleted == 0,
        hosts.c.failover_segment_id == sa.bindparam('failover_segment_id'))
    tests = () if status_test is None else (('status', status_test),)
    return sa.select(table.c.id).where(
        *_criteria(table, read_deleted, tests),
        table.c.source_host_uuid.in_(host_uuids)).limit(1)


@functools.lru_cache(maxsize=None)
def insert(model):
    """The INSERT of a row of ``model``."""
    return sa.insert(model.__table__)


@functools.lru_cache(maxsize=None)
def update_if(model, read_deleted, tests, names):
    """UPDATE the rows of ``model`` (live ones as ``read_deleted`` says)
    whose columns pass ``tests`` and SET the columns ``names`` (the bind
    parameters named ``WHERE`` and ``SET``).
    """
    table = model.__table__
    return sa.update(table).where(
        *_criteria(table, read_deleted, tests, WHERE)).values(
            {name: sa.bindparam(SET % name) for name in names})


@functools.lru_cache(maxsize=None)
def soft_delete(model, read_deleted, tests):
    """``update_if`` marking the rows deleted (``deleted`` = ``id``) at
    the bound ``deleted_at``; ``updated_at`` stays, as in oslo.db.
    """
    table = model.__table__
    return update_if(model, read_deleted, tests, ('deleted_at',)).values(
        deleted=table.c.id, updated_at=table.c.updated_at)
