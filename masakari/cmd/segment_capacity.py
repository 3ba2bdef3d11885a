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

"""``masakari-manage segment capacity [SEGMENT]`` and ``segment what-if
SEGMENT --host H [--host H2 ...]``: a segment's failover capacity, and the
plan for the failure of given hosts, read from Masakari, Nova and
Placement without changing anything. ``--format json`` prints the data
of ``masakari.capacity.report``; the default is a table. Log lines go
to standard error (the category is one of manage's report categories).
"""

import json

from oslo_config import cfg

from masakari.capacity import report
from masakari import context
from masakari import exception
from masakari.i18n import _
from masakari import objects

CONF = cfg.CONF
FORMATS = ('table', 'json')


def add_parsers(subparsers):
    """Add the ``segment`` category and its actions."""
    actions = subparsers.add_parser('segment').add_subparsers(dest='action')
    capacity = actions.add_parser('capacity')
    capacity.add_argument('segment', nargs='?',
                          help=_('A segment name or uuid (default: every '
                                 'segment).'))
    what_if = actions.add_parser('what-if')
    what_if.add_argument('segment', help=_('A segment name or uuid.'))
    what_if.add_argument('--host', dest='hosts', action='append',
                         required=True,
                         help=_('A host of the segment to fail; repeat '
                                'for several.'))
    for parser in (capacity, what_if):
        parser.add_argument('--format', choices=FORMATS, default='table',
                            help=_('Output format (default: table).'))


def _segment(admin, name_or_uuid):
    try:
        return objects.FailoverSegment.get_by_uuid(admin, name_or_uuid)
    except exception.FailoverSegmentNotFound:
        return objects.FailoverSegment.get_by_name(admin, name_or_uuid)


def _table(headers, rows):
    widths = [max(len(str(cell)) for cell in column)
              for column in zip(headers, *rows)]
    return ['  '.join(str(cell).ljust(width)
                      for cell, width in zip(row, widths)).rstrip()
            for row in [headers] + rows]


def _tolerated(summary):
    """``2``, or ``>= 2 (<= 5)`` when only bounds are known."""
    if summary['exact']:
        return str(summary['failures_tolerated'])
    text = '>= %d' % summary['failures_tolerated']
    if summary['at_most'] is not None:
        text += ' (<= %d)' % summary['at_most']
    return text


def _capacity_lines(summaries):
    classes = report.resource_classes(item['spare'] for item in summaries)
    rows = []
    for item in summaries:
        worst = item['worst_host']
        rows.append(
            [item['segment'], item['recovery_method'], item['hosts'],
             _tolerated(item)] +
            [item['spare'].get(name, 0) for name in classes] +
            ['%s (%d)' % (worst, len(
                item['worst_host_servers_without_room']))
             if worst else '-'])
    return _table(['Segment', 'Method', 'Hosts', 'Failures tolerated'] +
                  ['Spare %s' % name for name in classes] +
                  ['Worst host (servers without room)'], rows)


def _what_if_lines(plan):
    classes = report.resource_classes(
        server['resources'] for server in plan['servers'])
    rows = [[server['id'], server['name'], server['host'],
             server['priority'], 'yes' if server['ha_enabled'] else 'no'] +
            [server['resources'].get(name, 0) for name in classes] +
            [server['target'] or _('no room')]
            for server in plan['servers']]
    lines = ['Failure of %s in segment %s (%s):' % (
        ', '.join(plan['failed_hosts']), plan['segment'],
        plan['recovery_method'])]
    lines += _table(['Server', 'Name', 'Host', 'Priority', 'HA'] + classes +
                    ['Target'], rows)
    lines.append(_('%(placed)d servers placed, %(left)d without room.') % {
        'placed': len(plan['servers']) - plan['without_room'],
        'left': plan['without_room']})
    return lines


def _run(compute, render):
    """Print ``compute(admin)`` as JSON or as ``render``'s lines; exit
    status 1 with the reason when the segment, a host or the cloud
    cannot be read.
    """
    objects.register_all()
    try:
        data = compute(context.get_admin_context())
    except exception.MasakariException as error:
        print(error.format_message())
        return 1
    if CONF.category.format == 'json':
        print(json.dumps(data, indent=2, sort_keys=True))
    else:
        print('\n'.join(render(data)))
    return 0


def show_capacity():
    """``segment capacity``: one summary per segment."""
    def compute(admin):
        if CONF.category.segment:
            segments = [_segment(admin, CONF.category.segment)]
        else:
            segments = objects.FailoverSegmentList.get_all(admin)
        return [report.capacity(admin, segment) for segment in segments]
    return _run(compute, _capacity_lines)


def what_if():
    """``segment what-if``: the plan for the given failed hosts."""
    return _run(lambda admin: report.what_if(
        admin, _segment(admin, CONF.category.segment),
        list(dict.fromkeys(CONF.category.hosts))), _what_if_lines)


ACTIONS = {'capacity': show_capacity, 'what-if': what_if}
