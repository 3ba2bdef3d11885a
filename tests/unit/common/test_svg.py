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

"""The SVG writer: round axis ticks, escaped text, a well-formed document."""

from xml.etree import ElementTree

import testtools

from masakari.common import svg

NS = '{http://www.w3.org/2000/svg}'


class TestTicks(testtools.TestCase):

    def test_round_steps_covering_the_range(self):
        for high, expected in ((10, [0, 2, 4, 6, 8, 10]),
                               (7.3, [0, 1, 2, 3, 4, 5, 6, 7, 8]),
                               (0.4, [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3,
                                      0.35, 0.4]),
                               (130, [0, 20, 40, 60, 80, 100, 120, 140]),
                               (0, [0, 0.2, 0.4, 0.6, 0.8, 1])):
            self.assertEqual(expected, svg.ticks(high), high)

    def test_at_most_nine_ticks(self):
        for high in (0.013, 1, 3.7, 17, 99, 101, 2500, 86400):
            values = svg.ticks(high)
            self.assertLessEqual(len(values), 9, high)
            self.assertGreaterEqual(values[-1], high)


class TestDrawing(testtools.TestCase):

    def test_document(self):
        drawing = svg.Drawing(200, 100)
        drawing.rect(10, 20, 30.333, 5, '#123456', title='a <b> & c')
        drawing.text(1, 2, 'x < y', anchor='end', font_weight='bold')
        drawing.polyline([(0, 0), (1.5, 2)], '#000000')
        drawing.line(0, 0, 5, 5, '#eeeeee', stroke_dasharray='2,2')
        root = ElementTree.fromstring(drawing.render())
        self.assertEqual(('200', '100'), (root.get('width'),
                                          root.get('height')))
        background, rect = root.findall(NS + 'rect')
        self.assertEqual('#ffffff', background.get('fill'))
        self.assertEqual('30.33', rect.get('width'))
        self.assertEqual('a <b> & c', rect.find(NS + 'title').text)
        text = root.find(NS + 'text')
        self.assertEqual(('x < y', 'end', 'bold'), (
            text.text, text.get('text-anchor'), text.get('font-weight')))
        self.assertEqual('0,0 1.5,2', root.find(NS + 'polyline').get(
            'points'))
        self.assertEqual('2,2', root.find(NS + 'line').get(
            'stroke-dasharray'))
