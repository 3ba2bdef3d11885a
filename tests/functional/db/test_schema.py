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

"""``masakari-manage db sync`` on MariaDB gives exactly the schema of
Masakari 22.0.0 (the SHOW CREATE TABLE texts below), and the models equal
the migrations there.
"""

import os
import subprocess
import sys

from alembic import autogenerate
from alembic.runtime import migration as alembic_migration
import fixtures
import testtools

from masakari.db.sqlalchemy import models
from tests.fixtures import conf as conf_fixture
from tests.fixtures import database
from tests.unit.db import expected_schema as expected

RUN_MANAGE = ('import sys; from masakari.cmd import manage; '
              'sys.argv[0] = "masakari-manage"; manage.main()')

TASKFLOW_HEAD = '00af93df9d77'
TASKFLOW_TABLES = ['atomdetails', 'flowdetails', 'logbooks']
MASAKARI_TABLES = sorted(expected.COLUMNS)

# SHOW CREATE TABLE of a database created by Masakari 22.0.0 on a MariaDB
# 10.11 server with default settings.
_TABLE_OPTIONS = ('ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 '
                  'COLLATE=utf8mb4_general_ci')
_COMMON = ('  `created_at` datetime DEFAULT NULL,\n'
           '  `updated_at` datetime DEFAULT NULL,\n'
           '  `deleted_at` datetime DEFAULT NULL,\n'
           '  `deleted` int(11) DEFAULT NULL,\n'
           '  `id` int(11) NOT NULL AUTO_INCREMENT,\n')
SHOW_CREATE_TABLE = {
    'failover_segments': (
        'CREATE TABLE `failover_segments` (\n' + _COMMON +
        '  `uuid` varchar(36) NOT NULL,\n'
        '  `name` varchar(255) NOT NULL,\n'
        '  `service_type` varchar(255) NOT NULL,\n'
        '  `description` text DEFAULT NULL,\n'
        "  `recovery_method` enum('auto','reserved_host','auto_priority',"
        "'rh_priority') NOT NULL,\n"
        '  `enabled` tinyint(1) DEFAULT NULL,\n'
        '  PRIMARY KEY (`id`),\n'
        '  UNIQUE KEY `uniq_segments0uuid` (`uuid`),\n'
        '  UNIQUE KEY `uniq_segment0name0deleted` (`name`,`deleted`),\n'
        '  KEY `segments_service_type_idx` (`service_type`)\n'
        ') ' + _TABLE_OPTIONS),
    'hosts': (
        'CREATE TABLE `hosts` (\n' + _COMMON +
        '  `uuid` varchar(36) NOT NULL,\n'
        '  `name` varchar(255) NOT NULL,\n'
        '  `reserved` tinyint(1) DEFAULT NULL,\n'
        '  `type` varchar(255) NOT NULL,\n'
        '  `control_attributes` text NOT NULL,\n'
        '  `failover_segment_id` varchar(36) NOT NULL,\n'
        '  `on_maintenance` tinyint(1) DEFAULT NULL,\n'
        '  PRIMARY KEY (`id`),\n'
        '  UNIQUE KEY `uniq_host0uuid` (`uuid`),\n'
        '  UNIQUE KEY `uniq_host0name0deleted` (`name`,`deleted`),\n'
        '  KEY `failover_segment_id` (`failover_segment_id`),\n'
        '  KEY `hosts_type_idx` (`type`),\n'
        '  CONSTRAINT `hosts_ibfk_1` FOREIGN KEY (`failover_segment_id`) '
        'REFERENCES `failover_segments` (`uuid`)\n'
        ') ' + _TABLE_OPTIONS),
    'notifications': (
        'CREATE TABLE `notifications` (\n' + _COMMON +
        '  `notification_uuid` varchar(36) NOT NULL,\n'
        '  `generated_time` datetime NOT NULL,\n'
        '  `source_host_uuid` varchar(36) NOT NULL,\n'
        '  `type` varchar(36) NOT NULL,\n'
        '  `payload` text DEFAULT NULL,\n'
        "  `status` enum('new','running','error','failed','ignored',"
        "'finished') NOT NULL,\n"
        '  `failover_segment_uuid` varchar(36) DEFAULT NULL,\n'
        '  `message` text DEFAULT NULL,\n'
        '  PRIMARY KEY (`id`),\n'
        '  UNIQUE KEY `uniq_notification0uuid` (`notification_uuid`)\n'
        ') ' + _TABLE_OPTIONS),
    'vmoves': (
        'CREATE TABLE `vmoves` (\n' + _COMMON +
        '  `uuid` varchar(36) NOT NULL,\n'
        '  `notification_uuid` varchar(36) NOT NULL,\n'
        '  `instance_uuid` varchar(36) NOT NULL,\n'
        '  `instance_name` varchar(255) NOT NULL,\n'
        '  `source_host` varchar(255) DEFAULT NULL,\n'
        '  `dest_host` varchar(255) DEFAULT NULL,\n'
        '  `start_time` datetime DEFAULT NULL,\n'
        '  `end_time` datetime DEFAULT NULL,\n'
        '  `type` varchar(36) DEFAULT NULL,\n'
        '  `status` varchar(255) DEFAULT NULL,\n'
        '  `message` text DEFAULT NULL,\n'
        '  PRIMARY KEY (`id`),\n'
        '  UNIQUE KEY `uniq_vmove0uuid` (`uuid`)\n'
        ') ' + _TABLE_OPTIONS),
    'masakari_alembic_version': (
        'CREATE TABLE `masakari_alembic_version` (\n'
        '  `version_num` varchar(32) NOT NULL,\n'
        '  PRIMARY KEY (`version_num`)\n'
        ') ' + _TABLE_OPTIONS),
}


