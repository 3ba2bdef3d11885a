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

"""masakari-manage: outputs and exit codes and the fixes."""

import contextlib
import io
import logging
import os
import re
import socket
import subprocess
import sys
import time

import fixtures
from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa
from taskflow.persistence import models as taskflow_models
import testtools

from masakari.cmd import manage
import masakari.conf
from masakari.db.sqlalchemy import models
from masakari.engine import brake
from masakari.engine.drivers.taskflow import persistence
from masakari import version

CONF = masakari.conf.CONF
HEAD = '13adff5efb9a'


class _ProcessLogging(fixtures.Fixture):
    """Puts back the process-wide logging state that oslo.log's setup and
    captureWarnings change, as masakari-manage does in production.
    """

    def setUp(self):
        super().setUp()
        root = logging.getLogger()
        handlers, level = list(root.handlers), root.level
        levels = {name: logger.level for name, logger in
                  logging.Logger.manager.loggerDict.items()
                  if isinstance(logger, logging.Logger)}
        excepthook = sys.excepthook

        def restore():
            logging.captureWarnings(False)
            sys.excepthook = excepthook
            for handler in list(root.handlers):
                root.removeHandler(handler)
            for handler in handlers:
                root.addHandler(handler)
            root.setLevel(level)
            for name, logger in logging.Logger.manager.loggerDict.items():
                if isinstance(logger, logging.Logger):
                    logger.setLevel(levels.get(name, logging.NOTSET))
        self.addCleanup(restore)


class ManageTestCase(testtools.TestCase):
    """Runs ``manage.main()`` in-process on a config file of its own."""

    def setUp(self):
        super().setUp()
        self.useFixture(_ProcessLogging())
        self.useFixture(fixtures.EnvironmentVariable('COLUMNS', '80'))
        self.useFixture(fixtures.EnvironmentVariable(
            'FORCE_MASAKARI_DB_SYNC'))
        self.addCleanup(persistence.reset)
        self.addCleanup(self._unregister_options)
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.db_url = 'sqlite:///%s/masakari.sqlite' % self.dir
        self.taskflow_url = self.db_url
        self.config_file = os.path.join(self.dir, 'masakari.conf')
        self.write_config()

    @staticmethod
    def _unregister_options():
        CONF.reset()
        CONF.unregister_opt(manage.CATEGORY_OPT)

    def write_config(self, taskflow=True, extra=''):
        with open(self.config_file, 'w') as f:
            f.write('[database]\nconnection = %s\n' % self.db_url)
            if taskflow:
                f.write('[taskflow]\nconnection = %s\n' % self.taskflow_url)
            f.write(extra)

    def manage(self, *args, config=True):
        """Run masakari-manage; returns (exit code, stdout, stderr)."""
        argv = ['masakari-manage']
        if config:
            argv += ['--config-file', self.config_file]
        stdout, stderr = io.StringIO(), io.StringIO()
        # NOTE: a parsed CONF refuses new command line options; a real
        # masakari-manage process starts with an unparsed one.
        CONF.clear()
        with fixtures.MonkeyPatch('sys.argv', argv + list(args)), \
                fixtures.MonkeyPatch('sys.stdout', stdout), \
                fixtures.MonkeyPatch('sys.stderr', stderr):
            try:
                manage.main()
            except SystemExit as exit_:
                code = exit_.code
            else:
                self.fail('masakari-manage did not exit')
        return code, stdout.getvalue(), stderr.getvalue()

    def version(self):
        """``db version``: its printed revision (after alembic's log lines)."""
        code, out, _err = self.manage('db', 'version')
        self.assertEqual(0, code)
        return out.splitlines()[-1]

    def save_logbook(self, book):
        backend = persistence.get_backend(self.taskflow_url)
        with contextlib.closing(backend.get_connection()) as conn:
            conn.save_logbook(book)

    def engine(self):
        engine = sa.create_engine(self.db_url)
        self.addCleanup(engine.dispose)
        return engine

    def tables(self, url=None):
        engine = sa.create_engine(url or self.db_url)
        self.addCleanup(engine.dispose)
        return sorted(sa.inspect(engine).get_table_names())


