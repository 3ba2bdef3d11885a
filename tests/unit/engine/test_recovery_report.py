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

"""What the engine reports once it processed a notification: the host
recovery's timeline line, the budget warning and the engine metrics,
against the simulated cloud.
"""

import re

import fixtures
import prometheus_client

from masakari import metrics
from masakari.metrics import families
from tests.unit.engine import recovery_base as base

LINE = re.compile(
    r'host compute-1 recovered in (?P<total>[\d.]+) s: '
    r'disable (?P<disable>[\d.]+) s, prepare (?P<prepare>[\d.]+) s, '
    r'evacuate (?P<evacuate>[\d.]+) s \(2 instances, 0 failed\)$')


def sample(name, **labels):
    return prometheus_client.REGISTRY.get_sample_value(name, labels) or 0


class Samples:
    """The values of some samples now, to compare with later ones."""

    NAMES = {
        'processed': ('masakari_engine_notifications_processed_total',
                      {'type': 'COMPUTE_HOST', 'recovery_method': 'auto',
                       'status': 'finished'}),
        'failed': ('masakari_engine_notifications_processed_total',
                   {'type': 'COMPUTE_HOST', 'recovery_method': 'auto',
                    'status': 'error'}),
        'durations': ('masakari_engine_recovery_duration_seconds_count',
                      {'type': 'COMPUTE_HOST', 'recovery_method': 'auto'}),
        'evacuated': ('masakari_engine_evacuations_total',
                      {'result': 'succeeded'}),
        'evacuation_failures': ('masakari_engine_evacuations_total',
                                {'result': 'failed'}),
        'recoveries': ('masakari_engine_instances_recovered_count', {}),
        'instances': ('masakari_engine_instances_recovered_sum', {}),
        'evacuate_phase': (
            'masakari_engine_recovery_phase_duration_seconds_count',
            {'type': 'COMPUTE_HOST', 'phase': 'evacuate'}),
        'in_progress': ('masakari_engine_recoveries_in_progress',
                        {'type': 'COMPUTE_HOST'}),
        'retries': ('masakari_engine_notification_retries_total',
                    {'type': 'COMPUTE_HOST'}),
        'nova_evacuate': ('masakari_nova_requests_total',
                          {'operation': 'POST /servers/{id}/action evacuate',
                           'status': '200'}),
        'tokens': ('masakari_keystone_requests_total',
                   {'operation': 'POST /auth/tokens', 'status': '201'}),
    }

    def __init__(self):
        families.engine()
        families.nova()
        self.values = {key: sample(name, **labels)
                       for key, (name, labels) in self.NAMES.items()}

    def delta(self, later):
        return {key: later.values[key] - value
                for key, value in self.values.items()}


class HostRecoveryReportTestCase(base.RecoveryTestCase):

    servers = [base.server('vm-1'), base.server('vm-2')]

    def enable_metrics(self):
        self.useFixture(fixtures.MockPatchObject(metrics, '_enabled', True))
        # NOTE: the Nova session records only when built with metrics on.
        self.useFixture(fixtures.MockPatch(
            'masakari.compute.nova._current_session', (None, None)))

    def lines(self, pattern):
        return [line for line in self.engine.logs.output.splitlines()
                if re.search(pattern, line)]

    def test_timeline_line_and_metrics(self):
        self.enable_metrics()
        before = Samples()
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual('finished', notification.status)

        [line] = self.lines('recovered in')
        found = LINE.search(line)
        self.assertIsNotNone(found, line)
        phases = sum(float(found.group(name))
                     for name in ('disable', 'prepare', 'evacuate'))
        self.assertLessEqual(phases, float(found.group('total')) + 0.15)
        self.assertEqual([], self.lines('over the budget'))

        self.assertEqual({
            'processed': 1, 'failed': 0, 'durations': 1, 'evacuated': 2,
            'evacuation_failures': 0, 'recoveries': 1, 'instances': 2,
            'evacuate_phase': 1, 'in_progress': 0, 'retries': 0,
            'nova_evacuate': 2, 'tokens': 1}, before.delta(Samples()))

    def test_budget_exceeded(self):
        self.config(recovery_time_budget=0, group='host_failure')
        self.enable_metrics()
        over = [sample('masakari_engine_recovery_over_budget_total',
                       slowest_phase=phase)
                for phase in ('disable', 'prepare', 'evacuate')]
        self.host_down(event='STOPPED', host_status='NORMAL')
        [warning] = self.lines('over the budget')
        found = re.search(r'Recovery of host compute-1 took [\d.]+ s, over '
                          r'the budget of 0.0 s; slowest phase: (\w+) '
                          r'\([\d.]+ s\)\.', warning)
        self.assertIsNotNone(found, warning)
        after = [sample('masakari_engine_recovery_over_budget_total',
                        slowest_phase=phase)
                 for phase in ('disable', 'prepare', 'evacuate')]
        self.assertEqual(1, sum(after) - sum(over))
        slowest = ('disable', 'prepare', 'evacuate').index(found.group(1))
        self.assertEqual(1, after[slowest] - over[slowest])

    def test_failed_evacuation(self):
        self.enable_metrics()
        self.nova.update_server('vm-1', fail_evacuate=True)
        before = Samples()
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual('error', notification.status)
        [line] = self.lines(r'recovery ended \(error\) after')
        self.assertTrue(line.endswith('(2 instances, 1 failed)'), line)
        delta = before.delta(Samples())
        self.assertEqual((1, 1, 1), (delta['failed'], delta['evacuated'],
                                     delta['evacuation_failures']))

        # The periodic retry processes it again: a retry.
        retried = Samples()
        self.nova.update_server('vm-1', fail_evacuate=False)
        self.manager._process_unfinished_notifications(self.context)
        self.assertEqual(1, retried.delta(Samples())['retries'])

    def test_nothing_recorded_when_disabled(self):
        before = Samples()
        self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(dict.fromkeys(before.values, 0),
                         before.delta(Samples()))
        # The timeline line is logged whether metrics are on or not.
        self.assertEqual(1, len(self.lines('recovered in')))
