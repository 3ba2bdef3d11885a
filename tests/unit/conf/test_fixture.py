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

"""tests.fixtures.conf.ConfFixture sets what its docstring promises."""

import os

from oslo_config import cfg
import testtools

from masakari import config
from tests.fixtures import conf as conf_fixture

CONF = config.CONF


class TestConfFixture(testtools.TestCase):

    def test_test_defaults(self):
        self.useFixture(conf_fixture.ConfFixture())
        self.assertEqual('sqlite://', CONF.database.connection)
        self.assertEqual('noauth2', CONF.auth_strategy)
        self.assertEqual(0, CONF.notification_delay_max)
        self.assertEqual([], CONF.config_file)
        self.assertEqual([], CONF.oslo_policy.policy_dirs)
        self.assertEqual('masakari', CONF.project)

    def test_policy_file_does_not_exist(self):
        self.useFixture(conf_fixture.ConfFixture())
        policy_file = CONF.oslo_policy.policy_file
        # NOTE: an absolute path is not searched for in /etc/masakari etc.
        self.assertTrue(os.path.isabs(policy_file))
        self.assertFalse(os.path.exists(policy_file))
        self.assertIsNone(CONF.find_file(policy_file))

    def test_overrides_are_undone(self):
        fixture = conf_fixture.ConfFixture()
        with fixture:
            fixture.config(auth_strategy='keystone')
            self.assertEqual('keystone', CONF.auth_strategy)
        self.assertRaises(cfg.NotInitializedError, CONF.find_file, 'x')
        with conf_fixture.ConfFixture():
            self.assertEqual('noauth2', CONF.auth_strategy)
