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

"""Object fingerprints, registry and compatibility: the wire contract.

A reference peer rebuilds only objects whose version it knows and whose
schema matches; the fingerprints below are the reference's own. A
failure here means the object changed: bump its version, record
the change in its "# Version" history and update the table.
"""

import inspect

from oslo_versionedobjects import base as ovo_base
from oslo_versionedobjects import exception as ovo_exc
from oslo_versionedobjects import fixture
from oslotest import base as test_base

# NOTE: imported for their registration as notification classes.
from masakari.notifications.objects import exception  # noqa: F401
from masakari.notifications.objects import notification as notif  # noqa
from masakari import objects
from masakari.objects import base

objects.register_all()

OBJECT_FINGERPRINTS = {
    'EventType': '1.0-d1d2010a7391fa109f0868d964152607',
    'ExceptionNotification': '1.0-1187e93f564c5cca692db76a66cda2a6',
    'ExceptionPayload': '1.0-96f178a12691e3ef0d8e3188fc481b90',
    'FailoverSegment': '1.1-9cecc07c111f647b32d560f19f1f5db9',
    'FailoverSegmentList': '1.0-dfc5c6f5704d24dcaa37b0bbb03cbe60',
    'Host': '1.2-f05735b156b687bc916d46b551bc45e3',
    'HostApiNotification': '1.0-1187e93f564c5cca692db76a66cda2a6',
    'HostApiPayload': '1.0-20603e23a06477975b860459ba684d34',
    'HostApiPayloadBase': '1.1-e02e80de08d0b584ee7a0a0320bfd029',
    'HostList': '1.0-25ebe1b17fbd9f114fae8b6a10d198c0',
    'Notification': '1.3-73d66c4b7961eb7d880322920ed77390',
    'NotificationApiNotification': '1.0-1187e93f564c5cca692db76a66cda2a6',
    'NotificationApiPayload': '1.0-c050869a1f4aed23e7645bd4d1830ecd',
    'NotificationApiPayloadBase': '1.0-cda8d53a77e64f83e3782fc9c4d499bb',
    'NotificationList': '1.0-25ebe1b17fbd9f114fae8b6a10d198c0',
    'NotificationProgressDetails': '1.0-fc611ac932b719fbc154dbe34bb8edee',
    'NotificationPublisher': '1.0-bbbc1402fb0e443a3eb227cc52b61545',
    'SegmentApiNotification': '1.0-1187e93f564c5cca692db76a66cda2a6',
    'SegmentApiPayload': '1.1-e34e1c772e16e9ad492067ee98607b1d',
    'SegmentApiPayloadBase': '1.1-6a1db76f3e825f92196fc1a11508d886',
    'VMove': '1.0-5c4d8667b5612b8a49adc065f8961aa2',
    'VMoveList': '1.0-63fff36dee683c7a1555798cb233ad3f',
}

# ObjectVersionChecker.get_dependency_tree() of the reference: it follows
# single-object fields only, not lists.
OBJECT_DEPENDENCIES = {
    'ExceptionNotification': {'EventType': '1.0',
                              'ExceptionPayload': '1.0',
                              'NotificationPublisher': '1.0'},
    'Host': {'FailoverSegment': '1.1'},
    'HostApiNotification': {'EventType': '1.0', 'HostApiPayload': '1.0',
                            'NotificationPublisher': '1.0'},
    'HostApiPayload': {'ExceptionPayload': '1.0', 'FailoverSegment': '1.1'},
    'HostApiPayloadBase': {'FailoverSegment': '1.1'},
    'NotificationApiNotification': {'EventType': '1.0',
                                    'NotificationApiPayload': '1.0',
                                    'NotificationPublisher': '1.0'},
    'NotificationApiPayload': {'ExceptionPayload': '1.0'},
    'SegmentApiNotification': {'EventType': '1.0',
                               'NotificationPublisher': '1.0',
                               'SegmentApiPayload': '1.1'},
    'SegmentApiPayload': {'ExceptionPayload': '1.0'},
}

PRODUCTION_OBJECTS = [
    'FailoverSegment', 'FailoverSegmentList', 'Host', 'HostList',
    'Notification', 'NotificationList', 'NotificationProgressDetails',
    'VMove', 'VMoveList',
]


def masakari_classes():
    return {name: classes
            for name, classes in base.MasakariObjectRegistry.obj_classes(
            ).items()
            if classes[0].OBJ_PROJECT_NAMESPACE == 'masakari'}


