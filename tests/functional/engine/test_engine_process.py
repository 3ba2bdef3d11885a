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

"""masakari-engine started as an operator would: refusals at start-up,
SIGTERM, and a recovery end to end over RabbitMQ and MariaDB against the
simulated cloud (the engine process is eventlet-patched).
"""

import os
import signal
import subprocess
import sys
import textwrap

import fixtures
from oslo_utils import timeutils
import testtools

import masakari.conf
from masakari.engine import rpcapi
from masakari import objects
from masakari.objects import fields
from tests.fixtures import database
from tests.fixtures import nova as nova_fixture
from tests.fixtures import polling
from tests.fixtures import processes
from tests.functional.rpc import base as rpc_base
from tests.unit.engine import recovery_base

CONF = masakari.conf.CONF
ENGINE = [sys.executable, '-c',
          'import sys; from masakari.cmd import engine; '
          'sys.exit(engine.main())']


def _start(config_path, output=subprocess.PIPE):
    process = subprocess.Popen(ENGINE + ['--config-file', config_path],
                               stdout=output,
                               stderr=subprocess.STDOUT)
    return process


def _finish(process, timeout=60):
    code = process.wait(timeout=timeout)
    return code, process.stdout.read().decode()


class StartUpTestCase(testtools.TestCase):
    """Configurations the engine refuses."""

    def setUp(self):
        super().setUp()
        self.directory = self.useFixture(fixtures.TempDir()).path

    def run_engine(self, output=subprocess.PIPE, **options):
        lines = {'DEFAULT': {'transport_url': 'fake:/',
                             'periodic_fuzzy_delay': '0'},
                 'database': {'connection': 'sqlite://'},
                 'taskflow': {'connection': 'sqlite://'}}
        for name, value in options.items():
            group, option = name.split('__')
            if value is None:
                lines[group].pop(option, None)
            else:
                lines.setdefault(group, {})[option] = value
        path = os.path.join(self.directory, 'masakari.conf')
        with open(path, 'w') as config:
            for group, values in lines.items():
                config.write('[%s]\n' % group)
                config.writelines('%s = %s\n' % item
                                  for item in values.items())
        process = _start(path, output)
        self.addCleanup(process.kill)
        return process

    def test_without_taskflow_connection(self):
        code, output = _finish(self.run_engine(taskflow__connection=None))
        self.assertEqual(1, code)
        self.assertIn('masakari-engine: error: [taskflow]/connection is not '
                      'set', output)
        self.assertNotIn('Traceback', output)

    def test_without_notification_driver(self):
        code, output = _finish(self.run_engine(
            DEFAULT__notification_driver=''))
        self.assertEqual(1, code)
        self.assertIn('Notification driver option required, but not '
                      'specified', output)

    def test_unusable_tempdir(self):
        code, output = _finish(self.run_engine(
            DEFAULT__tempdir=os.path.join(self.directory, 'missing')))
        self.assertEqual(1, code)
        self.assertIn('Temporary directory is invalid', output)

    def test_sigterm_stops_it(self):
        path = os.path.join(self.directory, 'engine.log')
        with open(path, 'wb') as log:
            process = self.run_engine(log)
        # NOTE: the launcher installs its signal handlers before it starts
        # the service, which logs this line first.
        processes.wait_until(
            processes.file_contains(path, 'Starting ha_engine'), 60,
            'the engine\'s start')
        self.assertIsNone(process.poll())
        process.send_signal(signal.SIGTERM)
        self.assertEqual(0, process.wait(60))


ENGINE_CONFIG = textwrap.dedent("""\
    [DEFAULT]
    transport_url = {transport_url}
    control_exchange = {exchange}
    masakari_topic = {topic}
    host = {host}
    periodic_fuzzy_delay = 0
    wait_period_after_service_update = 0
    verify_interval = 0
    os_privileged_user_auth_url = {auth_url}
    os_privileged_user_name = {user}
    os_privileged_user_password = {password}
    os_privileged_user_tenant = {tenant}
    [keystone_authtoken]
    auth_type = password
    [database]
    connection = {database}
    [taskflow]
    connection = {database}
    """)


class EndToEndTestCase(rpc_base.RabbitTestCase):
    """API-side cast -> RabbitMQ -> masakari-engine -> simulated Nova."""

    def setUp(self):
        super().setUp()
        self.db = self.useFixture(database.MySQLDatabase(taskflow=True))
        self.nova = self.useFixture(nova_fixture.NovaFixture(
            recovery_base.topology([recovery_base.server('vm', count=3)])))
        objects.register_all()
        host = 'engine-%s' % self.topic[-8:]
        self.raw.delete_queue_on_cleanup('%s.%s' % (self.topic, host))
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'masakari.conf')
        with open(path, 'w') as config:
            config.write(ENGINE_CONFIG.format(
                transport_url=rpc_base.rabbit_url(), exchange=self.exchange,
                topic=self.topic, host=host, database=self.db.url,
                auth_url=CONF.os_privileged_user_auth_url,
                user=CONF.os_privileged_user_name,
                password=CONF.os_privileged_user_password,
                tenant=CONF.os_privileged_user_tenant))
        self.process = _start(path)
        self.addCleanup(self.process.kill)

    def create_notification(self):
        segment = objects.FailoverSegment(
            context=self.ctxt, name='segment-1', service_type='COMPUTE',
            recovery_method='auto')
        segment.create()
        host = objects.Host(
            context=self.ctxt, name=recovery_base.FAILED_HOST,
            failover_segment=segment, type='COMPUTE',
            control_attributes='SSH', reserved=False, on_maintenance=False)
        host.create()
        notification = objects.Notification(
            context=self.ctxt, type='COMPUTE_HOST',
            source_host_uuid=host.uuid,
            failover_segment_uuid=segment.uuid,
            generated_time=timeutils.utcnow(), status='new',
            payload={'event': 'STOPPED', 'host_status': 'NORMAL',
                     'cluster_status': 'OFFLINE'})
        notification.create()
        return notification

    def wait_for_consumer(self):
        # NOTE: a cast to a topic nobody consumes yet is dropped.
        def consumed():
            self.assertIsNone(self.process.poll())
            return self.raw.queue_exists(self.topic)

        polling.wait_until(consumed, 60, interval=0.2,
                           message='a consumer of %s' % self.topic)

    def test_recovery(self):
        notification = self.create_notification()
        self.wait_for_consumer()
        rpcapi.EngineAPI().process_notification(self.ctxt, notification)
        seen = []

        def finished():
            seen.append(objects.Notification.get_by_uuid(
                self.ctxt, notification.notification_uuid))
            if seen[-1].status == fields.NotificationStatus.FINISHED:
                return seen[-1]
            self.assertIsNone(self.process.poll())
            return None

        try:
            stored = polling.wait_until(finished, 60, interval=0.2)
        except AssertionError:
            self.process.kill()
            self.fail('still %s; engine output:\n%s' % (
                seen[-1].status, _finish(self.process)[1]))
        self.assertEqual({'compute-2', 'compute-3'} & {
            self.nova.server('vm-%d' % index)['host']
            for index in (1, 2, 3)}, {
            self.nova.server('vm-%d' % index)['host']
            for index in (1, 2, 3)})
        self.assertEqual(1, self.nova.token_requests())

        answer = rpcapi.EngineAPI().get_notification_recovery_workflow_details(
            self.ctxt, stored)
        self.assertEqual(['SUCCESS'] * 3, [
            detail.state for detail in answer.recovery_workflow_details])

        self.process.send_signal(signal.SIGTERM)
        code, output = _finish(self.process)
        self.assertEqual(0, code, output)
