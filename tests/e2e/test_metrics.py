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

"""Prometheus metrics of the real processes after a host recovery:
masakari-api (console script with 2 workers, and uWSGI with 2 processes)
and masakari-engine, scraped over HTTP; the engine's timeline line, the
budget warning and ``masakari-manage notification timeline``.
"""

import collections
import glob
import os
import re
import shutil
import subprocess
import tempfile

from prometheus_client import parser
import requests

from masakari.engine.drivers.taskflow import timeline
from tests.e2e import base
from tests.fixtures import polling
from tests.fixtures import processes

HOST_DOWN = {'event': 'STOPPED', 'host_status': 'NORMAL',
             'cluster_status': 'OFFLINE'}
HA = {'HA_Enabled': 'True'}
SOURCE = 'metrics-src'
TIMELINE_LINE = re.compile(r'host %s recovered in .*\(2 instances, 0 '
                           r'failed\)$' % SOURCE, re.M)
BUDGET_WARNING = re.compile(
    r'Recovery of host %s took ([\d.]+) s, over the budget of 0.5 s; '
    r'slowest phase: (\w+) \(([\d.]+) s\)' % SOURCE)
HOSTS_ROUTE = '/v1/segments/{segment_id}/hosts'
# masakari-manage logs to standard output too.
LOG_LINE = re.compile(r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \d+ [A-Z]+ ')


def scrape(port):
    """``{(sample name, frozenset of labels): value}`` of an endpoint."""
    text = requests.get('http://127.0.0.1:%d/metrics' % port,
                        timeout=10).text
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in parser.text_string_to_metric_families(text)
            for sample in family.samples}


def value(samples, name, **labels):
    """A sample's value; 0 when the endpoint does not show it."""
    wanted = frozenset(labels.items())
    matching = [sample_value for (sample_name, sample_labels), sample_value
                in samples.items()
                if sample_name == name and wanted <= sample_labels]
    return sum(matching)


def phases_from_progress(details):
    """Seconds per phase, from the 1.1 read-back's progress details."""
    seconds = collections.Counter()
    for task in details:
        times = [timeline.parse_time(entry['timestamp'])
                 for entry in task['progress_details']]
        seconds[timeline.phase_of(task['name'])] += (
            max(times) - min(times)).total_seconds()
    return seconds


