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

"""tools/bench-cluster: a benchmark of the three-controller cluster (not
a test).

1. Throughput: N instance-failure notifications (VM, each for its own
   server, recovered by a stop and a start in Nova) POSTed through
   HAProxy, with one engine running and then with three; notifications
   processed per second, from the first POST to the last one finished.
2. Takeover: R times, a 20-server host recovery during which the
   controller running it is killed (kill -9 of every process); seconds
   from the kill to the first Nova call of another engine for it (the
   resumed recovery), p50 and max, and to its end.
"""

import argparse
import concurrent.futures
import statistics
import sys
import time

from tests.cluster import recovery
from tests.fixtures import cluster as cluster_fixture
from tests.fixtures import polling
from tests.fixtures.simulator_client import SimulatorClient

BENCH_HOST = 'bench-host'
INSTANCE_FAILED = {'event': 'LIFECYCLE',
                   'vir_domain_event': 'STOPPED_FAILED'}


def parse_args(argv):
    parser = argparse.ArgumentParser(prog='tools/bench-cluster',
                                     description=__doc__.split('\n\n')[0])
    parser.add_argument('--notifications', type=int, default=150,
                        help='notifications per throughput run')
    parser.add_argument('--takeovers', type=int, default=10,
                        help='controller kills measured')
    return parser.parse_args(argv)


def topology(notifications, takeovers):
    base = recovery.topology(['take%d' % run for run in range(takeovers)])
    base['hosts'].append(BENCH_HOST)
    # Each throughput run recovers servers of its own.
    base['servers'] += [{'name': 'bench%d' % run, 'count': notifications,
                         'host': BENCH_HOST, 'metadata': recovery.HA}
                        for run in range(2)]
    return base


def bench_segment(api):
    recovery.create_segment(api, 'bench', [BENCH_HOST])


def throughput(api, server_ids, workers=20):
    """Notifications per second for the instance failures of
    ``server_ids``.
    """
    began = time.monotonic()

    def post(server_id):
        payload = dict(INSTANCE_FAILED, instance_uuid=server_id)
        for attempt in range(10):
            response = api.post_notification('VM', BENCH_HOST, payload)
            if response.status_code == 202:
                return response.json()['notification']['notification_uuid']
            time.sleep(1)
        raise AssertionError('POST refused: %d %s' % (response.status_code,
                                                      response.text))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        uuids = list(pool.map(post, server_ids))
    statuses = {}
    for notification_uuid in uuids:
        statuses[notification_uuid] = api.wait_final(notification_uuid,
                                                     timeout=600)
    seconds = time.monotonic() - began
    return len(uuids) / seconds, seconds, statuses


def resumed_by_peer(cluster, host_recovery, dead, since):
    """Whether an engine other than ``dead``'s called Nova for the
    recovery's servers after ``since`` (epoch seconds).
    """
    ids = set(host_recovery.servers.values())
    for user, calls in recovery.nova_calls_by_user(cluster).items():
        if user == dead.nova_user:
            continue
        for call in calls:
            if call['time'] >= since and any(
                    server_id in call['path'] for server_id in ids):
                return call['time']
    return None


def takeover(cluster, api, simulator, prefix, say):
    host_recovery = recovery.HostRecovery(cluster, api, simulator, prefix)
    host_recovery.prepare()
    host_recovery.start()
    owner = host_recovery.wait_owner()
    host_recovery.wait_evacuating()
    owner.kill()
    killed = time.time()
    resumed = polling.wait_until(
        lambda: resumed_by_peer(cluster, host_recovery, owner, killed),
        120, interval=0.25, message='%s: not resumed' % prefix)
    status = api.wait_final(host_recovery.uuid, timeout=180)
    ended = time.time()
    counts = host_recovery.evacuations()
    say('  %s: killed %s, resumed after %.1f s, %s after %.1f s, '
        'evacuations per server %s' % (
            prefix, owner.name, resumed - killed, status, ended - killed,
            sorted(set(counts.values()))))
    owner.heal()
    return resumed - killed, ended - killed


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)

    def say(line):
        print(line, flush=True)

    cluster = cluster_fixture.Cluster(
        topology(args.notifications, args.takeovers), log=say)
    try:
        cluster.setUp()
        api = recovery.Api(cluster.api_url)
        simulator = SimulatorClient(cluster.control_url)
        bench_segment(api)
        servers = simulator.state()['servers']
        say('throughput, %d instance-failure notifications per run:'
            % args.notifications)
        engines = [controller.processes['engine']
                   for controller in cluster.controllers]
        for run, count in enumerate((1, 3)):
            for controller in cluster.controllers[count:]:
                controller.processes['engine'].stop()
            for controller in cluster.controllers[:count]:
                controller.heal()
            ids = [server['id'] for server in servers
                   if server['name'].startswith('bench%d-' % run)]
            rate, seconds, statuses = throughput(api, ids)
            say('  %d engine(s): %.1f notifications/s (%d in %.1f s; %s)'
                % (count, rate, len(ids), seconds,
                   sorted(set(statuses.values()))))
        del engines
        say('takeover after a controller\'s death, %d runs:'
            % args.takeovers)
        resumed, ended = [], []
        for run in range(args.takeovers):
            times = takeover(cluster, api, simulator, 'take%d' % run, say)
            resumed.append(times[0])
            ended.append(times[1])
        say('  resumed: p50 %.1f s, max %.1f s; recovery ended: p50 %.1f s,'
            ' max %.1f s (lease %d s)' % (
                statistics.median(resumed), max(resumed),
                statistics.median(ended), max(ended),
                cluster_fixture.LEASE))
    finally:
        cluster.cleanUp()


if __name__ == '__main__':
    sys.exit(main())
