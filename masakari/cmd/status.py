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

"""masakari-status: ``upgrade check`` before or after an upgrade.

The reference's one check (oslo.upgradecheck's policy-file check) comes
first, then ours (masakari.cmd.upgrade_checks): options, databases,
fencing file, takeover lease, metrics ports.
"""

import functools
import sys

from oslo_upgradecheck import common_checks
from oslo_upgradecheck import upgradecheck

from masakari.cmd import upgrade_checks
from masakari.common import cli
import masakari.conf
from masakari.i18n import _

CONF = masakari.conf.CONF
# The exit status when the configuration cannot be read: oslo.upgradecheck's
# "the checks could not run".
CANNOT_RUN = 255


def _check(function):
    """``function(conf)`` as an oslo.upgradecheck check; an option value it
    cannot read makes it fail with that option's one-line message rather
    than end the command with a traceback.
    """
    @functools.wraps(function)
    def check(_command, conf):
        try:
            return function(conf)
        except ValueError as error:
            return upgradecheck.Result(
                upgradecheck.Code.FAILURE,
                cli.describe(error) or str(error))
    return check


class Checks(upgradecheck.UpgradeCommands):
    """The upgrade checks of Masakari, in the order they run."""

    _upgrade_checks = (
        (_('Policy File JSON to YAML Migration'),
         (common_checks.check_policy_json, {'conf': CONF})),
    ) + tuple(
        (name, (_check(function), {'conf': CONF}))
        for name, function in (
            (_('Configuration options'),
             upgrade_checks.configuration_options),
            (_('Database revision'), upgrade_checks.database_revision),
            (_('Taskflow database'), upgrade_checks.taskflow_database),
            (_('Fencing file'), upgrade_checks.fencing_file),
            (_('Takeover lease'), upgrade_checks.takeover_lease),
            (_('Metrics ports'), upgrade_checks.metrics_ports)))


@cli.exits('masakari-status', CANNOT_RUN)
def main():
    """The masakari-status console script."""
    upgrade_checks.prepare(CONF)
    return upgradecheck.main(CONF, project='masakari',
                             upgrade_command=Checks(), argv=sys.argv[1:])


if __name__ == '__main__':
    sys.exit(main())
