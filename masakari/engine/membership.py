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

"""Which masakari-engine processes are alive, as the takeover sees them.

With ``[coordination]/backend_url`` every engine joins the tooz group
``masakari-engines`` under its ``[DEFAULT]/host`` and tooz keeps the
membership alive with heartbeats (Redis, etcd and ZooKeeper alike): a
member that stops beating leaves the group. Without a backend there is no
group: each engine renews the lease of the recoveries it runs in the
database instead (the ``updated_at`` of their notification rows), and a
recovery whose lease stops moving is the sign of a dead engine.
"""

import importlib

from oslo_log import log as logging

LOG = logging.getLogger(__name__)

GROUP = b'masakari-engines'


class DatabaseLeases:
    """No membership service: liveness is read from each recovery's lease.

    ``renews_leases`` tells the engine to renew the leases of the
    recoveries it runs; ``alive`` cannot tell about any engine.
    """

    renews_leases = True

    def start(self):
        """Nothing to join."""

    def stop(self):
        """Nothing to leave."""

    def refresh(self):
        """Nothing to read."""

    def alive(self, host):
        """None: only the lease can tell."""
        return None

    def count(self):
        """None: no group to count."""
        return None


class ToozGroup:
    """Membership of the ``masakari-engines`` tooz group.

    :param url: the tooz backend URL.
    :param host: this engine's member id ([DEFAULT]/host).
    """

    renews_leases = False

    def __init__(self, url, host):
        self.url = url
        self.member = host.encode('utf-8')
        self.coordinator = None
        self.members = frozenset()
        # NOTE: imported on use: tooz costs the start of every engine
        # about half a second, and only deployments with a backend need it.
        self.tooz = importlib.import_module('tooz.coordination')

    def start(self):
        """Join the group (created on first use); tooz beats from now on.

        NOTE: a member id that is still in the group is the previous
        process of this engine host, whose beats stopped: it is ours.
        """
        coordinator = self.tooz.get_coordinator(self.url, self.member)
        coordinator.start(start_heart=True)
        self.coordinator = coordinator
        try:
            coordinator.create_group(GROUP).get()
        except self.tooz.GroupAlreadyExist:
            pass
        try:
            coordinator.join_group(GROUP).get()
        except self.tooz.MemberAlreadyExist:
            pass

    def stop(self):
        """Leave the group and the backend."""
        if self.coordinator is None:
            return
        try:
            self.coordinator.leave_group(GROUP).get()
        except self.tooz.ToozError:
            LOG.debug('Could not leave the engine group', exc_info=True)
        try:
            self.coordinator.stop()
        except self.tooz.ToozError:
            LOG.debug('Could not stop the coordinator', exc_info=True)
        self.coordinator = None

    def refresh(self):
        """Read the members once per watch round.

        :raises: tooz errors when the backend cannot be reached.
        """
        if self.coordinator is None:
            self.start()
        self.members = frozenset(
            self.coordinator.get_members(GROUP).get())

    def alive(self, host):
        """Whether ``host`` is a member, as of the last refresh."""
        return host.encode('utf-8') in self.members

    def count(self):
        """How many engines are members, as of the last refresh."""
        return len(self.members)


def for_config(conf):
    """The membership the options ask for."""
    if conf.coordination.backend_url:
        return ToozGroup(conf.coordination.backend_url, conf.host)
    return DatabaseLeases()
