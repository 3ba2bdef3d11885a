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

"""The power-off-and-confirm loop, the redaction and the monitor driver."""

import fixtures
import testtools

from masakari import exception
from masakari.fencing import base
from masakari.fencing import monitor
from tests.fixtures import conf as conf_fixture

PASSWORD = 's3cr3t-Pa55'


class MemoryBMC(base.FencingDriver):
    """A BMC in memory: powers off after ``off_after`` reads, or never."""

    def __init__(self, host_name, settings, off_after=0, state=base.ON):
        super().__init__(host_name, settings)
        self.state = state
        self.off_after = off_after
        self.calls = []
        self.closed = 0

    def power_state(self):
        self.calls.append('power_state')
        if self.state == 'powering-off':
            if self.off_after is not None and self.off_after <= 0:
                self.state = base.OFF
            elif self.off_after is not None:
                self.off_after -= 1
            return base.ON if self.state != base.OFF else base.OFF
        return self.state

    def power_off(self):
        self.calls.append('power_off')
        self.state = 'powering-off'

    def power_on(self):
        self.calls.append('power_on')
        self.state = base.ON

    def check(self):
        return self.power_state()

    def close(self):
        self.closed += 1


def settings(**extra):
    values = {'driver': 'memory', 'address': '192.0.2.7', 'port': 623,
              'username': 'admin', 'password': PASSWORD,
              'power_off_timeout': 2, 'poll_interval': 0.01}
    values.update(extra)
    return values


class TestFence(testtools.TestCase):

    def test_powers_off_and_waits_for_off(self):
        bmc = MemoryBMC('compute-1', settings(), off_after=3)
        result = bmc.fence()
        self.assertEqual(base.FenceResult(
            driver='memory', address='192.0.2.7', state_before=base.ON,
            state_after=base.OFF, seconds=result.seconds), result)
        self.assertEqual(['power_state', 'power_off'] + ['power_state'] * 4,
                         bmc.calls)
        self.assertLess(result.seconds, 2)

    def test_a_host_already_off_is_not_powered_off_again(self):
        bmc = MemoryBMC('compute-1', settings(), state=base.OFF)
        result = bmc.fence()
        self.assertEqual(['power_state'], bmc.calls)
        self.assertEqual((base.OFF, base.OFF),
                         (result.state_before, result.state_after))

    def test_power_still_on_at_the_deadline_fails(self):
        bmc = MemoryBMC('compute-1', settings(power_off_timeout=0.2),
                        off_after=None)
        error = self.assertRaises(exception.FencingFailed, bmc.fence)
        self.assertIn('compute-1', str(error))
        self.assertIn('power state still on', str(error))
        self.assertGreater(bmc.calls.count('power_state'), 2)

    def test_the_session_is_released_after_fencing(self):
        bmc = MemoryBMC('compute-1', settings(), off_after=1)
        bmc.fence()
        self.assertEqual(1, bmc.closed)
        bmc = MemoryBMC('compute-1', settings(power_off_timeout=0.05),
                        off_after=None)
        self.assertRaises(exception.FencingFailed, bmc.fence)
        self.assertEqual(1, bmc.closed)

    def test_unexpected_errors_become_fencing_failures(self):
        bmc = MemoryBMC('compute-1', settings())
        bmc.power_off = lambda: {}['login %s' % PASSWORD]
        with fixtures.FakeLogger() as log:
            error = self.assertRaises(exception.FencingFailed, bmc.fence)
        self.assertEqual(
            "Fencing of host compute-1 failed: unexpected error: 'login ***'",
            str(error))
        self.assertIn('unexpected error', log.output)
        self.assertNotIn(PASSWORD, log.output)
        self.assertEqual(1, bmc.closed)

    def test_failures_never_carry_the_password(self):
        bmc = MemoryBMC('compute-1', settings())
        error = bmc.failed(ValueError('login %s refused' % PASSWORD))
        self.assertIsInstance(error, exception.FencingFailed)
        self.assertNotIn(PASSWORD, str(error))
        self.assertIn('login *** refused', error.format_message())

    def test_describe_and_repr_hold_no_secret(self):
        bmc = MemoryBMC('compute-1', settings(system_id='1'))
        self.assertEqual({'driver': 'memory', 'address': '192.0.2.7',
                          'port': 623, 'system_id': '1'}, bmc.describe())
        self.assertNotIn(PASSWORD, repr(bmc))
        self.assertNotIn('admin', repr(bmc))

    def test_required_settings(self):
        self.assertEqual(
            ["'password' is required by the memory driver"],
            MemoryBMC.settings_problems({'driver': 'memory',
                                         'address': 'a', 'username': 'u'}))


class TestMonitorDriver(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture())
        self.driver = monitor.MonitorDriver(
            'compute-1', {'driver': 'monitor', 'power_off_timeout': 5,
                          'poll_interval': 1})

    def test_fenced_payload_is_accepted(self):
        result = self.driver.fence({'event': 'STOPPED',
                                    'cluster_status': 'OFFLINE',
                                    'host_status': 'NORMAL'})
        self.assertEqual(base.FenceResult('monitor', None, base.UNKNOWN,
                                          base.OFF, 0.0), result)

    def test_other_payloads_fail(self):
        for payload in (None, {},
                        {'cluster_status': 'ONLINE', 'host_status': 'NORMAL'},
                        {'cluster_status': 'OFFLINE',
                         'host_status': 'UNKNOWN'},
                        {'event': 'STOPPED', 'cluster_status': 'OFFLINE'}):
            error = self.assertRaises(exception.FencingFailed,
                                      self.driver.fence, payload)
            self.assertIn('does not report a fenced host', str(error))

    def test_no_power_control(self):
        self.assertRaises(exception.FencingFailed, self.driver.power_off)
        self.assertRaises(exception.FencingFailed, self.driver.power_on)
        self.assertEqual(base.UNKNOWN, self.driver.check())
        self.assertEqual([], monitor.MonitorDriver.settings_problems(
            {'driver': 'monitor'}))
