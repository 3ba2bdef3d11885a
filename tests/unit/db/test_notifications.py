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

"""DB API: notifications and vm moves."""

import datetime

from oslo_db import exception as db_exc
from oslo_utils import uuidutils

from masakari.db import api as db
from masakari.db import facade
from masakari import exception
from tests.unit.db import base


class TestNotification(base.DbTestCase):

    def setUp(self):
        super().setUp()
        self.notification = self.create_notification()
        self.uuid = self.notification.notification_uuid

    def test_create_and_get(self):
        self.assertEqual('new', self.notification.status)
        self.assertEqual(0, self.notification.deleted)
        self.assertIsNone(self.notification.failover_segment_uuid)
        for row in (db.notification_get_by_uuid(self.ctx, self.uuid),
                    db.notification_get_by_id(self.ctx,
                                              self.notification.id)):
            self.assertEqual('{"event": "STOPPED"}', row.payload)
            self.assertEqual(datetime.datetime(2026, 1, 1, 10),
                             row.generated_time)

    def test_duplicate_uuid_is_not_translated(self):
        self.assertRaises(db_exc.DBDuplicateEntry, self.create_notification,
                          notification_uuid=self.uuid)

    def test_an_insert_run_again_finds_its_own_row(self):
        # As after a COMMIT whose answer was lost: the retried insert
        # meets the row it wrote.
        values = {name: self.notification[name] for name in
                  ('notification_uuid', 'generated_time', 'type', 'payload',
                   'source_host_uuid', 'status')}
        again = db.notification_create(self.ctx, values)
        self.assertEqual(self.notification.id, again.id)

    def test_not_found(self):
        error = self.assertRaises(exception.NotificationNotFound,
                                  db.notification_get_by_uuid, self.ctx, 'x')
        self.assertEqual('No notification with id x.',
                         error.format_message())
        self.assertRaises(exception.NotificationNotFound,
                          db.notification_get_by_id, self.ctx, 77)
        self.assertRaises(exception.NotificationNotFound,
                          db.notification_update, self.ctx, 'x', {})

    def test_update(self):
        updated = db.notification_update(
            self.ctx, self.uuid, {'status': 'running', 'message': 'go'})
        self.assertEqual('running', updated.status)
        self.assertEqual('go', updated.message)
        self.assertEqual(0, updated.updated_at.microsecond)

    def test_a_fence_holds_a_running_notification_of_its_token(self):
        token = datetime.datetime(2026, 1, 1, 10, 0, 7)
        db.notification_update(self.ctx, self.uuid, {'status': 'running',
                                                     'updated_at': token})

        @facade.writer
        def fence(context, generation):
            return db.notification_fence(context, self.uuid, generation)

        # NOTE: a match writes the value it has: MySQL counts the row as
        # matched although nothing changed (rows found, not changed).
        self.assertTrue(fence(self.ctx, token))
        self.assertFalse(fence(self.ctx, token.replace(second=8)))
        self.assertEqual(token,
                         db.notification_get_by_uuid(self.ctx,
                                                     self.uuid).updated_at)
        db.notification_update(self.ctx, self.uuid, {'status': 'finished',
                                                     'updated_at': token})
        self.assertFalse(fence(self.ctx, token))

    def test_update_if_is_a_compare_and_set(self):
        updated = db.notification_update_if(
            self.ctx, self.uuid, {'status': ['new', 'error']},
            {'status': 'running'})
        self.assertEqual('running', updated.status)
        self.assertEqual(0, updated.updated_at.microsecond)
        # The second engine loses: the status is no longer new or error.
        self.assertIsNone(db.notification_update_if(
            self.ctx, self.uuid, {'status': ['new', 'error']},
            {'status': 'running', 'message': 'second'}))
        self.assertIsNone(db.notification_get_by_uuid(
            self.ctx, self.uuid).message)
        self.assertIsNone(db.notification_update_if(
            self.ctx, 'missing', {}, {'status': 'error'}))
        self.assertEqual('finished', db.notification_update_if(
            self.ctx, self.uuid, {'status': 'running'},
            {'status': 'finished'}).status)

    def test_delete_cascades_to_vmoves(self):
        vmove = self.create_vmove(self.uuid)
        other = self.create_vmove(self.create_notification().notification_uuid)
        db.notification_delete(self.ctx, self.uuid)
        self.assertRaises(exception.NotificationNotFound,
                          db.notification_get_by_uuid, self.ctx, self.uuid)
        self.assertRaises(exception.VMoveNotFound, db.vmove_get_by_uuid,
                          self.ctx, vmove.uuid)
        self.assertEqual(other.uuid,
                         db.vmove_get_by_uuid(self.ctx, other.uuid).uuid)
        error = self.assertRaises(exception.NotificationNotFound,
                                  db.notification_delete, self.ctx, self.uuid)
        self.assertEqual('No notification with id %s.' % self.uuid,
                         error.format_message())

    def test_list_filters(self):
        host = uuidutils.generate_uuid()
        segment = uuidutils.generate_uuid()
        vm = self.create_notification(
            type='VM', source_host_uuid=host, status='running',
            failover_segment_uuid=segment,
            generated_time=datetime.datetime(2026, 1, 1, 12))
        process = self.create_notification(
            type='PROCESS', source_host_uuid=host, status='error',
            generated_time=datetime.datetime(2026, 1, 1, 11))

        def uuids(filters):
            return {row.notification_uuid for row in
                    db.notifications_get_all_by_filters(self.ctx, filters)}

        self.assertEqual({vm.notification_uuid, process.notification_uuid},
                         uuids({'source_host_uuid': host}))
        self.assertEqual({vm.notification_uuid},
                         uuids({'failover_segment_uuid': segment}))
        self.assertEqual({process.notification_uuid},
                         uuids({'type': 'PROCESS'}))
        self.assertEqual({self.uuid, process.notification_uuid},
                         uuids({'status': ['new', 'error']}))
        self.assertEqual({vm.notification_uuid},
                         uuids({'status': 'running'}))
        self.assertEqual({vm.notification_uuid, process.notification_uuid},
                         uuids({'generated-since':
                                datetime.datetime(2026, 1, 1, 11)}))
        # A timezone-aware bound is compared in UTC: 13:00+02:00 is 11:00Z.
        plus_two = datetime.timezone(datetime.timedelta(hours=2))
        self.assertEqual({vm.notification_uuid, process.notification_uuid},
                         uuids({'generated-since': datetime.datetime(
                             2026, 1, 1, 13, tzinfo=plus_two)}))
        self.assertEqual(3, len(uuids({'generated_since': 'ignored'})))


