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

"""The engine's evacuation budget: fairness, AIMD back-off and recovery,
the engines' shares, and the host failure flow drawing from it.
"""

from unittest import mock

from novaclient import exceptions as nova_exceptions
import testtools

from masakari.engine import evacuation_budget
from masakari.engine import manager as engine_manager
from masakari import exception
from tests.fixtures import clock
from tests.unit.engine import recovery_base as base


class BudgetTestCase(testtools.TestCase):

    def budget(self, size):
        self.clock = clock.FakeClock()
        return evacuation_budget.EvacuationBudget(size, self.clock)

    def served(self, budget, slots, count, seconds=1.0):
        """End the oldest running slot ``count`` times; returns the names
        of the slots granted meanwhile, in order.
        """
        seen = {name for name, slot in slots.items()
                if budget.granted(slot)}
        running = [name for name in seen if not slots[name].released]
        running.sort(key=list(slots).index)
        order = []
        for _ in range(count):
            self.clock.now += seconds
            budget.release(slots[running.pop(0)], succeeded=True)
            for name, slot in slots.items():
                if budget.granted(slot) and name not in seen:
                    seen.add(name)
                    order.append(name)
                    running.append(name)
        return order

    def test_round_robin_by_host_in_each_host_order(self):
        budget = self.budget(1)
        slots = {}
        for name in ('a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'c1'):
            slots[name] = budget.enter(name[0])
        self.assertEqual(['a1'], [name for name, slot in slots.items()
                                  if budget.granted(slot)])
        # NOTE: host a asked for four slots first and had one: b and c
        # are served first, then round robin: no host starves behind a
        # big one.
        self.assertEqual(['b1', 'c1', 'a2', 'b2', 'a3', 'a4'],
                         self.served(budget, slots, 6))

    def test_hosts_a_moment_late_catch_up_with_the_first(self):
        budget = self.budget(2)
        slots = {name: budget.enter(name[0]) for name in
                 ('a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'b3', 'b4')}
        # a took the whole window before b came: b has two first.
        self.assertEqual(['b1', 'b2', 'a3', 'b3', 'a4', 'b4'],
                         self.served(budget, slots, 6))

    def test_a_late_host_is_ahead_by_one_window_at_most(self):
        budget = self.budget(1)
        slots = {'a%d' % number: budget.enter('a')
                 for number in range(1, 7)}
        self.served(budget, slots, 3)
        # a had 4 slots, b counts as having had 3.
        for number in range(1, 4):
            slots['b%d' % number] = budget.enter('b')
        self.assertEqual(['b1', 'a5', 'b2', 'a6', 'b3'],
                         self.served(budget, slots, 5))

    def test_never_more_than_the_window(self):
        budget = self.budget(3)
        self.assertEqual(3, budget.free())
        slots = {name: budget.enter(name[0]) for name in
                 ('a1', 'a2', 'b1', 'b2', 'c1', 'c2')}
        self.assertEqual(0, budget.free())
        # Free slots are taken at once: a1, a2, b1 run; the others wait,
        # c first (it had none).
        self.assertEqual(3, budget.in_use)
        self.assertEqual(['c1', 'b2'], self.served(budget, slots, 2))
        self.assertEqual(3, budget.in_use)

    def test_overload_halves_once_per_hold_then_grows_back(self):
        budget = self.budget(8)
        budget.window.overloaded()
        self.assertEqual(4, budget.window.slots())
        # The same burst of answers: within FIRST_HOLD, no second halving.
        self.clock.now += evacuation_budget.FIRST_HOLD / 2
        budget.window.overloaded()
        self.assertEqual(4, budget.window.slots())
        for expected in (2, 1, 1):
            self.clock.now += evacuation_budget.FIRST_HOLD
            budget.window.overloaded()
            self.assertEqual(expected, budget.window.slots())
        # Grows by one per evacuation ended in time, up to the budget.
        sizes = []
        for _ in range(9):
            slot = budget.enter('a')
            self.clock.now += 1.0
            budget.release(slot, succeeded=True)
            sizes.append(budget.window.slots())
        self.assertEqual([2, 3, 4, 5, 6, 7, 8, 8, 8], sizes)

    def test_halved_window_holds_back_the_waiting(self):
        budget = self.budget(4)
        slots = {name: budget.enter(name[0]) for name in
                 ('a1', 'b1', 'c1', 'd1', 'a2', 'b2')}
        budget.window.overloaded()
        # 4 running, window 2: two must end before a2 gets a slot.
        self.clock.now += 1
        budget.release(slots['a1'], succeeded=False)
        budget.release(slots['b1'], succeeded=False)
        self.assertFalse(budget.granted(slots['a2']))
        budget.release(slots['c1'], succeeded=False)
        self.assertTrue(budget.granted(slots['a2']))
        self.assertFalse(budget.granted(slots['b2']))

    def test_slow_evacuation_halves_failed_one_changes_nothing(self):
        budget = self.budget(8)
        for _ in range(evacuation_budget.MIN_SAMPLES):
            slot = budget.enter('a')
            self.clock.now += 1.0
            budget.release(slot, succeeded=True)
        self.assertEqual(1.0, budget.window.baseline())
        slot = budget.enter('a')
        self.clock.now += 0.01
        budget.release(slot, succeeded=False)
        self.assertEqual((8, 1.0), (budget.window.slots(),
                                    budget.window.baseline()))
        slot = budget.enter('a')
        self.clock.now += evacuation_budget.SLOW_FACTOR * 1.0 + 0.5
        budget.release(slot, succeeded=True)
        self.assertEqual(4, budget.window.slots())
        slot = budget.enter('a')
        self.clock.now += 2.0
        budget.release(slot, succeeded=True)
        self.assertEqual(5, budget.window.slots())

    def test_engines_share_the_budget(self):
        budget = self.budget(10)
        budget.share(3)
        self.assertEqual(3, budget.window.slots())
        budget.share(20)
        self.assertEqual(1, budget.window.slots())
        budget.share(None)
        slot = budget.enter('a')
        budget.release(slot, succeeded=True)
        self.assertEqual(2, budget.window.slots())
        self.assertEqual(10, budget.window.limit)


class RequestTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.budget = evacuation_budget.EvacuationBudget(8, clock.FakeClock())
        self.sleeps = []
        patcher = mock.patch.object(evacuation_budget.time, 'sleep',
                                    side_effect=self.sleeps.append)
        patcher.start()
        self.addCleanup(patcher.stop)

    def request(self, call):
        slot = self.budget.acquire('a')
        with evacuation_budget.holding(self.budget, slot):
            return evacuation_budget.request(call), slot

    def test_overloaded_nova_is_asked_again_with_a_slot_again(self):
        answers = [nova_exceptions.OverLimit(429), self._unavailable(),
                   'accepted']
        granted = []

        def call():
            granted.append(self.budget.in_use)
            answer = answers.pop(0)
            if isinstance(answer, Exception):
                raise answer
            return answer

        answer, slot = self.request(call)
        self.assertEqual('accepted', answer)
        self.assertEqual([evacuation_budget.RETRY_PAUSE] * 2, self.sleeps)
        # The slot was given back and granted again before each request.
        self.assertEqual([1, 1, 1], granted)
        self.assertTrue(self.budget.granted(slot))
        # Both answers within FIRST_HOLD (the fake clock stands): one
        # halving.
        self.assertEqual(4, self.budget.window.slots())

    def test_the_slot_is_given_back_once_the_evacuation_is_confirmed(self):
        slot, *_others = [self.budget.acquire('a') for _ in range(
            self.budget.window.slots())]
        waiting = self.budget.enter('b')
        self.assertFalse(self.budget.granted(waiting))
        with evacuation_budget.holding(self.budget, slot):
            evacuation_budget.evacuated()
            # The stop and unlock that may follow hold no slot.
            self.assertTrue(self.budget.granted(waiting))
        in_use = self.budget.in_use
        # The end of the procedure releases it again: nothing changes.
        self.budget.release(slot, True)
        self.assertEqual(in_use, self.budget.in_use)

    def test_other_errors_are_not_retried(self):
        call = mock.Mock(side_effect=exception.Conflict())
        self.assertRaises(exception.Conflict, self.request, call)
        self.assertEqual(1, call.call_count)

    def test_no_answer_is_not_an_overload(self):
        # NOTE: its code is 503, but Nova may have accepted the request.
        call = mock.Mock(side_effect=exception.NovaUnreachable(
            reason='timed out'))
        self.assertRaises(exception.NovaUnreachable, self.request, call)
        self.assertEqual(1, call.call_count)

    def test_without_budget_an_overload_fails_at_once(self):
        call = mock.Mock(side_effect=nova_exceptions.OverLimit(429))
        self.assertRaises(nova_exceptions.OverLimit,
                          evacuation_budget.request, call)
        self.assertEqual(1, call.call_count)

    def test_requeued_slot_is_first_of_its_host(self):
        budget = evacuation_budget.EvacuationBudget(1, clock.FakeClock())
        a1 = budget.enter('a')
        a2 = budget.enter('a')
        b1 = budget.enter('b')
        budget.requeue(a1)
        # The refused one does not count as served: a and b are even, a
        # asked first; a's refused one goes before a2.
        self.assertEqual((True, False, False), (
            budget.granted(a1), budget.granted(a2), budget.granted(b1)))
        budget.release(a1, succeeded=False)
        self.assertEqual((False, True), (budget.granted(a2),
                                         budget.granted(b1)))
        budget.release(b1, succeeded=False)
        self.assertTrue(budget.granted(a2))

    @staticmethod
    def _unavailable():
        try:
            raise nova_exceptions.ClientException(503)
        except nova_exceptions.ClientException as error:
            try:
                raise exception.MasakariException(str(error)) from error
            except exception.MasakariException as translated:
                return translated


class HostFailureFlowTestCase(base.RecoveryTestCase):
    """The flow draws one slot per move, named by its failed host."""

    servers = [base.server('vm-%d' % number) for number in range(3)]

    def setUp(self):
        super().setUp()
        self.addCleanup(evacuation_budget.forget)

    def test_budget_set_every_move_draws_a_slot_of_its_host(self):
        self.config(max_concurrent_evacuations=2, group='host_failure')
        acquire = mock.Mock(
            wraps=evacuation_budget.current().acquire)
        with mock.patch.object(evacuation_budget.current(), 'acquire',
                               acquire):
            notification = self.host_down()
        self.assertEqual('finished', notification.status)
        self.assertEqual([mock.call(base.FAILED_HOST)] * 3,
                         acquire.call_args_list)
        self.assertEqual(0, evacuation_budget.current().in_use)

    def test_budget_unset_no_budget(self):
        self.assertIsNone(evacuation_budget.current())
        notification = self.host_down()
        self.assertEqual('finished', notification.status)

    def test_the_watch_shares_the_budget_between_the_engines(self):
        self.config(max_concurrent_evacuations=10, group='host_failure')
        evacuation_budget.engines_in_group(3)
        self.assertEqual(3, evacuation_budget.current().window.slots())
        evacuation_budget.engines_in_group(None)
        self.assertEqual(10, evacuation_budget.current().window.limit)

    def test_each_watch_round_shares_by_the_engines_in_the_group(self):
        self.config(max_concurrent_evacuations=10, group='host_failure')
        self.config(lease_timeout=30, group='takeover')
        watch = engine_manager.MasakariManager().watch
        watch.members = mock.Mock(**{'count.return_value': 4,
                                     'alive.return_value': True})
        watch.watch_round()
        self.assertEqual(2, evacuation_budget.current().window.slots())
