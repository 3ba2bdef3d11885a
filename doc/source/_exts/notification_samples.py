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

"""Sphinx directive ``notification-samples``: one section per sample.

Renders every JSON file of doc/notification_samples (one per event type,
kept equal to what the services emit by
tests/unit/notifications/test_samples.py) as a section titled with its
event type: priority, payload class and version, publisher, then the
message. A missing or unreadable sample directory, or a sample that is not
a notification, fails the build.
"""

import json
import os

from docutils.parsers.rst import Directive
from docutils.statemachine import StringList
from docutils import nodes
from sphinx.util import nodes as sphinx_nodes

SAMPLES = os.path.join(os.pardir, 'notification_samples')
# Resources, actions and phases in the order the reference lists them.
ORDER = ('segment', 'host', 'notification', 'create', 'update', 'delete',
         'process', 'start', 'end', 'error')


def _sort_key(event_type):
    return tuple(ORDER.index(part) if part in ORDER else len(ORDER)
                 for part in event_type.split('.'))


class NotificationSamples(Directive):
    """``.. notification-samples::`` (no argument, no content)."""

    title_character = '~'

    def run(self):
        env = self.state.document.settings.env
        directory = os.path.normpath(os.path.join(env.srcdir, SAMPLES))
        try:
            names = [name for name in os.listdir(directory)
                     if name.endswith('.json')]
        except OSError as error:
            raise self.error('notification samples: %s' % error)
        if not names:
            raise self.error('no notification sample in %s' % directory)
        samples = {}
        for name in names:
            path = os.path.join(directory, name)
            env.note_dependency(path)
            with open(path) as sample_file:
                text = sample_file.read()
            try:
                sample = json.loads(text)
                event_type = sample['event_type']
                payload = sample['payload']
                payload_class = '%s %s' % (
                    payload['masakari_object.name'],
                    payload['masakari_object.version'])
            except (ValueError, KeyError, TypeError) as error:
                raise self.error('%s is not a notification sample: %r'
                                 % (name, error))
            samples[event_type] = (name, sample, payload_class, text)
        lines = []
        for event_type in sorted(samples, key=_sort_key):
            name, sample, payload_class, text = samples[event_type]
            title = '``%s``' % event_type
            lines += [title, self.title_character * len(title), '',
                      ':Priority: ``%s``' % sample['priority'],
                      ':Payload: ``%s``' % payload_class,
                      ':Publisher: ``%s:<host name>``'
                      % sample['publisher_id'].split(':')[0],
                      ':Sample: ``doc/notification_samples/%s``' % name,
                      '', '.. code-block:: json', '']
            lines += ['   ' + line for line in text.splitlines()]
            lines.append('')
        container = nodes.section()
        container.document = self.state.document
        sphinx_nodes.nested_parse_with_titles(
            self.state, StringList(lines, source=directory), container)
        return container.children


def setup(app):
    app.add_directive('notification-samples', NotificationSamples)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
