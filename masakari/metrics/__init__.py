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

"""Prometheus metrics of masakari-api and masakari-engine (opt-in).

A service calls :func:`configure` once its configuration is parsed; only
then, and only with [metrics]/enabled, do the recording functions of
``masakari.metrics.api``, ``.engine`` and ``.nova`` record anything. The
metric families themselves (``masakari.metrics.families``) are built on
first use, after prometheus_client's multiprocess mode has been chosen,
since the library fixes a value's storage when the value is made.
"""

import os

from oslo_log import log as logging

import masakari.conf

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

# Read by prometheus_client: where the processes of one endpoint write.
MULTIPROC_ENV = 'PROMETHEUS_MULTIPROC_DIR'

_enabled = False


def enabled():
    """Whether this process records metrics."""
    return _enabled


def multiprocess_dir():
    """The directory of the multiprocess mode in force, or None."""
    return os.environ.get(MULTIPROC_ENV)


def configure(multiprocess, fallback_dir=None):
    """Turn recording on when [metrics]/enabled.

    :param multiprocess: whether several processes of this service share
        one endpoint (masakari-api); masakari-engine is one process and
        never uses (nor mixes its numbers into) a multiprocess directory.
    :param fallback_dir: the multiprocess directory to use when neither
        [metrics]/multiprocess_dir nor $PROMETHEUS_MULTIPROC_DIR names one
        (the console script's temporary directory).
    :returns: whether metrics are enabled.
    """
    global _enabled
    if not CONF.metrics.enabled:
        return False
    directory = None
    if multiprocess:
        directory = (CONF.metrics.multiprocess_dir or multiprocess_dir() or
                     fallback_dir)
    if directory:
        os.makedirs(directory, exist_ok=True)
        os.environ[MULTIPROC_ENV] = directory
    else:
        os.environ.pop(MULTIPROC_ENV, None)
    # NOTE: prometheus_client picks the value storage when it is imported;
    # pick it again in case something imported it before this point.
    from prometheus_client import values
    values.ValueClass = values.get_value_class()
    _enabled = True
    LOG.info('Prometheus metrics enabled%s.',
             ' (multiprocess directory %s)' % directory if directory else '')
    return True


def disable():
    """Stop recording (the all-in-one process stopping its services)."""
    global _enabled
    _enabled = False
