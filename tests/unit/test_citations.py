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

"""No comment, docstring or page cites documents outside the repository.

The project was written from design documents that are not part of it;
a reference to one of their chapters or sections tells a reader
nothing. Comments say the fact itself or point at the docs (doc/source,
the differences pages, doc/api-ref). This test keeps such citations from
coming back.
"""

import os
import re

import testtools

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SCANNED = ('masakari', 'tests', 'doc', 'releasenotes', 'etc', 'tools',
           'devstack')
# Directories holding build output or caches, never sources.
SKIPPED_DIRS = {'__pycache__', 'build', '_build', '.tox', '.venv'}
# NOTE: the patterns are written so that this file does not match them.
CITATION = re.compile('|'.join([
    '\u00a7',                          # the section sign
    r'\bspec(?:s|\s+chapter)?\s+0[1-8]\b',  # a chapter by number
    r'\bspec\s+README\b',
    r'\b0[1-8]-[a-z-]+\.md\b',         # a chapter's file name
    r'\b0[1-8]\s+O-?[A-Z]?\d+\b',      # an oddity by chapter, number
    r'\bO-[A-Z]\d+\b',                 # an oddity by letter, number
    r'\bref(?:erence)?\s+oddity\b',
]), re.IGNORECASE)
# Known citations of each form, to show that the pattern sees them.
EXAMPLES = [
    'see spec ' + '04 ' + '\u00a73.3', '(01 ' + '\u00a710)', 'Spec ' + '08',
    'spec ' + 'README: every call', '04-' + 'engine.md', '(07 ' + 'O13)',
    'O-' + 'D2 fixed', '[ref ' + 'oddity]', 'reference ' + 'oddity 32',
]
# Text that must not be taken for a citation.
INNOCENT = ['spec[1]', '_mysql_type(spec)', 'Nova 2.53', 'rows 1-2',
            'the 04:00 run', 'O2 sensor']


def scanned_files():
    """(path, text) of every text file under the SCANNED directories."""
    for top in SCANNED:
        for directory, subdirs, names in os.walk(
                os.path.join(REPO_ROOT, top)):
            subdirs[:] = sorted(name for name in subdirs
                                if name not in SKIPPED_DIRS)
            for name in sorted(names):
                path = os.path.join(directory, name)
                try:
                    with open(path, encoding='utf-8') as source:
                        yield path, source.read()
                except UnicodeDecodeError:
                    continue


class TestNoSpecCitations(testtools.TestCase):

    def test_pattern_finds_each_form(self):
        for example in EXAMPLES:
            self.assertIsNotNone(CITATION.search(example), example)
        for text in INNOCENT:
            self.assertIsNone(CITATION.search(text), text)

    def test_no_citations(self):
        found = []
        scanned = set()
        for path, text in scanned_files():
            relative = os.path.relpath(path, REPO_ROOT)
            scanned.add(relative)
            for number, line in enumerate(text.splitlines(), 1):
                if CITATION.search(line):
                    found.append('%s:%d: %s' % (relative, number,
                                                line.strip()))
        # Not vacuous: the tree was really read, this file included, and
        # sources, tests and pages of every kind were among what was read.
        self.assertIn(os.path.relpath(__file__, REPO_ROOT), scanned)
        for expected in ('masakari/engine/manager.py',
                         'tests/functional/api/gabbits/routing.yaml',
                         'doc/source/index.rst', 'doc/api-ref/index.rst',
                         'devstack/plugin.sh'):
            self.assertIn(expected, scanned)
        self.assertGreater(len(scanned), 300)
        self.assertEqual([], found, '\n'.join(found))
