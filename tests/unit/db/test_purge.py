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

"""``purge_deleted_rows`` and the fixes to it."""

import datetime

import fixtures
from oslo_db import exception as db_exc
from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from masakari.db import api as db
from masakari.db.sqlalchemy import models
from tests.unit.db import base

SEGMENTS = models.FailoverSegment.__table__
HOSTS = models.Host.__table__
NOTIFICATIONS = models.Notification.__table__
VMOVES = models.VMove.__table__


def _days_ago(days):
    return timeutils.utcnow() - datetime.timedelta(days=days)


class PurgeTestCase(base.DbTestCase):

    def insert(self, table, **values):
        with self.database.engine.begin() as conn:
            return conn.execute(table.insert().values(**values)
                                ).inserted_primary_key[0]

    def count(self, table):
        with self.database.engine.connect() as conn:
            return conn.execute(
                sa.select(sa.func.count()).select_from(table)).scalar()

    def purge(self, age_in_days=30, max_rows=-1, **kwargs):
        return db.purge_deleted_rows(self.ctx, age_in_days, max_rows,
                                     **kwargs)

    def notification(self, status, age):
        notification = self.create_notification(status=status)
        db.notification_update(self.ctx, notification.notification_uuid,
                               {'message': status})
        with self.database.engine.begin() as conn:
            conn.execute(NOTIFICATIONS.update().where(
                NOTIFICATIONS.c.id == notification.id).values(
                    updated_at=_days_ago(age)))
        return notification.notification_uuid

    def remaining(self):
        with self.database.engine.connect() as conn:
            return sorted(conn.execute(
                sa.select(NOTIFICATIONS.c.status)).scalars())

    def purge_lines(self):
        return [line for line in self.logs.output.splitlines()
                if 'row' in line]


class TestWorkedExample(PurgeTestCase):
    """A worked example (rows inserted with deleted NULL)."""

    def setUp(self):
        super().setUp()
        ages = [None, 20, 20, None, 60, 60]
        for number, age in enumerate(ages, start=1):
            when = None if age is None else _days_ago(age)
            segment_uuid = uuidutils.generate_uuid()
            self.insert(SEGMENTS, uuid=segment_uuid, name='s%d' % number,
                        service_type='COMPUTE', recovery_method='auto',
                        deleted_at=when)
            self.insert(HOSTS, uuid=uuidutils.generate_uuid(),
                        name='h%d' % number, type='COMPUTE',
                        control_attributes='x',
                        failover_segment_id=segment_uuid, deleted_at=when)
            self.insert(NOTIFICATIONS,
                        notification_uuid=uuidutils.generate_uuid(),
                        generated_time=_days_ago(90),
                        source_host_uuid=uuidutils.generate_uuid(),
                        type='VM', status='failed', updated_at=when)

    def counts(self):
        return [self.count(table) for table in
                (NOTIFICATIONS, SEGMENTS, HOSTS)]

    def test_age_30_max_rows_10(self):
        self.assertEqual(6, self.purge(30, 10))
        self.assertEqual([4, 4, 4], self.counts())

    def test_age_20_no_limit(self):
        self.assertEqual(12, self.purge(20, -1))
        self.assertEqual([2, 2, 2], self.counts())

    def test_age_60_max_rows_3_stops_after_notifications(self):
        self.assertEqual(3, self.purge(60, 3))
        self.assertEqual([5, 6, 4], self.counts())
        self.assertEqual([
            'INFO Purging deleted rows older than 60 day(s) from table hosts',
            'INFO Deleted 2 row(s) from table hosts',
            'INFO Purging deleted rows older than 60 day(s) from table '
            'vmoves',
            'INFO Deleted 0 row(s) from table vmoves',
            'INFO Purging deleted rows older than 60 day(s) from table '
            'notifications',
            'INFO Deleted 1 row(s) from table notifications',
            'INFO Deleted 0 row(s) from table vmoves along with the purged '
            'notifications',
            'INFO Total deleted rows are 3',
        ], self.purge_lines())

    def test_table_order_without_limit(self):
        self.purge(0)
        tables = [line.rsplit(' ', 1)[1] for line in self.purge_lines()
                  if 'Purging' in line]
        self.assertEqual(['hosts', 'vmoves', 'notifications',
                          'failover_segments'], tables)


