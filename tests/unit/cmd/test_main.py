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

"""``python -m masakari.cmd.<command>`` runs the command, as its console
script does.
"""

import subprocess
import sys

import testscenarios
import testtools

from masakari import version


class TestRunAsModule(testscenarios.WithScenarios, testtools.TestCase):

    scenarios = [
        (name, {'module': 'masakari.cmd.' + name, 'argv': argv,
                'expected': expected})
        for name, argv, expected in (
            ('api', ['--version'], version.version_string()),
            ('engine', ['--version'], version.version_string()),
            ('manage', ['--version'], version.version_string()),
            ('status', ['--help'], 'upgrade'))]

    def test_runs_main(self):
        result = subprocess.run(
            [sys.executable, '-m', self.module] + self.argv,
            capture_output=True, text=True, timeout=120)
        self.assertEqual(0, result.returncode, result.stderr)
        self.assertIn(self.expected, result.stdout)
