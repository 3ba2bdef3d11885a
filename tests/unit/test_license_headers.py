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

"""Every source file carries the Apache License 2.0 header.

flake8 (hacking's H102) checks the Python modules; this test covers the
scripts as well (tools/, devstack/, .ci/), which flake8 does not read.
"""

import os

import testtools

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SCANNED = ('masakari', 'tests', 'tools', 'devstack', '.ci')
SKIPPED_DIRS = {'__pycache__', 'build', '.venv'}
# Shell files sourced rather than run, so without a "#!" line.
SOURCED = {'bootstrap-venv', 'test-setup', 'settings'}
HEADER = ('# Licensed under the Apache License, Version 2.0 (the "License");'
          ' you may\n# not use this file except in compliance with the '
          'License.')
# The header must start within the first lines (after a "#!" line or a
# shellcheck directive).
HEAD_LINES = 3


def _is_source(path):
    if path.endswith(('.py', '.sh')) or os.path.basename(path) in SOURCED:
        return True
    with open(path, 'rb') as f:
        first = f.readline()
    return first.startswith(b'#!')


def source_files():
    """(path, text) of every non-empty source file under SCANNED."""
    for top in SCANNED:
        for directory, subdirs, names in os.walk(
                os.path.join(REPO_ROOT, top)):
            subdirs[:] = [name for name in subdirs
                          if name not in SKIPPED_DIRS]
            for name in names:
                path = os.path.join(directory, name)
                if not _is_source(path):
                    continue
                with open(path, encoding='utf-8') as f:
                    text = f.read()
                if text.strip():
                    yield os.path.relpath(path, REPO_ROOT), text


class TestLicenseHeaders(testtools.TestCase):

    def test_every_source_file_has_the_header(self):
        files = dict(source_files())
        # Not vacuous: the package, the tests and the scripts were read.
        self.assertGreater(len(files), 300)
        for expected in ('masakari/cmd/api.py', 'tools/run-tests',
                         'tools/bootstrap-venv', 'devstack/plugin.sh',
                         '.ci/run'):
            self.assertIn(expected, files)
        missing = sorted(
            path for path, text in files.items()
            if HEADER not in ''.join(text.splitlines(True)[:HEAD_LINES + 2]))
        self.assertEqual([], missing)
