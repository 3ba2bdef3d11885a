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

"""The fencing file: validation, defaults, re-reading, permissions."""

import os

import fixtures
import testtools

from masakari import exception
from masakari import fencing
from masakari.fencing import config
from masakari.fencing import redfish
from tests.fixtures import conf as conf_fixture

PASSWORD = 'Very$ecret1'

GOOD = """
compute-1:
  driver: redfish
  address: 192.0.2.11
  username: admin
  password: %s
  system_id: 437XR1138R2
  verify: false
compute-2:
  driver: ipmi
  address: 192.0.2.12
  port: 6230
  username: admin
  password: %s
  power_off_timeout: 30
compute-3:
  driver: monitor
""" % (PASSWORD, PASSWORD)


class FencingFileTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.conf = self.useFixture(conf_fixture.ConfFixture())
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.path = os.path.join(self.dir, 'fencing.yaml')
        self.addCleanup(fencing._cache.clear)

    def write(self, text, mode=0o600):
        with open(self.path, 'w') as stream:
            stream.write(text)
        os.chmod(self.path, mode)
        return self.path


class TestLoad(FencingFileTestCase):

    def test_good_file_with_defaults(self):
        entries = config.load(self.write(GOOD))
        self.assertEqual(['compute-1', 'compute-2', 'compute-3'],
                         sorted(entries))
        self.assertEqual(60, entries['compute-1']['power_off_timeout'])
        self.assertEqual(1.0, entries['compute-1']['poll_interval'])
        self.assertFalse(entries['compute-1']['verify'])
        self.assertEqual(30, entries['compute-2']['power_off_timeout'])
        self.assertTrue(entries['compute-2']['verify'])

    def test_options_give_the_default_deadlines(self):
        self.conf.config(power_off_timeout=7, poll_interval=0.5,
                         group='fencing')
        entries = config.load(self.write(GOOD))
        self.assertEqual((7, 0.5), (entries['compute-3']['power_off_timeout'],
                                    entries['compute-3']['poll_interval']))

    def test_every_problem_with_its_host_and_no_value(self):
        text = """
compute-1:
  driver: redfish
  address: 192.0.2.11
  username: admin
  pasword: %s
compute-2:
  driver: ipmi
  address: [1, 2]
  port: 70000
  username: admin
  password: 12345678
  poll_interval: -1
  verify: 3
compute-3:
  driver: nonesuch
compute-4: just a string
compute-5:
  address: 192.0.2.15
""" % PASSWORD
        error = self.assertRaises(config.InvalidFile, config.load,
                                  self.write(text))
        self.assertEqual([
            "compute-1: unknown setting 'pasword'",
            "compute-1: 'password' is required by the redfish driver",
            "compute-2: 'address' must be a string",
            "compute-2: 'password' must be a string",
            "compute-2: 'port' must be an integer from 1 to 65535",
            "compute-2: 'poll_interval' must be a positive number",
            "compute-2: 'verify' must be true, false or the absolute path "
            "of a CA bundle",
            "compute-3: driver 'nonesuch' is not installed (entry point "
            "namespace masakari.fencing.drivers)",
            'compute-4: the entry must be a mapping',
            "compute-5: 'driver' is required",
        ], error.problems)
        self.assertNotIn(PASSWORD, str(error))
        self.assertNotIn('12345678', str(error))

    def test_shared_settings_under_a_dot_key_are_no_host(self):
        entries = config.load(self.write("""
.bmc: &bmc
  username: admin
  password: %s
  verify: /etc/masakari/bmc-ca.pem
.unused: {colour: blue}
compute-1:
  <<: *bmc
  driver: redfish
  address: 192.0.2.11
""" % PASSWORD))
        self.assertEqual(['compute-1'], list(entries))
        self.assertEqual(('admin', '/etc/masakari/bmc-ca.pem'),
                         (entries['compute-1']['username'],
                          entries['compute-1']['verify']))
        # What a host merged is checked as its own.
        error = self.assertRaises(config.InvalidFile, config.load, self.write(
            '.bmc: &bmc\n  pasword: x\ncompute-1:\n  <<: *bmc\n'
            '  driver: monitor\n'))
        self.assertEqual(["compute-1: unknown setting 'pasword'"],
                         error.problems)

    def test_a_ca_bundle_is_an_absolute_path(self):
        error = self.assertRaises(config.InvalidFile, config.load, self.write(
            'compute-1:\n  driver: monitor\n  verify: "false"\n'))
        self.assertEqual(["compute-1: 'verify' must be true, false or the "
                          "absolute path of a CA bundle"], error.problems)

    def test_unreadable_and_unparsable_files(self):
        error = self.assertRaises(config.InvalidFile, config.load,
                                  os.path.join(self.dir, 'missing.yaml'))
        self.assertEqual(['cannot be read: No such file or directory'],
                         error.problems)
        error = self.assertRaises(
            config.InvalidFile, config.load,
            self.write('compute-1:\n  password: "%s\n  x: [' % PASSWORD))
        self.assertEqual(1, len(error.problems))
        self.assertIn('is not valid YAML at line', error.problems[0])
        self.assertNotIn(PASSWORD, str(error))

    def test_empty_file_and_wrong_top_level(self):
        self.assertEqual({}, config.load(self.write('')))
        self.assertEqual(
            ['the file must be a mapping of compute host names to their '
             'settings'], config.validate(['compute-1']))

    def test_exposure_warning(self):
        self.write(GOOD, mode=0o644)
        self.conf.config(config_file=self.path, group='fencing')
        with fixtures.FakeLogger() as log:
            warning = config.warn_if_exposed()
        self.assertIn('accessible by group or others (mode 0o644)', warning)
        self.assertIn(self.path, log.output)
        os.chmod(self.path, 0o600)
        self.assertIsNone(config.warn_if_exposed())

    def test_no_warning_when_fencing_is_off(self):
        self.assertIsNone(config.warn_if_exposed())


