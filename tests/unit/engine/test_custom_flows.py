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

"""Custom recovery flows: [taskflow_driver_recovery_flows] task lists,
the ``no_op`` task, skipped names and the read-back order.
"""

from masakari.engine.drivers.taskflow import persistence
from masakari.objects import fields
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
GROUP = 'taskflow_driver_recovery_flows'
NOOP = 'masakari.engine.drivers.taskflow.no_op.Noop'
HOST_TASKS = ['DisableComputeServiceTask', 'PrepareHAEnabledInstancesTask',
              'EvacuateInstancesTask']


def _flow(pre=(), main=(), post=()):
    return {'pre': list(pre), 'main': list(main), 'post': list(post)}


class CustomHostFlowTestCase(base.RecoveryTestCase):

    servers = [base.server('vm')]

    def atoms(self, notification):
        backend = persistence.get_backend(
            self.engine.conf.conf.taskflow.connection)
        book = backend.get_connection().get_logbook(
            notification.notification_uuid)
        return sorted(atom.name for run in book for atom in run)

    def test_no_op_and_unknown_names(self):
        self.config(host_auto_failure_recovery_tasks=_flow(
            ['no_op', 'disable_compute_service_task'],
            ['prepare_HA_enabled_instances_task', 'not_a_task'],
            ['evacuate_instances_task']), group=GROUP)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertIn('Custom task executed successfully..!!',
                      self.engine.logs.output)
        self.assertIn('Could not load not_a_task', self.engine.logs.output)
        self.assertIn(NOOP, self.atoms(notification))
        # No progress recorded by no_op: absent from the read-back.
        self.assertEqual(HOST_TASKS, [name for name, _s, _m in
                                      self.engine.progress(notification)])

    def test_missing_phase_is_a_flow_failure(self):
        self.config(host_auto_failure_recovery_tasks={
            'pre': ['disable_compute_service_task'], 'main': []},
            group=GROUP)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual([], self.nova.nova_requests())
        error = self.engine.rpc.payload_data('notification.process.error')
        self.assertEqual(
            "Failed to execute host failure flow for notification '%s'."
            % notification.notification_uuid,
            error['fault']['masakari_object.data']['exception_message'])

    def test_read_back_follows_the_current_configuration(self):
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.config(host_auto_failure_recovery_tasks=_flow(
            ['disable_compute_service_task'], [],
            ['evacuate_instances_task']), group=GROUP)
        self.assertEqual(['DisableComputeServiceTask',
                          'EvacuateInstancesTask'],
                         [name for name, _s, _m in
                          self.engine.progress(notification)])

    def test_read_back_of_a_priority_method_uses_the_flow_that_ran(self):
        # rh_priority without reserved host runs the auto flow; 22.0.0
        # ordered its tasks by the reserved-host list
        # (doc/source/user/differences/engine.rst).
        self.segment.recovery_method = 'rh_priority'
        self.segment.save()
        self.config(host_rh_failure_recovery_tasks=_flow(
            ['disable_compute_service_task'],
            ['prepare_HA_enabled_instances_task']), group=GROUP)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(HOST_TASKS, [name for name, _s, _m in
                                      self.engine.progress(notification)])


class CustomInstanceFlowTestCase(base.RecoveryTestCase):

    servers = [base.server('vm', host='compute-2')]

    def instance_down(self):
        return self.host_down(type='VM', event='LIFECYCLE',
                              vir_domain_event='STOPPED_FAILED',
                              instance_uuid=self.id_of('vm'))

    def test_only_no_op(self):
        self.config(instance_failure_recovery_tasks=_flow(main=['no_op']),
                    group=GROUP)
        notification = self.instance_down()
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual([], self.nova.nova_requests())
        self.assertEqual([], self.engine.progress(notification))

    def test_unbuildable_flow(self):
        self.config(instance_failure_recovery_tasks={'pre': []}, group=GROUP)
        notification = self.instance_down()
        self.assertEqual(Status.ERROR, notification.status)
        error = self.engine.rpc.payload_data('notification.process.error')
        self.assertEqual(
            "Failed to create instance failure flow for notification '%s'."
            % notification.notification_uuid,
            error['fault']['masakari_object.data']['exception_message'])

    def test_same_task_twice_is_refused(self):
        self.config(instance_failure_recovery_tasks=_flow(
            ['stop_instance_task'], ['stop_instance_task']), group=GROUP)
        notification = self.instance_down()
        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual([], self.nova.nova_requests())
