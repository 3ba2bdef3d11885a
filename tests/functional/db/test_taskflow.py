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

"""Taskflow persistence on MariaDB: schema through taskflow's migrations,
one backend per URL, and the purge of the logbooks."""

import contextlib
import datetime
import os
import subprocess
import sys

import fixtures
from oslo_utils import timeutils
from oslo_utils import uuidutils
from taskflow.persistence import models as taskflow_models
import testtools

from masakari import context
from masakari.db import api as db
from masakari.engine.drivers.taskflow import driver
from masakari.engine.drivers.taskflow import persistence
from tests.fixtures import conf as conf_fixture
from tests.fixtures import database

RUN_MANAGE = ('import sys; from masakari.cmd import manage; '
              'sys.argv[0] = "masakari-manage"; manage.main()')


class TestTaskflowPersistence(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.conf = self.useFixture(conf_fixture.ConfFixture()).conf
        self.db = self.useFixture(database.MySQLDatabase(taskflow=True))

    def count(self, table):
        with self.db.engine.connect() as conn:
            return conn.exec_driver_sql('SELECT count(*) FROM %s'
                                        % table).scalar()

    def save_logbook(self, notification_uuid, flows=2, atoms=3):
        book = taskflow_models.LogBook('instance:evacuate',
                                       uuid=notification_uuid)
        for _ in range(flows):
            flow = taskflow_models.FlowDetail('instance_evacuate_engine',
                                              uuidutils.generate_uuid())
            for number in range(atoms):
                flow.add(taskflow_models.TaskDetail(
                    'Task%d' % number, uuidutils.generate_uuid()))
            book.add(flow)
        backend = persistence.get_backend(self.db.url)
        with contextlib.closing(backend.get_connection()) as conn:
            conn.save_logbook(book)

    def finished_notification(self, days_ago):
        notification = db.notification_create(context.get_admin_context(), {
            'notification_uuid': uuidutils.generate_uuid(),
            'generated_time': timeutils.utcnow(), 'type': 'COMPUTE_HOST',
            'source_host_uuid': uuidutils.generate_uuid(),
            'status': 'finished'})
        with self.db.engine.begin() as conn:
            conn.exec_driver_sql(
                'UPDATE notifications SET updated_at = %s WHERE id = %s',
                (timeutils.utcnow() - datetime.timedelta(days_ago),
                 notification.id))
        return notification.notification_uuid

    def test_one_backend_per_url(self):
        backend = persistence.get_backend(self.db.url)
        self.assertIs(backend, persistence.get_backend(self.db.url))
        persistence.reset()
        self.assertIsNot(backend, persistence.get_backend(self.db.url))

    def test_upgrade_is_idempotent_through_the_driver(self):
        driver.TaskFlowDriver().upgrade_backend(self.db.url)
        with self.db.engine.connect() as conn:
            self.assertEqual('00af93df9d77', conn.exec_driver_sql(
                'SELECT version_num FROM alembic_version').scalar())

    def test_destroy_logbooks_cascades(self):
        purged, kept = uuidutils.generate_uuid(), uuidutils.generate_uuid()
        self.save_logbook(purged)
        self.save_logbook(kept, flows=1, atoms=2)
        self.assertEqual(
            {'logbooks': 1, 'flowdetails': 2, 'atomdetails': 6},
            persistence.destroy_logbooks(
                self.db.url, [purged, uuidutils.generate_uuid()]))
        self.assertEqual([1, 1, 2], [self.count(table) for table in
                                     ('logbooks', 'flowdetails',
                                      'atomdetails')])

    def test_manage_purge_deletes_logbooks(self):
        old = self.finished_notification(days_ago=40)
        young = self.finished_notification(days_ago=5)
        self.save_logbook(old)
        self.save_logbook(young)
        config = os.path.join(self.useFixture(fixtures.TempDir()).path,
                              'masakari.conf')
        with open(config, 'w') as f:
            f.write('[database]\nconnection = %s\n[taskflow]\nconnection = '
                    '%s\n' % (self.db.url, self.db.url))
        result = subprocess.run(
            [sys.executable, '-c', RUN_MANAGE, '--config-file', config, 'db',
             'purge'], capture_output=True, text=True, timeout=300)
        self.assertEqual(0, result.returncode, result.stdout + result.stderr)
        self.assertIn('Deleted 2 row(s) from table flowdetails along with '
                      'the purged notifications', result.stdout)
        self.assertEqual([1, 1, 2, 6], [self.count(table) for table in
                                        ('notifications', 'logbooks',
                                         'flowdetails', 'atomdetails')])
