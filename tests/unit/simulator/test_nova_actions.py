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

"""The simulated Nova: server actions and their asynchronous outcomes."""


from tests.fixtures import polling
from tests.unit.simulator import base

DELAY = 0.2


class ActionsTestCase(base.SimulatorTestCase):

    def topology(self):
        topology = super().topology()
        topology['hosts'] = [
            {'name': 'compute-1', 'state': 'down'}, 'compute-2',
            'compute-3', {'name': 'reserved', 'status': 'disabled'},
            {'name': 'dead', 'state': 'down'}]
        topology['servers'] = [
            {'name': 'active', 'host': 'compute-1'},
            {'name': 'stopped', 'host': 'compute-1', 'vm_state': 'stopped'},
            {'name': 'error', 'host': 'compute-1', 'vm_state': 'error'},
            {'name': 'paused', 'host': 'compute-1', 'vm_state': 'paused'},
            {'name': 'broken', 'host': 'compute-1', 'fail_evacuate': True},
            {'name': 'busy', 'host': 'compute-2', 'count': 2},
            {'name': 'alive', 'host': 'compute-3'},
            {'name': 'mine', 'host': 'compute-3', 'locked': True},
        ]
        return topology

    def state(self, name, *keys):
        server = self.server(self.server_id(name))
        return tuple(server[key] for key in keys)

    def wait_for(self, name, key, value, timeout=3):
        polling.wait_until(
            lambda: self.server(self.server_id(name))[key] == value,
            timeout, interval=0.02,
            message='%s never got %s=%s' % (name, key, value))

    def test_lock_and_unlock(self):
        server_id = self.server_id('alive')
        self.assertEqual(202, self.action(server_id, {'lock': None})
                         .status_code)
        self.assertEqual((True,), self.state('alive', 'locked'))
        # A locked server still takes admin actions.
        self.assertEqual(202, self.action(server_id, {'os-stop': None})
                         .status_code)
        self.assertEqual(202, self.action(server_id, {'unlock': None})
                         .status_code)
        self.assertEqual((False,), self.state('alive', 'locked'))

    def test_locked_server_refuses_its_owner(self):
        self.cloud.add_servers([{'name': 'own', 'host': 'compute-3',
                                 'locked': True}])
        self.assertFault(
            self.action(self.server_id('own'), {'os-stop': None},
                        user=base.MEMBER), 409, 'conflictingRequest',
            'Instance %s is locked' % self.server_id('own'))
        self.assertEqual(403, self.action(self.server_id('own'),
                                          {'unlock': None},
                                          user=base.MEMBER).status_code)

    def test_reset_state(self):
        server_id = self.server_id('paused')
        self.cloud.update_server(server_id, task_state='migrating')
        self.assertEqual(202, self.action(server_id, {'os-resetState': {
            'state': 'error'}}).status_code)
        self.assertEqual(('error', None, 'ERROR'), self.state(
            'paused', 'OS-EXT-STS:vm_state', 'OS-EXT-STS:task_state',
            'status'))
        self.assertEqual(400, self.action(server_id, {'os-resetState': {
            'state': 'paused'}}).status_code)
        self.assertEqual(403, self.action(server_id, {'os-resetState': {
            'state': 'active'}}, user=base.MEMBER).status_code)

    def test_stop_then_start_after_delays(self):
        self.cloud.update_delays(stop=DELAY, start=DELAY)
        server_id = self.server_id('alive')
        self.assertEqual(202, self.action(server_id, {'os-stop': None})
                         .status_code)
        self.assertEqual(('active', 'powering-off'), self.state(
            'alive', 'OS-EXT-STS:vm_state', 'OS-EXT-STS:task_state'))
        self.assertFault(
            self.action(server_id, {'os-stop': None}), 409,
            'conflictingRequest', "Cannot 'stop' instance %s while it is in "
            "task_state powering-off" % server_id)
        self.wait_for('alive', 'OS-EXT-STS:vm_state', 'stopped')
        self.assertEqual((4, None), self.state(
            'alive', 'OS-EXT-STS:power_state', 'OS-EXT-STS:task_state'))
        self.assertFault(
            self.action(server_id, {'os-stop': None}), 409,
            'conflictingRequest', "Cannot 'stop' instance %s while it is in "
            "vm_state stopped" % server_id)
        self.assertEqual(202, self.action(server_id, {'os-start': None})
                         .status_code)
        self.assertEqual(('powering-on',),
                         self.state('alive', 'OS-EXT-STS:task_state'))
        self.wait_for('alive', 'OS-EXT-STS:vm_state', 'active')
        self.assertEqual((1,), self.state('alive', 'OS-EXT-STS:power_state'))
        self.assertEqual(409, self.action(server_id, {'os-start': None})
                         .status_code)

    def test_unknown_action(self):
        self.assertEqual(404, self.action(self.server_id('alive'),
                                          {'reboot': {}}).status_code)

    def test_evacuate_preconditions(self):
        self.assertFault(
            self.action(self.server_id('alive'), {'evacuate': {}}), 400,
            'badRequest', 'Compute service of compute-3 is still in use.')
        self.assertFault(
            self.action(self.server_id('active'),
                        {'evacuate': {'host': 'nowhere'}}), 404,
            'itemNotFound', 'Compute host nowhere not found.')
        self.assertFault(
            self.action(self.server_id('active'),
                        {'evacuate': {'host': 'compute-1'}}), 400,
            'badRequest', "The target host can't be the same one.")
        self.assertFault(
            self.action(self.server_id('paused'), {'evacuate': {}}), 409,
            'conflictingRequest', "Cannot 'evacuate' instance %s while it "
            "is in vm_state paused" % self.server_id('paused'))
        self.assertEqual(400, self.action(self.server_id('active'), {
            'evacuate': {'onSharedStorage': False}}).status_code)
        self.assertEqual(403, self.action(self.server_id('active'), {
            'evacuate': {}}, user=base.MEMBER).status_code)

    def test_evacuate_moves_after_the_delay_to_the_least_loaded_host(self):
        self.cloud.update_delays(evacuate=DELAY)
        server_id = self.server_id('active')
        response = self.action(server_id, {'evacuate': {}})
        self.assertEqual(200, response.status_code)
        self.assertEqual(b'', response.content)
        self.assertEqual(('compute-1', 'rebuilding', 'REBUILD'), self.state(
            'active', 'OS-EXT-SRV-ATTR:hypervisor_hostname',
            'OS-EXT-STS:task_state', 'status'))
        self.assertEqual(409, self.action(server_id, {'evacuate': {}})
                         .status_code)
        self.wait_for('active', 'OS-EXT-STS:task_state', None)
        # compute-2 holds two servers, compute-3 two; reserved is disabled
        # and dead is down: compute-2 comes first among equals.
        self.assertEqual(('compute-2', 'active', 1), self.state(
            'active', 'OS-EXT-SRV-ATTR:hypervisor_hostname',
            'OS-EXT-STS:vm_state', 'OS-EXT-STS:power_state'))

    def test_evacuate_keeps_stopped_servers_stopped(self):
        self.action(self.server_id('stopped'), {'evacuate': {}})
        self.assertEqual(('compute-2', 'stopped', 4), self.state(
            'stopped', 'OS-EXT-SRV-ATTR:host', 'OS-EXT-STS:vm_state',
            'OS-EXT-STS:power_state'))
        self.action(self.server_id('error'), {'evacuate': {}})
        self.assertEqual(('compute-3', 'active'), self.state(
            'error', 'OS-EXT-SRV-ATTR:host', 'OS-EXT-STS:vm_state'))

    def test_evacuate_to_a_requested_host(self):
        self.action(self.server_id('active'),
                    {'evacuate': {'host': 'compute-3'}})
        self.assertEqual(('compute-3', 'active'), self.state(
            'active', 'OS-EXT-SRV-ATTR:host', 'OS-EXT-STS:vm_state'))

    def test_evacuate_to_a_disabled_host_fails_unless_forced(self):
        self.action(self.server_id('active'),
                    {'evacuate': {'host': 'reserved'}})
        self.assertEqual(('compute-1', 'error', None), self.state(
            'active', 'OS-EXT-SRV-ATTR:host', 'OS-EXT-STS:vm_state',
            'OS-EXT-STS:task_state'))
        self.action(self.server_id('stopped'),
                    {'evacuate': {'host': 'reserved', 'force': True}})
        self.assertEqual(('reserved',),
                         self.state('stopped', 'OS-EXT-SRV-ATTR:host'))

    def test_failing_server_ends_in_error_on_its_host(self):
        self.action(self.server_id('broken'), {'evacuate': {}})
        self.assertEqual(('compute-1', 'error'), self.state(
            'broken', 'OS-EXT-SRV-ATTR:host', 'OS-EXT-STS:vm_state'))

    def test_no_valid_host(self):
        for host in ('compute-2', 'compute-3'):
            self.cloud.update_host(host, status='disabled')
        self.action(self.server_id('active'), {'evacuate': {}})
        self.assertEqual(('compute-1', 'error'), self.state(
            'active', 'OS-EXT-SRV-ATTR:host', 'OS-EXT-STS:vm_state'))

    def test_max_servers_limits_destinations(self):
        self.cloud.add_host({'name': 'small', 'max_servers': 1})
        for host in ('compute-2', 'compute-3'):
            self.cloud.update_host(host, status='disabled')
        self.cloud.update_delays(evacuate=DELAY)
        self.action(self.server_id('active'), {'evacuate': {}})
        self.action(self.server_id('stopped'), {'evacuate': {}})
        self.wait_for('stopped', 'OS-EXT-STS:task_state', None)
        self.wait_for('active', 'OS-EXT-STS:task_state', None)
        self.assertEqual(('small', 'active'), self.state(
            'active', 'OS-EXT-SRV-ATTR:host', 'OS-EXT-STS:vm_state'))
        self.assertEqual(('compute-1', 'error'), self.state(
            'stopped', 'OS-EXT-SRV-ATTR:host', 'OS-EXT-STS:vm_state'))

    def test_per_server_evacuate_delay(self):
        self.cloud.update_server(self.server_id('active'),
                                 evacuate_delay=DELAY)
        self.action(self.server_id('active'), {'evacuate': {}})
        self.action(self.server_id('error'), {'evacuate': {}})
        self.assertEqual(('compute-3', None), self.state(
            'error', 'OS-EXT-SRV-ATTR:host', 'OS-EXT-STS:task_state'))
        self.assertEqual(('rebuilding',),
                         self.state('active', 'OS-EXT-STS:task_state'))
        self.wait_for('active', 'OS-EXT-STS:task_state', None)
