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

"""Machines: power, crashes, and Nova's delay in noticing a dead host."""

import time

import requests

from masakari.simulator import model
from tests.fixtures import polling
from tests.unit.simulator import base


class MachineTestCase(base.SimulatorTestCase):

    SERVICE_DOWN_TIME = 30

    def topology(self):
        topology = super().topology()
        topology['service_down_time'] = self.SERVICE_DOWN_TIME
        topology['servers'] = [{'name': 'vm', 'host': 'compute-1'}]
        return topology

    def setUp(self):
        super().setUp()
        self.changes = []
        self.cloud.power_listeners.append(
            lambda *change: self.changes.append(change))

    def control(self, method, path, body=None):
        return requests.request(method, self.simulator.control_url + path,
                                json=body)

    def machine(self, name='compute-1', **fields):
        if fields:
            response = self.control('PUT', '/machines/' + name, fields)
        else:
            response = self.control('GET', '/machines/' + name)
        self.assertEqual(200, response.status_code, response.text)
        return response.json()['machine']

    def nova_state(self, host='compute-1'):
        [service] = self.nova('GET', '/os-services?host=%s' % host).json()[
            'services']
        return service['state']

    def evacuate(self):
        return self.action(self.server_id('vm'), {'evacuate': {}})


class TestDetectionDelay(MachineTestCase):

    def test_a_powered_off_host_is_reported_up_until_forced_down(self):
        self.assertEqual({'host': 'compute-1', 'power': 'on', 'alive': True,
                          'service_state': 'up'}, self.machine())
        self.assertEqual({'host': 'compute-1', 'power': 'off',
                          'alive': False, 'service_state': 'up'},
                         self.machine(power='off'))
        self.assertEqual('up', self.nova_state())
        self.assertFault(self.evacuate(), 400, 'badRequest',
                         'Compute service of compute-1 is still in use.')
        [service] = self.nova('GET', '/os-services?host=compute-1').json()[
            'services']
        self.nova('PUT', '/os-services/%s' % service['id'],
                  {'forced_down': True})
        self.assertEqual('down', self.nova_state())
        self.assertEqual(200, self.evacuate().status_code)
        self.assertEqual([('compute-1', 'off', 'control')], self.changes)

    def test_power_on_brings_the_service_back(self):
        self.machine(power='off')
        self.assertEqual({'host': 'compute-1', 'power': 'on', 'alive': True,
                          'service_state': 'up'}, self.machine(power='on'))
        self.assertEqual([('compute-1', 'off', 'control'),
                          ('compute-1', 'on', 'control')], self.changes)
        # The same state again changes nothing.
        self.machine(power='on')
        self.assertEqual(2, len(self.changes))

    def test_a_crashed_host_keeps_its_power(self):
        self.assertEqual({'host': 'compute-1', 'power': 'on',
                          'alive': False, 'service_state': 'up'},
                         self.machine(alive=False))
        self.assertFault(self.evacuate(), 400, 'badRequest',
                         'Compute service of compute-1 is still in use.')
        self.machine(alive=True)
        self.assertEqual('up', self.nova_state())
        self.assertEqual([], self.changes)

    def test_delayed_power_change(self):
        self.machine(power='off', delay=0.2, source='ipmi')
        self.assertEqual('on', self.machine()['power'])
        polling.wait_until(lambda: self.machine()['power'] == 'off')
        self.assertEqual([('compute-1', 'off', 'ipmi')], self.changes)

    def test_redfish_events(self):
        system = {'uuid': 'u', 'name': 'compute-2', 'power_state': 'Off',
                  'pending_power': {'power_state': 'Off', 'apply_time': 1}}
        self.assertEqual(204, self.control('PUT', '/redfish-events',
                                           system).status_code)
        self.assertEqual('on', self.machine('compute-2')['power'])
        system['pending_power'] = None
        self.control('PUT', '/redfish-events', system)
        self.assertEqual('off', self.machine('compute-2')['power'])
        self.assertEqual([('compute-2', 'off', 'redfish')], self.changes)
        # A system that is no simulated host is ignored.
        self.assertEqual(204, self.control('PUT', '/redfish-events', dict(
            system, name='elsewhere')).status_code)

    def test_errors_and_listing(self):
        self.assertEqual(404, self.control('GET', '/machines/nowhere')
                         .status_code)
        for body in ({'power': 'dim'}, {'alive': 'yes'}, {'colour': 1}):
            self.assertEqual(400, self.control(
                'PUT', '/machines/compute-1', body).status_code, body)
        self.assertEqual(
            ['compute-1', 'compute-2', 'compute-3'],
            [m['host'] for m in self.control('GET', '/machines').json()[
                'machines']])
        self.assertEqual(['compute-1', 'compute-2', 'compute-3'],
                         [m['host'] for m in self.cloud.snapshot()[
                             'machines']])


class TestServiceDownTime(MachineTestCase):

    SERVICE_DOWN_TIME = 0.3

    def topology(self):
        topology = super().topology()
        topology['boot_time'] = 0.3
        return topology

    def test_nova_notices_the_dead_host_after_service_down_time(self):
        started = time.monotonic()
        self.machine(power='off')
        polling.wait_until(lambda: self.nova_state() == 'down')
        self.assertGreaterEqual(time.monotonic() - started,
                                self.SERVICE_DOWN_TIME)
        self.assertEqual(200, self.evacuate().status_code)

    def test_the_service_reports_again_after_boot_time(self):
        self.machine(power='off')
        polling.wait_until(lambda: self.nova_state() == 'down')
        self.assertEqual({'host': 'compute-1', 'power': 'on',
                          'alive': False, 'service_state': 'down'},
                         self.machine(power='on'))
        polling.wait_until(lambda: self.nova_state() == 'up')
        self.assertTrue(self.machine()['alive'])

    def test_added_hosts_have_machines(self):
        self.control('POST', '/hosts', {'name': 'compute-9'})
        self.assertEqual('on', self.machine('compute-9')['power'])


class TestLastReport(MachineTestCase):
    """A service's ``updated_at`` is its last report: a host powered on
    within service_down_time looks up at once, with its old report, until
    it has booted.
    """

    def topology(self):
        topology = super().topology()
        topology['boot_time'] = 1.5
        return topology

    def service(self):
        [service] = self.nova('GET', '/os-services?host=compute-1').json()[
            'services']
        return service['state'], service['updated_at']

    def test_a_stale_heartbeat_until_the_host_has_booted(self):
        self.machine(alive=False)
        state, last = self.service()
        self.assertEqual('up', state)
        polling.wait_until(lambda: model.isotime() > last)
        self.assertEqual(('up', last), self.service())

        self.machine(power='off')
        self.machine(power='on')
        self.assertEqual(('up', last), self.service())
        self.assertFalse(self.machine()['alive'])
        polling.wait_until(lambda: self.service()[1] > last)
        self.assertTrue(self.machine()['alive'])
        self.assertEqual('up', self.service()[0])
