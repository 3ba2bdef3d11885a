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

"""The simulated cloud's state, its lock, its clock for delayed changes.

``Cloud`` is shared by the HTTP services and the control API; every read or
change of its objects happens under ``cloud.lock``. Asynchronous outcomes
(an evacuation finishing, a server stopping) are queued on one scheduler
thread so that stopping the simulator cancels them all.
"""

import dataclasses
import functools
import heapq
import itertools
import threading
import time

from masakari.simulator import calls
from masakari.simulator import faults
from masakari.simulator import model
from masakari.simulator import topology as topology_mod

HOST_FIELDS = {'state', 'status', 'disabled_reason', 'forced_down'}
MACHINE_FIELDS = {'power', 'alive', 'delay', 'source'}
SERVER_FIELDS = {'vm_state', 'task_state', 'power_state', 'host', 'metadata',
                 'locked', 'fail_evacuate', 'evacuate_delay'}


class Scheduler:
    """Run callables after a delay on one background thread."""

    def __init__(self):
        self._queue = []
        self._order = itertools.count()
        self._wakeup = threading.Condition()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name='simulator-scheduler')
        self._thread.start()

    def call_later(self, delay, function):
        """Run ``function()`` in ``delay`` seconds (at once when <= 0)."""
        if delay <= 0:
            function()
            return
        with self._wakeup:
            heapq.heappush(self._queue, (time.monotonic() + delay,
                                         next(self._order), function))
            self._wakeup.notify()

    def stop(self):
        with self._wakeup:
            self._stopped = True
            self._queue = []
            self._wakeup.notify()
        self._thread.join(5)

    def _run(self):
        while True:
            with self._wakeup:
                while not self._stopped and (
                        not self._queue or
                        self._queue[0][0] > time.monotonic()):
                    timeout = (self._queue[0][0] - time.monotonic()
                               if self._queue else None)
                    self._wakeup.wait(timeout)
                if self._stopped:
                    return
                function = heapq.heappop(self._queue)[2]
            function()


