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

"""VMove and VMoveList over SQLite."""

from unittest import mock

from oslo_db import exception as db_exc

from masakari.db import api as db
from masakari import exception
from masakari import objects
from tests.unit.objects import base

INSTANCE_UUID = '3f1f7a2e-5d4c-4b3a-9e8d-7c6b5a4f3e2d'


class TestVMove(base.ObjectTestCase):

    def new_vmove(self, **values):
        fields = {'notification_uuid': base.NOTIFICATION_UUID,
                  'instance_uuid': INSTANCE_UUID, 'instance_name': 'vm1',
                  'source_host': 'h1', 'type': 'evacuation',
                  'status': 'pending'}
        fields.update(values)
        return objects.VMove(self.ctxt, **fields)

    def create_vmove(self, **values):
        vmove = self.new_vmove(**values)
        vmove.create()
        return vmove

    def test_create_save_and_get(self):
        vmove = self.create_vmove()
        self.assertTrue(vmove.uuid)

        vmove.update({'status': 'succeeded', 'dest_host': 'h2'})
        vmove.save()

        loaded = objects.VMove.get_by_uuid(self.ctxt, vmove.uuid)
        self.assertEqual(('succeeded', 'h2'),
                         (loaded.status, loaded.dest_host))
        self.assertRaises(exception.ObjectActionError, vmove.create)

    def test_create_all_in_one_transaction(self):
        vmoves = [self.new_vmove(instance_name='vm%d' % number)
                  for number in range(3)]
        with mock.patch.object(db, 'vmoves_create',
                               wraps=db.vmoves_create) as create:
            objects.VMove.create_all(self.ctxt, vmoves)
        create.assert_called_once()
        self.assertEqual(3, len({vmove.id for vmove in vmoves}))
        for vmove in vmoves:
            self.assertEqual(set(), vmove.obj_what_changed())
            loaded = objects.VMove.get_by_uuid(self.ctxt, vmove.uuid)
            self.assertEqual((vmove.id, vmove.instance_name, 'pending'),
                             (loaded.id, loaded.instance_name,
                              loaded.status))

    def test_create_all_is_all_or_nothing(self):
        taken = self.create_vmove()
        vmoves = [self.new_vmove(), self.new_vmove(uuid=taken.uuid)]
        self.assertRaises(db_exc.DBDuplicateEntry,
                          objects.VMove.create_all, self.ctxt, vmoves)
        self.assertEqual([taken.uuid], [
            vmove.uuid for vmove in objects.VMoveList.get_all_vmoves(
                self.ctxt, base.NOTIFICATION_UUID)])

    def test_create_all_of_nothing_asks_nothing(self):
        with mock.patch.object(db, 'vmoves_create') as create:
            objects.VMove.create_all(self.ctxt, [])
        create.assert_not_called()

    def test_create_all_refuses_a_created_vmove(self):
        self.assertRaises(exception.ObjectActionError,
                          objects.VMove.create_all, self.ctxt,
                          [self.new_vmove(), self.create_vmove()])

    def test_get_all_vmoves(self):
        self.create_vmove(status='pending')
        self.create_vmove(status='succeeded')
        self.create_vmove(notification_uuid=INSTANCE_UUID)

        self.assertEqual(2, len(objects.VMoveList.get_all_vmoves(
            self.ctxt, base.NOTIFICATION_UUID)))
        self.assertEqual(['succeeded'], [
            vmove.status for vmove in objects.VMoveList.get_all_vmoves(
                self.ctxt, base.NOTIFICATION_UUID, status='succeeded')])

    def test_get_by_unknown_uuid(self):
        self.assertRaises(exception.VMoveNotFound,
                          objects.VMove.get_by_uuid, self.ctxt,
                          INSTANCE_UUID)
