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

"""The plugin's shell passes ``bash -n`` and shellcheck.

shellcheck is required, not optional: tools/run-tests installs it (bindep.txt,
``shellcheck``); a machine without it fails here with that hint.
"""

import shutil
import subprocess

import testtools

from tests.unit.devstack import host as devstack

SCRIPTS = ['devstack/plugin.sh', 'devstack/settings', '.ci/run',
           'tools/bootstrap-venv', 'tools/run-aio', 'tools/run-tests',
           'tools/test-setup', 'tools/keystone/setup-venv',
           'tests/unit/devstack/stubs.sh', 'tests/unit/devstack/run_phase.sh']


class TestShellLint(testtools.TestCase):

    def _run(self, argv):
        return subprocess.run(argv, cwd=devstack.REPO, capture_output=True,
                              text=True, timeout=120)

    def test_bash_syntax(self):
        for script in SCRIPTS:
            result = self._run(['bash', '-n', script])
            self.assertEqual(0, result.returncode,
                             '%s: %s' % (script, result.stderr))

    def test_shellcheck(self):
        shellcheck = shutil.which('shellcheck')
        self.assertIsNotNone(
            shellcheck, 'shellcheck missing: apt-get install -y shellcheck')
        # -x follows the "source" directives (paths relative to the tree).
        result = self._run([shellcheck, '-x', '--shell=bash'] + SCRIPTS)
        self.assertEqual(0, result.returncode, result.stdout)
