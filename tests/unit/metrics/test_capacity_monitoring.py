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

"""The failover capacity gauges of masakari-engine and their dashboard
panel (the alert rule is tested with the others, test_monitoring_files).
"""

import fixtures
import testtools

from masakari.capacity import report
from masakari.metrics import capacity as capacity_metrics
from tests.fixtures import engine
from tests.unit.metrics import test_monitoring_files

ROOM_FOR_ONE = {'VCPU': 2, 'MEMORY_MB': 4096, 'DISK_GB': 40}


class CapacityGaugesTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.engine = self.useFixture(engine.EngineFixture({
            'hosts': [{'name': name, 'resources': ROOM_FOR_ONE}
                      for name in ('c1', 'c2', 'c3')],
            'servers': [{'name': 'vm', 'host': 'c1', 'flavor': 'm1.medium',
                         'metadata': {'HA_Enabled': 'True'}}]}))
        segment = self.engine.create_segment('auto', name='seg-1')
        for name in ('c1', 'c2', 'c3'):
            self.engine.create_host(segment, name=name)

    def samples(self, collector):
        return {(family.name, tuple(sorted(sample.labels.items()))):
                sample.value
                for family in collector.collect()
                for sample in family.samples}

    def test_the_last_computation_is_served(self):
        self.engine.conf.config(failures_tolerated_target=2,
                                group='metrics')
        collector = capacity_metrics.SegmentCapacityCollector(
            60, report.capacity)
        self.assertEqual({}, self.samples(collector))
        collector.refresh()
        self.engine.nova.reset_calls()
        seg = (('segment', 'seg-1'),)

        def spare(resource):
            return ('masakari_segment_spare',
                    (('resource', resource),) + seg)
        self.assertEqual({
            ('masakari_segment_failures_tolerated', seg): 2,
            ('masakari_segment_failures_tolerated_target', seg): 2,
            spare('VCPU'): 4, spare('MEMORY_MB'): 8192, spare('DISK_GB'): 80,
        }, self.samples(collector))
        # A scrape reads nothing.
        self.assertEqual([], self.engine.nova.calls())

    def test_a_segment_that_cannot_be_read_has_no_sample(self):
        self.engine.nova.add_fault(service='placement', status=503)
        collector = capacity_metrics.SegmentCapacityCollector(
            60, report.capacity)
        collector.refresh()
        self.assertEqual({}, self.samples(collector))
        self.assertIn('Failover capacity of segment seg-1 not computed',
                      self.engine.logs.output)

    def test_off_by_default_started_when_asked(self):
        self.assertEqual([], capacity_metrics.collectors(report.capacity))
        self.engine.conf.config(segment_capacity_interval=3600,
                                group='metrics')
        self.useFixture(fixtures.MockPatchObject(
            capacity_metrics.SegmentCapacityCollector, 'refresh'))
        [collector] = capacity_metrics.collectors(report.capacity)
        self.addCleanup(collector.stop)
        self.assertEqual(3600, collector.interval)

    def test_describe_reads_nothing(self):
        described = capacity_metrics.SegmentCapacityCollector(
            0, report.capacity).describe()
        self.assertEqual(['masakari_segment_failures_tolerated',
                          'masakari_segment_failures_tolerated_target',
                          'masakari_segment_spare'],
                         [family.name for family in described])
        self.assertEqual([], self.engine.nova.calls())


class CapacityDashboardTestCase(testtools.TestCase):

    def test_panel_of_spare_room(self):
        title = 'Failover capacity: spare room by segment'
        [panel] = [panel for panel in
                   test_monitoring_files.dashboard()['panels']
                   if panel['title'] == title]
        self.assertEqual(['min by (segment, resource) (masakari_segment_'
                          'spare{job=~"$job", instance=~"$instance"})'],
                         [target['expr'] for target in panel['targets']])
