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

"""The samples of doc/notification_samples are what the services emit.

One sample per event type; the versioned-notification reference
(doc/source/user/notifications.rst) renders them. The API-side samples
come from requests to the real paste pipeline, the engine-side ones from
the real manager against the simulated cloud. Ids, times and the
publisher's host name are compared by format only, the middle lines of a
traceback not at all.

To rewrite the samples after a deliberate change, run this module with
MASAKARI_WRITE_NOTIFICATION_SAMPLES=1; only samples whose comparable
content changed are rewritten.
"""

import json
import os
import re

import testtools

from masakari import context
from masakari import exception
from masakari.ha import storage
from masakari.notifications import api as notifications
from masakari import objects
from masakari.objects import fields
from tests.fixtures import api as api_fixture
from tests.fixtures import engine as engine_fixture

Action = fields.EventNotificationAction
Phase = fields.EventNotificationPhase
SAMPLES_DIR = os.path.join(api_fixture.REPO_ROOT, 'doc',
                           'notification_samples')
WRITE_VARIABLE = 'MASAKARI_WRITE_NOTIFICATION_SAMPLES'
EVENT_TYPES = ['%s.%s' % (action, phase)
               for action in Action.ALL for phase in Phase.ALL]
ENGINE_EVENT_TYPES = ['%s.%s' % (Action.NOTIFICATION_PROCESS, phase)
                      for phase in Phase.ALL]
# The consumer-facing keys of a message, in the order samples show them;
# the _context_* and _unique_id keys are transport details.
ENVELOPE = ('message_id', 'publisher_id', 'event_type', 'priority',
            'timestamp', 'payload')
SAMPLE_HOST = 'controller'
UUID = r'[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}'
FORMATS = {
    'message_id': UUID,
    'timestamp': r'\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?',
    'uuid': UUID,
    'notification_uuid': UUID,
    'source_host_uuid': UUID,
    'created_at': r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ',
    'updated_at': r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ',
}
GENERATED_TIME = '2026-12-01T05:30:49Z'


def sample_path(event_type):
    return os.path.join(SAMPLES_DIR, event_type.replace('.', '-') + '.json')


def short_traceback(text):
    """The first and last line of a formatted traceback."""
    lines = text.splitlines()
    if len(lines) <= 2:
        return text
    return '%s\n  ...\n%s\n' % (lines[0], lines[-1])


def as_sample(message):
    """The message as a sample shows it: envelope keys, short traceback."""
    sample = {key: message[key] for key in ENVELOPE}
    binary = sample['publisher_id'].split(':')[0]
    sample['publisher_id'] = '%s:%s' % (binary, SAMPLE_HOST)
    fault = sample['payload']['masakari_object.data'].get('fault')
    if fault:
        data = fault['masakari_object.data']
        data['traceback'] = short_traceback(data['traceback'])
    return sample


def comparable(value, key=None):
    """``value`` with variable fields checked against FORMATS and masked."""
    if key in FORMATS and value is not None:
        if not re.fullmatch(FORMATS[key], value):
            raise AssertionError('%s %r has not the format %s'
                                 % (key, value, FORMATS[key]))
        return '<%s>' % key
    if key == 'publisher_id':
        binary, host = value.split(':')
        return '%s:%s' % (binary, '<host>' if host else '')
    if key == 'traceback':
        return re.sub(UUID, '<uuid>', short_traceback(value))
    if key == 'exception_message':
        return re.sub(UUID, '<uuid>', value)
    if isinstance(value, dict):
        return {name: comparable(item, name) for name, item in value.items()}
    if isinstance(value, list):
        return [comparable(item) for item in value]
    return value


class SampleTestCase(testtools.TestCase):

    def first_of_each(self, messages, event_types):
        """The first message of each event type (all must be there)."""
        found = {}
        for message in messages:
            found.setdefault(message['event_type'], message)
        self.assertEqual(sorted(event_types),
                         sorted(set(found) & set(event_types)))
        return {event_type: found[event_type] for event_type in event_types}

    def assert_samples(self, messages):
        """Each message matches its sample (or rewrites it on request)."""
        mismatched = []
        for event_type, message in sorted(messages.items()):
            emitted = as_sample(message)
            path = sample_path(event_type)
            stored = None
            if os.path.exists(path):
                with open(path) as sample_file:
                    stored = json.load(sample_file)
            if stored is not None and comparable(stored) == comparable(
                    emitted):
                continue
            if os.environ.get(WRITE_VARIABLE):
                with open(path, 'w') as sample_file:
                    json.dump(emitted, sample_file, indent=4)
                    sample_file.write('\n')
                continue
            mismatched.append('%s:\nsample:  %s\nemitted: %s' % (
                os.path.relpath(path, api_fixture.REPO_ROOT),
                json.dumps(comparable(stored), sort_keys=True),
                json.dumps(comparable(emitted), sort_keys=True)))
        self.assertEqual([], mismatched, '\n\n'.join(mismatched))


class TestSampleSet(testtools.TestCase):

    def test_one_sample_per_event_type(self):
        self.assertEqual(24, len(EVENT_TYPES))
        self.assertEqual(sorted(os.path.basename(sample_path(event_type))
                                for event_type in EVENT_TYPES),
                         sorted(os.listdir(SAMPLES_DIR)))

    def test_samples_are_envelopes_of_their_event_type(self):
        for event_type in EVENT_TYPES:
            with open(sample_path(event_type)) as sample_file:
                sample = json.load(sample_file)
            self.assertEqual(list(ENVELOPE), list(sample), event_type)
            self.assertEqual(event_type, sample['event_type'])
            self.assertEqual(
                'ERROR' if event_type.endswith('.error') else 'INFO',
                sample['priority'], event_type)


