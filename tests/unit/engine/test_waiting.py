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

"""waiting.poll: when the condition is evaluated."""

from unittest import mock

import testtools

from masakari.engine.drivers.taskflow import waiting


class TestPoll(testtools.TestCase):

    def poll(self, results, **kwargs):
        events = []
        answers = iter(results)

        def condition():
            events.append('check')
            return next(answers)

        with mock.patch.object(waiting.time, 'sleep',
                               side_effect=lambda s: events.append(s)):
            waiting.poll(condition, 60, lambda waited: 0.5, **kwargs)
        return events

    def test_checks_at_once_then_every_interval(self):
        self.assertEqual(['check', 0.5, 'check', 0.5, 'check'],
                         self.poll([False, False, True]))

    def test_first_check_after_one_interval_unless_check_first(self):
        self.assertEqual([0.5, 'check', 0.5, 'check'],
                         self.poll([False, True], check_first=False))

    def test_times_out(self):
        with mock.patch.object(waiting.time, 'monotonic',
                               side_effect=[0, 61]):
            self.assertRaises(waiting.Timeout, waiting.poll, lambda: False,
                              60, 1)
