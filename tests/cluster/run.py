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

"""tools/run-cluster: the three-controller cluster of
doc/source/install/reference-architecture.rst on this machine, until
Ctrl-C; with --demo, a 20-server host recovery during which the
controller running it loses power (kill -9 of all its processes).
"""

import argparse
import signal
import sys
import time

from tests.cluster import recovery
from tests.fixtures import cluster as cluster_fixture
from tests.fixtures import polling
from tests.fixtures.simulator_client import SimulatorClient

DEMO = 'demo'


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog='tools/run-cluster', description=__doc__.split('\n\n')[0])
    parser.add_argument('--demo', action='store_true',
                        help='run a host recovery, kill the controller '
                             'that runs it in its middle, print what '
                             'happens and exit')
    parser.add_argument('--directory',
                        help='where the data and logs go (emptied first; '
                             'default: a temporary directory removed at '
                             'the end)')
    return parser.parse_args(argv)


def demo(cluster, say):
    api = recovery.Api(cluster.api_url)
    simulator = SimulatorClient(cluster.control_url)
    host_recovery = recovery.HostRecovery(cluster, api, simulator, DEMO)
    host_recovery.prepare()
    began = time.monotonic()

    def at(what):
        say('%6.1f s  %s' % (time.monotonic() - began, what))

    at('host %s is down; its %d servers need a new host'
       % (host_recovery.source, len(host_recovery.servers)))
    uuid = host_recovery.start()
    at('notification %s accepted through HAProxy' % uuid)
    owner = host_recovery.wait_owner()
    at('%s engine runs the recovery' % owner.name)
    host_recovery.wait_evacuating()
    done = sum(host_recovery.evacuations().values())
    owner.kill()
    killed = time.monotonic()
    at('%d servers evacuated; %s loses power (kill -9 of its Galera '
       'node, RabbitMQ node, etcd member, API and engine)'
       % (done, owner.name))
    taker = polling.wait_until(
        lambda: host_recovery.owner() not in (None, owner) and
        host_recovery.owner(), 120, interval=0.2,
        message='no engine took the recovery over')
    at('%s engine took the recovery over, %.1f s after the power loss'
       % (taker.name, time.monotonic() - killed))
    status = api.wait_final(uuid, timeout=180)
    counts = host_recovery.evacuations()
    at('notification %s: %s, %.1f s after the power loss'
       % (uuid, status, time.monotonic() - killed))
    at('evacuations per server: %s' % sorted(set(counts.values())))
    return status == 'finished' and set(counts.values()) == {1}


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)

    def say(line):
        print(line, flush=True)

    # SIGTERM ends the run like Ctrl-C: the clean-up stops every process.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    cluster = cluster_fixture.Cluster(recovery.topology([DEMO]),
                                      directory=args.directory, log=say)
    try:
        cluster.setUp()
        say('HAProxy on %s: API :%d, database :%d, etcd :%d; controllers %s'
            % (cluster_fixture.FRONT, cluster_fixture.API_PORT,
               cluster_fixture.DB_PORT, cluster_fixture.ETCD_PORT,
               ', '.join('%s %s' % (controller.name, controller.address)
                         for controller in cluster.controllers)))
        say('data and logs: %s' % cluster.directory)
        if args.demo:
            return 0 if demo(cluster, say) else 1
        say('Ctrl-C stops everything')
        signal.pause()
    except KeyboardInterrupt:
        return 0
    finally:
        say('stopping the cluster...')
        cluster.cleanUp()


if __name__ == '__main__':
    sys.exit(main())
