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

"""``masakari-manage fencing check``: validation and --connect verdicts.

The BMC logins themselves run against real emulators in
tests/functional/fencing; here --connect meets an unreachable BMC and the
monitor driver, which needs none.
"""

import os
import socket

from tests.unit.cmd import test_manage

PASSWORD = 'N0t-In-Output'


def closed_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


class TestFencingCheck(test_manage.ManageTestCase):

    def fencing_file(self, text, mode=0o600):
        path = os.path.join(self.dir, 'fencing.yaml')
        with open(path, 'w') as stream:
            stream.write(text)
        os.chmod(path, mode)
        return path

    def test_fencing_off(self):
        code, out, _err = self.manage('fencing', 'check')
        self.assertEqual(1, code)
        self.assertIn('[fencing]/config_file is not set', out)

    def test_valid_file_from_the_configuration(self):
        path = self.fencing_file(
            'compute-1:\n  driver: monitor\n'
            'compute-2:\n  driver: ipmi\n  address: 192.0.2.2\n'
            '  username: admin\n  password: %s\n' % PASSWORD)
        self.write_config(extra='[fencing]\nconfig_file = %s\n' % path)
        code, out, _err = self.manage('fencing', 'check')
        self.assertEqual((0, '%s: 2 host(s), valid.\n'
                          '  compute-1: monitor\n'
                          '  compute-2: ipmi address=192.0.2.2 port=623\n'
                          % path), (code, out))

    def test_every_problem_is_listed(self):
        path = self.fencing_file(
            'compute-1:\n  driver: ipmi\n  password: %s\n'
            'compute-2:\n  driver: redfish\n  address: h\n  username: u\n'
            '  password: %s\n  port: 0\n' % (PASSWORD, PASSWORD))
        code, out, _err = self.manage('fencing', 'check', '--file', path)
        self.assertEqual(1, code)
        self.assertEqual(
            '%s: 3 problem(s):\n'
            "  compute-1: 'address' is required by the ipmi driver\n"
            "  compute-1: 'username' is required by the ipmi driver\n"
            "  compute-2: 'port' must be an integer from 1 to 65535\n"
            % path, out)
        self.assertNotIn(PASSWORD, out)

    def test_exposed_file_is_reported(self):
        path = self.fencing_file('compute-1:\n  driver: monitor\n',
                                 mode=0o640)
        code, out, _err = self.manage('fencing', 'check', '--file', path)
        self.assertEqual(0, code)
        self.assertIn('WARNING: The fencing file %s holds BMC passwords and '
                      'is accessible by group or others (mode 0o640)'
                      % path, out)

    def test_connect_reports_each_host(self):
        port = closed_udp_port()
        path = self.fencing_file(
            'compute-1:\n  driver: monitor\n'
            'compute-2:\n  driver: ipmi\n  address: 127.0.0.1\n'
            '  port: %d\n  username: admin\n  password: %s\n'
            % (port, PASSWORD))
        code, out, _err = self.manage('fencing', 'check', '--file', path,
                                      '--connect')
        self.assertEqual(1, code)
        self.assertEqual([
            '%s: 2 host(s), valid.' % path,
            '  compute-1: monitor: OK power unknown',
            '  compute-2: ipmi address=127.0.0.1 port=%d: FAILED IPMI BMC '
            'at 127.0.0.1:%d: no answer' % (port, port)],
            out.splitlines())
        self.assertNotIn(PASSWORD, out)

    def test_log_lines_stay_out_of_the_report(self):
        path = self.fencing_file('compute-1:\n  driver: nonesuch\n')
        code, out, err = self.manage('--debug', 'fencing', 'check',
                                     '--file', path)
        self.assertEqual((1, '%s: 1 problem(s):\n'
                             "  compute-1: driver 'nonesuch' is not "
                             'installed (entry point namespace '
                             'masakari.fencing.drivers)\n' % path),
                         (code, out))
        self.assertRegex(err, r'DEBUG masakari\.fencing\.config \[.*\] '
                              r'Fencing driver nonesuch cannot be loaded')
