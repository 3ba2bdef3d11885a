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

"""Transactions, retries and configuration of the DB API."""

from unittest import mock

import fixtures
from oslo_db import exception as db_exc
import sqlalchemy as sa

from masakari.db import api as db
from masakari.db import facade
from masakari.db import reads
from masakari.db.sqlalchemy import models
from masakari.db import statements
from masakari.db import writes
from masakari import exception
from tests.unit.db import base


class _Flaky:
    """A DB API style function failing ``failures`` times with ``error``."""

    def __init__(self, error, failures):
        self.calls = 0

        def attempt(context):
            self.calls += 1
            # Proves that every attempt runs in a transaction of its own.
            assert context.connection.in_transaction()
            if self.calls <= failures:
                raise error
            return self.calls
        self.function = attempt


class TestRetries(base.DbTestCase):

    def setUp(self):
        super().setUp()
        # NOTE: the retry waits are real sleeps (1 s, then up to 10 s).
        self.sleep = self.useFixture(
            fixtures.MockPatch('oslo_db.api.time.sleep')).mock

    def waits(self):
        # NOTE: time.sleep(0) is oslo.db yielding on connection check-in.
        return [call for call in self.sleep.call_args_list
                if call != mock.call(0)]

    def test_deadlock_is_retried_five_times(self):
        flaky = _Flaky(db_exc.DBDeadlock(), failures=5)
        self.assertEqual(6, facade.writer(flaky.function)(self.ctx))
        waits = self.waits()
        self.assertEqual(mock.call(1), waits[0])
        self.assertEqual(5, len(waits))
        for wait in waits[1:]:
            self.assertLessEqual(wait[0][0], 10)

    def test_sixth_deadlock_is_raised(self):
        flaky = _Flaky(db_exc.DBDeadlock(), failures=6)
        self.assertRaises(db_exc.DBDeadlock, facade.reader(flaky.function),
                          self.ctx)
        self.assertEqual(6, flaky.calls)

    def test_lost_connection_is_not_retried_by_default(self):
        flaky = _Flaky(db_exc.DBConnectionError(), failures=1)
        self.assertRaises(db_exc.DBConnectionError,
                          facade.reader(flaky.function), self.ctx)
        self.assertEqual(1, flaky.calls)

    def test_use_db_reconnect_is_honoured(self):
        # Fix: 22.0.0 read these options before parsing the config files.
        self.conf_fixture.config(use_db_reconnect=True, db_max_retries=3,
                                 db_retry_interval=2,
                                 db_inc_retry_interval=False,
                                 group='database')
        self.addCleanup(db.configure(self.conf_fixture.conf))
        flaky = _Flaky(db_exc.DBConnectionError(), failures=3)
        self.assertEqual(4, facade.reader(flaky.function)(self.ctx))
        self.assertEqual([mock.call(2)] * 3, self.waits())
        flaky = _Flaky(db_exc.DBConnectionError(), failures=4)
        self.assertRaises(db_exc.DBConnectionError,
                          facade.reader(flaky.function), self.ctx)

    def test_a_read_in_a_reading_block_is_run_again_with_the_block(self):
        # A deadlock (Galera's certification conflict) inside a block
        # leaves its transaction unusable: the read is not retried alone,
        # the function that opened the block runs again as a whole.
        flaky = _Flaky(db_exc.DBDeadlock(), failures=2)
        read = facade.reader(flaky.function)
        openings = []

        @facade.retried
        def opener(context):
            openings.append(flaky.calls)
            with facade.reading(context):
                return read(context)

        self.assertEqual(3, opener(self.ctx))
        self.assertEqual([0, 1, 2], openings)

    def test_a_write_under_a_lost_lease_is_refused(self):
        lease = mock.Mock(**{'confirm.side_effect':
                             exception.RecoveryLost('n-1')})
        flaky = _Flaky(db_exc.DBDeadlock(), failures=0)
        self.assertRaises(exception.RecoveryLost,
                          facade.writer(flaky.function),
                          self.ctx.for_recovery(lease))
        self.assertEqual(0, flaky.calls)
        self.assertEqual(1, facade.writer(flaky.function)(
            self.ctx.for_recovery(mock.Mock())))

    def test_other_errors_are_not_retried(self):
        flaky = _Flaky(db_exc.DBError(), failures=1)
        self.assertRaises(db_exc.DBError, facade.writer(flaky.function),
                          self.ctx)
        self.assertEqual(1, flaky.calls)


class TestWriterTransaction(base.DbTestCase):

    def test_a_failing_writer_rolls_back(self):
        segment = self.create_segment(name='seg1')

        @facade.writer
        def rename_then_fail(context):
            row = reads.first(context, models.FailoverSegment,
                              {'uuid': segment.uuid})
            writes.update_row(context, models.FailoverSegment, row,
                              {'name': 'renamed'})
            raise RuntimeError('boom')

        self.assertRaises(RuntimeError, rename_then_fail, self.ctx)
        self.assertEqual('seg1', db.failover_segment_get_by_uuid(
            self.ctx, segment.uuid).name)


