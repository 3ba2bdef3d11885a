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

"""around_write: the start/end pair of a write, with real objects on
SQLite and the notifications captured from the notifier.

Both payloads show the object as it was before the write reloaded it,
as in Masakari 22.0.0: a create's .end has no id or uuid, a delete's
.end still has the id. (Every event's full key set is pinned over
RabbitMQ in tests/functional/rpc/test_notifications.py.)
"""

from masakari import exception
from masakari.notifications import api as notifications
from masakari import objects
from masakari.objects import fields
from tests.fixtures import rpc as rpc_fixture
from tests.unit.objects import base

Action = fields.EventNotificationAction

IDS = {'id', 'uuid', 'notification_uuid'}
NESTED_SEGMENT = {'id', 'uuid', 'name', 'service_type', 'enabled',
                  'description', 'recovery_method', 'created_at',
                  'updated_at', 'deleted_at', 'deleted'}


class WriteTestCase(base.ObjectTestCase):

    binary = notifications.API_BINARY

    def setUp(self):
        super().setUp()
        self.bus = self.useFixture(rpc_fixture.RPCFixture(
            base.CONF, binary=self.binary))

    def write(self, notify, obj, action, write):
        return notifications.around_write(notify, self.ctxt, obj, action,
                                          write)

    def pair(self, action):
        """The payload data of ``action``'s start and end, the only two
        notifications sent.
        """
        self.assertEqual(['%s.start' % action, '%s.end' % action],
                         self.bus.event_types)
        return [self.bus.payload_data(event_type)
                for event_type in self.bus.event_types]

    def assert_create_pair(self, action):
        """Start and end alike, without ids, and with a null fault."""
        start, end = self.pair(action)
        self.assertEqual(start, end)
        self.assertEqual(set(), IDS & set(end))
        self.assertIsNone(end['fault'])
        return end


class TestSegmentWrites(WriteTestCase):

    def new_segment(self):
        return objects.FailoverSegment(
            self.ctxt, name='seg1', service_type='compute',
            description=None, recovery_method='auto', enabled=True)

    def test_create_end_is_built_before_the_reload(self):
        segment = self.new_segment()

        self.write(notifications.notify_about_segment_api, segment,
                   Action.SEGMENT_CREATE, segment.create)

        self.assert_create_pair(Action.SEGMENT_CREATE)
        self.assertIsInstance(segment.id, int)

    def test_failed_write_sends_start_only(self):
        self.create_segment()
        duplicate = self.new_segment()

        self.assertRaises(exception.FailoverSegmentExists, self.write,
                          notifications.notify_about_segment_api, duplicate,
                          Action.SEGMENT_CREATE, duplicate.create)
        self.assertEqual(['segment.create.start'], self.bus.event_types)

    def test_update_shows_the_new_values(self):
        segment = self.create_segment()
        segment.update({'description': 'd2', 'enabled': False})

        self.write(notifications.notify_about_segment_api, segment,
                   Action.SEGMENT_UPDATE, segment.save)

        for data in self.pair(Action.SEGMENT_UPDATE):
            self.assertEqual((segment.id, segment.uuid, 'd2', False),
                             (data['id'], data['uuid'], data['description'],
                              data['enabled']))

    def test_delete_end_keeps_the_id(self):
        segment = self.create_segment()
        segment_id = segment.id
        self.create_host(segment)

        self.write(notifications.notify_about_segment_api, segment,
                   Action.SEGMENT_DELETE, segment.destroy)

        # The segment's hosts go with it, without host notifications.
        start, end = self.pair(Action.SEGMENT_DELETE)
        self.assertEqual(start, end)
        self.assertEqual(segment_id, end['id'])
        self.assertFalse(segment.obj_attr_is_set('id'))


class TestHostWrites(WriteTestCase):

    def setUp(self):
        super().setUp()
        self.segment = self.create_segment()

    def test_create(self):
        host = objects.Host(
            self.ctxt, name='h1', type='COMPUTE', control_attributes='SSH',
            reserved=False, on_maintenance=False,
            failover_segment=self.segment)

        self.write(notifications.notify_about_host_api, host,
                   Action.HOST_CREATE, host.create)

        segment = self.assert_create_pair(Action.HOST_CREATE)[
            'failover_segment']
        self.assertEqual('1.1', segment['masakari_object.version'])
        self.assertEqual(NESTED_SEGMENT, set(segment['masakari_object.data']))
        self.assertNotIn('masakari_object.changes', segment)

    def test_update_and_delete(self):
        host = self.create_host(self.segment)
        host.update({'on_maintenance': True, 'reserved': True})

        self.write(notifications.notify_about_host_api, host,
                   Action.HOST_UPDATE, host.save)

        for data in self.pair(Action.HOST_UPDATE):
            self.assertEqual((host.id, True, True),
                             (data['id'], data['on_maintenance'],
                              data['reserved']))
        self.bus.clear()
        host_id = host.id
        self.write(notifications.notify_about_host_api, host,
                   Action.HOST_DELETE, host.destroy)
        self.assertEqual(host_id, self.pair(Action.HOST_DELETE)[1]['id'])
        self.assertEqual({'masakari-api'},
                         {entry['publisher_id'].split(':')[0]
                          for entry in self.bus.notifications})


class TestEngineHostWrites(WriteTestCase):
    binary = notifications.ENGINE_BINARY

    def test_host_update_is_published_as_masakari_engine(self):
        host = self.create_host(self.create_segment())
        self.bus.clear()
        host.on_maintenance = True

        self.write(notifications.notify_about_host_api, host,
                   Action.HOST_UPDATE, host.save)

        self.assertEqual(
            ['masakari-engine', 'masakari-engine'],
            [entry['publisher_id'].split(':')[0]
             for entry in self.bus.notifications])


class TestNotificationWrites(WriteTestCase):

    def test_create(self):
        notification = self.new_notification(
            generated_time='2026-10-28T12:00:00+02:00')

        self.write(notifications.notify_about_notification_api, notification,
                   Action.NOTIFICATION_CREATE, notification.create)

        data = self.assert_create_pair(Action.NOTIFICATION_CREATE)
        # The value as given, not yet the stored UTC one.
        self.assertEqual('2026-10-28T12:00:00+02:00', data['generated_time'])
        self.assertTrue(notification.notification_uuid)
