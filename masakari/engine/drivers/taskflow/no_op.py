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

"""``no_op``: a task that does nothing, to shape custom recovery flows.

A plain taskflow task (not a MasakariTask): it records no progress, and
its atom is named after its full class path.
"""

from oslo_log import log as logging
from taskflow import task

LOG = logging.getLogger(__name__)


class Noop(task.Task):
    """Log a line and succeed."""

    def __init__(self, context, novaclient, **kwargs):
        super().__init__()
        self.context = context
        self.novaclient = novaclient

    def execute(self):
        LOG.info('Custom task executed successfully..!!')
