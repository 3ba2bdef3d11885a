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

"""Takeover: a recovery left ``running`` by a silent engine is taken over
by another engine and resumed where it stopped; ``new`` notifications no
engine received are processed (masakari/engine/watch.py).

The engine "dies" in the middle of the evacuation task (an exception that
no layer catches, as a SIGKILL leaves the records); the watch's clock is
the test's, and its rounds are run by hand.
"""

import contextlib
import datetime
from unittest import mock

import masakari.conf
from masakari.engine import brake
from masakari.engine.drivers.taskflow import host_failure
from masakari.engine.drivers.taskflow import persistence
from masakari.engine import manager as engine_manager
from masakari.engine import takeover
from masakari.objects import fields
from tests.fixtures import clock
from tests.unit.engine import recovery_base as base

CONF = masakari.conf.CONF
Status = fields.NotificationStatus
LEASE = 30


class EngineDied(BaseException):
    """Stands for the SIGKILL of the engine: nothing handles it."""


class TakeoverTestCase(base.RecoveryTestCase):

    servers = [base.server('moved'), base.server('waiting')]

    def setUp(self):
        super().setUp()
        self.config(lease_timeout=LEASE, new_notification_age=10,
                    group='takeover')

    def die_while_evacuating(self):
        """A recovery whose engine died when the evacuation task started;
        before dying it had asked Nova to evacuate 'moved'.
        """
        notification = self.engine.create_notification(self.host)
        with mock.patch.object(host_failure.EvacuateInstancesTask,
                               '_evacuate', side_effect=EngineDied):
            self.assertRaises(EngineDied, self.process, notification)
        for move in self.engine.vmoves(notification):
            if move.instance_name == 'moved':
                move.status = fields.VMoveStatus.ONGOING
                move.save()
        self.nova.update_server('moved', host='compute-2', locked=True)
        self.nova.reset_calls()
        self.dead_host = self.engine.conf.conf.host
        return self.engine.reload(notification)

    def watcher(self, host='engine-2'):
        self.config(host=host)
        survivor = engine_manager.MasakariManager()
        self.clock = clock.FakeClock()
        survivor.watch.observations = takeover.Observations(self.clock)
        return survivor

    def rounds(self, survivor, seconds):
        """A round now and one ``seconds`` later; waits for the workers.
        """
        survivor.watch.watch_round()
        self.clock.now += seconds
        survivor.watch.watch_round()
        survivor.watch.wait(60)

    def test_a_silent_engine_s_recovery_is_taken_over_and_resumed(self):
        notification = self.die_while_evacuating()
        self.assertEqual(Status.RUNNING, notification.status)
        survivor = self.watcher()

        self.rounds(survivor, LEASE - 1)
        self.assertEqual(Status.RUNNING,
                         self.engine.reload(notification).status)
        self.clock.now += 2
        survivor.watch.watch_round()
        survivor.watch.wait(60)

        self.assertEqual(Status.FINISHED,
                         self.engine.reload(notification).status)
        # Resumed, not restarted: the service is not disabled again, the
        # servers are not listed again, 'moved' is only confirmed.
        self.assertEqual([], [line for line in self.nova.nova_requests()
                              if 'os-services' in line or
                              'servers/detail' in line])
        self.assertEqual([{'unlock': None}], [
            call for call in self.server_calls('moved') if call != 'GET'])
        self.assertEqual(1, self.server_calls('waiting').count(
            {'evacuate': {}}))
        self.assertEqual(
            {'moved': ('succeeded', 'compute-2'),
             'waiting': ('succeeded', self.nova.server('waiting')['host'])},
            {move.instance_name: (move.status, move.dest_host)
             for move in self.engine.vmoves(notification)})
        self.assertFalse(self.nova.server('moved')['locked'])
        messages = self.messages(notification)['EvacuateInstancesTask']
        self.assertRegex(messages[0],
                         r"^Recovery taken over from engine '%s' by engine "
                         r"'engine-2' at \d{4}-" % self.dead_host)
        self.assertEqual(['DisableComputeServiceTask',
                          'PrepareHAEnabledInstancesTask',
                          'EvacuateInstancesTask'],
                         [name for name, _state, _messages in
                          self.engine.progress(notification)])

    def test_a_live_engine_keeps_its_recovery(self):
        notification = self.die_while_evacuating()
        survivor = self.watcher()
        survivor.watch.watch_round()
        for _second in range(3):
            # The owner renews its lease (a second apart, at least).
            self.clock.now += LEASE / 2
            with mock.patch('oslo_utils.timeutils.utcnow',
                            return_value=self.clock_time()):
                self.assertTrue(self.engine.reload(
                    notification).transition_status(Status.RUNNING,
                                                    Status.RUNNING))
            survivor.watch.watch_round()
        survivor.watch.wait(60)
        self.assertEqual(Status.RUNNING,
                         self.engine.reload(notification).status)
        self.assertEqual([], self.nova.nova_requests())

    def clock_time(self):
        """The wall clock that goes with the watch's clock."""
        return datetime.datetime(2030, 1, 1) + datetime.timedelta(
            seconds=self.clock.now)

    def test_the_same_engine_host_resumes_after_a_restart(self):
        notification = self.die_while_evacuating()
        restarted = self.watcher(host=self.engine.conf.conf.host)
        self.rounds(restarted, 2 * restarted.watch.interval)
        self.assertEqual(Status.FINISHED,
                         self.engine.reload(notification).status)
        self.assertEqual(1, self.server_calls('waiting').count(
            {'evacuate': {}}))

    def test_a_run_recorded_by_masakari_22_is_left_alone(self):
        notification = self.die_while_evacuating()
        backend = persistence.get_backend(CONF.taskflow.connection)
        with contextlib.closing(backend.get_connection()) as connection:
            [run] = connection.get_logbook(notification.notification_uuid)
            # 22.0.0 records no engine host in its runs.
            run.meta = {}
            connection.update_flow_details(run)
        survivor = self.watcher()
        self.rounds(survivor, LEASE + 1)
        self.assertEqual(Status.RUNNING,
                         self.engine.reload(notification).status)
        self.assertEqual([], self.nova.nova_requests())

    def test_only_one_engine_wins_a_takeover(self):
        notification = self.die_while_evacuating()
        observed = notification.updated_at
        with mock.patch('oslo_utils.timeutils.utcnow',
                        return_value=self.clock_time_after(observed)):
            first = self.engine.reload(notification).take_over(observed)
            second = self.engine.reload(notification).take_over(observed)
        self.assertEqual((True, False), (first, second))

    @staticmethod
    def clock_time_after(moment):
        return moment.replace(tzinfo=None) + datetime.timedelta(seconds=5)


