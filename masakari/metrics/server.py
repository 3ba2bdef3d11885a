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

"""The HTTP endpoint Prometheus scrapes, and the multiprocess directory
of the masakari-api console script.

In multiprocess mode (several processes behind one endpoint) the endpoint
sums the files every process writes in the directory, whichever process
serves it; otherwise it serves this process's registry.
"""

import atexit
import errno
import glob
import os
import shutil
import tempfile

from oslo_log import log as logging
import prometheus_client
from prometheus_client import multiprocess

from masakari import metrics

LOG = logging.getLogger(__name__)


def _registry(collectors):
    if metrics.multiprocess_dir():
        registry = prometheus_client.CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = prometheus_client.REGISTRY
    for collector in collectors:
        registry.register(collector)
    return registry


def serve(address, port, collectors=(), taken_is_fine=False):
    """Serve the metrics on ``address:port`` from a daemon thread.

    :param collectors: extra collectors, asked at each scrape.
    :param taken_is_fine: whether another process of this service may
        already serve the port (the WSGI processes under uWSGI or
        mod_wsgi: the first one to bind serves everybody's sum).
    :returns: whether this process serves the endpoint. A port that
        cannot be bound is logged, never fatal: recoveries matter more.
    """
    try:
        prometheus_client.start_http_server(port, addr=address,
                                            registry=_registry(collectors))
    except OSError as error:
        if taken_is_fine and error.errno == errno.EADDRINUSE:
            LOG.info('Metrics on %(address)s:%(port)s are served by another '
                     'process.', {'address': address, 'port': port})
        else:
            LOG.error('Cannot serve metrics on %(address)s:%(port)s: '
                      '%(error)s', {'address': address, 'port': port,
                                    'error': error})
        return False
    LOG.info('Serving metrics on http://%(address)s:%(port)s/metrics',
             {'address': address, 'port': port})
    return True


def console_dir():
    """A fresh multiprocess directory for the console script's workers:
    the configured one emptied, or a temporary one removed at exit.

    :returns: the directory to pass to ``metrics.configure``.
    """
    directory = (metrics.CONF.metrics.multiprocess_dir or
                 metrics.multiprocess_dir())
    if not directory:
        directory = tempfile.mkdtemp(prefix='masakari-api-metrics-')
        atexit.register(shutil.rmtree, directory, ignore_errors=True)
        return directory
    # NOTE: files of an earlier run would add their counts to this one's.
    for path in glob.glob(os.path.join(directory, '*.db')):
        os.remove(path)
    return directory
