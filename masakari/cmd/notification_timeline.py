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

"""``masakari-manage notification timeline <uuid>``: print the per-phase
timeline of a notification's recovery, from the database alone.

Each recorded run of the recovery flow is shown with one bar per phase
on the run's time axis, its total and the evacuations that ended in it;
a host recovery ends with the same line the engine logs. Works for
notifications processed by any engine (Masakari 22.0.0 included): only
the stored progress details and vmoves are read. ``--format svg`` prints
the same as an SVG chart (errors then go to standard error).
"""

import functools
import sys
import warnings

from oslo_config import cfg

from masakari import context
from masakari import exception
from masakari.i18n import _
from masakari import objects
from masakari.objects import fields

CONF = cfg.CONF
TEXT = 'text'
SVG = 'svg'
FORMATS = (TEXT, SVG)


def add_parser(actions):
    """Add ``timeline <notification_uuid>`` to the category's actions."""
    parser = actions.add_parser('timeline')
    parser.add_argument('notification_uuid',
                        help=_('The notification to show.'))
    parser.add_argument('--format', choices=FORMATS, default=TEXT,
                        help=_('text (default) or svg: an SVG chart on '
                               'standard output, e.g. "> timeline.svg".'))


def _host_name(admin, notification):
    try:
        return objects.Host.get_by_uuid(
            admin, notification.source_host_uuid).name
    except exception.HostNotFound:
        return notification.source_host_uuid


def show():
    """Print the timeline; exit status 1 when the notification is unknown
    or the taskflow database is not configured.
    """
    as_svg = CONF.category.format == SVG
    # NOTE: an SVG goes to a file: messages must not end up in it.
    say = functools.partial(print, file=sys.stderr if as_svg else sys.stdout)
    if not CONF.taskflow.connection:
        say(_('[taskflow]/connection is not set: the progress details '
              'are stored there.'))
        return 1
    # NOTE: imported only when needed, as in ``db purge``: taskflow's SQL
    # backend imports eventlet, whose deprecation warning would be
    # printed in the middle of the timeline.
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        from masakari.engine.drivers.taskflow import timeline
        from masakari.engine.drivers.taskflow import timeline_chart
    objects.register_all()
    admin = context.get_admin_context()
    uuid = CONF.category.notification_uuid
    try:
        notification = objects.Notification.get_by_uuid(admin, uuid)
    except exception.NotificationNotFound:
        say(_('Notification %s not found.') % uuid)
        return 1
    host_name = _host_name(admin, notification)
    runs = timeline.load(admin, uuid)
    if as_svg:
        sys.stdout.write(timeline_chart.render_notification(
            notification, host_name, runs))
        return 0
    print('Notification %s: %s, %s, host %s' % (
        uuid, notification.type, notification.status, host_name))
    if not runs:
        print(_('No recorded progress.'))
        return 0
    for number, run in enumerate(runs, 1):
        print('Run %d of %d, engine %s, started %s UTC' % (
            number, len(runs), run.engine_host or 'unknown', run.started))
        for line in timeline.chart(run):
            print(line)
        if run.evacuations:
            print('  evacuations: %s' % timeline.evacuations_text(run))
    if notification.type == fields.NotificationType.COMPUTE_HOST:
        print(timeline.summary(runs[-1], host_name, notification.status))
    return 0