class HeldRecoveryTestCase(TakeoverTestCase):

    def test_a_held_recovery_is_left_to_the_brake(self):
        # Held: 'running', and no engine runs it or renews its lease.
        self.config(max_failed_hosts=1, group='host_failure')
        other = self.engine.create_host(self.segment, name='compute-3')
        self.process(self.engine.create_notification(other))
        notification = self.engine.create_notification(self.host)
        held = self.process(notification)
        self.assertTrue(brake.is_held(held))

        survivor = self.watcher(host=self.engine.conf.conf.host)
        self.rounds(survivor, LEASE + 1)
        self.assertEqual(held.message,
                         self.engine.reload(notification).message)
        self.assertNotIn('taken over', self.engine.logs.output)
        self.assertEqual(['MassFailureBrakeTask'],
                         list(self.messages(notification)))


class LostCastTestCase(base.RecoveryTestCase):

    servers = [base.server('vm')]

    def test_a_new_notification_nobody_received_is_processed(self):
        self.config(new_notification_age=10, group='takeover')
        notification = self.engine.create_notification(self.host)
        watcher = engine_manager.MasakariManager()
        watch_clock = clock.FakeClock()
        watcher.watch.observations = takeover.Observations(watch_clock)
        watcher.watch.watch_round()
        watch_clock.now += 9
        watcher.watch.watch_round()
        self.assertEqual(Status.NEW, self.engine.reload(notification).status)
        watch_clock.now += 1
        watcher.watch.watch_round()
        watcher.watch.wait(60)
        self.assertEqual(Status.FINISHED,
                         self.engine.reload(notification).status)
        self.assertEqual(1, self.server_calls('vm').count({'evacuate': {}}))
