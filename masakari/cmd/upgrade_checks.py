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

"""The checks of ``masakari-status upgrade check`` beyond the policy file:
each takes the parsed configuration and returns an oslo.upgradecheck
Result whose details say what to do (doc/source/admin/upgrade-check.rst).
"""

import errno
import glob
import os
import re
import socket
import subprocess
import sys
from urllib import request as urlrequest

from oslo_messaging import opts as messaging_opts
from oslo_upgradecheck import upgradecheck
import sqlalchemy as sa

from masakari.common import cli
from masakari import config
from masakari.db import migration
from masakari.fencing import config as fencing_config

Code = upgradecheck.Code
Result = upgradecheck.Result

# The option namespaces of the configuration samples
# (etc/masakari/*-config-generator.conf): what oslo-config-validator
# compares a configuration file with.
NAMESPACES = ('keystonemiddleware.auth_token', 'masakari.conf', 'oslo.db',
              'oslo.db.concurrency', 'oslo.log', 'oslo.messaging',
              'oslo.middleware', 'oslo.policy', 'oslo.service.service',
              'oslo.service.wsgi', 'oslo.versionedobjects',
              'customized_recovery_flow_opts')
VALIDATOR = ('import sys; from oslo_config import validator; '
             'sys.exit(validator.main())')
# What oslo-config-validator reports (log lines on stderr), and how we say
# it: an option that no namespace knows, an option under an old name.
VALIDATOR_REPORTS = (
    (re.compile(r'^ERROR:oslo_config\.validator:(?P<group>[^/\s]+)/'
                r'(?P<name>\S+) is not part of the sample config$'),
     'unknown option'),
    (re.compile(r'^WARNING:oslo_config\.validator:Deprecated opt '
                r'(?P<group>[^/\s]+)/(?P<name>\S+) found$'),
     'deprecated name'),
)
TASKFLOW_TABLES = ('logbooks', 'flowdetails', 'atomdetails')
METRICS_PROBE_TIMEOUT = 3


def prepare(conf):
    """Make ``conf`` ready to parse: the services' library defaults and
    options (:func:`register_opts`), and oslo.log's (``--debug``...).
    """
    config.prepare(conf)
    register_opts(conf)


def register_opts(conf):
    """The options of oslo.messaging, which the services register as they
    start, and the checks read and validate.
    """
    for group, opts in messaging_opts.list_opts():
        conf.register_opts(opts, group=group)


def configuration_files(conf):
    """The configuration files parsed: --config-file, then --config-dir."""
    files = list(conf.config_file or [])
    for directory in conf.config_dir or []:
        files += sorted(glob.glob(os.path.join(directory, '*.conf')))
    return files


def _validate(path):
    """What oslo-config-validator finds in ``path``: ["[group]/name: what"].
    """
    argv = [sys.executable, '-c', VALIDATOR, '--input-file', path]
    for namespace in NAMESPACES:
        argv += ['--namespace', namespace]
    result = subprocess.run(argv, capture_output=True, text=True,
                            timeout=120)
    found = ['[%s]/%s: %s' % (match.group('group'), match.group('name'),
                              what)
             for line in result.stderr.splitlines()
             for pattern, what in VALIDATOR_REPORTS
             for match in [pattern.match(line)] if match]
    if result.returncode and not found:
        found.append('oslo-config-validator failed: %s' % (
            result.stderr.strip().splitlines() or ['?'])[-1])
    return found


def configuration_options(conf):
    """Options no Masakari program knows (a typo is silently ignored) or
    knows under an older name, and values that cannot be read.
    """
    try:
        cli.check_option_values(conf)
    except cli.StartupError as error:
        return Result(Code.FAILURE, str(error))
    files = configuration_files(conf)
    found = ['%s: %s' % (path, problem) for path in files
             for problem in _validate(path)]
    if found:
        return Result(Code.WARNING, (
            '%s. Masakari ignores unknown options: correct their names or '
            'remove them; rename deprecated ones (see the configuration '
            'reference).' % '; '.join(found)))
    return Result(Code.SUCCESS, 'Checked with oslo-config-validator: %s.'
                  % (', '.join(files) or 'no configuration file'))


def _connect(url):
    """A connection to ``url`` without oslo.db's retries."""
    return sa.create_engine(url, poolclass=sa.pool.NullPool).connect()


def _unreachable(option, url, error):
    orig = getattr(error, 'orig', None) or error
    reason = (str(orig).strip().splitlines() or [type(orig).__name__])[0]
    return Result(Code.FAILURE, (
        'Cannot connect to %s (%s): %s. Check the URL, the credentials and '
        'that the database server runs and accepts connections from this '
        'host.' % (option, sa.engine.make_url(url).render_as_string(
            hide_password=True), reason)))


