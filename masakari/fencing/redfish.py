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

"""The ``redfish`` fencing driver: a ComputerSystem's Reset through sushy.

Power off is ``Reset`` with ``ForceOff``; the power state is the system's
``PowerState``, read again (``refresh``) at each poll. ``address`` is the
BMC's host name or IP address (HTTPS on ``port``, 443 by default) or a
full base URL such as ``http://10.0.0.5:8000``. ``system_id`` names the
system (its identity, or the path ``/redfish/v1/Systems/<id>``); without
it the BMC must manage exactly one system. The BMC's TLS certificate is
verified unless ``verify`` is false: against the system's CA bundle, or
the one ``verify`` names; a refused certificate fails with that reason.
"""

import ssl

import sushy
from sushy import exceptions as sushy_exceptions

from masakari.fencing import base

SYSTEMS_PATH = '/redfish/v1/Systems/'
DEFAULT_TIMEOUT = 10

_STATES = {sushy.PowerState.OFF: base.OFF,
           sushy.PowerState.ON: base.ON,
           # NOTE: still drawing power: not off, for fencing purposes.
           sushy.PowerState.POWERING_OFF: base.ON,
           sushy.PowerState.POWERING_ON: base.ON,
           sushy.PowerState.PAUSED: base.ON}


def _causes(error):
    """``error`` and what it wraps: chained exceptions, exceptions given
    as arguments, urllib3's ``reason`` (how requests reports TLS
    failures under sushy's ConnectionError).
    """
    pending, seen = [error], set()
    while pending:
        current = pending.pop()
        if not isinstance(current, BaseException) or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending.extend([current.__cause__, current.__context__,
                        getattr(current, 'reason', None)] +
                       list(current.args))


def untrusted_certificate(error):
    """Why the BMC's certificate was refused ('self-signed certificate',
    ...), or None when ``error`` is no certificate verification failure.
    """
    for cause in _causes(error):
        if isinstance(cause, ssl.SSLCertVerificationError):
            return cause.verify_message or cause.reason or str(cause)
    return None


class RedfishDriver(base.FencingDriver):
    """Fence through a Redfish BMC."""

    DEFAULT_PORT = 443

    @property
    def base_url(self):
        address = self.address
        if '://' in address:
            return address.rstrip('/')
        return 'https://%s:%d' % (address, self.port)

    @property
    def port(self):
        if '://' in (self.address or ''):
            return self.settings.get('port')
        return super().port

    def __init__(self, host_name, settings):
        super().__init__(host_name, settings)
        # NOTE: the root object is kept with the system: sushy ends the
        # BMC session when it is collected.
        self._connection = None
        self._cached_system = None

    def describe(self):
        described = super().describe()
        described['url'] = self.base_url
        return described

    def _system(self):
        # NOTE: one session per driver object, not per poll: BMCs allow
        # only a few sessions at a time.
        if self._cached_system is None:
            self._cached_system = self._connect()
        return self._cached_system

    def _connect(self):
        timeout = self.settings.get('timeout', DEFAULT_TIMEOUT)
        try:
            # NOTE: no server-side retries: sushy's default (10 retries,
            # 3 s apart) would outlast the fencing deadline.
            self._connection = sushy.Sushy(
                self.base_url, username=self.settings['username'],
                password=self.settings['password'],
                verify=self.settings.get('verify', True),
                server_side_retries=0, read_timeout=timeout,
                connect_timeout=timeout)
            system_id = self.settings.get('system_id')
            if system_id and not system_id.startswith('/'):
                system_id = SYSTEMS_PATH + system_id
            return self._connection.get_system(system_id or None)
        except sushy_exceptions.AccessError:
            raise self.failed('the Redfish BMC at %s refused the '
                              'credentials' % self.base_url)
        except (sushy_exceptions.SushyError, OSError) as error:
            raise self._failed(error)

    def close(self):
        # NOTE: sushy ends the session when its root object is collected.
        self._connection = self._cached_system = None

    def _failed(self, error):
        # NOTE: the next call logs in again (an expired session, a BMC
        # reset) rather than reuse a broken connection.
        self.close()
        refused = untrusted_certificate(error)
        if refused:
            return self.failed(
                "the Redfish BMC at %s presented a TLS certificate that "
                "cannot be verified (%s): set 'verify' in this host's entry "
                "to the CA bundle that signed it" % (self.base_url, refused))
        return self.failed('Redfish BMC at %s: %s' % (self.base_url, error))

    def _state_of(self, system):
        try:
            system.refresh()
        except (sushy_exceptions.SushyError, OSError) as error:
            raise self._failed(error)
        return _STATES.get(system.power_state, base.UNKNOWN)

    def power_state(self):
        return self._state_of(self._system())

    def _reset(self, reset_type):
        system = self._system()
        try:
            system.reset_system(reset_type)
        except (sushy_exceptions.SushyError, OSError) as error:
            raise self._failed('%s refused: %s' % (reset_type.value, error))

    def power_off(self):
        self._reset(sushy.ResetType.FORCE_OFF)

    def power_on(self):
        self._reset(sushy.ResetType.ON)

    def check(self):
        return self.power_state()