class MetricsScenario:
    """One host recovery of two servers, then both endpoints scraped."""

    topology = {
        'delays': base.INSTANT,
        'hosts': [SOURCE, 'metrics-spare'],
        'servers': [{'name': 'metrics-vm-%d' % index, 'host': SOURCE,
                     'metadata': HA} for index in (1, 2)],
    }
    api_workers = 2
    budget = None

    @classmethod
    def setUpClass(cls):
        cls.api_port = processes.free_port()
        cls.engine_port = processes.free_port()
        # NOTE: the directory is made by the API; the test reads which
        # processes wrote there.
        cls.multiprocess_dir = os.path.join(
            tempfile.gettempdir(), 'masakari-e2e-metrics-%d' % cls.api_port)
        metrics_options = {'enabled': True,
                           'api_listen_port': cls.api_port,
                           'engine_listen_port': cls.engine_port,
                           'multiprocess_dir': cls.multiprocess_dir}
        cls.options = {'metrics': metrics_options}
        if cls.budget is not None:
            cls.options['host_failure'] = {'recovery_time_budget':
                                           cls.budget}
        super().setUpClass()
        cls.addClassCleanup(shutil.rmtree, cls.multiprocess_dir,
                            ignore_errors=True)

    def engine_log(self):
        return self.deployment.engine.log_text()

    def recover(self):
        segment = self.api.create_segment(self.unique('metrics'), 'auto')
        self.segment_uuid = segment['uuid']
        self.api.create_host(segment['uuid'], SOURCE)
        self.simulator.set_host_state(SOURCE, 'down')
        notification = self.post_notification('COMPUTE_HOST', SOURCE,
                                              HOST_DOWN)
        uuid = notification['notification_uuid']
        final = self.api.wait_for_notification(uuid)
        self.assertEqual('finished', final['status'])
        return uuid

    def writers(self):
        return {re.sub(r'\D', '', os.path.basename(path)) for path in
                glob.glob(os.path.join(self.multiprocess_dir,
                                       'counter_*.db'))}

    def spread_requests(self, deadline=30):
        """GET the hosts route until both API processes answered some;
        returns how many were sent.
        """
        sent = []

        def both_answered():
            if len(self.writers()) >= 2:
                return True
            for _ in range(10):
                # NOTE: a new connection each time, for either process.
                requests.get('%s/v1/segments/%s/hosts' % (
                    self.deployment.api_url, self.segment_uuid),
                    headers={'X-Auth-Token': 'admin:admin',
                             'Connection': 'close'}, timeout=10)
                sent.append(1)
            return False

        polling.wait_until(both_answered, deadline, interval=0,
                           message='one API process answered every request')
        return len(sent)

    def test_host_recovery_metrics(self):
        uuid = self.recover()
        sent = self.spread_requests()
        self.check_api(scrape(self.api_port), sent)
        self.check_engine(scrape(self.engine_port), uuid)
        self.check_timeline_command(uuid)

    def check_api(self, api, sent):
        requests_total = 'masakari_api_requests_total'
        self.assertEqual(sent, value(api, requests_total,
                                     route=HOSTS_ROUTE, method='GET',
                                     status='200'))
        for route, status in (('/v1/segments', '201'),
                              (HOSTS_ROUTE, '201'),
                              ('/v1/notifications', '202')):
            self.assertEqual(1, value(api, requests_total, route=route,
                                      method='POST', status=status), route)
        self.assertEqual(1, value(
            api, 'masakari_api_request_duration_seconds_count',
            route='/v1/notifications', method='POST'))
        self.assertEqual(1, value(
            api, 'masakari_api_notifications_accepted_total',
            type='COMPUTE_HOST'))
        # The host check of the API (create_host) is one Nova request.
        self.assertEqual(1, value(api, 'masakari_nova_requests_total',
                                  operation='GET /os-services',
                                  status='200'))
        self.assertFalse([key for key in api if 'engine' in key[0]])

    def check_engine(self, engine, uuid):
        host = dict(type='COMPUTE_HOST')
        self.assertEqual(1, value(
            engine, 'masakari_engine_notifications_processed_total',
            recovery_method='auto', status='finished', **host))
        self.assertEqual(2, value(engine, 'masakari_engine_evacuations_total',
                                  result='succeeded'))
        self.assertEqual(0, value(engine, 'masakari_engine_evacuations_total',
                                  result='failed'))
        self.assertEqual((1, 2), (
            value(engine, 'masakari_engine_instances_recovered_count'),
            value(engine, 'masakari_engine_instances_recovered_sum')))
        self.assertEqual(0, value(
            engine, 'masakari_engine_recoveries_in_progress', **host))
        self.assertEqual(0, value(
            engine, 'masakari_engine_oldest_notification_age_seconds',
            status='running'))
        self.assertEqual(2, value(
            engine, 'masakari_nova_requests_total',
            operation='POST /servers/{id}/action evacuate', status='200'))
        self.assertEqual(1, value(engine, 'masakari_keystone_requests_total',
                                  operation='POST /auth/tokens',
                                  status='201'))

        # Durations: plausible, and those of the stored progress.
        details = self.api.notification(uuid)['recovery_workflow_details']
        expected = phases_from_progress(details)
        self.assertEqual({'disable', 'prepare', 'evacuate'}, set(expected))
        for phase, seconds in expected.items():
            self.assertEqual(1, value(
                engine, 'masakari_engine_recovery_phase_duration_seconds_'
                'count', phase=phase, **host))
            self.assertAlmostEqual(seconds, value(
                engine, 'masakari_engine_recovery_phase_duration_seconds_'
                'sum', phase=phase, **host), places=3)
        # wait_period_after_service_update is 1 s in the test profile.
        self.assertGreaterEqual(expected['disable'], 1.0)
        total = value(engine, 'masakari_engine_recovery_duration_seconds_sum',
                      **host)
        self.assertGreaterEqual(total, sum(expected.values()))
        self.assertLess(total, 60)

        log = self.engine_log()
        self.assertEqual(1, len(TIMELINE_LINE.findall(log)), log[-3000:])
        warning = BUDGET_WARNING.search(log)
        over_budget = value(engine,
                            'masakari_engine_recovery_over_budget_total')
        if self.budget is None:
            self.assertIsNone(warning)
            self.assertEqual(0, over_budget)
        else:
            self.assertIsNotNone(warning, log[-3000:])
            self.assertGreater(float(warning.group(1)), self.budget)
            self.assertEqual(max(expected, key=expected.get),
                             warning.group(2))
            self.assertEqual(1, value(
                engine, 'masakari_engine_recovery_over_budget_total',
                slowest_phase=warning.group(2)))

    def check_timeline_command(self, uuid):
        result = subprocess.run(
            [processes.executable('masakari-manage'), '--config-file',
             self.deployment.conf_file, 'notification', 'timeline', uuid],
            capture_output=True, text=True, timeout=60)
        self.assertEqual(0, result.returncode, result.stderr)
        lines = [line for line in result.stdout.splitlines()
                 if not LOG_LINE.match(line)]
        self.assertEqual('Notification %s: COMPUTE_HOST, finished, host %s'
                         % (uuid, SOURCE), lines[0])
        for phase in ('disable', 'prepare', 'evacuate'):
            self.assertEqual(1, len([line for line in lines if re.match(
                r'  %s +[\d.]+ s \|[ #]{40}\|$' % phase, line)]),
                result.stdout)
        self.assertIn('  evacuations: 2 succeeded', lines)
        # The command's summary is the line the engine logged.
        self.assertEqual(TIMELINE_LINE.search(self.engine_log()).group(0),
                         lines[-1])


class TestConsoleScriptMetrics(MetricsScenario, base.E2ETestCase):
    """masakari-api with 2 workers; a budget below the recovery time."""

    budget = 0.5


class TestUWSGIMetrics(MetricsScenario, base.E2ETestCase):
    """masakari.wsgi.api:application under uWSGI with 2 processes."""

    api_server = 'uwsgi'
