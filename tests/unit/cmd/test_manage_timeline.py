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

"""``masakari-manage notification timeline``: the timeline of a
notification from the database alone, here one recorded the way
Masakari 22.0.0 records it (no run start time in the flow detail), as
text and as an SVG chart.
"""

import contextlib
import datetime
from xml.etree import ElementTree

from oslo_utils import uuidutils
from taskflow.persistence import models as taskflow_models

from masakari.db.sqlalchemy import models
from masakari.engine.drivers.taskflow import persistence
from tests.unit.cmd import test_manage

T0 = datetime.datetime(2026, 12, 1, 8, 0, 0)


def at(seconds):
    return T0 + datetime.timedelta(seconds=seconds)


def task(name, *offsets):
    detail = taskflow_models.TaskDetail(name, uuidutils.generate_uuid())
    detail.state = 'SUCCESS'
    detail.meta = {'progress': 1.0, 'progress_details': {
        'at_progress': 1.0, 'details': {'progress_details': [
            {'timestamp': str(at(offset)), 'progress': 1.0,
             'message': 'step %d' % index}
            for index, offset in enumerate(offsets)]}}}
    return detail


class TestNotificationTimeline(test_manage.ManageTestCase):

    def setUp(self):
        super().setUp()
        self.assertEqual(0, self.manage('db', 'sync')[0])

    def add_notification(self):
        uuid = uuidutils.generate_uuid()
        self.host_uuid = uuidutils.generate_uuid()
        with self.engine().begin() as conn:
            conn.execute(models.Notification.__table__.insert().values(
                notification_uuid=uuid, deleted=0, generated_time=T0,
                type='COMPUTE_HOST', source_host_uuid=self.host_uuid,
                status='finished'))
            for index, status in enumerate(('succeeded', 'succeeded',
                                            'failed')):
                conn.execute(models.VMove.__table__.insert().values(
                    uuid=uuidutils.generate_uuid(), deleted=0,
                    notification_uuid=uuid,
                    instance_uuid=uuidutils.generate_uuid(),
                    instance_name='vm-%d' % index, status=status,
                    end_time=at(9)))
        book = taskflow_models.LogBook('instance:evacuate', uuid=uuid)
        flow = taskflow_models.FlowDetail('instance_evacuate_engine',
                                          uuidutils.generate_uuid())
        for detail in (task('DisableComputeServiceTask', 0, 2),
                       task('PrepareHAEnabledInstancesTask', 2, 3),
                       task('EvacuateInstancesTask', 3, 6, 10)):
            flow.add(detail)
        book.add(flow)
        self.save_logbook(book)
        return uuid

    def test_timeline_of_a_reference_notification(self):
        uuid = self.add_notification()
        code, out, _err = self.manage('notification', 'timeline', uuid)
        self.assertEqual(0, code)
        self.assertEqual([
            'Notification %s: COMPUTE_HOST, finished, host %s'
            % (uuid, self.host_uuid),
            'Run 1 of 1, engine unknown, started 2026-12-01 08:00:00 UTC',
            '  disable       2.0 s |########                                |',
            '  prepare       1.0 s |        ####                            |',
            '  evacuate      7.0 s |            ############################|',
            '  total        10.0 s',
            '  evacuations: 1 failed, 2 succeeded',
            'host %s recovered in 10.0 s: disable 2.0 s, prepare 1.0 s, '
            'evacuate 7.0 s (3 instances, 1 failed)' % self.host_uuid,
        ], out.splitlines()[-8:])

    def test_svg_chart(self):
        uuid = self.add_notification()
        code, out, err = self.manage('notification', 'timeline', uuid,
                                     '--format', 'svg')
        self.assertEqual((0, ''), (code, err))
        document = ElementTree.fromstring(out)
        namespace = '{http://www.w3.org/2000/svg}'
        bars = {bar.find(namespace + 'title').text: float(bar.get('width'))
                for bar in document.iter(namespace + 'rect')
                if bar.find(namespace + 'title') is not None}
        self.assertEqual(['disable: 2.0 s from 0.0 s',
                          'prepare: 1.0 s from 2.0 s',
                          'evacuate: 7.0 s from 3.0 s'], list(bars))
        widths = list(bars.values())
        self.assertAlmostEqual(widths[0] * 3.5, widths[2], delta=0.1)
        texts = [text.text for text in document.iter(namespace + 'text')]
        self.assertEqual('Notification %s: COMPUTE_HOST, finished, host %s'
                         % (uuid, self.host_uuid), texts[0])
        self.assertIn('evacuations: 1 failed, 2 succeeded', texts)
        self.assertEqual('host %s recovered in 10.0 s: disable 2.0 s, '
                         'prepare 1.0 s, evacuate 7.0 s (3 instances, 1 '
                         'failed)' % self.host_uuid, texts[-1])

    def test_svg_of_an_unknown_notification_writes_no_document(self):
        uuid = uuidutils.generate_uuid()
        self.assertEqual(
            (1, '', 'Notification %s not found.\n' % uuid),
            self.manage('notification', 'timeline', uuid, '--format', 'svg'))

    def test_unknown_notification(self):
        uuid = uuidutils.generate_uuid()
        self.assertEqual(
            (1, 'Notification %s not found.\n' % uuid),
            self.manage('notification', 'timeline', uuid)[:2])

    def test_no_progress_recorded(self):
        uuid = self.add_notification()
        backend = persistence.get_backend(self.taskflow_url)
        with contextlib.closing(backend.get_connection()) as conn:
            conn.destroy_logbook(uuid)
        code, out, _err = self.manage('notification', 'timeline', uuid)
        self.assertEqual((0, 'No recorded progress.'),
                         (code, out.splitlines()[-1]))

    def test_without_taskflow_connection(self):
        self.write_config(taskflow=False)
        code, out, _err = self.manage('notification', 'timeline',
                                      uuidutils.generate_uuid())
        self.assertEqual(1, code)
        self.assertIn('[taskflow]/connection is not set', out)
