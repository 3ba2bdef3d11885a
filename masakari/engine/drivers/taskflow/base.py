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

"""Building blocks of the recovery flows: the task base class, task
loading from entry points, flow assembly and the persisted engine run.

A recovery flow is a linear flow of three linear sub-flows, ``pre``,
``main`` and ``post``, whose tasks are named in
``[taskflow_driver_recovery_flows]`` and loaded from the
``masakari.task_flow.tasks`` entry points. Each run is recorded in the
taskflow logbook of its notification (the logbook's uuid is the
notification uuid), where masakari-api 1.1 reads the progress back.
"""

import contextlib

from oslo_log import log as logging
from oslo_utils import timeutils
from stevedore import driver as stevedore_driver
from stevedore import exception as stevedore_exc
from taskflow import engines
from taskflow import exceptions as taskflow_exc
from taskflow.listeners import logging as logging_listener
from taskflow.patterns import linear_flow
from taskflow.persistence import models
from taskflow import task
from taskflow.types import failure
from taskflow.utils import persistence_utils

from masakari.compute import nova
import masakari.conf
from masakari.engine.drivers.taskflow import persistence
from masakari.engine.drivers.taskflow import resume
from masakari.engine import takeover
from masakari import exception

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

TASKS_NAMESPACE = 'masakari.task_flow.tasks'
PHASES = ('pre', 'main', 'post')

# Keys of the flow detail meta that this engine adds to every run: which
# engine ran it ([DEFAULT]/host) and when it started (UTC, ISO 8601).
META_ENGINE_HOST = 'masakari_engine_host'
META_STARTED_AT = 'masakari_started_at'

# Fields of a Nova server (microversion 2.53) and the states they take.
VM_STATE, TASK_STATE, POWER_STATE, HYPERVISOR = (
    nova.VM_STATE, nova.TASK_STATE, nova.POWER_STATE, nova.HYPERVISOR)
POWER_SHUTDOWN = 4
ACTIVE, ERROR, STOPPED, RESIZED = 'active', 'error', 'stopped', 'resized'

# Outcomes that are decisions rather than faults: logged without traceback.
SKIP_EXCEPTIONS = (exception.SkipHostRecoveryException,
                   exception.SkipInstanceRecoveryException,
                   exception.IgnoreInstanceRecoveryException,
                   exception.SkipProcessRecoveryException)
# Task failures logged in one line, without a traceback: the skips, and a
# recovery another engine took over (the lease logged why).
QUIET_EXCEPTIONS = SKIP_EXCEPTIONS + (exception.RecoveryLost,)


class MasakariTask(task.Task):
    """Base of the recovery tasks (and of third-party tasks).

    The constructor is ``(context, novaclient, **kwargs)``: ``requires``,
    ``rebind`` and ``provides`` go to taskflow, other keywords (such as
    ``update_host_method``) are for subclasses that want them. The task is
    named after its class; its inputs are the arguments of ``execute``.
    """

    def __init__(self, context, novaclient, **kwargs):
        super().__init__(self.__class__.__name__,
                         requires=kwargs.get('requires'),
                         rebind=kwargs.get('rebind'),
                         provides=kwargs.get('provides'))
        self.context = context
        self.novaclient = novaclient
        self.progress = []
        # The takeover note when this task resumes a run a dead engine
        # left unfinished (see resume.py), else None.
        self.takeover = None

    def note_takeover(self, note):
        """Start this task's progress with the takeover ``note``."""
        self.takeover = note
        self.progress.append({'timestamp': str(timeutils.utcnow()),
                              'progress': 0.0,
                              'message': takeover.describe(note)})

    def update_details(self, progress_data, progress=0.0):
        """Record a progress message and store the whole list so far.

        taskflow writes it to the atom's meta as ``progress`` and
        ``progress_details: {at_progress, details: {progress_details}}``.
        """
        self.update_details_together([progress_data], progress)

    def update_details_together(self, messages, progress=0.0):
        """Record several progress messages, then store the list once.

        The stored list ends as after one update_details per message;
        only the stores in between are saved.
        """
        timestamp = str(timeutils.utcnow())
        self.progress.extend({'timestamp': timestamp, 'progress': progress,
                              'message': message} for message in messages)
        self._notifier.notify(task.EVENT_UPDATE_PROGRESS,
                              {'progress': progress,
                               'progress_details': self.progress})


