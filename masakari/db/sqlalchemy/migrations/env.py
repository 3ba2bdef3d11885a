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

"""Alembic environment of the main database.

The version table is ``masakari_alembic_version`` (taskflow keeps its own
schema in ``alembic_version``, often in the same database), and batch mode
is on so that future migrations also work on SQLite.
"""

from logging import config as logging_config

from alembic import context
import sqlalchemy as sa

from masakari.db.sqlalchemy import models

VERSION_TABLE = 'masakari_alembic_version'

config = context.config

# NOTE: masakari-manage hands over its own connection and keeps its logging
# set-up; the ini file's logging only applies to the bare alembic CLI.
if config.attributes.get('connection') is None and config.config_file_name:
    logging_config.fileConfig(config.config_file_name)


def _configure(**kwargs):
    context.configure(target_metadata=models.BASE.metadata,
                      version_table=VERSION_TABLE,
                      render_as_batch=True,
                      **kwargs)


def run_migrations_offline():
    """Render the SQL for the configured URL without connecting."""
    _configure(url=config.get_main_option('sqlalchemy.url'),
               literal_binds=True,
               dialect_opts={'paramstyle': 'named'})
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    """Run the migrations on the given connection, or on a new engine."""
    connection = config.attributes.get('connection')
    if connection is not None:
        _configure(connection=connection)
        with context.begin_transaction():
            context.run_migrations()
        return

    engine = sa.create_engine(config.get_main_option('sqlalchemy.url'),
                              poolclass=sa.pool.NullPool)
    with engine.connect() as connection:
        _configure(connection=connection)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