class TestNotificationPurge(PurgeTestCase):

    def test_only_final_updated_notifications_are_purged(self):
        for status in ('new', 'running', 'error'):
            self.notification(status, 40)
        for status in ('finished', 'failed', 'ignored'):
            self.notification(status, 40)
        self.notification('finished', 10)
        self.create_notification(status='finished')  # never updated
        self.assertEqual(3, self.purge(30))
        self.assertEqual(['error', 'finished', 'finished', 'new', 'running'],
                         self.remaining())

    def test_vmoves_go_with_their_notification(self):
        # Fix: 22.0.0 left them behind for ever.
        old = self.notification('finished', 40)
        young = self.notification('finished', 1)
        self.create_vmove(old)
        self.create_vmove(old)
        kept = self.create_vmove(young)
        self.assertEqual(1, self.purge(30))
        self.assertEqual([kept.uuid], [row.uuid for row in
                                       db.vmoves_get_all_by_filters(self.ctx)])
        self.assertIn('INFO Deleted 2 row(s) from table vmoves along with '
                      'the purged notifications', self.purge_lines())

    def test_orphaned_and_soft_deleted_vmoves_are_purged(self):
        live = self.notification('running', 40)
        self.create_vmove(live)
        deleted = self.create_vmove(live)
        db.vmove_delete(self.ctx, deleted.uuid)
        with self.database.engine.begin() as conn:
            conn.execute(VMOVES.update().where(
                VMOVES.c.uuid == deleted.uuid).values(
                    deleted_at=_days_ago(40)))
        self.create_vmove(uuidutils.generate_uuid())  # left by 22.0.0
        self.assertEqual(2, self.purge(30))
        self.assertEqual(1, self.count(VMOVES))

    def test_logbooks_of_purged_notifications(self):
        purged = [self.notification('failed', 40),
                  self.notification('ignored', 40)]
        self.notification('failed', 1)
        calls = []

        def purge_logbooks(uuids):
            calls.append(sorted(uuids))
            return {'logbooks': len(uuids), 'atomdetails': 3 * len(uuids)}

        self.purge(30, purge_logbooks=purge_logbooks)
        self.assertEqual([sorted(purged)], [call for call in calls if call])
        lines = self.purge_lines()
        self.assertIn('INFO Deleted 2 row(s) from table logbooks along with '
                      'the purged notifications', lines)
        self.assertIn('INFO Deleted 6 row(s) from table atomdetails along '
                      'with the purged notifications', lines)

    def test_logbook_failure_keeps_the_notifications(self):
        self.notification('failed', 40)

        def purge_logbooks(uuids):
            if uuids:
                raise RuntimeError('taskflow database down')
            return {}

        self.assertRaises(RuntimeError, self.purge, 30,
                          purge_logbooks=purge_logbooks)
        self.assertEqual(['failed'], self.remaining())

    def test_batches(self):
        self.useFixture(fixtures.MockPatchObject(
            db.purge, 'NOTIFICATION_BATCH', 2))
        for _ in range(5):
            self.notification('finished', 40)
        self.assertEqual(4, self.purge(30, max_rows=4))
        self.assertEqual(1, self.count(NOTIFICATIONS))
        self.assertEqual(1, self.purge(30))


class TestStatusOrderOnSQLite(PurgeTestCase):
    """SQLite orders the status text alphabetically; MySQL follows the
    ENUM order (tests.functional.db.test_api).
    """

    def test_statuses_are_taken_in_alphabetical_order(self):
        for status in ('ignored', 'finished', 'failed'):
            self.notification(status, 40)
        self.purge(30, max_rows=1)
        self.assertEqual(['finished', 'ignored'], self.remaining())
        self.purge(30, max_rows=1)
        self.assertEqual(['ignored'], self.remaining())


class TestSoftDeletedRows(PurgeTestCase):

    def age(self, table, row_id, days):
        with self.database.engine.begin() as conn:
            conn.execute(table.update().where(table.c.id == row_id).values(
                deleted_at=_days_ago(days)))

    def test_segment_waits_for_its_hosts(self):
        # Fix: the segment DELETE could violate the hosts foreign key.
        segment = self.create_segment()
        host = self.create_host(segment)
        db.failover_segment_delete(self.ctx, segment.uuid)
        self.age(SEGMENTS, segment.id, 31)
        self.age(HOSTS, host.id, 29)
        self.assertEqual(0, self.purge(30))
        self.assertEqual(1, self.count(SEGMENTS))
        self.age(HOSTS, host.id, 31)
        self.assertEqual(2, self.purge(30))
        self.assertEqual(0, self.count(SEGMENTS))

    def test_live_rows_are_kept(self):
        segment = self.create_segment()
        self.create_host(segment)
        self.assertEqual(0, self.purge(0))
        self.assertEqual(1, self.count(HOSTS))

    def test_only_masakari_tables_are_walked(self):
        # Fix: 22.0.0 reflected every table with a 'deleted' column.
        with self.database.engine.begin() as conn:
            conn.exec_driver_sql(
                'CREATE TABLE other (id INTEGER PRIMARY KEY, deleted INTEGER,'
                ' deleted_at DATETIME)')
            conn.exec_driver_sql(
                "INSERT INTO other VALUES (1, 1, '2000-01-01 00:00:00')")
        self.purge(0)
        with self.database.engine.connect() as conn:
            self.assertEqual(1, conn.exec_driver_sql(
                'SELECT count(*) FROM other').scalar())


class TestDeadlock(PurgeTestCase):

    def test_a_deadlock_retries_the_table_not_the_walk(self):
        # Fix: 22.0.0 restarted the whole walk with a fresh max_rows.
        self.useFixture(fixtures.MockPatch('oslo_db.api.time.sleep'))
        for _ in range(3):
            segment = self.create_segment()
            host = self.create_host(segment)
            db.host_delete(self.ctx, host.uuid)
        with self.database.engine.begin() as conn:
            conn.execute(HOSTS.update().values(deleted_at=_days_ago(40)))
        for _ in range(2):
            notification = self.create_notification(status='finished')
            with self.database.engine.begin() as conn:
                conn.execute(NOTIFICATIONS.update().where(
                    NOTIFICATIONS.c.id == notification.id).values(
                        updated_at=_days_ago(40)))
        deadlocks = []

        @sa.event.listens_for(self.database.engine, 'before_cursor_execute')
        def deadlock_once(conn, cursor, statement, *args):
            if statement.startswith('DELETE FROM vmoves') and not deadlocks:
                deadlocks.append(statement)
                raise db_exc.DBDeadlock()

        self.addCleanup(sa.event.remove, self.database.engine,
                        'before_cursor_execute', deadlock_once)
        self.assertEqual(4, self.purge(30, max_rows=4))
        self.assertEqual(1, len(deadlocks))
        self.assertEqual(0, self.count(HOSTS))
        self.assertEqual(1, self.count(NOTIFICATIONS))
        purging = [line.rsplit(' ', 1)[1] for line in self.purge_lines()
                   if 'Purging' in line]
        self.assertEqual(['hosts', 'vmoves', 'notifications'], purging)
