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

"""Redfish over TLS: sushy-tools' emulator serving a self-signed
certificate made for the test. Refused by default, accepted with the
certificate as the host's CA bundle.
"""

import shutil
import tempfile

import testtools

from masakari import exception
from masakari.fencing import base
from masakari.fencing import config
from masakari.simulator import bmcs
from masakari.simulator import server
from tests.fixtures import conf as conf_fixture
from tests.fixtures import tls

HOST = 'compute-1'


class RedfishTLSTestCase(testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.directory = tempfile.mkdtemp(prefix='masakari-test-tls-')
        cls.addClassCleanup(shutil.rmtree, cls.directory, True)
        cls.certificate, key = tls.self_signed_certificate(cls.directory)
        cls.simulator = server.Simulator({'hosts': [HOST]}).start()
        cls.addClassCleanup(cls.simulator.stop)
        cls.bmcs = bmcs.BMCs(cls.simulator.cloud, cls.simulator.control_url,
                             password='Bmc-Pa55word',
                             power_delay=0, tls=(cls.certificate, key))
        cls.addClassCleanup(cls.bmcs.stop)
        cls.bmcs.start()

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture())

    def driver(self, **changes):
        """A driver of the host's entry, as the fencing file loader gives
        it (its defaults filled in), with ``changes``.
        """
        settings = dict(self.bmcs.fencing_entries('redfish')[HOST],
                        **changes)
        return base.driver_class('redfish')(HOST,
                                            config.with_defaults(settings))

    def test_the_certificate_is_verified_by_default(self):
        self.assertTrue(self.bmcs.redfish_url.startswith('https://'))
        entry = self.bmcs.fencing_entries('redfish')[HOST]
        del entry['verify']
        for driver in (base.driver_class('redfish')(
                HOST, config.with_defaults(entry)), self.driver(verify=True)):
            error = self.assertRaises(exception.FencingFailed, driver.check)
            self.assertEqual(
                "Fencing of host compute-1 failed: the Redfish BMC at %s "
                "presented a TLS certificate that cannot be verified "
                "(self-signed certificate): set 'verify' in this host's "
                "entry to the CA bundle that signed it"
                % self.bmcs.redfish_url, str(error))
            self.assertRaises(exception.FencingFailed, driver.fence)
        self.assertEqual('on', self.simulator.cloud.machine(HOST)['power'])

    def test_accepted_with_its_ca_bundle(self):
        driver = self.driver()
        self.assertEqual(self.certificate, driver.settings['verify'])
        self.assertEqual(base.ON, driver.check())
