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

"""masakari-aio: masakari-api and masakari-engine in one process on embedded
defaults, against a simulated cloud; ``--demo`` shows a host recovery,
``--demo --fencing`` a fenced one (BMC power off, force-down, immediate
evacuation); ``--metrics`` serves the Prometheus metrics of both.

No eventlet here: the API is served by a threaded standard-library server
and the engine takes RPC messages on threads.
"""

import argparse
import os
import signal
import sys
import threading
import warnings

from oslo_config import cfg

from masakari.aio import demo
from masakari.aio import profile
from masakari.common import cli
from masakari.objects import fields
from masakari.simulator import topology as simulator_topology

DEFAULT_TOPOLOGY = 'small'
Method = fields.FailoverSegmentRecoveryMethod
DEFAULT_API_PORT = 15868


def _parser():
    parser = argparse.ArgumentParser(
        prog='masakari-aio',
        description='Run masakari-api and masakari-engine in one process '
                    'with SQLite, in-process messaging, no authentication '
                    '(noauth2) and a simulated Keystone/Nova cloud.')
    parser.add_argument('--demo', action='store_true',
                        help='register the simulated hosts in a segment, '
                             'fail the busiest host, post its host-down '
                             'notification and print the recovery until it '
                             'ends (exit status 0 when finished)')
    parser.add_argument('--recovery-method', default=Method.AUTO,
                        choices=list(Method.ALL),
                        help='recovery method of the demo segment '
                             '(default: %(default)s); hosts whose '
                             'nova-compute is disabled become reserved')
    parser.add_argument('--fencing', action='store_true',
                        help='give every simulated host a Redfish and an '
                             'IPMI BMC and fence failed hosts through '
                             'Redfish, force their compute service down and '
                             'evacuate at once (20 at a time); the demo '
                             'then crashes the host instead of marking it '
                             'down, so Nova still sees it up (needs the '
                             'simulated-bmcs extra: sushy, sushy-tools, '
                             'pyghmi, which tools/run-aio installs)')
    parser.add_argument('--metrics', action='store_true',
                        help='serve the Prometheus metrics of the API and '
                             'of the engine on the [metrics] ports '
                             '(default 9781 and 9782; change them in a '
                             '--config-file), write a prometheus.yml that '
                             'scrapes them with the shipped alert rules, '
                             'and set a 1 s recovery budget so that the '
                             'demo is over it; with --demo, keep serving '
                             'after the recovery until Ctrl-C')
    parser.add_argument('--topology', default=DEFAULT_TOPOLOGY,
                        help='simulated cloud: a topology JSON file or a '
                             'bundled name (%s; default: %%(default)s)' %
                             ', '.join(simulator_topology.bundled_names()))
    parser.add_argument('--config-file', action='append', default=[],
                        metavar='PATH',
                        help='configuration file read after the embedded '
                             'profile (repeatable), e.g. a '
                             'masakari-custom-recovery-methods.conf to '
                             'rehearse a custom recovery flow')
    parser.add_argument('--state-dir', metavar='DIR',
                        help='keep masakari.conf, masakari.log and the '
                             'SQLite databases here (default: a temporary '
                             'directory removed at exit)')
    parser.add_argument('--keep', action='store_true',
                        help='keep the temporary state directory (and its '
                             'masakari.log) at exit, and say where it is')
    parser.add_argument('--host', default='127.0.0.1',
                        help='address of the API and the simulator '
                             '(default: %(default)s)')
    parser.add_argument('--port', type=int,
                        help='API port; 0 picks a free one (default: %d, '
                             'or a free one with --demo)' % DEFAULT_API_PORT)
    parser.add_argument('--simulator-port', type=int, default=0,
                        help='simulator port (default: a free one)')
    parser.add_argument('--wait', type=int, default=profile.DEFAULT_WAIT,
                        metavar='SECONDS',
                        help='[DEFAULT]/wait_period_after_service_update: '
                             'wait after disabling a failed host '
                             '(default: %(default)s; Masakari: 180)')
    parser.add_argument('--demo-timeout', type=float, default=300,
                        metavar='SECONDS',
                        help='give the demo up after this long '
                             '(default: %(default)s)')
    parser.add_argument('--debug', action='store_true',
                        help='debug logging in masakari.log')
    return parser


