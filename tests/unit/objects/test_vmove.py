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

from masakari import exception
from masakari import objects
from tests.unit.objects import base

INSTANCE_UUID = '3f1f7a2e-5d4c-4b3a-9e8d-7c6b5a4f3e2d'


class TestVMove(base.ObjectTestCase):

    def create_vmove(self, **values):
        fields = {'notification_uuid': base.NOTIFICATION_UUID,
                  'instance_uuid': INSTANCE_UUID, 'instance_name': 'vm1',
                  'source_host': 'h1', 'type': 'evacuation',
                  'status': 'pending'}
        fields.update(values)
        vmove = objects.VMove(self.ctxt, **fields)
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