class TestInvocation(ManageTestCase):

    def test_no_argument_prints_the_categories(self):
        code, out, _err = self.manage(config=False)
        self.assertEqual(2, code)
        self.assertEqual('\nOpenStack masakari version: %s\n\n'
                         'masakari-manage category action [<args>]\n'
                         'Available categories:\n\tdb\n\tfencing\n'
                         '\tnotification\n\tsegment\n'
                         % version.version_string(), out)

    def test_version(self):
        code, out, _err = self.manage('--version', config=False)
        self.assertEqual((0, version.version_string() + '\n'), (code, out))

    def test_missing_config_file_or_directory(self):
        missing = os.path.join(self.dir, 'missing.conf')
        code, out, _err = self.manage('--config-file', missing, 'db',
                                      'version', config=False)
        self.assertEqual((2, 'Failed to read configuration file(s): %s\n'
                          % missing), (code, out))
        code, out, _err = self.manage('--config-dir', missing, 'db',
                                      'version', config=False)
        self.assertEqual((2, 'Invalid directory: Failed to read config file '
                          'directory: %s\n' % missing), (code, out))

    def test_unknown_category_and_action(self):
        code, _out, err = self.manage('foo')
        self.assertEqual(2, code)
        self.assertTrue(err.endswith(
            "masakari-manage: error: argument category: invalid choice: "
            "'foo' (choose from 'db', 'fencing', 'notification', "
            "'segment')\n"),
            err)
        code, _out, err = self.manage('db', 'bar')
        self.assertEqual(2, code)
        self.assertEqual(
            'usage: masakari-manage db [-h] {purge,sync,version} ...\n'
            "masakari-manage db: error: argument action: invalid choice: "
            "'bar' (choose from 'purge', 'sync', 'version')\n", err)

    def test_db_without_action_lists_the_actions(self):
        # Fix: 22.0.0 died with NoSuchOptError (exit 1).
        code, out, _err = self.manage('db')
        self.assertEqual(2, code)
        self.assertEqual('masakari-manage db action [<args>]\n'
                         'Available actions:\n\tpurge\n\tsync\n\tversion\n',
                         out)


class TestSyncAndVersion(ManageTestCase):

    def test_version_of_an_empty_database(self):
        self.assertEqual('None', self.version())

    def test_sync_migrates_both_schemas(self):
        code, out, _err = self.manage('db', 'sync')
        self.assertEqual(0, code)
        messages = _log_messages(out)
        for message in (
                'Applying migration(s)',
                'Running upgrade  -> 8f848eb45d03, Initial revision',
                'Running upgrade 8f848eb45d03 -> 8bdf5929c5a6, Add vm moves '
                'table',
                'Running upgrade 8bdf5929c5a6 -> 13adff5efb9a, Add vm moves '
                'table',
                "Loading masakari notification driver 'taskflow_driver'",
                'Migration(s) applied'):
            self.assertIn(message, messages)
        self.assertEqual(['atomdetails', 'failover_segments', 'flowdetails',
                          'hosts', 'logbooks', 'masakari_alembic_version',
                          'notifications', 'vmoves'], self.tables())
        self.assertEqual(HEAD, self.version())
        code, out, _err = self.manage('db', 'sync')
        self.assertEqual(0, code)
        self.assertNotIn('Running upgrade', out)

    def test_taskflow_schema_in_its_own_database(self):
        self.taskflow_url = 'sqlite:///%s/taskflow.sqlite' % self.dir
        self.write_config()
        self.assertEqual(0, self.manage('db', 'sync')[0])
        self.assertEqual(['atomdetails', 'flowdetails', 'logbooks'],
                         self.tables(self.taskflow_url))

    def test_sync_without_taskflow_connection_fails_after_main_schema(self):
        # As 22.0.0: exit 1 once the main schema is migrated; here with
        # one line that says what to do, not a traceback.
        self.write_config(taskflow=False)
        code, out, _err = self.manage('db', 'sync')
        self.assertEqual(1, code)
        self.assertEqual('[taskflow] connection should be configured to use '
                         'this driver. Set [taskflow]/connection (it may be '
                         'the URL of [database]/connection) and run this '
                         'command again.', out.splitlines()[-1])
        self.assertEqual(HEAD, self.version())
        self.assertNotIn('logbooks', self.tables())

    def test_sync_to_a_revision_id(self):
        # Fix: 22.0.0 only accepted an integer, then crashed on it.
        code, _out, _err = self.manage('db', 'sync', '8bdf5929c5a6')
        self.assertEqual(0, code)
        self.assertEqual('8bdf5929c5a6', self.version())

    def test_sync_refuses_numbers_and_unknown_revisions(self):
        code, out, _err = self.manage('db', 'sync', '8')
        self.assertEqual((1, 'You requested an sqlalchemy-migrate database '
                          'version; this is no longer supported\n'),
                         (code, out))
        code, out, _err = self.manage('db', 'sync', 'abcdef')
        self.assertEqual(1, code)
        self.assertIn("abcdef", out)
        self.assertEqual('None', self.version())

    def test_legacy_refusal_is_printed(self):
        with self.engine().begin() as conn:
            conn.exec_driver_sql(
                'CREATE TABLE migrate_version (repository_id VARCHAR(250) '
                'PRIMARY KEY, repository_path TEXT, version INTEGER)')
            conn.exec_driver_sql(
                "INSERT INTO migrate_version VALUES ('masakari', '/x', 5)")
        code, out, _err = self.manage('db', 'sync')
        self.assertEqual(1, code)
        self.assertIn('Your database is at version 005; we only support '
                      'upgrading from version 007 or later. Please upgrade '
                      'your database using an earlier release of Masakari '
                      'and then return here.\n', out)

    def test_empty_notification_driver_exits_1(self):
        self.write_config(extra='[DEFAULT]\nnotification_driver =\n')
        code, out, _err = self.manage('db', 'sync')
        self.assertEqual(1, code)
        self.assertIn('Notification driver option required, but not '
                      'specified', out)


