"""Host and HostList over SQLite."""

from masakari import exception
from masakari.notifications import api as notifications
from masakari import objects
from tests.unit.objects import base

CREATE_KEYS = {'name', 'failover_segment', 'type', 'control_attributes',
               'on_maintenance', 'reserved', 'fault'}
FULL_KEYS = CREATE_KEYS | {'id', 'uuid'}
SEGMENT_KEYS = {'id', 'uuid', 'name', 'service_type', 'enabled',
                'description', 'recovery_method', 'created_at', 'updated_at',
                'deleted_at', 'deleted'}


class TestHost(base.ObjectTestCase):

    def setUp(self):
        super().setUp()
        self.segment = self.create_segment()
        self.bus.clear()

    def test_create(self):
        host = self.create_host(self.segment)

        self.assertEqual(['host.create.start', 'host.create.end'],
                         self.bus.event_types)
        self.assertEqual(CREATE_KEYS, self.data_keys('host.create.start'))
        self.assertEqual(CREATE_KEYS, self.data_keys('host.create.end'))
        segment = self.bus.payload_data('host.create.end')['failover_segment']
        self.assertEqual('1.1', segment['masakari_object.version'])
        self.assertEqual(SEGMENT_KEYS,
                         set(segment['masakari_object.data']))
        self.assertNotIn('masakari_object.changes', segment)
        self.assertIsInstance(host.id, int)
        self.assertEqual(self.segment.uuid, host.failover_segment.uuid)
        self.assertEqual(set(), host.obj_what_changed())

    def test_create_without_segment(self):
        host = objects.Host(self.ctxt, name='h1', type='COMPUTE',
                            control_attributes='SSH', reserved=False,
                            on_maintenance=False)
        error = self.assertRaises(exception.ObjectActionError, host.create)
        self.assertEqual('Object action create failed because: failover '
                         'segment not assigned', str(error))
        self.assertEqual([], self.bus.notifications)

    def test_save(self):
        host = self.create_host(self.segment)
        self.bus.clear()

        host.update({'on_maintenance': True, 'reserved': True})
        host.save()

        self.assertEqual(['host.update.start', 'host.update.end'],
                         self.bus.event_types)
        data = self.bus.payload_data('host.update.end')
        self.assertEqual(FULL_KEYS, set(data))
        self.assertTrue(data['on_maintenance'])
        self.assertEqual('masakari-api',
                         self.bus.notifications[0]['publisher_id'].split(
                             ':')[0])
        loaded = objects.Host.get_by_id(self.ctxt, host.id)
        self.assertEqual((True, True),
                         (loaded.on_maintenance, loaded.reserved))

    def test_save_in_the_engine_publishes_as_masakari_engine(self):
        host = self.create_host(self.segment)
        self.bus.clear()
        notifications.set_binary(notifications.ENGINE_BINARY)

        host.on_maintenance = True
        host.save()

        self.assertEqual(
            ['masakari-engine', 'masakari-engine'],
            [entry['publisher_id'].split(':')[0]
             for entry in self.bus.notifications])

    def test_save_refuses_a_segment_change(self):
        host = self.create_host(self.segment)
        self.bus.clear()
        host.failover_segment = self.create_segment(name='other')
        self.bus.clear()

        error = self.assertRaises(exception.ObjectActionError, host.save)
        self.assertEqual('Object action save failed because: failover '
                         'segment changed', str(error))
        self.assertEqual([], self.bus.notifications)

    def test_destroy(self):
        host = self.create_host(self.segment)
        self.bus.clear()

        host.destroy()

        self.assertEqual(['host.delete.start', 'host.delete.end'],
                         self.bus.event_types)
        self.assertEqual(FULL_KEYS, self.data_keys('host.delete.end'))
        self.assertFalse(host.obj_attr_is_set('id'))
        self.assertRaises(exception.HostNotFound, objects.Host.get_by_uuid,
                          self.ctxt, host.uuid)

    def test_take_reserved_is_a_compare_and_set(self):
        host = self.create_host(self.segment, reserved=True)
        other_engine = objects.Host.get_by_uuid(self.ctxt, host.uuid)
        self.bus.clear()

        self.assertTrue(host.take_reserved())

        self.assertFalse(host.reserved)
        self.assertEqual(set(), host.obj_what_changed())
        self.assertEqual(['host.update.start', 'host.update.end'],
                         self.bus.event_types)
        self.assertFalse(self.bus.payload_data('host.update.start')[
            'reserved'])
        self.bus.clear()
        # Another engine's copy still says reserved: it loses, unchanged,
        # and publishes nothing.
        self.assertFalse(other_engine.take_reserved())
        self.assertTrue(other_engine.reserved)
        self.assertEqual([], self.bus.notifications)
        self.assertFalse(objects.Host.get_by_uuid(self.ctxt,
                                                  host.uuid).reserved)

    def test_take_reserved_of_a_host_not_reserved(self):
        host = self.create_host(self.segment, reserved=False)
        self.bus.clear()
        self.assertFalse(host.take_reserved())
        self.assertEqual([], self.bus.notifications)

    def test_get_by_uuid_under_a_segment(self):
        host = self.create_host(self.segment)
        other = self.create_segment(name='other')

        self.assertEqual(host.id, objects.Host.get_by_uuid(
            self.ctxt, host.uuid, segment_uuid=self.segment.uuid).id)
        self.assertRaises(exception.HostNotFoundUnderFailoverSegment,
                          objects.Host.get_by_uuid, self.ctxt, host.uuid,
                          segment_uuid=other.uuid)

    def test_get_by_name(self):
        host = self.create_host(self.segment, name='compute-1')
        loaded = objects.Host.get_by_name(self.ctxt, 'compute-1')
        self.assertTrue(objects.base.obj_equal_prims(host, loaded))
        self.assertEqual(set(), loaded.failover_segment.obj_what_changed())


class TestHostList(base.ObjectTestCase):

    def test_get_all_of_a_segment(self):
        segment = self.create_segment()
        other = self.create_segment(name='other')
        self.create_host(segment, name='h1', reserved=True)
        self.create_host(segment, name='h2')
        self.create_host(other, name='h3', reserved=True)

        hosts = objects.HostList.get_all(
            self.ctxt, filters={'failover_segment_id': segment.uuid,
                                'reserved': True})

        self.assertEqual(['h1'], [host.name for host in hosts])
        self.assertEqual(segment.uuid, hosts[0].failover_segment.uuid)
