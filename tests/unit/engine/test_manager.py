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

"""MasakariManager: decision tables, status transitions, duplicate runs,
periodic tasks and the progress read-back.
"""

import contextlib
import datetime
import threading
import time
from unittest import mock

import fixtures
from oslo_db import exception as db_exception
from oslo_messaging.rpc import dispatcher
from oslo_service import periodic_task
from oslo_utils import timeutils
import sqlalchemy

from masakari.db import api as db_api
from masakari.engine import claims
from masakari.engine import manager as engine_manager
from masakari import exception
from masakari import objects
from masakari.objects import fields
from tests.unit.engine import recovery_base as base

Status = fields.NotificationStatus
DAY = datetime.timedelta(days=1)


def _ago(seconds):
    return timeutils.utcnow() - datetime.timedelta(seconds=seconds)


def _raised(method, *args):
    """The exception an RPC method raised on purpose (oslo.messaging's
    dispatcher unwraps it for the caller).
    """
    try:
        method(*args)
    except dispatcher.ExpectedException as expected:
        return expected.exc_info[1]
    raise AssertionError('%s raised nothing' % method.__name__)


class ComputeHostDecisionsTestCase(base.RecoveryTestCase):
    """COMPUTE_HOST payloads that need no recovery."""

    def assert_outcome(self, status, payload):
        notification = self.host_down(**payload)
        self.assertEqual(status, notification.status)
        self.assertEqual([], self.nova.nova_requests())
        self.assertFalse(objects.Host.get_by_name(
            self.context, base.FAILED_HOST).on_maintenance)
        self.assert_events('notification.process.start',
                           'notification.process.end')

    def test_no_host_status(self):
        self.assert_outcome(Status.IGNORED, {'event': 'STOPPED'})

    def test_host_status_not_normal(self):
        self.assert_outcome(Status.IGNORED, {'event': 'STOPPED',
                                             'host_status': 'unknown'})

    def test_started(self):
        self.assert_outcome(Status.FINISHED, {'event': 'started',
                                              'host_status': 'normal'})

    def test_other_event(self):
        self.assert_outcome(Status.IGNORED, {'event': 'PAUSED',
                                             'host_status': 'NORMAL'})

    def test_missing_event_is_an_error_not_a_stuck_run(self):
        # 22.0.0 left it 'running' until expiry
        # (doc/source/user/differences/engine.rst).
        notification = self.host_down(host_status='NORMAL')
        self.assertEqual(Status.ERROR, notification.status)
        self.assert_events('notification.process.start')


class ProcessingTestCase(base.RecoveryTestCase):

    servers = [base.server('vm')]

    def test_disabled_segment(self):
        self.segment.enabled = False
        self.segment.save()
        notification = self.engine.create_notification(self.host)
        self.engine.rpc.clear()

        error = _raised(self.manager.process_notification, self.context,
                        notification)
        self.assertIsInstance(error, exception.FailoverSegmentDisabled)
        self.assertEqual(
            'Notification %s of type: COMPUTE_HOST is ignored, because the '
            'failover segment is disabled.' % notification.notification_uuid,
            str(error))
        stored = self.engine.reload(notification)
        self.assertEqual(
            (Status.IGNORED, 'Recovery aboart: the segment HA is disabled.'),
            (stored.status, stored.message))
        self.assertEqual([], self.engine.rpc.event_types)
        self.assertEqual([], self.nova.nova_requests())

    def test_missing_host_leaves_it_new(self):
        notification = self.engine.create_notification(self.host)
        self.host.destroy()
        self.engine.rpc.clear()
        self.assertIsInstance(_raised(self.manager.process_notification,
                                      self.context, notification),
                              exception.HostNotFound)
        self.assertEqual(Status.NEW, self.engine.reload(notification).status)
        self.assertEqual([], self.engine.rpc.event_types)

    def test_a_notification_is_processed_once(self):
        notification = self.engine.create_notification(self.host)
        received = objects.Notification.get_by_uuid(
            self.context, notification.notification_uuid)
        self.process(notification)
        self.nova.reset_calls()
        self.engine.rpc.clear()

        self.manager.process_notification(self.context, received)
        self.assertEqual(Status.FINISHED,
                         self.engine.reload(notification).status)
        self.assertEqual([], self.nova.nova_requests())
        self.assert_events('notification.process.start')

    def test_an_error_being_retried_elsewhere_is_not_retried_again(self):
        notification = self.engine.create_notification(
            self.host, status=Status.ERROR)
        received = self.engine.reload(notification)
        stored = self.engine.reload(notification)
        stored.status = Status.RUNNING  # another engine took it
        stored.save()
        self.nova.reset_calls()
        self.manager._process_notification(self.context, received)
        self.assertEqual(Status.RUNNING,
                         self.engine.reload(notification).status)
        self.assertEqual([], self.nova.nova_requests())

    def test_read_back_without_run(self):
        notification = self.engine.create_notification(self.host)
        self.assertEqual([], self.engine.progress(notification))

    def test_read_back_after_the_host_was_deleted(self):
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        self.host.destroy()
        error = _raised(
            self.manager.get_notification_recovery_workflow_details,
            self.context, notification)
        self.assertIs(exception.MasakariException, type(error))
        self.assertEqual('Failed to fetch notification recovery workflow '
                         'details for %s' % notification.notification_uuid,
                         str(error))


