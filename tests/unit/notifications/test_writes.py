"""around_write: the start/end pair of a write, with real objects on
SQLite and the notifications captured from the notifier.

Both payloads show the object as it was before the write reloaded it,
as in Masakari 22.0.0: a create's .end has no id or uuid, a delete's
.end still has the id.
"""

from masakari import exception
from masakari.notifications import api as notifications
from masakari import objects
from masakari.objects import fields
from tests.fixtures import rpc as rpc_fixture
from tests.unit.notifications import payload_keys
from tests.unit.objects import base

Action = fields.EventNotificationAction

NESTED_SEGMENT = {'id', 'uuid', 'name', 'service_type', 'enabled',
                  'description', 'recovery_method', 'created_at',
                  'updated_at', 'deleted_at', 'deleted'}


class WriteTestCase(base.ObjectTestCase):

    binary = notifications.API_BINARY

    def setUp(self):
        super().setUp()
        self.bus = self.useFixture(rpc_fixture.RPCFixture(
            base.CONF, binary=self.binary))

    def data_keys(self, event_type):
        """The payload data keys of the only ``event_type`` emitted."""
        return set(self.bus.payload_data(event_type))

    def segment_write(self, segment, action, write):
        return notifications.around_write(
            notifications.notify_about_segment_api, self.ctxt, segment,
            action, write)

    def host_write(self, host, action, write):
        return notifications.around_write(
            notifications.notify_about_host_api, self.ctxt, host, action,
            write)


class TestSegmentWrites(WriteTestCase):

    def test_create_end_is_built_before_the_reload(self):
        segment = objects.FailoverSegment(
            self.ctxt, name='seg1', service_type='compute',
            description=None, recovery_method='auto', enabled=True)

        self.segment_write(segment, Action.SEGMENT_CREATE, segment.create)

        self.assertEqual(['segment.create.start', 'segment.create.end'],
                         self.bus.event_types)
        self.assertEqual(payload_keys.SEGMENT_START,
                         self.data_keys('segment.create.start'))
        self.assertEqual(payload_keys.SEGMENT_START,
                         self.data_keys('segment.create.end'))
        self.assertIsInstance(segment.id, int)

    def test_failed_write_sends_start_only(self):
        self.create_segment()
        duplicate = objects.FailoverSegment(
            self.ctxt, name='seg1', service_type='compute',
            description=None, recovery_method='auto', enabled=True)

        self.assertRaises(exception.FailoverSegmentExists, self.segment_write,
                          duplicate, Action.SEGMENT_CREATE, duplicate.create)
        self.assertEqual(['segment.create.start'], self.bus.event_types)

    def test_update_shows_the_new_values(self):
        segment = self.create_segment()
        segment.update({'description': 'd2', 'enabled': False})

        self.segment_write(segment, Action.SEGMENT_UPDATE, segment.save)

        self.assertEqual(['segment.update.start', 'segment.update.end'],
                         self.bus.event_types)
        for event_type in self.bus.event_types:
            data = self.bus.payload_data(event_type)
            self.assertEqual(payload_keys.SEGMENT_FULL, set(data))
            self.assertEqual(('d2', False),
                             (data['description'], data['enabled']))

    def test_delete_end_keeps_the_id(self):
        segment = self.create_segment()
        self.create_host(segment)

        self.segment_write(segment, Action.SEGMENT_DELETE, segment.destroy)

        # The segment's hosts go with it, without host notifications.
        self.assertEqual(['segment.delete.start', 'segment.delete.end'],
                         self.bus.event_types)
        self.assertEqual(payload_keys.SEGMENT_FULL,
                         self.data_keys('segment.delete.end'))
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

        self.host_write(host, Action.HOST_CREATE, host.create)

        self.assertEqual(['host.create.start', 'host.create.end'],
                         self.bus.event_types)
        self.assertEqual(payload_keys.HOST_START,
                         self.data_keys('host.create.start'))
        self.assertEqual(payload_keys.HOST_START,
                         self.data_keys('host.create.end'))
        segment = self.bus.payload_data('host.create.end')['failover_segment']
        self.assertEqual('1.1', segment['masakari_object.version'])
        self.assertEqual(NESTED_SEGMENT, set(segment['masakari_object.data']))
        self.assertNotIn('masakari_object.changes', segment)

    def test_update_and_delete(self):
        host = self.create_host(self.segment)
        host.update({'on_maintenance': True, 'reserved': True})

        self.host_write(host, Action.HOST_UPDATE, host.save)
        self.host_write(host, Action.HOST_DELETE, host.destroy)

        self.assertEqual(['host.update.start', 'host.update.end',
                          'host.delete.start', 'host.delete.end'],
                         self.bus.event_types)
        data = self.bus.payload_data('host.update.end')
        self.assertEqual(payload_keys.HOST_FULL, set(data))
        self.assertTrue(data['on_maintenance'])
        self.assertEqual(payload_keys.HOST_FULL,
                         self.data_keys('host.delete.end'))
        self.assertEqual({'masakari-api'},
                         {entry['publisher_id'].split(':')[0]
                          for entry in self.bus.notifications})


class TestEngineHostWrites(WriteTestCase):
    binary = notifications.ENGINE_BINARY

    def test_host_update_is_published_as_masakari_engine(self):
        host = self.create_host(self.create_segment())
        self.bus.clear()
        host.on_maintenance = True

        self.host_write(host, Action.HOST_UPDATE, host.save)

        self.assertEqual(
            ['masakari-engine', 'masakari-engine'],
            [entry['publisher_id'].split(':')[0]
             for entry in self.bus.notifications])


class TestNotificationWrites(WriteTestCase):

    def write(self, notification):
        notifications.around_write(
            notifications.notify_about_notification_api, self.ctxt,
            notification, Action.NOTIFICATION_CREATE, notification.create)

    def test_create(self):
        notification = self.new_notification(
            generated_time='2026-10-28T12:00:00+02:00')

        self.write(notification)

        self.assertEqual(['notification.create.start',
                          'notification.create.end'], self.bus.event_types)
        for event_type in self.bus.event_types:
            data = self.bus.payload_data(event_type)
            self.assertEqual(payload_keys.NOTIFICATION_START, set(data))
            # The value as given, not yet the stored UTC one.
            self.assertEqual('2026-10-28T12:00:00+02:00',
                             data['generated_time'])
        self.assertTrue(notification.notification_uuid)
