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

"""The ``monitor`` fencing driver: the host monitor has already fenced.

For sites where the host monitor fences by itself (masakari-monitors'
host monitor under Pacemaker, whose STONITH powers a failed node off
before the monitor reports it). No BMC is called: the host failure
notification is the evidence, accepted only when its payload says the
node left the cluster cleanly fenced, that is ``cluster_status`` OFFLINE
with ``host_status`` NORMAL, which is what that monitor sends after a
successful STONITH. Any other payload fails the fencing, and so the
recovery, rather than evacuate a host that may still run its instances.
"""

from masakari.fencing import base

FENCED_PAYLOAD = {'cluster_status': 'OFFLINE', 'host_status': 'NORMAL'}


class MonitorDriver(base.FencingDriver):
    """Trust the host monitor's report; no BMC, no credentials."""

    REQUIRED_SETTINGS = ()
    CAN_POWER_ON = False

    def describe(self):
        return {'driver': self.name, 'address': None, 'port': None,
                'system_id': None}

    def power_state(self):
        return base.UNKNOWN

    def _no_bmc(self, what):
        return self.failed('the monitor driver has no BMC to %s the host '
                           'with' % what)

    def power_off(self):
        raise self._no_bmc('power off')

    def power_on(self):
        raise self._no_bmc('power on')

    def check(self):
        return base.UNKNOWN

    def fence(self, notification_payload=None):
        payload = notification_payload or {}
        seen = {key: str(payload.get(key, '')).upper()
                for key in FENCED_PAYLOAD}
        if seen != FENCED_PAYLOAD:
            raise self.failed(
                'the notification does not report a fenced host '
                '(cluster_status %s, host_status %s; fenced means '
                'cluster_status OFFLINE and host_status NORMAL)'
                % (payload.get('cluster_status'),
                   payload.get('host_status')))
        return base.FenceResult(driver=self.name, address=None,
                                state_before=base.UNKNOWN,
                                state_after=base.OFF, seconds=0.0)
