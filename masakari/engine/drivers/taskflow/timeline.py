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

"""The per-phase timeline of a recovery, from its stored progress details.

Every recovery task records timestamped progress messages in the taskflow
logbook of its notification (what API 1.1 shows as
``recovery_workflow_details``); a task lasts from its first message to its
last. Tasks map to phases through one table; a run's phases, their
durations and the instances it evacuated make its timeline. Only stored
data is used, so the timeline of a notification processed by another
engine, or by Masakari 22.0.0 itself, is the same.
"""

import collections
import dataclasses
import datetime

from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import progress
from masakari import objects
from masakari.objects import fields


Type = fields.NotificationType
# Notification type -> its tasks (entry point names, or their class names:
# the atom names) -> phase.
TYPE_PHASES = {
    Type.COMPUTE_HOST: {
        'mass_failure_brake_task': 'brake',
        'fence_host_task': 'fencing',
        'force_down_compute_service_task': 'disable',
        'disable_compute_service_task': 'disable',
        'prepare_HA_enabled_instances_task': 'prepare',
        'evacuate_instances_task': 'evacuate',
        'return_to_service_task': 'return',
    },
    Type.VM: {
        'stop_instance_task': 'stop',
        'start_instance_task': 'start',
        'confirm_instance_active_task': 'confirm',
    },
    Type.PROCESS: {
        'disable_compute_node_task': 'disable',
        'confirm_compute_node_disabled_task': 'confirm',
    },
}
PHASES = {task: phase for tasks in TYPE_PHASES.values()
          for task, phase in tasks.items()}
OTHER = 'other'
BAR_WIDTH = 40


def _key(task_name):
    # NOTE: atoms are named after the task class (DisableComputeServiceTask)
    # and entry points in snake case: both reduce to the same key.
    return task_name.replace('_', '').lower()


_PHASE_BY_KEY = {_key(name): phase for name, phase in PHASES.items()}


def phase_of(task_name):
    """The phase of a task; ``other`` for tasks the table does not know."""
    return _PHASE_BY_KEY.get(_key(task_name), OTHER)


def phases_by_type():
    """Notification type -> the phases its recovery may go through, in
    the order of the table (custom tasks: ``other``).
    """
    return {notification_type: tuple(dict.fromkeys(tasks.values())) +
            (OTHER,) for notification_type, tasks in TYPE_PHASES.items()}


def parse_time(value):
    """A stored timestamp (naive UTC, ISO 8601 with ' ' or 'T')."""
    moment = datetime.datetime.fromisoformat(str(value))
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.timezone.utc).replace(
            tzinfo=None)
    return moment


@dataclasses.dataclass
class Step:
    """One task of a run: its phase, its state and its first and last
    progress times.
    """
    task: str
    phase: str
    state: str
    start: datetime.datetime
    end: datetime.datetime


@dataclasses.dataclass
class Phase:
    name: str
    start: datetime.datetime
    seconds: float


@dataclasses.dataclass
class Run:
    """The timeline of one run of a recovery flow."""
    started: datetime.datetime
    ended: datetime.datetime
    steps: list
    engine_host: str = None
    evacuations: dict = dataclasses.field(default_factory=dict)

    @property
    def seconds(self):
        return (self.ended - self.started).total_seconds()

    @property
    def phases(self):
        """The run's phases in the order they started; a phase run twice
        (a reserved-host retry) adds up.
        """
        phases = {}
        for step in sorted(self.steps, key=lambda step: step.start):
            seconds = (step.end - step.start).total_seconds()
            if step.phase in phases:
                phases[step.phase].seconds += seconds
            else:
                phases[step.phase] = Phase(step.phase, step.start, seconds)
        return list(phases.values())

    def slowest_phase(self):
        return max(self.phases, key=lambda phase: phase.seconds).name


def _step(task, state, progress_details):
    times = [parse_time(entry['timestamp']) for entry in progress_details
             if entry.get('timestamp')]
    if not times:
        return None
    return Step(task, phase_of(task), state, min(times), max(times))


