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

"""The sequence diagram of a recorded host recovery, as SVG.

The API's part (store, cast, answer) is what the API always does; the
engine's part comes from the recording: each task where its first
progress message was written, and every Keystone and Nova call the
simulated cloud served, in order, named as the metrics name them
(consecutive equal calls drawn once, ``x N``).
"""

import datetime
import json

from masakari.common import svg
from masakari.engine.drivers.taskflow import timeline
from masakari.metrics import nova as nova_metrics

PARTICIPANTS = (('monitor', 'host monitor'), ('api', 'masakari-api'),
                ('db', 'database'), ('engine', 'masakari-engine'),
                ('keystone', 'Keystone'), ('nova', 'Nova'))
ENGINE_START = (('api', 'db', 'store notification (new)', False),
                ('api', 'engine', 'RPC cast process_notification', False),
                ('api', 'monitor', '202 Accepted', True),
                ('engine', 'db', 'notification running', False))


def epoch(moment):
    """Epoch seconds of a stored (naive UTC) time."""
    return datetime.datetime.fromisoformat(moment).replace(
        tzinfo=datetime.timezone.utc).timestamp()


def _operation(call):
    body = call['body']
    if body is not None and not isinstance(body, str):
        body = json.dumps(body)
    return nova_metrics.operation(call['method'], call['path'], body)


def events(recording):
    """``(source, target, label, is_answer)`` of the recovery, in order."""
    rows = [('monitor', 'api', 'POST /v1/notifications COMPUTE_HOST '
             'STOPPED', False)]
    timed = []
    for call in recording['calls']:
        caller = 'api' if call['time'] < recording['answered'] else 'engine'
        timed.append((call['time'], 1, (caller, call['service'], '%s -> %s'
                                        % (_operation(call),
                                           call['status']), False)))
    for step in recording['runs'][-1]['steps']:
        start, end = epoch(step['start']), epoch(step['end'])
        note = '%s|%s, %.1f s' % (step['task'],
                                  timeline.phase_of(step['task']),
                                  end - start)
        timed.append((start, 0, ('engine', 'engine', note, False)))
    timed.sort(key=lambda item: item[:2])
    api_calls = [row for moment, _order, row in timed
                 if moment < recording['answered']]
    rows += api_calls + list(ENGINE_START)
    rows += [row for moment, _order, row in timed
             if moment >= recording['answered']]
    rows.append(('engine', 'db', 'notification %s' % recording['status'],
                 False))
    return _collapse(rows)


def _collapse(rows):
    collapsed = []
    for row in rows:
        if collapsed and collapsed[-1][0] == row:
            collapsed[-1][1] += 1
        else:
            collapsed.append([row, 1])
    return [(source, target, label + (' x %d' % count if count > 1 else ''),
             answer)
            for (source, target, label, answer), count in collapsed]


CHARACTER = 6.1
ARROW_ROW = 24
NOTE_ROW = 44
NOTE_WIDTH = 220
TOP = 50
MARGIN = 70
MIN_GAP = 120
LIFELINE = '#999999'
INK = '#333333'


def _columns(participants, rows):
    """x of each participant: far enough apart for the labels between."""
    names = [name for name, _label in participants]
    gaps = [MIN_GAP] * (len(names) - 1)
    for source, target, label, _answer in rows:
        if source == target:
            continue
        left, right = sorted((names.index(source), names.index(target)))
        missing = len(label) * CHARACTER + 30 - sum(gaps[left:right])
        if missing > 0:
            gaps[right - 1] += missing
    columns = {names[0]: MARGIN}
    for index, gap in enumerate(gaps):
        columns[names[index + 1]] = columns[names[index]] + gap
    return columns


def render(recording):
    """The SVG document of the recording's sequence diagram (without the
    participants no call reached, e.g. Keystone when the token was
    already cached).
    """
    rows = events(recording)
    used = {name for row in rows for name in row[:2]}
    participants = [(name, label) for name, label in PARTICIPANTS
                    if name in used]
    columns = _columns(participants, rows)
    height = TOP + 20 + sum(NOTE_ROW if source == target else ARROW_ROW
                            for source, target, _label, _answer in rows)
    drawing = svg.Drawing(max(columns.values()) + MARGIN, height + 10)
    for name, label in participants:
        drawing.line(columns[name], TOP, columns[name], height, LIFELINE,
                     stroke_dasharray='4,3')
        drawing.rect(columns[name] - 58, 10, 116, 28, '#dce6f2',
                     stroke='#6b8bb3', rx=6)
        drawing.text(columns[name], 29, label, size=12, anchor='middle')
    y = TOP + 10
    for source, target, label, answer in rows:
        if source == target:
            task, detail = label.split('|')
            x = columns[source]
            drawing.rect(x - NOTE_WIDTH / 2, y + 4, NOTE_WIDTH, NOTE_ROW - 10,
                         '#fff6d5', stroke='#c9b458')
            drawing.text(x, y + 20, task, size=11, anchor='middle',
                         font_weight='bold')
            drawing.text(x, y + 34, detail, size=10, anchor='middle')
            y += NOTE_ROW
            continue
        x1, x2 = columns[source], columns[target]
        drawing.text((x1 + x2) / 2, y + 11, label, size=10, anchor='middle',
                     fill=INK)
        drawing.arrow(x1, x2, y + 16, INK,
                      stroke_dasharray='5,3' if answer else None)
        y += ARROW_ROW
    return drawing.render()
