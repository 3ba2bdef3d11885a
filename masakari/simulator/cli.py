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

"""``masakari-simulator``: serve a simulated Keystone + Nova from a topology.

Prints where it listens and the masakari.conf settings that point Masakari
at it, then serves until interrupted (Ctrl-C or SIGTERM).
"""

import argparse
import errno
import signal
import sys

from masakari.simulator import bmcs as bmcs_mod
from masakari.simulator import server
from masakari.simulator import topology

DEFAULT_PORT = 18774


def _parser():
    parser = argparse.ArgumentParser(
        prog='masakari-simulator',
        description='Serve a simulated OpenStack cloud (Keystone v3 and '
                    'Nova v2.1) described by a JSON topology file, to '
                    'rehearse Masakari recoveries without a real cloud.')
    parser.add_argument('--topology', required=True,
                        help='topology JSON file, or the name of a bundled '
                             'example (%s)' % ', '.join(
                                 topology.bundled_names()))
    parser.add_argument('--host', default='127.0.0.1',
                        help='address to listen on (default: %(default)s)')
    parser.add_argument('--port', type=int, default=DEFAULT_PORT,
                        help='port to listen on; 0 picks a free one '
                             '(default: %(default)s)')
    parser.add_argument('--verbose', action='store_true',
                        help='print one line per Keystone/Nova call served')
    bmc = parser.add_argument_group(
        'BMCs', 'A Redfish (sushy-tools) and an IPMI (pyghmi) BMC for every '
        'compute host, tied to its power (needs the fencing and test '
        'extras: sushy-tools, pyghmi).')
    bmc.add_argument('--bmc', action='store_true',
                     help='start the BMC emulators')
    bmc.add_argument('--bmc-username', default=bmcs_mod.DEFAULT_USERNAME,
                     help='BMC user name (default: %(default)s)')
    bmc.add_argument('--bmc-password', default=bmcs_mod.DEFAULT_PASSWORD,
                     help='BMC password (default: %(default)s)')
    bmc.add_argument('--bmc-power-delay', type=float, default=None,
                     metavar='SECONDS',
                     help='seconds a power change through a BMC takes '
                          '(default: 1-11 s at random for Redfish, as '
                          'sushy-tools does; immediate for IPMI)')
    bmc.add_argument('--bmc-tls-cert', metavar='PATH',
                     help='serve the Redfish BMC over HTTPS with this '
                          'certificate (with --bmc-tls-key); the fencing '
                          'file then verifies it with the certificate '
                          'itself as CA bundle (a self-signed one)')
    bmc.add_argument('--bmc-tls-key', metavar='PATH',
                     help='the private key of --bmc-tls-cert')
    bmc.add_argument('--fencing-config', metavar='PATH',
                     help='write a Masakari fencing file (for [fencing]/'
                          'config_file) for these BMCs; implies --bmc')
    bmc.add_argument('--fencing-driver', choices=bmcs_mod.DRIVERS,
                     default='ipmi',
                     help='the BMC the fencing file uses (default: '
                          '%(default)s)')
    return parser


def banner(simulator, user):
    """The lines printed at start-up."""
    lines = [
        'masakari-simulator listening on %s' % simulator.url,
        '  Keystone v3: %s/v3' % simulator.identity_url,
        '  Nova v2.1:   %s' % simulator.compute_url,
        '  control:     %s (GET /_simulator/calls for the call log)'
        % simulator.control_url,
        'masakari.conf:',
        '  [DEFAULT]',
        '  os_privileged_user_auth_url = %s' % simulator.identity_url,
        '  os_privileged_user_name = %s' % user['name'],
        '  os_privileged_user_password = %s' % user['password'],
    ]
    project = next(iter(user.get('roles', {})), None)
    if project:
        lines.append('  os_privileged_user_tenant = %s' % project)
    lines.extend(['  [keystone_authtoken]', '  auth_type = password'])
    return lines


def bmc_banner(bmcs, fencing_config):
    """The lines about the BMCs (no credentials)."""
    lines = ['BMCs: Redfish %s, IPMI on %s' % (
        bmcs.redfish_url, bmcs.address)]
    for host, endpoints in sorted(bmcs.endpoints().items()):
        lines.append('  %s: Redfish system %s, IPMI port %d' % (
            host, endpoints['redfish']['system_id'],
            endpoints['ipmi']['port']))
    if fencing_config:
        lines.extend(['  [fencing]', '  config_file = %s' % fencing_config])
    return lines


def main(argv=None):
    parser = _parser()
    args = parser.parse_args(argv)
    if bool(args.bmc_tls_cert) != bool(args.bmc_tls_key):
        parser.error('--bmc-tls-cert and --bmc-tls-key go together')
    try:
        description = topology.load(args.topology)
        simulator = server.Simulator(
            description, host=args.host, port=args.port,
            echo=(lambda line: print(line, flush=True))
            if args.verbose else None)
    except (OSError, ValueError, KeyError) as error:
        if getattr(error, 'errno', None) == errno.EADDRINUSE:
            error = ('port %d on %s is already in use by another program: '
                     'stop it, or choose another port with --port'
                     % (args.port, args.host))
        print('masakari-simulator: error: %s' % error, file=sys.stderr)
        return 2
    user = description.get('users', topology.DEFAULT_USERS)[0]
    lines = banner(simulator, user)
    bmcs = None
    if args.bmc or args.fencing_config:
        # NOTE: serve first: the BMCs call the control API as they start.
        simulator.start()
        try:
            bmcs = bmcs_mod.BMCs(
                simulator.cloud, simulator.control_url, address=args.host,
                username=args.bmc_username, password=args.bmc_password,
                power_delay=args.bmc_power_delay,
                tls=(args.bmc_tls_cert, args.bmc_tls_key)
                if args.bmc_tls_cert else None).start()
            if args.fencing_config:
                bmcs.write_fencing_file(args.fencing_config,
                                        args.fencing_driver)
        except (OSError, RuntimeError, ImportError) as error:
            if bmcs is not None:
                bmcs.stop()
            simulator.stop()
            print('masakari-simulator: error: %s' % error, file=sys.stderr)
            return 2
        lines.extend(bmc_banner(bmcs, args.fencing_config))
    print('\n'.join(lines), flush=True)

    def stop(signum, frame):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, stop)
    try:
        if bmcs is None:
            simulator.serve_forever()
        else:
            signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        if bmcs is not None:
            bmcs.stop()
            simulator.stop()
    return 0


if __name__ == '__main__':
    sys.exit(main())
