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

"""How a console script fails to start: one line on stderr naming the
option, file or port and what to do, a documented exit status, and the
traceback only with ``--debug`` (doc/source/cli/index.rst).
"""

import errno
import functools
from importlib import metadata
import logging
import re
import sys
import traceback

from oslo_config import cfg

LOG = logging.getLogger(__name__)

DEBUG_FLAGS = ('-d', '--debug')
TRANSPORT_NAMESPACE = 'oslo.messaging.drivers'
# "Value for option NAME from LocationInfo(..., detail='FILE') is not
# valid: REASON", oslo.config's text for a value it cannot convert.
_VALUE_ERROR = re.compile(r"option (?P<name>\S+) from .*detail='(?P<file>"
                          r"[^']*)'\) is not valid: (?P<reason>.*)$",
                          re.DOTALL)


class StartupError(Exception):
    """A problem the operator must fix before the program can start; its
    text is the whole message (what is wrong, where, what to do).
    """


def option_value_error(error, group=None, name=None):
    """StartupError for the unusable value of ``[group]/name`` (oslo.config's
    ValueError ``error``; without ``group``, the option its text names).
    """
    found = _VALUE_ERROR.search(str(error))
    if not found:
        return StartupError('%s; correct it in the configuration file'
                            % error)
    option = ('[%s]/%s' % (group, name) if group
              else 'option %s' % found.group('name'))
    return StartupError(
        'invalid value of %s in %s: %s; correct it (the configuration '
        'reference lists the allowed values)'
        % (option, found.group('file'), found.group('reason').strip()))


def check_option_values(conf):
    """Convert every registered option once, so that a bad value stops
    the start-up naming its option, instead of failing whenever the
    option is first read (possibly in the middle of a recovery).

    :raises: StartupError for the first bad value.
    """
    for key in list(conf):
        try:
            value = conf[key]
        except ValueError as error:
            raise option_value_error(error, 'DEFAULT', key)
        if not isinstance(value, cfg.ConfigOpts.GroupAttr):
            continue
        for name in list(value):
            try:
                getattr(value, name)
            except ValueError as error:
                raise option_value_error(error, key, name)


def bind_error(error, host, port, option):
    """StartupError for an OSError of binding ``host:port``.

    :param option: the option or command-line flag that sets the port.
    """
    if error.errno == errno.EADDRINUSE:
        what = ('port %s on %s is already in use by another program: stop '
                'it, or choose another port with %s' % (port, host, option))
    elif error.errno == errno.EADDRNOTAVAIL:
        what = ('cannot listen on %s: it is not an address of this host; '
                'set the address that goes with %s' % (host, option))
    elif error.errno == errno.EACCES:
        what = ('no permission to listen on port %s of %s (ports below '
                '1024 need privileges): choose another port with %s'
                % (port, host, option))
    else:
        what = 'cannot listen on %s:%s (%s): check %s' % (
            host, port, error.strerror or error, option)
    return StartupError(what)


def _transport_error(error):
    """The line of oslo.messaging's DriverLoadFailure or
    InvalidTransportURL, else None.
    """
    # NOTE: looked up rather than imported: a program that never imported
    # oslo.messaging (the simulator) cannot have its errors, and importing
    # it would import eventlet.
    messaging = sys.modules.get('oslo_messaging')
    if messaging is None:
        return None
    if isinstance(error, messaging.DriverLoadFailure):
        installed = sorted({entry_point.name for entry_point in
                            metadata.entry_points(group=TRANSPORT_NAMESPACE)})
        return ('[DEFAULT]/transport_url names the transport "%s", which no '
                'installed oslo.messaging driver provides (installed: %s); '
                'correct the scheme of the URL, e.g. rabbit://'
                % (error.driver, ', '.join(installed)))
    if isinstance(error, messaging.InvalidTransportURL):
        return ('[DEFAULT]/transport_url is not a valid transport URL (%s); '
                'write it as rabbit://USER:PASSWORD@HOST:5672/' % error)
    return None


def describe(error):
    """The one-line message of a start-up error, or None when ``error``
    is not one (a defect: its traceback is the report).
    """
    if isinstance(error, StartupError):
        return str(error)
    if isinstance(error, cfg.ConfigFilesNotFoundError):
        return ('configuration file not found: %s; check the --config-file '
                'arguments' % ', '.join(error.config_files))
    if isinstance(error, cfg.ConfigFilesPermissionDeniedError):
        return ('configuration file not readable: %s; give the user '
                'running this program read access'
                % ', '.join(error.config_files))
    if isinstance(error, cfg.ConfigDirNotFoundError):
        return ('configuration directory not found: %s; check the '
                '--config-dir argument' % error.config_dir_path)
    if isinstance(error, cfg.ConfigFileParseError):
        return ('cannot parse the configuration file %s: %s; it must be '
                'an ini file of [sections] and "option = value" lines'
                % (error.config_file, error.msg))
    if isinstance(error, cfg.RequiredOptError):
        return '%s; set it in the configuration file' % error
    if isinstance(error, cfg.TemplateSubstitutionError):
        return ('%s; a "$" in a value refers to another option: write "$$" '
                'for a literal dollar sign' % error.msg)
    if isinstance(error, (cfg.ConfigFileValueError,
                          cfg.ConfigSourceValueError)):
        return str(option_value_error(error))
    return _transport_error(error)


def _debug(argv):
    if any(flag in argv for flag in DEBUG_FLAGS):
        return True
    try:
        return bool(cfg.CONF.debug)
    except (cfg.Error, AttributeError, ValueError):
        return False


def report(prog, line, argv=None):
    """Print ``prog: error: line`` on stderr (and the traceback of the
    exception being handled, with --debug); also log it when the log goes
    elsewhere than the console.
    """
    if _debug(sys.argv[1:] if argv is None else argv):
        traceback.print_exc()
    print('%s: error: %s' % (prog, line), file=sys.stderr, flush=True)
    if _logs_elsewhere():
        LOG.error(line)


def _logs_elsewhere():
    """Whether the log is set up and goes only to files (or syslog, the
    journal): then it should record the error too.
    """
    handlers = logging.getLogger().handlers
    return bool(handlers) and not any(
        getattr(handler, 'stream', None) in (sys.stderr, sys.stdout)
        for handler in handlers)


def exits(prog, status):
    """Decorate a console script's ``main``: a start-up error prints its
    one line (:func:`report`) and exits with ``status``.
    """
    def decorate(main):
        @functools.wraps(main)
        def wrapper(*args, **kwargs):
            try:
                return main(*args, **kwargs)
            except Exception as error:
                line = describe(error)
                if line is None:
                    raise
                argv = kwargs.get('argv', args[0] if args else None)
                report(prog, line, argv)
                sys.exit(status)
        return wrapper
    return decorate
