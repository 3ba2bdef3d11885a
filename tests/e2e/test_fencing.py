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

"""Fenced host recovery through the real masakari-api and masakari-engine
on MariaDB and RabbitMQ, with the simulator's Redfish BMCs: a crashed host
fenced, forced down and evacuated long before Nova would notice it; a
fencing failure retried; the mass-failure brake engaged and released; the
return to service of a fenced host. With the engine's periodic tasks off:
a return to service that waits for the host's own heartbeat, a release
recovered at once, the monitor driver.
"""

import os
import shutil
import subprocess
import tempfile
import time

import yaml

from tests.e2e import base
from tests.fixtures import polling
from tests.fixtures import processes

HOST_DOWN = {'event': 'STOPPED', 'host_status': 'NORMAL',
             'cluster_status': 'OFFLINE'}
HA = {'HA_Enabled': 'True'}
HELD = 'Held by the mass-failure brake: '
# Nova would see a crashed host down only after this long.
SERVICE_DOWN_TIME = 600


class FencingTestCase(base.E2ETestCase):
    """A deployment whose every host has a Redfish BMC and an entry in
    ``fencing_file``; the scenario helpers.
    """

    @classmethod
    def setUpClass(cls):
        directory = tempfile.mkdtemp(prefix='masakari-e2e-fencing-')
        cls.addClassCleanup(shutil.rmtree, directory, ignore_errors=True)
        cls.fencing_file = os.path.join(directory, 'fencing.yaml')
        cls.simulator_args = ['--fencing-config', cls.fencing_file,
                              '--fencing-driver', 'redfish',
                              '--bmc-power-delay', '1']
        cls.options = dict(cls.options, fencing=dict(
            cls.options['fencing'], config_file=cls.fencing_file))
        super().setUpClass()

    def crash(self, host):
        """The host stops running, powered on: Nova sees it up."""
        self.simulator.call('PUT', '/machines/%s' % host, {'alive': False})

    def crash_and_recover(self, host):
        """Crash ``host`` and report it down; once its recovery finished
        and its server moved off, the notification's uuid.
        """
        self.crash(host)
        uuid = self.post_notification('COMPUTE_HOST', host,
                                      HOST_DOWN)['notification_uuid']
        self.assertEqual('finished',
                         self.api.wait_for_notification(uuid)['status'])
        self.moved_off(host)
        return uuid

    def machine(self, host):
        return self.simulator.call('GET', '/machines/%s' % host)['machine']

    def register(self, prefix, *hosts):
        segment = self.api.create_segment(self.unique(prefix))
        return segment, {host: self.api.create_host(segment['uuid'], host)
                         for host in hosts}

    def end_maintenance(self, segment, host):
        self.api.call('PUT', '/segments/%s/hosts/%s' % (
            segment['uuid'], host['uuid']),
            {'host': {'on_maintenance': False}})

    def enabled_service(self, host):
        """The host's nova-compute once enabled, else None."""
        service = self.simulator.service(host)
        return service if service['status'] == 'enabled' else None

    @staticmethod
    def wait_for(condition, timeout=30):
        """The first true value of ``condition()`` within ``timeout``."""
        seen = []
        polling.wait_until(lambda: seen.append(condition()) or seen[-1],
                           timeout)
        return seen[-1]

    def moved_off(self, host):
        """Where the host's server went (not the host itself)."""
        destination = self.simulator.server('%s-vm' % host)['host']
        self.assertNotEqual(host, destination)
        return destination

    def details(self, notification_uuid):
        """``{task: [messages]}`` of the 1.1 progress read-back."""
        notification = self.api.notification(notification_uuid)
        return {detail['name']: [entry['message'] for entry in
                                 detail['progress_details']]
                for detail in notification['recovery_workflow_details']}

    def engine_log(self):
        return self.deployment.processes['masakari-engine'].log_text()

    def manage(self, *args):
        """Run masakari-manage on the deployment's configuration."""
        return subprocess.run(
            [processes.executable('masakari-manage'), '--config-file',
             self.deployment.conf_file] + list(args),
            capture_output=True, text=True, timeout=60)


