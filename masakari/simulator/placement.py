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

"""A Placement API (reads) over the simulated cloud's compute hosts.

One resource provider per compute host (named after the host, as Nova's
compute node provider is), its inventories from the topology, and the
allocations Nova makes: each server holds its flavor's resources on its
host's provider, and an evacuation accepted by the scheduler holds them
on the destination too until it ends (then only the host the server is
on holds them). Usages are the sums of a provider's allocations, and the
scheduler's "does it fit" is Placement's capacity rule,
``used + amount <= (total - reserved) * allocation_ratio`` with
``min_unit``/``max_unit``/``step_size``.

Microversions 1.0 to 1.39 (``OpenStack-API-Version: placement X.Y``,
echoed); every call but the root needs an admin token; errors in
Placement's ``{"errors": [...]}`` format.
"""

import uuid

from masakari.simulator import keystone
from masakari.simulator import model
from masakari.simulator import web

MOUNT = '/placement'
MIN_VERSION = (1, 0)
MAX_VERSION = (1, 39)
SERVICE_TYPE = 'placement'
TITLES = {400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
          404: 'Not Found', 405: 'Method Not Allowed',
          406: 'Not Acceptable', 500: 'Internal Server Error',
          503: 'Service Unavailable'}


def provider_uuid(host):
    """The resource provider of a compute host (stable, like all ids)."""
    return model.stable_uuid('resource_provider', host)


def _text(version):
    return '%d.%d' % version


# --- the cloud's allocations (callers hold cloud.lock) ----------------------

def allocations(cloud, host):
    """Consumer (server id) -> resources held on ``host``'s provider."""
    held = {server.id: dict(server.resources)
            for server in cloud.servers.values() if server.host == host}
    for server_id, destination in cloud.evacuations.items():
        server = cloud.servers.get(server_id)
        if destination == host and server is not None:
            held[server_id] = dict(server.resources)
    return held


def usages(cloud, host):
    """Resource class -> amount allocated on ``host``'s provider."""
    used = {resource_class: 0 for resource_class in
            cloud.inventories.get(host, {})}
    for resources in allocations(cloud, host).values():
        for resource_class, amount in resources.items():
            used[resource_class] = used.get(resource_class, 0) + amount
    return used


def capacity(inventory):
    """What a class's inventory can hold, as Placement computes it."""
    return int((inventory['total'] - inventory['reserved']) *
               inventory['allocation_ratio'])


def fits(cloud, host, resources):
    """Whether Placement would accept allocating ``resources`` on host."""
    inventory = cloud.inventories.get(host, {})
    used = usages(cloud, host)
    for resource_class, amount in resources.items():
        record = inventory.get(resource_class)
        if record is None or not (
                record['min_unit'] <= amount <= record['max_unit'] and
                amount % record['step_size'] == 0 and
                used.get(resource_class, 0) + amount <= capacity(record)):
            return False
    return True


# --- the API ----------------------------------------------------------------

def fault_response(status, message, headers=None):
    """Placement's error document."""
    return web.Response(status, {'errors': [{
        'status': status, 'title': TITLES.get(status, 'Error'),
        'detail': message, 'code': 'placement.undefined_code',
        'request_id': 'req-%s' % uuid.uuid4()}]}, headers)


def requested_version(request):
    """The microversion asked for (1.0 when absent); HTTPError otherwise."""
    text = web.api_version(request, SERVICE_TYPE)
    if text is None:
        return MIN_VERSION
    if text == 'latest':
        return MAX_VERSION
    try:
        major, minor = (int(number) for number in text.split('.'))
    except ValueError:
        raise web.HTTPError(400, 'invalid version string: %s' % text)
    if not MIN_VERSION <= (major, minor) <= MAX_VERSION:
        raise web.HTTPError(406, 'Unacceptable version header: %s' % text)
    return major, minor


def root(cloud, request):
    return web.Response(200, {'versions': [{
        'id': 'v1.0', 'status': 'CURRENT', 'min_version': _text(MIN_VERSION),
        'max_version': _text(MAX_VERSION),
        'links': [{'rel': 'self',
                   'href': request.environ['base_url'] + MOUNT + '/'}]}]})


