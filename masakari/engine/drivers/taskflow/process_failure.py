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

"""Tasks of the process failure flow (nova-compute stopped on a host):
disable the host's compute service and confirm it.
Flow inputs: ``process_name``, ``host_name``.
"""

from oslo_log import log as logging

import masakari.conf
from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import waiting
from masakari import exception

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)


class DisableComputeNodeTask(base.MasakariTask):
    """Disable the host's nova-compute unless it already is."""

    def execute(self, process_name, host_name):
        self.update_details(
            "Disabling compute service on host: '%s'" % host_name)
        if self.novaclient.is_service_disabled(self.context, host_name,
                                               process_name):
            message = ('Skipping recovery for process %s as it is already '
                       'disabled' % process_name)
            LOG.info(message)
            self.update_details(message, 1.0)
            return
        self.novaclient.enable_disable_service(
            self.context, host_name,
            reason=CONF.process_failure.service_disable_reason)
        self.update_details(
            "Disabled compute service on host: '%s'" % host_name, 1.0)


class ConfirmComputeNodeDisabledTask(base.MasakariTask):
    """Wait until Nova shows the host's service disabled."""

    def execute(self, process_name, host_name):
        self.update_details("Confirming compute service is disabled on "
                            "host: '%s'" % host_name)
        try:
            waiting.poll(lambda: self.novaclient.is_service_disabled(
                self.context, host_name, process_name),
                CONF.wait_period_after_service_update, CONF.verify_interval)
        except waiting.Timeout:
            message = 'Failed to disable service %s' % process_name
            self.update_details(message, 1.0)
            raise exception.ProcessRecoveryFailureException(message=message)
        self.update_details("Confirmed compute service is disabled on "
                            "host: '%s'" % host_name, 1.0)
