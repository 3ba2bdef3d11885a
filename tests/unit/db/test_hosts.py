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

"""DB API: hosts, always read with their segment."""

from masakari.db import api as db
from masakari.db.sqlalchemy import models
from masakari import exception
from tests.unit.db import base


class TestHost(base.DbTestCase):

    def setUp(self):
        super().setUp()
        self.segment = self.create_segment(name='seg1')
        self.host = self.create_host(self.segment, name='compute-1')

    def test_create_defaults_and_joined_segment(self):
        self.assertIs(False, self.host.reserved)
        self.assertIs(False, self.host.on_maintenance)
        self.assertEqual(0, self.host.deleted)
        self.assertEqual(self.segment.uuid, self.host.failover_segment_id)
        self.assertEqual('seg1', self.host['failover_segment']['name'])

    def test_host_name_is_unique_across_segments(self):
        other = self.create_segment()
        error = self.assertRaises(exception.HostExists, self.create_host,
                                  other, name='compute-1')
        self.assertEqual('Host with name compute-1 already exists.',
                         error.format_message())

    def test_get_by_uuid_id_and_name(self):
        for row in (db.host_get_by_uuid(self.ctx, self.host.uuid),
                    db.host_get_by_uuid(self.ctx, self.host.uuid,
                                        self.segment.uuid),
                    db.host_get_by_id(self.ctx, self.host.id),
                    db.host_get_by_name(self.ctx, 'compute-1')):
            self.assertEqual(self.host.uuid, row.uuid)
            self.assertEqual('seg1', row.failover_segment.name)

    def test_not_found_messages(self):
        other = self.create_segment()
        error = self.assertRaises(
            exception.HostNotFoundUnderFailoverSegment, db.host_get_by_uuid,
            self.ctx, self.host.uuid, other.uuid)
        self.assertEqual("Host '%s' under failover_segment '%s' could not "
                         "be found." % (self.host.uuid, other.uuid),
                         error.format_message())
        error = self.assertRaises(exception.HostNotFound,
                                  db.host_get_by_uuid, self.ctx, 'x')
        self.assertEqual('No host with id x.', error.format_message())
        error = self.assertRaises(exception.HostNotFound,
                                  db.host_get_by_id, self.ctx, 42)
        self.assertEqual('No host with id 42.', error.format_message())
        error = self.assertRaises(exception.HostNotFoundByName,
                                  db.host_get_by_name, self.ctx, 'nope')
        self.assertEqual('Host with name nope could not be found.',
                         error.format_message())

    def test_live_host_keeps_its_soft_deleted_segment(self):
        # The join tests the host's deleted flag, not the segment's.
        with self.database.engine.begin() as conn:
            conn.execute(models.FailoverSegment.__table__.update().values(
                deleted=models.FailoverSegment.id))
        row = db.host_get_by_uuid(self.ctx, self.host.uuid)
        self.assertEqual('seg1', row.failover_segment.name)

    def test_update(self):
        updated = db.host_update(self.ctx, self.host.uuid,
                                 {'on_maintenance': True, 'reserved': True})
        self.assertIs(True, updated.on_maintenance)
        self.assertIs(True, updated.reserved)
        self.assertEqual(0, updated.updated_at.microsecond)
        self.assertEqual('seg1', updated.failover_segment.name)
        unchanged = db.host_update(self.ctx, self.host.uuid,
                                   {'reserved': True})
        self.assertEqual(updated.updated_at, unchanged.updated_at)

    def test_update_if_is_a_compare_and_set(self):
        db.host_update(self.ctx, self.host.uuid, {'reserved': True})
        taken = db.host_update_if(self.ctx, self.host.uuid,
                                  {'reserved': True, 'on_maintenance': False},
                                  {'reserved': False})
        self.assertIs(False, taken.reserved)
        self.assertEqual('seg1', taken.failover_segment.name)
        self.assertIsNone(db.host_update_if(
            self.ctx, self.host.uuid, {'reserved': True}, {'reserved': False}))
        db.host_delete(self.ctx, self.host.uuid)
        self.assertIsNone(db.host_update_if(
            self.ctx, self.host.uuid, {}, {'on_maintenance': True}))

    def test_update_errors(self):
        self.assertRaises(exception.HostNotFound, db.host_update, self.ctx,
                          'missing', {'name': 'x'})
        other = self.create_host(self.segment, name='compute-2')
        error = self.assertRaises(exception.HostExists, db.host_update,
                                  self.ctx, self.host.uuid,
                                  {'name': 'compute-2'})
        self.assertEqual('Host with name compute-2 already exists.',
                         error.format_message())
        # Fix: names the host instead of "None" when 'name' is not given.
        error = self.assertRaises(exception.HostExists, db.host_update,
                                  self.ctx, self.host.uuid,
                                  {'uuid': other.uuid})
        self.assertEqual('Host with name compute-1 already exists.',
                         error.format_message())

    def test_delete(self):
        db.host_delete(self.ctx, self.host.uuid)
        self.assertRaises(exception.HostNotFound, db.host_get_by_uuid,
                          self.ctx, self.host.uuid)
        error = self.assertRaises(exception.HostNotFound, db.host_delete,
                                  self.ctx, self.host.uuid)
        self.assertEqual('No host with id %s.' % self.host.uuid,
                         error.format_message())
        self.assertEqual('compute-1',
                         self.create_host(self.segment,
                                          name='compute-1').name)

    def test_list_filters(self):
        other = self.create_segment()
        spare = self.create_host(self.segment, reserved=True, type='SSH')
        busy = self.create_host(self.segment, reserved=True,
                                on_maintenance=True)
        elsewhere = self.create_host(other)

        def uuids(filters):
            return {row.uuid for row in
                    db.host_get_all_by_filters(self.ctx, filters)}

        self.assertEqual({self.host.uuid, spare.uuid, busy.uuid},
                         uuids({'failover_segment_id': self.segment.uuid}))
        self.assertEqual({spare.uuid},
                         uuids({'failover_segment_id': self.segment.uuid,
                                'reserved': True, 'on_maintenance': False}))
        self.assertEqual({spare.uuid}, uuids({'type': 'SSH'}))
        self.assertEqual({self.host.uuid, spare.uuid, busy.uuid,
                          elsewhere.uuid}, uuids({'name': 'ignored'}))
        rows = db.host_get_all_by_filters(self.ctx)
        self.assertTrue(all(row.failover_segment for row in rows))
