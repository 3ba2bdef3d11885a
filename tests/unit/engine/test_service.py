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

"""The engine service in-process, end to end: masakari-api's RPC client
casts over the fake transport -> RPC server -> manager -> taskflow ->
simulated cloud; then the 1.1 read-back as a call.
"""

import datetime

from oslo_utils import timeutils

from masakari.cmd import notification_release
from masakari import context as masakari_context
from masakari.engine import brake
from masakari.engine import rpcapi
from masakari import objects
from masakari.objects import fields
from masakari import service
from tests.fixtures import fencing
from tests.fixtures import polling
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
FINAL = (Status.FINISHED, Status.ERROR, Status.IGNORED, Status.FAILED)


class ServiceTestCase(base.RecoveryTestCase):
    """Runs the engine service in-process (``start_engine``)."""

    servers = [base.server('vm')]

    def start_engine(self, **options):
        self.config(periodic_fuzzy_delay=0, **options)
        engine = service.Service.create(executor='threading')
        engine.start()
        self.addCleanup(engine.wait)
        self.addCleanup(engine.stop)
        return engine

    def wait_for(self, notification, statuses=FINAL, timeout=20):
        def ended():
            stored = self.engine.reload(notification)
            return stored if stored.status in statuses else None

        return polling.wait_until(
            ended, timeout, message=lambda: 'notification still %s' %
            self.engine.reload(notification).status)


class EngineServiceTestCase(ServiceTestCase):

    def test_cast_processes_and_call_reads_back(self):
        self.start_engine()
        api_context = masakari_context.RequestContext(
            user_id='admin', project_id='admin', is_admin=True,
            global_request_id='req-11111111-2222-3333-4444-555555555555')
        notification = self.engine.create_notification(self.host)
        self.nova.reset_calls()

        rpcapi.EngineAPI().process_notification(api_context, notification)
        self.assertEqual(Status.FINISHED,
                         self.wait_for(notification).status)
        self.assertEqual('compute-2', self.nova.server('vm')['host'])
        # Nova sees the API request's id on every call of the recovery.
        self.assertEqual(
            {'req-11111111-2222-3333-4444-555555555555'},
            {call['headers'].get('X-OpenStack-Request-ID')
             for call in self.nova.calls('nova')})

        stored = self.engine.reload(notification)
        answer = rpcapi.EngineAPI().get_notification_recovery_workflow_details(
            api_context, stored)
        self.assertEqual(
            ['DisableComputeServiceTask', 'PrepareHAEnabledInstancesTask',
             'EvacuateInstancesTask'],
            [detail.name for detail in answer.recovery_workflow_details])
        self.assertEqual(
            'Evacuation process completed!',
            answer.recovery_workflow_details[-1].progress_details[-1][
                'message'])

    def test_periodic_timer_retries_errors(self):
        notification = self.engine.create_notification(self.host,
                                                       status=Status.ERROR)
        self.start_engine(process_unfinished_notifications_interval=1,
                          check_expired_notifications_interval=-1)
        self.assertEqual(Status.FINISHED,
                         self.wait_for(notification, (Status.FINISHED,
                                                      Status.FAILED)).status)

    def test_periodic_tasks_can_be_turned_off(self):
        self.config(periodic_enable=False)
        engine = self.start_engine()
        self.assertIsNone(engine._timer)

    def test_unusable_tempdir_exits(self):
        self.config(tempdir='/nonexistent/masakari-tmp')
        engine = service.Service.create(executor='threading')
        error = self.assertRaises(SystemExit, engine.start)
        self.assertEqual(1, error.code)
        self.assertIsNone(engine.rpcserver)

    def test_stop_waits_for_the_running_recovery(self):
        self.nova.update_server('vm', evacuate_delay=0.5)
        engine = service.Service.create(executor='threading')
        engine.start()
        notification = self.engine.create_notification(self.host)
        rpcapi.EngineAPI().process_notification(self.context, notification)
        self.wait_for(notification, (Status.RUNNING,) + FINAL)
        engine.stop()
        engine.wait()
        self.assertEqual(Status.FINISHED,
                         self.engine.reload(notification).status)


class BackgroundChecksTestCase(ServiceTestCase):
    """The extensions' checks run in the background loop: with periodic
    tasks off too, and from the first interval (no fuzzy delay).
    """

    def start_engine(self, **options):
        self.config(periodic_enable=False, periodic_fuzzy_delay=60,
                    **options)
        engine = service.Service.create(executor='threading')
        engine.start()
        self.addCleanup(engine.wait)
        self.addCleanup(engine.stop)
        self.assertIsNone(engine._timer)
        return engine

    def test_return_to_service(self):
        self.useFixture(fencing.FencingFixture(
            self.engine.conf, [base.FAILED_HOST], nova=self.nova))
        self.config(return_to_service=True, return_to_service_interval=1,
                    group='fencing')
        self.assertEqual(Status.FINISHED, self.host_down(
            event='STOPPED', host_status='NORMAL').status)
        self.start_engine()
        host = objects.Host.get_by_uuid(self.context, self.host.uuid)
        host.on_maintenance = False
        host.save()
        polling.wait_until(lambda: self.nova.service(base.FAILED_HOST)[
            'status'] == 'enabled', timeout=20)

    def hold(self):
        """A recovery held by the brake (a limit of one, another host
        failed 100 s ago).
        """
        self.config(max_failed_hosts=1, held_notifications_check_interval=1,
                    group='host_failure')
        other = self.engine.create_host(self.segment, name='compute-3')
        self.process(self.engine.create_notification(
            other, generated_time=timeutils.utcnow() -
            datetime.timedelta(seconds=100)))
        held = self.host_down(event='STOPPED', host_status='NORMAL')
        self.assertTrue(brake.is_held(held))
        return held

    def test_the_brake_lets_a_held_recovery_go(self):
        held = self.hold()
        self.config(lease_timeout=0, group='takeover')
        self.config(failed_hosts_window=50, group='host_failure')
        self.start_engine()
        self.assertEqual(Status.FINISHED, self.wait_for(held).status)

    def test_a_released_recovery_goes_at_once(self):
        held = self.hold()
        # Neither the periodic retry nor the lost-message sweep.
        self.config(new_notification_age=0, group='takeover')
        self.start_engine()
        self.assertEqual((0, 'Notification %s released: an engine recovers '
                             'it now, without the brake.'
                          % held.notification_uuid),
                         notification_release.release_notification(
                             held.notification_uuid))
        self.assertEqual(Status.FINISHED, self.wait_for(held).status)
        self.assertIn('Mass-failure brake: notification %s was released by '
                      'an operator; recovering it without the brake.'
                      % held.notification_uuid, self.engine.logs.output)
