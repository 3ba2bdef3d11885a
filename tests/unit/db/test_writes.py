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

"""The writes of masakari.db.writes, through the DB API and directly."""

import datetime
from unittest import mock

import sqlalchemy as sa

from masakari.db import api as db
from masakari.db import facade
from masakari.db.sqlalchemy import models
from masakari.db import writes
from tests.unit.db import base

OBSERVED = datetime.datetime(2026, 1, 1, 11)


class _Statements(base.DbTestCase):
    """Records the first word of every statement sent."""

    def setUp(self):
        super().setUp()
        self.statements = []
        sa.event.listen(db.get_engine(), 'before_cursor_execute',
                        self._count)
        self.addCleanup(sa.event.remove, db.get_engine(),
                        'before_cursor_execute', self._count)

    def _count(self, connection, cursor, statement, *args):
        # NOTE: SQLite's BEGIN is left out: MariaDB sends none.
        if not statement.startswith('BEGIN'):
            self.statements.append(statement.split()[0])


class TestUpdateRow(_Statements):

    def setUp(self):
        super().setUp()
        self.uuid = self.create_notification().notification_uuid
        self.statements.clear()

    def test_only_changed_columns_are_written(self):
        updated = db.notification_update(
            self.ctx, self.uuid, {'status': 'new', 'message': 'why'})
        self.assertEqual(['SELECT', 'UPDATE'], self.statements)
        self.assertEqual('why', updated.message)
        self.assertEqual(0, updated.updated_at.microsecond)
        stored = db.notification_get_by_uuid(self.ctx, self.uuid)
        self.assertEqual(dict(updated), dict(stored))

    def test_nothing_changed_nothing_written(self):
        updated = db.notification_update(
            self.ctx, self.uuid, {'status': 'new', 'type': 'COMPUTE_HOST'})
        self.assertEqual(['SELECT'], self.statements)
        self.assertIsNone(updated.updated_at)
        self.assertIsNone(
            db.notification_get_by_uuid(self.ctx, self.uuid).updated_at)

    def test_the_row_read_is_updated_in_place(self):
        @facade.writer
        def finish(context):
            row = db.notification_get_by_uuid(context, self.uuid)
            writes.update_row(context, models.Notification, row,
                              {'status': 'finished'})
            return row

        row = finish(self.ctx)
        self.assertEqual('finished', row.status)
        self.assertEqual(row.updated_at, db.notification_get_by_uuid(
            self.ctx, self.uuid).updated_at)


class TestUpdateIf(base.DbTestCase):

    def setUp(self):
        super().setUp()
        self.uuid = self.create_notification().notification_uuid

    def take_over(self, observed):
        return db.notification_update_if(
            self.ctx, self.uuid, {'status': 'new', 'updated_at': observed},
            {'updated_at': OBSERVED})

    def test_none_expects_null(self):
        self.assertIsNone(self.take_over(OBSERVED))
        self.assertEqual(OBSERVED, self.take_over(None).updated_at)
        self.assertIsNone(self.take_over(None))
        self.assertEqual(OBSERVED, self.take_over(OBSERVED).updated_at)

    def test_collections_and_live_rows(self):
        @facade.writer
        def claim(context, expected):
            return writes.update_if(
                context, models.Notification,
                dict(expected, notification_uuid=self.uuid),
                {'status': 'running'})

        self.assertEqual(0, claim(self.ctx, {'status': ('error', 'failed')}))
        self.assertEqual(1, claim(self.ctx, {'status': {'new', 'error'}}))
        db.notification_delete(self.ctx, self.uuid)
        self.assertEqual(0, claim(self.ctx, {'status': 'running'}))


class TestInsert(_Statements):

    def test_the_row_inserted_without_reading_it(self):
        segment = self.create_segment(description=None, enabled=None)
        self.assertEqual(['INSERT'], self.statements)
        columns = models.FailoverSegment.__table__.c.keys()
        self.assertEqual(columns, list(segment))
        # NOTE: a column with a default takes it for None, as the ORM did.
        self.assertIs(True, segment.enabled)
        self.assertEqual(0, segment.deleted)
        self.assertEqual(0, segment.created_at.microsecond)
        self.assertIsNone(segment.updated_at)
        stored = db.failover_segment_get_by_uuid(self.ctx, segment.uuid)
        self.assertEqual(dict(stored), dict(segment))

    def test_a_host_is_read_again_for_its_segment(self):
        segment = self.create_segment()
        self.statements.clear()
        host = self.create_host(segment)
        self.assertEqual(['INSERT', 'SELECT'], self.statements)
        self.assertEqual(segment.name, host.failover_segment.name)

    def test_vmoves_in_one_transaction(self):
        rows = db.vmoves_create(self.ctx, [
            {'uuid': 'm%d' % index, 'notification_uuid': 'n',
             'instance_uuid': 'i%d' % index, 'instance_name': 'vm'}
            for index in range(3)])
        self.assertEqual(['m0', 'm1', 'm2'], [row.uuid for row in rows])
        self.assertEqual(3, len({row.id for row in rows}))
        self.assertEqual([row.id for row in rows], [
            db.vmove_get_by_uuid(self.ctx, row.uuid).id for row in rows])


class TestOnePath(base.DbTestCase):
    """Every INSERT, UPDATE and DELETE the DB API sends goes through
    facade.write.
    """

    def test_every_write_statement(self):
        sent, through = [], []
        write = facade.write

        def counted(context, statement, parameters=None):
            through.append(statement)
            return write(context, statement, parameters)

        def record(connection, cursor, statement, *args):
            if statement.split()[0] in ('INSERT', 'UPDATE', 'DELETE'):
                sent.append(statement)

        sa.event.listen(db.get_engine(), 'before_cursor_execute', record)
        self.addCleanup(sa.event.remove, db.get_engine(),
                        'before_cursor_execute', record)
        with mock.patch.object(facade, 'write', side_effect=counted):
            segment = self.create_segment()
            host = self.create_host(segment)
            db.host_update(self.ctx, host.uuid, {'reserved': True})
            db.host_update_if(self.ctx, host.uuid, {'reserved': True},
                              {'reserved': False})
            notification = self.create_notification()
            self.create_vmove(notification.notification_uuid)
            db.notification_delete(self.ctx, notification.notification_uuid)
            db.failover_segment_delete(self.ctx, segment.uuid)
            db.purge_deleted_rows(self.ctx, 0, -1)
        self.assertEqual(13, len(sent))
        self.assertEqual(len(sent), len(through))
