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

"""The first over-budget recovery (and failed evacuation) after an engine
starts makes the shipped alerts fire: two scrapes of a fresh engine
registry, before and after the event, evaluated by promtool.
"""

import datetime
import os
import re

import fixtures
import prometheus_client
from prometheus_client import parser
import testtools
import yaml

from masakari.engine.drivers.taskflow import timeline
from masakari.engine import recovery_report
from masakari.metrics import engine as engine_metrics
from tests.fixtures import metrics as metrics_fixture
from tests.unit.metrics import test_monitoring_files as monitoring

START = datetime.datetime(2026, 1, 1, 12, 0, 0)
RULES = 'alerts.yaml'


def over_budget_run():
    """A host recovery whose slowest phase is ``evacuate``, with one of
    its three evacuations failed.
    """
    def step(task, begin, end):
        return timeline.Step(task, timeline.phase_of(task), 'SUCCESS',
                             START + datetime.timedelta(seconds=begin),
                             START + datetime.timedelta(seconds=end))
    run = timeline.Run(START, START + datetime.timedelta(seconds=40), [
        step('DisableComputeServiceTask', 0, 5),
        step('PrepareHAEnabledInstancesTask', 5, 6),
        step('EvacuateInstancesTask', 6, 40)])
    run.evacuations = {'succeeded': 2, 'failed': 1}
    return run


def samples(registry):
    """``{series: value}`` of a scrape, series in PromQL notation."""
    text = prometheus_client.generate_latest(registry).decode()
    found = {}
    for family in parser.text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name.endswith('_created'):
                continue
            labels = ', '.join('%s="%s"' % item
                               for item in sorted(sample.labels.items()))
            found['%s{%s}' % (sample.name, labels)] = sample.value
    return found


class TestFirstEventAlerts(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.registry = self.useFixture(
            metrics_fixture.FreshFamilies('engine')).registry
        self.directory = self.useFixture(fixtures.TempDir()).path
        monitoring.write_rules_without_annotations(
            monitoring.alert_rules(), os.path.join(self.directory, RULES))

    def fired_at_first_event(self, expected_alerts):
        """Scrape, record the event, scrape again; True when promtool
        confirms ``expected_alerts`` (alert name -> labels of each alert)
        one minute after the first scrape.
        """
        before = samples(self.registry)
        engine_metrics.run_recorded('COMPUTE_HOST', over_budget_run(),
                                    over_budget=True)
        after = samples(self.registry)
        series = [{'series': name,
                   'values': '%s %s' % (before.get(name, '_'), value)}
                  for name, value in after.items()]
        cases = [{'eval_time': '1m', 'alertname': name,
                  'exp_alerts': [{'exp_labels': labels}
                                 for labels in alerts]}
                 for name, alerts in expected_alerts.items()]
        path = os.path.join(self.directory, 'test.yaml')
        with open(path, 'w') as stream:
            yaml.safe_dump({'rule_files': [RULES],
                            'evaluation_interval': '1m',
                            'tests': [{'interval': '1m',
                                       'input_series': series,
                                       'alert_rule_test': cases}]}, stream)
        result = monitoring.run_promtool('test', 'rules', path)
        self.addDetail('promtool', testtools.content.text_content(
            result.stdout + result.stderr))
        return result.returncode == 0

    def test_first_event_after_a_start_alerts(self):
        recovery_report.initialise_metrics()
        self.assertTrue(self.fired_at_first_event({
            'MasakariRecoveryOverBudget': [{'severity': 'warning',
                                            'slowest_phase': 'evacuate'}],
            'MasakariEvacuationFailures': [{'severity': 'critical'}]}))

    def test_series_born_at_the_event_do_not_alert(self):
        # What the initialisation prevents: increase() of a series that
        # appears at 1 is nothing.
        self.assertTrue(self.fired_at_first_event({
            'MasakariRecoveryOverBudget': [],
            'MasakariEvacuationFailures': []}))


class TestInitialisedSeries(testtools.TestCase):

    def test_every_known_label_value_is_at_zero(self):
        registry = self.useFixture(
            metrics_fixture.FreshFamilies('engine')).registry
        recovery_report.initialise_metrics()
        found = samples(registry)
        for series in (
                'masakari_engine_recovery_over_budget_total'
                '{slowest_phase="fencing"}',
                'masakari_engine_evacuations_total{result="failed"}',
                'masakari_engine_notifications_processed_total{'
                'recovery_method="rh_priority", status="error", '
                'type="COMPUTE_HOST"}',
                'masakari_engine_notifications_processed_total{'
                'recovery_method="none", status="finished", type="VM"}',
                'masakari_engine_recovery_phase_duration_seconds_count{'
                'phase="confirm", type="PROCESS"}',
                'masakari_engine_recoveries_in_progress{type="VM"}',
                'masakari_engine_notification_retries_total'
                '{type="PROCESS"}'):
            self.assertEqual(0, found.get(series), series)
        # Phases only of the types that have them.
        self.assertNotIn('masakari_engine_recovery_phase_duration_seconds_'
                         'count{phase="evacuate", type="VM"}', found)

    def test_nothing_when_disabled(self):
        registry = self.useFixture(metrics_fixture.FreshFamilies(
            'engine', enabled=False)).registry
        recovery_report.initialise_metrics()
        labelled = [name for name in samples(registry)
                    if re.search(r'(type|result|slowest_phase)=', name)]
        self.assertEqual([], labelled)