def build_run(atoms, started_at=None, engine_host=None):
    """The timeline of one run.

    :param atoms: ``(task name, state, progress details)`` of each atom,
        the details being the stored list of ``{timestamp, progress,
        message}``.
    :param started_at: the run's recorded start (this engine records it;
        runs of other engines have none: the first progress then).
    :returns: a Run, or None when no task recorded progress.
    """
    steps = [step for step in (_step(*atom) for atom in atoms) if step]
    if not steps:
        return None
    started = min(step.start for step in steps)
    if started_at:
        started = min(started, parse_time(started_at))
    return Run(started, max(step.end for step in steps), steps,
               engine_host=engine_host)


def assign_evacuations(runs, vmoves):
    """Count the ended vmoves (``(status, end_time)`` pairs) of each run,
    by status: a vmove belongs to the last run started before it ended.
    """
    for run in runs:
        run.evacuations = collections.Counter()
    for status, end_time in vmoves:
        if end_time is None:
            continue
        end_time = parse_time(end_time)
        owners = [run for run in runs if run.started <= end_time]
        if owners:
            owners[-1].evacuations[status] += 1


def merge(runs):
    """One Run of several (the runs of one processing: a priority method
    runs a second workflow after the first failed); None for none.
    """
    if not runs:
        return None
    merged = Run(min(run.started for run in runs),
                 max(run.ended for run in runs),
                 [step for run in runs for step in run.steps],
                 engine_host=runs[-1].engine_host)
    merged.evacuations = sum((collections.Counter(run.evacuations)
                              for run in runs), collections.Counter())
    return merged


def _atoms(flow_detail):
    for atom in flow_detail:
        details = ((atom.meta or {}).get('progress_details') or {}).get(
            'details') or {}
        yield atom.name, atom.state, details.get('progress_details') or []


def load(context, notification_uuid):
    """The timelines of every recorded run of a notification, oldest
    first, from the taskflow logbook and the vmoves in the database.
    """
    runs = []
    for flow_detail in progress.recorded_runs(notification_uuid):
        meta = flow_detail.meta or {}
        run = build_run(_atoms(flow_detail),
                        started_at=meta.get(base.META_STARTED_AT),
                        engine_host=meta.get(base.META_ENGINE_HOST))
        if run is not None:
            runs.append(run)
    assign_evacuations(runs, [
        (move.status, move.end_time) for move in
        objects.VMoveList.get_all_vmoves(context, notification_uuid)])
    return runs


def _seconds(value):
    return '%.1f s' % value


def evacuations_text(run):
    """The evacuations that ended in a run, e.g. ``1 failed, 2 succeeded``.
    """
    return ', '.join('%d %s' % (count, status)
                     for status, count in sorted(run.evacuations.items()))


def summary(run, host_name, status):
    """The one-line report of a host recovery run, e.g. ``host compute-1
    recovered in 12.3 s: disable 1.1 s, prepare 0.2 s, evacuate 11.0 s
    (20 instances, 0 failed)``.
    """
    verb = ('recovered in' if status == fields.NotificationStatus.FINISHED
            else 'recovery ended (%s) after' % status)
    text = 'host %s %s %s: %s' % (
        host_name, verb, _seconds(run.seconds),
        ', '.join('%s %s' % (phase.name, _seconds(phase.seconds))
                  for phase in run.phases))
    if run.evacuations:
        text += ' (%d instances, %d failed)' % (
            sum(run.evacuations.values()),
            run.evacuations.get(fields.VMoveStatus.FAILED, 0))
    return text


def chart(run, width=BAR_WIDTH):
    """The run as lines of text: one bar per phase, placed on the run's
    time axis, then the total.
    """
    total = max(run.seconds, 1e-9)
    lines = []
    for phase in run.phases:
        offset = (phase.start - run.started).total_seconds()
        begin = min(width - 1, int(round(offset / total * width)))
        length = max(1, int(round(phase.seconds / total * width)))
        bar = (' ' * begin + '#' * length)[:width].ljust(width)
        lines.append('  %-9s %9s |%s|' % (phase.name,
                                          _seconds(phase.seconds), bar))
    lines.append('  %-9s %9s' % ('total', _seconds(run.seconds)))
    return lines
