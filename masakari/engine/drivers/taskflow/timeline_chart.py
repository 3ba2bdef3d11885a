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

"""A recovery's timeline as an SVG chart: per run, one bar per phase on
the run's time axis (what ``timeline.chart`` draws in text), with the
durations, the evacuations and the engine's summary line.
"""

from masakari.common import svg
from masakari.engine.drivers.taskflow import timeline

WIDTH = 760
# Pixels per character of the 12 px text lines (the title, the summary).
CHARACTER = 7
LABEL_RIGHT = 150
BAR_LEFT = 165
ROW = 26
BAR = 16
# One colour per phase; "other" (custom tasks) is grey.
COLOURS = {
    'brake': '#8c564b', 'fencing': '#d62728', 'disable': '#ff7f0e',
    'prepare': '#bcbd22', 'evacuate': '#1f77b4', 'return': '#9467bd',
    'stop': '#d62728', 'start': '#2ca02c', 'confirm': '#17becf',
}
OTHER_COLOUR = '#7f7f7f'
GRID = '#dddddd'
MUTED = '#555555'


def _seconds(value):
    return '%.1f s' % value


def _tick_label(value):
    return '%g s' % value


def _run_height(run):
    return 24 + ROW * len(run.phases) + 28 + (18 if run.evacuations else 0)


def _draw_run(drawing, top, number, count, run):
    """Draw one run from ``top``; returns the next free y."""
    drawing.text(10, top + 14, 'Run %d of %d, engine %s, started %s UTC'
                 % (number, count, run.engine_host or 'unknown',
                    run.started.isoformat(' ', 'seconds')),
                 size=13, font_weight='bold')
    top += 24
    axis = svg.ticks(run.seconds)
    bar_right = drawing.width - 25
    scale = (bar_right - BAR_LEFT) / axis[-1]
    bottom = top + ROW * len(run.phases)
    for value in axis:
        x = BAR_LEFT + value * scale
        drawing.line(x, top, x, bottom, GRID)
        drawing.text(x, bottom + 16, _tick_label(value), size=11,
                     fill=MUTED, anchor='middle')
    for index, phase in enumerate(run.phases):
        y = top + index * ROW
        offset = (phase.start - run.started).total_seconds()
        drawing.text(10, y + 17, phase.name, size=12)
        drawing.text(LABEL_RIGHT, y + 17, _seconds(phase.seconds), size=12,
                     fill=MUTED, anchor='end')
        drawing.rect(BAR_LEFT + offset * scale, y + (ROW - BAR) / 2,
                     max(phase.seconds * scale, 2), BAR,
                     COLOURS.get(phase.name, OTHER_COLOUR), rx=2,
                     title='%s: %s from %s' % (phase.name,
                                               _seconds(phase.seconds),
                                               _seconds(offset)))
    drawing.line(BAR_LEFT, bottom, bar_right, bottom, MUTED)
    drawing.text(10, bottom + 16, 'total %s' % _seconds(run.seconds),
                 size=12, font_weight='bold')
    next_top = bottom + 28
    if run.evacuations:
        drawing.text(10, next_top + 4,
                     'evacuations: ' + timeline.evacuations_text(run),
                     size=12, fill=MUTED)
        next_top += 18
    return next_top


def render(runs, title, summary=None):
    """The SVG document of ``runs`` (timeline.Run, oldest first).

    :param title: the first line (the notification).
    :param summary: the last line (a host recovery's summary), or None.
    """
    height = (36 + sum(_run_height(run) + 12 for run in runs) +
              (24 if summary else 0))
    # NOTE: wide enough for the title and the summary, which name a uuid
    # and every phase.
    width = max([WIDTH] + [int(len(line) * CHARACTER) + 20
                           for line in (title, summary) if line])
    drawing = svg.Drawing(width, height)
    drawing.text(10, 22, title, size=12, font_weight='bold')
    top = 36
    for number, run in enumerate(runs, 1):
        top = _draw_run(drawing, top, number, len(runs), run) + 12
    if summary:
        drawing.text(10, top + 8, summary, size=12)
    return drawing.render()


def render_notification(notification, host_name, runs):
    """The chart of a notification's runs, titled and summarised as the
    text timeline is.
    """
    summary = None
    if notification.type == timeline.Type.COMPUTE_HOST and runs:
        summary = timeline.summary(runs[-1], host_name, notification.status)
    return render(runs, 'Notification %s: %s, %s, host %s' % (
        notification.notification_uuid, notification.type,
        notification.status, host_name), summary)
