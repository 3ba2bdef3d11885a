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

"""The fencing file: read it, check every host entry, fill in defaults.

The file is YAML: a mapping from Nova compute host name to that host's
settings (doc/source/admin/fencing-drivers.rst). Problems are reported all
at once, each with its host name, and never with a value (a misplaced
password would otherwise be printed).
"""

import os
import stat

from oslo_log import log as logging
import yaml

import masakari.conf
from masakari.fencing import base

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

_STRINGS = ('driver', 'address', 'username', 'password', 'system_id')
_POSITIVE = ('power_off_timeout', 'poll_interval', 'timeout')


class InvalidFile(ValueError):
    """The fencing file cannot be used; ``problems`` lists why."""

    def __init__(self, path, problems):
        self.path = path
        self.problems = problems
        super().__init__('%s: %s' % (path, '; '.join(problems)))


def read(path):
    """The parsed YAML document of ``path``.

    :raises: InvalidFile when it cannot be read or parsed.
    """
    try:
        with open(path, encoding='utf-8') as stream:
            return yaml.safe_load(stream)
    except OSError as error:
        raise InvalidFile(path, ['cannot be read: %s' % error.strerror])
    except yaml.YAMLError as error:
        # NOTE: the parser's message quotes only the position and the
        # token kind, not the text around it.
        mark = getattr(error, 'problem_mark', None)
        where = (' at line %d' % (mark.line + 1)) if mark else ''
        raise InvalidFile(path, ['is not valid YAML%s' % where])


def _type_problems(settings):
    problems = []
    for key in sorted(set(settings) - set(base.KNOWN_SETTINGS)):
        problems.append("unknown setting '%s'" % key)
    for key in _STRINGS:
        if key in settings and not isinstance(settings[key], str):
            problems.append("'%s' must be a string" % key)
    port = settings.get('port')
    if port is not None and (isinstance(port, bool)
                             or not isinstance(port, int)
                             or not 0 < port < 65536):
        problems.append("'port' must be an integer from 1 to 65535")
    for key in _POSITIVE:
        value = settings.get(key)
        if value is not None and (isinstance(value, bool)
                                  or not isinstance(value, (int, float))
                                  or value <= 0):
            problems.append("'%s' must be a positive number" % key)
    verify = settings.get('verify')
    if verify is not None and not isinstance(verify, (bool, str)):
        problems.append("'verify' must be true, false or the path of a "
                        "CA bundle")
    return problems


def _driver_problems(settings, classes):
    name = settings.get('driver')
    if not isinstance(name, str) or not name:
        return ["'driver' is required"]
    if name not in classes:
        try:
            classes[name] = base.driver_class(name)
        except Exception as error:
            # NOTE: an unknown name (NoMatches) or a driver whose library
            # is not installed (ImportError); both make the entry unusable.
            classes[name] = None
            LOG.debug('Fencing driver %s cannot be loaded: %s', name, error)
    driver = classes[name]
    if driver is None:
        return ["driver '%s' is not installed (entry point namespace %s)"
                % (name, base.NAMESPACE)]
    return driver.settings_problems(settings)


def validate(document):
    """Every problem of a parsed fencing file, as "host: problem" strings.

    An empty list means the document can be used as it is.
    """
    if document is None:
        return []
    if not isinstance(document, dict):
        return ['the file must be a mapping of compute host names to '
                'their settings']
    problems = []
    classes = {}
    for host, settings in document.items():
        if not isinstance(settings, dict):
            problems.append('%s: the entry must be a mapping' % host)
            continue
        for problem in (_type_problems(settings)
                        + _driver_problems(settings, classes)):
            problems.append('%s: %s' % (host, problem))
    return problems


def with_defaults(settings):
    """A copy of one host entry with the deadlines always present."""
    filled = dict(settings)
    filled.setdefault('power_off_timeout', CONF.fencing.power_off_timeout)
    filled.setdefault('poll_interval', CONF.fencing.poll_interval)
    filled.setdefault('verify', True)
    return filled


def load(path):
    """The host entries of the fencing file, checked, defaults filled in.

    :returns: {compute host name: settings}.
    :raises: InvalidFile with every problem found.
    """
    document = read(path)
    problems = validate(document)
    if problems:
        raise InvalidFile(path, problems)
    return {str(host): with_defaults(settings)
            for host, settings in (document or {}).items()}


def exposure_warning(path):
    """A warning text when ``path`` is readable by group or others, else
    None (also None when it does not exist: loading reports that).
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        return ('The fencing file %s holds BMC passwords and is accessible '
                'by group or others (mode %s); make it readable by the '
                'masakari user only.' % (path, oct(stat.S_IMODE(mode))))
    return None


def warn_if_exposed():
    """At service start: log a WARNING when the configured fencing file
    is readable by group or others. Nothing when fencing is off.
    """
    path = CONF.fencing.config_file
    warning = exposure_warning(path) if path else None
    if warning:
        LOG.warning(warning)
    return warning
