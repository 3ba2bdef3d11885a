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

"""The logbook read-back: what one query gives is what taskflow's own
reader gives.
"""

import contextlib
import threading
from unittest import mock

import fixtures
from oslo_db import exception as db_exception
from taskflow import exceptions as taskflow_exc
from taskflow.persistence import models
import tenacity
import testtools

from masakari.engine.drivers.taskflow import persistence
from masakari import exception

NOTIFICATION_UUID = '7882ccb9-ebb1-43b3-848b-f2333ae4b79c'


class RecordedRunsTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.url = 'sqlite://'
        persistence.upgrade(self.url)
        self.addCleanup(persistence.reset)
        self.backend = persistence.get_backend(self.url)

    def save(self, book):
        with contextlib.closing(self.backend.get_connection()) as connection:
            connection.save_logbook(book)

    def runs(self):
        return sorted(
            ((run.meta, sorted((atom.name, atom.meta, atom.state)
                               for atom in run))
             for run in persistence.recorded_runs(self.url,
                                                  NOTIFICATION_UUID)),
            key=repr)

    def test_as_taskflow_reads_them(self):
        book = models.LogBook(NOTIFICATION_UUID, uuid=NOTIFICATION_UUID)
        for number, atom_names in ((1, ('a', 'b')), (2, ('c',)), (3, ())):
            flow = models.FlowDetail('run-%d' % number,
                                     uuid='flow-%d' % number)
            flow.meta = {'started_at': str(number)}
            for name in atom_names:
                atom = models.TaskDetail(name, uuid='%s-%d' % (name, number))
                atom.meta = {'progress': 1.0}
                atom.state = 'SUCCESS'
                flow.add(atom)
            book.add(flow)
        self.save(book)
        self.save(models.LogBook('other', uuid='other-book'))

        with contextlib.closing(self.backend.get_connection()) as connection:
            expected = sorted(
                ((run.meta, sorted((atom.name, atom.meta, atom.state)
                                   for atom in run))
                 for run in connection.get_logbook(NOTIFICATION_UUID)),
                key=repr)
        self.assertEqual(3, len(expected))
        self.assertEqual(expected, self.runs())

    def test_no_logbook(self):
        self.assertEqual([], self.runs())


class SharedConnectionTestCase(testtools.TestCase):

    def test_one_connection_object_for_every_caller(self):
        url = 'sqlite://'
        persistence.upgrade(url)
        self.addCleanup(persistence.reset)
        backend = persistence.get_backend(url)
        got = []
        threads = [threading.Thread(
            target=lambda: got.append(backend.get_connection()))
            for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(1, len({id(connection) for connection in got}))
        with contextlib.closing(got[0]) as connection:
            connection.save_logbook(models.LogBook('book', uuid='book'))
        # Closed, it still works: taskflow's close() holds nothing.
        self.assertEqual('book',
                         backend.get_connection().get_logbook('book').name)


class RunBackendTestCase(testtools.TestCase):
    """The records of one run: retried on deadlock or a lost connection,
    not written once the run's lease is lost.
    """

    def setUp(self):
        super().setUp()
        self.url = 'sqlite://'
        persistence.upgrade(self.url)
        self.addCleanup(persistence.reset)
        self.shared = persistence.get_backend(self.url)
        retrying = persistence._RunConnection._retrying
        self.useFixture(fixtures.MockPatchObject(
            persistence._RunConnection, '_retrying',
            retrying.copy(wait=tenacity.wait_none())))

    def stored(self, uuid):
        try:
            return self.shared.get_connection().get_logbook(uuid).name
        except taskflow_exc.NotFound:
            return None

    def test_a_deadlock_or_a_lost_connection_is_written_again(self):
        connection = self.shared.get_connection()
        save = connection.save_logbook
        errors = [db_exception.DBDeadlock(),
                  db_exception.DBConnectionError()]

        def flaky(book):
            if errors:
                raise errors.pop()
            return save(book)

        self.useFixture(fixtures.MockPatchObject(connection, 'save_logbook',
                                                 side_effect=flaky))
        run = persistence.RunBackend(self.shared).get_connection()
        run.save_logbook(models.LogBook('kept', uuid='kept'))
        self.assertEqual('kept', self.stored('kept'))
        self.assertEqual([], errors)

    def test_other_errors_are_not_retried(self):
        connection = self.shared.get_connection()
        self.useFixture(fixtures.MockPatchObject(
            connection, 'save_logbook',
            side_effect=db_exception.DBError()))
        run = persistence.RunBackend(self.shared).get_connection()
        self.assertRaises(db_exception.DBError, run.save_logbook,
                          models.LogBook('lost', uuid='lost'))
        self.assertEqual(1, connection.save_logbook.call_count)

    def test_nothing_is_written_once_the_lease_is_lost(self):
        lease = mock.Mock()
        run = persistence.RunBackend(self.shared, lease).get_connection()
        run.save_logbook(models.LogBook('held', uuid='held'))
        lease.confirm.side_effect = exception.RecoveryLost('n-1')
        book = models.LogBook('lost', uuid='lost')
        self.assertIs(book, run.save_logbook(book))
        self.assertEqual(('held', None), (self.stored('held'),
                                          self.stored('lost')))
        self.assertEqual(2, lease.confirm.call_count)
