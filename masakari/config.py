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

"""Start-up configuration of the services: parse options, set up RPC and DB.

``parse_args`` is what masakari-api, masakari-engine and the WSGI
application call first; masakari-manage and masakari-status parse
``CONF`` themselves.
"""

import logging as std_logging
import os

from oslo_config import cfg
from oslo_log import log
import oslo_messaging as messaging

from masakari.common import cli
from masakari.common import config as common_config
import masakari.conf
from masakari.db import api as db_api
from masakari import rpc
from masakari import version

CONF = masakari.conf.CONF

CONTROL_EXCHANGE = 'masakari'
ALEMBIC_PLUGINS_LOGGER = 'alembic.runtime.plugins'


def prepare(conf):
    """Make ``conf`` ready to parse, with Masakari's library defaults.

    Registers the oslo.log options (several are command line options, so
    this must precede parsing) and applies the default overrides: the
    'masakari' control exchange for RPC and notifications, and the CORS
    headers and methods. The overrides are option defaults, so an explicit
    value in a config file still wins.
    """
    # NOTE: command line options cannot be registered on a parsed object;
    # clearing first lets parse_args run again (tests, the WSGI application
    # re-parsing); parsing would clear it anyway.
    conf.clear()
    log.register_options(conf)
    log.set_defaults(default_log_levels=log.get_default_log_levels())
    messaging.set_transport_defaults(control_exchange=CONTROL_EXCHANGE)
    common_config.set_middleware_defaults()
    # NOTE: alembic logs at INFO every plugin it sets up when it is first
    # imported, which the engine does while starting: lines of noise
    # around the useful ones. A default_log_levels entry naming this
    # logger still wins: oslo.log sets those levels later, at setup.
    std_logging.getLogger(ALEMBIC_PLUGINS_LOGGER).setLevel(
        std_logging.WARNING)


def check_database_connection(conf):
    """Refuse [database]/connection left at its default while
    [DEFAULT]/state_path is too: the default URL would then create an
    empty SQLite file inside the installed package, and every request
    would fail on the missing tables.

    :raises: masakari.common.cli.StartupError
    """
    defaults = (cfg.Locations.opt_default, cfg.Locations.set_default)
    if (conf.get_location('connection', 'database').location in defaults
            and conf.get_location('state_path').location in defaults):
        path = os.path.join(conf.state_path, 'masakari.sqlite')
        raise cli.StartupError(
            '[database]/connection is not set, and its default would '
            'create an empty SQLite database in the Python installation '
            '(%s); set [database]/connection to the URL of the Masakari '
            'database (e.g. mysql+pymysql://masakari:PASSWORD@controller/'
            'masakari?charset=utf8) and run "masakari-manage db sync"'
            % path)


def parse_args(argv, default_config_files=None, configure_db=True,
               init_rpc=True):
    """Parse the command line and config files into the global ``CONF``.

    :param argv: the full argument vector; ``argv[0]`` (program name) is
        skipped.
    :param default_config_files: config files to read when the command
        line names none; ``None`` searches masakari.conf and <prog>.conf in
        ~/.masakari/, ~/, /etc/masakari/ and /etc/.
    :param configure_db: configure the database engine facade from the
        parsed [database] options (refused when they are unset:
        :func:`check_database_connection`).
    :param init_rpc: set up the RPC and notification transports.
    :raises: oslo.config's errors of missing or unparsable files,
        masakari.common.cli.StartupError for a bad option value,
        oslo.messaging's DriverLoadFailure or InvalidTransportURL.
    """
    prepare(CONF)
    CONF(argv[1:],
         project='masakari',
         version=version.version_string(),
         default_config_files=default_config_files)
    cli.check_option_values(CONF)
    if init_rpc:
        # NOTE: stevedore warns "Could not load <scheme>" when no driver
        # has the transport URL's scheme; the DriverLoadFailure that
        # follows says it better, with the option and the known schemes.
        stevedore_log = std_logging.getLogger('stevedore.named')
        level = stevedore_log.level
        stevedore_log.setLevel(std_logging.ERROR)
        try:
            rpc.init(CONF)
        finally:
            stevedore_log.setLevel(level)
    if configure_db:
        check_database_connection(CONF)
        db_api.configure(CONF)
