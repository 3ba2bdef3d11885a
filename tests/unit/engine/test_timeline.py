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

"""The per-phase timeline computed from stored progress details."""

import datetime

import testtools

from masakari.engine.drivers.taskflow import timeline

T0 = datetime.datetime(2026, 12, 3, 10, 0, 0)


def progress(*offsets):
    """Stored progress details at these seconds after T0."""
    return [{'timestamp': str(T0 + datetime.timedelta(seconds=offset)),
             'progress': 0.0, 'message': 'm%d' % index}
            for index, offset in enumerate(offsets)]


def at(seconds):
    return T0 + datetime.timedelta(seconds=seconds)


HOST_RUN = [
    ('DisableComputeServiceTask', 'SUCCESS', progress(0.5, 1.5)),
    ('PrepareHAEnabledInstancesTask', 'SUCCESS', progress(1.6, 1.7, 1.8)),
    ('EvacuateInstancesTask', 'SUCCESS', progress(2.0, 5.0, 12.0)),
]


class PhaseTableTestCase(testtools.TestCase):

    def test_class_and_entry_point_names(self):
        for name, phase in [
                ('DisableComputeServiceTask', 'disable'),
                ('disable_compute_service_task', 'disable'),
                ('PrepareHAEnabledInstancesTask', 'prepare'),
                ('prepare_HA_enabled_instances_task', 'prepare'),
                ('EvacuateInstancesTask', 'evacuate'),
                ('FenceHostTask', 'fencing'),
                ('MassFailureBrakeTask', 'brake'),
                ('ReturnToServiceTask', 'return'),
                ('ForceDownComputeServiceTask', 'disable'),
                ('StopInstanceTask', 'stop'),
                ('ConfirmComputeNodeDisabledTask', 'confirm'),
                ('Noop', 'other'),
                ('SiteSpecificPostTask', 'other')]:
            self.assertEqual(phase, timeline.phase_of(name), name)


class BuildRunTestCase(testtools.TestCase):

    def test_phases_total_and_order(self):
        run = timeline.build_run(HOST_RUN, started_at=str(at(0)),
                                 engine_host='engine-1')
        self.assertEqual((at(0), at(12)), (run.started, run.ended))
        self.assertEqual(12.0, run.seconds)
        self.assertEqual(
            [('disable', at(0.5), 1.0), ('prepare', at(1.6), 0.2),
             ('evacuate', at(2), 10.0)],
            [(phase.name, phase.start, round(phase.seconds, 6))
             for phase in run.phases])
        self.assertEqual('evacuate', run.slowest_phase())
        self.assertEqual('engine-1', run.engine_host)

    def test_run_of_a_reference_engine_starts_at_its_first_progress(self):
        run = timeline.build_run(HOST_RUN)
        self.assertEqual(11.5, run.seconds)

    def test_a_phase_run_twice_adds_up(self):
        # A reserved-host retry runs the main sub-flow again; atoms of
        # several runs merged see each phase twice.
        first = timeline.build_run(HOST_RUN[:2])
        second = timeline.build_run(
            [('PrepareHAEnabledInstancesTask', 'SUCCESS', progress(20, 21)),
             ('EvacuateInstancesTask', 'SUCCESS', progress(22, 30))])
        merged = timeline.merge([first, second])
        self.assertEqual([('disable', 1.0), ('prepare', 1.2),
                          ('evacuate', 8.0)],
                         [(phase.name, round(phase.seconds, 6))
                          for phase in merged.phases])
        self.assertEqual(29.5, merged.seconds)
        self.assertIsNone(timeline.merge([]))

    def test_tasks_without_progress_are_left_out(self):
        self.assertIsNone(timeline.build_run(
            [('DisableComputeServiceTask', 'PENDING', [])]))
        run = timeline.build_run(
            [('RetryAtom', None, []),
             ('EvacuateInstancesTask', 'FAILURE', progress(3))])
        self.assertEqual([('evacuate', 0.0)],
                         [(phase.name, phase.seconds)
                          for phase in run.phases])

    def test_timestamps_with_t_or_time_zone(self):
        self.assertEqual(at(1.25), timeline.parse_time(
            '2026-12-03T10:00:01.250000'))
        self.assertEqual(at(1), timeline.parse_time(
            '2026-12-03T11:00:01+01:00'))


class EvacuationsTestCase(testtools.TestCase):

    def test_vmoves_belong_to_the_run_they_ended_in(self):
        first = timeline.build_run(HOST_RUN)
        second = timeline.build_run(
            [('EvacuateInstancesTask', 'SUCCESS', progress(100, 110))])
        timeline.assign_evacuations([first, second], [
            ('succeeded', at(10)), ('failed', at(11)),
            ('succeeded', at(105)), ('succeeded', str(at(106))),
            ('pending', None)])
        self.assertEqual({'succeeded': 1, 'failed': 1}, first.evacuations)
        self.assertEqual({'succeeded': 2}, second.evacuations)


class TextTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.run_ = timeline.build_run(HOST_RUN, started_at=str(at(0)))
        timeline.assign_evacuations([self.run_], [('succeeded', at(11))] *
                                    19 + [('failed', at(11.5))])

    def test_summary(self):
        self.assertEqual(
            'host compute-1 recovered in 12.0 s: disable 1.0 s, '
            'prepare 0.2 s, evacuate 10.0 s (20 instances, 1 failed)',
            timeline.summary(self.run_, 'compute-1', 'finished'))
        self.assertTrue(timeline.summary(
            self.run_, 'compute-1', 'error').startswith(
                'host compute-1 recovery ended (error) after 12.0 s: '))

    def test_chart_places_each_bar_on_the_time_axis(self):
        self.assertEqual([
            '  disable       1.0 s |  ###                                   |',
            '  prepare       0.2 s |     #                                  |',
            '  evacuate     10.0 s |       #################################|',
            '  total        12.0 s',
        ], timeline.chart(self.run_))
