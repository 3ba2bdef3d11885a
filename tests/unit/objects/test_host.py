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

"""Host and HostList over SQLite."""

from masakari import exception
from masakari import objects
from tests.unit.objects import base


class TestHost(base.ObjectTestCase):

    def setUp(self):
        super().setUp()
        self.segment = self.create_segment()

    def test_create(self):
        host = self.create_host(self.segment)

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

    def test_save(self):
        host = self.create_host(self.segment)

        host.update({'on_maintenance': True, 'reserved': True})
        host.save()

        loaded = objects.Host.get_by_id(self.ctxt, host.id)
        self.assertEqual((True, True),
                         (loaded.on_maintenance, loaded.reserved))

    def test_save_refuses_a_segment_change(self):
        host = self.create_host(self.segment)
        host.failover_segment = self.create_segment(name='other')

        error = self.assertRaises(exception.ObjectActionError, host.save)
        self.assertEqual('Object action save failed because: failover '
                         'segment changed', str(error))

    def test_destroy(self):
        host = self.create_host(self.segment)

        host.destroy()

        self.assertFalse(host.obj_attr_is_set('id'))
        self.assertRaises(exception.HostNotFound, objects.Host.get_by_uuid,
                          self.ctxt, host.uuid)

    def test_take_reserved_is_a_compare_and_set(self):
        host = self.create_host(self.segment, reserved=True)
        other_engine = objects.Host.get_by_uuid(self.ctxt, host.uuid)

        self.assertTrue(host.take_reserved())

        # Only the stored row changed; the caller records it on the
        # object (engine.claims).
        self.assertEqual(set(), host.obj_what_changed())
        # Another engine's copy still says reserved: it loses.
        self.assertFalse(other_engine.take_reserved())
        self.assertTrue(other_engine.reserved)
        self.assertFalse(objects.Host.get_by_uuid(self.ctxt,
                                                  host.uuid).reserved)

    def test_take_reserved_of_a_host_not_reserved(self):
        host = self.create_host(self.segment, reserved=False)
        self.assertFalse(host.take_reserved())

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
