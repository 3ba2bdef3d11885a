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

"""Fencing: power a failed compute host off before evacuating it.

``driver_for(host_name)`` gives the FencingDriver of a compute host from
the file named by ``[fencing]/config_file``, or None when the host has no
entry (or fencing is off). The file is read again whenever its
modification time or size changes, so an operator can add a host without
restarting the engine.
"""

import os
import threading

import masakari.conf
from masakari import exception
from masakari.fencing import base
from masakari.fencing import config

CONF = masakari.conf.CONF

_cache_lock = threading.Lock()
_cache = {}


def _signature(path):
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size, status.st_ino)


def host_entries():
    """{host name: settings} of the configured fencing file ({} if off).

    :raises: config.InvalidFile when the file is missing or invalid.
    """
    path = CONF.fencing.config_file
    if not path:
        return {}
    signature = _signature(path)
    with _cache_lock:
        cached = _cache.get(path)
        if cached is None or signature is None or cached[0] != signature:
            cached = (signature, config.load(path))
            _cache.clear()
            _cache[path] = cached
        return cached[1]


def driver_for(host_name):
    """The FencingDriver of ``host_name``, or None when it has no entry.

    :raises: FencingFailed when the fencing file is missing or invalid:
        its problems are the reason (they never quote a value).
    """
    try:
        entries = host_entries()
    except config.InvalidFile as error:
        raise exception.FencingFailed(
            host=host_name,
            reason='the fencing file %s is not usable: %s'
                   % (error.path, '; '.join(error.problems)))
    settings = entries.get(host_name)
    if settings is None:
        return None
    return base.driver_class(settings['driver'])(host_name, settings)
