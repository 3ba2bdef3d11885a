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

from taskflow.persistence import models
import testtools

from masakari.engine.drivers.taskflow import persistence

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
