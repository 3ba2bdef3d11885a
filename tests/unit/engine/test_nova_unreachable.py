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

"""A recovery that fails because Nova does not answer says so: in the
failed task's progress, in the log and in the vmove (22.0.0 said "An
unknown exception occurred.").
"""

from masakari.objects import fields
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
UNREACHABLE = 'Nova could not be reached or did not answer in time: '


class NovaUnreachableTestCase(base.RecoveryTestCase):

    servers = [base.server('vm')]

    def setUp(self):
        super().setUp()
        self.config(nova_api_timeout=1.0)

    def test_a_hung_service_call_is_named_in_the_progress(self):
        self.nova.add_fault(method='PUT', path='/os-services/*', hang=5)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.ERROR, notification.status)
        [(name, state, messages)] = self.engine.progress(notification)
        self.assertEqual(('DisableComputeServiceTask', 'REVERTED'),
                         (name, state))
        self.assertTrue(messages[-1].startswith(UNREACHABLE), messages)
        self.assertIn("Task 'DisableComputeServiceTask' failed: "
                      + UNREACHABLE, self.engine.logs.output)

    def test_a_hung_evacuation_is_named_in_the_vmove(self):
        self.nova.add_fault(method='POST', path='/servers/*/action',
                            action='evacuate', hang=5)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.ERROR, notification.status)
        [move] = self.engine.vmoves(notification)
        self.assertEqual('failed', move.status)
        self.assertTrue(move.message.startswith(UNREACHABLE), move.message)
