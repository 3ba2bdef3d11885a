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

"""masakari-manage: administration of the database and of recoveries.

``db sync [version]`` migrates the main database (then the taskflow one),
``db version`` prints its alembic revision, ``db purge`` hard-deletes old
rows. Outputs and exit codes: doc/source/cli/masakari-manage.rst.
The ``fencing`` category is ours: ``fencing check [--file PATH]
[--connect]``; so are ``notification timeline <uuid>`` (the per-phase
timeline of a recovery), ``notification release <uuid>`` (releases a
host recovery held by the mass-failure brake) and ``segment capacity`` /
``segment what-if`` (failover capacity, see segment_capacity).
"""

import functools
import logging as std_logging
import sys
import time

from alembic.util import exc as alembic_exc
from oslo_config import cfg
from oslo_log import log as logging

from masakari.cmd import fencing_check
from masakari.cmd import notification_release
from masakari.cmd import notification_timeline
from masakari.cmd import segment_capacity
from masakari.common import cli
import masakari.conf
from masakari import config
from masakari import context
from masakari.db import api as db_api
from masakari.db import migration
from masakari.engine import driver
from masakari import exception
from masakari.i18n import _
from masakari import version

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

CATEGORIES = ('db', 'fencing', 'notification', 'segment')
DATABASE_CATEGORIES = ('db', 'notification', 'segment')
# The exit status of a missing or unusable configuration, as 22.0.0's for
# a missing configuration file.
CONFIG_ERROR = 2
# Categories whose standard output is a report (ours; db keeps its log
# lines on standard output, as 22.0.0 does).
REPORT_CATEGORIES = ('fencing', 'notification', 'segment')
SECONDS_PER_DAY = 86400


def db_sync():
    """Migrate the main database, then the notification driver's storage.

    Without [taskflow]/connection the taskflow driver refuses to load
    *after* the main schema is migrated: exit 1 with its error, as
    Masakari 22.0.0 does (here in one line, without a traceback).
    """
    try:
        migration.db_sync(CONF.category.version)
    except (exception.InvalidInput, ValueError,
            alembic_exc.CommandError) as error:
        print(error)
        return 1
    try:
        notification_driver = driver.load_masakari_driver()
    except exception.InvalidConfiguration as error:
        print(_('%s Set [taskflow]/connection (it may be the URL of '
                '[database]/connection) and run this command again.')
              % error.format_message())
        return 1
    if CONF.taskflow.connection:
        notification_driver.upgrade_backend(CONF.taskflow.connection)
    LOG.info('Migration(s) applied')
    return 0


def db_version():
    """Print the alembic revision of the main database (or None)."""
    print(migration.db_version())
    return 0


def _purge_refusal(age_in_days, max_rows):
    if max_rows < -1:
        return exception.InvalidInput(
            reason=_('max_rows must be >= -1')).format_message()
    if max_rows > db_api.MAX_INT:
        return exception.InvalidInput(
            reason=_('max_rows must be <= %d') % db_api.MAX_INT
        ).format_message()
    if max_rows == 0:
        return _('Must supply value greater than 0 for max_rows.')
    if age_in_days < 0:
        return _('Must supply a non-negative value for age.')
    if age_in_days >= time.time() / SECONDS_PER_DAY:
        return _('Maximal age is count of days since epoch.')
    return None


def db_purge():
    """Hard-delete rows older than --age_in_days, at most --max_rows, and
    the taskflow logbooks of the purged notifications.
    """
    age_in_days = CONF.category.age_in_days
    max_rows = CONF.category.max_rows
    refusal = _purge_refusal(age_in_days, max_rows)
    if refusal:
        print(refusal, file=sys.stderr)
        return 1
    purge_logbooks = None
    if CONF.taskflow.connection:
        # NOTE: imported only when needed: taskflow's SQL backend imports
        # eventlet, which warns on import.
        from masakari.engine.drivers.taskflow import persistence
        purge_logbooks = functools.partial(persistence.destroy_logbooks,
                                           CONF.taskflow.connection)
    db_api.purge_deleted_rows(context.get_admin_context(), age_in_days,
                              max_rows, purge_logbooks=purge_logbooks)
    return 0


