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

"""The masakari-engine service: RPC server and periodic timer around the
manager.

``Service.create()`` builds it from the options; masakari-engine runs it
under the oslo.service launcher, and an all-in-one process can run it on
its own threads::

    engine = service.Service.create(executor='threading')
    engine.start()
    ...
    engine.stop()
    engine.wait()
"""

import random
import shutil
import sys
import tempfile
import threading

from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_service import service
from oslo_utils import importutils

import masakari.conf
from masakari import context
from masakari.objects import base as objects_base
from masakari import rpc
from masakari import version

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

ENGINE_BINARY = 'masakari-engine'


def check_tempdir():
    """Exit with status 1 unless a directory can be made in [DEFAULT]/tempdir
    (the system's temporary directory when unset).
    """
    try:
        shutil.rmtree(tempfile.mkdtemp(dir=CONF.tempdir))
    except Exception as error:
        LOG.error('Temporary directory is invalid: %s', error)
        sys.exit(1)


class Service(service.Service):
    """Serve a manager on the RPC topic and run its periodic tasks.

    :param manager: dotted path of the manager class.
    :param executor: oslo.messaging executor of the RPC server (None:
        eventlet when the process is monkey-patched, else threading).
    """

    def __init__(self, host, binary, topic, manager, periodic_enable=True,
                 periodic_fuzzy_delay=0, periodic_interval_max=300,
                 executor=None):
        super().__init__()
        self.host = host
        self.binary = binary
        self.topic = topic
        self.manager = importutils.import_class(manager)(host=host)
        self.periodic_enable = periodic_enable
        self.periodic_fuzzy_delay = periodic_fuzzy_delay
        self.periodic_interval_max = periodic_interval_max
        self.executor = executor
        self.rpcserver = None
        self._stopping = threading.Event()
        self._timer = None

    @classmethod
    def create(cls, host=None, binary=ENGINE_BINARY, topic=None,
               manager=None, executor=None):
        """A service configured from [DEFAULT] (host, masakari_topic,
        engine_manager, periodic_enable, periodic_fuzzy_delay,
        periodic_interval_max); arguments override the options.
        """
        return cls(host or CONF.host, binary, topic or CONF.masakari_topic,
                   manager or CONF.engine_manager,
                   periodic_enable=CONF.periodic_enable,
                   periodic_fuzzy_delay=CONF.periodic_fuzzy_delay,
                   periodic_interval_max=CONF.periodic_interval_max,
                   executor=executor)

    def start(self):
        """Check the temporary directory, let the manager recover from an
        earlier stop, then take RPC messages and start the periodic timer.
        """
        LOG.info('Starting %(topic)s (version %(version)s)',
                 {'topic': self.topic,
                  'version': version.version_string_with_package()})
        check_tempdir()
        self.manager.init_host()
        target = messaging.Target(topic=self.topic, server=self.host)
        self.rpcserver = rpc.get_server(
            target, [self.manager],
            serializer=objects_base.MasakariObjectSerializer(),
            executor=self.executor)
        self.rpcserver.start()
        self.manager.start_background()
        if self.periodic_enable:
            delay = (random.randint(0, self.periodic_fuzzy_delay)
                     if self.periodic_fuzzy_delay else 0)
            self._timer = threading.Thread(target=self._run_periodic_tasks,
                                           args=(delay,),
                                           name='periodic-tasks',
                                           daemon=True)
            self._timer.start()

    def _run_periodic_tasks(self, delay):
        if self._stopping.wait(delay):
            return
        while True:
            idle = self.manager.periodic_tasks(context.get_admin_context())
            if self.periodic_interval_max:
                idle = min(idle, self.periodic_interval_max)
            if self._stopping.wait(idle):
                return

    def stop(self, graceful=False):
        """Stop taking messages and stop the periodic timer."""
        if self.rpcserver is not None:
            try:
                self.rpcserver.stop()
            except Exception:
                LOG.debug('Ignoring an error while stopping the RPC server',
                          exc_info=True)
        self._stopping.set()
        self.manager.stop_background()
        super().stop(graceful)

    def wait(self):
        """Wait for the messages being handled to finish (the launcher's
        graceful_shutdown_timeout bounds this wait).
        """
        if self.rpcserver is not None:
            self.rpcserver.wait()
        if self._timer is not None:
            self._timer.join()
        super().wait()

    def reset(self):
        """SIGHUP: the mutable options were reloaded."""
        self.manager.reset()
