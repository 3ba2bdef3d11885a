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
settings; top-level keys starting with a dot hold shared settings for YAML
anchors and are not hosts (doc/source/admin/fencing-drivers.rst). Problems
are reported all at once, each with its host name, and never with a value
(a misplaced password would otherwise be printed).
"""

import os
import stat

import jsonschema
from oslo_log import log as logging
import yaml

import masakari.conf
from masakari.fencing import base

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

# A top-level key starting with this is no host (Nova host names never do).
SHARED_PREFIX = '.'

_STRING = {'type': 'string'}
_POSITIVE = {'type': 'number', 'exclusiveMinimum': 0}
# Every key a host entry may have, whatever its driver, with its type and
# the problem reported when a value does not match it (never the value).
# 'driver' is checked with the driver itself (_driver_problems).
_SETTINGS = {
    'driver': ({}, None),
    'address': (_STRING, "'address' must be a string"),
    'username': (_STRING, "'username' must be a string"),
    'password': (_STRING, "'password' must be a string"),
    'system_id': (_STRING, "'system_id' must be a string"),
    'port': ({'type': 'integer', 'minimum': 1, 'maximum': 65535},
             "'port' must be an integer from 1 to 65535"),
    'power_off_timeout': (_POSITIVE,
                          "'power_off_timeout' must be a positive number"),
    'poll_interval': (_POSITIVE, "'poll_interval' must be a positive number"),
    'timeout': (_POSITIVE, "'timeout' must be a positive number"),
    'verify': ({'anyOf': [{'type': 'boolean'},
                          {'type': 'string', 'pattern': '^/'}]},
               "'verify' must be true, false or the absolute path of a CA "
               "bundle"),
}
ENTRY_SCHEMA = {
    'type': 'object',
    'properties': {key: schema for key, (schema, _problem) in
                   _SETTINGS.items()},
    # NOTE: unknown keys are reported, so that a misspelt "pasword" does
    # not go unnoticed.
    'additionalProperties': False,
}
_ENTRY_VALIDATOR = jsonschema.Draft202012Validator(ENTRY_SCHEMA)


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
    """The schema's verdict on one entry, in the order of _SETTINGS.

    NOTE: jsonschema's own messages quote the offending value, so each
    error is turned into the key's problem text.
    """
    keys = set()
    for error in _ENTRY_VALIDATOR.iter_errors(settings):
        if error.validator == 'additionalProperties':
            keys.update(set(settings) - set(_SETTINGS))
        else:
            keys.add(error.path[0])
    unknown = sorted(str(key) for key in keys - set(_SETTINGS))
    return (["unknown setting '%s'" % key for key in unknown] +
            [problem for key, (_schema, problem) in _SETTINGS.items()
             if key in keys])


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


def hosts(document):
    """The host entries of a parsed file: every top-level key but the
    shared settings (keys starting with a dot).
    """
    return {host: settings for host, settings in document.items()
            if not str(host).startswith(SHARED_PREFIX)}


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
    for host, settings in hosts(document).items():
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
            for host, settings in hosts(document or {}).items()}


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