DB_ACTIONS = {'purge': db_purge, 'sync': db_sync, 'version': db_version}
FENCING_ACTIONS = {'check': fencing_check.check}


NOTIFICATION_ACTIONS = {'release': notification_release.release,
                        'timeline': notification_timeline.show}
ACTIONS = {'db': DB_ACTIONS, 'fencing': FENCING_ACTIONS,
           'notification': NOTIFICATION_ACTIONS,
           'segment': segment_capacity.ACTIONS}


def add_command_parsers(subparsers):
    """Build ``db {purge,sync,version}`` under the category parser."""
    db_parser = subparsers.add_parser('db')
    actions = db_parser.add_subparsers(dest='action')

    purge = actions.add_parser('purge')
    purge.add_argument('--age_in_days', type=int, default=30,
                       help=_('Purge rows older than this many days '
                              '(default 30).'))
    purge.add_argument('--max_rows', type=int, default=-1,
                       help=_('Purge at most this many rows in total '
                              '(default -1: no limit).'))

    sync = actions.add_parser('sync')
    sync.add_argument('version', nargs='?', default=None,
                      help=_('Alembic revision to migrate to '
                             '(default: the latest).'))

    actions.add_parser('version')

    fencing_actions = subparsers.add_parser(
        'fencing').add_subparsers(dest='action')
    fencing_check.add_parser(fencing_actions)

    notification_actions = subparsers.add_parser(
        'notification').add_subparsers(dest='action')
    notification_release.add_parser(notification_actions)
    notification_timeline.add_parser(notification_actions)
    segment_capacity.add_parsers(subparsers)


CATEGORY_OPT = cfg.SubCommandOpt('category', title='Command categories',
                                 help='Available categories',
                                 handler=add_command_parsers)


def _print_choices(usage, title, names):
    print(usage)
    print(title)
    for name in names:
        print('\t%s' % name)


def _parse_config(argv):
    """Parse the command line and config files; exit 2 on a missing file
    or directory (other configuration errors: :func:`main`).
    """
    CONF.register_cli_opt(CATEGORY_OPT)
    try:
        CONF(argv[1:], project='masakari', version=version.version_string())
        cli.check_option_values(CONF)
    except cfg.ConfigDirNotFoundError as error:
        print(_('Invalid directory: %s') % error)
        sys.exit(2)
    except (cfg.ConfigFilesNotFoundError,
            cfg.ConfigFilesPermissionDeniedError) as error:
        print(_('Failed to read configuration file(s): %s')
              % ', '.join(error.config_files))
        sys.exit(2)


@cli.exits('masakari-manage', CONFIG_ERROR)
def main():
    """The masakari-manage console script; configuration errors exit 2
    with one line (doc/source/cli/masakari-manage.rst).
    """
    script_name = sys.argv[0]
    if len(sys.argv) < 2:
        print(_('\nOpenStack masakari version: %s\n')
              % version.version_string())
        _print_choices(script_name + ' category action [<args>]',
                       _('Available categories:'), CATEGORIES)
        sys.exit(2)

    logging.register_options(CONF)
    _parse_config(sys.argv)
    if (CONF.category.name in REPORT_CATEGORIES and not CONF.log_file and
            not CONF.use_journal):
        # NOTE: without a log file oslo.log writes to standard output,
        # where its lines (DEBUG ones with --debug) would mix with the
        # report.
        CONF.set_override('use_stderr', True)
    logging.setup(CONF, 'masakari')
    std_logging.captureWarnings(True)

    if CONF.category.action is None:
        # NOTE: 22.0.0 crashed here (NoSuchOptError); list the actions.
        category = CONF.category.name
        _print_choices(script_name + ' %s action [<args>]' % category,
                       _('Available actions:'), sorted(ACTIONS[category]))
        sys.exit(2)

    if CONF.category.name in DATABASE_CATEGORIES:
        config.check_database_connection(CONF)
    db_api.configure(CONF)
    sys.exit(ACTIONS[CONF.category.name][CONF.category.action]())


if __name__ == '__main__':
    sys.exit(main())
