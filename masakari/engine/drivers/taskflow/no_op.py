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
