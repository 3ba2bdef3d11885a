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

"""One fault per test, injected in the middle of a 20-server host
recovery on the three-controller cluster (started once for the class,
healed before each test); the API faults also during 200 concurrent POSTs
through HAProxy.

Each test checks that the notification ends finished, that every server
was evacuated exactly once (the simulator's call log) and ends on a live
host, and for the API faults that the clients saw at most a few errors,
each a 503 with Retry-After, and that every notification the API accepted
was processed. Each test prints a line (fault, seconds from the fault to
the end of the recovery) to $MASAKARI_CLUSTER_REPORT when set
(tools/run-tests prints them as a table).
"""

import collections
import time

import testtools
from testtools import content

from tests.cluster import recovery
from tests.fixtures import cluster as cluster_fixture
from tests.fixtures import measures
from tests.fixtures.simulator_client import SimulatorClient

PREFIXES = ('kill', 'writer', 'queue', 'etcd', 'freeze', 'cut', 'rolling')
# API errors tolerated during a fault: 1 % of the load.
MAX_API_ERRORS = 2


class ClusterFaultsTest(testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.cluster = cluster_fixture.Cluster(recovery.topology(PREFIXES),
                                              log=lambda line: None)
        cls.cluster.setUp()
        cls.addClassCleanup(cls.cluster.cleanUp)
        cls.api = recovery.Api(cls.cluster.api_url)
        cls.simulator = SimulatorClient(cls.cluster.control_url)
        recovery.ApiLoad.prepare(cls.api)

    def setUp(self):
        super().setUp()
        for controller in self.cluster.controllers:
            controller.heal()
        self.cluster.await_healthy()
        self.simulator.reset_calls()
        for controller in self.cluster.controllers:
            for name, process in controller.processes.items():
                self._attach_log(process)

    def _attach_log(self, process):
        start = process.log_size()
        self.addDetail(process.name, content.Content(
            content.UTF8_TEXT,
            lambda: [process.log_text(start)[-20000:].encode()]))

    # --- the scenario ---

    def recover_through(self, prefix, fault, heal=None, api_load=False):
        """Start ``prefix``'s recovery, call ``fault(recovery)`` once
        servers are being evacuated (with the API load running when
        ``api_load``), then ``heal()``; check the outcome.
        """
        host_recovery = recovery.HostRecovery(self.cluster, self.api,
                                              self.simulator, prefix)
        host_recovery.prepare()
        host_recovery.start()
        host_recovery.wait_evacuating()
        load = recovery.ApiLoad(self.api) if api_load else None
        if load:
            load.start()
        began = time.monotonic()
        fault(host_recovery)
        status = self.api.wait_final(host_recovery.uuid, timeout=180)
        seconds = time.monotonic() - began
        if load:
            load.finish()
        if heal:
            heal()
        self.report(self.id().rsplit('.', 1)[-1], seconds, load)

        self.assertEqual('finished', status)
        self.assertEqual({name: 1 for name in host_recovery.servers},
                         host_recovery.evacuations())
        state = self.simulator.state()
        live = {service['host'] for service in state['services']
                if service['state'] == 'up'}
        for server in state['servers']:
            if server['name'] in host_recovery.servers:
                self.assertIn(server['host'], live - {host_recovery.source})
        if load:
            self.check_load(load)
        return host_recovery

    def check_load(self, load):
        self.assertEqual([], [error for error in load.errors
                              if error[0] != 503 or not error[1]])
        self.assertLessEqual(len(load.errors), MAX_API_ERRORS, load.errors)
        for uuid in load.accepted:
            self.assertIn(self.api.wait_final(uuid, timeout=120),
                          ('ignored', 'finished'))
        # Each duplicate's notification is stored once.
        stored = collections.Counter(
            notification['payload'].get('instance_uuid')
            for notification in self.api.call(
                'GET', '/notifications?limit=1000')['notifications'])
        self.assertEqual({instance: 1 for instance in load.duplicates},
                         {instance: stored[instance]
                          for instance in load.duplicates})

    def report(self, fault, seconds, load):
        line = '%-32s %6.1f s' % (fault, seconds)
        if load:
            errors = collections.Counter(
                '%s (Retry-After %s)' % error for error in load.errors)
            line += '   API: %d/%d accepted, %d duplicates, errors: %s' % (
                len(load.accepted), load.count, len(load.duplicates),
                ', '.join('%d x %s' % (count, error)
                          for error, count in sorted(errors.items()))
                or 'none')
        measures.report(self, 'report', line, 'MASAKARI_CLUSTER_REPORT')

    # --- the faults ---

    def test_kill_whole_controller(self):
        killed = []

        def fault(host_recovery):
            killed.append(host_recovery.owner())
            killed[0].kill()
        self.recover_through('kill', fault, lambda: killed[0].heal(),
                             api_load=True)

    def test_kill_database_writer(self):
        writer = self.cluster.galera_writer()
        self.recover_through('writer', lambda _: writer.kill(('galera',)),
                             writer.heal, api_load=True)

    def test_kill_engine_queue_leader(self):
        leader = self.cluster.queue_leader()
        self.recover_through('queue', lambda _: leader.kill(('rabbitmq',)),
                             leader.heal, api_load=True)

    def test_kill_etcd_leader(self):
        leader = self.cluster.etcd_leader()
        self.recover_through('etcd', lambda _: leader.kill(('etcd',)),
                             leader.heal, api_load=True)

    def test_freeze_owner_engine(self):
        frozen = []

        def fault(host_recovery):
            owner = host_recovery.owner()
            frozen.append(owner)
            owner.freeze('engine')
            time.sleep(2 * cluster_fixture.LEASE)
            frozen.append(time.time())
            owner.thaw('engine')
        self.recover_through('freeze', fault)
        owner, thawed = frozen
        late = [call for call in recovery.nova_calls_by_user(
            self.cluster)[owner.nova_user] if call['time'] >= thawed]
        self.assertEqual([], late)

    def test_cut_owner_controller_off(self):
        cut = []

        def fault(host_recovery):
            cut.append(host_recovery.owner())
            cut.append(time.time())
            cut[0].cut()
        host_recovery = self.recover_through('cut', fault,
                                             lambda: cut[0].heal())
        owner, since = cut
        calls = recovery.nova_calls_by_user(self.cluster)
        resumed = min(call['time'] for user, user_calls in calls.items()
                      if user != owner.nova_user for call in user_calls
                      if call['time'] >= since)
        ids = set(host_recovery.servers.values())
        late = [call for call in calls[owner.nova_user]
                if call['time'] >= resumed and
                any(server_id in call['path'] for server_id in ids)]
        self.assertEqual([], late)

    def test_rolling_restart(self):
        def fault(host_recovery):
            for controller in self.cluster.controllers:
                controller.stop()
                controller.start()
        self.recover_through('rolling', fault, api_load=True)
