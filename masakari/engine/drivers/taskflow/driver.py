"""TaskFlowDriver: runs the recovery workflows with taskflow.

Picks the flow by failure type and, for hosts, by the segment's recovery
method (with the fallbacks of the priority methods), maps the outcome to
the exceptions the manager expects (spec 04 §3.3, §3.9, §3.10), and reads
the recorded progress back for API 1.1 (spec 04 §5).
"""

from oslo_log import log as logging
from taskflow import retry

from masakari.compute import nova
import masakari.conf
from masakari.engine import driver
from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import persistence
from masakari import exception
from masakari.i18n import _
from masakari import objects
from masakari.objects import fields

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

HOST_ACTION = 'instance:evacuate'
INSTANCE_ACTION = 'instance:recovery'
PROCESS_ACTION = 'process:recovery'
RECOVERABLE_PROCESS = 'nova-compute'
RESERVED_HOST_RETRY = 'retry_%s_retry' % base.flow_name(HOST_ACTION)

Method = fields.FailoverSegmentRecoveryMethod
HOST_FAILURE_EXCEPTIONS = (exception.SkipHostRecoveryException,
                           exception.HostRecoveryFailureException,
                           exception.ReservedHostsUnavailable)


def _flows():
    return CONF.taskflow_driver_recovery_flows


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


