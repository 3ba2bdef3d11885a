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

"""Fill the capacity model of a segment from Masakari, Nova and Placement.

Masakari gives the segment's hosts (reserved, on maintenance) and the
order of its reserved hosts; Nova the state of their compute services
(one request) and, for the hosts whose failure is considered, their
servers (those a recovery evacuates, by the recovery's own rule); the
Placement provider named after each host (or its fully qualified name)
its inventories and its allocations, whose sums are its usages. A
server's resources are its allocations on its host's provider. Nested
providers (vGPUs, ...) are not modelled.

The Placement and server reads run READERS at a time.
"""

import concurrent.futures

from oslo_log import log as logging

from masakari.capacity import model
from masakari.capacity import selection
from masakari.compute import nova
from masakari.compute import placement
from masakari import objects

LOG = logging.getLogger(__name__)

READERS = 8


def reserved_hosts(context, segment_uuid):
    """Names of the segment's reserved hosts not on maintenance, in the
    order a reserved-host recovery tries them.
    """
    return [host.name for host in objects.HostList.get_all(
        context, filters={'failover_segment_id': segment_uuid,
                          'reserved': True, 'on_maintenance': False})]


def _provider_names(providers):
    """Host name -> provider uuid: a provider named after the host, or
    after its fully qualified name (compute node names often are).
    """
    by_host = {}
    for name, uuid in sorted(providers.items()):
        by_host.setdefault(name.split('.')[0], uuid)
    by_host.update(providers)
    return by_host


def _inventory(host, inventories, allocations):
    host.allocations = allocations
    for resource_class, record in inventories.items():
        host.capacity[resource_class] = int(
            (record['total'] - record['reserved']) *
            record['allocation_ratio'])
        host.max_unit[resource_class] = record['max_unit']
    for resources in allocations.values():
        for resource_class, amount in resources.items():
            host.used[resource_class] = (host.used.get(resource_class, 0) +
                                         amount)


def _flavor_resources(server):
    """What the server's flavor (embedded since compute 2.47) asks for:
    for a server without allocations on its host's provider.
    """
    flavor = getattr(server, 'flavor', None) or {}
    return {'VCPU': flavor.get('vcpus', 0),
            'MEMORY_MB': flavor.get('ram', 0),
            'DISK_GB': flavor.get('disk', 0) + flavor.get('ephemeral', 0)}


def _servers(host, nova_servers):
    chosen = selection.select(nova_servers)
    ha_enabled = {server.id for server in chosen.ha_enabled}
    servers = []
    for server in chosen.evacuated():
        resources = host.allocations.get(server.id)
        if resources is None:
            LOG.warning('Instance %(uuid)s has no allocation on the '
                        'resource provider of %(host)s: its flavor is used.',
                        {'uuid': server.id, 'host': host.name})
            resources = _flavor_resources(server)
        servers.append(model.Server(
            id=server.id, name=server.name, host=host.name,
            resources=dict(resources), priority=selection.priority(server),
            ha_enabled=server.id in ha_enabled,
            vm_state=getattr(server, nova.VM_STATE, None)))
    return servers


def read_segment(context, segment, servers_of=None):
    """The capacity model of a FailoverSegment.

    :param servers_of: names of the hosts whose servers are read (those
        whose failure is considered); None: every host's.
    :raises: CapacityUnknown, NovaUnreachable, MasakariException.
    """
    records = sorted(objects.HostList.get_all(
        context, filters={'failover_segment_id': segment.uuid}),
        key=lambda record: record.name)
    services = nova.API().compute_services(context)
    providers = _provider_names(placement.API().providers(context))
    hosts = {}
    for record in records:
        service = services.get(record.name)
        hosts[record.name] = model.Host(
            name=record.name, reserved=record.reserved,
            on_maintenance=record.on_maintenance,
            service_up=service is not None and service.state == 'up',
            service_enabled=service is not None and
            service.status == 'enabled')
    placement_api, nova_api = placement.API(), nova.API()

    def read(host):
        provider = providers.get(host.name)
        if provider is None:
            LOG.warning('No Placement resource provider for host %s: it '
                        'has no room.', host.name)
            _inventory(host, {}, {})
        else:
            _inventory(host, placement_api.inventories(context, provider),
                       placement_api.allocations(context, provider))
        if servers_of is None or host.name in servers_of:
            host.servers = _servers(host, nova_api.get_servers(context,
                                                               host.name))

    with concurrent.futures.ThreadPoolExecutor(READERS) as pool:
        # NOTE: list() re-raises the first read that failed.
        list(pool.map(read, hosts.values()))
    return model.Segment(
        name=segment.name, uuid=segment.uuid,
        recovery_method=segment.recovery_method, hosts=hosts,
        reserved_order=reserved_hosts(context, segment.uuid))
