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

"""TaskFlowDriver: runs the recovery workflows with taskflow.

Runs the flow of each failure type (for hosts, the workflows the table of
``host_workflows`` gives for the segment's recovery method), maps the
outcome to the exceptions the manager expects, and hands the progress
read-back of API 1.1 to ``progress``.
"""

from oslo_log import log as logging
from taskflow import retry

from masakari.compute import nova
import masakari.conf
from masakari.engine import driver
from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import host_workflows
from masakari.engine.drivers.taskflow import persistence
from masakari.engine.drivers.taskflow import progress
from masakari.engine.drivers.taskflow import return_to_service
from masakari import exception
from masakari.i18n import _
from masakari.objects import fields

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

INSTANCE_ACTION = 'instance:recovery'
PROCESS_ACTION = 'process:recovery'
RECOVERABLE_PROCESS = 'nova-compute'

# Outcomes of a host workflow that end the recovery: no fallback runs.
FINAL_EXCEPTIONS = (exception.SkipHostRecoveryException,
                    exception.FencingFailed,
                    exception.HostRecoveryHeld,
                    exception.RecoveryLost)
HOST_FAILURE_EXCEPTIONS = FINAL_EXCEPTIONS + (
    exception.HostRecoveryFailureException,
    exception.ReservedHostsUnavailable)


def _flows():
    return CONF.taskflow_driver_recovery_flows


