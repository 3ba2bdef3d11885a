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

"""The import direction of doc/source/contributor/layout.rst: the
all-in-one (masakari/aio, masakari/cmd/aio.py) and the simulator
(masakari/simulator) are product features built on the product, which never
imports them; no module of the package imports test code.
"""

import ast
import os

import testtools

import masakari

PACKAGE = os.path.dirname(masakari.__file__)
FEATURES = ('masakari.aio', 'masakari.simulator')
FEATURE_MODULES = FEATURES + ('masakari.cmd.aio',)


def _modules():
    """(dotted name, imported module names) of every module of masakari."""
    for directory, _dirs, files in os.walk(PACKAGE):
        for name in files:
            if not name.endswith('.py'):
                continue
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, os.path.dirname(PACKAGE))
            module = relative[:-3].replace(os.sep, '.')
            module = module.removesuffix('.__init__')
            with open(path) as source:
                tree = ast.parse(source.read(), path)
            imported = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    imported.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module:
                    imported.add(node.module)
                    imported.update('%s.%s' % (node.module, alias.name)
                                    for alias in node.names)
            yield module, imported


def _within(name, prefixes):
    return any(name == prefix or name.startswith(prefix + '.')
               for prefix in prefixes)


class TestImportDirection(testtools.TestCase):

    def test_the_product_never_imports_the_aio_or_the_simulator(self):
        offenders = sorted(
            '%s imports %s' % (module, name)
            for module, imported in _modules()
            if not _within(module, FEATURE_MODULES)
            for name in imported if _within(name, FEATURES))
        self.assertEqual([], offenders)

    def test_no_test_code_in_the_package(self):
        offenders = sorted(
            '%s imports %s' % (module, name)
            for module, imported in _modules()
            for name in imported if _within(name, ('tests',)))
        self.assertEqual([], offenders)

    def test_the_walk_sees_the_features(self):
        # NOTE: guards the two tests above against an empty walk.
        imported = dict(_modules())
        self.assertIn('masakari.simulator.server', imported)
        self.assertTrue(any(_within(name, FEATURES)
                            for name in imported['masakari.cmd.aio']))
