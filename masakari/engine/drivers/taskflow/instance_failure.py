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

"""Tasks of the instance failure flow: stop the failed instance, start
it, confirm it is active. Flow input: ``instance_uuid``.
"""

from oslo_log import log as logging

from masakari.capacity import selection
import masakari.conf
from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import waiting
from masakari import exception

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

IGNORED_STATES = ('paused', 'rescued')


def _vm_state_is(context, novaclient, instance_uuid, vm_state):
    def check():
        server = novaclient.get_server(context, instance_uuid)
        return getattr(server, base.VM_STATE) == vm_state
    return check


class StopInstanceTask(base.MasakariTask):
    """Stop the instance, unless it is not one to recover."""

    def execute(self, instance_uuid):
        options = CONF.instance_failure
        instance = self.novaclient.get_server(self.context, instance_uuid)
        if not (options.process_all_instances or selection.is_ha_enabled(
                instance, options.ha_enabled_instance_metadata_key)):
            message = ('Skipping recovery for instance: %s as it is not '
                       'Ha_Enabled' % instance_uuid)
            LOG.info(message)
            self.update_details(message, 1.0)
            raise exception.SkipInstanceRecoveryException()

        vm_state = getattr(instance, base.VM_STATE)
        if vm_state in IGNORED_STATES:
            message = ("Recovery of instance '%(uuid)s' is ignored as it is "
                       "in '%(state)s' state."
                       % {'uuid': instance_uuid, 'state': vm_state})
            LOG.warning(message)
            self.update_details(message, 1.0)
            raise exception.IgnoreInstanceRecoveryException(message=message)

        if vm_state != base.STOPPED:
            if vm_state == base.RESIZED:
                self.novaclient.reset_instance_state(
                    self.context, instance.id, base.ACTIVE)
            self.update_details('Stopping instance: %s' % instance_uuid)
            self._stop(instance, instance_uuid)

        try:
            waiting.poll(_vm_state_is(self.context, self.novaclient,
                                      instance_uuid, base.STOPPED),
                         CONF.wait_period_after_power_off,
                         CONF.verify_interval)
        except waiting.Timeout:
            message = 'Failed to stop instance %s' % instance.id
            self.update_details(message, 1.0)
            raise exception.InstanceRecoveryFailureException(message=message)
        self.update_details("Stopped instance: '%s'" % instance_uuid, 1.0)

    def _stop(self, instance, instance_uuid):
        try:
            self.novaclient.stop_server(self.context, instance.id)
        except exception.Conflict:
            # NOTE: Nova refuses to stop a server that is already stopping
            # or stopped; only the latter lets the recovery go on.
            self.update_details(
                'Conflict when stopping instance: %s' % instance_uuid)
            instance = self.novaclient.get_server(self.context,
                                                  instance_uuid)
            if getattr(instance, base.VM_STATE) != base.STOPPED:
                raise


class StartInstanceTask(base.MasakariTask):
    """Start the stopped instance."""

    def execute(self, instance_uuid):
        self.update_details("Starting instance: '%s'" % instance_uuid)
        instance = self.novaclient.get_server(self.context, instance_uuid)
        vm_state = getattr(instance, base.VM_STATE)
        if vm_state != base.STOPPED:
            message = ("Invalid state for Instance %(uuid)s. Expected state: "
                       "'STOPPED', Actual state: '%(state)s'"
                       % {'uuid': instance_uuid, 'state': vm_state})
            self.update_details(message, 1.0)
            raise exception.InstanceRecoveryFailureException(message=message)
        self.novaclient.start_server(self.context, instance_uuid)
        self.update_details("Instance started: '%s'" % instance_uuid, 1.0)


class ConfirmInstanceActiveTask(base.MasakariTask):
    """Wait until the instance is active again."""

    def execute(self, instance_uuid):
        self.update_details(
            "Confirming instance '%s' vm_state is ACTIVE" % instance_uuid)
        try:
            waiting.poll(_vm_state_is(self.context, self.novaclient,
                                      instance_uuid, base.ACTIVE),
                         CONF.wait_period_after_power_on,
                         CONF.verify_interval)
        except waiting.Timeout:
            message = 'Failed to start instance %s' % instance_uuid
            self.update_details(message, 1.0)
            raise exception.InstanceRecoveryFailureException(message=message)
        self.update_details(
            "Confirmed instance '%s' vm_state is ACTIVE" % instance_uuid, 1.0)
