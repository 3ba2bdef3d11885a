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

"""Alembic migrations on SQLite: chain, resulting schema, models, legacy
sqlalchemy-migrate databases.
"""

import os
import re

from alembic import autogenerate
from alembic import config as alembic_config
from alembic.runtime import migration as alembic_migration
from alembic import script as alembic_script
import fixtures
import sqlalchemy as sa

from masakari.db import api as db
from masakari.db import migration
from masakari.db.sqlalchemy import models
from masakari import exception
from tests.unit.db import base
from tests.unit.db import expected_schema as expected


def _sqlite_type(spec):
    if isinstance(spec, tuple):
        # SQLite renders an ENUM as a VARCHAR as long as its longest value.
        return 'VARCHAR(%d)' % max(len(value) for value in spec[1])
    return spec


class TestRevisionChain(base.DbTestCase):

    def test_one_base_one_head_and_the_reference_chain(self):
        script = alembic_script.ScriptDirectory.from_config(
            alembic_config.Config(migration.ALEMBIC_INI))
        self.assertEqual(['8f848eb45d03'], list(script.get_bases()))
        self.assertEqual([expected.HEAD], list(script.get_heads()))
        for revision, down, title, created in expected.REVISIONS:
            found = script.get_revision(revision)
            self.assertEqual(down, found.down_revision)
            self.assertEqual(title, found.doc.split('\n')[0])
            self.assertIn('Create Date: %s' % created, found.longdoc)
            self.assertFalse(hasattr(found.module, 'downgrade'))


class MigratedTestCase(base.DbTestCase):

    SCHEMA = None

    def inspector(self):
        return sa.inspect(self.database.engine)

    def upgrade_lines(self):
        return [line for line in self.logs.output.splitlines()
                if 'Running upgrade' in line]


class TestSchema(MigratedTestCase):

    def setUp(self):
        super().setUp()
        migration.db_sync()

    def test_tables_and_version(self):
        self.assertEqual(sorted(list(expected.COLUMNS) +
                                [expected.VERSION_TABLE]),
                         sorted(self.inspector().get_table_names()))
        self.assertEqual(expected.HEAD, migration.db_version())
        with self.database.engine.connect() as conn:
            self.assertEqual([expected.HEAD], list(conn.exec_driver_sql(
                'SELECT version_num FROM masakari_alembic_version'
            ).scalars()))

    def test_columns_in_order_with_types_and_nullability(self):
        checked = 0
        for table, columns in expected.COLUMNS.items():
            actual = [(column['name'],
                       column['type'].compile(
                           dialect=self.database.engine.dialect),
                       column['nullable'], column['default'])
                      for column in self.inspector().get_columns(table)]
            self.assertEqual([(name, _sqlite_type(kind), nullable, None)
                              for name, kind, nullable in columns], actual)
            checked += len(columns)
        self.assertEqual(52, checked)

    def test_constraints_and_indexes(self):
        inspector = self.inspector()
        for name, (table, columns) in expected.UNIQUE_CONSTRAINTS.items():
            self.assertIn({'name': name, 'column_names': columns},
                          [{'name': c['name'],
                            'column_names': c['column_names']}
                           for c in inspector.get_unique_constraints(table)])
        for name, (table, columns) in expected.INDEXES.items():
            self.assertIn((name, columns, 0),
                          [(i['name'], i['column_names'], i['unique'])
                           for i in inspector.get_indexes(table)])
        for table, columns, referred, referred_columns in \
                expected.FOREIGN_KEYS:
            keys = inspector.get_foreign_keys(table)
            self.assertEqual([(None, columns, referred, referred_columns)],
                             [(k['name'], k['constrained_columns'],
                               k['referred_table'], k['referred_columns'])
                              for k in keys])
        self.assertEqual([], inspector.get_foreign_keys('notifications'))

    def test_no_check_constraint_for_enums_and_booleans(self):
        with self.database.engine.connect() as conn:
            ddl = ' '.join(conn.exec_driver_sql(
                "SELECT sql FROM sqlite_master WHERE type = 'table'"
            ).scalars())
        self.assertNotIn('CHECK', ddl)

    def test_models_equal_the_migrations(self):
        with self.database.engine.connect() as conn:
            context = alembic_migration.MigrationContext.configure(
                conn, opts={'compare_type': True,
                            'compare_server_default': True,
                            'include_name': _masakari_tables_only})
            self.assertEqual(
                [], autogenerate.compare_metadata(context,
                                                  models.BASE.metadata))
        for table in models.BASE.metadata.sorted_tables:
            self.assertEqual(
                [column.name for column in table.columns],
                [column['name'] for column in
                 self.inspector().get_columns(table.name)])

    def test_second_sync_is_a_no_op(self):
        before = len(self.upgrade_lines())
        migration.db_sync()
        self.assertEqual(3, before)
        self.assertEqual(3, len(self.upgrade_lines()))

    def test_upgrade_log_lines(self):
        self.assertEqual([
            'INFO Running upgrade  -> 8f848eb45d03, Initial revision',
            'INFO Running upgrade 8f848eb45d03 -> 8bdf5929c5a6, Add vm moves '
            'table',
            'INFO Running upgrade 8bdf5929c5a6 -> 13adff5efb9a, Add vm moves '
            'table'], self.upgrade_lines())
        self.assertIn('INFO Applying migration(s)', self.logs.output)


