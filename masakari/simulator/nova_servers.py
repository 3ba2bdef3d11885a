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

"""Nova's server listing (with all_tenants/host filters and paging) and show.

Servers are listed newest first, as Nova sorts by created_at then id
descending; pages hold at most the topology's ``max_limit`` servers and a
full page carries a ``servers_links`` "next" link, as in Nova.
"""

import hashlib
from urllib import parse

from masakari.simulator import nova_policy
from masakari.simulator import web

# nova/api/openstack/common.py: vm_state -> status, with task overrides.
STATUS = {'active': 'ACTIVE', 'building': 'BUILD', 'stopped': 'SHUTOFF',
          'resized': 'VERIFY_RESIZE', 'paused': 'PAUSED',
          'suspended': 'SUSPENDED', 'rescued': 'RESCUE', 'error': 'ERROR',
          'deleted': 'DELETED', 'soft-delete': 'SOFT_DELETED',
          'shelved': 'SHELVED', 'shelved_offloaded': 'SHELVED_OFFLOADED'}
TASK_STATUS = {'rebuilding': 'REBUILD', 'rebooting': 'REBOOT',
               'migrating': 'MIGRATING', 'resize_prep': 'RESIZE'}
TRUE_STRINGS = ('', '1', 't', 'true', 'on', 'y', 'yes')
FALSE_STRINGS = ('0', 'f', 'false', 'off', 'n', 'no')


def _links(base_url, server_id):
    href = '%s/compute/v2.1/servers/%s' % (base_url, server_id)
    return [{'rel': 'self', 'href': href},
            {'rel': 'bookmark', 'href': href.replace('/v2.1', '')}]


def _host_status(cloud, server):
    service = cloud.compute_service(server.host)
    if service is None:
        return ''
    if not service.is_up:
        return 'DOWN'
    return 'MAINTENANCE' if service.status == 'disabled' else 'UP'


def server_view(cloud, request, server):
    """The 2.53 representation; OS-EXT-SRV-ATTR:* only for admins."""
    base_url = request.environ['base_url']
    status = STATUS.get(server.vm_state, 'UNKNOWN')
    if server.vm_state in ('active', 'stopped', 'error'):
        status = TASK_STATUS.get(server.task_state, status)
    service = cloud.compute_service(server.host)
    view = {
        'id': server.id, 'name': server.name, 'status': status,
        'tenant_id': server.project_id, 'user_id': server.user_id,
        'metadata': dict(server.metadata),
        'hostId': hashlib.sha224(('%s%s' % (server.project_id, server.host))
                                 .encode()).hexdigest()
        if server.host else '',
        'image': '', 'flavor': dict(server.flavor,
                                    extra_specs=dict(
                                        server.flavor['extra_specs'])),
        'created': server.created_at, 'updated': server.updated_at,
        'addresses': {}, 'accessIPv4': '', 'accessIPv6': '',
        'links': _links(base_url, server.id),
        'OS-DCF:diskConfig': 'MANUAL', 'progress': 0,
        'OS-EXT-AZ:availability_zone': service.zone if service else '',
        'config_drive': '', 'key_name': None,
        'OS-SRV-USG:launched_at': server.created_at,
        'OS-SRV-USG:terminated_at': None,
        'security_groups': [{'name': 'default'}],
        'OS-EXT-STS:task_state': server.task_state,
        'OS-EXT-STS:vm_state': server.vm_state,
        'OS-EXT-STS:power_state': server.power_state,
        'os-extended-volumes:volumes_attached': [],
        'locked': server.locked, 'description': None, 'tags': [],
    }
    if server.fault and server.vm_state in ('error', 'deleted'):
        view['fault'] = dict(server.fault)
    if nova_policy.is_admin(request):
        view.update({
            'OS-EXT-SRV-ATTR:host': server.host,
            'OS-EXT-SRV-ATTR:hypervisor_hostname': server.host,
            'OS-EXT-SRV-ATTR:instance_name': 'instance-%s' % server.id[:8],
            'OS-EXT-SRV-ATTR:hostname': server.name,
            'OS-EXT-SRV-ATTR:reservation_id': 'r-%s' % server.id[:8],
            'OS-EXT-SRV-ATTR:launch_index': 0,
            'OS-EXT-SRV-ATTR:kernel_id': '', 'OS-EXT-SRV-ATTR:ramdisk_id': '',
            'OS-EXT-SRV-ATTR:root_device_name': '/dev/vda',
            'OS-EXT-SRV-ATTR:user_data': None,
            'host_status': _host_status(cloud, server),
        })
    return view


def _all_tenants(request):
    value = request.param('all_tenants')
    if value is None:
        return False
    if value.lower() in TRUE_STRINGS:
        return True
    if value.lower() in FALSE_STRINGS:
        return False
    raise web.HTTPError(400, "Unrecognized value '%s', acceptable values "
                        "are: '0', '1', 'f', 'false', 'n', 'no', 'off', "
                        "'on', 't', 'true', 'y', 'yes'" % value)


def _limit(cloud, request):
    value = request.param('limit')
    if value is None:
        return cloud.max_limit
    if not value.isdigit():
        raise web.HTTPError(400, "Invalid input for query parameters limit. "
                            "Value: %s. '%s' does not match '^[0-9]*$'"
                            % (value, value))
    return min(int(value), cloud.max_limit)


def _selected(cloud, request, detail):
    """The servers a listing request selects, newest first."""
    token = request.environ['token']
    if _all_tenants(request):
        nova_policy.require_admin(
            request, 'os_compute_api:servers:%s:get_all_tenants'
            % ('detail' if detail else 'index'))
        servers = list(cloud.servers.values())
    else:
        project_id = token.project.id if token.project else None
        servers = [server for server in cloud.servers.values()
                   if server.project_id == project_id]
    # NOTE: Nova drops admin-only filters such as host for other callers.
    host = request.param('host') if token.is_admin else None
    return [server for server in reversed(servers)
            if host is None or server.host == host]


def _page(cloud, request, detail):
    limit = _limit(cloud, request)
    servers = _selected(cloud, request, detail)
    marker = request.param('marker')
    if marker is not None:
        ids = [server.id for server in servers]
        if marker not in ids:
            raise web.HTTPError(400, 'marker [%s] not found' % marker)
        servers = servers[ids.index(marker) + 1:]
    page = servers[:limit]
    body = {'servers': page}
    if page and len(page) == limit:
        params = [(key, value) for key, value in parse.parse_qsl(
            request.query_string, keep_blank_values=True) if key != 'marker']
        params.append(('marker', page[-1].id))
        body['servers_links'] = [{'rel': 'next', 'href': '%s/compute%s?%s' % (
            request.environ['base_url'], request.path,
            parse.urlencode(params))}]
    return body


def list_servers(cloud, request):
    """GET /servers: ids, names and links."""
    with cloud.lock:
        body = _page(cloud, request, detail=False)
        body['servers'] = [
            {'id': server.id, 'name': server.name,
             'links': _links(request.environ['base_url'], server.id)}
            for server in body['servers']]
    return web.Response(200, body)


def list_servers_detail(cloud, request):
    """GET /servers/detail?all_tenants=&host=&limit=&marker=."""
    with cloud.lock:
        body = _page(cloud, request, detail=True)
        body['servers'] = [server_view(cloud, request, server)
                           for server in body['servers']]
    return web.Response(200, body)


def show_server(cloud, request, server_id):
    """GET /servers/{id}."""
    with cloud.lock:
        server = nova_policy.visible_server(cloud, request, server_id)
        return web.Response(200, {'server': server_view(cloud, request,
                                                        server)})
