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

"""masakari-engine: process notifications and run the recovery flows."""

import masakari.cmd.monkey_patch  # noqa: F401 (first: patches the process)

import sys

from oslo_log import log as logging
from oslo_service import service as oslo_service

from masakari.capacity import report
from masakari.common import cli
from masakari.common import startup
import masakari.conf
from masakari import config
from masakari.engine import brake
from masakari.engine import debug_decorators
from masakari.fencing import config as fencing_config
from masakari import metrics
from masakari.metrics import capacity as capacity_metrics
from masakari.metrics import engine as engine_metrics
from masakari.metrics import server as metrics_server
from masakari.notifications import api as notifications
from masakari import objects
from masakari import service

CONF = masakari.conf.CONF

TASKFLOW_DRIVER = 'taskflow_driver'
# The exit status of a start-up error, as in Masakari 22.0.0.
STARTUP_FAILED = 1


def check_taskflow_connection():
    """The taskflow driver keeps its workflows in [taskflow]/connection
    and refuses to load without it; say so before loading it.

    :raises: masakari.common.cli.StartupError
    """
    if (CONF.notification_driver == TASKFLOW_DRIVER
            and not CONF.taskflow.connection):
        raise cli.StartupError(
            '[taskflow]/connection is not set: the engine keeps the state '
            'of its recovery workflows in that database; set it (it may be '
            'the URL of [database]/connection) and run "masakari-manage db '
            'sync"')


@cli.exits('masakari-engine', STARTUP_FAILED)
def main():
    """Parse the configuration and run the engine until it is stopped.

    :returns: the exit status (None after a clean stop).

    A start-up error (configuration, no [taskflow]/connection, transport)
    exits 1 with one line (doc/source/cli/masakari-engine.rst), as do a
    notification driver that cannot be imported and an unusable temporary
    directory.
    """
    config.parse_args(sys.argv)
    logging.setup(CONF, 'masakari')
    check_taskflow_connection()
    debug_decorators.apply_from_config()
    fencing_config.warn_if_exposed()
    objects.register_all()
    notifications.set_binary(notifications.ENGINE_BINARY)
    server = service.Service.create(binary=notifications.ENGINE_BINARY)
    if metrics.configure(multiprocess=False):
        metrics_server.serve(
            CONF.metrics.listen_address, CONF.metrics.engine_listen_port,
            collectors=[engine_metrics.OldestNotificationCollector(
                brake.is_held)] + capacity_metrics.collectors(report.capacity))
    startup.freeze_loaded_objects()
    launcher = oslo_service.launch(CONF, server, restart_method='mutate')
    return launcher.wait()


if __name__ == '__main__':
    sys.exit(main())
