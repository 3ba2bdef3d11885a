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

"""Faults injected into a running deployment: engines killed (kill -9),
RabbitMQ and MariaDB cut and restored (tests.fixtures.tcp_proxy), Nova
hanging or failing. Every scenario ends with each notification in a final
status and each server evacuated exactly once, counted from the
simulator's call log.

Short test-profile timeouts ([takeover]/lease_timeout 6 s, lost casts
swept after 2 s) keep the suite to a few minutes. With
$MASAKARI_CHAOS_REPORT set, each scenario appends a line (fault, seconds
from the fault to the end of the recovery, evacuations per server) to
that file.
"""

import collections
import re
import signal
import time

from tests.e2e import base
from tests.fixtures import measures
from tests.fixtures import polling
from tests.fixtures import processes

HOST_DOWN = {'event': 'STOPPED', 'host_status': 'NORMAL',
             'cluster_status': 'OFFLINE'}
HA = {'HA_Enabled': 'True'}
LEASE = 6
EVACUATION = re.compile(r'POST /servers/([^/]+)/action$')


def scenario(prefix, servers, delay):
    """Topology entries: ``<prefix>-src`` with ``servers`` HA servers
    that take ``delay`` seconds to evacuate, and two spare hosts.
    """
    hosts = ['%s-src' % prefix, '%s-dst1' % prefix, '%s-dst2' % prefix]
    return hosts, [{'name': '%s-vm%d' % (prefix, index),
                    'host': '%s-src' % prefix, 'metadata': HA,
                    'evacuate_delay': delay} for index in range(servers)]


def topology(*scenarios):
    hosts, servers = [], []
    for prefix, count, delay in scenarios:
        more_hosts, more_servers = scenario(prefix, count, delay)
        hosts += more_hosts
        servers += more_servers
    return {'delays': base.INSTANT, 'hosts': hosts, 'servers': servers}


class ChaosTestCase(base.E2ETestCase):

    proxied = True

    def wait(self, condition, what, timeout=60):
        return polling.wait_until(condition, timeout, interval=0.2,
                                  message=what)

    def prepare(self, prefix):
        """Register the scenario's hosts and take its source host down;
        returns the server ids by name.
        """
        segment = self.api.create_segment(self.unique(prefix), 'auto')
        for suffix in ('src', 'dst1', 'dst2'):
            self.api.create_host(segment['uuid'], '%s-%s' % (prefix, suffix))
        self.simulator.set_host_state('%s-src' % prefix, 'down')
        self.simulator.reset_calls()
        return {server['name']: server['id']
                for server in self.simulator.state()['servers']
                if server['name'].startswith(prefix + '-vm')}

    def post(self, prefix):
        return self.post_notification('COMPUTE_HOST', '%s-src' % prefix,
                                      HOST_DOWN)['notification_uuid']

    def evacuation_counts(self, servers):
        counts = collections.Counter()
        for call in self.simulator.nova_calls():
            found = EVACUATION.match(call['line'])
            # NOTE: an evacuation Nova refused (an injected 5xx) moved
            # nothing; one it accepted counts, even if its answer was late.
            if (found and 'evacuate' in (call['body'] or {}) and
                    call['status'] < 400):
                counts[found.group(1)] += 1
        return {name: counts[server_id]
                for name, server_id in servers.items()}

    def evacuating(self, uuid):
        return [vmove for vmove in self.api.vmoves(uuid)
                if vmove['status'] == 'ongoing']

    def assert_recovered(self, uuid, servers, fault, fault_time,
                         status='finished'):
        """The notification ends ``status``, every server was evacuated
        exactly once and no vmove is left unfinished; reports the time.
        """
        final = self.api.wait_for_notification(
            uuid, statuses=('finished', 'failed'), timeout=90)
        seconds = time.monotonic() - fault_time
        counts = self.evacuation_counts(servers)
        self.report(fault, seconds, counts)
        self.assertEqual(status, final['status'])
        self.assertEqual({name: 1 for name in servers}, counts)
        self.assertEqual([], [vmove for vmove in self.api.vmoves(uuid)
                              if vmove['status'] in ('pending', 'ongoing')])
        for name in servers:
            self.assertNotEqual(name.split('-vm')[0] + '-src',
                                self.simulator.server(name)['host'])
        return final

    def report(self, fault, seconds, counts):
        line = '%s: %.1f s from the fault to the end; evacuations per ' \
               'server %s' % (fault, seconds, sorted(counts.values()))
        measures.report(self, 'measure', line, 'MASAKARI_CHAOS_REPORT')


