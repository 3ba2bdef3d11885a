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

"""``masakari-manage fencing check [--file PATH] [--connect]``.

Validates the fencing file (``[fencing]/config_file``, or ``--file``) and
lists every problem with its host; with ``--connect`` also logs in to
every host's BMC and reads its power state, changing nothing. Exit status
0 when everything is fine, 1 otherwise. Passwords are never printed.
"""

from concurrent import futures

import masakari.conf
from masakari import exception
from masakari.fencing import base
from masakari.fencing import config
from masakari.i18n import _

CONF = masakari.conf.CONF
# BMC logins run side by side: one slow BMC must not make the check of a
# large cloud last minutes.
CONNECT_WORKERS = 8


def add_parser(actions):
    """Add ``check`` under the ``fencing`` category parser."""
    check_parser = actions.add_parser('check')
    check_parser.add_argument(
        '--file', default=None,
        help=_('Fencing file to check (default: [fencing]/config_file).'))
    check_parser.add_argument(
        '--connect', action='store_true',
        help=_('Also log in to every BMC and read its power state; nothing '
               'is powered on or off.'))


def _connect(driver):
    try:
        return True, _('power %s') % driver.check()
    except exception.FencingFailed as error:
        return False, error.kwargs['reason']
    finally:
        driver.close()


def _describe(driver):
    described = driver.describe()
    return ' '.join([described['driver']] + [
        '%s=%s' % (key, described[key])
        for key in ('address', 'port', 'system_id')
        if described.get(key) is not None])


def check():
    path = CONF.category.file or CONF.fencing.config_file
    if not path:
        print(_('No fencing file: [fencing]/config_file is not set (fencing '
                'is off) and no --file was given.'))
        return 1
    try:
        entries = config.load(path)
    except config.InvalidFile as error:
        print(_('%(path)s: %(count)d problem(s):')
              % {'path': path, 'count': len(error.problems)})
        for problem in error.problems:
            print('  %s' % problem)
        return 1
    warning = config.exposure_warning(path)
    if warning:
        print(_('WARNING: %s') % warning)
    print(_('%(path)s: %(count)d host(s), valid.')
          % {'path': path, 'count': len(entries)})
    drivers = {host: base.driver_class(settings['driver'])(host, settings)
               for host, settings in entries.items()}
    if not CONF.category.connect:
        for host in sorted(drivers):
            print('  %s: %s' % (host, _describe(drivers[host])))
        return 0
    with futures.ThreadPoolExecutor(CONNECT_WORKERS) as pool:
        results = {host: pool.submit(_connect, driver)
                   for host, driver in drivers.items()}
    failed = 0
    for host in sorted(results):
        ok, detail = results[host].result()
        failed += not ok
        print('  %s: %s: %s %s' % (host, _describe(drivers[host]),
                                   _('OK') if ok else _('FAILED'), detail))
    return 1 if failed else 0
