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

"""A small SVG writer for the charts Masakari draws (a recovery's timeline,
the documentation's pictures): rectangles, lines, polylines, polygons,
arrows and text, and the axis ticks of a value range.
"""

import math
from xml.sax import saxutils

FONT = 'DejaVu Sans, Verdana, Arial, sans-serif'
# The steps an axis may use between ticks, for each power of ten.
NICE_STEPS = (1, 2, 2.5, 5)


def _attributes(attributes):
    return ''.join(' %s=%s' % (name.rstrip('_').replace('_', '-'),
                               saxutils.quoteattr(_number(value)))
                   for name, value in attributes.items()
                   if value is not None)


def _number(value):
    if isinstance(value, float):
        return ('%.2f' % value).rstrip('0').rstrip('.')
    return str(value)


def ticks(high, most=8):
    """Tick values from 0 to at least ``high``, at a round step, at most
    ``most`` + 1 of them (those of 1 for an empty range).
    """
    high = high if high > 0 else 1
    magnitude = 10 ** math.floor(math.log10(high / most))
    step = next(candidate * magnitude
                for candidate in NICE_STEPS + (10,)
                if high / (candidate * magnitude) <= most)
    count = int(math.ceil(high / step - 1e-9))
    return [round(index * step, 10) for index in range(count + 1)]


class Drawing:
    """An SVG document of ``width`` x ``height`` pixels, drawn in order."""

    def __init__(self, width, height, background='#ffffff'):
        self.width = width
        self.height = height
        self._items = []
        self.rect(0, 0, width, height, fill=background)

    def rect(self, x, y, width, height, fill, title=None, **attributes):
        element = '<rect%s' % _attributes(dict(
            x=x, y=y, width=max(width, 0), height=max(height, 0), fill=fill,
            **attributes))
        if title is None:
            self._items.append(element + '/>')
        else:
            self._items.append('%s><title>%s</title></rect>'
                               % (element, saxutils.escape(title)))

    def line(self, x1, y1, x2, y2, stroke, **attributes):
        self._items.append('<line%s/>' % _attributes(dict(
            x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, **attributes)))

    def polyline(self, points, stroke, stroke_width=1.5, **attributes):
        self._items.append('<polyline%s/>' % _attributes(dict(
            points=' '.join('%s,%s' % (_number(x), _number(y))
                            for x, y in points),
            fill='none', stroke=stroke, stroke_width=stroke_width,
            **attributes)))

    def polygon(self, points, fill, **attributes):
        self._items.append('<polygon%s/>' % _attributes(dict(
            points=' '.join('%s,%s' % (_number(x), _number(y))
                            for x, y in points), fill=fill, **attributes)))

    def arrow(self, x1, x2, y, stroke, head=7, **attributes):
        """A horizontal arrow from ``x1`` to ``x2`` at ``y``."""
        direction = 1 if x2 >= x1 else -1
        self.line(x1, y, x2 - direction * head, y, stroke, **attributes)
        self.polygon([(x2, y), (x2 - direction * head, y - head / 2),
                      (x2 - direction * head, y + head / 2)], stroke)

    def text(self, x, y, text, size=12, fill='#222222', anchor='start',
             **attributes):
        self._items.append('<text%s>%s</text>' % (_attributes(dict(
            x=x, y=y, font_size=size, fill=fill, text_anchor=anchor,
            **attributes)), saxutils.escape(str(text))))

    def render(self):
        """The document, as text."""
        return '\n'.join(
            ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" '
             'height="%d" viewBox="0 0 %d %d" font-family=%s>'
             % (self.width, self.height, self.width, self.height,
                saxutils.quoteattr(FONT))] + self._items + ['</svg>']) + '\n'
