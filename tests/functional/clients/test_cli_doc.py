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

"""The commands of doc/source/user/openstack-cli.rst work as shown.

Each tested section of the page runs, in order, every ``$ openstack ...``
command of its console blocks against a fresh API (the way the page's
"Without Keystone" section describes), with the state its prose assumes
made beforehand; the lines a block shows after a command must be in that
command's output. Placeholders such as ``<notification-uuid>`` are
replaced by the real values.
"""

import os
import re
import shlex

from oslo_utils import uuidutils

from tests.fixtures import api as api_fixture
from tests.functional.clients import base

PAGE = os.path.join(api_fixture.REPO_ROOT, 'doc', 'source', 'user',
                    'openstack-cli.rst')
TESTED_SECTIONS = ('Failover segments', 'Hosts', 'Notifications',
                   'VM moves')


def console_commands(section):
    """``[(argv, [expected output lines])]`` of a section's console
    blocks, continuation lines joined, without the ``$ openstack``.
    """
    with open(PAGE) as page:
        text = page.read()
    match = re.search(r'^%s\n=+\n(.*?)(?=^\S[^\n]*\n=+\n|\Z)' % re.escape(
        section), text, re.M | re.S)
    assert match, 'no section %r in %s' % (section, PAGE)
    commands = []
    for block in re.findall(r'^\.\. code-block:: console\n\n((?:(?: {4}'
                            r'.*)?\n)+)', match.group(1), re.M):
        lines = iter(line[4:] for line in block.splitlines())
        for line in lines:
            if line.startswith('$ '):
                while line.endswith('\\'):
                    line = line[:-1] + next(lines).strip()
                argv = shlex.split(line[2:])
                assert argv[0] == 'openstack', line
                commands.append((argv[1:], []))
            elif line.strip():
                commands[-1][1].append(line.strip())
    return commands


class CLIPageTest(base.ClientsTestCase):

    def run_section(self, section, **placeholders):
        commands = console_commands(section)
        self.assertNotEqual([], commands)
        for argv, expected in commands:
            for name, value in placeholders.items():
                argv = [arg.replace(name, value) for arg in argv]
            self.assertEqual([], [arg for arg in argv if '<' in arg],
                             'unreplaced placeholder')
            result = self.openstack(*argv)
            for line in expected:
                self.assertIn(line, result.stdout, ' '.join(argv))

    def test_segments(self):
        self.run_section('Failover segments')
        self.assertEqual([], self.rest('GET', '/segments',
                                       200).json()['segments'])

    def test_hosts(self):
        segment = self.create_segment('seg-a')
        self.run_section('Hosts')
        self.assertEqual(['compute-9'], [host['name'] for host in self.rest(
            'GET', '/segments/%s/hosts' % segment['uuid'],
            200).json()['hosts']])

    def test_notifications(self):
        self.create_host(self.create_segment('seg-a'), 'compute-1')
        first = self.create_notification(generated_time='2025-12-31T10:00:00')
        self.wait_processed(first['notification_uuid'])
        self.run_section('Notifications', **{
            '<notification-uuid>': first['notification_uuid'],
            '<server-uuid>': uuidutils.generate_uuid()})
        self.assertEqual(['COMPUTE_HOST', 'COMPUTE_HOST', 'PROCESS', 'VM'],
                         sorted(notification['type'] for notification in
                                self.rest('GET', '/notifications',
                                          200).json()['notifications']))

    def test_vmoves(self):
        self.create_host(self.create_segment('seg-a'), 'compute-1')
        uuid = self.create_notification()['notification_uuid']
        self.wait_processed(uuid)
        vmove, = self.rest('GET', '/notifications/%s/vmoves' % uuid,
                           200).json()['vmoves']
        self.run_section('VM moves', **{'<notification-uuid>': uuid,
                                        '<vmove-uuid>': vmove['uuid']})
