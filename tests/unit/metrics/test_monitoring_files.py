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

"""The shipped Grafana dashboard and Prometheus alert rules: they use only
metrics Masakari exports, the dashboard is scoped by its variables, every
alert links to its runbook section, and promtool checks the rules and
runs their unit tests (Debian package ``prometheus``).
"""

import configparser
import json
import os
import re
import shutil
import subprocess

from docutils import nodes
import fixtures
import prometheus_client
import testtools
import yaml

from masakari.metrics import capacity as capacity_metrics
from masakari.metrics import engine as engine_metrics
from masakari.metrics import families

TOP = os.path.join(os.path.dirname(__file__), '..', '..', '..')
MONITORING = os.path.join(TOP, 'etc', 'masakari', 'monitoring')
DASHBOARD = os.path.join(MONITORING, 'grafana-dashboard.json')
ALERTS = os.path.join(MONITORING, 'prometheus-alerts.yaml')
ALERT_TESTS = os.path.join(os.path.dirname(__file__),
                           'prometheus-alerts-test.yaml')
TROUBLESHOOTING = os.path.join(TOP, 'doc', 'source', 'admin',
                               'troubleshooting.rst')
METRIC_NAME = re.compile(r'\bmasakari_[a-z_]+\b')
# A metric selector and its matchers.
SELECTOR = re.compile(r'\b(masakari_[a-z_]+|up)\{([^}]*)\}')
SUFFIXES = {'counter': ('_total',), 'gauge': ('',),
            'histogram': ('_bucket', '_sum', '_count')}
# The label every alert carries and the scrape jobs they assume.
SEVERITIES = {'warning', 'critical'}


def exported_names():
    """Every sample name the services can expose."""
    for group in (families.api, families.engine, families.nova):
        group()
    metrics = list(prometheus_client.REGISTRY.collect())
    metrics += engine_metrics.OldestNotificationCollector(
        None).describe()
    metrics += capacity_metrics.SegmentCapacityCollector(0, None).describe()
    return {metric.name + suffix for metric in metrics
            if metric.name.startswith('masakari_')
            for suffix in SUFFIXES[metric.type]}


def dashboard():
    with open(DASHBOARD) as stream:
        return json.load(stream)


def dashboard_expressions():
    return [target['expr'] for panel in dashboard()['panels']
            for target in panel['targets']]


def alert_rules():
    with open(ALERTS) as alerts:
        groups = yaml.safe_load(alerts)['groups']
    return [rule for group in groups for rule in group['rules']]


def section_ids(path):
    """The HTML ids of the section titles of a reST page."""
    with open(path) as page:
        lines = page.read().splitlines()
    return {nodes.make_id(title.replace('``', ''))
            for title, underline in zip(lines, lines[1:])
            if title.strip() and re.fullmatch(r'([=\-~])\1+', underline)
            and len(underline) >= len(title)}


def docs_url():
    parser = configparser.ConfigParser()
    parser.read(os.path.join(TOP, 'setup.cfg'))
    return parser['metadata']['home_page']


def run_promtool(*arguments):
    promtool = shutil.which('promtool')
    if promtool is None:
        raise testtools.TestCase.skipException(
            'promtool is not installed (Debian: prometheus)')
    return subprocess.run([promtool] + list(arguments), capture_output=True,
                          text=True, timeout=60)


def write_rules_without_annotations(rules, path):
    """The rules (same names, expressions, durations and labels) without
    their annotations, which promtool's unit tests would otherwise have to
    repeat word for word.
    """
    bare = [{key: value for key, value in rule.items()
             if key != 'annotations'} for rule in rules]
    with open(path, 'w') as stream:
        yaml.safe_dump({'groups': [{'name': 'masakari', 'rules': bare}]},
                       stream)


class ExportedNamesMixin:

    def assert_exported(self, expressions):
        """Each expression reads Masakari's metrics (or the ``up`` of its
        scrape targets), and only those it exports.
        """
        exported = exported_names()
        self.assertNotEqual([], expressions)
        for expression in expressions:
            used = set(METRIC_NAME.findall(expression))
            self.assertTrue(used or SELECTOR.search(expression), expression)
            self.assertEqual(set(), used - exported, expression)


