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
