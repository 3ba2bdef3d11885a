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

"""``evacuation_workers``: Nova carries out N evacuations at a time."""

from unittest import mock

import testtools

from masakari.simulator import state


class EvacuationWorkersTestCase(testtools.TestCase):

    def cloud(self, workers):
        cloud = state.Cloud({'hosts': ['compute-1'],
                             'evacuation_workers': workers})
        self.addCleanup(cloud.close)
        return cloud

    def delays(self, cloud, count, now=100.0):
        with mock.patch.object(state.time, 'monotonic', return_value=now):
            return [cloud.evacuation_delay(1.0) for _ in range(count)]

    def test_waves_of_n(self):
        cloud = self.cloud(2)
        self.assertEqual([1.0, 1.0, 2.0, 2.0, 3.0], self.delays(cloud, 5))
        # Queued behind the others: a worker is free at 103.
        self.assertEqual([2.5], self.delays(cloud, 1, now=100.5))
        # Long after: at once.
        self.assertEqual([1.0], self.delays(cloud, 1, now=200.0))

    def test_no_limit_by_default(self):
        self.assertEqual([1.0] * 30, self.delays(self.cloud(0), 30))