class TaskFlowDriver(driver.NotificationDriver):
    """The ``taskflow_driver`` entry point."""

    def __init__(self):
        super().__init__()
        if not CONF.taskflow.connection:
            raise exception.InvalidConfiguration(
                _('[taskflow] connection should be configured to use this '
                  'driver.'))

    # --- host failure -------------------------------------------------------

    def _run_workflow(self, workflow, context, novaclient, store,
                      reserved_host_list, update_host_method):
        tasks = base.get_recovery_flow(
            host_workflows.task_list(
                workflow, _flows(),
                **host_workflows.safety_wanted(store['host_name'])),
            context=context, novaclient=novaclient,
            update_host_method=update_host_method if workflow.retry
            else None)
        main_retry = None
        if workflow.retry is not None:
            if not reserved_host_list:
                raise exception.ReservedHostsUnavailable()
            # NOTE: each failure of the main sub-flow (a skip too) retries
            # it with the next reserved host, until the list is exhausted.
            main_retry = retry.ParameterizedForEach(
                name=workflow.retry, provides='reserved_host',
                rebind={'values': 'reserved_host_list'})
            store = dict(store, reserved_host_list=reserved_host_list)
        flow = base.build_flow(host_workflows.ACTION, tasks,
                               main_retry=main_retry)
        try:
            base.run(base.load_flow(host_workflows.ACTION, flow,
                                    store['notification_uuid'], store,
                                    context))
        except exception.LockAlreadyAcquired as error:
            raise exception.HostRecoveryFailureException(error.message)

    def execute_host_failure(self, context, host_name, recovery_method,
                             notification_uuid, update_host_method=None,
                             reserved_host_list=None,
                             host_was_reserved=False):
        """Evacuate the instances of a failed host.

        :param recovery_method: the segment's; it picks the workflows to
            try from the table of ``host_workflows``.
        :param update_host_method: ``(context, host_name)``, called before
            evacuating to a reserved host (it takes the host).
        :param reserved_host_list: names of the segment's reserved hosts,
            in the order to try them, for the reserved-host workflow.
        :param host_was_reserved: whether the failed host was a reserved
            host, kept by the fencing task for its return to service.
        :raises: SkipHostRecoveryException (nothing to evacuate),
            HostRecoveryFailureException, ReservedHostsUnavailable,
            FencingFailed, HostRecoveryHeld, or MasakariException for any
            other failure.
        """
        novaclient = nova.API()
        store = {'host_name': host_name,
                 'notification_uuid': notification_uuid}
        if host_was_reserved:
            # NOTE: only then: the store is recorded in the logbook, which
            # stays as Masakari 22.0.0 writes it otherwise.
            store['host_was_reserved'] = True
        workflows = host_workflows.for_method(recovery_method)
        try:
            for attempt, workflow in enumerate(workflows, start=1):
                try:
                    self._run_workflow(workflow, context, novaclient, store,
                                       reserved_host_list, update_host_method)
                    return
                except FINAL_EXCEPTIONS:
                    raise
                except Exception:
                    if attempt == len(workflows):
                        raise
                    LOG.warning("Failed to evacuate all instances from "
                                "failed_host '%(host)s' using '%(failed)s' "
                                "workflow, retrying using '%(next)s' "
                                "workflow.",
                                {'host': host_name, 'failed': workflow.name,
                                 'next': workflows[attempt].name})
        except HOST_FAILURE_EXCEPTIONS:
            raise
        except Exception:
            LOG.exception('Host failure flow of notification %s failed.',
                          notification_uuid)
            raise exception.MasakariException(
                _("Failed to execute host failure flow for notification "
                  "'%s'.") % notification_uuid)

    # --- instance and process failures --------------------------------------

    def _run_flow(self, action, task_list, context, store, what,
                  known_failures):
        """Build and run a failure flow; failures other than
        ``known_failures`` (a tuple of exception classes) become the
        generic MasakariException.

        :param what: 'instance' or 'process', for the build error text.
        """
        notification_uuid = store['notification_uuid']
        try:
            tasks = base.get_recovery_flow(task_list, context=context,
                                           novaclient=nova.API())
            engine = base.load_flow(action, base.build_flow(action, tasks),
                                    notification_uuid, store, context)
        except Exception:
            LOG.exception('Could not build the %s flow.', action)
            raise exception.MasakariException(
                _("Failed to create %(what)s failure flow for notification "
                  "'%(uuid)s'.") % {'what': what, 'uuid': notification_uuid})
        try:
            base.run(engine)
        except (exception.RecoveryLost,) + known_failures:
            raise
        except Exception:
            LOG.exception('%(what)s failure flow of notification %(uuid)s '
                          'failed.', {'what': what.capitalize(),
                                      'uuid': notification_uuid})
            # NOTE: "instance" for both, as in the reference (a process
            # failure flow says "instance" too).
            raise exception.MasakariException(
                _("Failed to execute instance failure flow for notification "
                  "'%s'.") % notification_uuid)

    def execute_instance_failure(self, context, instance_uuid,
                                 notification_uuid):
        """Recover one failed instance by stopping and starting it.

        :raises: SkipInstanceRecoveryException (not an HA instance),
            IgnoreInstanceRecoveryException (paused or rescued),
            InstanceRecoveryFailureException, or MasakariException.
        """
        self._run_flow(
            INSTANCE_ACTION, _flows().instance_failure_recovery_tasks,
            context, {'instance_uuid': instance_uuid,
                      'notification_uuid': notification_uuid}, 'instance',
            (exception.SkipInstanceRecoveryException,
             exception.IgnoreInstanceRecoveryException,
             exception.InstanceRecoveryFailureException))

    def execute_process_failure(self, context, process_name, host_name,
                                notification_uuid):
        """Disable the compute service of a host whose nova-compute died.

        :raises: SkipProcessRecoveryException (another process),
            ProcessRecoveryFailureException, or MasakariException.
        """
        if process_name != RECOVERABLE_PROCESS:
            LOG.warning('Skipping recovery for process: %s.', process_name)
            raise exception.SkipProcessRecoveryException()
        self._run_flow(
            PROCESS_ACTION, _flows().process_failure_recovery_tasks, context,
            {'process_name': process_name, 'host_name': host_name,
             'notification_uuid': notification_uuid}, 'process',
            (exception.ProcessRecoveryFailureException,))

    # --- progress read-back -------------------------------------------------

    def was_interrupted(self, context, notification_uuid):
        """Whether the notification's last run was started by this engine
        host ([DEFAULT]/host), according to the run's logbook record.
        """
        return progress.last_run_engine_host(notification_uuid) == CONF.host

    def run_owner(self, context, notification_uuid):
        """[DEFAULT]/host of the engine that ran the last run, per its
        logbook record ('' without runs).
        """
        runs = progress.recorded_runs(notification_uuid)
        return (runs[-1].meta or {}).get(base.META_ENGINE_HOST) if runs else ''

    def get_notification_recovery_workflow_details(self, context,
                                                   recovery_method,
                                                   notification_uuid):
        """Progress of every recorded run of a notification's recovery.

        :param notification_uuid: the Notification object (the manager
            passes it in this position, as third-party drivers expect).
        :returns: NotificationProgressDetails, per run (oldest first) in
            the order of the configured task list; tasks without progress
            are left out.
        """
        notification = notification_uuid
        flows = _flows()
        if notification.type == fields.NotificationType.VM:
            def task_list_of(atoms):
                return flows.instance_failure_recovery_tasks
        elif notification.type == fields.NotificationType.PROCESS:
            def task_list_of(atoms):
                return flows.process_failure_recovery_tasks
        else:
            def task_list_of(atoms):
                if host_workflows.is_return_run(atoms):
                    return host_workflows.RETURN_TASKS
                return host_workflows.task_list(
                    host_workflows.that_ran(recovery_method, atoms), flows,
                    **host_workflows.safety_recorded(atoms))
        return progress.workflow_details(notification.notification_uuid,
                                         task_list_of)

    def return_fenced_hosts(self, context):
        """Bring fenced hosts whose maintenance ended back to service."""
        return_to_service.return_fenced_hosts(context)

    def upgrade_backend(self, backend):
        """Create or upgrade the taskflow tables at the URL ``backend``.

        A plain method: 22.0.0 declared it a context manager without a
        yield, which only worked by accident.
        """
        persistence.upgrade(backend)
