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

"""The simulator stands alone: it imports no Masakari service code."""

import json
import subprocess
import sys

import testtools


class IndependenceTestCase(testtools.TestCase):

    def test_imports_only_its_own_package(self):
        output = subprocess.check_output([
            sys.executable, '-c',
            'import json, sys, masakari.simulator.cli; print(json.dumps('
            'sorted(m for m in sys.modules if m.startswith("masakari"))))'],
            text=True)
        modules = json.loads(output)
        self.assertEqual([], [m for m in modules if m != 'masakari' and
                              not m.startswith('masakari.simulator')])
        self.assertIn('masakari.simulator.server', modules)
