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

"""The objects of the simulated cloud: services, servers, aggregates, users.

Plain data; the rules that change them live in the service modules
(``nova_*``, ``keystone``) and the whole set is held by ``state.Cloud``.
"""

import dataclasses
import datetime
import time
import uuid

# Stable ids: the same topology file always yields the same ids, so an
# operator can write them down and tests can predict them.
_NAMESPACE = uuid.UUID('7c1f3b52-3a8e-4a55-9a3c-6f0d2a3f5e11')

DEFAULT_DOMAIN_ID = 'default'

# Nova's power states (nova/compute/power_state.py).
RUNNING = 1
SHUTDOWN = 4


def stable_uuid(kind, name):
    """A UUID derived from a kind and a name (same input, same UUID)."""
    return str(uuid.uuid5(_NAMESPACE, '%s:%s' % (kind, name)))


def domain_id(name):
    """The id of a domain given by name or id (Default is ``default``)."""
    if name.lower() == DEFAULT_DOMAIN_ID:
        return DEFAULT_DOMAIN_ID
    return uuid.uuid5(_NAMESPACE, 'domain:%s' % name).hex


def isotime(moment=None):
    """Nova's timestamp format: ``2026-10-28T10:00:00Z``."""
    moment = moment or datetime.datetime.now(datetime.timezone.utc)
    return moment.strftime('%Y-%m-%dT%H:%M:%SZ')


@dataclasses.dataclass
class Service:
    id: str
    binary: str
    host: str
    zone: str
    status: str = 'enabled'
    state: str = 'up'
    disabled_reason: object = None
    forced_down: bool = False
    updated_at: str = dataclasses.field(default_factory=isotime)
    # NOTE: a class attribute, not a field (views and snapshots keep their
    # keys): while the host is dead, the monotonic time until which Nova
    # still reports the service up (its service_down_time since the last
    # heartbeat); None while the host is alive.
    heartbeat_until = None

    @property
    def is_up(self):
        return (self.state == 'up' and not self.forced_down and
                (self.heartbeat_until is None or
                 time.monotonic() < self.heartbeat_until))

    @property
    def heartbeating(self):
        """Whether the service reports (its host runs, state up)."""
        return self.state == 'up' and self.heartbeat_until is None

    def last_report(self):
        """What Nova shows as ``updated_at``: the last heartbeat or change
        of the record, whichever came last. A running service reports
        continuously; one that stopped keeps the time of its last report.
        """
        return isotime() if self.heartbeating else self.updated_at

    def stop_reporting(self):
        """Record the last heartbeat of a service that stops reporting."""
        if self.heartbeating:
            self.updated_at = isotime()


@dataclasses.dataclass
class Machine:
    """The physical host under a host's services, as its BMC sees it.

    ``power`` is the chassis power ('on' or 'off'); ``alive`` says whether
    the host runs (a crashed or hung host is powered on and not alive).
    """
    host: str
    power: str = 'on'
    alive: bool = True


@dataclasses.dataclass
class Server:
    id: str
    name: str
    project_id: str
    user_id: str
    host: object
    vm_state: str = 'active'
    task_state: object = None
    power_state: int = RUNNING
    metadata: dict = dataclasses.field(default_factory=dict)
    locked: bool = False
    locked_by: object = None
    created_at: str = dataclasses.field(default_factory=isotime)
    updated_at: str = dataclasses.field(default_factory=isotime)
    # Failure injection and per-server timing (not visible through Nova).
    fail_evacuate: bool = False
    evacuate_delay: object = None
    # The flavor as Nova shows it (2.47+), and what Placement allocates
    # for it: resource class -> amount.
    flavor: dict = dataclasses.field(default_factory=dict)
    resources: dict = dataclasses.field(default_factory=dict)
    # Nova's instance fault of the last failure (shown in error state).
    fault: object = None


@dataclasses.dataclass
class Aggregate:
    id: int
    name: str
    hosts: list
    availability_zone: object = None
    metadata: dict = dataclasses.field(default_factory=dict)
    uuid: str = ''
    created_at: str = dataclasses.field(default_factory=isotime)


@dataclasses.dataclass
class Project:
    id: str
    name: str
    domain_name: str = 'Default'

    @property
    def domain_id(self):
        return domain_id(self.domain_name)


@dataclasses.dataclass
class User:
    id: str
    name: str
    password: str
    domain_name: str = 'Default'
    # project id -> role names
    project_roles: dict = dataclasses.field(default_factory=dict)
    system_roles: list = dataclasses.field(default_factory=list)

    @property
    def domain_id(self):
        return domain_id(self.domain_name)


@dataclasses.dataclass
class Token:
    id: str
    user: User
    project: object
    system: bool
    roles: list
    issued_at: float
    expires_at: float

    @property
    def is_admin(self):
        return 'admin' in self.roles
