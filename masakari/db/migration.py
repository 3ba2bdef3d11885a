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

"""Schema migrations of the main database (alembic), for masakari-manage.

Databases last migrated by sqlalchemy-migrate (Masakari before the move to
alembic) are first stamped with the matching alembic revision, never
altered.
"""

import os

from alembic import command as alembic_command
from alembic import config as alembic_config
from alembic.runtime import migration as alembic_migration
from alembic import script as alembic_script
from oslo_log import log as logging
import sqlalchemy as sa

from masakari.db import facade
from masakari import exception
from masakari.i18n import _

LOG = logging.getLogger(__name__)

ALEMBIC_INI = os.path.join(os.path.dirname(__file__), 'sqlalchemy',
                           'alembic.ini')
VERSION_TABLE = 'masakari_alembic_version'

# The alembic revision matching each sqlalchemy-migrate version we accept
# (008 and any later version map to the same one).
LEGACY_REVISIONS = {7: '8f848eb45d03', 8: '8bdf5929c5a6'}
FORCE_SYNC_VARIABLE = 'FORCE_MASAKARI_DB_SYNC'


def _alembic_config(connection):
    config = alembic_config.Config(ALEMBIC_INI)
    url = connection.engine.url.render_as_string(hide_password=False)
    # NOTE: the ini parser interpolates '%'; a URL-quoted password must
    # survive it.
    config.set_main_option('sqlalchemy.url', url.replace('%', '%%'))
    config.attributes['connection'] = connection
    return config


def current_revision(connection):
    """The alembic revision recorded in the database of ``connection``,
    or None.
    """
    context = alembic_migration.MigrationContext.configure(
        connection, opts={'version_table': VERSION_TABLE})
    return context.get_current_revision()


def _legacy_version(connection):
    """The sqlalchemy-migrate version of a database still under its
    control, else None.
    """
    if not sa.inspect(connection).has_table('migrate_version'):
        return None
    if current_revision(connection) is not None:
        return None
    row = connection.execute(
        sa.text('SELECT version FROM migrate_version')).first()
    return None if row is None else int(row.version)


def _stamp_legacy(config, connection):
    version = _legacy_version(connection)
    if version is None:
        return
    if version < min(LEGACY_REVISIONS):
        raise exception.InvalidInput(_(
            'Your database is at version %03d; we only support upgrading '
            'from version 007 or later. Please upgrade your database using '
            'an earlier release of Masakari and then return here.') % version)
    if version > max(LEGACY_REVISIONS):
        if FORCE_SYNC_VARIABLE not in os.environ:
            raise exception.InvalidInput(_(
                'Your database is at version %03d; we do not recognise this '
                'version and it is likely you are carrying out-of-tree '
                'migrations. You can still upgrade but we cannot guarantee '
                'things will work as expected. If you wish to continue, set '
                'the FORCE_MASAKARI_DB_SYNC environment variable to any '
                'value and retry.') % version)
        LOG.warning('Your database is at version %03d; we do not recognise '
                    'this version but the FORCE_MASAKARI_DB_SYNC environment '
                    'variable is set so we are continuing. Things may '
                    'break. You have been warned!', version)
    LOG.info('The database is still under sqlalchemy-migrate control; fake '
             'applying the initial alembic migration')
    revision = LEGACY_REVISIONS[min(version, max(LEGACY_REVISIONS))]
    alembic_command.stamp(config, revision)


def db_sync(version=None):
    """Upgrade the main database to ``version`` (an alembic revision id)
    or to the head, stamping a sqlalchemy-migrate database first.

    :raises: ValueError for a sqlalchemy-migrate version number;
        InvalidInput for a legacy database we cannot take over; alembic's
        CommandError for an unknown revision.
    """
    if version is not None and str(version).isdigit():
        raise ValueError(_('You requested an sqlalchemy-migrate database '
                           'version; this is no longer supported'))
    LOG.info('Applying migration(s)')
    with facade.get_engine().begin() as connection:
        config = _alembic_config(connection)
        _stamp_legacy(config, connection)
        alembic_command.upgrade(config, version or 'head')


def head_revision():
    """The newest revision of the schema: the one ``db_sync`` migrates to."""
    scripts = alembic_script.ScriptDirectory.from_config(
        alembic_config.Config(ALEMBIC_INI))
    return scripts.get_current_head()


def db_version():
    """The alembic revision of the main database, or None when it has
    none (empty database, or one still under sqlalchemy-migrate).
    """
    with facade.get_engine().connect() as connection:
        return current_revision(connection)
