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

"""A static SVG rendering of the Grafana dashboard: its panels, at their
grid positions, drawn from the answers Prometheus gave to their queries
(recorded by tools/doc-pictures): time series as lines with a legend, stat
panels as their last value coloured by the panel's thresholds.
"""

import datetime
import math
import re

from masakari.common import svg

WIDTH = 1200
COLUMN = WIDTH / 24
ROW = 30
HEADER = 44
FOOTER = 30
GAP = 6
BACKGROUND = '#111217'
PANEL = '#181b1f'
BORDER = '#2c3235'
TEXT = '#ccccdc'
MUTED = '#8e8e8e'
PALETTE = ('#73bf69', '#f2cc0c', '#8ab8ff', '#ff780a', '#f2495c',
           '#5794f2', '#b877d9', '#705da0', '#37872d', '#fade2a')
LEGEND_ROW = 14
# Width of a character of a panel title (12 px, bold), in pixels.
TITLE_CHARACTER = 7.4
LEGEND = re.compile(r'\{\{\s*(\w+)\s*\}\}')


def _values(series):
    """``[(epoch seconds, float or None)]`` of a query_range series."""
    points = []
    for moment, value in series['values']:
        number = float(value)
        points.append((float(moment),
                       None if math.isnan(number) or math.isinf(number)
                       else number))
    return points


def _legend(target, metric):
    template = target.get('legendFormat') or ''
    return LEGEND.sub(lambda match: metric.get(match.group(1), ''),
                      template) or '{%s}' % ', '.join(
        '%s="%s"' % item for item in sorted(metric.items()))


def _format(value, unit):
    if value is None:
        return 'no data'
    if unit == 's':
        return ('%.0f s' % value if value >= 10 else '%.2g s' % value
                if value else '0 s')
    return '%.3g' % value if abs(value) < 1000 else '%.0f' % value


def _box(drawing, panel, top):
    grid = panel['gridPos']
    x = grid['x'] * COLUMN + GAP / 2
    y = top + grid['y'] * ROW + GAP / 2
    width, height = grid['w'] * COLUMN - GAP, grid['h'] * ROW - GAP
    drawing.rect(x, y, width, height, PANEL, stroke=BORDER, rx=3)
    title = panel['title']
    fits = int((width - 20) / TITLE_CHARACTER)
    if len(title) > fits:
        title = title[:fits - 1] + '\u2026'
    drawing.text(x + 10, y + 19, title, size=12, fill=TEXT,
                 font_weight='bold')
    return x, y, width, height


def _threshold_colour(panel, value):
    steps = panel['fieldConfig']['defaults']['thresholds']['steps']
    colour = steps[0]['color']
    for step in steps[1:]:
        if value is not None and value >= step['value']:
            colour = step['color']
    return {'green': '#37872d', 'red': '#c4162a', 'orange': '#fa6400',
            'blue': '#1f60c4'}.get(colour, colour)


def _stat(drawing, panel, answers, box):
    x, y, width, height = box
    unit = panel['fieldConfig']['defaults'].get('unit')
    shown = []
    for target, answer in zip(panel['targets'], answers):
        for series in answer['result']:
            points = [value for _moment, value in _values(series)
                      if value is not None]
            shown.append((_legend(target, series['metric']),
                          points[-1] if points else None))
    if not shown:
        drawing.text(x + width / 2, y + height / 2 + 12, 'no data',
                     size=22, fill=MUTED, anchor='middle')
        return
    cell = (width - 16) / len(shown)
    for index, (name, value) in enumerate(shown):
        left = x + 8 + index * cell
        drawing.rect(left, y + 30, cell - 4, height - 38,
                     _threshold_colour(panel, value), rx=2)
        text_y = y + 30 + (height - 38) / 2 + 10
        if len(shown) > 1:
            drawing.text(left + (cell - 4) / 2, y + 48, name, size=11,
                         fill='#ffffff', anchor='middle')
            text_y += 8
        drawing.text(left + (cell - 4) / 2, text_y, _format(value, unit),
                     size=26, fill='#ffffff', anchor='middle',
                     font_weight='bold')


