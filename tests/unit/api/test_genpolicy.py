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

"""The policy sample generator lists the reference's rules, in order."""

import os
import re

import fixtures
from oslo_config import cfg
from oslo_policy import generator
import testtools

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
GENERATOR_CONF = os.path.join(REPO_ROOT, 'etc', 'masakari',
                              'masakari-policy-generator.conf')

RULES = [
    ('context_is_admin', 'role:admin'),
    ('admin_or_owner', 'is_admin:True or project_id:%(project_id)s'),
    ('admin_api', 'is_admin:True'),
    ('os_masakari_api:extensions:index', 'rule:admin_api'),
    ('os_masakari_api:extensions:detail', 'rule:admin_api'),
    ('os_masakari_api:extensions:discoverable', 'rule:admin_api'),
    ('os_masakari_api:os-hosts:index', 'rule:admin_api'),
    ('os_masakari_api:os-hosts:detail', 'rule:admin_api'),
    ('os_masakari_api:os-hosts:create', 'rule:admin_api'),
    ('os_masakari_api:os-hosts:update', 'rule:admin_api'),
    ('os_masakari_api:os-hosts:delete', 'rule:admin_api'),
    ('os_masakari_api:os-hosts:discoverable', 'rule:admin_api'),
    ('os_masakari_api:notifications:index', 'rule:admin_api'),
    ('os_masakari_api:notifications:detail', 'rule:admin_api'),
    ('os_masakari_api:notifications:create', 'rule:admin_api'),
    ('os_masakari_api:notifications:discoverable', 'rule:admin_api'),
    ('os_masakari_api:segments:index', 'rule:admin_api'),
    ('os_masakari_api:segments:detail', 'rule:admin_api'),
    ('os_masakari_api:segments:create', 'rule:admin_api'),
    ('os_masakari_api:segments:update', 'rule:admin_api'),
    ('os_masakari_api:segments:delete', 'rule:admin_api'),
    ('os_masakari_api:segments:discoverable', 'rule:admin_api'),
    ('os_masakari_api:versions:index', '@'),
    ('os_masakari_api:versions:discoverable', '@'),
    ('os_masakari_api:vmoves:index', 'rule:admin_api'),
    ('os_masakari_api:vmoves:detail', 'rule:admin_api'),
    ('os_masakari_api:vmoves:discoverable', 'rule:admin_api'),
]


class TestPolicySample(testtools.TestCase):

    def test_rules_and_order(self):
        output = os.path.join(self.useFixture(fixtures.TempDir()).path,
                              'policy.yaml')
        generator.generate_sample(
            args=['--config-file', GENERATOR_CONF, '--output-file', output],
            conf=cfg.ConfigOpts())
        with open(output) as sample:
            text = sample.read()
        found = re.findall(r'^#"([^"]+)": "(.*)"$', text, re.MULTILINE)
        self.assertEqual(RULES, found)
        self.assertIn('# PUT  /segments/{segment_id}', text)
        self.assertIn('# Updates the editable attributes of an existing '
                      'host.\n# PUT  /segments/{segment_id}\n', text)