class TestVMove(base.DbTestCase):

    def setUp(self):
        super().setUp()
        self.notification_uuid = self.create_notification().notification_uuid
        self.vmove = self.create_vmove(self.notification_uuid)

    def test_create_get_update_delete(self):
        row = db.vmove_get_by_uuid(self.ctx, self.vmove.uuid)
        self.assertEqual('pending', row.status)
        self.assertIsNone(row.dest_host)
        updated = db.vmove_update(self.ctx, self.vmove.uuid,
                                  {'status': 'succeeded', 'dest_host': 'h2'})
        self.assertEqual('succeeded', updated.status)
        self.assertEqual('h2', updated.dest_host)
        self.assertIsNotNone(updated.updated_at)
        db.vmove_delete(self.ctx, self.vmove.uuid)
        error = self.assertRaises(exception.VMoveNotFound,
                                  db.vmove_get_by_uuid, self.ctx,
                                  self.vmove.uuid)
        self.assertEqual('No vm move with id %s.' % self.vmove.uuid,
                         error.format_message())
        self.assertRaises(exception.VMoveNotFound, db.vmove_delete, self.ctx,
                          self.vmove.uuid)
        self.assertRaises(exception.VMoveNotFound, db.vmove_update, self.ctx,
                          self.vmove.uuid, {})

    def test_duplicate_uuid_is_not_translated(self):
        self.assertRaises(db_exc.DBDuplicateEntry, self.create_vmove,
                          self.notification_uuid, uuid=self.vmove.uuid)

    def test_list_filters(self):
        failed = self.create_vmove(self.notification_uuid, status='failed',
                                   type='migration')
        other = self.create_vmove(self.create_notification().notification_uuid)

        def uuids(filters):
            return {row.uuid for row in
                    db.vmoves_get_all_by_filters(self.ctx, filters)}

        self.assertEqual({self.vmove.uuid, failed.uuid},
                         uuids({'notification_uuid': self.notification_uuid}))
        self.assertEqual({failed.uuid}, uuids({'type': 'migration'}))
        self.assertEqual({self.vmove.uuid, other.uuid},
                         uuids({'status': 'pending'}))
        self.assertEqual({self.vmove.uuid, failed.uuid},
                         uuids({'notification_uuid': self.notification_uuid,
                                'status': ('pending', 'failed')}))


class TestPayloadsSince(base.DbTestCase):

    def test_payloads_of_the_type_and_host_from_the_time_on(self):
        host = uuidutils.generate_uuid()
        at = datetime.datetime(2026, 1, 1, 10)
        for payload, values in (
                ('"same"', {}),
                ('"later"', {'generated_time': at + datetime.timedelta(1)}),
                ('"before"', {'generated_time': at - datetime.timedelta(
                    seconds=1)}),
                ('"other host"', {'source_host_uuid': 'x'}),
                ('"other type"', {'type': 'VM'})):
            self.create_notification(**dict(
                {'source_host_uuid': host, 'payload': payload}, **values))
        deleted = self.create_notification(source_host_uuid=host,
                                           payload='"deleted"')
        db.notification_delete(self.ctx, deleted.notification_uuid)

        self.assertEqual(['"later"', '"same"'], sorted(
            db.notification_payloads_since(self.ctx, 'COMPUTE_HOST', host,
                                           at)))
        self.assertEqual(['"later"', '"same"'], sorted(
            db.notification_payloads_since(
                self.ctx, 'COMPUTE_HOST', host,
                at.replace(tzinfo=datetime.timezone.utc))))
