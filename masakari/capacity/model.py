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

"""The read model of a failover segment's capacity: its hosts, what
Placement says each can hold and holds now, the servers a failure of each
would evacuate, and the hosts a recovery may evacuate them to.

Plain data (``reader`` fills it from Masakari, Nova and Placement), so
that the packing and its tests need no cloud.
"""

import dataclasses
import typing

from masakari.objects import fields

Method = fields.FailoverSegmentRecoveryMethod


@dataclasses.dataclass
class Server:
    """A server a host failure would evacuate."""

    id: str
    name: str
    host: str
    #: Resource class -> amount allocated to it on its host.
    resources: dict
    priority: int = 0
    ha_enabled: bool = True
    vm_state: str = 'active'


@dataclasses.dataclass
class Host:
    """A host of the segment, as Masakari, Nova and Placement see it."""

    name: str
    #: Resource class -> what its inventory holds: (total - reserved) *
    #: allocation_ratio, as Placement computes it.
    capacity: dict = dataclasses.field(default_factory=dict)
    #: Resource class -> allocated now (the provider's usages).
    used: dict = dataclasses.field(default_factory=dict)
    #: Resource class -> the largest amount one allocation may take.
    max_unit: dict = dataclasses.field(default_factory=dict)
    #: Consumer (server) uuid -> resources it holds on this host.
    allocations: dict = dataclasses.field(default_factory=dict)
    reserved: bool = False
    on_maintenance: bool = False
    #: Whether its nova-compute service is up, and enabled.
    service_up: bool = True
    service_enabled: bool = True
    #: The servers its failure would evacuate (None: not read).
    servers: typing.Optional[list] = None

    def free(self):
        """Resource class -> room left (never below 0)."""
        return {resource_class: max(total - self.used.get(resource_class, 0),
                                    0)
                for resource_class, total in self.capacity.items()}


@dataclasses.dataclass
class Segment:
    """A failover segment and its hosts."""

    name: str
    uuid: str
    recovery_method: str
    #: Host name -> Host, in name order.
    hosts: dict
    #: Names of its reserved hosts not on maintenance, in the order a
    #: reserved-host recovery tries them.
    reserved_order: list = dataclasses.field(default_factory=list)

    def failing(self):
        """The hosts that may fail: those not on maintenance."""
        return [host for host in self.hosts.values()
                if not host.on_maintenance]

    def auto_targets(self, failed=()):
        """Where Nova's scheduler may put servers: hosts not failed, not
        on maintenance, not reserved, whose nova-compute is enabled and
        up; in name order.
        """
        return [host for host in self.hosts.values()
                if host.name not in failed and not host.on_maintenance and
                not host.reserved and host.service_enabled and
                host.service_up]

    def reserved_targets(self, failed=()):
        """The reserved hosts a recovery may take, in its order; those
        whose nova-compute is down cannot run servers.
        """
        return [self.hosts[name] for name in self.reserved_order
                if name in self.hosts and name not in failed and
                self.hosts[name].service_up]

    def targets(self, failed=()):
        """The hosts the recovery method fills, in the order it fills
        them: auto, reserved hosts, or both (the priority methods, the
        preferred workflow's hosts first).
        """
        auto = self.auto_targets(failed)
        reserved = self.reserved_targets(failed)
        return {Method.AUTO: auto,
                Method.RESERVED_HOST: reserved,
                Method.AUTO_PRIORITY: auto + reserved}.get(
                    self.recovery_method, reserved + auto)

    def servers_of(self, failed):
        """The servers a failure of the ``failed`` hosts evacuates."""
        return [server for name in failed
                for server in self.hosts[name].servers or ()]
