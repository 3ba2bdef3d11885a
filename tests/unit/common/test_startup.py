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
import importlib
import sys
import types
from unittest import mock

import fixtures
import testscenarios
import testtools

from masakari.common import startup
from tests.fixtures import conf as conf_fixture


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


def _without_monkey_patching(test):
    """Let ``test`` import the services' command modules in this process:
    their first import, masakari.cmd.monkey_patch, is an empty module
    here (the tests keep the standard library unpatched).
    """
    name = 'masakari.cmd.monkey_patch'
    if name not in sys.modules:
        sys.modules[name] = types.ModuleType(name)
        test.addCleanup(sys.modules.pop, name, None)


class TestServicesFreezeBeforeServing(testscenarios.WithScenarios,
                                      testtools.TestCase):
    """main() of each service, its collaborators replaced, freezes the
    loaded objects before it launches the service.
    """

    # The attributes of the command module to replace, by path, with the
    # name of the launch call that must come after the freeze.
    scenarios = [
        ('api', {'module': 'masakari.cmd.api', 'launch': 'launch_service',
                 'replaced': ('WSGIService', 'service.ProcessLauncher')}),
        ('engine', {'module': 'masakari.cmd.engine', 'launch': 'launch',
                    'replaced': ('check_taskflow_connection',
                                 'service.Service.create',
                                 'notifications.set_binary',
                                 'oslo_service.launch')}),
    ]

    def replace(self, command, path, new=mock.DEFAULT):
        owner, _, name = ('command.' + path).rpartition('.')
        target = command
        for step in owner.split('.')[1:]:
            target = getattr(target, step)
        return self.useFixture(fixtures.MockPatchObject(
            target, name, new)).mock

    def test_freeze_comes_before_the_service_starts(self):
        self.useFixture(conf_fixture.ConfFixture())
        _without_monkey_patching(self)
        command = importlib.import_module(self.module)
        calls = mock.Mock()
        self.replace(command, 'config.parse_args')
        self.replace(command, 'logging.setup')
        self.replace(command, 'startup.freeze_loaded_objects', calls.freeze)
        for path in self.replaced:
            replaced = self.replace(command, path)
            if path.endswith('ProcessLauncher'):
                replaced.return_value = calls
            elif path.endswith('.launch'):
                replaced.side_effect = calls.launch
        command.main()
        self.assertEqual(['freeze', self.launch], [
            name for name, args, kwargs in calls.mock_calls
            if name in ('freeze', self.launch)])
