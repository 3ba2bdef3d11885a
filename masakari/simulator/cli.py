"""``masakari-simulator``: serve a simulated Keystone + Nova from a topology.

Prints where it listens and the masakari.conf settings that point Masakari
at it, then serves until interrupted (Ctrl-C or SIGTERM).
"""

import argparse
import signal
import sys

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


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        description = topology.load(args.topology)
        simulator = server.Simulator(
            description, host=args.host, port=args.port,
            echo=(lambda line: print(line, flush=True))
            if args.verbose else None)
    except (OSError, ValueError, KeyError) as error:
        print('masakari-simulator: %s' % error, file=sys.stderr)
        return 2
    user = description.get('users', topology.DEFAULT_USERS)[0]
    print('\n'.join(banner(simulator, user)), flush=True)

    def stop(signum, frame):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, stop)
    try:
        simulator.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == '__main__':
    sys.exit(main())
