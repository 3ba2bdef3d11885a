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

"""FailoverSegment and FailoverSegmentList over SQLite."""

from masakari import exception
from masakari import objects
from tests.unit.objects import base


class TestFailoverSegment(base.ObjectTestCase):

    def test_create(self):
        segment = self.create_segment()

        self.assertIsInstance(segment.id, int)
        self.assertTrue(segment.uuid)
        self.assertIsNotNone(segment.created_at)
        self.assertFalse(segment.deleted)
        self.assertEqual(set(), segment.obj_what_changed())
        loaded = objects.FailoverSegment.get_by_uuid(self.ctxt, segment.uuid)
        self.assertTrue(objects.base.obj_equal_prims(segment, loaded))

    def test_create_keeps_a_given_uuid(self):
        segment = self.create_segment(uuid=base.SEGMENT_UUID)
        self.assertEqual(base.SEGMENT_UUID, segment.uuid)

    def test_create_twice(self):
        segment = self.create_segment()
        error = self.assertRaises(exception.ObjectActionError,
                                  segment.create)
        self.assertEqual('Object action create failed because: already '
                         'created', str(error))

    def test_duplicate_name(self):
        self.create_segment()

        self.assertRaises(exception.FailoverSegmentExists,
                          self.create_segment)

    def test_save(self):
        segment = self.create_segment()

        segment.update({'description': 'd2', 'enabled': False})
        segment.save()

        loaded = objects.FailoverSegment.get_by_id(self.ctxt, segment.id)
        self.assertEqual(('d2', False), (loaded.description, loaded.enabled))
        self.assertIsNotNone(segment.updated_at)
        self.assertEqual(set(), segment.obj_what_changed())

    def test_destroy(self):
        segment = self.create_segment()
        host = self.create_host(segment)

        segment.destroy()

        # The segment's hosts go with it.
        self.assertFalse(segment.obj_attr_is_set('id'))
        self.assertRaises(exception.FailoverSegmentNotFound,
                          objects.FailoverSegment.get_by_uuid, self.ctxt,
                          segment.uuid)
        self.assertRaises(exception.HostNotFound, objects.Host.get_by_uuid,
                          self.ctxt, host.uuid)
        error = self.assertRaises(exception.ObjectActionError,
                                  segment.destroy)
        self.assertIn('already destroyed', str(error))

    def test_destroy_without_uuid(self):
        segment = objects.FailoverSegment(self.ctxt, id=1)
        error = self.assertRaises(exception.ObjectActionError,
                                  segment.destroy)
        self.assertEqual('Object action destroy failed because: no uuid',
                         str(error))

    def test_get_by_name(self):
        segment = self.create_segment(name='by-name')
        self.assertEqual(segment.id, objects.FailoverSegment.get_by_name(
            self.ctxt, 'by-name').id)
        self.assertRaises(exception.FailoverSegmentNotFoundByName,
                          objects.FailoverSegment.get_by_name, self.ctxt,
                          'nope')

    def test_is_under_recovery(self):
        segment = self.create_segment()
        host = self.create_host(segment)
        self.assertFalse(segment.is_under_recovery(
            filters={'status': ['new', 'running', 'error']}))

        self.create_notification(source_host_uuid=host.uuid)

        self.assertTrue(segment.is_under_recovery(
            filters={'status': ['new', 'running', 'error']}))
        self.assertFalse(segment.is_under_recovery(
            filters={'status': ['finished']}))


class TestFailoverSegmentList(base.ObjectTestCase):

    def test_get_all(self):
        for name, method in (('a', 'auto'), ('b', 'reserved_host'),
                             ('c', 'auto')):
            self.create_segment(name=name, recovery_method=method)

        segments = objects.FailoverSegmentList.get_all(
            self.ctxt, filters={'recovery_method': 'auto'},
            sort_keys=['name'], sort_dirs=['asc'])

        self.assertEqual(['a', 'c'], [segment.name for segment in segments])
        self.assertEqual(set(), segments.obj_what_changed())
        primitive = segments.obj_to_primitive()
        self.assertEqual('FailoverSegmentList',
                         primitive['masakari_object.name'])
        self.assertEqual(2, len(primitive['masakari_object.data']['objects']))

    def test_limit_and_marker(self):
        first = self.create_segment(name='a')
        self.create_segment(name='b')

        segments = objects.FailoverSegmentList.get_all(
            self.ctxt, sort_keys=['name'], sort_dirs=['asc'], limit=1,
            marker=first.id)

        self.assertEqual(['b'], [segment.name for segment in segments])
