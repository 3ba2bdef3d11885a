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

"""The systemd units of etc/systemd point at this project's documentation:
manual pages that doc/source builds (``sphinx-build -b man``).
"""

import configparser
import glob
import os
import re
import runpy

import testtools

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
MAN_REFERENCE = re.compile(r'^man:(?P<name>[\w-]+)\((?P<section>\d)\)$')


class TestUnitDocumentation(testtools.TestCase):

    def test_documentation_is_our_manual_pages(self):
        conf = runpy.run_path(os.path.join(REPO, 'doc', 'source',
                                           'conf.py'))
        pages = {(name, str(section)): docname
                 for docname, name, _, _, section in conf['man_pages']}
        for docname in pages.values():
            self.assertTrue(os.path.exists(os.path.join(
                REPO, 'doc', 'source', docname + '.rst')), docname)
        units = sorted(glob.glob(os.path.join(REPO, 'etc', 'systemd',
                                              '*.service')))
        self.assertEqual(['masakari-api.service', 'masakari-engine.service'],
                         [os.path.basename(unit) for unit in units])
        for unit in units:
            parser = configparser.ConfigParser(interpolation=None)
            parser.read(unit)
            references = parser.get('Unit', 'Documentation').split()
            program = os.path.basename(unit)[:-len('.service')]
            self.assertEqual('man:%s(8)' % program, references[0])
            for reference in references:
                found = MAN_REFERENCE.match(reference)
                self.assertIsNotNone(found, reference)
                self.assertIn((found['name'], found['section']), pages)
