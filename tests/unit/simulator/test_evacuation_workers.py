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

"""``evacuation_workers``: Nova carries out N evacuations at a time;
``evacuation_queue``: and refuses those past a bound.
"""

from unittest import mock

import testtools

from masakari.simulator import state
from tests.unit.simulator import base


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


class EvacuationQueueTestCase(base.SimulatorTestCase):
    """``evacuation_queue``: beyond workers + queue, Nova answers 429; the
    state tells the peak of evacuations in progress and the refused ones.
    """

    def topology(self):
        return dict(super().topology(),
                    hosts=[{'name': 'compute-1', 'state': 'down'},
                           'compute-2', 'compute-3'],
                    delays={'evacuate': 60, 'stop': 0, 'start': 0},
                    evacuation_workers=1, evacuation_queue=1,
                    servers=[{'name': 'vm', 'count': 4,
                              'host': 'compute-1'}])

    def evacuate(self, name):
        return self.action(self.server_id(name), {'evacuate': {}})

    def test_refused_with_429_past_the_bound(self):
        self.assertEqual([200, 200], [self.evacuate(name).status_code
                                      for name in ('vm-1', 'vm-2')])
        self.assertFault(self.evacuate('vm-3'), 429, 'overLimit',
                         'Too many evacuations in progress; retry later.')
        self.assertEqual('active', self.server(self.server_id('vm-3'))[
            'status'].lower())
        self.assertEqual({'in_progress': 2, 'peak': 2, 'refused': 1},
                         self.cloud.snapshot()['evacuations'])

    def test_no_bound_by_default(self):
        self.cloud.evacuation_queue = None
        self.assertEqual([200] * 4, [self.evacuate('vm-%d' % number)
                                     .status_code
                                     for number in range(1, 5)])
        self.assertEqual({'in_progress': 4, 'peak': 4, 'refused': 0},
                         self.cloud.snapshot()['evacuations'])