class TestObjectVersions(test_base.BaseTestCase):
    """All registered classes, notifications included, as the reference."""

    def setUp(self):
        super().setUp()
        self.useFixture(fixture.VersionedObjectRegistryFixture())
        base.MasakariObjectRegistry.register_notification_objects()
        self.checker = fixture.ObjectVersionChecker(masakari_classes())

    def test_fingerprints(self):
        expected, actual = self.checker.test_hashes(OBJECT_FINGERPRINTS)
        self.assertEqual(expected, actual,
                         'Some objects changed: bump their version')
        self.assertEqual(22, len(self.checker.get_hashes()))

    def test_dependency_tree(self):
        self.assertEqual(OBJECT_DEPENDENCIES,
                         self.checker.get_dependency_tree())

    def test_list_child_versions(self):
        children = {
            'Notification': ('recovery_workflow_details',
                             'NotificationProgressDetails', '1.0'),
            'FailoverSegmentList': ('objects', 'FailoverSegment', '1.1'),
            'HostList': ('objects', 'Host', '1.2'),
            'NotificationList': ('objects', 'Notification', '1.3'),
            'VMoveList': ('objects', 'VMove', '1.0'),
        }
        classes = masakari_classes()
        for parent, (field, child, version) in children.items():
            field_type = classes[parent][0].fields[field]._type
            self.assertEqual(child, field_type._element_type._type._obj_name)
            self.assertEqual(version, classes[child][0].VERSION)

    def test_obj_make_compatible_with_manifest(self):
        # Every RPC object can be backported to each of its older versions
        # when a manifest gives the child versions.
        production = {name: classes
                      for name, classes in masakari_classes().items()
                      if name in PRODUCTION_OBJECTS}
        checker = fixture.ObjectVersionChecker(production)
        checker.test_compatibility_routines(use_manifest=True)

    def test_obj_reset_changes_signature(self):
        expected = inspect.signature(
            ovo_base.VersionedObject.obj_reset_changes)
        for name, classes in masakari_classes().items():
            self.assertEqual(
                expected, inspect.signature(classes[0].obj_reset_changes),
                name)


class TestRegistry(test_base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixture.VersionedObjectRegistryFixture())

    def test_production_registry_holds_nine_objects(self):
        self.assertEqual(sorted(PRODUCTION_OBJECTS),
                         sorted(masakari_classes()))

    def test_notification_classes_are_not_registered(self):
        names = [cls.obj_name()
                 for cls in base.MasakariObjectRegistry.notification_classes]
        self.assertEqual(13, len(set(names)))
        for name in names:
            self.assertNotIn(name, masakari_classes())
        base.MasakariObjectRegistry.register_notification_objects()
        self.assertEqual(22, len(masakari_classes()))

    def test_module_attribute_keeps_the_highest_version(self):
        current = objects.FailoverSegment
        self.addCleanup(setattr, objects, 'FailoverSegment', current)

        @base.MasakariObjectRegistry.register
        class FailoverSegment(base.MasakariObject):
            VERSION = '1.0'
            fields = {}

        self.assertIs(current, objects.FailoverSegment)

        @base.MasakariObjectRegistry.register
        class FailoverSegment(base.MasakariObject):  # noqa: F811
            VERSION = '1.2'
            fields = {}

        self.assertIs(FailoverSegment, objects.FailoverSegment)

    def test_namespaces(self):
        notification = objects.Notification(id=1)
        primitive = notification.obj_to_primitive()
        self.assertEqual('Notification', primitive['masakari_object.name'])
        self.assertEqual('masakari', primitive['masakari_object.namespace'])
        self.assertEqual('1.3', primitive['masakari_object.version'])


class TestObjMakeCompatible(test_base.BaseTestCase):
    """Backports (never done in production: no version cap)."""

    def _segment(self):
        segment = objects.FailoverSegment(
            id=1, uuid='f9703c93-8acc-4d9f-b44b-0bc97e581222', name='seg1',
            service_type='compute', enabled=True, description=None,
            recovery_method='auto')
        segment.obj_reset_changes()
        return segment

    def test_segment_1_0_has_no_enabled(self):
        primitive = self._segment().obj_to_primitive(target_version='1.0')
        self.assertEqual(
            ['description', 'id', 'name', 'recovery_method', 'service_type',
             'uuid'],
            sorted(primitive['masakari_object.data']))
        self.assertEqual('1.0', primitive['masakari_object.version'])

    def test_host_backport_needs_a_manifest(self):
        host = objects.Host(id=1, name='h1', failover_segment=self._segment())
        error = self.assertRaises(ovo_exc.ObjectActionError,
                                  host.obj_to_primitive, target_version='1.1')
        self.assertEqual('Object action obj_make_compatible failed because: '
                         'No rule for failover_segment', str(error))

    def test_host_1_1_gets_failover_segment_id_back(self):
        host = objects.Host(id=1, name='h1', failover_segment=self._segment())
        primitive = host.obj_to_primitive(
            target_version='1.1',
            version_manifest={'FailoverSegment': '1.0'})
        data = primitive['masakari_object.data']
        self.assertEqual('f9703c93-8acc-4d9f-b44b-0bc97e581222',
                         data['failover_segment_id'])
        segment = data['failover_segment']
        self.assertEqual('1.0', segment['masakari_object.version'])
        self.assertNotIn('enabled', segment['masakari_object.data'])

    def test_host_1_2_is_unchanged(self):
        host = objects.Host(id=1, name='h1', failover_segment=self._segment())
        primitive = host.obj_to_primitive(target_version='1.2')
        self.assertNotIn('failover_segment_id',
                         primitive['masakari_object.data'])

    def test_notification_backport_keeps_newer_fields(self):
        notification = objects.Notification(
            id=1, failover_segment_uuid=None, message='m')
        primitive = notification.obj_to_primitive(target_version='1.0')
        self.assertEqual({'id': 1, 'failover_segment_uuid': None,
                          'message': 'm'},
                         primitive['masakari_object.data'])

    def test_notification_backport_with_details_needs_a_manifest(self):
        notification = objects.Notification(
            id=1, recovery_workflow_details=[])
        error = self.assertRaises(ovo_exc.ObjectActionError,
                                  notification.obj_to_primitive,
                                  target_version='1.2')
        self.assertIn('No rule for recovery_workflow_details', str(error))