class TestSyncArguments(MigratedTestCase):

    def test_empty_database_has_no_version(self):
        self.assertIsNone(migration.db_version())

    def test_sync_to_a_revision(self):
        migration.db_sync('8bdf5929c5a6')
        self.assertEqual('8bdf5929c5a6', migration.db_version())
        self.assertNotIn('message', [c['name'] for c in
                                     self.inspector().get_columns(
                                         'notifications')])
        migration.db_sync()
        self.assertEqual(expected.HEAD, migration.db_version())

    def test_sqlalchemy_migrate_versions_are_refused(self):
        for version in ('7', 7):
            error = self.assertRaises(ValueError, migration.db_sync, version)
            self.assertEqual('You requested an sqlalchemy-migrate database '
                             'version; this is no longer supported',
                             str(error))
        self.assertIsNone(migration.db_version())


class TestUrlWithPercent(base.DbTestCase):

    SCHEMA = None

    def test_percent_in_url_survives_the_ini_interpolation(self):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'a%b')
        os.mkdir(path)
        url = 'sqlite:///%s/masakari.sqlite' % path
        self.conf_fixture.config(connection=url, group='database')
        self.addCleanup(db.configure(self.conf_fixture.conf))
        migration.db_sync()
        self.assertTrue(os.path.exists(os.path.join(path,
                                                    'masakari.sqlite')))
        self.assertEqual(expected.HEAD, migration.db_version())


class TestLegacyDatabases(MigratedTestCase):
    """Databases last migrated by sqlalchemy-migrate."""

    def make_legacy(self, version, revision):
        migration.db_sync(revision)
        with self.database.engine.begin() as conn:
            conn.exec_driver_sql('DROP TABLE masakari_alembic_version')
            conn.exec_driver_sql(
                'CREATE TABLE migrate_version (repository_id VARCHAR(250) '
                'PRIMARY KEY, repository_path TEXT, version INTEGER)')
            conn.exec_driver_sql(
                "INSERT INTO migrate_version VALUES ('masakari', '/x', %d)"
                % version)
        self.assertIsNone(migration.db_version())

    def test_version_6_is_refused(self):
        self.make_legacy(6, '8f848eb45d03')
        error = self.assertRaises(exception.InvalidInput, migration.db_sync)
        self.assertEqual(
            'Your database is at version 006; we only support upgrading from '
            'version 007 or later. Please upgrade your database using an '
            'earlier release of Masakari and then return here.',
            error.format_message())
        self.assertIsNone(migration.db_version())
        self.assertNotIn('vmoves', self.inspector().get_table_names())

    def test_version_7_is_stamped_then_upgraded(self):
        self.make_legacy(7, '8f848eb45d03')
        migration.db_sync()
        self.assertEqual(expected.HEAD, migration.db_version())
        self.assertIn('INFO The database is still under sqlalchemy-migrate '
                      'control; fake applying the initial alembic migration',
                      self.logs.output)
        self.assertEqual(
            ['Running upgrade 8f848eb45d03 -> 8bdf5929c5a6',
             'Running upgrade 8bdf5929c5a6 -> 13adff5efb9a'],
            _upgrades(self.upgrade_lines()[1:]))
        self.assertIn('migrate_version', self.inspector().get_table_names())

    def test_version_8_is_stamped_at_the_vmoves_revision(self):
        self.make_legacy(8, '8bdf5929c5a6')
        migration.db_sync()
        self.assertEqual(expected.HEAD, migration.db_version())
        self.assertEqual(['Running upgrade 8bdf5929c5a6 -> 13adff5efb9a'],
                         _upgrades(self.upgrade_lines()[2:]))

    def test_unknown_version_needs_the_force_variable(self):
        self.useFixture(fixtures.EnvironmentVariable(
            'FORCE_MASAKARI_DB_SYNC'))
        self.make_legacy(9, '8bdf5929c5a6')
        error = self.assertRaises(exception.InvalidInput, migration.db_sync)
        self.assertEqual(
            'Your database is at version 009; we do not recognise this '
            'version and it is likely you are carrying out-of-tree '
            'migrations. You can still upgrade but we cannot guarantee '
            'things will work as expected. If you wish to continue, set the '
            'FORCE_MASAKARI_DB_SYNC environment variable to any value and '
            'retry.', error.format_message())
        self.assertIsNone(migration.db_version())

    def test_force_variable_even_empty_continues(self):
        self.useFixture(fixtures.EnvironmentVariable(
            'FORCE_MASAKARI_DB_SYNC', ''))
        self.make_legacy(9, '8bdf5929c5a6')
        migration.db_sync()
        self.assertEqual(expected.HEAD, migration.db_version())
        self.assertIn(
            'WARNING Your database is at version 009; we do not recognise '
            'this version but the FORCE_MASAKARI_DB_SYNC environment '
            'variable is set so we are continuing. Things may break. You '
            'have been warned!', self.logs.output)

    def test_database_already_under_alembic_is_not_stamped(self):
        migration.db_sync('8f848eb45d03')
        with self.database.engine.begin() as conn:
            conn.exec_driver_sql(
                'CREATE TABLE migrate_version (repository_id VARCHAR(250) '
                'PRIMARY KEY, repository_path TEXT, version INTEGER)')
            conn.exec_driver_sql(
                "INSERT INTO migrate_version VALUES ('masakari', '/x', 3)")
        migration.db_sync()
        self.assertEqual(expected.HEAD, migration.db_version())
        self.assertNotIn('fake applying', self.logs.output)


def _masakari_tables_only(name, kind, parent_names):
    return kind != 'table' or name != expected.VERSION_TABLE


def _upgrades(lines):
    return [re.sub(r'^INFO (Running upgrade \S+ -> \S+),.*$', r'\1', line)
            for line in lines]
