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

"""The oldest-unfinished-notification gauge, read from the database."""

import datetime

import fixtures
from oslo_utils import timeutils
import testtools

from masakari.engine import brake
from masakari.metrics import engine as engine_metrics
from tests.fixtures import engine


class OldestNotificationTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.engine = self.useFixture(engine.EngineFixture())
        self.host = self.engine.create_host(self.engine.create_segment())

    def ages(self):
        ages, _held = engine_metrics.OldestNotificationCollector(
            brake.is_held).collect()
        return {sample.labels['status']: sample.value
                for sample in ages.samples}

    def held(self):
        _ages, held = engine_metrics.OldestNotificationCollector(
            brake.is_held).collect()
        [sample] = held.samples
        return sample.value

    def test_held_counts_the_brake_holds_in_the_database(self):
        self.assertEqual(0, self.held())
        held = self.engine.create_notification(self.host, status='running')
        brake.hold(held, 'too many failed hosts')
        self.engine.create_notification(self.host, status='running')
        self.assertEqual(1, self.held())
        self.assertTrue(brake.release(held))
        self.assertEqual(0, self.held())

    def test_age_by_status_and_zero_when_none(self):
        self.assertEqual({'new': 0, 'running': 0, 'error': 0}, self.ages())
        self.engine.create_notification(self.host, status='running')
        self.engine.create_notification(self.host, status='finished')
        later = timeutils.utcnow() + datetime.timedelta(seconds=600)
        self.useFixture(fixtures.MockPatch(
            'masakari.metrics.engine.timeutils.utcnow', return_value=later))
        ages = self.ages()
        self.assertEqual((0, 0), (ages['new'], ages['error']))
        self.assertTrue(599 <= ages['running'] <= 602, ages)
