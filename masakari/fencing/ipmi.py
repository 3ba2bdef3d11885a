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

"""The ``ipmi`` fencing driver: chassis power control through pyghmi.

Power off is the IPMI "chassis control: power down" command (immediate,
the operating system is not asked); the power state is "get chassis
status". ``address`` is the BMC's host name or IP address, ``port`` its
RMCP+ UDP port (623 by default).
"""

from pyghmi import exceptions as pyghmi_exceptions
from pyghmi.ipmi import command

from masakari.fencing import base

_STATES = {'on': base.ON, 'off': base.OFF}


def _reason(error):
    # NOTE: pyghmi raises IpmiException(None) when the BMC never answers.
    return str(error) if error.args and error.args[0] else 'no answer'


class IPMIDriver(base.FencingDriver):
    """Fence through an IPMI 2.0 (RMCP+) BMC."""

    DEFAULT_PORT = 623

    def __init__(self, host_name, settings):
        super().__init__(host_name, settings)
        self._session = None

    def _failed(self, error):
        return self.failed('IPMI BMC at %s:%s: %s'
                           % (self.address, self.port, _reason(error)))

    def _command(self):
        # NOTE: pyghmi shares one session per BMC and credentials within
        # the process; keeping the Command avoids a login per poll. The
        # credentials go as bytes: pyghmi files a session being set up
        # under the credentials as given but removes it under their bytes,
        # so with str a second Command for the same BMC waits forever.
        if self._session is None:
            try:
                self._session = command.Command(
                    bmc=self.address,
                    userid=self.settings['username'].encode('utf-8'),
                    password=self.settings['password'].encode('utf-8'),
                    port=self.port)
            except (pyghmi_exceptions.PyghmiException, OSError) as error:
                raise self._failed(error)
        return self._session

    def _call(self, what, *args):
        session = self._command()
        try:
            return getattr(session, what)(*args)
        except (pyghmi_exceptions.PyghmiException, OSError) as error:
            self._session = None
            raise self._failed(error)

    def close(self):
        session, self._session = self._session, None
        if session is not None:
            try:
                session.ipmi_session.logout()
            except (pyghmi_exceptions.PyghmiException, OSError):
                # NOTE: the BMC ends idle sessions by itself.
                pass

    def power_state(self):
        answer = self._call('get_power')
        return _STATES.get(answer.get('powerstate'), base.UNKNOWN)

    def power_off(self):
        self._call('set_power', 'off')

    def power_on(self):
        self._call('set_power', 'on')

    def check(self):
        return self.power_state()