def _banner(aio, serve):
    if aio.state_removed_at_stop:
        log = '%s (removed at exit; --keep keeps it)' % aio.log_file
    else:
        log = aio.log_file
    lines = [
        'masakari-aio: API listening on %s (noauth2: no token needed, '
        'every caller is an administrator)' % aio.api_url,
        'masakari-aio: simulated cloud on %s (control API: %s)' % (
            aio.simulator.url, aio.simulator.control_url),
        'masakari-aio: configuration %s, log %s' % (aio.config_file, log),
    ]
    if aio.metrics_endpoints:
        lines += [
            'masakari-aio: metrics of the API on %s, of the engine on %s'
            % (aio.metrics_endpoints['api'].url,
               aio.metrics_endpoints['engine'].url),
            'masakari-aio: Prometheus with the alert rules: prometheus '
            '--config.file=%s --storage.tsdb.path=%s; Grafana: import %s'
            % (aio.prometheus_file,
               os.path.join(aio.state_dir, 'prometheus'),
               profile.data_file(profile.DASHBOARD_FILE)),
        ]
    if serve:
        lines += [
            'masakari-aio: openstack CLI: export OS_AUTH_TYPE=none '
            'OS_ENDPOINT=%s/v1; openstack segment list' % aio.api_url,
            "masakari-aio: openstacksdk: openstack.connect(auth_type='none', "
            "auth={'endpoint': '%s/v1'})" % aio.api_url,
            'masakari-aio: Ctrl-C stops',
        ]
    return lines


def _say(line):
    print(line, flush=True)


def _serve_until_stopped():
    stopped = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *args: stopped.set())
    # NOTE: wait in slices so that the signal handler runs promptly.
    while not stopped.wait(1):
        pass


def main(argv=None):
    """Console script ``masakari-aio``; returns the exit status."""
    args = _parser().parse_args(argv)
    port = args.port
    if port is None:
        port = 0 if args.demo else DEFAULT_API_PORT
    # NOTE: oslo.service and futurist import eventlet (never monkey-patched
    # here), which warns on import; the warning is noise on the console.
    warnings.filterwarnings('ignore', message=r'\s*Eventlet is deprecated')
    from masakari.aio import runtime  # noqa: H306 (after the filter)
    try:
        description = simulator_topology.load(args.topology)
        aio = runtime.AllInOne(
            description, state_dir=args.state_dir, host=args.host, port=port,
            simulator_port=args.simulator_port, wait=args.wait,
            config_files=args.config_file, debug=args.debug,
            fencing=args.fencing, keep=args.keep,
            metrics=args.metrics).start()
    except (OSError, ValueError, KeyError, RuntimeError, ImportError,
            cfg.Error, cli.StartupError) as error:
        cli.report('masakari-aio', cli.describe(error) or str(error), argv)
        return 2
    # NOTE: a --state-dir is the caller's own; say where a kept temporary
    # one is.
    kept = args.keep and not args.state_dir
    try:
        for line in _banner(aio, serve=not args.demo):
            _say(line)
        if not args.demo:
            _serve_until_stopped()
            return 0
        try:
            recovered = demo.run(aio.api_url, aio.simulator.control_url,
                                 recovery_method=args.recovery_method,
                                 say=_say, timeout=args.demo_timeout,
                                 crash=args.fencing)
        except demo.DemoError as error:
            print('masakari-aio: demo failed: %s' % error, file=sys.stderr)
            return 1
        if aio.metrics_endpoints:
            # NOTE: so that Prometheus can scrape what the demo did.
            _say('masakari-aio: the API and the metrics stay served; '
                 'Ctrl-C stops')
            _serve_until_stopped()
        return 0 if recovered else 1
    finally:
        state_dir, log_file = aio.state_dir, aio.log_file
        aio.stop()
        if kept:
            _say('masakari-aio: state kept in %s (log %s)'
                 % (state_dir, log_file))


if __name__ == '__main__':
    sys.exit(main())