def _mysql_type(spec):
    if isinstance(spec, tuple):
        return 'enum(%s)' % ','.join("'%s'" % value for value in spec[1])
    return {'DATETIME': 'datetime', 'INTEGER': 'int(11)', 'TEXT': 'text',
            'BOOLEAN': 'tinyint(1)'}.get(spec, spec.lower())


def _sync(config):
    result = subprocess.run(
        [sys.executable, '-c', RUN_MANAGE, '--config-file', config, 'db',
         'sync'], capture_output=True, text=True, timeout=300)
    if result.returncode:
        raise AssertionError('db sync failed:\n%s%s'
                             % (result.stdout, result.stderr))
    return result.stdout


class TestSyncedSchema(testtools.TestCase):
    """One database synced once for the class; the tests only read it."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.fixtures = [conf_fixture.ConfFixture(),
                        database.MySQLDatabase(schema=None, taskflow=True),
                        fixtures.TempDir()]
        for fixture in cls.fixtures:
            fixture.setUp()
        cls.conf, cls.db, directory = cls.fixtures
        cls.config = os.path.join(directory.path, 'masakari.conf')
        with open(cls.config, 'w') as f:
            f.write('[database]\nconnection = %s\n[taskflow]\nconnection = '
                    '%s\n' % (cls.db.url, cls.db.url))
        cls.sync_output = _sync(cls.config)

    @classmethod
    def tearDownClass(cls):
        for fixture in reversed(cls.fixtures):
            fixture.cleanUp()
        super().tearDownClass()

    def query(self, sql):
        with self.db.engine.connect() as conn:
            return [tuple(row) for row in conn.exec_driver_sql(sql)]

    def schema_query(self, sql, *params):
        with self.db.engine.connect() as conn:
            return [tuple(row) for row in conn.exec_driver_sql(
                sql, (self.db.name,) + params)]

    def test_tables_and_versions(self):
        self.assertEqual(
            sorted(MASAKARI_TABLES + TASKFLOW_TABLES +
                   ['alembic_version', 'masakari_alembic_version']),
            [row[0] for row in self.schema_query(
                'SELECT table_name FROM information_schema.tables WHERE '
                'table_schema = %s ORDER BY table_name')])
        self.assertEqual([(expected.HEAD,)], self.query(
            'SELECT version_num FROM masakari_alembic_version'))
        self.assertEqual([(TASKFLOW_HEAD,)], self.query(
            'SELECT version_num FROM alembic_version'))
        for line in ('Running upgrade  -> 8f848eb45d03, Initial revision',
                     'Running upgrade 8bdf5929c5a6 -> 13adff5efb9a, Add vm '
                     'moves table', 'Context impl MySQLImpl.',
                     'Will assume non-transactional DDL.'):
            self.assertIn(line, self.sync_output)

    def test_show_create_table(self):
        for table, ddl in SHOW_CREATE_TABLE.items():
            self.assertEqual(ddl, self.query('SHOW CREATE TABLE `%s`'
                                             % table)[0][1])

    def test_columns(self):
        checked = 0
        for table, columns in expected.COLUMNS.items():
            actual = self.schema_query(
                'SELECT column_name, column_type, is_nullable, '
                'column_default, extra FROM information_schema.columns '
                'WHERE table_schema = %s AND table_name = %s '
                'ORDER BY ordinal_position', table)
            self.assertEqual(
                [(name, _mysql_type(kind), 'YES' if nullable else 'NO',
                  'NULL' if nullable else None,
                  'auto_increment' if name == 'id' else '')
                 for name, kind, nullable in columns], actual)
            checked += len(actual)
        self.assertEqual(52, checked)

    def test_indexes_and_constraints(self):
        keys = self.schema_query(
            'SELECT table_name, index_name, non_unique, '
            "GROUP_CONCAT(column_name ORDER BY seq_in_index SEPARATOR ',') "
            'FROM information_schema.statistics WHERE table_schema = %s '
            'AND table_name IN %s GROUP BY table_name, index_name, '
            'non_unique', tuple(MASAKARI_TABLES))
        wanted = {(table, 'PRIMARY', 0, 'id') for table in MASAKARI_TABLES}
        wanted |= {(table, name, 0, ','.join(columns)) for name, (
            table, columns) in expected.UNIQUE_CONSTRAINTS.items()}
        wanted |= {(table, name, 1, ','.join(columns)) for name, (
            table, columns) in expected.INDEXES.items()}
        # MySQL backs the unnamed foreign key with an index of its own.
        wanted.add(('hosts', 'failover_segment_id', 1,
                    'failover_segment_id'))
        self.assertEqual(sorted(wanted), sorted(keys))
        self.assertEqual(13, len(keys))

        foreign_keys = self.schema_query(
            'SELECT r.constraint_name, r.table_name, k.column_name, '
            'r.referenced_table_name, k.referenced_column_name, '
            'r.update_rule, r.delete_rule FROM '
            'information_schema.referential_constraints r JOIN '
            'information_schema.key_column_usage k ON '
            'k.constraint_schema = r.constraint_schema AND '
            'k.constraint_name = r.constraint_name WHERE '
            'r.constraint_schema = %s AND r.table_name IN %s',
            tuple(MASAKARI_TABLES))
        self.assertEqual([('hosts_ibfk_1', 'hosts', 'failover_segment_id',
                           'failover_segments', 'uuid', 'RESTRICT',
                           'RESTRICT')], foreign_keys)

    def test_taskflow_tables_come_from_taskflow(self):
        self.assertEqual(
            [('atomdetails', 'utf8mb3_general_ci'),
             ('flowdetails', 'utf8mb3_general_ci'),
             ('logbooks', 'utf8mb3_general_ci')],
            self.schema_query(
                'SELECT table_name, table_collation FROM '
                'information_schema.tables WHERE table_schema = %s AND '
                'table_name IN %s ORDER BY table_name',
                tuple(TASKFLOW_TABLES)))
        self.assertIn(('logbook_uuid_idx',), self.schema_query(
            'SELECT index_name FROM information_schema.statistics WHERE '
            "table_schema = %s AND table_name = 'logbooks'"))

    def test_models_equal_the_migrations(self):
        with self.db.engine.connect() as conn:
            context = alembic_migration.MigrationContext.configure(
                conn, opts={'compare_type': True,
                            'compare_server_default': True,
                            'include_name': _masakari_only})
            self.assertEqual([], autogenerate.compare_metadata(
                context, models.BASE.metadata))

    def test_models_create_the_same_tables(self):
        other = self.useFixture(database.MySQLDatabase(schema=None))
        models.BASE.metadata.create_all(other.engine)
        with other.engine.connect() as conn:
            for table in MASAKARI_TABLES:
                ddl = conn.exec_driver_sql('SHOW CREATE TABLE `%s`'
                                           % table).one()[1]
                self.assertEqual(SHOW_CREATE_TABLE[table], ddl)

    def test_second_sync_is_a_no_op(self):
        self.assertEqual(3 + 11, self.sync_output.count('Running upgrade '))
        self.assertNotIn('Running upgrade', _sync(self.config))


def _masakari_only(name, kind, parent_names):
    if kind != 'table':
        return True
    return name in MASAKARI_TABLES
