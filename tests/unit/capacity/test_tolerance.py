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

"""Failures tolerated against a brute-force count on random small
segments (a property test), spare room and the worst host.
"""

import itertools

import hypothesis
from hypothesis import strategies
import testtools

from masakari.capacity import model
from masakari.capacity import tolerance
from tests.unit.capacity import test_packing

METHODS = ('auto', 'reserved_host', 'auto_priority', 'rh_priority')


def brute_force(segment):
    """Failures tolerated by definition: every set of failed hosts, by
    size, until one leaves a server without room.
    """
    names = [host.name for host in segment.failing()]
    for size in range(1, len(names) + 1):
        for failed in itertools.combinations(names, size):
            if not tolerance.fits(segment, failed):
                return size - 1
    return len(names)


@strategies.composite
def segments(draw):
    hosts = []
    for number in range(draw(strategies.integers(1, 6))):
        vcpu, memory = (draw(strategies.integers(0, 8)) for _ in range(2))
        item = test_packing.host(
            'h%d' % number, vcpu=vcpu, memory=memory,
            used=(draw(strategies.integers(0, vcpu)),
                  draw(strategies.integers(0, memory))),
            reserved=draw(strategies.booleans()),
            on_maintenance=draw(strategies.integers(0, 5)) == 0,
            service_enabled=draw(strategies.integers(0, 4)) > 0)
        item.max_unit['VCPU'] = draw(strategies.integers(1, max(vcpu, 1)))
        item.servers = [
            test_packing.server(
                'h%d-s%d' % (number, index),
                draw(strategies.integers(0, 4)),
                draw(strategies.integers(0, 4)),
                priority=draw(strategies.integers(0, 2)),
                ha_enabled=draw(strategies.booleans()),
                source=item.name)
            for index in range(draw(strategies.integers(0, 4)))]
        hosts.append(item)
    reserved = [item.name for item in hosts if item.reserved]
    return model.Segment(
        name='s', uuid='u', recovery_method=draw(strategies.sampled_from(
            METHODS)), hosts={item.name: item for item in hosts},
        reserved_order=draw(strategies.permutations(reserved)))


class TestFailuresTolerated(testtools.TestCase):

    @hypothesis.settings(max_examples=300, deadline=None)
    @hypothesis.given(segments())
    def test_equals_the_brute_force_count(self, segment):
        found = tolerance.failures_tolerated(segment)
        self.assertEqual((brute_force(segment), True),
                         (found.count, found.exact))
        if found.worst:
            self.assertEqual(found.count + 1, len(found.worst))
            self.assertFalse(tolerance.fits(segment, found.worst))

    @hypothesis.settings(max_examples=300, deadline=None)
    @hypothesis.given(segments())
    def test_the_bound_never_claims_too_much(self, segment):
        self.assertLessEqual(tolerance._Search(segment, 0).proven_size(),
                             brute_force(segment))

    @hypothesis.settings(max_examples=300, deadline=None)
    @hypothesis.given(segments())
    def test_past_the_budget_a_lower_bound_or_exact(self, segment):
        found = tolerance.failures_tolerated(segment, budget=0)
        exact = brute_force(segment)
        self.assertLessEqual(found.count, exact)
        if found.exact:
            self.assertEqual(exact, found.count)
        if found.worst:
            self.assertFalse(tolerance.fits(segment, found.worst))
            self.assertLessEqual(exact, len(found.worst) - 1)

    def test_an_empty_segment_tolerates_every_failure(self):
        segment = test_packing.segment('auto', test_packing.host('a'),
                                       test_packing.host('b'))
        self.assertEqual((2, True, ()),
                         tuple(tolerance.failures_tolerated(segment)))

    def test_the_first_failing_set_is_reported(self):
        segment = test_packing.segment(
            'auto', test_packing.host('a', vcpu=4, servers=[
                test_packing.server('a1', 2, source='a')]),
            test_packing.host('b', vcpu=4, servers=[
                test_packing.server('b1', 2, source='b')]),
            test_packing.host('c', vcpu=2))
        found = tolerance.failures_tolerated(segment)
        self.assertEqual((1, True), (found.count, found.exact))
        self.assertEqual(2, len(found.worst))


class TestSummaries(testtools.TestCase):

    def segment(self):
        return test_packing.segment(
            'auto',
            test_packing.host('a', vcpu=4, memory=8, used=(3, 1), servers=[
                test_packing.server('a%d' % n, 2, source='a')
                for n in range(3)]),
            test_packing.host('b', vcpu=4, memory=8, used=(1, 1), servers=[
                test_packing.server('b1', source='b')]),
            test_packing.host('r', reserved=True))

    def test_spare_is_the_room_on_the_hosts_filled(self):
        self.assertEqual({'VCPU': 4, 'MEMORY_MB': 14},
                         tolerance.spare(self.segment()))

    def test_worst_host_leaves_the_most_servers_without_room(self):
        # b has room for one of a's three servers; a for b's one.
        name, left = tolerance.worst_host(self.segment())
        self.assertEqual(('a', ['a1', 'a2']),
                         (name, [item.id for item in left]))

    def test_no_worst_host_when_everything_fits(self):
        roomy = test_packing.segment(
            'auto', test_packing.host('a', servers=[
                test_packing.server('a1', source='a')]),
            test_packing.host('b'))
        self.assertEqual((None, []), tolerance.worst_host(roomy))