def database_revision(conf):
    """The main database is reachable and at the newest schema revision."""
    try:
        config.check_database_connection(conf)
    except cli.StartupError as error:
        return Result(Code.FAILURE, str(error))
    url = conf.database.connection
    try:
        with _connect(url) as connection:
            revision = migration.current_revision(connection)
    except (sa.exc.SQLAlchemyError, ValueError) as error:
        return _unreachable('[database]/connection', url, error)
    head = migration.head_revision()
    if revision == head:
        return Result(Code.SUCCESS, 'At the newest revision, %s.' % head)
    return Result(Code.FAILURE, (
        'The database is at revision %s; this release needs %s. Run '
        '"masakari-manage db sync" before starting the services.'
        % (revision or 'none (no Masakari schema)', head)))


def taskflow_database(conf):
    """[taskflow]/connection is set, reachable and holds taskflow's tables."""
    if conf.notification_driver != 'taskflow_driver':
        return Result(Code.SUCCESS, 'Not used by the notification driver '
                      '%s.' % conf.notification_driver)
    url = conf.taskflow.connection
    if not url:
        return Result(Code.FAILURE, (
            '[taskflow]/connection is not set: masakari-engine does not '
            'start without it. Set it (it may be the URL of '
            '[database]/connection) and run "masakari-manage db sync".'))
    try:
        with _connect(url) as connection:
            inspector = sa.inspect(connection)
            missing = [table for table in TASKFLOW_TABLES
                       if not inspector.has_table(table)]
    except (sa.exc.SQLAlchemyError, ValueError) as error:
        return _unreachable('[taskflow]/connection', url, error)
    if missing:
        return Result(Code.FAILURE, (
            'The taskflow tables %s are missing. Run "masakari-manage db '
            'sync".' % ', '.join(missing)))
    return Result(Code.SUCCESS, None)


def fencing_file(conf):
    """The fencing file, when one is configured, is valid and private."""
    path = conf.fencing.config_file
    if not path:
        return Result(Code.SUCCESS,
                      'Fencing is off ([fencing]/config_file is not set).')
    try:
        entries = fencing_config.load(path)
    except fencing_config.InvalidFile as error:
        return Result(Code.FAILURE, (
            '%s: %s. Correct the file ("masakari-manage fencing check" '
            'lists the same problems).' % (path, '; '.join(error.problems))))
    warning = fencing_config.exposure_warning(path)
    if warning:
        return Result(Code.WARNING, warning)
    return Result(Code.SUCCESS, '%s: %d host(s).' % (path, len(entries)))


def takeover_lease(conf):
    """[takeover]/lease_timeout outlasts [DEFAULT]/rpc_response_timeout."""
    lease = conf.takeover.lease_timeout
    if not lease:
        return Result(Code.SUCCESS, 'Takeover is off '
                      '([takeover]/lease_timeout = 0).')
    if lease <= conf.rpc_response_timeout:
        return Result(Code.WARNING, (
            '[takeover]/lease_timeout (%d s) is not longer than '
            '[DEFAULT]/rpc_response_timeout (%d s): a short outage of the '
            'message bus or the database can then move recoveries between '
            'live engines. Set lease_timeout above %d s, or lower '
            'rpc_response_timeout.' % (lease, conf.rpc_response_timeout,
                                       conf.rpc_response_timeout)))
    return Result(Code.SUCCESS, None)


def _serves_masakari_metrics(address, port):
    url = 'http://%s/metrics' % (
        '[%s]:%d' % (address, port) if ':' in address
        else '%s:%d' % (address, port))
    try:
        with urlrequest.urlopen(url, timeout=METRICS_PROBE_TIMEOUT) as reply:
            return b'masakari_' in reply.read()
    except OSError:
        return False


def _port_problem(address, port, option):
    """None when ``address:port`` is free or served by Masakari's metrics,
    else what is wrong.
    """
    family = socket.AF_INET6 if ':' in address else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            # NOTE: as the metrics server does: a closed connection still
            # in TIME_WAIT does not make the port busy.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((address, port))
        return None
    except OSError as error:
        if (error.errno == errno.EADDRINUSE
                and _serves_masakari_metrics(address, port)):
            return None
        return str(cli.bind_error(error, address, port, option))


def metrics_ports(conf):
    """The metrics ports are free here, or already served by Masakari."""
    metrics = conf.metrics
    if not metrics.enabled:
        return Result(Code.SUCCESS, 'Metrics are off ([metrics]/enabled '
                      'is false).')
    if metrics.api_listen_port == metrics.engine_listen_port:
        return Result(Code.WARNING, (
            '[metrics]/api_listen_port and engine_listen_port are both %d: '
            'on a host that runs both services only the first to start '
            'serves its metrics. Give them different ports.'
            % metrics.api_listen_port))
    ports = (('api_listen_port', metrics.api_listen_port),
             ('engine_listen_port', metrics.engine_listen_port))
    problems = [problem for problem in (
        _port_problem(metrics.listen_address, port, '[metrics]/' + option)
        for option, port in ports) if problem]
    if problems:
        return Result(Code.WARNING, '; '.join(problems) + ' (the services '
                      'start without their metrics endpoint).')
    return Result(Code.SUCCESS, None)
