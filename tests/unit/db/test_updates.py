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

"""The Core UPDATEs of masakari.db.updates, through the DB API and
directly.
"""

import datetime

import sqlalchemy as sa

from masakari.db import api as db
from masakari.db import facade
from masakari.db.sqlalchemy import models
from masakari.db import updates
from tests.unit.db import base

OBSERVED = datetime.datetime(2026, 1, 1, 11)


class TestUpdateRow(base.DbTestCase):

    def setUp(self):
        super().setUp()
        self.uuid = self.create_notification().notification_uuid
        self.statements = []
        sa.event.listen(db.get_engine(), 'before_cursor_execute',
                        self._count)
        self.addCleanup(sa.event.remove, db.get_engine(),
                        'before_cursor_execute', self._count)

    def _count(self, connection, cursor, statement, *args):
        # NOTE: SQLite's BEGIN is left out: MariaDB sends none.
        if not statement.startswith('BEGIN'):
            self.statements.append(statement.split()[0])

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
        @facade.core_writer
        def finish(context):
            row = db.notification_get_by_uuid(context, self.uuid)
            updates.update_row(context, models.Notification, row,
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
        @facade.core_writer
        def claim(context, expected):
            return updates.update_if(
                context, models.Notification,
                dict(expected, notification_uuid=self.uuid),
                {'status': 'running'})

        self.assertEqual(0, claim(self.ctx, {'status': ('error', 'failed')}))
        self.assertEqual(1, claim(self.ctx, {'status': {'new', 'error'}}))
        db.notification_delete(self.ctx, self.uuid)
        self.assertEqual(0, claim(self.ctx, {'status': 'running'}))