def _timeseries(drawing, panel, answers, box, start, end):
    x, y, width, height = box
    unit = panel['fieldConfig']['defaults'].get('unit')
    lines = [(_legend(target, series['metric']), _values(series))
             for target, answer in zip(panel['targets'], answers)
             for series in answer['result']]
    legend_rows = max(1, int(math.ceil(len(lines) / 2)))
    plot_left, plot_right = x + 52, x + width - 12
    plot_top = y + 30
    plot_bottom = y + height - 24 - LEGEND_ROW * min(legend_rows, 4)
    highest = max([value for _name, points in lines
                   for _moment, value in points if value is not None] + [0])
    axis = svg.ticks(highest, most=4)
    scale_y = (plot_bottom - plot_top) / axis[-1]
    for value in axis:
        line_y = plot_bottom - value * scale_y
        drawing.line(plot_left, line_y, plot_right, line_y, BORDER)
        drawing.text(plot_left - 6, line_y + 4, _format(value, unit)
                     if unit == 's' else '%g' % value, size=10, fill=MUTED,
                     anchor='end')
    scale_x = (plot_right - plot_left) / max(end - start, 1)
    for moment in svg.ticks(end - start, most=6):
        line_x = plot_left + moment * scale_x
        # NOTE: the first label would sit on the y axis' 0.
        if not moment or line_x > plot_right:
            continue
        drawing.text(line_x, plot_bottom + 14, datetime.datetime.fromtimestamp(
            start + moment, datetime.timezone.utc).strftime('%H:%M:%S'),
            size=10, fill=MUTED, anchor='middle')
    if not lines:
        drawing.text(x + width / 2, y + height / 2, 'no data', size=16,
                     fill=MUTED, anchor='middle')
    for index, (name, points) in enumerate(lines):
        colour = PALETTE[index % len(PALETTE)]
        segment = []
        for moment, value in points + [(None, None)]:
            if value is None:
                if segment:
                    drawing.polyline(segment, colour)
                segment = []
                continue
            segment.append((plot_left + (moment - start) * scale_x,
                            plot_bottom - value * scale_y))
        if index < 8:
            column, row = index % 2, index // 2
            legend_x = x + 12 + column * (width - 24) / 2
            legend_y = plot_bottom + 30 + row * LEGEND_ROW
            drawing.rect(legend_x, legend_y - 8, 10, 3, colour)
            drawing.text(legend_x + 14, legend_y - 4, name[:70], size=10,
                         fill=TEXT)


def render(dashboard, recording, title):
    """The SVG of ``dashboard`` (the Grafana JSON) showing ``recording``
    (tools/doc-pictures' dashboard.json).
    """
    panels = dashboard['panels']
    rows = max(panel['gridPos']['y'] + panel['gridPos']['h']
               for panel in panels)
    drawing = svg.Drawing(WIDTH, HEADER + rows * ROW + FOOTER,
                          background=BACKGROUND)
    drawing.text(10, 28, title, size=16, fill=TEXT, font_weight='bold')
    drawing.text(WIDTH - 10, 28, 'job: All   instance: All', size=12,
                 fill=MUTED, anchor='end')
    for panel in panels:
        answers = recording['panels'][str(panel['id'])]
        box = _box(drawing, panel, HEADER)
        if panel['type'] == 'stat':
            _stat(drawing, panel, answers, box)
        else:
            _timeseries(drawing, panel, answers, box, recording['start'],
                        recording['end'])
    drawing.text(10, HEADER + rows * ROW + 20, 'Alerts firing at the end: '
                 + (', '.join(recording['alerts_firing']) or 'none'),
                 size=12, fill=TEXT)
    return drawing.render()