class DatabaseStepsTestCase(base.RecoveryTestCase):
    """What the processing of a notification asks of the database."""

    IGNORED_VM = {'instance_uuid': 'a6b6bd4b-1a4b-4ec0-9b4a-c4e7ba6bcd11',
                  'vir_domain_event': 'STARTED_BOOTED', 'event': 'LIFECYCLE'}

    def statements_of(self, notification):
        """The SQL statements (but BEGIN) of processing ``notification``.
        """
        statements = []
        engine = db_api.get_engine()

        def record(connection, cursor, statement, *args):
            if statement != 'BEGIN':
                statements.append(statement)
        sqlalchemy.event.listen(engine, 'before_cursor_execute', record)
        try:
            self.manager.process_notification(self.context, notification)
        finally:
            sqlalchemy.event.remove(engine, 'before_cursor_execute', record)
        return statements

    def test_a_vm_notification_reads_no_vmoves(self):
        notification = self.engine.create_notification(
            self.host, type='VM', payload=self.IGNORED_VM)
        statements = self.statements_of(notification)
        # NOTE: its host; its claim (and read-back); its final status,
        # written only while the lease holds (and read back).
        self.assertEqual(
            ['SELECT', 'UPDATE', 'SELECT', 'UPDATE', 'SELECT'],
            [statement.split()[0] for statement in statements])
        self.assertNotIn('vmoves', ' '.join(statements))
        self.assertEqual(Status.IGNORED,
                         self.engine.reload(notification).status)

    def test_at_most_the_pool_size_of_database_steps_at_once(self):
        self.config(max_pool_size=2, group='database')
        manager = engine_manager.MasakariManager()
        notifications = [self.engine.create_notification(
            self.engine.create_host(self.segment, name='vm-host-%d' % index),
            type='VM', payload=self.IGNORED_VM) for index in range(6)]
        lock = threading.Lock()
        running, most = [0], [0]
        start_notification = claims.start_notification

        def claim(context, notification):
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            time.sleep(0.05)
            try:
                return start_notification(context, notification)
            finally:
                with lock:
                    running[0] -= 1

        self.useFixture(fixtures.MockPatchObject(
            claims, 'start_notification', claim))
        threads = [threading.Thread(
            target=manager.process_notification,
            args=(self.context, notification))
            for notification in notifications]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(2, most[0])
        self.assertEqual({Status.IGNORED}, {
            self.engine.reload(notification).status
            for notification in notifications})

    def _failing_end(self, failures):
        """Saves of a final status (fenced by the recovery's lease) fail
        ``failures`` times as a lost database does; the waits between the
        tries are recorded.
        """
        save = objects.Notification.save_if_held

        def flaky(notification, context, generation):
            if notification.status == Status.IGNORED and failures:
                failures.pop()
                raise db_exception.DBConnectionError()
            return save(notification, context, generation)

        self.useFixture(fixtures.MockPatchObject(
            objects.Notification, 'save_if_held', autospec=True,
            side_effect=flaky))
        sleep = self.useFixture(fixtures.MockPatch('time.sleep')).mock
        # NOTE: time.sleep(0) is oslo.db yielding on connection check-in.
        return lambda: [call for call in sleep.call_args_list
                        if call != mock.call(0)]

    def test_the_end_is_recorded_after_an_outage(self):
        notification = self.engine.create_notification(
            self.host, type='VM', payload=self.IGNORED_VM)
        waits = self._failing_end([1] * 4)
        self.manager.process_notification(self.context, notification)
        self.assertEqual(Status.IGNORED,
                         self.engine.reload(notification).status)
        self.assertEqual([mock.call(1), mock.call(2), mock.call(4),
                          mock.call(5)], waits())

    def test_an_outage_past_the_patience_is_raised(self):
        self.useFixture(fixtures.MockPatchObject(
            engine_manager, 'END_RECORD_PATIENCE', 0))
        notification = self.engine.create_notification(
            self.host, type='VM', payload=self.IGNORED_VM)
        waits = self._failing_end([1])
        self.assertRaises(db_exception.DBConnectionError,
                          self.manager.process_notification, self.context,
                          notification)
        self.assertEqual([], waits())
        self.assertEqual(Status.RUNNING,
                         self.engine.reload(notification).status)

    def test_an_unbounded_pool_bounds_nothing(self):
        self.config(max_pool_size=0, group='database')
        self.assertIsInstance(engine_manager._database_slots(),
                              contextlib.nullcontext)


