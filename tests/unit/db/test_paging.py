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

"""The list functions' sorting, marker and limit semantics."""

import datetime

from masakari.db import api as db
from masakari.db.sqlalchemy import models
from masakari.db import statements
from masakari import exception
from tests.unit.db import base

T0 = datetime.datetime(2026, 3, 1, 12, 0, 0)


class TestListSemantics(base.DbTestCase):

    def setUp(self):
        super().setUp()
        # ids 1..4; 2 and 3 share created_at, so id breaks the tie.
        self.segments = [
            self.create_segment(name='b', created_at=T0),
            self.create_segment(name='d', created_at=T0 + _minutes(1),
                                enabled=False),
            self.create_segment(name='a', created_at=T0 + _minutes(1)),
            self.create_segment(name='c', created_at=T0 + _minutes(2)),
        ]

    def names(self, **kwargs):
        return [row.name for row in
                db.failover_segment_get_all_by_filters(self.ctx, **kwargs)]

    def test_default_order_is_created_at_then_id_descending(self):
        self.assertEqual(['c', 'a', 'd', 'b'], self.names())

    def test_first_direction_is_the_default_for_the_appended_keys(self):
        self.assertEqual(['a', 'b', 'c', 'd'],
                         self.names(sort_keys=['name'], sort_dirs=['asc']))
        self.assertEqual(['b', 'd', 'a', 'c'],
                         self.names(sort_keys=['created_at'],
                                    sort_dirs=['asc']))
        self.assertEqual(['d', 'c', 'b', 'a'], self.names(sort_keys=['name']))
        self.assertEqual(['d', 'c', 'b', 'a'],
                         self.names(sort_keys=['enabled', 'name'],
                                    sort_dirs=['asc', 'desc']))

    def test_limit_and_keyset_pages(self):
        seen = []
        marker = None
        while True:
            page = db.failover_segment_get_all_by_filters(
                self.ctx, sort_keys=['enabled', 'name'],
                sort_dirs=['asc', 'asc'], limit=1, marker=marker)
            if not page:
                break
            seen.append(page[0].name)
            marker = page[0].id
        self.assertEqual(['d', 'a', 'b', 'c'], seen)
        self.assertEqual(['c', 'a'], self.names(limit=2))
        self.assertEqual(['d', 'b'],
                         self.names(limit=2, marker=self.segments[2].id))

    def test_limit_zero_returns_nothing_without_checking(self):
        self.assertEqual([], self.names(limit=0, sort_dirs=['up'],
                                        marker='nope', sort_keys=['x']))

    def test_marker_may_be_a_decimal_string(self):
        self.assertEqual(['d', 'b'],
                         self.names(marker=str(self.segments[2].id)))

    def test_marker_from_outside_the_filters_is_accepted(self):
        rows = db.failover_segment_get_all_by_filters(
            self.ctx, filters={'enabled': True},
            marker=self.segments[1].id)
        self.assertEqual(['b'], [row.name for row in rows])

    def test_invalid_markers(self):
        # Fix: on MySQL '2abc' or a uuid starting with digits matched the
        # row with that numeric prefix; only a decimal id names a row.
        db.failover_segment_delete(self.ctx, self.segments[3].uuid)
        for marker in ('2abc', '%d-7882ccb9' % self.segments[1].id, 'abc',
                       '', ' 2', '2.0', '-1', 99, str(2 ** 70),
                       self.segments[3].id):
            error = self.assertRaises(
                exception.MarkerNotFound,
                db.failover_segment_get_all_by_filters, self.ctx,
                marker=marker)
            self.assertEqual('Marker %s could not be found.' % marker,
                             error.format_message())

    def test_invalid_sort_directions(self):
        error = self.assertRaises(exception.InvalidInput, self.names,
                                  sort_keys=['name'], sort_dirs=['up'])
        self.assertEqual("Invalid input received: Unknown sort direction, "
                         "must be 'asc' or 'desc'", error.format_message())
        self.assertRaises(exception.InvalidInput, self.names,
                          sort_keys=['name'], sort_dirs=['asc-nullsfirst'])
        error = self.assertRaises(exception.InvalidInput, self.names,
                                  sort_keys=['name'],
                                  sort_dirs=['asc', 'desc'])
        self.assertEqual('Invalid input received: Sort direction size '
                         'exceeds sort key size', error.format_message())
        self.assertRaises(exception.InvalidInput, self.names,
                          sort_dirs=['asc'])

    def test_invalid_sort_keys(self):
        error = self.assertRaises(exception.InvalidSortKey, self.names,
                                  sort_keys=['foo'])
        self.assertEqual('Sort key supplied is invalid: foo',
                         error.format_message())
        self.assertEqual(400, error.code)

    def test_relationship_names_are_invalid_sort_keys(self):
        # Fix: 22.0.0 crashed with NotImplementedError (a 500).
        self.create_host(self.segments[0])
        error = self.assertRaises(exception.InvalidSortKey,
                                  db.host_get_all_by_filters, self.ctx,
                                  sort_keys=['failover_segment'])
        self.assertEqual('Sort key supplied is invalid: failover_segment',
                         error.format_message())
        self.assertRaises(exception.InvalidSortKey, self.names,
                          sort_keys=['hosts'])

    def test_checks_run_in_order(self):
        self.assertRaises(exception.InvalidInput, self.names,
                          sort_keys=['foo'], sort_dirs=['up'], marker='x')
        self.assertRaises(exception.MarkerNotFound, self.names,
                          sort_keys=['foo'], marker='x')


