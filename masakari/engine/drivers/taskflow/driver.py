"""TaskFlowDriver: runs the recovery workflows with taskflow.

SKELETON owned by the database layer until the engine developer takes it
over: construction and ``upgrade_backend`` (what ``masakari-manage db
sync`` needs) are real; the workflows are not written yet.
"""

import masakari.conf
from masakari.engine import driver
from masakari.engine.drivers.taskflow import persistence
from masakari import exception
from masakari.i18n import _

CONF = masakari.conf.CONF

_NOT_YET = 'TaskFlowDriver.%s: the recovery workflows are not implemented yet'


class TaskFlowDriver(driver.NotificationDriver):
    """The ``taskflow_driver`` entry point."""

    def __init__(self):
        super().__init__()
        if not CONF.taskflow.connection:
            raise exception.InvalidConfiguration(
                _('[taskflow] connection should be configured to use this '
                  'driver.'))

    def execute_host_failure(self, context, host_name, recovery_method,
                             notification_uuid, **kwargs):
        raise NotImplementedError(_NOT_YET % 'execute_host_failure')

    def execute_instance_failure(self, context, instance_uuid,
                                 notification_uuid):
        raise NotImplementedError(_NOT_YET % 'execute_instance_failure')

    def execute_process_failure(self, context, process_name, host_name,
                                notification_uuid):
        raise NotImplementedError(_NOT_YET % 'execute_process_failure')

    def get_notification_recovery_workflow_details(self, context,
                                                   recovery_method,
                                                   notification_uuid):
        raise NotImplementedError(
            _NOT_YET % 'get_notification_recovery_workflow_details')

    def upgrade_backend(self, backend):
        """Create or upgrade the taskflow tables at the URL ``backend``.

        A plain method: 22.0.0 declared it a context manager without a
        yield, which only worked by accident.
        """
        persistence.upgrade(backend)