class DynamicLogListener(logging_listener.DynamicLoggingListener):
    """Log the flow's state transitions; skips and a lost recovery
    without a traceback. A
    task that failed because Nova could not be reached says so in its
    progress too.
    """

    def _task_receiver(self, state, details):
        result = details.get('result')
        if (isinstance(result, failure.Failure) and
                result.check(*QUIET_EXCEPTIONS)):
            self._logger.info("Task '%s' transitioned into state '%s': %s",
                              details['task_name'], state,
                              result.exception_str)
            return
        if (isinstance(result, failure.Failure) and
                result.check(exception.NovaUnreachable)):
            self._logger.error("Task '%s' failed: %s", details['task_name'],
                               result.exception_str)
            self._add_progress(details['task_name'], result.exception_str)
        super()._task_receiver(state, details)

    def _add_progress(self, task_name, message):
        storage = self._engine.storage
        recorded = storage.get_task_progress_details(task_name) or {}
        entries = list((recorded.get('details') or {}).get(
            'progress_details') or [])
        progress = recorded.get('at_progress', 0.0)
        entries.append({'timestamp': str(timeutils.utcnow()),
                        'progress': progress, 'message': message})
        storage.set_task_progress(task_name, progress,
                                  {'progress_details': entries})


def raise_load_failure(manager, entrypoint, error):
    """stevedore callback: let a task's import error reach the caller."""
    raise error


def _load_task(name, kwargs):
    try:
        manager = stevedore_driver.DriverManager(
            TASKS_NAMESPACE, name, invoke_on_load=True, invoke_kwds=kwargs,
            on_load_failure_callback=raise_load_failure)
    except stevedore_exc.NoMatches:
        LOG.warning('Could not load %s', name)
        return None
    except Exception:
        LOG.exception('Failed to load or create the recovery task %s', name)
        return None
    return manager.driver


def get_recovery_flow(task_list, **kwargs):
    """Instantiate the tasks of a configured flow, phase by phase.

    :param task_list: ``{'pre': [names], 'main': [...], 'post': [...]}``
        as read from ``[taskflow_driver_recovery_flows]``.
    :param kwargs: constructor keywords of every task (``context``,
        ``novaclient``, and ``update_host_method`` for host flows).
    :returns: ``{'pre': [tasks], 'main': [...], 'post': [...]}``; names
        that are unknown or fail to load are left out (and logged).
    :raises: KeyError when a phase is missing from ``task_list``.
    """
    return {phase: [loaded for loaded in (_load_task(name, kwargs)
                                          for name in task_list[phase])
                    if loaded is not None]
            for phase in PHASES}


def flow_name(action):
    """``instance:evacuate`` -> ``instance_evacuate_engine``."""
    return '%s_engine' % action.replace(':', '_')


def build_flow(action, tasks, main_retry=None):
    """The linear ``pre`` / ``main`` / ``post`` flow of a recovery.

    :param main_retry: a retry controller for the ``main`` sub-flow, which
        is then named ``retry_<flow name>``.
    """
    name = flow_name(action)
    if main_retry is None:
        main_flow = linear_flow.Flow('main_tasks')
    else:
        main_flow = linear_flow.Flow('retry_%s' % name, retry=main_retry)
    return linear_flow.Flow(name).add(
        linear_flow.Flow('pre_tasks').add(*tasks['pre']),
        main_flow.add(*tasks['main']),
        linear_flow.Flow('post_tasks').add(*tasks['post']))


def _logbook(connection, action, notification_uuid):
    try:
        return connection.get_logbook(notification_uuid)
    except taskflow_exc.NotFound:
        return models.LogBook(action, uuid=notification_uuid)


def load_flow(action, flow, notification_uuid, store, context=None):
    """Load ``flow`` into an engine, as a new run of the notification.

    The run is a new flow detail of the notification's logbook (uuid =
    notification uuid, name = ``action``, created on the first run); its
    meta records this engine's [DEFAULT]/host and the start time. During
    a takeover, the run the dead engine left unfinished is continued
    instead (see resume.py).

    :param context: the recovery's context; under a lease (see
        masakari.engine.ownership) the run's records are written only
        while the lease holds.
    :returns: a serial taskflow engine, ready to :func:`run`.
    """
    backend = persistence.RunBackend(
        persistence.get_backend(CONF.taskflow.connection),
        getattr(context, 'recovery_lease', None))
    with contextlib.closing(backend.get_connection()) as connection:
        book = _logbook(connection, action, notification_uuid)
        flow_detail = resume.run_to_continue(
            sorted(book, key=lambda run: (run.meta or {}).get(
                META_STARTED_AT, '')), flow)
        if flow_detail is not None:
            resume.note_takeover(flow_detail, flow,
                                 {META_ENGINE_HOST: CONF.host})
            connection.update_flow_details(flow_detail)
    if flow_detail is None:
        flow_detail = persistence_utils.create_flow_detail(
            flow, book=book, backend=backend,
            meta={META_ENGINE_HOST: CONF.host,
                  META_STARTED_AT: timeutils.utcnow().isoformat()})
    return engines.load(flow, store=store, flow_detail=flow_detail,
                        book=book, backend=backend)


def run(engine):
    """Run a loaded flow in this thread, logging its transitions.

    :raises: the exception of the failed task (taskflow re-raises it).
    """
    with DynamicLogListener(engine, log=LOG):
        engine.run()
