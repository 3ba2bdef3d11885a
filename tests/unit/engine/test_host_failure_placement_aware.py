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

"""Host failure with [host_failure]/placement_aware: evacuations in
priority order to planned hosts, no request for servers without room,
re-planning when Nova refuses a target, reserved hosts taken only when
the plan puts servers on them.
"""

from masakari.engine import evacuation_budget
from masakari import objects
from masakari.objects import fields
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
# Room for two m1.medium servers (2 VCPU, 4096 MB, 40 GB each).
TWO_MEDIUM = {'VCPU': 4, 'MEMORY_MB': 8192, 'DISK_GB': 100}
ONE_MEDIUM = {'VCPU': 2, 'MEMORY_MB': 4096, 'DISK_GB': 40}


def medium(name, priority):
    return base.server(name, flavor='m1.medium',
                       metadata=dict(base.HA, HA_Priority=str(priority)))


class PlacementAwareTestCase(base.RecoveryTestCase):

    def setUp(self):
        super().setUp()
        self.config(placement_aware=True, group='host_failure')

    def evacuations(self):
        """(server name, evacuate body) of each evacuation, in order."""
        names = {self.id_of(server['name']): server['name']
                 for server in self.servers}
        return [(names[server_id], body['evacuate'])
                for server_id, body in self.nova.nova_actions()
                if 'evacuate' in body]

    def statuses(self, notification):
        return {move.instance_name: (move.status, move.dest_host)
                for move in self.engine.vmoves(notification)}


class AutoTestCase(PlacementAwareTestCase):

    hosts = [{'name': base.FAILED_HOST, 'state': 'down'},
             {'name': 'compute-2', 'resources': TWO_MEDIUM},
             {'name': 'compute-3', 'resources': TWO_MEDIUM}]
    servers = [medium('low', 1), medium('high', 9), medium('mid', 5),
               medium('top', 10)]

    def setUp(self):
        super().setUp()
        for name in ('compute-2', 'compute-3'):
            self.engine.create_host(self.segment, name=name)

    def test_everything_fits_in_priority_order_to_planned_hosts(self):
        # One at a time: the requests come in the order handed over.
        self.config(host_failure_recovery_threads=1)
        notification = self.host_down()

        self.assertEqual(Status.FINISHED, notification.status)
        # First fit by priority: compute-2 takes the two highest.
        self.assertEqual([('top', {'host': 'compute-2'}),
                          ('high', {'host': 'compute-2'}),
                          ('mid', {'host': 'compute-3'}),
                          ('low', {'host': 'compute-3'})],
                         self.evacuations())
        self.assertEqual({'top': ('succeeded', 'compute-2'),
                          'high': ('succeeded', 'compute-2'),
                          'mid': ('succeeded', 'compute-3'),
                          'low': ('succeeded', 'compute-3')},
                         self.statuses(notification))
        messages = self.messages(notification)['EvacuateInstancesTask']
        self.assertIn("Planned targets of the instances of host "
                      "'compute-1': '%s' -> 'compute-2', '%s' -> "
                      "'compute-2', '%s' -> 'compute-3', '%s' -> "
                      "'compute-3'" % tuple(self.id_of(name) for name in
                                            ('top', 'high', 'mid', 'low')),
                      messages)
        self.assertEqual('Evacuation process completed!', messages[-1])

    def test_with_the_budget_the_plan_s_priority_order(self):
        # One slot of the engine's budget (per-host threads left at 3):
        # the requests come in the plan's order.
        self.config(max_concurrent_evacuations=1, group='host_failure')
        self.addCleanup(evacuation_budget.forget)
        notification = self.host_down()

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(['top', 'high', 'mid', 'low'],
                         [name for name, _body in self.evacuations()])

    def test_without_room_the_lowest_are_named_and_never_requested(self):
        self.nova.update_host('compute-3', resources=ONE_MEDIUM)
        notification = self.host_down()

        self.assertEqual(Status.ERROR, notification.status)
        self.assertEqual(sorted([('top', {'host': 'compute-2'}),
                                 ('high', {'host': 'compute-2'}),
                                 ('mid', {'host': 'compute-3'})]),
                         sorted(self.evacuations()))
        self.assertEqual({'top': ('succeeded', 'compute-2'),
                          'high': ('succeeded', 'compute-2'),
                          'mid': ('succeeded', 'compute-3'),
                          'low': ('ignored', None)},
                         self.statuses(notification))
        [low] = [move for move in self.engine.vmoves(notification)
                 if move.instance_name == 'low']
        self.assertIn('No room', low.message)
        self.assertEqual('compute-1', self.nova.server('low')['host'])
        self.assertEqual('active', self.nova.server('low')['vm_state'])
        message = ("No room in the failover segment for 1 instances of "
                   "host 'compute-1': '%s'" % self.id_of('low'))
        self.assertIn(message,
                      self.messages(notification)['EvacuateInstancesTask'])

    def test_a_refused_target_is_planned_again(self):
        # Nova's scheduler refuses a second server on compute-2 (a filter
        # Placement does not know about): NoValidHost for 'high'.
        self.config(host_failure_recovery_threads=1)
        self.nova.cloud.capacities['compute-2'] = 1
        self.nova.update_host('compute-3',
                              resources={'VCPU': 8, 'MEMORY_MB': 16384,
                                         'DISK_GB': 200})
        notification = self.host_down()

        self.assertEqual(Status.FINISHED, notification.status)
        # The others go to compute-3 first once compute-2 refused one;
        # 'high' is asked again, elsewhere, after its state was reset.
        self.assertEqual([('top', {'host': 'compute-2'}),
                          ('high', {'host': 'compute-2'}),
                          ('mid', {'host': 'compute-3'}),
                          ('low', {'host': 'compute-3'}),
                          ('high', {'host': 'compute-3'})],
                         self.evacuations())
        self.assertIn({'os-resetState': {'state': 'active'}},
                      self.server_calls('high'))
        high = [(move.status, move.dest_host)
                for move in self.engine.vmoves(notification)
                if move.instance_name == 'high']
        self.assertEqual([('failed', None), ('succeeded', 'compute-3')],
                         high)
        server = self.nova.server('high')
        self.assertEqual(('compute-3', 'active'),
                         (server['host'], server['vm_state']))
        self.assertIn("Evacuation of instance '%s' to host 'compute-2' "
                      "failed" % self.id_of('high'),
                      self.messages(notification)['EvacuateInstancesTask'])

    def test_without_placement_nova_picks(self):
        self.nova.add_fault(service='placement', status=503)
        notification = self.host_down()

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual([{}] * 4,
                         [body for _name, body in self.evacuations()])
        self.assertIn("Failover capacity not read (Service Unavailable "
                      "(HTTP 503)): Nova's scheduler picks the targets",
                      self.messages(notification)['EvacuateInstancesTask'])