class TestFencing(FencingTestCase):

    topology = {
        'delays': base.INSTANT,
        'service_down_time': SERVICE_DOWN_TIME,
        # NOTE: a host belongs to one segment: a spare per scenario.
        'hosts': ['fence-src', 'fence-spare', 'retry-src', 'retry-spare'],
        'servers': [{'name': '%s-vm' % host, 'host': host, 'metadata': HA}
                    for host in ('fence-src', 'retry-src')],
    }

    options = {
        'fencing': {'poll_interval': 0.2, 'return_to_service': True,
                    'return_to_service_interval': 1},
        # NOTE: time to repair the BMC entry before the one retry.
        'DEFAULT': {'process_unfinished_notifications_interval': 5},
    }

    def test_fence_force_down_evacuate_then_return_to_service(self):
        segment, hosts = self.register('fence', 'fence-src', 'fence-spare')
        self.crash('fence-src')
        started = time.monotonic()
        notification = self.post_notification('COMPUTE_HOST', 'fence-src',
                                              HOST_DOWN)
        uuid = notification['notification_uuid']
        final = self.api.wait_for_notification(uuid)
        self.assertEqual('finished', final['status'])
        self.assertLess(time.monotonic() - started, SERVICE_DOWN_TIME)
        self.moved_off('fence-src')
        self.assertEqual('off', self.machine('fence-src')['power'])
        service = self.simulator.service('fence-src')
        self.assertEqual((True, 'disabled'),
                         (service['forced_down'], service['status']))
        forced = [call for call in self.simulator.nova_calls()
                  if call['body'] == {'forced_down': True}]
        self.assertEqual(['PUT /os-services/%s' % service['id']],
                         [call['line'] for call in forced])
        fenced = self.details(uuid)['FenceHostTask'][-1]
        self.assertRegex(fenced, r"^Host 'fence-src' fenced by the redfish "
                                 r"driver at http://\S+: power state on "
                                 r"before, off after, in \d+\.\d s$")

        # The operator ends the maintenance: the engine brings it back.
        self.end_maintenance(segment, hosts['fence-src'])
        service = self.wait_for(lambda: self.enabled_service('fence-src'))
        self.assertEqual((False, 'up'),
                         (service['forced_down'], service['state']))
        self.assertEqual({'power': 'on', 'alive': True},
                         {key: self.machine('fence-src')[key]
                          for key in ('power', 'alive')})
        self.assertEqual("Host 'fence-src' returned to service",
                         self.details(uuid)['ReturnToServiceTask'][-1])

    def test_fencing_failure_is_retried(self):
        self.register('retry', 'retry-src', 'retry-spare')
        with open(self.fencing_file) as stream:
            original = stream.read()
        entries = yaml.safe_load(original)
        entries['retry-src']['password'] = 'wrong-password'
        with open(self.fencing_file, 'w') as stream:
            yaml.safe_dump(entries, stream)
        self.crash('retry-src')
        notification = self.post_notification('COMPUTE_HOST', 'retry-src',
                                              HOST_DOWN)
        uuid = notification['notification_uuid']
        # NOTE: the BMC entry is repaired as soon as the failure shows in
        # the progress, before the notification is even in error, so the
        # periodic retry (every 5 s) always finds it repaired.
        reason = self.wait_for(
            lambda: [message for message in
                     self.details(uuid).get('FenceHostTask', [])
                     if 'failed' in message])[-1]
        with open(self.fencing_file, 'w') as stream:
            stream.write(original)
        self.assertEqual(
            'Fencing of host retry-src failed: the Redfish BMC at %s refused '
            'the credentials; nothing is evacuated'
            % entries['retry-src']['address'], reason)
        # NOTE: the retry may come right after the error, so the error is
        # read from the engine's log rather than caught in passing.
        self.assertEqual('finished', self.api.wait_for_notification(
            uuid, statuses=('finished', 'failed'))['status'])
        self.moved_off('retry-src')
        log = self.engine_log()
        self.assertLess(
            log.index('Notification %s exits with status: error.' % uuid),
            log.index('Notification %s exits with status: finished.' % uuid))