class PeriodicRetryTestCase(base.RecoveryTestCase):
    """``_process_unfinished_notifications``."""

    servers = [base.server('vm')]

    def retry(self):
        self.nova.reset_calls()
        self.manager._process_unfinished_notifications(self.context)

    def create(self, status=Status.NEW, age=0, host=None):
        return self.engine.create_notification(
            host or self.host, status=status, generated_time=_ago(age))

    def test_recent_new_ones_are_left_to_the_message(self):
        notification = self.create(age=10)
        self.retry()
        self.assertEqual(Status.NEW, self.engine.reload(notification).status)
        self.assertEqual([], self.nova.nova_requests())

    def test_old_new_ones_are_processed(self):
        notification = self.create(age=61)
        self.retry()
        self.assertEqual(Status.FINISHED,
                         self.engine.reload(notification).status)
        self.assertEqual('compute-2', self.nova.server('vm')['host'])

    def test_errors_are_retried_once_then_failed(self):
        self.nova.update_server('vm', fail_evacuate=True)
        self.config(wait_period_after_evacuation=0)
        notification = self.create(status=Status.ERROR)
        self.retry()
        self.assertEqual(Status.FAILED,
                         self.engine.reload(notification).status)
        self.assertEqual(1, self.nova.nova_requests().count(
            'GET /servers/detail?all_tenants=True&host=compute-1'))

    def test_a_successful_retry_stays_finished(self):
        notification = self.create(status=Status.ERROR)
        self.retry()
        self.assertEqual(Status.FINISHED,
                         self.engine.reload(notification).status)

    def test_one_broken_notification_does_not_stop_the_others(self):
        other_segment = self.engine.create_segment(name='segment-2')
        gone = self.engine.create_host(other_segment, name='compute-3')
        broken = self.create(status=Status.ERROR, host=gone)
        gone.destroy()
        notification = self.create(age=120)
        self.retry()
        self.assertEqual(Status.FAILED, self.engine.reload(broken).status)
        self.assertEqual(Status.FINISHED,
                         self.engine.reload(notification).status)

    def test_disabled_segment_is_respected(self):
        # 22.0.0 recovered them anyway
        # (doc/source/user/differences/engine.rst).
        notification = self.create(status=Status.ERROR)
        self.segment.enabled = False
        self.segment.save()
        self.retry()
        stored = self.engine.reload(notification)
        self.assertEqual(
            (Status.IGNORED, 'Recovery aboart: the segment HA is disabled.'),
            (stored.status, stored.message))
        self.assertEqual([], self.nova.nova_requests())

    def test_runs_when_due(self):
        self.config(process_unfinished_notifications_interval=120,
                    check_expired_notifications_interval=-1)
        manager = engine_manager.MasakariManager()
        notification = self.create(status=Status.ERROR)
        idle = manager.periodic_tasks(self.context)
        self.assertLessEqual(idle, 120)
        self.assertEqual(Status.ERROR,
                         self.engine.reload(notification).status)
        later = periodic_task.now() + 121
        with mock.patch.object(periodic_task, 'now', return_value=later):
            manager.periodic_tasks(self.context)
        self.assertEqual(Status.FINISHED,
                         self.engine.reload(notification).status)
        self.assertEqual(['_process_unfinished_notifications'],
                         [name for name, _task in manager._periodic_tasks])


