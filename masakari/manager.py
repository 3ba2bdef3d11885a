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

"""Base class of the service managers: periodic tasks and start-up hook.

A manager holds a service's logic; :mod:`masakari.service` runs it (RPC
endpoint, periodic timer). Periodic tasks are methods decorated with
``oslo_service.periodic_task.periodic_task``; a subclass may give each one
its spacing at run time with :meth:`Manager.set_periodic_spacing`.
"""

from oslo_service import periodic_task

import masakari.conf

CONF = masakari.conf.CONF


class Manager(periodic_task.PeriodicTasks):
    """Periodic tasks plus the hooks the service calls."""

    def __init__(self, host=None, service_name='undefined'):
        self.host = host or CONF.host
        self.service_name = service_name
        super().__init__(CONF)

    def set_periodic_spacing(self, spacings):
        """Set the spacing (seconds) of periodic tasks by name.

        As in oslo.service, 0 means the default interval (60 s) and a
        negative value disables the task. The first run of each task is
        one spacing after this call.
        """
        tasks = []
        # NOTE: instance copies: oslo.service keeps both on the class.
        self._periodic_spacing = dict(type(self)._periodic_spacing)
        for name, task in type(self)._periodic_tasks:
            spacing = spacings.get(name, self._periodic_spacing[name])
            if spacing < 0:
                continue
            self._periodic_spacing[name] = (
                spacing or periodic_task.DEFAULT_INTERVAL)
            self._periodic_last_run[name] = periodic_task.now()
            tasks.append((name, task))
        self._periodic_tasks = tasks

    def periodic_tasks(self, context, raise_on_error=False):
        """Run the tasks that are due.

        :returns: seconds until the next task is due.
        """
        return self.run_periodic_tasks(context, raise_on_error=raise_on_error)

    def init_host(self):
        """Hook called once by the service before it takes messages."""

    def start_background(self):
        """Hook called by the service once it takes messages: start the
        manager's own threads.
        """

    def stop_background(self):
        """Hook called by the service when it stops: stop those threads."""

    def reset(self):
        """Hook called on SIGHUP, after the mutable options were reloaded."""
