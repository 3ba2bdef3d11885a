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


class TestFilledFromRows(test_base.BaseTestCase):
    """Objects filled from DB rows hold what their fields' coercion would
    make of the column values, whichever way the values come.
    """

    ROW = {'id': 1, 'uuid': 'f9703c93-8acc-4d9f-b44b-0bc97e581222',
           'name': 'segment-1', 'service_type': 'compute', 'enabled': 1,
           'description': None, 'recovery_method': 'auto',
           'created_at': datetime.datetime(2026, 1, 1, 10, 0, 0, 7),
           'updated_at': None, 'deleted_at': None, 'deleted': 0}

    def setUp(self):
        super().setUp()
        self.ctxt = context.RequestContext(is_admin=True)

    def coerced(self, cls, row):
        obj = cls(self.ctxt)
        for name in cls.fields:
            if name in row:
                setattr(obj, name, row[name])
        obj.obj_reset_changes()
        return obj

    def assert_same(self, cls, row):
        loaded = cls._load(self.ctxt, row)
        expected = self.coerced(cls, row)
        self.assertEqual(expected.obj_to_primitive(),
                         loaded.obj_to_primitive())
        for name in row:
            self.assertEqual(type(getattr(expected, name)),
                             type(getattr(loaded, name)), name)
        self.assertEqual(set(), loaded.obj_what_changed())
        self.assertIs(self.ctxt, loaded._context)

    def test_values_of_the_column_types(self):
        self.assert_same(objects.FailoverSegment, self.ROW)

    def test_values_the_fields_convert(self):
        row = dict(self.ROW, enabled=True, deleted=7, id=True,
                   created_at='2026-01-01T10:00:00Z',
                   updated_at=datetime.datetime(
                       2026, 1, 1, 11, tzinfo=datetime.timezone.utc))
        self.assert_same(objects.FailoverSegment, row)

    def test_none_for_a_field_with_a_default(self):
        loaded = objects.FailoverSegment._load(
            self.ctxt, dict(self.ROW, enabled=None))
        self.assertTrue(loaded.enabled)

    def test_invalid_values_are_refused_as_by_the_fields(self):
        for column, value in (('recovery_method', 'manual'),
                              ('name', None), ('id', 'one')):
            self.assertRaises(ValueError, objects.FailoverSegment._load,
                              self.ctxt, dict(self.ROW, **{column: value}))

    def test_notification_payload(self):
        row = {'id': 1, 'notification_uuid':
               '7882ccb9-ebb1-43b3-848b-f2333ae4b79c',
               'generated_time': datetime.datetime(2026, 1, 1),
               'source_host_uuid': '907be468-9eb1-44a8-9360-b07152519417',
               'type': 'VM', 'status': 'new',
               'failover_segment_uuid': None, 'message': None,
               'created_at': None, 'updated_at': None, 'deleted_at': None,
               'deleted': 0}
        for text, payload in (('{"event": "LIFECYCLE"}',
                               {'event': 'LIFECYCLE'}),
                              ('{"count": 2}', {'count': '2'}),
                              ('', {}), (None, {})):
            loaded = objects.Notification._load(self.ctxt,
                                                dict(row, payload=text))
            self.assertEqual(payload, loaded.payload)
            self.assertFalse(loaded.obj_attr_is_set(
                'recovery_workflow_details'))