class DefaultTestCase(base.RecoveryTestCase):
    """Without the option: no Placement request, Nova picks."""

    servers = [medium('vm', 3)]

    def test_no_placement_request(self):
        notification = self.host_down()
        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual([], self.nova.calls('placement'))
        self.assertIn({'evacuate': {}}, self.server_calls('vm'))


class ReservedHostTestCase(PlacementAwareTestCase):
    """reserved-2 is tried first (the newest record)."""

    recovery_method = 'reserved_host'
    hosts = [{'name': base.FAILED_HOST, 'state': 'down'},
             {'name': 'reserved-1', 'status': 'disabled',
              'resources': TWO_MEDIUM},
             {'name': 'reserved-2', 'status': 'disabled',
              'resources': ONE_MEDIUM}]
    servers = [medium('low', 1), medium('high', 9), medium('mid', 5)]

    def setUp(self):
        super().setUp()
        for name in ('reserved-1', 'reserved-2'):
            self.engine.create_host(self.segment, name=name, reserved=True)

    def test_each_reserved_host_takes_what_fits(self):
        notification = self.host_down()

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(sorted([('high', {'host': 'reserved-2'}),
                                 ('mid', {'host': 'reserved-1'}),
                                 ('low', {'host': 'reserved-1'})]),
                         sorted(self.evacuations()))
        self.assertEqual({'high': ('succeeded', 'reserved-2'),
                          'mid': ('succeeded', 'reserved-1'),
                          'low': ('succeeded', 'reserved-1')},
                         self.statuses(notification))
        messages = self.messages(notification)['EvacuateInstancesTask']
        self.assertIn("No room on reserved host 'reserved-2' for 2 "
                      "instances of host 'compute-1': '%s,%s'"
                      % (self.id_of('mid'), self.id_of('low')), messages)

    def test_a_reserved_host_without_room_is_not_taken(self):
        self.nova.update_host('reserved-2', resources={'VCPU': 1})
        self.nova.update_host('reserved-1', resources={'VCPU': 6})
        notification = self.host_down()

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual({'reserved-1'}, {
            body['host'] for _name, body in self.evacuations()})
        self.assertEqual({'reserved-2': True, 'reserved-1': False}, {
            name: objects.Host.get_by_name(self.context, name).reserved
            for name in ('reserved-1', 'reserved-2')})
        self.assertEqual('disabled',
                         self.nova.service('reserved-2')['status'])


class AutoPriorityTestCase(PlacementAwareTestCase):
    """The auto workflow takes what fits, the reserved-host one the rest:
    as the what-if of the segment plans it (auto hosts, then reserved).
    """

    recovery_method = 'auto_priority'
    hosts = [{'name': base.FAILED_HOST, 'state': 'down'},
             {'name': 'compute-2', 'resources': TWO_MEDIUM},
             {'name': 'reserved-1', 'status': 'disabled',
              'resources': TWO_MEDIUM}]
    servers = [medium('low', 1), medium('high', 9), medium('mid', 5),
               medium('top', 10)]

    def setUp(self):
        super().setUp()
        self.engine.create_host(self.segment, name='compute-2')
        self.engine.create_host(self.segment, name='reserved-1',
                                reserved=True)

    def test_no_evacuation_fails(self):
        notification = self.host_down()

        self.assertEqual(Status.FINISHED, notification.status)
        self.assertEqual(sorted([('top', {'host': 'compute-2'}),
                                 ('high', {'host': 'compute-2'}),
                                 ('mid', {'host': 'reserved-1'}),
                                 ('low', {'host': 'reserved-1'})]),
                         sorted(self.evacuations()))
        self.assertEqual(
            sorted(['succeeded'] * 4 + ['ignored'] * 2),
            sorted(move.status for move in self.engine.vmoves(notification)))
