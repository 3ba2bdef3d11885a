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

from masakari.common import startup
import masakari.conf
from masakari import config
from masakari.engine import debug_decorators
from masakari.fencing import config as fencing_config
from masakari import metrics
from masakari.metrics import engine as engine_metrics
from masakari.metrics import server as metrics_server
from masakari.notifications import api as notifications
from masakari import objects
from masakari import service

CONF = masakari.conf.CONF


def main():
    """Parse the configuration and run the engine until it is stopped.

    :returns: the exit status (None after a clean stop).

    Exits with status 1 when no notification driver is configured or it
    cannot be imported, or when the temporary directory is unusable; the
    taskflow driver's InvalidConfiguration (no [taskflow]/connection)
    aborts the start.
    """
    config.parse_args(sys.argv)
    logging.setup(CONF, 'masakari')
    debug_decorators.apply_from_config()
    fencing_config.warn_if_exposed()
    objects.register_all()
    notifications.set_binary(notifications.ENGINE_BINARY)
    server = service.Service.create(binary=notifications.ENGINE_BINARY)
    if metrics.configure(multiprocess=False):
        metrics_server.serve(
            CONF.metrics.listen_address, CONF.metrics.engine_listen_port,
            collectors=[engine_metrics.OldestNotificationCollector()])
    startup.freeze_loaded_objects()
    launcher = oslo_service.launch(CONF, server, restart_method='mutate')
    return launcher.wait()


if __name__ == '__main__':
    sys.exit(main())
