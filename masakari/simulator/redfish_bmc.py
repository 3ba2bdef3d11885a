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
the request, like real hardware. A POWER_DELAY argument makes that delay a
fixed number of seconds instead, for repeatable benchmarks. (The driver
itself applies a change only when the system is next read; here the
system is read until the change is applied, since a real BMC does not
wait to be asked: a host powered on by a return to service is not polled
through its BMC afterwards.)

A power change of the host made elsewhere (the IPMI BMC, the control API)
reaches the system through ``PUT /masakari-simulator/systems/<name>/power``
(``{"power_state": "On"|"Off"}``): set at once, with no notification back,
since the simulated host already is in that state.
"""

import functools
import sys
import threading
import time

import flask
from sushy_tools.emulator import main as emulator
from sushy_tools.emulator.resources.systems import fakedriver

MIRROR_PATH = '/masakari-simulator/systems/<name>/power'
# The fake driver's longest power change (seconds), the time allowed
# beyond a change's delay for it to be applied, and the seconds between
# two reads while it is pending.
RANDOM_LONGEST = 11
SETTLE_MARGIN = 2
SETTLE_POLL = 0.2


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


def _settle(driver, identity, wanted, longest):
    """Read the system until its power state is ``wanted`` (the read
    applies a due change) or ``longest`` seconds have passed.
    """
    deadline = time.monotonic() + longest
    while (driver.get_power_state(identity) != wanted and
           time.monotonic() < deadline):
        time.sleep(SETTLE_POLL)


def applied_when_due(set_power_state, longest):
    """The fake driver's ``set_power_state``, followed by reads on a
    thread of their own until the change is applied (and notified).
    """
    @functools.wraps(set_power_state)
    def set_and_settle(driver, identity, state):
        set_power_state(driver, identity, state)
        wanted = 'Off' if state in ('ForceOff', 'GracefulShutdown') else 'On'
        threading.Thread(target=_settle, args=(driver, identity, wanted,
                                               longest), daemon=True).start()
    return set_and_settle


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
    longest = RANDOM_LONGEST
    if len(argv) > 1:
        # NOTE: the fake driver draws its delay with random.randint; this
        # process runs only the emulator.
        fakedriver.random = FixedDelay(float(argv[1]))
        longest = float(argv[1])
    fakedriver.FakeDriver.set_power_state = applied_when_due(
        fakedriver.FakeDriver.set_power_state, longest + SETTLE_MARGIN)
    sys.argv = [sys.argv[0], '--config', argv[0]]
    return emulator.main()


if __name__ == '__main__':
    sys.exit(main())