class TestPurge(ManageTestCase):

    def setUp(self):
        super().setUp()
        self.assertEqual(0, self.manage('db', 'sync')[0])

    def test_validation(self):
        days_since_epoch = int(time.time() / 86400) + 1
        for args, message in (
                (['--max_rows', '-2'],
                 'Invalid input received: max_rows must be >= -1'),
                (['--max_rows', '2147483648'],
                 'Invalid input received: max_rows must be <= 2147483647'),
                (['--max_rows', '0'],
                 'Must supply value greater than 0 for max_rows.'),
                (['--age_in_days', '-1'],
                 'Must supply a non-negative value for age.'),
                (['--age_in_days', str(days_since_epoch)],
                 'Maximal age is count of days since epoch.'),
                (['--age_in_days', '-1', '--max_rows', '0'],
                 'Must supply value greater than 0 for max_rows.')):
            self.assertEqual((1, '', message + '\n'),
                             self.manage('db', 'purge', *args), args)

    def test_non_integer_arguments(self):
        code, _out, err = self.manage('db', 'purge', '--max_rows', 'abc')
        self.assertEqual(2, code)
        self.assertEqual(
            'usage: masakari-manage db purge [-h] [--age_in_days AGE_IN_DAYS]'
            '\n                                [--max_rows MAX_ROWS]\n'
            "masakari-manage db purge: error: argument --max_rows: invalid "
            "int value: 'abc'\n", err)

    def add_finished_notification(self, days_ago):
        """A notification finished ``days_ago`` with a logbook of two flow
        details (the workflow ran twice) of two atoms each.
        """
        notification_uuid = uuidutils.generate_uuid()
        with self.engine().begin() as conn:
            conn.execute(models.Notification.__table__.insert().values(
                notification_uuid=notification_uuid, deleted=0,
                generated_time=timeutils.utcnow(), type='VM',
                source_host_uuid=uuidutils.generate_uuid(), status='finished',
                updated_at=timeutils.utcnow() - timeutils.datetime.timedelta(
                    days=days_ago)))
        book = taskflow_models.LogBook('instance:recovery',
                                       uuid=notification_uuid)
        for _ in range(2):
            flow = taskflow_models.FlowDetail('instance_recovery_engine',
                                              uuidutils.generate_uuid())
            for name in ('StopInstanceTask', 'StartInstanceTask'):
                flow.add(taskflow_models.TaskDetail(
                    name, uuidutils.generate_uuid()))
            book.add(flow)
        self.save_logbook(book)
        return notification_uuid

    def taskflow_counts(self):
        engine = sa.create_engine(self.taskflow_url)
        self.addCleanup(engine.dispose)
        with engine.connect() as conn:
            return [conn.exec_driver_sql('SELECT count(*) FROM %s'
                                         % table).scalar()
                    for table in ('logbooks', 'flowdetails', 'atomdetails')]

    def test_purge_deletes_the_logbooks_of_purged_notifications(self):
        # New: 22.0.0 never deleted taskflow data.
        self.add_finished_notification(days_ago=40)
        kept = self.add_finished_notification(days_ago=10)
        self.assertEqual([2, 4, 8], self.taskflow_counts())
        code, out, _err = self.manage('db', 'purge')
        self.assertEqual(0, code)
        self.assertEqual([1, 2, 4], self.taskflow_counts())
        backend = persistence.get_backend(self.taskflow_url)
        with contextlib.closing(backend.get_connection()) as conn:
            self.assertEqual([kept], [book.uuid for book in
                                      conn.get_logbooks()])
        for line in ('Deleted 1 row(s) from table notifications',
                     'Deleted 1 row(s) from table logbooks along with the '
                     'purged notifications',
                     'Deleted 2 row(s) from table flowdetails along with the '
                     'purged notifications',
                     'Deleted 4 row(s) from table atomdetails along with the '
                     'purged notifications',
                     'Total deleted rows are 1'):
            self.assertIn(line, out)

    def test_purge_without_taskflow_connection(self):
        self.add_finished_notification(days_ago=40)
        self.write_config(taskflow=False)
        code, out, _err = self.manage('db', 'purge', '--age_in_days', '1')
        self.assertEqual(0, code)
        self.assertNotIn('logbooks', out)
        self.assertIn('Total deleted rows are 1', out)
        self.assertEqual([1, 2, 4], self.taskflow_counts())