class TestStatementReuse(base.DbTestCase):
    """A first page's statement is built once per shape; the values are
    bound when it runs.
    """

    def setUp(self):
        super().setUp()
        statements.first_page.cache_clear()
        self.addCleanup(statements.first_page.cache_clear)
        self.create_segment(name='on', created_at=T0)
        self.create_segment(name='off', created_at=T0 + _minutes(1),
                            enabled=False)

    def names(self, **kwargs):
        return [row.name for row in
                db.failover_segment_get_all_by_filters(self.ctx, **kwargs)]

    def test_values_of_one_shape_share_a_statement(self):
        self.assertEqual(['on'], self.names(filters={'enabled': True}))
        self.assertEqual(['off'], self.names(filters={'enabled': False}))
        self.assertEqual(['off'], self.names(limit=1))
        self.assertEqual(['off', 'on'], self.names(limit=2))
        info = statements.first_page.cache_info()
        self.assertEqual((2, 2), (info.hits, info.misses))

    def test_a_collection_is_one_of_its_values(self):
        self.create_notification(status='new')
        running = self.create_notification(status='running')
        error = self.create_notification(status='error')
        for statuses in (['running', 'error'], ('error', 'running'),
                         {'running', 'error'}, frozenset(['error',
                                                          'running'])):
            rows = db.notifications_get_all_by_filters(
                self.ctx, filters={'status': statuses})
            self.assertEqual({running.id, error.id},
                             {row.id for row in rows})
        self.assertEqual([], db.notifications_get_all_by_filters(
            self.ctx, filters={'status': []}))

    def test_none_is_null_as_the_orm_compares_it(self):
        unsegmented = self.create_notification()
        self.create_notification(failover_segment_uuid='segment-1')
        rows = db.notifications_get_all_by_filters(
            self.ctx, filters={'failover_segment_uuid': None})
        self.assertEqual([unsegmented.id], [row.id for row in rows])


class TestOtherLists(base.DbTestCase):

    def test_every_list_function_pages_by_id(self):
        segment = self.create_segment()
        hosts = [self.create_host(segment, created_at=T0) for _ in range(3)]
        notifications = [self.create_notification(created_at=T0)
                         for _ in range(3)]
        vmoves = [self.create_vmove('n', created_at=T0) for _ in range(3)]
        for list_rows, rows in ((db.host_get_all_by_filters, hosts),
                                (db.notifications_get_all_by_filters,
                                 notifications),
                                (db.vmoves_get_all_by_filters, vmoves)):
            page = list_rows(self.ctx, limit=1, marker=rows[2].id)
            self.assertEqual([rows[1].id], [row.id for row in page])
            self.assertRaises(exception.MarkerNotFound, list_rows, self.ctx,
                              marker='1x')


def _minutes(count):
    return datetime.timedelta(minutes=count)


class TestRows(base.DbTestCase):
    """A page's rows: plain dicts with the model instances' access."""

    def test_every_column_with_attribute_and_item_access(self):
        segment = self.create_segment(description=None)
        row, = db.failover_segment_get_all_by_filters(self.ctx)
        self.assertIsInstance(row, dict)
        columns = [column.key for column in
                   models.FailoverSegment.__table__.columns]
        self.assertEqual(columns, list(row))
        for column in columns:
            self.assertEqual(getattr(segment, column), row[column])
            self.assertEqual(row[column], getattr(row, column))
        self.assertEqual('d', row.get('no such column', 'd'))
        self.assertRaises(AttributeError, getattr, row, 'no_such_column')

    def test_host_rows_carry_their_segment_row(self):
        segment = self.create_segment()
        host = self.create_host(segment)
        row, = db.host_get_all_by_filters(self.ctx)
        self.assertEqual(host.uuid, row.uuid)
        self.assertEqual(segment.id, row.failover_segment.id)
        self.assertEqual(segment.name, row['failover_segment']['name'])
        self.assertEqual(host.id, row.id)

    def test_segment_row_of_a_deleted_segment_still_comes(self):
        segment = self.create_segment()
        self.create_host(segment)
        with db.get_engine().begin() as connection:
            connection.execute(models.FailoverSegment.__table__.update(
            ).values(deleted=segment.id))
        row, = db.host_get_all_by_filters(self.ctx)
        self.assertEqual(segment.uuid, row.failover_segment.uuid)
        self.assertEqual(segment.id, row.failover_segment.deleted)


class TestReadingScope(base.DbTestCase):

    def test_reads_within_share_one_connection(self):
        segment = self.create_segment()
        with db.reading(self.ctx):
            connection = self.ctx.connection
            self.assertEqual(segment.uuid, db.failover_segment_get_by_uuid(
                self.ctx, segment.uuid).uuid)
            db.failover_segment_get_all_by_filters(self.ctx)
            self.assertIs(connection, self.ctx.connection)

    def test_no_write_within(self):
        with db.reading(self.ctx):
            self.assertRaises(TypeError, self.create_segment)
