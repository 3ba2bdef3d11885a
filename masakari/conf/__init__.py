"""All Masakari options, registered on the global oslo.config object.

Importing this package registers every option of every group (one module
per topic) and the default [database]/connection, so any module can read
``masakari.conf.CONF.<group>.<name>``.
"""

from oslo_config import cfg

from masakari.conf import api
from masakari.conf import base
from masakari.conf import coordination
from masakari.conf import database
from masakari.conf import engine
from masakari.conf import engine_driver
from masakari.conf import exceptions
from masakari.conf import fencing
from masakari.conf import host_recovery_safety
from masakari.conf import metrics
from masakari.conf import nova
from masakari.conf import osapi_v1
from masakari.conf import paths
from masakari.conf import service
from masakari.conf import ssl
from masakari.conf import takeover
from masakari.conf import wsgi

CONF = cfg.CONF

OPTION_MODULES = (api, base, coordination, database, engine, engine_driver,
                  exceptions, fencing, nova, osapi_v1, paths, service, ssl,
                  takeover, wsgi, host_recovery_safety, metrics)

for _module in OPTION_MODULES:
    _module.register_opts(CONF)