class TestDashboard(ExportedNamesMixin, testtools.TestCase):

    def test_uses_exported_metrics(self):
        self.assert_exported(dashboard_expressions())

    def test_the_check_catches_an_unknown_name(self):
        self.assertRaises(AssertionError, self.assert_exported,
                          ['rate(masakari_engine_no_such_metric_total[5m])'])

    def test_panels(self):
        panels = dashboard()['panels']
        titles = [panel['title'] for panel in panels]
        for wanted in ('Recoveries by final status',
                       'Recovery duration by phase (p90)',
                       'Evacuation results', 'Nova latency (p90) by operation',
                       'Nova and Keystone errors',
                       'Oldest unfinished notification',
                       'API request rate by route',
                       'API latency (p90) by route', 'API errors'):
            self.assertIn(wanted, titles)
        stats = {panel['title'] for panel in panels
                 if panel['type'] == 'stat'}
        self.assertLessEqual({'Recoveries in progress',
                              'Notifications held by the brake',
                              'Failures tolerated per segment'}, stats)
        self.assertEqual(len(titles), len(set(titles)))
        self.assertEqual(len(panels), len({panel['id'] for panel in panels}))

    def test_variables_scope_every_query(self):
        document = dashboard()
        self.assertNotIn('__inputs', document)
        variables = {variable['name']: variable
                     for variable in document['templating']['list']}
        self.assertEqual({'datasource', 'job', 'instance'}, set(variables))
        self.assertEqual('datasource', variables['datasource']['type'])
        source = {'type': 'prometheus', 'uid': '${datasource}'}
        for panel in document['panels']:
            self.assertEqual(source, panel['datasource'], panel['title'])
            for target in panel['targets']:
                self.assertEqual(source, target['datasource'])
                selectors = SELECTOR.findall(target['expr'])
                self.assertNotEqual([], selectors, target['expr'])
                for _name, matchers in selectors:
                    self.assertIn('instance=~"$instance"', matchers)
                    self.assertRegex(matchers,
                                     r'job(=~"\$job"|="masakari-engine")')


class TestAlerts(ExportedNamesMixin, testtools.TestCase):

    def test_use_exported_metrics(self):
        self.assert_exported([rule['expr'] for rule in alert_rules()])

    def test_labels_and_runbooks(self):
        sections = section_ids(TROUBLESHOOTING)
        base = docs_url() + 'admin/troubleshooting.html#'
        for rule in alert_rules():
            self.assertIn(rule['labels']['severity'], SEVERITIES)
            annotations = rule['annotations']
            self.assertLessEqual({'summary', 'description', 'runbook_url'},
                                 set(annotations))
            url = annotations['runbook_url']
            self.assertTrue(url.startswith(base), url)
            self.assertEqual(rule['alert'].lower(), url[len(base):])
            self.assertIn(url[len(base):], sections, url)

    def test_rules_pass_promtool_check(self):
        result = run_promtool('check', 'rules', ALERTS)
        self.assertEqual(0, result.returncode, result.stdout + result.stderr)
        self.assertIn('SUCCESS: %d rules found' % len(alert_rules()),
                      result.stdout)

    def test_every_alert_fires_and_stays_quiet_in_the_unit_tests(self):
        with open(ALERT_TESTS) as stream:
            tests = yaml.safe_load(stream)['tests']
        firing, quiet = set(), set()
        for test in tests:
            for case in test['alert_rule_test']:
                (firing if case['exp_alerts'] else quiet).add(
                    case['alertname'])
        names = {rule['alert'] for rule in alert_rules()}
        self.assertEqual(names, firing)
        self.assertEqual(names, quiet)

    def test_promtool_unit_tests(self):
        directory = self.useFixture(fixtures.TempDir()).path
        shutil.copy(ALERT_TESTS, directory)
        write_rules_without_annotations(
            alert_rules(), os.path.join(directory, 'alerts.yaml'))
        result = run_promtool('test', 'rules', os.path.join(
            directory, os.path.basename(ALERT_TESTS)))
        self.assertEqual(0, result.returncode, result.stdout + result.stderr)
