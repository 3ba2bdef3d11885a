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

"""masakari-status upgrade check: output, JSON output, exit codes, run as
the real program.
"""

import json
import os
import subprocess
import sys

import fixtures
import testtools

RUN_STATUS = ('import sys; from masakari.cmd import status; '
              'sys.argv[0] = "masakari-status"; sys.exit(status.main())')

POLICY_DETAILS = (
    'Your policy file is JSON-formatted which is deprecated. You need to '
    'switch to YAML-formatted file. Use the '
    '``oslopolicy-convert-json-to-yaml`` tool to convert the existing '
    'JSON-formatted files to YAML in a backwards-compatible manner: '
    'https://docs.openstack.org/oslo.policy/latest/cli/'
    'oslopolicy-convert-json-to-yaml.html.')


class TestStatus(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.config_file = os.path.join(self.dir, 'masakari.conf')
        with open(self.config_file, 'w') as f:
            f.write('[oslo_policy]\npolicy_file = %s\n'
                    % os.path.join(self.dir, 'policy.yaml'))

    def status(self, *args):
        return subprocess.run(
            [sys.executable, '-c', RUN_STATUS, '--config-file',
             self.config_file] + list(args),
            capture_output=True, text=True, timeout=120,
            env=dict(os.environ, COLUMNS='80'))

    def test_success_table(self):
        result = self.status('upgrade', 'check')
        self.assertEqual(0, result.returncode, result.stderr)
        self.assertEqual(
            '+-------------------------------------------+\n'
            '| Upgrade Check Results                     |\n'
            '+-------------------------------------------+\n'
            '| Check: Policy File JSON to YAML Migration |\n'
            '| Result: Success                           |\n'
            '| Details: None                             |\n'
            '+-------------------------------------------+\n',
            result.stdout)

    def test_json_policy_file_fails_in_json_output(self):
        with open(os.path.join(self.dir, 'policy.yaml'), 'w') as f:
            f.write('{"os_masakari_api:segments:index": ""}')
        result = self.status('upgrade', 'check', '--json')
        self.assertEqual(2, result.returncode, result.stderr)
        self.assertEqual(
            {'name': 'Upgrade Check Results',
             'checks': [{'check': 'Policy File JSON to YAML Migration',
                         'result': 2, 'details': POLICY_DETAILS}]},
            json.loads(result.stdout))

    def test_yaml_policy_file_succeeds_in_json_output(self):
        with open(os.path.join(self.dir, 'policy.yaml'), 'w') as f:
            f.write('"os_masakari_api:segments:index": ""\n')
        result = self.status('upgrade', 'check', '--json')
        self.assertEqual(0, result.returncode, result.stderr)
        self.assertEqual(
            '{"name": "Upgrade Check Results", "checks": [{"check": "Policy '
            'File JSON to YAML Migration", "result": 0, "details": null}]}\n',
            result.stdout)

    def test_missing_subcommand(self):
        result = self.status()
        self.assertEqual(2, result.returncode)
        self.assertIn('error: the following arguments are required: command',
                      result.stderr)
