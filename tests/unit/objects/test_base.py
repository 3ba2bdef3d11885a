"""The object base: primitives, serializer rules, helpers."""

import datetime

from oslo_versionedobjects import exception as ovo_exc
from oslotest import base as test_base

from masakari import context
from masakari import objects
from masakari.objects import base

objects.register_all()


def notification_primitive(version='1.3', namespace='masakari'):
    return {
        'masakari_object.name': 'Notification',
        'masakari_object.namespace': namespace,
        'masakari_object.version': version,
        'masakari_object.data': {
            'id': 1, 'status': 'new', 'not_a_field': 'ignored',
            'generated_time': '2026-10-28T10:00:00Z'},
        'masakari_object.changes': ['status', 'not_a_field'],
    }


class TestSerializer(test_base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.serializer = base.MasakariObjectSerializer()
        self.ctxt = context.RequestContext(is_admin=True)

    def test_rebuild(self):
        notification = self.serializer.deserialize_entity(
            self.ctxt, notification_primitive())

        self.assertIsInstance(notification, objects.Notification)
        self.assertEqual({'status'}, notification.obj_what_changed())
        self.assertEqual(datetime.datetime(2026, 10, 28, 10, 0, 0,
                                           tzinfo=datetime.timezone.utc),
                         notification.generated_time)
        self.assertIs(self.ctxt, notification._context)

    def test_older_minor_keeps_the_received_version(self):
        notification = self.serializer.deserialize_entity(
            self.ctxt, notification_primitive(version='1.1'))
        self.assertEqual('1.1', notification.VERSION)

    def test_newer_minor_is_incompatible(self):
        error = self.assertRaises(
            ovo_exc.IncompatibleObjectVersion,
            self.serializer.deserialize_entity, self.ctxt,
            notification_primitive(version='1.4'))
        self.assertEqual('Version 1.4 of Notification is not supported, '
                         'supported version is 1.3', str(error))

    def test_three_part_version_is_read_as_two(self):
        notification = self.serializer.deserialize_entity(
            self.ctxt, notification_primitive(version='1.3.7'))
        self.assertEqual('1.3', notification.VERSION)

    def test_other_namespace_is_unsupported(self):
        self.assertRaises(ovo_exc.UnsupportedObjectError,
                          self.serializer.deserialize_entity, self.ctxt,
                          notification_primitive(namespace='nova'))

    def test_containers_are_walked(self):
        entity = {'n': [notification_primitive()], 'x': 1}
        rebuilt = self.serializer.deserialize_entity(self.ctxt, entity)
        self.assertIsInstance(rebuilt['n'][0], objects.Notification)

        serialised = self.serializer.serialize_entity(self.ctxt, rebuilt)
        primitive = serialised['n'][0]
        self.assertEqual(1, serialised['x'])
        self.assertEqual({'id': 1, 'status': 'new',
                          'generated_time': '2026-10-28T10:00:00Z'},
                         primitive['masakari_object.data'])
        self.assertEqual(['status'], primitive['masakari_object.changes'])


class TestHelpers(test_base.BaseTestCase):

    def test_changes_for_the_db_are_naive_utc(self):
        notification = objects.Notification(
            generated_time='2026-10-28T12:00:00+02:00', status='new')

        changes = notification.masakari_obj_get_changes()

        self.assertEqual({'generated_time': datetime.datetime(2026, 10, 28,
                                                              10, 0, 0),
                          'status': 'new'}, changes)

    def test_obj_equal_prims(self):
        first = objects.FailoverSegment(id=1, name='a', description='x')
        second = objects.FailoverSegment(id=1, name='a', description='y')
        second.obj_reset_changes(['id'])

        self.assertFalse(base.obj_equal_prims(first, second))
        self.assertTrue(base.obj_equal_prims(first, second,
                                             ignore=['description']))

    def test_list_primitive_keys(self):
        segments = objects.FailoverSegmentList(
            objects=[objects.FailoverSegment(id=1)])
        primitive = segments.obj_to_primitive()
        self.assertEqual(
            {'masakari_object.name', 'masakari_object.namespace',
             'masakari_object.version', 'masakari_object.data',
             'masakari_object.changes'}, set(primitive))
        self.assertEqual(['objects'],
                         list(primitive['masakari_object.data']))

    def test_dict_compatibility(self):
        host = objects.Host(name='h1')
        host.update({'reserved': 'false'})

        # Boolean fields take any value by truthiness.
        self.assertIs(True, host['reserved'])
        self.assertEqual('h1', host.get('name'))
        self.assertEqual('unset', host.get('type', 'unset'))
        self.assertEqual({'name', 'reserved'}, set(host.keys()))

    def test_non_nullable_field(self):
        host = objects.Host()
        error = self.assertRaises(ValueError, setattr, host, 'type', None)
        self.assertEqual("Field `type' cannot be None", str(error))

    def test_enum_values(self):
        notification = objects.Notification()
        error = self.assertRaises(ValueError, setattr, notification, 'type',
                                  'DISK')
        self.assertEqual('Field value DISK is invalid', str(error))
        self.assertEqual(
            2, objects.fields.NotificationStatus.index('error'))
        self.assertEqual(
            'rh_priority',
            objects.fields.FailoverSegmentRecoveryMethod.from_index(3))