def _log_messages(output):
    """The messages of oslo.log's lines: what follows the context part."""
    return [match.group(1) for match in
            re.finditer(r'^\S+ \S+ \d+ [A-Z]+ \S+ \[[^\]]*\] (.*)$', output,
                        re.MULTILINE)]


class TestNotificationRelease(ManageTestCase):
    """``notification release``: an extension for the mass-failure brake."""

    def add_notification(self, status, message):
        notification_uuid = uuidutils.generate_uuid()
        with self.engine().begin() as conn:
            conn.execute(models.Notification.__table__.insert().values(
                notification_uuid=notification_uuid, deleted=0,
                generated_time=timeutils.utcnow(), type='COMPUTE_HOST',
                payload='{"event": "STOPPED", "host_status": "NORMAL"}',
                source_host_uuid=uuidutils.generate_uuid(), status=status,
                message=message))
        return notification_uuid

    def stored(self, notification_uuid):
        with self.engine().connect() as conn:
            return tuple(conn.execute(sa.select(
                models.Notification.status, models.Notification.message
            ).where(models.Notification.notification_uuid ==
                    notification_uuid)).one())

    def setUp(self):
        super().setUp()
        self.write_config(extra='[DEFAULT]\ntransport_url = fake:/\n')

    def test_release_a_held_notification(self):
        self.assertEqual(0, self.manage('db', 'sync')[0])
        held = self.add_notification('running',
                                     brake.HELD_PREFIX + '3 hosts failed')
        code, out, _err = self.manage('notification', 'release', held)
        self.assertEqual((0, 'Notification %s released: an engine '
                             'recovers it now, without the brake.\n'
                          % held), (code, out))
        self.assertEqual(('new', brake.RELEASED_MESSAGE), self.stored(held))

        code, out, _err = self.manage('notification', 'release', held)
        self.assertEqual((1, 'Notification %s is not held by the '
                             'mass-failure brake.\n' % held), (code, out))

    def test_released_when_no_engine_can_be_told(self):
        with socket.socket() as probe:
            probe.bind(('127.0.0.1', 0))
            closed = probe.getsockname()[1]
        self.write_config(extra='[DEFAULT]\ntransport_url = rabbit://guest:'
                                'guest@127.0.0.1:%d/\n' % closed)
        self.assertEqual(0, self.manage('db', 'sync')[0])
        held = self.add_notification('running',
                                     brake.HELD_PREFIX + '3 hosts failed')
        code, out, _err = self.manage('notification', 'release', held)
        self.assertEqual(0, code)
        self.assertRegex(out, r'^Notification %s released, but no engine '
                              r'could be told \(.+\): it is recovered as a '
                              r'notification whose message was lost, after '
                              r'\[takeover\]/new_notification_age seconds '
                              r'or at the periodic retry\.\n$' % held)
        self.assertEqual(('new', brake.RELEASED_MESSAGE), self.stored(held))

    def test_refusals(self):
        self.assertEqual(0, self.manage('db', 'sync')[0])
        running = self.add_notification('running', None)
        self.assertEqual(1, self.manage('notification', 'release',
                                        running)[0])
        self.assertEqual(('running', None), self.stored(running))
        missing = uuidutils.generate_uuid()
        code, out, _err = self.manage('notification', 'release', missing)
        self.assertEqual(1, code)
        self.assertIn(missing, out)
        code, out, _err = self.manage('notification')
        self.assertEqual((2, 'masakari-manage notification action '
                             '[<args>]\nAvailable actions:\n\trelease\n'
                             '\ttimeline\n'),
                         (code, out))


class TestProcess(testtools.TestCase):
    """The few behaviours that only a real process shows."""

    def test_sync_without_taskflow_connection_exits_1_in_one_line(self):
        directory = self.useFixture(fixtures.TempDir()).path
        config = os.path.join(directory, 'masakari.conf')
        with open(config, 'w') as f:
            f.write('[database]\nconnection = sqlite:///%s/m.sqlite\n'
                    % directory)
        result = subprocess.run(
            [sys.executable, '-c',
             'import sys; from masakari.cmd import manage; '
             'sys.argv[0] = "masakari-manage"; manage.main()',
             '--config-file', config, 'db', 'sync'],
            capture_output=True, text=True, timeout=120)
        self.assertEqual(1, result.returncode)
        self.assertTrue(result.stdout.endswith(
            '\n[taskflow] connection should be configured to use this '
            'driver. Set [taskflow]/connection (it may be the URL of '
            '[database]/connection) and run this command again.\n'),
            result.stdout)
        self.assertNotIn('Traceback', result.stdout + result.stderr)
        self.assertIn('Running upgrade 8bdf5929c5a6 -> 13adff5efb9a',
                      result.stdout)
