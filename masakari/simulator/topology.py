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

"""Read a topology (JSON file or dict) into the simulator's objects.

The format is described in the package docstring (``masakari.simulator``).
Every mistake is a ValueError naming the entry, so a typo in an operator's
file is reported at start-up instead of silently ignored.
"""

import json
import math
import os

from masakari.simulator import model

TOPOLOGY_DIR = os.path.join(os.path.dirname(__file__), 'topologies')

TOP_LEVEL_KEYS = {'region', 'compute_service_name', 'max_limit', 'token_ttl',
                  'delays', 'projects', 'users', 'hosts', 'servers',
                  'aggregates', 'faults', 'service_down_time',
                  'boot_time', 'evacuation_workers', 'evacuation_queue',
                  'flavors'}
DELAY_KEYS = {'evacuate', 'stop', 'start'}
DEFAULT_DELAYS = {'evacuate': 2.0, 'stop': 1.0, 'start': 1.0}
DEFAULT_USERS = [{'name': 'masakari', 'password': 'masakari',
                  'roles': {'service': ['admin']}, 'system_roles': ['admin']}]
DEFAULT_PROJECT = 'demo'
HOST_KEYS = {'name', 'state', 'status', 'disabled_reason', 'forced_down',
             'zone', 'binaries', 'max_servers', 'resources'}
SERVER_KEYS = {'name', 'id', 'host', 'project', 'vm_state', 'task_state',
               'power_state', 'metadata', 'locked', 'fail_evacuate',
               'evacuate_delay', 'count', 'flavor'}
AGGREGATE_KEYS = {'name', 'id', 'hosts', 'availability_zone', 'metadata'}
USER_KEYS = {'name', 'id', 'password', 'domain', 'roles', 'system_roles'}
# vm_states whose guest is not running (nova/compute/power_state.py).
POWERED_OFF_STATES = {'stopped', 'shelved', 'shelved_offloaded'}
# Nova's classic default flavors; a topology's ``flavors`` adds to them.
DEFAULT_FLAVORS = {
    'm1.tiny': {'vcpus': 1, 'ram': 512, 'disk': 1},
    'm1.small': {'vcpus': 1, 'ram': 2048, 'disk': 20},
    'm1.medium': {'vcpus': 2, 'ram': 4096, 'disk': 40},
    'm1.large': {'vcpus': 4, 'ram': 8192, 'disk': 80},
    'm1.xlarge': {'vcpus': 8, 'ram': 16384, 'disk': 160},
}
DEFAULT_FLAVOR = 'm1.small'
FLAVOR_KEYS = {'vcpus', 'ram', 'disk', 'ephemeral', 'swap', 'extra_specs'}
# A flavor extra spec that asks Placement for an amount of a class.
RESOURCES_PREFIX = 'resources:'
# The inventory of a compute host whose entry gives no ``resources``: a
# large host (about 500 m1.small servers), so that topologies written
# without resources never run short of room.
DEFAULT_INVENTORY = {
    'VCPU': {'total': 128, 'allocation_ratio': 4.0},
    'MEMORY_MB': {'total': 1048576, 'reserved': 512},
    'DISK_GB': {'total': 10240},
}
INVENTORY_KEYS = {'total', 'reserved', 'min_unit', 'max_unit', 'step_size',
                  'allocation_ratio'}


def load(source):
    """Return the topology dict of a file path or a bundled example name."""
    path = source
    if not os.path.exists(path):
        bundled = os.path.join(TOPOLOGY_DIR, '%s.json' % source)
        if not os.path.exists(bundled):
            raise ValueError('topology %s: no such file, and no bundled '
                             'topology of that name (%s)' %
                             (source, ', '.join(bundled_names())))
        path = bundled
    with open(path) as topology_file:
        try:
            return json.load(topology_file)
        except ValueError as error:
            raise ValueError('topology %s: invalid JSON: %s' % (path, error))


def bundled_names():
    """Names of the example topologies shipped with the package."""
    return sorted(name[:-5] for name in os.listdir(TOPOLOGY_DIR)
                  if name.endswith('.json'))


def _check_keys(what, entry, allowed):
    if not isinstance(entry, dict):
        raise ValueError('topology: %s must be an object, not %r' %
                         (what, entry))
    unknown = set(entry) - allowed
    if unknown:
        raise ValueError('topology: %s has unknown keys: %s (allowed: %s)' %
                         (what, ', '.join(sorted(unknown)),
                          ', '.join(sorted(allowed))))