class TestDriverFor(FencingFileTestCase):

    def test_fencing_off(self):
        self.assertIsNone(fencing.driver_for('compute-1'))

    def test_driver_of_a_host_and_none_without_entry(self):
        self.conf.config(config_file=self.write(GOOD), group='fencing')
        driver = fencing.driver_for('compute-1')
        self.assertIsInstance(driver, redfish.RedfishDriver)
        self.assertEqual(
            {'driver': 'redfish', 'address': '192.0.2.11', 'port': 443,
             'system_id': '437XR1138R2', 'url': 'https://192.0.2.11:443'},
            driver.describe())
        self.assertEqual('ipmi', fencing.driver_for('compute-2').name)
        self.assertIsNone(fencing.driver_for('compute-9'))

    def test_the_file_is_read_again_when_it_changes(self):
        self.conf.config(config_file=self.write(GOOD), group='fencing')
        self.assertIsNone(fencing.driver_for('compute-9'))
        self.write(GOOD + 'compute-9:\n  driver: monitor\n')
        self.assertEqual('monitor', fencing.driver_for('compute-9').name)

    def test_an_invalid_file_fails_fencing_without_secrets(self):
        self.conf.config(config_file=self.write(
            'compute-1:\n  driver: ipmi\n  password: %s\n' % PASSWORD),
            group='fencing')
        error = self.assertRaises(exception.FencingFailed,
                                  fencing.driver_for, 'compute-1')
        self.assertIn("compute-1: 'address' is required by the ipmi driver",
                      str(error))
        self.assertNotIn(PASSWORD, str(error))

    def test_redfish_base_url(self):
        driver = redfish.RedfishDriver('c', {'driver': 'redfish',
                                             'address': 'http://h:8000/'})
        self.assertEqual(('http://h:8000', None),
                         (driver.base_url, driver.port))
