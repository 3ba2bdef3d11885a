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

"""sushy against sushy-tools' emulator, pyghmi against pyghmi BMCs.

One simulated cloud with its BMC processes serves the whole class (they
take seconds to start); every test fences a host of its own. Power
changes take 2 s (the emulators' fixed delay), so a 0.5 s deadline
always expires and a 10 s one never does.
"""

import socket
import time

import fixtures
import testtools

from masakari import exception
from masakari import fencing
from masakari.fencing import base
from masakari.simulator import bmcs
from masakari.simulator import server
from tests.fixtures import conf as conf_fixture
from tests.fixtures import polling

POWER_DELAY = 2
HOSTS = ['compute-%d' % number for number in range(1, 13)]


def closed_port(kind):
    with socket.socket(socket.AF_INET, kind) as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


class BMCTestCase(testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.simulator = server.Simulator({'hosts': HOSTS}).start()
        try:
            cls.bmcs = bmcs.BMCs(cls.simulator.cloud,
                                 cls.simulator.control_url,
                                 password='Bmc-Pa55word',
                                 power_delay=POWER_DELAY).start()
        except Exception:
            cls.simulator.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.bmcs.stop()
        cls.simulator.stop()
        super().tearDownClass()

    def setUp(self):
        super().setUp()
        self.conf = self.useFixture(conf_fixture.ConfFixture())

    def driver(self, driver_name, host, **changes):
        settings = dict(self.bmcs.fencing_entries(driver_name)[host],
                        power_off_timeout=10, poll_interval=0.1)
        settings.update(changes)
        return base.driver_class(driver_name)(host, settings)

    def machine(self, host):
        return self.simulator.cloud.machine(host)

    def assertFencingFails(self, driver, expected):
        error = self.assertRaises(exception.FencingFailed, driver.fence)
        self.assertIn(expected, str(error))
        self.assertNotIn(self.bmcs.password, str(error))
        return error


class DriverTests:
    """The same contract for both protocols; DRIVER and HOSTS per class."""

    def test_power_off_succeeds(self):
        host = self.HOSTS[0]
        driver = self.driver(self.DRIVER, host)
        self.assertEqual(base.ON, driver.check())
        result = driver.fence()
        self.assertEqual((self.DRIVER, base.ON, base.OFF),
                         (result.driver, result.state_before,
                          result.state_after))
        # NOTE: the BMC turns the power off POWER_DELAY seconds after the
        # request, not earlier.
        self.assertGreaterEqual(result.seconds, POWER_DELAY)
        self.assertLess(result.seconds, POWER_DELAY + 2)
        # The host is dead, and Nova does not know yet.
        self.assertEqual({'host': host, 'power': 'off', 'alive': False,
                          'service_state': 'up'}, self.machine(host))
        # Fencing a host that is off is immediate.
        self.assertEqual(base.OFF, driver.fence().state_before)

    def test_power_on_brings_the_host_back(self):
        host = self.HOSTS[1]
        driver = self.driver(self.DRIVER, host)
        driver.fence()
        driver.power_on()
        polling.wait_until(lambda: driver.power_state() == base.ON, 20)
        # NOTE: the simulator mirrors the BMC's power to its machine on a
        # thread of its own: the machine follows a moment later.
        back = {'host': host, 'power': 'on', 'alive': True,
                'service_state': 'up'}
        polling.wait_until(lambda: self.machine(host) == back, 20,
                           message=lambda: 'machine still %s'
                           % self.machine(host))

    def test_bad_credentials_fail_clearly(self):
        host = self.HOSTS[2]
        driver = self.driver(self.DRIVER, host, password='wrong-password')
        self.assertFencingFails(driver, self.BAD_CREDENTIALS)
        self.assertRaises(exception.FencingFailed, driver.check)
        self.assertEqual('on', self.machine(host)['power'])

    def test_power_still_on_at_the_deadline_fails(self):
        host = self.HOSTS[3]
        driver = self.driver(self.DRIVER, host, power_off_timeout=0.5)
        self.assertFencingFails(
            driver, 'Fencing of host %s failed: power state still on 0 '
            'seconds after the power off request' % host)

    def test_unreachable_bmc_fails(self):
        host = self.HOSTS[4]
        driver = self.driver(self.DRIVER, host, **self.UNREACHABLE)
        started = time.monotonic()
        self.assertFencingFails(driver, 'Fencing of host %s failed' % host)
        self.assertLess(time.monotonic() - started, 15)


class TestRedfish(DriverTests, BMCTestCase):

    DRIVER = 'redfish'
    HOSTS = HOSTS[:6]
    BAD_CREDENTIALS = 'refused the credentials'
    UNREACHABLE = {'address': 'http://127.0.0.1:%d'
                   % closed_port(socket.SOCK_STREAM), 'timeout': 2}

    def test_a_power_on_applies_without_reading_the_system(self):
        # The return to service reads nova-compute, not the BMC, after
        # the power on: the emulator applies it by itself, as a BMC does.
        host = self.HOSTS[5]
        driver = self.driver(self.DRIVER, host)
        driver.fence()
        driver.power_on()
        driver.close()
        polling.wait_until(lambda: self.machine(host)['alive'], 20)
        self.assertEqual('on', self.machine(host)['power'])


class TestIPMI(DriverTests, BMCTestCase):

    DRIVER = 'ipmi'
    HOSTS = HOSTS[6:]
    BAD_CREDENTIALS = 'Incorrect password provided'
    UNREACHABLE = {'port': closed_port(socket.SOCK_DGRAM)}

    def test_both_bmcs_agree_and_the_file_gives_the_driver(self):
        host = self.HOSTS[5]
        path = self.bmcs.write_fencing_file(
            self.useFixture(fixtures.TempDir()).join('fencing.yaml'), 'ipmi')
        self.conf.config(config_file=path, power_off_timeout=10,
                         poll_interval=0.1, group='fencing')
        self.addCleanup(fencing._cache.clear)
        result = fencing.driver_for(host).fence()
        self.assertEqual(('ipmi', base.OFF),
                         (result.driver, result.state_after))
        # The power off reaches the Redfish system of the same host.
        redfish = self.driver('redfish', host)
        polling.wait_until(lambda: redfish.power_state() == base.OFF, 20)
