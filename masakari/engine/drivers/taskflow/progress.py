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

"""Reading recorded recovery runs back from the taskflow logbook.

A notification's logbook (uuid = notification uuid) holds one flow detail
per run; each task's atom meta keeps the progress messages it recorded.
API 1.1 shows them in the order of the task list that ran; the engine asks
who started the last run when it restarts.
"""

import functools

from stevedore import driver as stevedore_driver

import masakari.conf
from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import persistence
from masakari import objects

CONF = masakari.conf.CONF


def runs(notification_uuid):
    """The flow details of a notification's logbook, oldest first, in
    full (atom results included).
    """
    return persistence.runs(CONF.taskflow.connection, notification_uuid,
                            base.META_STARTED_AT)


def recorded_runs(notification_uuid):
    """The runs of a notification's logbook, oldest first, as one query
    reads them: each run's ``meta`` and its atoms' name, meta and state.
    """
    # NOTE: the database returns them in no set order; runs of a
    # reference engine have no start time and keep that order.
    return sorted(persistence.recorded_runs(CONF.taskflow.connection,
                                            notification_uuid),
                  key=lambda run: (run.meta or {}).get(
                      base.META_STARTED_AT, ''))


def last_run_engine_host(notification_uuid):
    """[DEFAULT]/host of the engine that started the last run (or None)."""
    recorded = recorded_runs(notification_uuid)
    if not recorded:
        return None
    return (recorded[-1].meta or {}).get(base.META_ENGINE_HOST)


@functools.lru_cache(maxsize=None)
def atom_name(task_name):
    """The atom name of the ``masakari.task_flow.tasks`` entry point
    ``task_name``, or None when no such entry point loads.

    A MasakariTask is named after its class, so the class tells; only a
    third-party task of another base is instantiated (without a context
    or a Nova client) to ask its name.
    """
    try:
        plugin = stevedore_driver.DriverManager(
            base.TASKS_NAMESPACE, task_name, invoke_on_load=False,
            on_load_failure_callback=base.raise_load_failure).extensions[
                0].plugin
    except Exception:
        return None
    if isinstance(plugin, type) and issubclass(plugin, base.MasakariTask):
        return plugin.__name__
    try:
        return plugin(None, None).name
    except Exception:
        return None


def atom_names(task_list):
    """Atom names of a ``{'pre', 'main', 'post'}`` task list, in order;
    names that do not load are left out.
    """
    names = (atom_name(name) for phase in base.PHASES
             for name in task_list[phase])
    return [name for name in names if name is not None]


def _progress_of(atom):
    """The recorded progress of a task's atom; None if it recorded none."""
    meta = (atom.meta if atom is not None else None) or {}
    if not meta.get('progress_details'):
        return None
    return objects.NotificationProgressDetails.create(
        name=atom.name, progress=meta['progress'],
        progress_details=meta['progress_details']['details'][
            'progress_details'],
        state=atom.state)


def workflow_details(notification_uuid, task_list_of):
    """Progress of every recorded run of a notification, oldest first.

    :param task_list_of: ``(atom names of the run) -> task list`` giving
        the ``{'pre', 'main', 'post'}`` entry-point names whose order the
        run's progress follows.
    :returns: NotificationProgressDetails; tasks without progress (or not
        in the task list) are left out.
    """
    details = []
    for run in recorded_runs(notification_uuid):
        atoms = {atom.name: atom for atom in run}
        for name in atom_names(task_list_of(atoms)):
            progress = _progress_of(atoms.get(name))
            if progress is not None:
                details.append(progress)
    return details