class TaskFlowDriver(driver.NotificationDriver):
    """The ``taskflow_driver`` entry point."""

    def __init__(self):
        super().__init__()
        if not CONF.taskflow.connection:
            raise exception.InvalidConfiguration(
                _('[taskflow] connection should be configured to use this '
                  'driver.'))

    # --- host failure -------------------------------------------------------

    def _run_auto(self, context, novaclient, store):
        tasks = base.get_recovery_flow(
            _flows().host_auto_failure_recovery_tasks, context=context,
            novaclient=novaclient, update_host_method=None)
        flow = base.build_flow(HOST_ACTION, tasks)
        base.run(base.load_flow(HOST_ACTION, flow,
                                store['notification_uuid'], store))

    def _run_reserved_host(self, context, novaclient, store,
                           reserved_host_list, update_host_method):
        if not reserved_host_list:
            raise exception.ReservedHostsUnavailable()
        tasks = base.get_recovery_flow(
            _flows().host_rh_failure_recovery_tasks, context=context,
            novaclient=novaclient, update_host_method=update_host_method)
        # NOTE: each failure of the main sub-flow (a skip too) retries it
        # with the next reserved host, until the list is exhausted.
        next_host = retry.ParameterizedForEach(
            name=RESERVED_HOST_RETRY, provides='reserved_host',
            rebind={'values': 'reserved_host_list'})
        flow = base.build_flow(HOST_ACTION, tasks, main_retry=next_host)
        store = dict(store, reserved_host_list=reserved_host_list)
        try:
            base.run(base.load_flow(HOST_ACTION, flow,
                                    store['notification_uuid'], store))
        except exception.LockAlreadyAcquired as error:
            raise exception.HostRecoveryFailureException(error.message)

    def _run_auto_priority(self, context, novaclient, store,
                           reserved_host_list, update_host_method):
        try:
            self._run_auto(context, novaclient, store)
        except exception.SkipHostRecoveryException:
            raise
        except Exception:
            LOG.warning("Failed to evacuate all instances from failed_host: "
                        "'%s' using 'auto' workflow, retrying using "
                        "'reserved_host' workflow.", store['host_name'])
            self._run_reserved_host(context, novaclient, store,
                                    reserved_host_list, update_host_method)

    def _run_rh_priority(self, context, novaclient, store,
                         reserved_host_list, update_host_method):
        try:
            self._run_reserved_host(context, novaclient, store,
                                    reserved_host_list, update_host_method)
        except exception.SkipHostRecoveryException:
            raise
        except Exception:
            LOG.warning("Failed to evacuate all instances from failed_host "
                        "'%s' using 'reserved_host' workflow, retrying using "
                        "'auto' workflow", store['host_name'])
            self._run_auto(context, novaclient, store)

    def execute_host_failure(self, context, host_name, recovery_method,
                             notification_uuid, **kwargs):
        """Evacuate the instances of a failed host.

        :param recovery_method: ``auto``, ``reserved_host``,
            ``auto_priority``; anything else is run as ``rh_priority``.
        :param kwargs: ``update_host_method`` and ``reserved_host_list``
            (names, in the order to try them) for the reserved-host
            workflow.
        :raises: SkipHostRecoveryException (nothing to evacuate),
            HostRecoveryFailureException, ReservedHostsUnavailable, or
            MasakariException for any other failure.
        """
        novaclient = nova.API()
        store = {'host_name': host_name,
                 'notification_uuid': notification_uuid}
        try:
            if recovery_method == Method.AUTO:
                self._run_auto(context, novaclient, store)
                return
            run = {Method.RESERVED_HOST: self._run_reserved_host,
                   Method.AUTO_PRIORITY: self._run_auto_priority}.get(
                       recovery_method, self._run_rh_priority)
            run(context, novaclient, store, kwargs.get('reserved_host_list'),
                kwargs.get('update_host_method'))
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
        ``known_failures`` become the generic MasakariException.

        :param what: 'instance' or 'process', for the build error text.
        """
        notification_uuid = store['notification_uuid']
        try:
            tasks = base.get_recovery_flow(task_list, context=context,
                                           novaclient=nova.API())
            engine = base.load_flow(action, base.build_flow(action, tasks),
                                    notification_uuid, store)
        except Exception:
            LOG.exception('Could not build the %s flow.', action)
            raise exception.MasakariException(
                _("Failed to create %(what)s failure flow for notification "
                  "'%(uuid)s'.") % {'what': what, 'uuid': notification_uuid})
        try:
            base.run(engine)
        except known_failures:
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
            exception.ProcessRecoveryFailureException)

    # --- progress read-back -------------------------------------------------

    def _task_names(self, context, notification_type, recovery_method,
                    atom_names):
        flows = _flows()
        if notification_type == fields.NotificationType.VM:
            task_list = flows.instance_failure_recovery_tasks
        elif notification_type == fields.NotificationType.PROCESS:
            task_list = flows.process_failure_recovery_tasks
        else:
            method = recovery_method
            if method in (Method.AUTO_PRIORITY, Method.RH_PRIORITY):
                # NOTE: a priority method runs either workflow; the retry
                # atom tells which one this run was.
                method = (Method.RESERVED_HOST
                          if RESERVED_HOST_RETRY in atom_names
                          else Method.AUTO)
            task_list = (flows.host_rh_failure_recovery_tasks
                         if method == Method.RESERVED_HOST
                         else flows.host_auto_failure_recovery_tasks)
        return base.task_names(task_list, context=context,
                               novaclient=nova.API(),
                               update_host_method=None)

    def _runs(self, notification_uuid):
        """The flow details of a notification's logbook, oldest first."""
        runs = persistence.recorded_runs(CONF.taskflow.connection,
                                         notification_uuid)
        # NOTE: the database returns them in no set order; runs of a
        # reference engine have no start time and keep that order.
        return sorted(runs, key=lambda run: (run.meta or {}).get(
            base.META_STARTED_AT, ''))

    def was_interrupted(self, context, notification_uuid):
        """Whether the notification's last run was started by this engine
        host ([DEFAULT]/host), according to the run's logbook record.
        """
        runs = self._runs(notification_uuid)
        return bool(runs) and (
            (runs[-1].meta or {}).get(base.META_ENGINE_HOST) == CONF.host)

    def get_notification_recovery_workflow_details(self, context,
                                                   recovery_method,
                                                   notification_uuid):
        """Progress of every recorded run of a notification's recovery.

        :param notification_uuid: the Notification object (the manager
            passes it in this position, spec 04 §8).
        :returns: NotificationProgressDetails, per run (oldest first) in
            the order of the configured task list; tasks without progress
            are left out.
        """
        notification = notification_uuid
        details = []
        for run in self._runs(notification.notification_uuid):
            atoms = {atom.name: atom for atom in run}
            for name in self._task_names(context, notification.type,
                                         recovery_method, atoms):
                progress = _progress_of(atoms.get(name))
                if progress is not None:
                    details.append(progress)
        return details

    def upgrade_backend(self, backend):
        """Create or upgrade the taskflow tables at the URL ``backend``.

        A plain method: 22.0.0 declared it a context manager without a
        yield, which only worked by accident.
        """
        persistence.upgrade(backend)