class TwoEnginesTestCase(ChaosTestCase):
    """Two engines (the profile's host and ``<host>-peer``)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        deployment = cls.deployment
        cls.engines = {deployment.engine_host: deployment.engine}
        peer = deployment.engine_host + '-peer'
        cls.engines[peer] = deployment.start_engine(host=peer)

    def owner(self, uuid):
        """The engine host whose log says it took ``uuid`` up."""
        for host, process in self.engines.items():
            if processes.lines_taking_up(process.log_text(), uuid):
                return host
        return None

    def restart(self, host):
        self.engines[host] = self.deployment.start_engine(host=host)
        return self.engines[host]

    def kill_the_owner(self, prefix, fault):
        """Kill -9 the engine recovering ``prefix``'s host in the middle
        of the evacuations; its peer takes the recovery over.
        """
        servers = self.prepare(prefix)
        uuid = self.post(prefix)
        self.wait(lambda: self.evacuating(uuid), 'no evacuation started')
        owner = self.wait(lambda: self.owner(uuid), 'no owner')
        self.engines[owner].kill()
        killed = time.monotonic()
        self.addCleanup(self.restart, owner)

        final = self.assert_recovered(uuid, servers, fault, killed)
        self.assertIsNone(final['message'])
        messages = [item['message'] for task in self.api.notification(uuid)[
            'recovery_workflow_details'] for item in task['progress_details']]
        self.assertIn("Recovery taken over from engine '%s'" % owner,
                      '\n'.join(messages))
        # Within the bound: the lease, a watch round, the rest of the
        # evacuations.
        self.assertLess(time.monotonic() - killed, LEASE + 30)


class TestEngineTakeover(TwoEnginesTestCase):
    """Periodic tasks off: only the takeover watch acts. The lease lives
    in the database.
    """

    topology = topology(('to', 6, 2), ('rs', 4, 2), ('lc', 2, 0),
                        ('fz', 6, 2))
    options = {'DEFAULT': {'periodic_enable': False,
                           'host_failure_recovery_threads': 2},
               'takeover': {'lease_timeout': LEASE,
                            'new_notification_age': 2}}

    def test_kill_the_owner_with_a_peer_alive(self):
        self.kill_the_owner('to', 'engine killed, peer alive (database '
                                  'lease)')

    def test_kill_every_engine_then_restart_one(self):
        servers = self.prepare('rs')
        uuid = self.post('rs')
        self.wait(lambda: self.evacuating(uuid), 'no evacuation started')
        owner = self.wait(lambda: self.owner(uuid), 'no owner')
        for host, process in self.engines.items():
            process.kill()
        killed = time.monotonic()
        for host in self.engines:
            if host != owner:
                self.addCleanup(self.restart, host)
        self.assertEqual('running',
                         self.api.notification(uuid, '1.0')['status'])
        self._attach_log('engine %s (restarted)' % owner, self.restart(owner))
        self.assert_recovered(uuid, servers, 'every engine killed, owner '
                              'restarted', killed)

    def test_freeze_the_owner_past_its_lease_then_thaw_it(self):
        servers = self.prepare('fz')
        uuid = self.post('fz')
        self.wait(lambda: self.evacuating(uuid), 'no evacuation started')
        owner = self.wait(lambda: self.owner(uuid), 'no owner')
        frozen = self.engines[owner]
        frozen.signal(signal.SIGSTOP)
        stopped = time.monotonic()
        self.addCleanup(frozen.signal, signal.SIGCONT)
        # NOTE: from the peer's log: the progress call (microversion 1.1)
        # may reach the frozen engine.
        peer = [process for host, process in self.engines.items()
                if host != owner][0]
        self.wait(lambda: 'Notification %s: Recovery taken over' % uuid in
                  peer.log_text(), 'no takeover', timeout=LEASE * 4)
        polling.wait_until(lambda: time.monotonic() - stopped >= 2 * LEASE,
                           2 * LEASE, interval=0.2)
        # The owner's Nova calls carry the request id of the POST's
        # cast; the peer's, its watch's own.
        request_id = self.owner_request_id('fz-vm')
        before_thaw = self.calls_with(request_id)
        frozen.signal(signal.SIGCONT)
        self.assert_recovered(uuid, servers, 'owner frozen for twice its '
                              'lease, then thawed', stopped)
        polling.wait_until(lambda: 'took this recovery over' in
                           frozen.log_text(), 30, interval=0.2,
                           message='the thawed owner did not stop')
        self.assertEqual(before_thaw, self.calls_with(request_id))

    def owner_request_id(self, prefix):
        """The request id of the first evacuation of ``prefix``'s servers.
        """
        ids = {server['id'] for server in self.simulator.state()['servers']
               if server['name'].startswith(prefix)}
        for call in self.simulator.nova_calls():
            found = EVACUATION.match(call['line'])
            if found and found.group(1) in ids:
                return call['request_id']
        raise AssertionError('no evacuation of %s' % prefix)

    def calls_with(self, request_id):
        return [call['line'] for call in self.simulator.nova_calls()
                if call['request_id'] == request_id]

    def test_a_stored_notification_whose_cast_failed_is_processed(self):
        # The broker is cut: the API stores the notification, cannot cast
        # it and still answers 202 (as when the API dies between its
        # commit and its cast); an engine sweeps it from the database.
        servers = self.prepare('lc')
        self.deployment.broker_proxy.cut()
        self.addCleanup(self.deployment.broker_proxy.restore)
        cut = time.monotonic()
        uuid = self.post('lc')
        answered = time.monotonic() - cut
        self.assertLess(answered, 15)
        self.assert_recovered(uuid, servers, 'cast lost (broker cut during '
                              'the POST, answered 202 in %.1f s)' % answered,
                              cut)


class TestEngineTakeoverOnRedis(TwoEnginesTestCase):
    """The same with [coordination]/backend_url on Redis: the engines are
    members of the tooz group ``masakari-engines``; a member that stops
    beating leaves it after the URL's ``timeout`` (tooz's 30 s default
    would bound the takeover instead of the lease).
    """

    topology = topology(('tr', 6, 2))
    options = {'DEFAULT': {'periodic_enable': False,
                           'host_failure_recovery_threads': 2},
               'coordination': {'backend_url': processes.redis_url() +
                                '?timeout=%d' % LEASE},
               'takeover': {'lease_timeout': LEASE,
                            'new_notification_age': 2}}

    def test_kill_the_owner_with_a_peer_alive(self):
        self.kill_the_owner('tr', 'engine killed, peer alive (tooz group '
                                  'on Redis)')


class TestOutages(ChaosTestCase):
    """One engine, periodic tasks on (the error retry finishes what an
    outage failed).
    """

    topology = topology(('dp', 2, 0), ('dm', 4, 1), ('bm', 4, 1),
                        ('nh', 2, 0), ('nf', 2, 0))
    options = {'DEFAULT': {'nova_api_timeout': 3},
               'takeover': {'lease_timeout': LEASE,
                            'new_notification_age': 2}}

    def test_database_cut_during_a_post(self):
        servers = self.prepare('dp')
        self.deployment.database_proxy.cut()
        self.addCleanup(self.deployment.database_proxy.restore)
        cut = time.monotonic()
        when = base.generated_time()
        refused = self.api.post_notification('COMPUTE_HOST', 'dp-src',
                                             HOST_DOWN, when)
        self.assertLess(time.monotonic() - cut, 30)
        self.assertEqual(503, refused.status_code, refused.text)
        self.assertEqual('5', refused.headers['Retry-After'])
        self.assertEqual('The database cannot be reached; retry later.',
                         refused.json()['serviceUnavailable']['message'])
        self.deployment.database_proxy.restore()
        # The client's retry, as masakari-monitors sends it.
        accepted = self.wait(lambda: _accepted(self.api.post_notification(
            'COMPUTE_HOST', 'dp-src', HOST_DOWN, when)), 'no 202')
        self.assert_recovered(accepted['notification_uuid'], servers,
                              'database cut during the POST', cut)

    def test_database_cut_mid_recovery(self):
        servers = self.prepare('dm')
        uuid = self.post('dm')
        self.wait(lambda: self.evacuating(uuid), 'no evacuation started')
        self.deployment.database_proxy.cut()
        cut = time.monotonic()
        time.sleep(5)  # the outage itself, not a wait for readiness
        self.deployment.database_proxy.restore()
        self.assert_recovered(uuid, servers, 'database cut 5 s mid-recovery',
                              cut)

    def test_broker_cut_mid_recovery(self):
        servers = self.prepare('bm')
        uuid = self.post('bm')
        self.wait(lambda: self.evacuating(uuid), 'no evacuation started')
        self.deployment.broker_proxy.cut()
        self.addCleanup(self.deployment.broker_proxy.restore)
        cut = time.monotonic()
        self.assert_recovered(uuid, servers, 'broker cut mid-recovery', cut)

    def nova_fault(self, prefix, label, **fault):
        """One evacuation of ``prefix``'s host meets ``fault``; the
        periodic task retries what failed.
        """
        servers = self.prepare(prefix)
        self.simulator.add_fault(method='POST', path='/servers/*/action',
                                 action='evacuate', times=1, **fault)
        started = time.monotonic()
        uuid = self.post(prefix)
        self.assert_recovered(uuid, servers, label, started)
        return [vmove['message'] for vmove in self.api.vmoves(uuid)
                if vmove['status'] == 'failed']

    def test_nova_hangs_on_an_evacuation(self):
        # NOTE: the hung request outlives the engine's 3 s Nova timeout,
        # then Nova carries it out, well before the periodic retry: the
        # retry finds the server moved and leaves it alone. (A request
        # still hanging when the retry evacuates is a race no engine can
        # settle from outside Nova.)
        failed = self.nova_fault('nh', 'Nova hangs on one evacuation',
                                 hang=4)
        self.assertEqual(1, len(failed), failed)
        self.assertIn('Nova could not be reached or did not answer in time',
                      failed[0])

    def test_nova_answers_5xx_to_an_evacuation(self):
        failed = self.nova_fault('nf', 'Nova 503 on one evacuation',
                                 status=503)
        self.assertEqual(1, len(failed), failed)


def _accepted(response):
    return response.json()['notification'] \
        if response.status_code == 202 else None
