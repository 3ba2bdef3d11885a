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

"""Notification, its list and NotificationProgressDetails over SQLite.
"""

import datetime

import sqlalchemy as sa

from masakari.db import api as db_api
from masakari import exception
from masakari import objects
from tests.unit.objects import base

PERSISTED = {'id', 'notification_uuid', 'generated_time', 'source_host_uuid',
             'type', 'payload', 'status', 'failover_segment_uuid', 'message',
             'created_at', 'updated_at', 'deleted_at', 'deleted'}


class TestNotification(base.ObjectTestCase):

    def test_create(self):
        notification = self.create_notification()

        self.assertTrue(notification.notification_uuid)
        self.assertEqual(set(), notification.obj_what_changed())

    def test_payload_is_stored_as_json_text(self):
        notification = self.create_notification()

        with db_api.get_engine().connect() as connection:
            stored = connection.execute(sa.text(
                'SELECT payload FROM notifications WHERE id = :id'),
                {'id': notification.id}).scalar()
        self.assertEqual('{"event": "STOPPED", "process_name": '
                         '"nova-compute"}', stored)
        self.assertEqual({'event': 'STOPPED', 'process_name': 'nova-compute'},
                         notification.payload)

    def test_loaded_primitive_has_13_fields_and_no_changes(self):
        created = self.create_notification()

        loaded = objects.Notification.get_by_uuid(self.ctxt,
                                                  created.notification_uuid)
        primitive = loaded.obj_to_primitive()

        self.assertEqual(PERSISTED, set(primitive['masakari_object.data']))
        self.assertNotIn('masakari_object.changes', primitive)
        self.assertEqual('1.3', primitive['masakari_object.version'])
        self.assertEqual('2026-10-28T10:00:00Z',
                         primitive['masakari_object.data']['generated_time'])

    def test_non_utc_generated_time(self):
        notification = self.create_notification(
            generated_time='2026-10-28T12:00:00+02:00')

        # Stored as naive UTC, read back as UTC.
        self.assertEqual(datetime.datetime(2026, 10, 28, 10, 0, 0,
                                           tzinfo=datetime.timezone.utc),
                         notification.generated_time)

    def test_save(self):
        notification = self.create_notification()

        notification.status = 'running'
        notification.recovery_workflow_details = []
        notification.save()

        loaded = objects.Notification.get_by_id(self.ctxt, notification.id)
        self.assertEqual('running', loaded.status)
        self.assertFalse(loaded.obj_attr_is_set('recovery_workflow_details'))

    def test_destroy(self):
        notification = self.create_notification()

        notification.destroy()

        self.assertRaises(exception.NotificationNotFound,
                          objects.Notification.get_by_uuid, self.ctxt,
                          notification.notification_uuid)
        error = self.assertRaises(exception.ObjectActionError,
                                  notification.destroy)
        self.assertIn('already destroyed', str(error))

    def test_destroy_without_uuid(self):
        error = self.assertRaises(exception.ObjectActionError,
                                  objects.Notification(self.ctxt,
                                                       id=1).destroy)
        self.assertIn('no uuid', str(error))

    def test_transition_status_is_a_compare_and_set(self):
        notification = self.create_notification()
        other_engine = objects.Notification.get_by_uuid(
            self.ctxt, notification.notification_uuid)

        self.assertTrue(notification.transition_status('new', 'running'))
        self.assertEqual('running', notification.status)
        self.assertEqual(set(), notification.obj_what_changed())
        self.assertIsNotNone(notification.updated_at)
        # The other copy still says 'new': its claim loses and it is left
        # as it was.
        self.assertFalse(other_engine.transition_status('new', 'running'))
        self.assertEqual('new', other_engine.status)
        self.assertEqual('running', objects.Notification.get_by_uuid(
            self.ctxt, notification.notification_uuid).status)

    def test_transition_status_from_one_of_several(self):
        notification = self.create_notification(status='error')
        self.assertTrue(notification.transition_status(['new', 'error'],
                                                       'running'))
        self.assertFalse(notification.transition_status(['new', 'error'],
                                                        'running'))

    def test_transition_status_of_a_deleted_notification(self):
        notification = self.create_notification()
        objects.Notification.get_by_uuid(
            self.ctxt, notification.notification_uuid).destroy()
        self.assertFalse(notification.transition_status('new', 'running'))


class TestNotificationList(base.ObjectTestCase):

    def test_get_all_by_status(self):
        for status in ('new', 'error', 'finished'):
            self.create_notification(status=status)

        notifications = objects.NotificationList.get_all(
            self.ctxt, filters={'status': ['new', 'error']})

        self.assertEqual({'new', 'error'},
                         {notification.status
                          for notification in notifications})


class TestNotificationProgressDetails(base.ObjectTestCase):

    def test_create_sets_and_marks_all_four_fields(self):
        details = objects.NotificationProgressDetails.create(
            'DisableComputeServiceTask', 1.0,
            [{'timestamp': '2026-01-01 00:00:00.000001', 'progress': '0.0',
              'message': 'm'}], 'SUCCESS')

        self.assertEqual({'name', 'progress', 'progress_details', 'state'},
                         details.obj_what_changed())
        self.assertEqual('SUCCESS', details['state'])
        self.assertEqual(1.0, details.get('progress'))
