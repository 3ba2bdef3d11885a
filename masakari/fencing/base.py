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

"""The fencing driver contract, and the power-off-and-confirm loop.

A fencing driver powers one compute host off through its BMC (or accepts
other evidence that it is off) before its instances are evacuated. Drivers
are found by name in the ``masakari.fencing.drivers`` entry-point
namespace; a site adds its own by registering a subclass of
:class:`FencingDriver` there (doc/source/admin/fencing-drivers.rst).

The contract:

* every failure (unreachable BMC, refused credentials, a protocol error,
  power still on at the deadline) raises ``exception.FencingFailed``, whose
  message never carries the password: drivers pass library messages
  through :meth:`FencingDriver.failed`, which strips it;
* :meth:`FencingDriver.fence` returns only once the BMC reports the host
  off, within ``power_off_timeout`` seconds of its start;
* nothing a driver returns or logs (``describe()``, ``repr()``, the
  :class:`FenceResult`) holds a secret.
"""

import abc
import dataclasses
import time

from oslo_log import log as logging
from stevedore import driver as stevedore_driver

import masakari.conf
from masakari import exception

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

NAMESPACE = 'masakari.fencing.drivers'

ON = 'on'
OFF = 'off'
UNKNOWN = 'unknown'

REDACTED = '***'


@dataclasses.dataclass
class FenceResult:
    """What a fencing did: recorded in the recovery's progress details."""

    driver: str
    address: str
    state_before: str
    state_after: str
    seconds: float


def driver_class(name):
    """The FencingDriver subclass registered under ``name``.

    :raises: stevedore's NoMatches when no such entry point exists, or the
        import error of the driver's module (a missing optional library).
    """
    return stevedore_driver.DriverManager(
        NAMESPACE, name, invoke_on_load=False).driver


class FencingDriver(abc.ABC):
    """One host's BMC, as configured by its entry in the fencing file.

    ``settings`` is the host's mapping from the file, with defaults filled
    in by ``masakari.fencing.config`` (``power_off_timeout`` and
    ``poll_interval`` always present).
    """

    #: Keys a host entry of this driver must have.
    REQUIRED_SETTINGS = ('address', 'username', 'password')
    #: Port used when the entry gives none (None: the driver has none).
    DEFAULT_PORT = None
    #: Whether ``power_on`` works: the return to service of a host fenced
    #: by a driver that cannot power it on waits for whoever fenced it.
    CAN_POWER_ON = True

    def __init__(self, host_name, settings):
        self.host_name = host_name
        self.settings = settings

    @classmethod
    def settings_problems(cls, settings):
        """Problems of one host entry for this driver (strings, no values).

        Subclasses with more rules extend the list this returns.
        """
        return ["'%s' is required by the %s driver"
                % (key, settings.get('driver')) for key in
                cls.REQUIRED_SETTINGS if settings.get(key) in (None, '')]

    @property
    def name(self):
        return self.settings['driver']

    @property
    def address(self):
        return self.settings.get('address')

    @property
    def port(self):
        return self.settings.get('port') or self.DEFAULT_PORT

    def describe(self):
        """Driver name, address, port and system id: never a secret."""
        return {'driver': self.name, 'address': self.address,
                'port': self.port,
                'system_id': self.settings.get('system_id')}

    def __repr__(self):
        return '<%s %s %s>' % (type(self).__name__, self.host_name,
                               self.describe())

    def failed(self, reason):
        """A FencingFailed for this host, with the password stripped.

        ``reason`` may be a library's exception or message, which could
        echo what it was given.
        """
        text = str(reason)
        password = self.settings.get('password')
        if password:
            text = text.replace(str(password), REDACTED)
        return exception.FencingFailed(host=self.host_name, reason=text)

    @abc.abstractmethod
    def power_state(self):
        """Read the power state: ON, OFF or UNKNOWN.

        :raises: FencingFailed when the BMC cannot be asked.
        """

    @abc.abstractmethod
    def power_off(self):
        """Ask for an immediate (hard) power off; do not wait for it.

        :raises: FencingFailed when the BMC refuses or cannot be reached.
        """

    @abc.abstractmethod
    def power_on(self):
        """Ask for a power on; do not wait for it.

        :raises: FencingFailed when the BMC refuses or cannot be reached.
        """

    @abc.abstractmethod
    def check(self):
        """Log in and read the power state, changing nothing.

        :returns: the power state.
        :raises: FencingFailed when the BMC cannot be reached or refuses
            the credentials.
        """

    def close(self):
        """Release the BMC session, if the driver keeps one.

        The driver may be used again afterwards (it logs in again). The
        default does nothing.
        """

    def fence(self, notification_payload=None):
        """Power the host off and wait until the BMC reports it off.

        A host already off is not powered off again. The payload of the
        host failure notification is given for drivers that use it as
        evidence; the BMC drivers ignore it.

        :returns: a FenceResult.
        :raises: FencingFailed on any error, or when the host is not
            reported off within power_off_timeout seconds.
        """
        try:
            return self._fence()
        except exception.FencingFailed:
            raise
        except Exception as error:
            # NOTE: a driver bug or an unexpected library error must still
            # stop the recovery, and without the password (hence no
            # traceback: a library's message may quote what it was given).
            failure = self.failed('unexpected error: %s' % error)
            LOG.error('Fencing driver %r failed: %s', self,
                      failure.kwargs['reason'])
            raise failure
        finally:
            self.close()

    def _fence(self):
        started = time.monotonic()
        deadline = started + self.settings['power_off_timeout']
        before = self.power_state()
        if before != OFF:
            LOG.info('Powering off host %s through %r', self.host_name,
                     self)
            self.power_off()
        state = before
        while state != OFF:
            if time.monotonic() >= deadline:
                raise self.failed(
                    'power state still %s %d seconds after the power off '
                    'request' % (state, self.settings['power_off_timeout']))
            time.sleep(min(self.settings['poll_interval'],
                           max(deadline - time.monotonic(), 0)))
            state = self.power_state()
        return FenceResult(driver=self.name, address=self.address,
                           state_before=before, state_after=state,
                           seconds=round(time.monotonic() - started, 3))
