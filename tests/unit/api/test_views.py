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

"""The response views: key order, unset fields, microversion rules."""

import datetime

from oslotest import base as test_base

from masakari.api import microversion
from masakari.api.openstack.ha import views
from masakari import objects

objects.register_all()

V1_0 = microversion.Version('1.0')
V1_1 = microversion.Version('1.1')
GENERATED = datetime.datetime(2026, 10, 28, 10, 0, 1, 5,
                              tzinfo=datetime.timezone.utc)


def notification(**values):
    return objects.Notification(
        id=1, notification_uuid='7882ccb9-ebb1-43b3-848b-f2333ae4b79c',
        generated_time=GENERATED, type='VM', status='new',
        source_host_uuid='907be468-9eb1-44a8-9360-b07152519417',
        payload={'event': 'LIFECYCLE'}, failover_segment_uuid=None,
        message=None, created_at=GENERATED, updated_at=None,
        deleted_at=None, deleted=False, **values)


def progress():
    return [objects.NotificationProgressDetails.create(
        'DisableComputeServiceTask', 1.0,
        [{'timestamp': 't', 'progress': '1.0', 'message': 'done'}],
        'SUCCESS')]


class TestNotificationView(test_base.BaseTestCase):

    def test_keys_in_reference_order(self):
        self.assertEqual(
            ['id', 'notification_uuid', 'generated_time',
             'source_host_uuid', 'type', 'payload', 'status',
             'failover_segment_uuid', 'message', 'created_at',
             'updated_at', 'deleted_at', 'deleted'],
            list(views.notification(notification(), V1_1)))

    def test_timestamps_in_utc_with_microseconds(self):
        view = views.notification(notification(), V1_0)
        self.assertEqual('2026-10-28T10:00:01.000005',
                         view['generated_time'])
        self.assertIsNone(view['updated_at'])

    def test_other_time_zones_shown_in_utc(self):
        paris = datetime.timezone(datetime.timedelta(hours=2))
        obj = notification()
        obj.generated_time = datetime.datetime(2026, 10, 28, 12, 0, 1,
                                               tzinfo=paris)
        self.assertEqual('2026-10-28T10:00:01.000000',
                         views.notification(obj, V1_0)['generated_time'])

    def test_years_before_1000_as_strftime_writes_them(self):
        obj = notification()
        for when, shown in (
                (datetime.datetime(1, 1, 1), '1-01-01T00:00:00.000000'),
                (datetime.datetime(999, 12, 31, 23, 59, 59, 999999),
                 '999-12-31T23:59:59.999999'),
                (datetime.datetime(1000, 1, 1), '1000-01-01T00:00:00.000000'),
                (datetime.datetime(9999, 12, 31, 23, 59, 59, 999999),
                 '9999-12-31T23:59:59.999999')):
            obj.generated_time = when
            self.assertEqual(shown,
                             views.notification(obj, V1_0)['generated_time'])

    def test_recovery_details_from_1_1(self):
        view = views.notification(
            notification(recovery_workflow_details=progress()), V1_1)
        self.assertEqual(
            [{'name': 'DisableComputeServiceTask', 'progress': 1.0,
              'progress_details': [{'timestamp': 't', 'progress': '1.0',
                                    'message': 'done'}],
              'state': 'SUCCESS'}],
            view['recovery_workflow_details'])
        self.assertEqual('status', list(view)[6])
        self.assertEqual('recovery_workflow_details', list(view)[7])

    def test_recovery_details_hidden_before_1_1(self):
        view = views.notification(
            notification(recovery_workflow_details=progress()), V1_0)
        self.assertNotIn('recovery_workflow_details', view)

    def test_unset_field_left_out(self):
        obj = notification()
        del obj.message
        self.assertNotIn('message', views.notification(obj, V1_1))


class TestHostView(test_base.BaseTestCase):

    def test_segment_embedded_after_the_name(self):
        segment = objects.FailoverSegment(
            id=2, uuid='f9703c93-8acc-4d9f-b44b-0bc97e581222', name='s',
            service_type='compute', enabled=True, description=None,
            recovery_method='auto', created_at=GENERATED, updated_at=None,
            deleted_at=None, deleted=False)
        host = objects.Host(
            id=3, uuid='907be468-9eb1-44a8-9360-b07152519417', name='h',
            failover_segment=segment, type='COMPUTE', reserved=False,
            control_attributes='SSH', on_maintenance=False,
            created_at=GENERATED, updated_at=None, deleted_at=None,
            deleted=False)
        view = views.host(host, V1_0)
        self.assertEqual(
            ['id', 'uuid', 'name', 'failover_segment_id',
             'failover_segment', 'type', 'reserved', 'control_attributes',
             'on_maintenance', 'created_at', 'updated_at', 'deleted_at',
             'deleted'], list(view))
        self.assertEqual(segment.uuid, view['failover_segment_id'])
        self.assertEqual(views.segment(segment, V1_0),
                         view['failover_segment'])
