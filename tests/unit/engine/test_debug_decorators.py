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

"""[DEFAULT]/monkey_patch: decorators applied to chosen modules."""

import types

import testtools

from masakari.engine import debug_decorators
from masakari.engine import instance_events
from tests.fixtures import conf as conf_fixture

CALLS = []


def tracing(name, function):
    def traced(*args, **kwargs):
        CALLS.append(name)
        return function(*args, **kwargs)
    return traced


class DebugDecoratorsTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.conf = self.useFixture(conf_fixture.ConfFixture())
        del CALLS[:]
        # A module with a function and a class, decorated in place.
        self.module = instance_events.__name__
        self.addCleanup(setattr, instance_events, 'is_recoverable',
                        instance_events.is_recoverable)

    def test_off_by_default(self):
        self.conf.config(monkey_patch_modules=[
            '%s:%s.tracing' % (self.module, __name__)])
        debug_decorators.apply_from_config()
        instance_events.is_recoverable('LIFECYCLE', 'x')
        self.assertEqual([], CALLS)

    def test_functions_are_wrapped(self):
        self.conf.config(monkey_patch=True, monkey_patch_modules=[
            '%s:%s.tracing' % (self.module, __name__)])
        debug_decorators.apply_from_config()
        self.assertTrue(instance_events.is_recoverable(
            'LIFECYCLE', 'STOPPED_FAILED'))
        self.assertEqual(['%s.is_recoverable' % self.module], CALLS)
        self.assertIsInstance(instance_events.is_recoverable,
                              types.FunctionType)
