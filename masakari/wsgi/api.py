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

"""``application``: masakari-api for uWSGI, mod_wsgi or gunicorn.

Built once at import from ``$OS_MASAKARI_CONFIG_DIR`` (default
/etc/masakari): its api-paste.ini and masakari.conf, plus the files of the
default oslo.config search path. The hosting server owns sockets, workers
and TLS; no eventlet here.
"""

import os
import threading

from oslo_config import cfg
from oslo_log import log as logging
from paste import deploy

from masakari.api import metrics as api_metrics
from masakari.common import startup
from masakari import config
from masakari import metrics
from masakari.metrics import server as metrics_server
from masakari import objects

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

CONFIG_DIR_ENV = 'OS_MASAKARI_CONFIG_DIR'
DEFAULT_CONFIG_DIR = '/etc/masakari'
PASTE_FILE = 'api-paste.ini'
CONFIG_FILE = 'masakari.conf'
APP_NAME = 'masakari_api'

_lock = threading.Lock()
_application = None


def _config_files(config_dir):
    """The default search path's files, then the directory's two files.

    NOTE: the reference parsed twice, and the second parse (search path
    only) dropped every value of $OS_MASAKARI_CONFIG_DIR but [database];
    one parse where the directory's files come last (and win) keeps both.
    """
    wanted = [os.path.join(config_dir, PASTE_FILE),
              os.path.join(config_dir, CONFIG_FILE)]
    files = []
    for path in cfg.find_config_files(project='masakari') + wanted:
        if os.path.realpath(path) not in map(os.path.realpath, files):
            files.append(path)
    return files


def initialize_application():
    """Parse the configuration and load the paste app ``masakari_api``.

    :raises: oslo_config.cfg.ConfigFilesNotFoundError when a file of
        $OS_MASAKARI_CONFIG_DIR is missing.
    """
    config_dir = os.environ.get(CONFIG_DIR_ENV, DEFAULT_CONFIG_DIR).strip()
    config.parse_args(['masakari-api'],
                      default_config_files=_config_files(config_dir))
    logging.setup(CONF, 'masakari')
    objects.register_all()
    CONF.log_opt_values(LOG, logging.DEBUG)
    paste_file = os.path.join(config_dir, PASTE_FILE)
    app = deploy.loadapp('config:%s' % os.path.abspath(paste_file),
                         name=APP_NAME)
    if metrics.configure(multiprocess=True):
        # NOTE: every process of the server tries; the first to bind the
        # port serves the sum of all of them (multiprocess mode).
        metrics_server.serve(CONF.metrics.listen_address,
                             CONF.metrics.api_listen_port,
                             taken_is_fine=True)
    return api_metrics.wrap(app)


def _build():
    global _application
    with _lock:
        if _application is None:
            _application = initialize_application()
            # NOTE: before the hosting server forks its workers, if it does.
            startup.freeze_loaded_objects()
    return _application


application = _build()
