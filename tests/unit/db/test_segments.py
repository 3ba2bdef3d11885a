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

"""DB API: failover segments and the row conventions."""

from oslo_utils import timeutils
from oslo_utils import uuidutils

from masakari.db import api as db
from masakari.db.sqlalchemy import models
from masakari import exception
from tests.unit.db import base


class TestSegmentCreate(base.DbTestCase):

    def test_create_applies_defaults_and_returns_row(self):
        before = timeutils.utcnow().replace(microsecond=0)
        segment = self.create_segment(name='seg1')
        self.assertEqual('seg1', segment['name'])
        self.assertEqual('seg1', segment.get('name'))
        self.assertIs(True, segment.enabled)
        self.assertEqual(0, segment.deleted)
        self.assertIsNone(segment.updated_at)
        self.assertIsNone(segment.deleted_at)
        self.assertEqual(0, segment.created_at.microsecond)
        self.assertGreaterEqual(segment.created_at, before)

    def test_create_keeps_given_enabled_and_ignores_unknown_keys(self):
        segment = self.create_segment(enabled=False, not_a_column='x',
                                      nor_this=None)
        self.assertIs(False, db.failover_segment_get_by_uuid(
            self.ctx, segment.uuid).enabled)

    def test_duplicate_name_raises_exists(self):
        self.create_segment(name='seg1')
        error = self.assertRaises(exception.FailoverSegmentExists,
                                  self.create_segment, name='seg1')
        self.assertEqual('Failover segment with name seg1 already exists.',
                         error.format_message())

    def test_duplicate_uuid_names_the_segment_being_inserted(self):
        segment = self.create_segment(name='seg1')
        error = self.assertRaises(exception.FailoverSegmentExists,
                                  self.create_segment, name='seg2',
                                  uuid=segment.uuid)
        self.assertEqual('Failover segment with name seg2 already exists.',
                         error.format_message())


class TestSegmentGet(base.DbTestCase):

    def setUp(self):
        super().setUp()
        self.segment = self.create_segment(name='seg1')

    def test_get_by_id_uuid_and_name(self):
        for row in (db.failover_segment_get_by_id(self.ctx, self.segment.id),
                    db.failover_segment_get_by_uuid(self.ctx,
                                                    self.segment.uuid),
                    db.failover_segment_get_by_name(self.ctx, 'seg1')):
            self.assertEqual(self.segment.uuid, row.uuid)

    def test_not_found_messages(self):
        error = self.assertRaises(exception.FailoverSegmentNotFound,
                                  db.failover_segment_get_by_id, self.ctx, 99)
        self.assertEqual('No failover segment with id 99.',
                         error.format_message())
        error = self.assertRaises(exception.FailoverSegmentNotFound,
                                  db.failover_segment_get_by_uuid, self.ctx,
                                  'abc')
        self.assertEqual('No failover segment with id abc.',
                         error.format_message())
        error = self.assertRaises(exception.FailoverSegmentNotFoundByName,
                                  db.failover_segment_get_by_name, self.ctx,
                                  'nope')
        self.assertEqual('Failover segment with name nope could not be '
                         'found.', error.format_message())
        self.assertEqual(404, error.code)

    def test_deleted_segment_is_not_found(self):
        db.failover_segment_delete(self.ctx, self.segment.uuid)
        self.assertRaises(exception.FailoverSegmentNotFound,
                          db.failover_segment_get_by_id, self.ctx,
                          self.segment.id)
        self.assertRaises(exception.FailoverSegmentNotFoundByName,
                          db.failover_segment_get_by_name, self.ctx, 'seg1')

    def test_row_inserted_with_null_deleted_is_invisible(self):
        with self.database.engine.begin() as conn:
            conn.execute(models.FailoverSegment.__table__.update().values(
                deleted=None))
        self.assertRaises(exception.FailoverSegmentNotFound,
                          db.failover_segment_get_by_uuid, self.ctx,
                          self.segment.uuid)

    def test_rows_stay_readable_after_the_transaction(self):
        row = db.failover_segment_get_by_uuid(self.ctx, self.segment.uuid)
        self.assertEqual('a segment', row.description)
        self.assertEqual('auto', row['recovery_method'])


class TestSegmentUpdate(base.DbTestCase):

    def setUp(self):
        super().setUp()
        self.segment = self.create_segment(name='seg1')

    def test_update_changes_values_and_sets_updated_at(self):
        updated = db.failover_segment_update(
            self.ctx, self.segment.uuid,
            {'description': 'new', 'recovery_method': 'reserved_host',
             'enabled': False})
        self.assertEqual('new', updated.description)
        self.assertEqual('reserved_host', updated.recovery_method)
        self.assertIs(False, updated.enabled)
        self.assertIsNotNone(updated.updated_at)
        self.assertEqual(0, updated.updated_at.microsecond)
        self.assertEqual(self.segment.created_at, updated.created_at)

    def test_update_without_change_keeps_updated_at(self):
        updated = db.failover_segment_update(
            self.ctx, self.segment.uuid, {'description': 'a segment'})
        self.assertIsNone(updated.updated_at)

    def test_update_unknown_segment(self):
        error = self.assertRaises(exception.FailoverSegmentNotFound,
                                  db.failover_segment_update, self.ctx,
                                  'missing', {'name': 'x'})
        self.assertEqual('No failover segment with id missing.',
                         error.format_message())

    def test_update_to_an_existing_name(self):
        self.create_segment(name='seg2')
        error = self.assertRaises(exception.FailoverSegmentExists,
                                  db.failover_segment_update, self.ctx,
                                  self.segment.uuid, {'name': 'seg2'})
        self.assertEqual('Failover segment with name seg2 already exists.',
                         error.format_message())

    def test_duplicate_without_name_names_the_current_segment(self):
        # Fix: 22.0.0 said "Failover segment with name None already exists."
        other = self.create_segment(name='seg2')
        error = self.assertRaises(exception.FailoverSegmentExists,
                                  db.failover_segment_update, self.ctx,
                                  self.segment.uuid, {'uuid': other.uuid})
        self.assertEqual('Failover segment with name seg1 already exists.',
                         error.format_message())


