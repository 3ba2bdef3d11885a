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

"""PROCESS notifications: nova-compute stopped on a host.
"""

from masakari import objects
from masakari.objects import fields
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
SERVICES = 'GET /os-services?host=compute-1&binary=nova-compute'


class ProcessFailureTestCase(base.RecoveryTestCase):

    hosts = ['compute-1', 'compute-2']

    def process_down(self, process_name='nova-compute', event='STOPPED'):
        return self.host_down(type='PROCESS', event=event,
                              process_name=process_name)

    def on_maintenance(self):
        return objects.Host.get_by_name(self.context,
                                        base.FAILED_HOST).on_maintenance

    def test_call_sequence_and_progress(self):
        notification = self.process_down()

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual([
            (SERVICES, None), (SERVICES, None),
            ('PUT /os-services/%s' % self.service_id(base.FAILED_HOST),
             {'status': 'disabled',
              'disabled_reason': 'Masakari detected process failed.'}),
            (SERVICES, None)], self.requests())
        self.assertTrue(self.on_maintenance())
        self.assertEqual([
            ('DisableComputeNodeTask', 'SUCCESS',
             ["Disabling compute service on host: 'compute-1'",
              "Disabled compute service on host: 'compute-1'"]),
            ('ConfirmComputeNodeDisabledTask', 'SUCCESS',
             ["Confirming compute service is disabled on host: "
              "'compute-1'",
              "Confirmed compute service is disabled on host: "
              "'compute-1'"]),
        ], self.engine.progress(notification))
        self.assert_events('notification.process.start', 'host.update.start',
                           'host.update.end', 'notification.process.end')

    def test_already_disabled(self):
        self.nova.update_host(base.FAILED_HOST, status='disabled')
        notification = self.process_down()
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual([SERVICES, SERVICES], self.nova.nova_requests())
        self.assertEqual(
            ["Disabling compute service on host: 'compute-1'",
             'Skipping recovery for process nova-compute as it is already '
             'disabled'],
            self.messages(notification)['DisableComputeNodeTask'])

    def test_other_process_only_sets_maintenance(self):
        notification = self.process_down('libvirtd')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual([], self.nova.nova_requests())
        self.assertTrue(self.on_maintenance())
        self.assertEqual([], self.engine.progress(notification))

    def test_started(self):
        notification = self.process_down(event='started')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertFalse(self.on_maintenance())
        self.assert_events('notification.process.start',
                           'notification.process.end')

    def test_unknown_event(self):
        notification = self.process_down(event='PAUSED')
        self.assertEqual(Status.IGNORED, notification.status)
        self.assertFalse(self.on_maintenance())
        self.assert_events('notification.process.start',
                           'notification.process.end')

    def test_disable_not_confirmed(self):
        self.config(wait_period_after_service_update=0)
        self.nova.add_fault(method='PUT', path='/os-services/*', status=500,
                            message='down')
        notification = self.process_down()
        self.assertEqual(Status.ERROR, notification.status)
        error = self.engine.rpc.payload_data('notification.process.error')
        # NOTE: "instance" (sic) in the reference's text.
        self.assertEqual(
            "Failed to execute instance failure flow for notification "
            "'%s'." % notification.notification_uuid,
            error['fault']['masakari_object.data']['exception_message'])

    def test_confirmation_timeout(self):
        # A flow that only waits: Nova never shows the service disabled.
        self.config(wait_period_after_service_update=0)
        self.config(process_failure_recovery_tasks={
            'pre': [], 'main': ['confirm_compute_node_disabled_task'],
            'post': []}, group='taskflow_driver_recovery_flows')
        notification = self.process_down()
        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual(
            [('ConfirmComputeNodeDisabledTask', 'REVERTED',
              ["Confirming compute service is disabled on host: "
               "'compute-1'", 'Failed to disable service nova-compute'])],
            self.engine.progress(notification))
        error = self.engine.rpc.payload_data('notification.process.error')
        self.assertEqual(
            'Failed to disable service nova-compute',
            error['fault']['masakari_object.data']['exception_message'])