class TestEndOfTransaction(base.DbTestCase):
    """The pool's reset of a connection whose transaction has just ended
    sends no second ROLLBACK.
    """

    def setUp(self):
        super().setUp()
        dialect = type(db.get_engine().dialect)
        self.commits = self.useFixture(fixtures.MockPatchObject(
            dialect, 'do_commit', autospec=True,
            side_effect=dialect.do_commit)).mock
        self.rollbacks = self.useFixture(fixtures.MockPatchObject(
            dialect, 'do_rollback', autospec=True,
            side_effect=dialect.do_rollback)).mock
        # NOTE: a new engine, made with the counting dialect methods (a
        # new in-memory SQLite database needs the tables again).
        self.addCleanup(db.configure(self.conf_fixture.conf))
        models.BASE.metadata.create_all(db.get_engine())
        self.segment = self.create_segment(name='seg1')
        self.commits.reset_mock()
        self.rollbacks.reset_mock()

    def test_a_read_rolls_back_once(self):
        db.failover_segment_get_by_uuid(self.ctx, self.segment.uuid)
        self.assertEqual(1, self.rollbacks.call_count)
        self.assertEqual(0, self.commits.call_count)

    def test_a_write_commits_without_rollback(self):
        db.failover_segment_update(self.ctx, self.segment.uuid,
                                   {'description': 'changed'})
        self.assertEqual(1, self.commits.call_count)
        self.assertEqual(0, self.rollbacks.call_count)

    def test_a_compare_and_set_commits_and_a_missing_row_rolls_back(self):
        db.host_update_if(self.ctx, 'missing', {}, {'reserved': True})
        self.assertEqual(1, self.commits.call_count)
        self.assertEqual(0, self.rollbacks.call_count)
        self.assertRaises(exception.NotificationNotFound,
                          db.notification_get_by_uuid, self.ctx, 'missing')
        self.assertEqual(1, self.rollbacks.call_count)

    def test_reads_join_the_reading_transaction(self):
        host = self.create_host(self.segment)
        with db.reading(self.ctx):
            db.failover_segment_get_by_uuid(self.ctx, self.segment.uuid)
            db.host_get_by_uuid(self.ctx, host.uuid)
        self.assertEqual(1, self.rollbacks.call_count)

    def test_a_statement_after_the_end_is_rolled_back(self):
        db.failover_segment_get_by_uuid(self.ctx, self.segment.uuid)
        with db.get_engine().connect() as connection:
            # NOTE: the transaction this statement begins is left open.
            connection.execute(sa.select(models.FailoverSegment.name))
        self.assertEqual(2, self.rollbacks.call_count)

    def test_a_failed_write_is_rolled_back(self):
        @facade.writer
        def insert_twice(context):
            facade.write(context, sa.insert(
                models.FailoverSegment.__table__).values(
                    uuid=self.segment.uuid, name='other', deleted=0,
                    service_type='COMPUTE', recovery_method='auto'))

        self.assertRaises(db_exc.DBDuplicateEntry, insert_twice, self.ctx)
        self.assertEqual(1, self.rollbacks.call_count)
        self.assertEqual(0, self.commits.call_count)


class TestReadDeleted(base.DbTestCase):

    def names(self, read_deleted):
        context = self.ctx.elevated(read_deleted=read_deleted)
        return sorted(row.name for row in
                      db.failover_segment_get_all_by_filters(context))

    def test_read_deleted(self):
        self.create_segment(name='live')
        gone = self.create_segment(name='gone')
        db.failover_segment_delete(self.ctx, gone.uuid)
        self.assertEqual(['live'], self.names('no'))
        self.assertEqual(['gone', 'live'], self.names('yes'))
        self.assertEqual(['gone'], self.names('only'))
        error = self.assertRaises(
            ValueError, statements.deleted_criterion,
            models.FailoverSegment.__table__.c, 'maybe')
        self.assertEqual("Unrecognized read_deleted value 'maybe'", str(error))


class TestConfigure(base.DbTestCase):

    def test_engine_follows_the_configuration(self):
        self.assertEqual('sqlite://', str(db.get_engine().url))
        path = self.useFixture(fixtures.TempDir()).path
        url = 'sqlite:///%s/other.sqlite' % path
        self.conf_fixture.config(connection=url, group='database')
        restore = db.configure(self.conf_fixture.conf)
        self.assertEqual(url, str(db.get_engine().url))
        self.assertEqual(url, str(db.get_engine(use_slave=True).url))
        restore()
        self.assertIs(self.database.engine, db.get_engine())


class TestMySQLCharset(base.DbTestCase):

    def test_utf8mb4_when_the_url_names_no_charset(self):
        self.assertEqual(
            'mysql+pymysql://u:p%40ss@db/masakari?charset=utf8mb4',
            facade._with_mysql_charset('mysql+pymysql://u:p%40ss@db/masakari'))

    def test_explicit_charset_and_other_backends_are_left_alone(self):
        for url in ('mysql+pymysql://u:p@db/masakari?charset=utf8',
                    'sqlite:///masakari.sqlite', 'sqlite://', None):
            self.assertEqual(url, facade._with_mysql_charset(url))