class TestFencingInTheBackground(FencingTestCase):
    """The periodic tasks are off and so is the lost-message sweep: what
    happens comes from the casts and the engine's background loop.
    """

    topology = {
        'delays': base.INSTANT,
        'service_down_time': SERVICE_DOWN_TIME,
        # A powered-on host reports again this long after its BMC applied
        # the power on.
        'boot_time': 3,
        'hosts': ['early-src', 'early-spare', 'brake-1', 'brake-2',
                  'brake-spare', 'monitor-src', 'unproven-src',
                  'monitor-spare'],
        'servers': [{'name': '%s-vm' % host, 'host': host, 'metadata': HA}
                    for host in ('early-src', 'brake-1', 'brake-2',
                                 'monitor-src', 'unproven-src')],
    }
    options = {
        'fencing': {'poll_interval': 0.2, 'return_to_service': True,
                    'return_to_service_interval': 1},
        'host_failure': {'max_failed_hosts': 1,
                         'held_notifications_check_interval': 1},
        'DEFAULT': {'periodic_enable': False},
        'takeover': {'new_notification_age': 0},
    }

    def test_early_end_of_maintenance_waits_for_a_new_heartbeat(self):
        segment, hosts = self.register('early', 'early-src', 'early-spare')
        uuid = self.crash_and_recover('early-src')

        # Ended at once: for Nova the heartbeat sent before the crash is
        # recent enough (service_down_time), so the service looks up
        # before the host has even booted.
        self.end_maintenance(segment, hosts['early-src'])
        booting = self.wait_for(
            lambda: (lambda machine: machine if machine['power'] == 'on' and
                     not self.simulator.service('early-src')['forced_down']
                     else None)(self.machine('early-src')))
        self.assertEqual((False, 'up'),
                         (booting['alive'], booting['service_state']))

        self.wait_for(lambda: self.enabled_service('early-src'))
        self.assertTrue(self.machine('early-src')['alive'])
        with open(self.fencing_file) as stream:
            bmc = yaml.safe_load(stream)['early-src']['address']
        self.assertEqual(
            ["Powering on host 'early-src' through the redfish driver at %s"
             % bmc,
             "Clearing forced_down of the compute service on host "
             "'early-src' (it stays disabled)",
             "Waiting up to 600 s for nova-compute on host 'early-src' to "
             "report up with a heartbeat sent after its power on",
             "Enabling compute service on host: 'early-src'",
             "Host 'early-src' returned to service"],
            self.details(uuid)['ReturnToServiceTask'])

    def test_brake_holds_the_second_failure_until_released(self):
        self.register('brake', 'brake-1', 'brake-2', 'brake-spare')
        first = self.post_notification('COMPUTE_HOST', 'brake-1', HOST_DOWN)
        self.assertEqual('finished', self.api.wait_for_notification(
            first['notification_uuid'])['status'])
        uuid = self.post_notification('COMPUTE_HOST', 'brake-2',
                                      HOST_DOWN)['notification_uuid']
        held = self.wait_for(
            lambda: (lambda found: found if (found['message'] or '')
                     .startswith(HELD) else None)(
                self.api.notification(uuid, version='1.2')))
        self.assertEqual('running', held['status'])
        self.assertEqual('brake-2', self.simulator.server('brake-2-vm')[
            'host'])
        self.assertEqual('on', self.machine('brake-2')['power'])

        result = self.manage('notification', 'release', uuid)
        self.assertEqual((0, 'Notification %s released: an engine recovers '
                             'it now, without the brake.\n' % uuid),
                         (result.returncode, result.stdout), result.stderr)
        self.assertEqual('finished',
                         self.api.wait_for_notification(uuid)['status'])
        self.moved_off('brake-2')
        self.assertIn('Mass-failure brake: notification %s was released by '
                      'an operator; recovering it without the brake.'
                      % uuid, self.engine_log())

    def test_monitor_driver(self):
        with open(self.fencing_file) as stream:
            entries = yaml.safe_load(stream)
        for host in ('monitor-src', 'unproven-src'):
            entries[host] = {'driver': 'monitor'}
        with open(self.fencing_file, 'w') as stream:
            yaml.safe_dump(entries, stream)
        # NOTE: a segment each: the brake allows one failure per segment.
        self.register('monitor', 'monitor-src', 'monitor-spare')
        self.register('unproven', 'unproven-src')
        # The cluster fenced the host; its monitor reports it.
        uuid = self.crash_and_recover('monitor-src')
        self.assertEqual(
            "Host 'monitor-src' fenced by the monitor driver: power state "
            "unknown before, off after, in 0.0 s",
            self.details(uuid)['FenceHostTask'][-1])
        self.assertTrue(self.simulator.service('monitor-src')['forced_down'])
        # No BMC was asked: the machine kept its power.
        self.assertEqual('on', self.machine('monitor-src')['power'])

        # A report that does not say the cluster fenced the host.
        self.crash('unproven-src')
        uuid = self.post_notification(
            'COMPUTE_HOST', 'unproven-src',
            {'event': 'STOPPED', 'host_status': 'NORMAL'})[
                'notification_uuid']
        self.assertEqual('error',
                         self.api.wait_for_notification(uuid)['status'])
        self.assertEqual(
            'Fencing of host unproven-src failed: the notification does not '
            'report a fenced host (cluster_status None, host_status NORMAL; '
            'fenced means cluster_status OFFLINE and host_status NORMAL); '
            'nothing is evacuated', self.details(uuid)['FenceHostTask'][-1])
        self.assertEqual('unproven-src',
                         self.simulator.server('unproven-src-vm')['host'])
        self.assertFalse(
            self.simulator.service('unproven-src')['forced_down'])
