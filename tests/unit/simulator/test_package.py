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