def settings(topology):
    """Scalar settings with their defaults."""
    _check_keys('the topology', topology, TOP_LEVEL_KEYS)
    delays = dict(DEFAULT_DELAYS)
    given = topology.get('delays', {})
    _check_keys('delays', given, DELAY_KEYS)
    delays.update({key: float(value) for key, value in given.items()})
    return {
        'region': topology.get('region', 'RegionOne'),
        'compute_service_name': topology.get('compute_service_name', 'nova'),
        'max_limit': int(topology.get('max_limit', 1000)),
        'token_ttl': float(topology.get('token_ttl', 3600)),
        'delays': delays,
        # Nova's [DEFAULT]/service_down_time: how long a dead host's
        # compute service is still reported up.
        'service_down_time': float(topology.get('service_down_time', 60)),
        # Seconds from a power on to the compute service reporting again.
        'boot_time': float(topology.get('boot_time', 0)),
        # How many evacuations Nova carries out at once (the others wait
        # for a free one, in order); 0: no limit.
        'evacuation_workers': int(topology.get('evacuation_workers', 0)),
        # How many accepted evacuations may wait for a worker; one more is
        # refused with 429 (Nova's API and conductor overloaded); None:
        # no bound.
        'evacuation_queue': (None if topology.get('evacuation_queue') is None
                             else int(topology['evacuation_queue'])),
    }


def build_projects(topology):
    """Projects named anywhere in the topology, by name."""
    names = [DEFAULT_PROJECT]
    for entry in topology.get('projects', []):
        names.append(entry['name'] if isinstance(entry, dict) else entry)
    for user in topology.get('users', DEFAULT_USERS):
        names.extend(user.get('roles', {}))
    names.extend(server['project'] for server in topology.get('servers', [])
                 if 'project' in server)
    domains = {entry['name']: entry.get('domain', 'Default')
               for entry in topology.get('projects', [])
               if isinstance(entry, dict)}
    return {name: model.Project(id=model.stable_uuid('project', name),
                                name=name,
                                domain_name=domains.get(name, 'Default'))
            for name in names}


def build_users(topology, projects):
    users = {}
    for entry in topology.get('users', DEFAULT_USERS):
        _check_keys('user %r' % entry.get('name'), entry, USER_KEYS)
        user = model.User(
            id=entry.get('id', model.stable_uuid('user', entry['name'])),
            name=entry['name'], password=entry['password'],
            domain_name=entry.get('domain', 'Default'),
            project_roles={projects[name].id: list(roles)
                           for name, roles in entry.get('roles', {}).items()},
            system_roles=list(entry.get('system_roles', [])))
        users[user.id] = user
    return users


def build_services(topology):
    """One service per (host, binary), in file order."""
    services = {}
    for entry in topology.get('hosts', []):
        if isinstance(entry, str):
            entry = {'name': entry}
        _check_keys('host %r' % entry.get('name'), entry, HOST_KEYS)
        for binary in entry.get('binaries', ['nova-compute']):
            service = model.Service(
                id=model.stable_uuid('service', '%s/%s' % (entry['name'],
                                                           binary)),
                binary=binary, host=entry['name'],
                zone=entry.get('zone', 'nova') if binary == 'nova-compute'
                else 'internal',
                status=entry.get('status', 'enabled'),
                state=entry.get('state', 'up'),
                disabled_reason=entry.get('disabled_reason'),
                forced_down=bool(entry.get('forced_down', False)))
            if service.status not in ('enabled', 'disabled'):
                raise ValueError('topology: host %r: status must be enabled '
                                 'or disabled' % entry['name'])
            if service.state not in ('up', 'down'):
                raise ValueError('topology: host %r: state must be up or '
                                 'down' % entry['name'])
            services[service.id] = service
    return services


def host_capacities(topology):
    """Host name -> max_servers (only for hosts that set it)."""
    return {entry['name']: int(entry['max_servers'])
            for entry in topology.get('hosts', [])
            if isinstance(entry, dict) and entry.get('max_servers')
            is not None}


def _inventory(host, resources):
    """One resource class's inventory record, Placement's fields filled.

    ``resources`` is a total (a number) or an object of INVENTORY_KEYS.
    """
    record = resources if isinstance(resources, dict) else {
        'total': resources}
    _check_keys('host %r resource inventory' % host, record, INVENTORY_KEYS)
    total = int(record.get('total', 0))
    inventory = {'total': total, 'reserved': int(record.get('reserved', 0)),
                 'min_unit': int(record.get('min_unit', 1)),
                 'max_unit': int(record.get('max_unit', total)),
                 'step_size': int(record.get('step_size', 1)),
                 'allocation_ratio': float(record.get('allocation_ratio',
                                                      1.0))}
    if total < 1 or inventory['reserved'] < 0 or \
            inventory['allocation_ratio'] <= 0:
        raise ValueError('topology: host %r: an inventory needs total >= '
                         '1, reserved >= 0 and allocation_ratio > 0' % host)
    return inventory


def inventories(entry):
    """Resource class -> inventory of one ``hosts`` entry: the given
    ``resources`` over DEFAULT_INVENTORY (a bare number is a total with
    allocation ratio 1.0; ``null`` removes a default class).
    """
    if isinstance(entry, str):
        entry = {'name': entry}
    given = entry.get('resources', {})
    if not isinstance(given, dict):
        raise ValueError('topology: host %r: resources must be an object '
                         'of resource class -> inventory' % entry['name'])
    merged = dict(DEFAULT_INVENTORY, **given)
    return {resource_class: _inventory(entry['name'], record)
            for resource_class, record in merged.items()
            if record is not None}


