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

"""IPMI BMCs of the simulated hosts: one process, one UDP port per host.

Run as ``python -m masakari.simulator.ipmi_bmc CONFIG`` by
``masakari.simulator.bmcs``; CONFIG is a JSON file (kept private: it holds
the password) with ``control_url``, ``address``, ``username``,
``password``, ``power_delay`` and ``hosts`` (a list of host names). Each
host gets a BMC built on pyghmi's server class, answering chassis status
and chassis power control from and onto the simulator's machine of that
host (``/_simulator/machines/{name}``). Once every port is bound the
process prints one line, ``ready {"host": port, ...}``.

pyghmi's server only speaks RAKP-HMAC-SHA1 (cipher suite 3) but accepts
any proposal, while pyghmi's client first proposes SHA-256 and then fails
to verify the SHA-1 answer. Real SHA-1-only BMCs refuse the proposal
(RMCP+ status 0x04, invalid authentication algorithm), after which clients
retry with SHA-1: :class:`Sha1OnlySession` does the same.
"""

import json
import socket
import sys
from urllib import request as urlrequest

from pyghmi.ipmi import bmc
from pyghmi.ipmi.private import serversession

RAKP_HMAC_SHA1 = 1
INVALID_AUTHENTICATION_ALGORITHM = 0x04
# Offset of the authentication algorithm in an RMCP+ open session request.
AUTH_ALGORITHM_OFFSET = 12
IPMI_OK = 0


class Sha1OnlySession(serversession.ServerSession):
    """A server session that refuses authentication algorithms but SHA-1."""

    def create_open_session_response(self, request):
        if request[AUTH_ALGORITHM_OFFSET] != RAKP_HMAC_SHA1:
            return (bytearray([request[0], INVALID_AUTHENTICATION_ALGORITHM,
                               0, 0]) + request[4:8])
        return super().create_open_session_response(request)


class MachineBmc(bmc.Bmc):
    """The BMC of one simulated host, backed by the simulator's state."""

    def __init__(self, authdata, port, address, host, control_url,
                 power_delay):
        super().__init__(authdata, port=port, address=address)
        self.machine_url = '%s/machines/%s' % (control_url, host)
        self.power_delay = power_delay

    def _call(self, method, body=None):
        data = None if body is None else json.dumps(body).encode()
        call = urlrequest.Request(self.machine_url, data=data, method=method,
                                  headers={'Content-Type':
                                           'application/json'})
        with urlrequest.urlopen(call, timeout=10) as answer:
            return json.load(answer)['machine']

    def get_power_state(self):
        return self._call('GET')['power']

    def _power(self, state):
        self._call('PUT', {'power': state, 'delay': self.power_delay,
                           'source': 'ipmi'})
        return IPMI_OK

    def power_off(self):
        return self._power('off')

    def power_on(self):
        return self._power('on')


def _free_udp_port(address):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind((address, 0))
        return probe.getsockname()[1]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    with open(argv[0]) as config_file:
        config = json.load(config_file)
    # NOTE: the server class creates its sessions through this module
    # attribute; this process only serves.
    serversession.ServerSession = Sha1OnlySession
    ports = {}
    for host in config['hosts']:
        port = _free_udp_port(config['address'])
        MachineBmc({config['username']: config['password']}, port,
                   config['address'], host, config['control_url'],
                   config['power_delay'])
        ports[host] = port
    print('ready %s' % json.dumps(ports), flush=True)
    bmc.Bmc.listen(timeout=1)


if __name__ == '__main__':
    sys.exit(main())
