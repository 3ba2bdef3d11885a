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

"""The engine's background loop: the takeover watch and the checks of the
extensions (the brake's resume, the return to service) on futurist
periodic workers, whether the periodic tasks ([DEFAULT]/periodic_enable)
run or not.
"""

import threading
import time

from futurist import periodics
from oslo_log import log as logging

LOG = logging.getLogger(__name__)

# Seconds stop() waits for the loop to end; a job in progress (a return to
# service waiting for Nova) finishes on its own thread.
STOP_WAIT = 1


def _periodic(name, function, spacing):
    """``function`` as a futurist periodic callable named ``name`` (the
    name its failures are logged with).
    """
    @periodics.periodic(spacing)
    def job():
        function()
    job.__name__ = job.__qualname__ = name
    return job, None, None


class Loop:
    """Run each job every ``spacing`` seconds, the first time one spacing
    after ``start()``; a failing run is logged and the next one runs.

    :param jobs: ``(name, function, spacing)``; a job whose spacing is
        None (its feature is off) is left out.

    Each job has a periodic worker on a daemon thread of its own
    (``background-<name>``): a long run (a return to service waiting for
    nova-compute) neither delays the takeover watch, whose leases must be
    renewed in time, nor holds the engine's exit. A job never runs twice
    at once.
    """

    def __init__(self, jobs):
        self.jobs = [job for job in jobs if job[2]]
        self._workers = []

    @property
    def names(self):
        return [name for name, _function, _spacing in self.jobs]

    def start(self):
        """Start the jobs (nothing when none is on)."""
        for job in self.jobs:
            worker = periodics.PeriodicWorker([_periodic(*job)], log=LOG)
            threading.Thread(target=worker.start,
                             name='background-%s' % job[0],
                             daemon=True).start()
            self._workers.append(worker)

    def stop(self):
        """Run no job any more; wait a little for the runs to end."""
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.stop()
        deadline = time.monotonic() + STOP_WAIT
        for worker in workers:
            worker.wait(max(deadline - time.monotonic(), 0))
