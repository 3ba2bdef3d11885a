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

"""Every example of the fencing guides is valid input: fencing files go
through the loader the engine uses, configuration snippets through
oslo.config with every Masakari option, Python through the compiler. And
the guide, the masakari-manage page and the option help agree.
"""

import configparser
import os
import re
import textwrap

import fixtures
from oslo_config import cfg
import testtools

from masakari import conf as masakari_conf
from masakari.conf import host_recovery_safety
from masakari.fencing import config
from tests.fixtures import conf as conf_fixture
from tests.unit.conf import option_table

GUIDES = [os.path.join(option_table.PACKAGE_PARENT, 'doc', 'source', 'admin',
                       name)
          for name in ('fencing.rst', 'fencing-drivers.rst')]
_DIRECTIVE = re.compile(r'^\s*\.\. code-block:: (\w+)\s*$')
# A commented-out option of a snippet ("# required = false"): checked too.
_COMMENTED_OPTION = re.compile(r'^#\s*(?=\w+\s*=)', re.MULTILINE)


def example_blocks(path):
    """``(language, text)`` of every literal block of an rst file:
    ``.. code-block:: LANGUAGE`` directives, and ``::`` paragraphs (whose
    language is None).
    """
    with open(path, encoding='utf-8') as stream:
        lines = stream.read().splitlines()
    blocks = []
    for number, line in enumerate(lines):
        directive = _DIRECTIVE.match(line)
        if directive:
            language = directive.group(1)
        elif line.rstrip().endswith('::') and not line.lstrip().startswith(
                '..'):
            language = None
        else:
            continue
        indent = len(line) - len(line.lstrip())
        body = []
        for following in lines[number + 1:]:
            if following.strip() and (len(following) - len(
                    following.lstrip())) <= indent:
                break
            body.append(following)
        blocks.append((language, textwrap.dedent('\n'.join(body)).strip()))
    return blocks


def is_configuration(language, text):
    return language == 'ini' or (language is None and text.startswith('['))


class DocExamplesTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture())
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.blocks = [(os.path.basename(path), language, text)
                       for path in GUIDES
                       for language, text in example_blocks(path)]

    def write(self, text, name):
        path = os.path.join(self.dir, name)
        with open(path, 'w') as stream:
            stream.write(text + '\n')
        return path

    def test_the_guides_have_examples_of_each_kind(self):
        languages = {language for _guide, language, _text in self.blocks}
        self.assertTrue({'yaml', 'python', 'ini'} <= languages, languages)
        self.assertGreaterEqual(len([True for _guide, language, text in
                                     self.blocks
                                     if is_configuration(language, text)]),
                                5)

    def test_fencing_files_load_as_the_engine_loads_them(self):
        for guide, language, text in self.blocks:
            if language != 'yaml':
                continue
            path = self.write(text, 'fencing.yaml')
            try:
                entries = config.load(path)
            except config.InvalidFile as error:
                self.fail('%s: an example fencing file is refused: %s'
                          % (guide, error))
            self.assertTrue(entries)
            self.assertFalse([host for host in entries
                              if host.startswith(config.SHARED_PREFIX)])

    def test_configuration_snippets_use_real_options(self):
        for guide, language, text in self.blocks:
            if not is_configuration(language, text):
                continue
            # NOTE: no default section: [DEFAULT] is a group like another.
            parser = configparser.ConfigParser(interpolation=None,
                                               default_section='')
            text = _COMMENTED_OPTION.sub('', text)
            parser.read_string(text)
            if 'entry_points' in parser:
                # A site package's setup.cfg, not masakari.conf.
                self.assertIn('masakari.fencing.drivers',
                              parser['entry_points'])
                continue
            conf = cfg.ConfigOpts()
            for module in masakari_conf.OPTION_MODULES:
                module.register_opts(conf)
            conf([], project='masakari', default_config_files=[
                self.write(text, 'masakari.conf')], default_config_dirs=[])
            for section in parser.sections():
                group = conf if section == 'DEFAULT' else conf[section]
                for key in parser[section]:
                    try:
                        getattr(group, key)
                    except (cfg.NoSuchOptError,
                            cfg.ConfigFileValueError) as error:
                        self.fail('%s: [%s]/%s: %s'
                                  % (guide, section, key, error))
            conf.reset()

    def test_python_examples_compile(self):
        for guide, language, text in self.blocks:
            if language == 'python':
                compile(text, guide, 'exec')


def _flat(text):
    """``text`` with rst markup and line breaks reduced to single spaces."""
    return ' '.join(text.replace('``', '').split())


def _read(*parts):
    with open(os.path.join(option_table.PACKAGE_PARENT, 'doc', 'source',
                           *parts), encoding='utf-8') as stream:
        return _flat(stream.read())


class TextsAgreeTestCase(testtools.TestCase):
    """The fencing guide, the masakari-manage page and the option help (the
    sample configuration) say the same about a release and about the steps
    of the return to service.
    """

    def setUp(self):
        super().setUp()
        self.guide = _read('admin', 'fencing.rst')
        self.manage_page = _read('cli', 'masakari-manage.rst')
        options = dict(host_recovery_safety.list_opts())
        self.help = {opt.name: _flat(opt.help)
                     for opts in options.values() for opt in opts}

    def test_a_release_is_recovered_at_once(self):
        self.assertIn('Notification <uuid> released: an engine recovers it '
                      'now, without the brake.', self.manage_page)
        self.assertIn('recover it at once', self.guide)
        self.assertIn('Mass-failure brake: notification <uuid> was released '
                      'by an operator; recovering it without the brake.',
                      self.guide)
        self.assertIn('releases with \'masakari-manage notification '
                      'release\' is recovered at once',
                      self.help['held_notifications_check_interval'])
        for text in (self.guide, self.manage_page,
                     self.help['held_notifications_check_interval']):
            self.assertNotIn('periodic retry recovers it', text)

    def test_the_steps_of_the_return_to_service_in_one_order(self):
        steps = ('powers the host on', 'clears forced_down',
                 'heartbeat sent after', 'enables the compute service',
                 'reserved flag back')
        help_steps = ('power the host on', 'clear forced_down',
                      'heartbeat sent after', 'enable the service',
                      'reserved flag back')
        for text, words in ((self.guide, steps),
                            (self.help['return_to_service'], help_steps)):
            positions = [text.index(word) for word in words]
            self.assertEqual(sorted(positions), positions, words)
