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
return to service of a fenced host.
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


class TestFencing(base.E2ETestCase):

    topology = {
        'delays': base.INSTANT,
        'service_down_time': SERVICE_DOWN_TIME,
        # NOTE: a host belongs to one segment: a spare per scenario.
        'hosts': ['fence-src', 'fence-spare', 'retry-src', 'retry-spare',
                  'brake-1', 'brake-2', 'brake-spare'],
        'servers': [{'name': '%s-vm' % host, 'host': host, 'metadata': HA}
                    for host in ('fence-src', 'retry-src', 'brake-1',
                                 'brake-2')],
    }

    @classmethod
    def setUpClass(cls):
        directory = tempfile.mkdtemp(prefix='masakari-e2e-fencing-')
        cls.addClassCleanup(shutil.rmtree, directory, ignore_errors=True)
        cls.fencing_file = os.path.join(directory, 'fencing.yaml')
        cls.simulator_args = ['--fencing-config', cls.fencing_file,
                              '--fencing-driver', 'redfish',
                              '--bmc-power-delay', '1']
        cls.options = {
            'fencing': {'config_file': cls.fencing_file,
                        'poll_interval': 0.2, 'return_to_service': True,
                        'return_to_service_interval': 1},
            'host_failure': {'max_failed_hosts': 1,
                             'held_notifications_check_interval': 1},
            # NOTE: time to repair the BMC entry before the one retry.
            'DEFAULT': {'process_unfinished_notifications_interval': 5},
        }
        super().setUpClass()

    def crash(self, host):
        """The host stops running, powered on: Nova sees it up."""
        self.simulator.call('PUT', '/machines/%s' % host, {'alive': False})

    def register(self, prefix, *hosts):
        segment = self.api.create_segment(self.unique(prefix))
        return segment, {host: self.api.create_host(segment['uuid'], host)
                         for host in hosts}

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
        self.assertEqual('off', self.simulator.call(
            'GET', '/machines/fence-src')['machine']['power'])
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
        self.api.call('PUT', '/segments/%s/hosts/%s' % (
            segment['uuid'], hosts['fence-src']['uuid']),
            {'host': {'on_maintenance': False}})
        service = self.wait_for(
            lambda: (lambda found: found if found['status'] == 'enabled'
                     else None)(self.simulator.service('fence-src')))
        self.assertEqual((False, 'up'),
                         (service['forced_down'], service['state']))
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
        self.assertEqual('error', self.api.wait_for_notification(
            uuid, statuses=('error', 'failed', 'finished'))['status'])
        self.assertEqual('retry-src', self.simulator.server('retry-src-vm')[
            'host'])

        self.assertEqual('finished', self.api.wait_for_notification(
            uuid, statuses=('finished', 'failed'))['status'])
        self.moved_off('retry-src')

    def test_brake_holds_the_second_failure_until_released(self):
        self.register('brake', 'brake-1', 'brake-2', 'brake-spare')
        # NOTE: generated two minutes ago, so that the periodic retry takes
        # the released notification at once.
        first = self.post_notification('COMPUTE_HOST', 'brake-1', HOST_DOWN,
                                       offset=-121)
        self.assertEqual('finished', self.api.wait_for_notification(
            first['notification_uuid'])['status'])
        second = self.post_notification('COMPUTE_HOST', 'brake-2',
                                        HOST_DOWN, offset=-120)
        uuid = second['notification_uuid']
        held = self.wait_for(
            lambda: (lambda found: found if (found['message'] or '')
                     .startswith(HELD) else None)(
                self.api.notification(uuid, version='1.2')))
        self.assertEqual('running', held['status'])
        self.assertEqual('brake-2', self.simulator.server('brake-2-vm')[
            'host'])
        self.assertEqual('on', self.simulator.call(
            'GET', '/machines/brake-2')['machine']['power'])

        result = subprocess.run(
            [processes.executable('masakari-manage'), '--config-file',
             self.deployment.conf_file, 'notification', 'release', uuid],
            capture_output=True, text=True, timeout=60)
        self.assertEqual(0, result.returncode, result.stdout + result.stderr)
        self.assertEqual('finished',
                         self.api.wait_for_notification(uuid)['status'])
        self.moved_off('brake-2')
