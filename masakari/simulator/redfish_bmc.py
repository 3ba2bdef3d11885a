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

"""The Redfish BMC of the simulated hosts: sushy-tools' emulator.

Run as ``python -m masakari.simulator.redfish_bmc CONFIG [POWER_DELAY]``
by ``masakari.simulator.bmcs``. CONFIG is the emulator's own (Python)
configuration file: its fake systems driver with one system per host
(named after it), basic authentication from an htpasswd file, its state in
a directory of this run, and the fake driver's external notifier pointed
at the simulator's ``/_simulator/redfish-events`` so that an applied power
change reaches the simulated host.

The fake driver applies a power change 1 to 11 seconds (at random) after
the request, when the system is next read, like real hardware. A
POWER_DELAY argument makes that delay a fixed number of seconds instead,
for repeatable benchmarks.

A power change of the host made elsewhere (the IPMI BMC, the control API)
reaches the system through ``PUT /masakari-simulator/systems/<name>/power``
(``{"power_state": "On"|"Off"}``): set at once, with no notification back,
since the simulated host already is in that state.
"""

import sys
import time

import flask
from sushy_tools.emulator import main as emulator
from sushy_tools.emulator.resources.systems import fakedriver

MIRROR_PATH = '/masakari-simulator/systems/<name>/power'


class FixedDelay:
    """Stands for the ``random`` module in the fake driver.

    NOTE: the driver adds the drawn delay to the whole seconds of now
    (``int(time.time())``), which would shorten a change by up to a
    second; the fraction it dropped is given back, so that a change
    applies ``seconds`` after its request.
    """

    def __init__(self, seconds):
        self.seconds = seconds

    def randint(self, low, high):
        now = time.time()
        return self.seconds + (now - int(now))


@emulator.app.route(MIRROR_PATH, methods=['PUT'])
def mirror_power(name):
    """Set a system's power state now, without the external notifier."""
    systems = emulator.app.systems
    identity = systems.uuid(name)
    system = dict(systems._get(identity),
                  power_state=flask.request.json['power_state'],
                  pending_power=None)
    # NOTE: written straight into the fake driver's store: its _update
    # would notify the simulator of the change the simulator itself made.
    systems._systems[identity] = system
    return '', 204


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) > 1:
        # NOTE: the fake driver draws its delay with random.randint; this
        # process runs only the emulator.
        fakedriver.random = FixedDelay(float(argv[1]))
    sys.argv = [sys.argv[0], '--config', argv[0]]
    return emulator.main()


if __name__ == '__main__':
    sys.exit(main())
