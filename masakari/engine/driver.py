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

"""The notification driver contract and its loader.

A driver runs the recovery workflows; it is picked by
``[DEFAULT]/notification_driver`` among the ``masakari.driver`` entry
points (Masakari ships ``taskflow_driver``). Third-party drivers subclass
:class:`NotificationDriver`; the method and parameter names are part of
that contract (doc/source/configuration/custom-recovery-flows.rst).
"""

import abc
import sys

from oslo_log import log as logging
from stevedore import driver

import masakari.conf

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

NAMESPACE = 'masakari.driver'


class NotificationDriver(metaclass=abc.ABCMeta):
    """What the engine asks of a recovery driver."""

    @abc.abstractmethod
    def execute_host_failure(self, context, host_name, recovery_method,
                             notification_uuid, **kwargs):
        """Recover the instances of a failed compute host.

        The manager passes ``update_host_method`` and
        ``reserved_host_list`` as keywords, and ``host_was_reserved=True``
        for a reserved host when [fencing]/return_to_service is set.
        """

    @abc.abstractmethod
    def execute_instance_failure(self, context, instance_uuid,
                                 notification_uuid):
        """Recover one failed instance."""

    @abc.abstractmethod
    def execute_process_failure(self, context, process_name, host_name,
                                notification_uuid):
        """Handle a failed process (nova-compute) on a host."""

    @abc.abstractmethod
    def get_notification_recovery_workflow_details(self, context,
                                                   recovery_method,
                                                   notification_uuid):
        """Return the progress details of a notification's workflows.

        The manager passes the notification object as
        ``notification_uuid``.
        """

    @abc.abstractmethod
    def upgrade_backend(self, backend):
        """Create or upgrade the driver's own storage at ``backend``."""

    def return_fenced_hosts(self, context):
        """Bring back to service the hosts this driver fenced whose
        maintenance an operator ended ([fencing]/return_to_service).
        Optional: a driver that does not fence has nothing to do.
        """

    def was_interrupted(self, context, notification_uuid):
        """Whether this engine host started the notification's last run.

        Asked at engine start-up about ``running`` notifications: a run
        this host ([DEFAULT]/host) started before the restart cannot be
        running any more. Optional: a driver that cannot tell says False.
        """
        return False

    def run_owner(self, context, notification_uuid):
        """The engine host that started (or took over) the notification's
        last recovery run.

        Asked by the takeover watch about ``running`` notifications.
        Optional: a driver that cannot tell says None, and its recoveries
        are never taken over.

        :returns: the host name; '' when the notification has no run yet;
            None when the last run does not say (e.g. recorded by
            Masakari 22.0.0).
        """
        return None


def _reraise(manager, entrypoint, exc):
    # NOTE: stevedore would log and swallow the error, then complain that
    # no driver matches; the real cause must reach the caller.
    raise exc


def load_masakari_driver(driver_name=None):
    """Load and instantiate the driver ``driver_name`` (default: the
    configured ``notification_driver``).

    Exits with status 1 when no name is configured or the driver cannot
    be imported; any other error of the driver's constructor propagates.
    """
    if not driver_name:
        driver_name = CONF.notification_driver
    if not driver_name:
        LOG.error('Notification driver option required, but not specified')
        sys.exit(1)

    LOG.info("Loading masakari notification driver '%s'", driver_name)
    try:
        notification_driver = driver.DriverManager(
            NAMESPACE, driver_name, invoke_on_load=True,
            on_load_failure_callback=_reraise).driver
    except ImportError:
        LOG.exception("Failed to load notification driver '%s'.",
                      driver_name)
        sys.exit(1)
    if not isinstance(notification_driver, NotificationDriver):
        raise TypeError("%s is not a NotificationDriver" % driver_name)
    return notification_driver
