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

"""The engine's background loop: jobs run on their own, failures are
logged, a long job does not hold the others up, stop ends it.
"""

import threading

import fixtures
import testtools

from masakari.engine import background
from tests.fixtures import polling


class LoopTestCase(testtools.TestCase):

    def loop(self, *jobs):
        loop = background.Loop(jobs)
        self.addCleanup(loop.stop)
        loop.start()
        return loop

    def test_jobs_run_and_a_failure_is_logged(self):
        log = self.useFixture(fixtures.FakeLogger())
        runs = {'quick': 0, 'failing': 0}
        release = threading.Event()
        self.addCleanup(release.set)

        def failing():
            runs['failing'] += 1
            raise RuntimeError('no database')

        def count():
            runs['quick'] += 1

        loop = self.loop(('failing', failing, 0.01),
                         ('long', release.wait, 0.01),
                         ('quick', count, 0.01),
                         ('off', self.fail, None))
        self.assertEqual(['failing', 'long', 'quick'], loop.names)
        # The long job holds its own thread only.
        polling.wait_until(lambda: runs['quick'] >= 3 and
                           runs['failing'] >= 3)
        self.assertIn("Failed to call periodic "
                      "'masakari.engine.background.failing'", log.output)
        self.assertIn('RuntimeError: no database', log.output)

        release.set()
        loop.stop()
        polling.wait_until(lambda: not [
            thread for thread in threading.enumerate() if thread.name in (
                'background-failing', 'background-long',
                'background-quick')])

    def test_nothing_to_run(self):
        loop = self.loop(('off', self.fail, None))
        self.assertEqual([], loop.names)
        loop.stop()
