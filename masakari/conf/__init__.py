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

"""All Masakari options, registered on the global oslo.config object.

Importing this package registers every option of every group (one module
per topic) and the default [database]/connection, so any module can read
``masakari.conf.CONF.<group>.<name>``.
"""

from oslo_config import cfg

from masakari.conf import api
from masakari.conf import base
from masakari.conf import capacity
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
                  takeover, wsgi, host_recovery_safety, metrics, capacity)

for _module in OPTION_MODULES:
    _module.register_opts(CONF)
