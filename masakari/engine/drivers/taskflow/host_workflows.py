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

"""Which host failure workflow runs: one table from a segment's recovery
method to the workflows to try, in order (the first, then its fallback).

A workflow is a task list of ``[taskflow_driver_recovery_flows]`` and,
for the reserved-host one, the retry controller that tries the segment's
reserved hosts one after the other. The safety tasks (the mass-failure
brake, fencing and force-down) are put into the configured list here, so
that both the run and the progress read-back see the same list.
"""

import typing

import masakari.conf
from masakari.engine import brake
from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import progress
from masakari import exception
from masakari import fencing
from masakari.objects import fields

CONF = masakari.conf.CONF

ACTION = 'instance:evacuate'
RESERVED_HOST_RETRY = 'retry_%s_retry' % base.flow_name(ACTION)

# Entry points (masakari.task_flow.tasks) the safety options add.
DISABLE_TASK = 'disable_compute_service_task'
BRAKE_TASK = 'mass_failure_brake_task'
FENCE_TASK = 'fence_host_task'
FORCE_DOWN_TASK = 'force_down_compute_service_task'
RETURN_TASK = 'return_to_service_task'

# The flow that brings a fenced host back (not configurable).
RETURN_ACTION = 'host:return_to_service'
RETURN_TASKS = {'pre': [], 'main': [RETURN_TASK], 'post': []}

Method = fields.FailoverSegmentRecoveryMethod


class HostWorkflow(typing.NamedTuple):
    """One way to recover a failed host."""

    #: The recovery method it implements, for the logs.
    name: str
    #: Its option of [taskflow_driver_recovery_flows].
    tasks_option: str
    #: Atom name of the retry controller over the reserved hosts (which
    #: provides ``reserved_host`` to the main phase), or None.
    retry: typing.Optional[str] = None


AUTO = HostWorkflow(Method.AUTO, 'host_auto_failure_recovery_tasks')
RESERVED_HOST = HostWorkflow(Method.RESERVED_HOST,
                             'host_rh_failure_recovery_tasks',
                             retry=RESERVED_HOST_RETRY)

# recovery method -> the workflow to run first, then its fallback.
BY_METHOD = {
    Method.AUTO: (AUTO,),
    Method.RESERVED_HOST: (RESERVED_HOST,),
    Method.AUTO_PRIORITY: (AUTO, RESERVED_HOST),
    Method.RH_PRIORITY: (RESERVED_HOST, AUTO),
}


def for_method(recovery_method):
    """The workflows of a recovery method, in the order to try them; an
    unknown method is run as ``rh_priority`` (as Masakari 22.0.0 does).
    """
    return BY_METHOD.get(recovery_method, BY_METHOD[Method.RH_PRIORITY])


def that_ran(recovery_method, atom_names):
    """The workflow a recorded run of ``recovery_method`` was: a priority
    method runs either workflow, and the retry atom tells which.
    """
    workflows = for_method(recovery_method)
    for workflow in workflows:
        if workflow.retry is not None and workflow.retry in atom_names:
            return workflow
    return next((workflow for workflow in workflows
                 if workflow.retry is None), workflows[0])


def task_list(workflow, flows, fence=False, brake=False):
    """The ``{'pre', 'main', 'post'}`` task names of ``workflow``.

    :param flows: the [taskflow_driver_recovery_flows] option group.
    :param fence: fence the host and force its compute service down in
        place of ``disable_compute_service_task`` (prepended to ``pre``
        when the list has no such task), unless the list already names
        the fencing task itself.
    :param brake: check the mass-failure brake first.
    """
    configured = getattr(flows, workflow.tasks_option)
    phases = {phase: list(configured.get(phase, ())) for phase in configured}
    every = [name for names in phases.values() for name in names]
    if fence and FENCE_TASK not in every:
        fencing = [FENCE_TASK, FORCE_DOWN_TASK]
        for names in phases.values():
            if DISABLE_TASK in names:
                at = names.index(DISABLE_TASK)
                names[at:at + 1] = fencing
                break
        else:
            phases['pre'] = fencing + phases.get('pre', [])
    if brake and BRAKE_TASK not in every:
        phases['pre'] = [BRAKE_TASK] + phases.get('pre', [])
    return phases


def _fencing_wanted(host_name):
    try:
        return (fencing.driver_for(host_name) is not None or
                CONF.fencing.required)
    except exception.FencingFailed:
        # NOTE: an unusable fencing file: the fencing task fails and says
        # why, rather than the recovery going on unfenced.
        return True


def safety_wanted(host_name):
    """The safety tasks a recovery of ``host_name`` runs now:
    ``task_list`` keywords.
    """
    return {'fence': _fencing_wanted(host_name), 'brake': brake.enabled()}


def safety_recorded(atom_names):
    """The safety tasks a recorded run had: ``task_list`` keywords."""
    return {'fence': progress.atom_name(FENCE_TASK) in atom_names,
            'brake': progress.atom_name(BRAKE_TASK) in atom_names}


def is_return_run(atom_names):
    """Whether a recorded run is a return to service."""
    return progress.atom_name(RETURN_TASK) in atom_names