class TestSegmentDelete(base.DbTestCase):

    def test_soft_delete_cascades_to_live_hosts(self):
        segment = self.create_segment(name='seg1')
        other = self.create_segment()
        host = self.create_host(segment)
        other_host = self.create_host(other)
        db.failover_segment_update(self.ctx, segment.uuid,
                                   {'description': 'touched'})
        updated_at = db.failover_segment_get_by_uuid(
            self.ctx, segment.uuid).updated_at

        db.failover_segment_delete(self.ctx, segment.uuid)

        with self.database.engine.connect() as conn:
            seg_row = conn.execute(models.FailoverSegment.__table__.select(
            ).where(models.FailoverSegment.id == segment.id)).one()
            host_row = conn.execute(models.Host.__table__.select().where(
                models.Host.id == host.id)).one()
        self.assertEqual(segment.id, seg_row.deleted)
        self.assertIsNotNone(seg_row.deleted_at)
        self.assertEqual(updated_at, seg_row.updated_at)
        self.assertEqual(host.id, host_row.deleted)
        self.assertIsNotNone(host_row.deleted_at)
        self.assertIsNone(host_row.updated_at)
        self.assertEqual(other_host.uuid,
                         db.host_get_by_uuid(self.ctx, other_host.uuid).uuid)

    def test_name_is_free_again_after_delete(self):
        segment = self.create_segment(name='seg1')
        db.failover_segment_delete(self.ctx, segment.uuid)
        self.assertEqual('seg1', self.create_segment(name='seg1').name)

    def test_delete_unknown_or_deleted_segment(self):
        segment = self.create_segment()
        db.failover_segment_delete(self.ctx, segment.uuid)
        error = self.assertRaises(exception.FailoverSegmentNotFound,
                                  db.failover_segment_delete, self.ctx,
                                  segment.uuid)
        self.assertEqual('No failover segment with id %s.' % segment.uuid,
                         error.format_message())


class TestSegmentUnderRecovery(base.DbTestCase):

    IN_PROGRESS = {'status': ['new', 'running', 'error']}

    def setUp(self):
        super().setUp()
        self.segment = self.create_segment()
        self.host = self.create_host(self.segment)

    def under_recovery(self, filters=IN_PROGRESS):
        return db.is_failover_segment_under_recovery(
            self.ctx, self.segment.uuid, filters)

    def test_no_notification(self):
        self.assertFalse(self.under_recovery())
        self.assertFalse(self.under_recovery(None))

    def test_notification_of_a_host_of_the_segment(self):
        self.create_notification(source_host_uuid=self.host.uuid,
                                 status='running')
        self.assertTrue(self.under_recovery())
        self.assertTrue(self.under_recovery({'status': 'running'}))
        self.assertFalse(self.under_recovery({'status': 'new'}))
        self.assertTrue(self.under_recovery(None))
        self.assertTrue(self.under_recovery({'other': 'ignored'}))

    def test_finished_notification_does_not_count(self):
        self.create_notification(source_host_uuid=self.host.uuid,
                                 status='finished')
        self.assertFalse(self.under_recovery())

    def test_only_current_live_membership_counts(self):
        other_segment = self.create_segment()
        stranger = self.create_host(other_segment)
        self.create_notification(source_host_uuid=stranger.uuid)
        gone = self.create_host(self.segment)
        self.create_notification(source_host_uuid=gone.uuid)
        db.host_delete(self.ctx, gone.uuid)
        self.create_notification(source_host_uuid=uuidutils.generate_uuid(),
                                 failover_segment_uuid=self.segment.uuid)
        self.assertFalse(self.under_recovery())


class TestSegmentList(base.DbTestCase):

    def test_filters(self):
        auto = self.create_segment(recovery_method='auto')
        reserved = self.create_segment(recovery_method='reserved_host',
                                       service_type='other', enabled=False)

        def uuids(filters):
            return [row.uuid for row in
                    db.failover_segment_get_all_by_filters(self.ctx,
                                                           filters)]

        self.assertEqual([auto.uuid], uuids({'recovery_method': 'auto'}))
        self.assertEqual([reserved.uuid], uuids({'service_type': 'other'}))
        self.assertEqual([reserved.uuid], uuids({'enabled': False}))
        self.assertEqual([reserved.uuid, auto.uuid],
                         uuids({'unknown': 'ignored'}))
        db.failover_segment_delete(self.ctx, auto.uuid)
        self.assertEqual([reserved.uuid], uuids(None))
