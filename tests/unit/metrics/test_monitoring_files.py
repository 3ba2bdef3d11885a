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

"""The shipped Grafana dashboard and Prometheus alert rules use only
metrics Masakari exports, and the rules pass promtool when it is
installed (Debian package ``prometheus``).
"""

import json
import os
import re
import shutil
import subprocess

import prometheus_client
import testtools
import yaml

from masakari.metrics import engine as engine_metrics
from masakari.metrics import families

MONITORING = os.path.join(os.path.dirname(__file__), '..', '..', '..',
                          'etc', 'masakari', 'monitoring')
DASHBOARD = os.path.join(MONITORING, 'grafana-dashboard.json')
ALERTS = os.path.join(MONITORING, 'prometheus-alerts.yaml')
METRIC_NAME = re.compile(r'\bmasakari_[a-z_]+\b')
SUFFIXES = {'counter': ('_total',), 'gauge': ('',),
            'histogram': ('_bucket', '_sum', '_count')}


def exported_names():
    """Every sample name the services can expose."""
    for group in (families.api, families.engine, families.nova):
        group()
    metrics = list(prometheus_client.REGISTRY.collect())
    metrics += engine_metrics.OldestNotificationCollector().describe()
    return {metric.name + suffix for metric in metrics
            if metric.name.startswith('masakari_')
            for suffix in SUFFIXES[metric.type]}


def dashboard_expressions():
    with open(DASHBOARD) as dashboard:
        panels = json.load(dashboard)['panels']
    return [target['expr'] for panel in panels
            for target in panel['targets']]


def alert_expressions():
    with open(ALERTS) as alerts:
        groups = yaml.safe_load(alerts)['groups']
    return [rule['expr'] for group in groups for rule in group['rules']]


class TestMonitoringFiles(testtools.TestCase):

    def assert_exported(self, expressions):
        exported = exported_names()
        self.assertNotEqual([], expressions)
        for expression in expressions:
            used = set(METRIC_NAME.findall(expression))
            self.assertNotEqual(set(), used, expression)
            self.assertEqual(set(), used - exported, expression)

    def test_dashboard_uses_exported_metrics(self):
        self.assert_exported(dashboard_expressions())

    def test_dashboard_panels(self):
        with open(DASHBOARD) as dashboard:
            document = json.load(dashboard)
        titles = [panel['title'] for panel in document['panels']]
        for wanted in ('Recoveries by final status',
                       'Recovery duration by phase (p90)',
                       'Evacuation results', 'Nova latency (p90) by operation',
                       'Nova and Keystone errors', 'Recoveries in progress',
                       'Oldest unfinished notification',
                       'API request rate by route',
                       'API latency (p90) by route', 'API errors'):
            self.assertIn(wanted, titles)
        self.assertEqual(len(titles), len({panel['id'] for panel in
                                           document['panels']}))

    def test_alerts_use_exported_metrics(self):
        self.assert_exported(alert_expressions())

    def test_alert_rules_pass_promtool(self):
        promtool = shutil.which('promtool')
        if promtool is None:
            self.skipTest('promtool is not installed (Debian: prometheus)')
        result = subprocess.run([promtool, 'check', 'rules', ALERTS],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(0, result.returncode,
                         result.stdout + result.stderr)
        self.assertIn('SUCCESS: 5 rules found', result.stdout)

    def test_the_check_catches_an_unknown_name(self):
        self.assertRaises(AssertionError, self.assert_exported,
                          ['rate(masakari_engine_no_such_metric_total[5m])'])
