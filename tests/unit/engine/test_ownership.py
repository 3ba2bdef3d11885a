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

"""The lease of a recovery and its fencing token
(masakari/engine/ownership.py): an engine frozen past its lease, whose
recovery a peer took over, acts no more once it thaws.
"""

import functools
from unittest import mock

import fixtures

from masakari.compute import nova
from masakari.engine import evacuation_budget
from masakari.engine import ownership
from masakari import exception
from masakari import objects
from masakari.objects import fields
from tests.fixtures import clock
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
LEASE = 30


class LeaseTestCase(base.RecoveryTestCase):

    def setUp(self):
        super().setUp()
        self.clock = clock.FakeClock()
        self.notification = self.engine.create_notification(self.host)
        self.assertTrue(self.notification.transition_status(Status.NEW,
                                                            Status.RUNNING))
        self.lease = ownership.Lease(self.notification, LEASE, self.clock)
        self.logs = self.useFixture(fixtures.FakeLogger())

    def take_over(self):
        """A peer takes the recovery over (the token moves on)."""
        stored = self.engine.reload(self.notification)
        self.assertTrue(stored.take_over(stored.updated_at))

    def test_a_young_confirmation_costs_nothing(self):
        with mock.patch.object(objects.Notification, 'take_over') as cas:
            self.clock.now += LEASE / 3 - 1
            self.lease.confirm()
        cas.assert_not_called()

    def test_an_older_one_renews_the_token(self):
        first = self.lease.generation
        self.clock.now += LEASE / 3
        self.lease.confirm()
        self.assertGreater(self.lease.generation, first)
        self.assertEqual(self.lease.generation,
                         self.engine.reload(self.notification).updated_at)

    def test_a_lease_taken_over_is_lost_at_the_next_confirmation(self):
        self.take_over()
        taken = self.engine.reload(self.notification).updated_at
        self.clock.now += LEASE / 3
        self.assertRaises(exception.RecoveryLost, self.lease.confirm)
        with mock.patch.object(objects.Notification, 'take_over') as cas:
            self.assertRaises(exception.RecoveryLost, self.lease.confirm)
            self.assertFalse(self.lease.renew())
        cas.assert_not_called()
        self.assertEqual(taken,
                         self.engine.reload(self.notification).updated_at)
        self.assertEqual(1, self.logs.output.count('took this recovery '
                                                   'over'))

    def test_the_watch_s_renewal_finds_the_loss_too(self):
        self.assertTrue(self.lease.renew())
        self.take_over()
        self.assertFalse(self.lease.renew())
        self.assertRaises(exception.RecoveryLost, self.lease.confirm)

    def test_the_recovery_s_own_writes_keep_the_token(self):
        context = self.context.for_recovery(self.lease)
        stored = objects.Notification.get_by_uuid(
            context, self.notification.notification_uuid)
        stored.message = 'held'
        stored.save()
        self.assertEqual(stored.updated_at, self.lease.generation)
        self.clock.now += LEASE
        self.lease.confirm()
        stored.status = Status.FINISHED
        stored.save()
        self.assertEqual(Status.FINISHED,
                         self.engine.reload(self.notification).status)

    def test_a_final_status_is_not_written_over_the_new_owner_s(self):
        context = self.context.for_recovery(self.lease)
        stored = objects.Notification.get_by_uuid(
            context, self.notification.notification_uuid)
        self.take_over()
        stored.status = Status.ERROR
        self.assertRaises(exception.RecoveryLost, stored.save)
        self.assertEqual(Status.RUNNING,
                         self.engine.reload(self.notification).status)


class FrozenEngineTestCase(base.RecoveryTestCase):
    """The owner freezes right after asking Nova for the first evacuation;
    a peer takes the recovery over; the owner thaws.
    """

    servers = [base.server('vm-%d' % number) for number in range(4)]

    def setUp(self):
        super().setUp()
        self.config(lease_timeout=LEASE, group='takeover')
        self.config(host_failure_recovery_threads=1)
        self.clock = clock.FakeClock()
        self.useFixture(fixtures.MockPatchObject(
            ownership, 'Lease',
            functools.partial(ownership.Lease, clock=self.clock)))
        self.logs = self.useFixture(fixtures.FakeLogger())

    def test_a_thawed_engine_makes_no_call_and_no_write(self):
        notification = self.engine.create_notification(self.host)
        frozen_at = []
        evacuate = nova.API.evacuate_instance

        def freeze_then_evacuate(api, context, uuid, target=None):
            if not frozen_at:
                # Frozen for twice the lease; meanwhile the peer took
                # the recovery over.
                self.clock.now += 2 * LEASE
                stored = self.engine.reload(notification)
                self.assertTrue(stored.take_over(stored.updated_at))
                frozen_at.append(len(self.nova.nova_requests()))
            return evacuate(api, context, uuid, target)

        with mock.patch.object(nova.API, 'evacuate_instance', autospec=True,
                               side_effect=freeze_then_evacuate):
            self.manager.process_notification(self.context, notification)

        self.assertEqual([], self.nova.nova_requests()[frozen_at[0]:])
        stored = self.engine.reload(notification)
        self.assertEqual(Status.RUNNING, stored.status)
        # The first move was recorded ongoing before the freeze; nothing
        # is recorded after it.
        self.assertEqual(['ongoing', 'pending', 'pending', 'pending'],
                         sorted(move.status for move in
                                self.engine.vmoves(notification)))
        self.assertEqual(1, self.logs.output.count('took this recovery '
                                                   'over'))
        self.assertNotIn('Traceback', self.logs.output)


class FrozenEngineWithABudgetTestCase(FrozenEngineTestCase):
    """The same with the engine's evacuation budget: the lost recovery
    gives its slots back.
    """

    def setUp(self):
        super().setUp()
        self.config(max_concurrent_evacuations=1, group='host_failure')
        self.addCleanup(evacuation_budget.forget)

    def test_a_thawed_engine_makes_no_call_and_no_write(self):
        super().test_a_thawed_engine_makes_no_call_and_no_write()
        self.assertEqual(0, evacuation_budget.current().in_use)
