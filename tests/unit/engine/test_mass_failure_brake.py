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

"""The mass-failure brake: a recovery held when too many hosts of the
segment failed, released by an operator or by itself once the failures
age out; a partition stays held.
"""

import datetime

from oslo_utils import timeutils

from masakari.engine import brake
from masakari.engine import manager as engine_manager
from masakari.objects import fields
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
HELD_REASON = ('2 hosts of the segment failed within 600 s (or are held), '
               'over the limit of 1')


class BrakeTestCase(base.RecoveryTestCase):

    servers = [base.server('vm')]

    def setUp(self):
        super().setUp()
        self.config(max_failed_hosts=1, group='host_failure')
        self.others = [self.engine.create_host(self.segment, name=name)
                       for name in ('compute-2', 'compute-3')]

    def fail(self, host, seconds_ago=10):
        """A failure of ``host`` reported ``seconds_ago``, processed."""
        notification = self.engine.create_notification(
            host, generated_time=timeutils.utcnow() -
            datetime.timedelta(seconds=seconds_ago))
        return self.process(notification)

    def assert_held(self, notification, reason=HELD_REASON):
        stored = self.engine.reload(notification)
        self.assertEqual(Status.RUNNING, stored.status)
        self.assertEqual(
            brake.HELD_PREFIX + reason + "; it proceeds once fewer hosts "
            "fail, or with 'masakari-manage notification release %s'"
            % notification.notification_uuid, stored.message)
        self.assertEqual(base.FAILED_HOST, self.nova.server('vm')['host'])
        return stored

    def test_held_visibly_then_released_by_an_operator(self):
        self.assertEqual(Status.FINISHED, self.fail(self.others[0]).status)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')

        held = self.assert_held(notification)
        self.assertEqual([], self.nova.nova_requests())
        self.assertEqual([('MassFailureBrakeTask', 'REVERTED',
                           [held.message])],
                         self.engine.progress(notification))
        self.assertIn('Mass-failure brake: holding the recovery of '
                      'notification %s: %s'
                      % (notification.notification_uuid, HELD_REASON),
                      self.engine.logs.output)
        self.assert_events('notification.process.start',
                           'host.update.start', 'host.update.end',
                           'notification.process.error')
        error = self.engine.rpc.payload_data('notification.process.error')
        self.assertEqual(
            'Recovery of host compute-1 is held by the mass-failure brake: '
            + HELD_REASON,
            error['fault']['masakari_object.data']['exception_message'])

        # The other failure still counts: the periodic check holds on.
        self.manager._resume_held_notifications()
        self.assert_held(notification)

        self.assertTrue(brake.release(self.engine.reload(notification)))
        released = self.engine.reload(notification)
        self.assertEqual((Status.NEW, brake.RELEASED_MESSAGE),
                         (released.status, released.message))
        self.assertFalse(brake.release(released))

        self.config(retry_notification_new_status_interval=0)
        self.manager._process_unfinished_notifications(self.context)
        self.assertEqual(Status.FINISHED,
                         self.engine.reload(notification).status)
        # compute-2 failed too: disabled.
        self.assertEqual('compute-3', self.nova.server('vm')['host'])
        self.assertEqual(
            ['Released from the mass-failure brake by an operator: '
             'recovering'],
            self.messages(notification)['MassFailureBrakeTask'])

    def test_proceeds_by_itself_once_the_failures_age_out(self):
        self.fail(self.others[0], seconds_ago=100)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assert_held(notification)

        self.config(failed_hosts_window=50, group='host_failure')
        self.manager._resume_held_notifications()
        stored = self.engine.reload(notification)
        self.assertEqual((Status.FINISHED, None),
                         (stored.status, stored.message))
        # compute-2 failed too: disabled.
        self.assertEqual('compute-3', self.nova.server('vm')['host'])
        self.assertEqual(
            ['Mass-failure brake: 1 hosts of the segment failed within 50 s '
             '(or are held), within the limit of 1: recovering'],
            self.messages(notification)['MassFailureBrakeTask'])

    def test_a_partition_stays_held_after_the_window(self):
        # Three failures at once with a limit of one: the first goes, the
        # two others hold each other.
        first = self.fail(self.others[0], seconds_ago=100)
        second = self.fail(self.others[1], seconds_ago=99)
        third = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, first.status)
        self.assert_held(second)
        self.assert_held(third, reason=HELD_REASON.replace('2 hosts',
                                                           '3 hosts'))

        self.config(failed_hosts_window=50, group='host_failure')
        self.manager._resume_held_notifications()
        self.assertEqual(Status.RUNNING, self.engine.reload(second).status)
        self.assertEqual(Status.RUNNING, self.engine.reload(third).status)

    def test_percent_of_the_segment(self):
        self.config(max_failed_hosts=0, max_failed_hosts_percent=50,
                    group='host_failure')
        # 3 hosts, 50 %: at most one failed host.
        self.fail(self.others[0])
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assert_held(notification)

    def test_ignored_and_started_reports_do_not_count(self):
        self.engine.create_notification(
            self.others[0], payload={'event': 'STARTED',
                                     'host_status': 'NORMAL'},
            status=Status.FINISHED)
        self.engine.create_notification(self.others[1], status=Status.IGNORED)
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertEqual(Status.FINISHED, notification.status)

    def test_an_engine_restart_leaves_a_held_recovery_held(self):
        self.config(lease_timeout=0, group='takeover')
        self.fail(self.others[0])
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assert_held(notification)
        engine_manager.MasakariManager().init_host()
        self.assert_held(notification)

    def test_the_checks_run_only_with_a_limit(self):
        self.assertIn('resume_held_notifications',
                      engine_manager.MasakariManager().background.names)
        self.config(max_failed_hosts=0, group='host_failure')
        self.assertNotIn('resume_held_notifications',
                         engine_manager.MasakariManager().background.names)