def build_inventories(topology):
    """Compute host name -> its inventories (defaults when not given)."""
    return {(entry if isinstance(entry, str) else entry['name']):
            inventories(entry)
            for entry in topology.get('hosts', [])
            if isinstance(entry, str) or
            'nova-compute' in entry.get('binaries', ['nova-compute'])}


def build_flavors(topology):
    """Flavor name -> flavor (DEFAULT_FLAVORS and the topology's)."""
    given = topology.get('flavors', {})
    if not isinstance(given, dict):
        raise ValueError('topology: flavors must be an object of name -> '
                         'flavor')
    flavors = {}
    for name, flavor in dict(DEFAULT_FLAVORS, **given).items():
        _check_keys('flavor %r' % name, flavor, FLAVOR_KEYS)
        flavors[name] = {'original_name': name,
                         'vcpus': int(flavor.get('vcpus', 1)),
                         'ram': int(flavor.get('ram', 512)),
                         'disk': int(flavor.get('disk', 0)),
                         'ephemeral': int(flavor.get('ephemeral', 0)),
                         'swap': int(flavor.get('swap', 0)),
                         'extra_specs': dict(flavor.get('extra_specs', {}))}
    return flavors


def flavor_resources(flavor):
    """What Nova asks Placement for a flavor: VCPU, MEMORY_MB, DISK_GB
    (root + ephemeral + swap rounded up to GB), then ``resources:CLASS``
    extra specs, which override (0 drops the class).
    """
    resources = {'VCPU': flavor['vcpus'], 'MEMORY_MB': flavor['ram'],
                 'DISK_GB': (flavor['disk'] + flavor['ephemeral'] +
                             math.ceil(flavor['swap'] / 1024))}
    for key, value in flavor['extra_specs'].items():
        if key.startswith(RESOURCES_PREFIX):
            resources[key[len(RESOURCES_PREFIX):]] = int(value)
    return {resource_class: amount
            for resource_class, amount in resources.items() if amount > 0}


def build_servers(entries, projects, users, compute_hosts, flavors=None):
    """Servers of topology entries (``count`` expands to name-1..name-N).

    :param flavors: name -> flavor (build_flavors); DEFAULT_FLAVORS when
        None.
    """
    flavors = flavors or build_flavors({})
    default_user = next(iter(users.values()))
    servers = []
    for entry in entries:
        _check_keys('server %r' % entry.get('name'), entry, SERVER_KEYS)
        flavor = flavors.get(entry.get('flavor', DEFAULT_FLAVOR))
        if flavor is None:
            raise ValueError('topology: server %r: unknown flavor %r '
                             '(known: %s)' % (entry.get('name'),
                                              entry.get('flavor'),
                                              ', '.join(sorted(flavors))))
        if entry.get('host') not in compute_hosts:
            raise ValueError('topology: server %r: host %r is not a '
                             'nova-compute host' % (entry.get('name'),
                                                    entry.get('host')))
        project = entry.get('project', DEFAULT_PROJECT)
        if project not in projects:
            raise ValueError('server %r: unknown project %r (servers added '
                             'at run time use existing projects)' %
                             (entry['name'], project))
        count = entry.get('count')
        names = ([entry['name']] if count is None else
                 ['%s-%d' % (entry['name'], i) for i in range(1, count + 1)])
        if count is not None and 'id' in entry:
            raise ValueError('topology: server %r: id and count exclude '
                             'each other' % entry['name'])
        vm_state = entry.get('vm_state', 'active')
        for name in names:
            servers.append(model.Server(
                id=entry.get('id', model.stable_uuid('server', name)),
                name=name, project_id=projects[project].id,
                user_id=default_user.id, host=entry['host'],
                vm_state=vm_state, task_state=entry.get('task_state'),
                power_state=entry.get(
                    'power_state', model.SHUTDOWN
                    if vm_state in POWERED_OFF_STATES else model.RUNNING),
                metadata=dict(entry.get('metadata', {})),
                locked=bool(entry.get('locked', False)),
                locked_by='admin' if entry.get('locked') else None,
                fail_evacuate=bool(entry.get('fail_evacuate', False)),
                evacuate_delay=entry.get('evacuate_delay'),
                flavor=flavor, resources=flavor_resources(flavor)))
    return servers


def build_aggregates(topology, compute_hosts):
    aggregates = {}
    for number, entry in enumerate(topology.get('aggregates', []), 1):
        _check_keys('aggregate %r' % entry.get('name'), entry,
                    AGGREGATE_KEYS)
        unknown = set(entry.get('hosts', [])) - set(compute_hosts)
        if unknown:
            raise ValueError('topology: aggregate %r: unknown hosts %s' %
                             (entry['name'], ', '.join(sorted(unknown))))
        aggregate = model.Aggregate(
            id=int(entry.get('id', number)), name=entry['name'],
            hosts=list(entry.get('hosts', [])),
            availability_zone=entry.get('availability_zone'),
            metadata=dict(entry.get('metadata', {})),
            uuid=model.stable_uuid('aggregate', entry['name']))
        aggregates[aggregate.id] = aggregate
    return aggregates
