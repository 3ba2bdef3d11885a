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

"""The tooz coordinator of an API process and its distributed locks.

Used only when ``[coordination]backend_url`` is set; lock names are
``masakari-<name>`` in ASCII, as a reference API process names them, so
both can serialise on the same host.
"""

import threading
import uuid

from oslo_config import cfg
from oslo_log import log as logging
from tooz import coordination

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

LOCK_PREFIX = 'masakari-'


class Coordinator:
    """One tooz member per process, started on first use or explicitly."""

    def __init__(self, prefix=LOCK_PREFIX):
        self.prefix = prefix
        self.coordinator = None
        self._start_lock = threading.Lock()

    def start(self):
        """Join the backend of ``[coordination]backend_url`` (idempotent).

        NOTE: the member id is drawn per process (the reference shares one
        between all forked workers).
        """
        with self._start_lock:
            if self.coordinator is not None:
                return
            member_id = ('masakari-%s' % uuid.uuid4()).encode('ascii')
            coordinator = coordination.get_coordinator(
                CONF.coordination.backend_url, member_id)
            coordinator.start(start_heart=True)
            self.coordinator = coordinator

    def stop(self):
        """Leave the backend, if joined."""
        with self._start_lock:
            if self.coordinator is None:
                return
            try:
                self.coordinator.stop()
            except coordination.ToozError:
                LOG.warning('Error while stopping the coordinator',
                            exc_info=True)
            self.coordinator = None

    def get_lock(self, name):
        """A blocking distributed lock named ``masakari-<name>``."""
        self.start()
        return self.coordinator.get_lock(
            (self.prefix + name).encode('ascii'))


COORDINATOR = Coordinator()