class ExpiryTestCase(base.RecoveryTestCase):
    """``_check_expired_notifications``."""

    def test_old_unfinished_ones_fail(self):
        old = {status: self.engine.create_notification(
            self.host, status=status, generated_time=_ago(86401))
            for status in (Status.NEW, Status.RUNNING, Status.ERROR,
                           Status.FINISHED)}
        recent = self.engine.create_notification(self.host,
                                                 status=Status.RUNNING)
        self.manager._check_expired_notifications(self.context)
        self.assertEqual(
            {Status.NEW: Status.FAILED, Status.RUNNING: Status.FAILED,
             Status.ERROR: Status.FAILED, Status.FINISHED: Status.FINISHED},
            {status: self.engine.reload(notification).status
             for status, notification in old.items()})
        self.assertEqual(Status.RUNNING, self.engine.reload(recent).status)


class InterruptedRecoveryTestCase(base.RecoveryTestCase):
    """With takeover off, a restart hands what this engine was running to
    the retry task (see test_takeover.py for takeover on).
    """

    servers = [base.server('vm')]

    def setUp(self):
        super().setUp()
        self.config(lease_timeout=0, group='takeover')

    def interrupted(self):
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        # As if the engine had died in the middle of the evacuation.
        notification.status = Status.RUNNING
        notification.save()
        [move] = self.engine.vmoves(notification)
        move.status = fields.VMoveStatus.ONGOING
        move.save()
        return notification

    def test_released_at_start_up(self):
        notification = self.interrupted()
        restarted = engine_manager.MasakariManager()
        restarted.init_host()
        self.assertEqual(Status.ERROR,
                         self.engine.reload(notification).status)
        [move] = self.engine.vmoves(notification)
        self.assertEqual(('failed', engine_manager.INTERRUPTED_MESSAGE),
                         (move.status, move.message))
        # Only once per process: a later call changes nothing.
        notification = self.engine.reload(notification)
        notification.status = Status.RUNNING
        notification.save()
        restarted.init_host()
        self.assertEqual(Status.RUNNING,
                         self.engine.reload(notification).status)

    def test_runs_of_other_engines_are_left_alone(self):
        notification = self.interrupted()
        self.config(host='another-engine')
        engine_manager.MasakariManager().init_host()
        self.assertEqual(Status.RUNNING,
                         self.engine.reload(notification).status)
        self.assertEqual(['ongoing'], [move.status for move in
                                       self.engine.vmoves(notification)])


class InterruptedEvacuationUnlockTestCase(base.RecoveryTestCase):
    """Servers an interrupted evacuation left locked are unlocked when the
    next engine releases the run (22.0.0 left them locked for good).
    """

    servers = [base.server('moving'), base.server('waiting')]

    def setUp(self):
        super().setUp()
        self.config(lease_timeout=0, group='takeover')

    def interrupted(self):
        """A run cut short: 'moving' was being evacuated (Masakari locked
        it), 'waiting' had not started (locked by its owner, say).
        """
        notification = self.host_down(event='STOPPED', host_status='NORMAL')
        notification.status = Status.RUNNING
        notification.save()
        for move in self.engine.vmoves(notification):
            move.status = (fields.VMoveStatus.ONGOING
                           if move.instance_name == 'moving'
                           else fields.VMoveStatus.PENDING)
            move.save()
            self.nova.update_server(move.instance_name, locked=True)
        self.nova.reset_calls()
        return notification

    def test_the_server_being_evacuated_is_unlocked(self):
        notification = self.interrupted()

        engine_manager.MasakariManager().init_host()

        self.assertEqual(Status.ERROR,
                         self.engine.reload(notification).status)
        self.assertEqual(
            {'moving': ('failed', False), 'waiting': ('failed', True)},
            {move.instance_name: (move.status, self.nova.server(
                move.instance_name)['locked'])
             for move in self.engine.vmoves(notification)})
        self.assertEqual([{'unlock': None}], self.server_calls('moving'))
        self.assertEqual([], self.server_calls('waiting'))
        self.assertIn('Unlocked instance %s' % self.id_of('moving'),
                      self.engine.logs.output)

    def test_an_unlock_failure_is_logged_and_the_run_released(self):
        notification = self.interrupted()
        self.nova.add_fault(method='POST', path='/servers/*/action',
                            action='unlock', status=404,
                            message='Instance could not be found')

        engine_manager.MasakariManager().init_host()

        self.assertEqual(Status.ERROR,
                         self.engine.reload(notification).status)
        self.assertEqual(['failed', 'failed'],
                         [move.status for move in
                          self.engine.vmoves(notification)])
        self.assertIn('Could not unlock instance %s after the interrupted '
                      'evacuation: Resource could not be found.'
                      % self.id_of('moving'), self.engine.logs.output)
