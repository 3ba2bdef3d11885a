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

"""The DB API and purge unit tests, rerun on MariaDB, plus what only MySQL
shows: strict mode, collations, foreign keys, ENUM ordering, rounding.

Each test gets a throwaway database (schema from the models, which
test_schema proves identical to the migrations).
"""

import datetime
import inspect

from oslo_db import exception as db_exc
from oslo_utils import timeutils
from pymysql import constants
import sqlalchemy as sa

from masakari.db import api as db
from masakari.db import pymysql_connection
from masakari.db.sqlalchemy import models
from masakari import exception
from tests.fixtures import database
from tests.unit.db import base
from tests.unit.db import test_facade
from tests.unit.db import test_hosts
from tests.unit.db import test_notifications
from tests.unit.db import test_paging
from tests.unit.db import test_purge
from tests.unit.db import test_segments
from tests.unit.db import test_writes


class OnMariaDB:
    DATABASE = database.MySQLDatabase
    SCHEMA = database.SCHEMA_FROM_MODELS


def _rerun(*modules, skip=()):
    """Subclasses of the modules' test cases that run on MariaDB."""
    cases = {}
    for module in modules:
        for name, case in inspect.getmembers(module, inspect.isclass):
            if (issubclass(case, base.DbTestCase) and
                    case.__module__ == module.__name__ and
                    name.startswith('Test') and name not in skip):
                cases[name] = type(name, (OnMariaDB, case),
                                   {'__module__': __name__})
    return cases


globals().update(_rerun(test_segments, test_hosts, test_notifications,
                        test_paging, test_purge, test_writes,
                        skip=('TestStatusOrderOnSQLite',)))


class TestEndOfTransaction(OnMariaDB, test_facade.TestEndOfTransaction):
    """No second ROLLBACK on MariaDB either."""


class TestMySQLOnly(OnMariaDB, base.DbTestCase):

    def test_names_collide_by_collation(self):
        self.create_segment(name='Seg1')
        for name in ('seg1', 'Seg1 '):
            self.assertRaises(exception.FailoverSegmentExists,
                              self.create_segment, name=name)

    def test_strict_mode_refuses_bad_values(self):
        self.assertRaises(db_exc.DBDataError, self.create_segment,
                          name='x' * 256)
        self.assertRaises(db_exc.DBDataError, self.create_segment,
                          recovery_method='manual')

    def test_text_beyond_the_bmp_is_stored(self):
        # Fix: oslo.db's default 3-byte utf8 connection charset refused
        # such characters ("Incorrect string value"); with no charset in
        # the URL Masakari asks for utf8mb4.
        description = 'rack \U0001F600'
        segment = self.create_segment(description=description)
        self.assertEqual(description, db.failover_segment_get_by_uuid(
            self.ctx, segment.uuid).description)

    def test_every_connection_is_masakaris(self):
        connections = [self.database.engine.connect() for _ in range(3)]
        for connection in connections:
            self.addCleanup(connection.close)
        raw = [connection.connection.dbapi_connection
               for connection in connections]
        # NOTE: the first too: the one oslo.db made before the engine was
        # handed over is not kept.
        self.assertEqual(
            [pymysql_connection.CONVERSIONS[constants.FIELD_TYPE.DATETIME]]
            * 3, [connection.decoders[constants.FIELD_TYPE.DATETIME]
                  for connection in raw])
        # NOTE: the first connection is PyMySQL's preferred mode; the later
        # ones are what it found: TLS with the shared context, or plain.
        with raw[0].cursor() as cursor:
            cursor.execute("SHOW SESSION STATUS LIKE 'Ssl_version'")
            tls = bool(cursor.fetchone()[1])
        self.assertEqual([True, tls, tls],
                         [connection.ssl for connection in raw])
        if tls:
            self.assertEqual({id(pymysql_connection.preferred_context())},
                             {id(connection.ctx) for connection in raw[1:]})

    def test_host_of_an_unknown_segment(self):
        segment = models.FailoverSegment(uuid='not-there')
        self.assertRaises(db_exc.DBReferenceError, self.create_host, segment)

    def test_datetimes_lose_their_fraction(self):
        segment = self.create_segment()
        db.failover_segment_delete(self.ctx, segment.uuid)
        with self.database.engine.connect() as conn:
            deleted_at = conn.execute(sa.select(
                models.FailoverSegment.deleted_at)).scalar()
        self.assertEqual(0, deleted_at.microsecond)

    def test_numeric_prefix_marker_does_not_match(self):
        # Fix: MySQL compared '<id>abc' (or a uuid starting with digits)
        # by its numeric prefix and paged from that row.
        segments = [self.create_segment() for _ in range(3)]
        for marker in ('%dabc' % segments[1].id,
                       '%d882ccb9-6cc4-4b5c-8f5b-1b1a8d5b1c3e'
                       % segments[1].id):
            self.assertRaises(exception.MarkerNotFound,
                              db.failover_segment_get_all_by_filters,
                              self.ctx, marker=marker)
        self.assertEqual([segments[0].id], [
            row.id for row in db.failover_segment_get_all_by_filters(
                self.ctx, marker=str(segments[1].id))])


class TestPurgeOnMariaDB(OnMariaDB, test_purge.PurgeTestCase):

    def test_statuses_are_taken_in_enum_order(self):
        for status in ('finished', 'ignored', 'failed'):
            self.notification(status, 40)
        self.purge(30, max_rows=1)
        self.assertEqual(['finished', 'ignored'], self.remaining())
        self.purge(30, max_rows=1)
        self.assertEqual(['finished'], self.remaining())

    def test_segment_younger_hosts_do_not_break_the_purge(self):
        # Fix: the segment DELETE violated hosts_ibfk_1 and escaped.
        segment = self.create_segment()
        self.create_host(segment)
        db.failover_segment_delete(self.ctx, segment.uuid)
        with self.database.engine.begin() as conn:
            conn.execute(test_purge.SEGMENTS.update().values(
                deleted_at=timeutils.utcnow() - datetime.timedelta(31)))
        self.assertEqual(0, self.purge(30))
        self.assertEqual(1, self.count(test_purge.SEGMENTS))
        self.assertEqual(2, self.purge(0))