def _provider_view(request, host):
    identifier = provider_uuid(host)
    view = {'uuid': identifier, 'name': host, 'generation': 1,
            'links': [{'rel': 'self',
                       'href': '%s/resource_providers/%s' % (MOUNT,
                                                             identifier)}]}
    if request.environ['version'] >= (1, 14):
        view.update(parent_provider_uuid=None, root_provider_uuid=identifier)
    return view


def _host_of(cloud, identifier):
    for host in cloud.inventories:
        if provider_uuid(host) == identifier:
            return host
    raise web.HTTPError(404, 'No resource provider with uuid %s found'
                        % identifier)


def list_providers(cloud, request):
    """GET /resource_providers[?name=&uuid=]."""
    name, identifier = request.param('name'), request.param('uuid')
    with cloud.lock:
        return web.Response(200, {'resource_providers': [
            _provider_view(request, host) for host in cloud.inventories
            if name in (None, host) and
            identifier in (None, provider_uuid(host))]})


def show_provider(cloud, request, identifier):
    with cloud.lock:
        return web.Response(200, _provider_view(
            request, _host_of(cloud, identifier)))


def list_inventories(cloud, request, identifier):
    with cloud.lock:
        host = _host_of(cloud, identifier)
        return web.Response(200, {
            'inventories': {resource_class: dict(record) for resource_class,
                            record in cloud.inventories[host].items()},
            'resource_provider_generation': 1})


def list_usages(cloud, request, identifier):
    with cloud.lock:
        return web.Response(200, {
            'usages': usages(cloud, _host_of(cloud, identifier)),
            'resource_provider_generation': 1})


def provider_allocations(cloud, request, identifier):
    with cloud.lock:
        held = allocations(cloud, _host_of(cloud, identifier))
        return web.Response(200, {
            'allocations': {consumer: {'resources': resources}
                            for consumer, resources in held.items()},
            'resource_provider_generation': 1})


def consumer_allocations(cloud, request, consumer):
    """GET /allocations/{consumer}: empty for an unknown consumer."""
    with cloud.lock:
        server = cloud.servers.get(consumer)
        body = {'allocations': {}}
        if server is not None:
            hosts = [server.host, cloud.evacuations.get(consumer)]
            body['allocations'] = {
                provider_uuid(host): {'generation': 1,
                                      'resources': dict(server.resources)}
                for host in hosts if host in cloud.inventories}
            if request.environ['version'] >= (1, 12):
                body.update(project_id=server.project_id,
                            user_id=server.user_id)
            if request.environ['version'] >= (1, 28):
                body['consumer_generation'] = 1
        return web.Response(200, body)


ROUTER = web.Router([
    ('/resource_providers', {'GET': list_providers}),
    ('/resource_providers/{identifier}', {'GET': show_provider}),
    ('/resource_providers/{identifier}/inventories',
     {'GET': list_inventories}),
    ('/resource_providers/{identifier}/usages', {'GET': list_usages}),
    ('/resource_providers/{identifier}/allocations',
     {'GET': provider_allocations}),
    ('/allocations/{consumer}', {'GET': consumer_allocations}),
])


def handle(cloud, request):
    """Serve one Placement request, with its version headers."""
    headers = {'x-openstack-request-id': 'req-%s' % uuid.uuid4()}
    try:
        if request.path == '/':
            response = root(cloud, request)
        else:
            version = requested_version(request)
            headers.update({'OpenStack-API-Version': 'placement %s'
                            % _text(version),
                            'Vary': 'openstack-api-version'})
            request.environ['version'] = version
            token = keystone.valid_token(cloud,
                                         request.header('X-Auth-Token'))
            if token is None:
                raise web.HTTPError(401, keystone.AUTH_REQUIRED)
            if not token.is_admin:
                raise web.HTTPError(403, 'Policy does not allow placement '
                                    'to be performed.')
            handler, arguments = ROUTER.match(request.method, request.path)
            response = handler(cloud, request, **arguments)
    except web.HTTPError as error:
        response = fault_response(error.status, error.message, error.headers)
    response.headers.update(headers)
    return response
