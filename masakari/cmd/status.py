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

The one check is oslo.upgradecheck's policy-file check: a JSON policy file
is reported as a failure. The database is not checked.
"""

import sys

from oslo_upgradecheck import common_checks
from oslo_upgradecheck import upgradecheck

import masakari.conf
from masakari.i18n import _

CONF = masakari.conf.CONF


class Checks(upgradecheck.UpgradeCommands):
    """The upgrade checks of Masakari, in the order they run."""

    _upgrade_checks = (
        (_('Policy File JSON to YAML Migration'),
         (common_checks.check_policy_json, {'conf': CONF})),
    )


def main():
    """The masakari-status console script."""
    return upgradecheck.main(CONF, project='masakari',
                             upgrade_command=Checks(), argv=sys.argv[1:])


if __name__ == '__main__':
    sys.exit(main())
