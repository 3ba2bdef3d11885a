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

"""Services freeze what they loaded before serving."""

import gc
import subprocess
import sys
import textwrap

import testscenarios
import testtools

from masakari.common import startup


class TestFreezeLoadedObjects(testtools.TestCase):

    def test_objects_so_far_leave_the_collectors_generations(self):
        self.addCleanup(gc.unfreeze)
        loaded = [[number] for number in range(1000)]
        before = gc.get_freeze_count()
        startup.freeze_loaded_objects()
        self.assertGreaterEqual(gc.get_freeze_count() - before, len(loaded))
        later = [[]]
        self.assertTrue(gc.is_tracked(later))
        tracked = {id(obj) for obj in gc.get_objects()}
        self.assertIn(id(later), tracked)
        self.assertTrue(gc.is_tracked(loaded[0]))
        self.assertNotIn(id(loaded[0]), tracked)


# Run main() of a service's module with its collaborators replaced, and
# print the order in which they were called.
MAIN_ORDER = textwrap.dedent('''
    import sys
    from unittest import mock
    import {module} as command
    calls = mock.Mock()
    with mock.patch.object(command.config, 'parse_args'), \\
            mock.patch.object(command.logging, 'setup'), \\
            mock.patch.object(command.startup, 'freeze_loaded_objects',
                              calls.freeze), \\
            {patches}:
        command.main()
    print(' '.join(name for name, args, kwargs in calls.mock_calls
                   if name in ('freeze', {launch!r})))
''')


class TestServicesFreezeBeforeServing(testscenarios.WithScenarios,
                                      testtools.TestCase):

    scenarios = [
        ('api', {'module': 'masakari.cmd.api', 'launch': 'launch_service',
                 'patches': (
                     "mock.patch.object(command, 'WSGIService'), "
                     "mock.patch.object(command.service, 'ProcessLauncher',"
                     " return_value=calls)")}),
        ('engine', {'module': 'masakari.cmd.engine', 'launch': 'launch',
                    'patches': (
                        "mock.patch.object(command, "
                        "'check_taskflow_connection'), "
                        "mock.patch.object(command.service.Service, "
                        "'create'), "
                        "mock.patch.object(command.oslo_service, 'launch',"
                        " calls.launch)")}),
    ]

    def test_freeze_comes_before_the_service_starts(self):
        script = MAIN_ORDER.format(module=self.module, launch=self.launch,
                                   patches=self.patches)
        result = subprocess.run([sys.executable, '-c', script],
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(0, result.returncode, result.stderr)
        self.assertEqual('freeze %s' % self.launch,
                         result.stdout.strip().splitlines()[-1])