class Cloud:
    """Everything the simulated Keystone and Nova know, and the call log."""

    def __init__(self, topology):
        settings = topology_mod.settings(topology)
        self.region = settings['region']
        self.compute_service_name = settings['compute_service_name']
        self.max_limit = settings['max_limit']
        self.token_ttl = settings['token_ttl']
        self.delays = settings['delays']
        self.service_down_time = settings['service_down_time']
        self.boot_time = settings['boot_time']
        self.evacuation_workers = settings['evacuation_workers']
        self.evacuation_queue = settings['evacuation_queue']
        # The most evacuations in progress at once (accepted, not ended)
        # and how many were refused as over the queue's bound.
        self.peak_evacuations = 0
        self.refused_evacuations = 0
        # When each of Nova's evacuation workers is free again (a heap).
        self._workers_free_at = []
        self.projects = topology_mod.build_projects(topology)
        self.users = topology_mod.build_users(topology, self.projects)
        self.services = topology_mod.build_services(topology)
        self.capacities = topology_mod.host_capacities(topology)
        # Placement: host -> resource class -> inventory record.
        self.inventories = topology_mod.build_inventories(topology)
        self.flavors = topology_mod.build_flavors(topology)
        self.servers = {}
        self.aggregates = topology_mod.build_aggregates(
            topology, self.compute_hosts())
        self.tokens = {}
        # server id -> destination chosen (None: no valid host) while the
        # evacuation is in progress.
        self.evacuations = {}
        self.lock = threading.RLock()
        self.calls = calls.CallLog()
        self.faults = faults.FaultInjector(topology.get('faults', []))
        self.stopping = threading.Event()
        self.machines = {host: model.Machine(host)
                         for host in self.compute_hosts()}
        # Callables given (host, power, source) after a power change, e.g.
        # the BMC emulators that mirror it.
        self.power_listeners = []
        self.add_servers(topology.get('servers', []))
        self.scheduler = Scheduler()

    # --- queries (callers hold the lock) ------------------------------------

    def compute_hosts(self):
        return [service.host for service in self.services.values()
                if service.binary == 'nova-compute']

    def compute_service(self, host):
        for service in self.services.values():
            if service.host == host and service.binary == 'nova-compute':
                return service
        return None

    def project_by_id(self, project_id):
        for project in self.projects.values():
            if project.id == project_id:
                return project
        return None

    # --- control (used by the control API and by tests in-process) --------

    def update_host(self, name, **fields):
        """Change the services of a host: state up/down, status, ...;
        ``resources`` replaces its Placement inventories (a topology
        ``hosts`` entry's ``resources``, over the defaults).
        """
        unknown = set(fields) - HOST_FIELDS - {'resources'}
        if unknown:
            raise ValueError('unknown host fields: %s (allowed: %s)' %
                             (', '.join(sorted(unknown)),
                              ', '.join(sorted(HOST_FIELDS |
                                               {'resources'}))))
        with self.lock:
            services = [service for service in self.services.values()
                        if service.host == name]
            if not services:
                raise KeyError('no host named %s' % name)
            if 'resources' in fields:
                if name not in self.inventories:
                    raise ValueError('%s is not a compute host' % name)
                self.inventories[name] = topology_mod.inventories(
                    {'name': name, 'resources': fields.pop('resources')})
            for service in services:
                if fields.get('state') == 'down':
                    service.stop_reporting()
                for key, value in fields.items():
                    setattr(service, key, value)
            return [dataclasses.asdict(service) for service in services]

    def add_host(self, entry):
        """Add a host (a topology ``hosts`` entry); return its services."""
        entry = {'name': entry} if isinstance(entry, str) else entry
        added = topology_mod.build_services({'hosts': [entry]})
        with self.lock:
            if any(service.host == entry['name']
                   for service in self.services.values()):
                raise ValueError('host %s already exists' % entry['name'])
            self.services.update(added)
            for service in added.values():
                if service.binary == 'nova-compute':
                    self.machines[service.host] = model.Machine(
                        service.host)
                    self.inventories[service.host] = \
                        topology_mod.inventories(entry)
            if entry.get('max_servers') is not None:
                self.capacities[entry['name']] = int(entry['max_servers'])
        return [dataclasses.asdict(service) for service in added.values()]

    def add_servers(self, entries):
        """Add servers (topology ``servers`` entries); return them."""
        with self.lock:
            servers = topology_mod.build_servers(
                entries, self.projects, self.users, self.compute_hosts(),
                self.flavors)
            for server in servers:
                if server.id in self.servers:
                    raise ValueError('server id %s already exists' %
                                     server.id)
                self.servers[server.id] = server
            return [dataclasses.asdict(server) for server in servers]

    def update_server(self, server_id, **fields):
        """Change a server's fields directly (no Nova rule applies)."""
        unknown = set(fields) - SERVER_FIELDS
        if unknown:
            raise ValueError('unknown server fields: %s (allowed: %s)' %
                             (', '.join(sorted(unknown)),
                              ', '.join(sorted(SERVER_FIELDS))))
        with self.lock:
            server = self.servers.get(server_id)
            if server is None:
                raise KeyError('no server with id %s' % server_id)
            for key, value in fields.items():
                setattr(server, key, value)
            return dataclasses.asdict(server)

    def update_delays(self, **delays):
        """Change the seconds stop/start/evacuate take to finish."""
        unknown = set(delays) - set(self.delays)
        if unknown:
            raise ValueError('unknown delays: %s (allowed: %s)' %
                             (', '.join(sorted(unknown)),
                              ', '.join(sorted(self.delays))))
        with self.lock:
            self.delays.update({key: float(value)
                                for key, value in delays.items()})
            return dict(self.delays)

    def machine(self, name):
        """The machine of a compute host, as JSON-ready data."""
        with self.lock:
            machine = self.machines.get(name)
            if machine is None:
                raise KeyError('no compute host named %s' % name)
            service = self.compute_service(name)
            return dict(dataclasses.asdict(machine),
                        service_state='up' if service.is_up else 'down')

    def update_machine(self, name, **fields):
        """Power a host on or off, or make it crash or recover.

        ``power`` 'off' also stops the host; 'on' starts it (its compute
        service reports again after ``boot_time``). ``alive`` false is a
        crash with the power on; Nova keeps reporting the service up for
        ``service_down_time`` seconds unless it is forced down. ``delay``
        postpones the change (a BMC's power transition); ``source`` names
        who asked, for the power listeners.
        """
        unknown = set(fields) - MACHINE_FIELDS
        if unknown:
            raise ValueError('unknown machine fields: %s (allowed: %s)' %
                             (', '.join(sorted(unknown)),
                              ', '.join(sorted(MACHINE_FIELDS))))
        power, alive = fields.get('power'), fields.get('alive')
        if power not in (None, 'on', 'off'):
            raise ValueError("power must be 'on' or 'off'")
        if alive not in (None, True, False):
            raise ValueError('alive must be true or false')
        self.machine(name)
        change = functools.partial(self._change_machine, name, power, alive,
                                   fields.get('source', 'control'))
        self.scheduler.call_later(float(fields.get('delay') or 0), change)
        return self.machine(name)

    def _change_machine(self, name, power, alive, source):
        with self.lock:
            machine = self.machines[name]
            power_changed = power is not None and power != machine.power
            if power is not None:
                machine.power = power
            if power == 'off':
                alive = False
            elif power_changed:
                alive = None
                self.scheduler.call_later(self.boot_time, functools.partial(
                    self._change_machine, name, None, True, source))
            if alive is not None and alive != machine.alive:
                machine.alive = alive
                until = (None if alive else
                         time.monotonic() + self.service_down_time)
                for service in self.services.values():
                    if service.host == name:
                        if not alive:
                            service.stop_reporting()
                        service.heartbeat_until = until
            listeners = list(self.power_listeners) if power_changed else []
        for listener in listeners:
            listener(name, power, source)

    def accept_evacuation(self, server_id, destination):
        """Record an evacuation in progress. Call with the lock held."""
        self.evacuations[server_id] = destination
        self.peak_evacuations = max(self.peak_evacuations,
                                    len(self.evacuations))

    def evacuations_full(self):
        """Whether one more evacuation passes the queue's bound (then it
        is refused and counted). Call with the lock held.
        """
        if (self.evacuation_queue is None or not self.evacuation_workers or
                len(self.evacuations) < (self.evacuation_workers +
                                         self.evacuation_queue)):
            return False
        self.refused_evacuations += 1
        return True

    def evacuation_delay(self, duration):
        """Seconds from now until a new evacuation of ``duration``
        seconds ends, when at most ``evacuation_workers`` run at once (the
        others wait their turn). Call with the lock held.
        """
        if not self.evacuation_workers:
            return duration
        now = time.monotonic()
        free_at = self._workers_free_at
        start = (now if len(free_at) < self.evacuation_workers
                 else max(now, heapq.heappop(free_at)))
        heapq.heappush(free_at, start + duration)
        return start + duration - now

    def revoke_tokens(self):
        """Invalidate every issued token (clients must authenticate again)."""
        with self.lock:
            self.tokens.clear()

    def snapshot(self):
        """The whole state as JSON-ready data."""
        with self.lock:
            return {
                'services': [dataclasses.asdict(service)
                             for service in self.services.values()],
                'servers': [dataclasses.asdict(server)
                            for server in self.servers.values()],
                'aggregates': [dataclasses.asdict(aggregate)
                               for aggregate in self.aggregates.values()],
                'delays': dict(self.delays),
                'evacuations': {'in_progress': len(self.evacuations),
                                'peak': self.peak_evacuations,
                                'refused': self.refused_evacuations},
                'faults': self.faults.rules(),
                'machines': [dataclasses.asdict(machine)
                             for machine in self.machines.values()],
            }

    def close(self):
        self.stopping.set()
        self.scheduler.stop()
