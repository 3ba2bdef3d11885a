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

"""tools/bootstrap-venv against a virtualenv whose pip is a script: the
extras it asks for, the progress it shows, pip's log and a pip failure;
tools/run-aio asks only for the extra of --fencing.
"""

import os
import stat
import subprocess
import textwrap

import fixtures
import testtools

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..',
                                    '..'))
# What pip prints while it installs (the relevant lines, shortened).
PIP_OUTPUT = """\
Obtaining file://{repo}
Collecting sushy>=5.0.0
  Using cached sushy-5.14.0-py3-none-any.whl
Collecting sushy-tools>=2.0.0
Collecting bcrypt
Building wheels for collected packages: masakari
  Building wheel for masakari (pyproject.toml): started
Installing collected packages: bcrypt, sushy-tools, masakari
Successfully installed bcrypt-5.0.0 sushy-tools-2.2.0 masakari-23.0.0
"""


def _executable(path, text):
    with open(path, 'w') as stream:
        stream.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


class TestBootstrapVenv(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.venv = self.useFixture(fixtures.TempDir()).path
        bin_dir = os.path.join(self.venv, 'bin')
        os.mkdir(bin_dir)
        _executable(os.path.join(bin_dir, 'python'), '#!/bin/sh\n')
        with open(os.path.join(bin_dir, 'activate'), 'w') as stream:
            stream.write('VIRTUAL_ENV=%s\nPATH=%s:$PATH\n'
                         % (self.venv, bin_dir))
        self.pip_args = os.path.join(self.venv, 'pip-args')

    def _pip(self, status):
        _executable(os.path.join(self.venv, 'bin', 'pip'), textwrap.dedent(
            """\
            #!/bin/sh
            echo "$@" >>{args}
            cat <<'EOF'
            {output}EOF
            echo 'ERROR: no space left on device' >&2
            exit {status}
            """).format(args=self.pip_args, status=status,
                        output=PIP_OUTPUT.format(repo=REPO)))

    def _bootstrap(self, extras):
        # The callers' shell options (tools/run-*).
        return subprocess.run(
            ['bash', '-c', 'set -euo pipefail; . tools/bootstrap-venv; '
             'echo "active: $VIRTUAL_ENV"'],
            cwd=REPO, capture_output=True, text=True, timeout=60,
            env=dict(os.environ, MASAKARI_VENV=self.venv,
                     MASAKARI_VENV_EXTRAS=extras))

    def test_progress_and_log(self):
        self._pip(status=0)
        result = self._bootstrap('simulated-bmcs')
        self.assertEqual(0, result.returncode, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(
            'installing masakari[simulated-bmcs] into %s (pip\'s output: '
            '%s/pip.log)...' % (self.venv, self.venv), lines[0])
        self.assertEqual([
            '  building masakari from source...',
            '  installing 3 packages...'], lines[1:3])
        self.assertRegex(lines[3], r'^  done in \d+ s$')
        self.assertEqual('active: %s' % self.venv, lines[4])
        with open(os.path.join(self.venv, 'pip.log')) as log:
            text = log.read()
        self.assertIn('Collecting sushy-tools>=2.0.0', text)
        self.assertIn('ERROR: no space left on device', text)
        with open(self.pip_args) as args:
            self.assertEqual(['install -c %s/tools/constraints.txt -e '
                              '%s[simulated-bmcs]' % (REPO, REPO)],
                             args.read().splitlines())
        # The stamp: a second run installs nothing.
        again = self._bootstrap('simulated-bmcs')
        self.assertEqual(['active: %s' % self.venv],
                         again.stdout.splitlines())

    def test_pip_failure_shows_the_end_of_its_output(self):
        self._pip(status=1)
        result = self._bootstrap('')
        self.assertEqual(1, result.returncode)
        self.assertNotIn('active:', result.stdout)
        self.assertIn('ERROR: no space left on device', result.stderr)
        self.assertIn('pip install failed; its whole output: %s/pip.log'
                      % self.venv, result.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.venv,
                                                     'masakari-extras')))

    def test_run_aio_asks_for_the_fencing_extra_only_with_fencing(self):
        self._pip(status=0)
        _executable(os.path.join(self.venv, 'bin', 'masakari-aio'),
                    '#!/bin/sh\necho "masakari-aio $*"\n')
        for argv, extra in ((['--demo'], ''),
                            (['--demo', '--fencing'], '[simulated-bmcs]')):
            result = subprocess.run(
                [os.path.join(REPO, 'tools', 'run-aio')] + argv,
                capture_output=True, text=True, timeout=60,
                env=dict(os.environ, MASAKARI_VENV=self.venv))
            self.assertEqual(0, result.returncode, result.stderr)
            self.assertEqual('masakari-aio %s' % ' '.join(argv),
                             result.stdout.splitlines()[-1])
            with open(self.pip_args) as args:
                self.assertEqual('install -c %s/tools/constraints.txt -e '
                                 '%s%s' % (REPO, REPO, extra),
                                 args.read().splitlines()[-1])
