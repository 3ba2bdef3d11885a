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