class TestApiSamples(SampleTestCase):
    """Segments, hosts and notifications created, changed and deleted."""

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(api_fixture.APIFixture())

    def call(self, status, method, path, body=None):
        response = self.api.request(method, path, body)
        self.assertEqual(status, response.status_int, response.text)
        return response.json if response.text else None

    def race_delete(self, ctxt, obj, path, notify, action):
        """A DELETE that loses the race with another one, as the API runs
        it: ``obj`` was read before the other request deleted the row.
        """
        self.call(204, 'DELETE', path)

        def delete():
            with storage.writing(notify, ctxt, obj, action) as write:
                write(obj.destroy)

        # NOTE: the fixture's in-memory database is used by one thread at
        # a time; requests take this turn themselves.
        with self.api.engine.database_turn:
            self.assertRaises(exception.NotFound, delete)

    def test_api_samples(self):
        segment_body = {'segment': {
            'name': 'segment-1', 'service_type': 'COMPUTE',
            'recovery_method': 'auto', 'description': 'rack 1'}}
        segment = self.call(201, 'POST', '/v1/segments',
                            segment_body)['segment']
        segments = '/v1/segments/%s' % segment['uuid']
        self.call(409, 'POST', '/v1/segments', segment_body)
        self.call(200, 'PUT', segments,
                  {'segment': {'description': 'racks 1 and 2'}})
        other = self.call(201, 'POST', '/v1/segments', {'segment': dict(
            segment_body['segment'], name='segment-2')})['segment']
        self.call(409, 'PUT', '/v1/segments/%s' % other['uuid'],
                  {'segment': {'name': 'segment-1'}})

        host_body = {'host': {'name': 'compute-1', 'type': 'COMPUTE',
                              'control_attributes': 'SSH'}}
        host = self.call(201, 'POST', segments + '/hosts',
                         host_body)['host']
        self.call(409, 'POST', segments + '/hosts', host_body)
        self.call(200, 'PUT', '%s/hosts/%s' % (segments, host['uuid']),
                  {'host': {'reserved': True}})
        spare = self.call(201, 'POST', segments + '/hosts', {'host': dict(
            host_body['host'], name='compute-2')})['host']
        self.call(409, 'PUT', '%s/hosts/%s' % (segments, spare['uuid']),
                  {'host': {'name': 'compute-1'}})

        admin = context.get_admin_context()
        with self.api.engine.database_turn:
            stale_host = objects.Host.get_by_uuid(admin, spare['uuid'])
            stale_segment = objects.FailoverSegment.get_by_uuid(
                admin, other['uuid'])
        self.race_delete(admin, stale_host,
                         '%s/hosts/%s' % (segments, spare['uuid']),
                         notifications.notify_about_host_api,
                         Action.HOST_DELETE)
        self.race_delete(admin, stale_segment,
                         '/v1/segments/%s' % other['uuid'],
                         notifications.notify_about_segment_api,
                         Action.SEGMENT_DELETE)

        notification = {'notification': {
            'type': 'PROCESS', 'hostname': 'compute-1',
            'generated_time': GENERATED_TIME,
            'payload': {'event': 'STOPPED', 'process_name': 'nova-compute'}}}
        self.call(202, 'POST', '/v1/notifications', notification)
        # An unusable RPC target: the cast fails after the row was stored.
        # Without the sweep of never-cast notifications, the API answers
        # that failure with notification.create.error (and a 500).
        self.api.conf.set_override('masakari_topic', '')
        self.api.conf.set_override('new_notification_age', 0,
                                   group='takeover')
        notification['notification']['type'] = 'VM'
        notification['notification']['payload'] = {
            'event': 'LIFECYCLE', 'instance_uuid':
                '8a1a8d7e-8c1a-4f4e-b6d5-5a8f1f0b6a39',
            'vir_domain_event': 'STOPPED_FAILED'}
        self.call(500, 'POST', '/v1/notifications', notification)

        self.assert_samples(self.first_of_each(
            self.api.rpc.notifications,
            [event_type for event_type in EVENT_TYPES
             if event_type not in ENGINE_EVENT_TYPES]))


class TestEngineSamples(SampleTestCase):
    """A process failure recovered, and one on a host Nova does not know."""

    def setUp(self):
        super().setUp()
        self.engine = self.useFixture(engine_fixture.EngineFixture())

    def process_failure(self, host):
        notification = self.engine.create_notification(
            host, type='PROCESS', generated_time=GENERATED_TIME,
            payload={'event': 'STOPPED', 'process_name': 'nova-compute'})
        self.engine.manager.process_notification(self.engine.context,
                                                 notification)
        return self.engine.reload(notification)

    def test_engine_samples(self):
        segment = self.engine.create_segment()
        recovered = self.process_failure(self.engine.create_host(segment))
        unknown = self.process_failure(
            self.engine.create_host(segment, name='compute-9'))

        self.assertEqual(
            (fields.NotificationStatus.FINISHED,
             fields.NotificationStatus.ERROR),
            (recovered.status, unknown.status))
        self.assert_samples(self.first_of_each(
            self.engine.rpc.notifications, ENGINE_EVENT_TYPES))
