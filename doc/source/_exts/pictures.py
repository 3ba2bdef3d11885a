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

"""Draw the documentation's pictures of a real run at build time.

tools/doc-pictures records a run of masakari-aio (doc/source/_data); this
extension draws, into doc/source/_generated (git-ignored), before the
pages are read:

``host-recovery.svg``
    the sequence diagram of the recorded host recovery;
``recovery-timeline.svg``
    its timeline, drawn as ``masakari-manage notification timeline
    --format svg`` draws it;
``dashboard.svg``
    the Grafana dashboard's panels over the recorded run.

A recording that no longer matches the sources (the dashboard's queries,
the default host recovery flow) fails the build: run tools/doc-pictures.
"""

import datetime
import json
import os

from sphinx import errors

from masakari.conf import engine_driver
from masakari.engine.drivers.taskflow import timeline
from masakari.engine.drivers.taskflow import timeline_chart

import dashboard_picture
import recovery_sequence

DATA = '_data'
GENERATED = '_generated'
DASHBOARD = os.path.join(os.pardir, os.pardir, 'etc', 'masakari',
                         'monitoring', 'grafana-dashboard.json')
RERUN = 'run tools/doc-pictures to record it again'


def _load(source_dir, *path):
    with open(os.path.join(source_dir, *path)) as stream:
        return json.load(stream)


def default_host_tasks():
    """The tasks of the default ``auto`` host recovery flow, in order."""
    option = next(opt for opt in engine_driver.recovery_flow_opts
                  if opt.name == 'host_auto_failure_recovery_tasks')
    return [task for phase in ('pre', 'main', 'post')
            for task in option.default[phase]]


def _runs(recording):
    runs = []
    for recorded in recording['runs']:
        steps = [timeline.Step(step['task'], timeline.phase_of(step['task']),
                               step['state'], _time(step['start']),
                               _time(step['end']))
                 for step in recorded['steps']]
        run = timeline.Run(_time(recorded['started']),
                           max(step.end for step in steps), steps,
                           engine_host=recorded['engine_host'])
        run.evacuations = recorded['evacuations']
        runs.append(run)
    return runs


def _time(text):
    return datetime.datetime.fromisoformat(text)


def check_recovery(recording):
    """Raise when the recorded recovery ran other tasks than the default
    flow runs now.
    """
    recorded = [timeline.phase_of(step['task'])
                for step in recording['runs'][-1]['steps']]
    expected = [timeline.phase_of(task) for task in default_host_tasks()]
    if recorded != expected:
        raise errors.ExtensionError(
            'doc/source/_data/host-recovery.json recorded the phases %s, '
            'the default host recovery flow has %s: %s'
            % (recorded, expected, RERUN))


def check_dashboard(dashboard, recording):
    """Raise when a panel's queries are not those recorded."""
    for panel in dashboard['panels']:
        recorded = [target['expr'] for target in
                    recording['panels'].get(str(panel['id']), [])]
        if recorded != [target['expr'] for target in panel['targets']]:
            raise errors.ExtensionError(
                'doc/source/_data/dashboard.json has other queries than '
                'panel %r of the dashboard: %s' % (panel['title'], RERUN))


def generate(app):
    source_dir = app.srcdir
    recovery = _load(source_dir, DATA, 'host-recovery.json')
    check_recovery(recovery)
    dashboard = _load(source_dir, DASHBOARD)
    recording = _load(source_dir, DATA, 'dashboard.json')
    check_dashboard(dashboard, recording)
    runs = _runs(recovery)
    title = 'Notification %s: COMPUTE_HOST, %s, host %s' % (
        recovery['notification_uuid'], recovery['status'], recovery['host'])
    pictures = {
        'host-recovery.svg': recovery_sequence.render(recovery),
        'recovery-timeline.svg': timeline_chart.render(
            runs, title, timeline.summary(runs[-1], recovery['host'],
                                          recovery['status'])),
        'dashboard.svg': dashboard_picture.render(
            dashboard, recording, '%s (masakari-aio --metrics, simulated '
            'cloud, recorded %s)' % (dashboard['title'],
                                     recovery['recorded'])),
    }
    os.makedirs(os.path.join(source_dir, GENERATED), exist_ok=True)
    for name, text in pictures.items():
        path = os.path.join(source_dir, GENERATED, name)
        # NOTE: unchanged files keep their time, so that Sphinx does not
        # rebuild the pages that include them.
        if os.path.exists(path):
            with open(path) as stream:
                if stream.read() == text:
                    continue
        with open(path, 'w') as stream:
            stream.write(text)


def setup(app):
    app.connect('builder-inited', generate)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
