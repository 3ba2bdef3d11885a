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

"""Nova's os-services and os-aggregates resources (admin only).

Services are listed with the host/binary filters and updated by UUID
(microversion 2.53 form); aggregates are listed, shown, and gain or lose
hosts, with Nova's 404/409 answers.
"""

import uuid

from masakari.simulator import model
from masakari.simulator import nova_policy
from masakari.simulator import web

SERVICE_UPDATE_KEYS = ('status', 'disabled_reason', 'forced_down')


def service_view(service):
    return {'id': service.id, 'binary': service.binary,
            'disabled_reason': service.disabled_reason,
            'host': service.host,
            # NOTE: Nova reports a forced-down service as down.
            'state': 'up' if service.is_up else 'down',
            'status': service.status, 'updated_at': service.last_report(),
            'forced_down': service.forced_down, 'zone': service.zone}


def list_services(cloud, request):
    """GET /os-services?host=&binary=: services in creation order."""
    nova_policy.require_admin(request, 'os_compute_api:os-services:list')
    host, binary = request.param('host'), request.param('binary')
    with cloud.lock:
        services = [service_view(service)
                    for service in cloud.services.values()
                    if host in (None, service.host) and
                    binary in (None, service.binary)]
    return web.Response(200, {'services': services})


def _invalid(field, value, reason):
    raise web.HTTPError(400, 'Invalid input for field/attribute %s. '
                        'Value: %s. %s' % (field, value, reason))


def _validate_update(body):
    if not isinstance(body, dict):
        raise web.HTTPError(400, "Invalid input for field/attribute. "
                            "Value: %s. %r is not of type 'object'"
                            % (body, body))
    extra = sorted(set(body) - set(SERVICE_UPDATE_KEYS))
    if extra:
        raise web.HTTPError(400, 'Additional properties are not allowed '
                            '(%s unexpected)' % ', '.join(
                                repr(key) for key in extra))
    if body.get('status', 'enabled') not in ('enabled', 'disabled'):
        _invalid('status', body['status'], "%r is not one of "
                 "['enabled', 'disabled']" % body['status'])
    reason = body.get('disabled_reason', 'x')
    if not isinstance(reason, str) or not 1 <= len(reason) <= 255:
        _invalid('disabled_reason', reason,
                 'It must be a string of 1 to 255 characters')
    if not isinstance(body.get('forced_down', False), bool):
        _invalid('forced_down', body['forced_down'],
                 "%r is not of type 'boolean'" % body['forced_down'])
    if 'status' not in body and 'forced_down' not in body:
        raise web.HTTPError(400, "No updates were requested. Fields "
                            "'status' or 'forced_down' should be specified.")
    if 'disabled_reason' in body and body.get('status') != 'disabled':
        raise web.HTTPError(400, "Specifying 'disabled_reason' with status "
                            "'%s' is invalid." % body.get('status')
                            if 'status' in body else
                            "Specifying 'disabled_reason' without 'status' "
                            "is invalid.")


def update_service(cloud, request, service_id):
    """PUT /os-services/{uuid}: enable, disable (with reason), force down."""
    nova_policy.require_admin(request, 'os_compute_api:os-services:update')
    if request.environ['version'] < (2, 53):
        raise web.HTTPError(400, 'The simulator serves PUT '
                            '/os-services/{service_id} from microversion '
                            '2.53 only.')
    try:
        uuid.UUID(service_id)
    except ValueError:
        raise web.HTTPError(400, 'Invalid uuid %s' % service_id)
    body = request.json()
    _validate_update(body)
    with cloud.lock:
        service = cloud.services.get(service_id)
        if service is None:
            raise web.HTTPError(404, 'Service %s could not be found.'
                                % service_id)
        if body.get('status') == 'disabled':
            service.status = 'disabled'
            service.disabled_reason = body.get('disabled_reason')
        elif body.get('status') == 'enabled':
            service.status = 'enabled'
            service.disabled_reason = None
        if 'forced_down' in body:
            service.forced_down = body['forced_down']
        service.updated_at = model.isotime()
        return web.Response(200, {'service': service_view(service)})


def aggregate_view(aggregate):
    metadata = dict(aggregate.metadata)
    if aggregate.availability_zone:
        metadata['availability_zone'] = aggregate.availability_zone
    return {'id': aggregate.id, 'uuid': aggregate.uuid,
            'name': aggregate.name,
            'availability_zone': aggregate.availability_zone,
            'hosts': list(aggregate.hosts), 'metadata': metadata,
            'created_at': aggregate.created_at, 'updated_at': None,
            'deleted_at': None, 'deleted': False}


def list_aggregates(cloud, request):
    """GET /os-aggregates."""
    nova_policy.require_admin(request, 'os_compute_api:os-aggregates:index')
    with cloud.lock:
        return web.Response(200, {'aggregates': [
            aggregate_view(aggregate)
            for aggregate in cloud.aggregates.values()]})


def _aggregate(cloud, aggregate_id):
    aggregate = (cloud.aggregates.get(int(aggregate_id))
                 if aggregate_id.isdigit() else None)
    if aggregate is None:
        raise web.HTTPError(404, 'Aggregate %s could not be found.'
                            % aggregate_id)
    return aggregate


def show_aggregate(cloud, request, aggregate_id):
    """GET /os-aggregates/{id}."""
    nova_policy.require_admin(request, 'os_compute_api:os-aggregates:show')
    with cloud.lock:
        return web.Response(200, {'aggregate': aggregate_view(
            _aggregate(cloud, aggregate_id))})


def aggregate_action(cloud, request, aggregate_id):
    """POST /os-aggregates/{id}/action: add_host or remove_host."""
    body = request.json()
    if not isinstance(body, dict) or len(body) != 1 or \
            next(iter(body)) not in ('add_host', 'remove_host'):
        raise web.HTTPError(400, 'Invalid request body: expected one of '
                            'add_host, remove_host')
    action, argument = next(iter(body.items()))
    nova_policy.require_admin(request,
                              'os_compute_api:os-aggregates:%s' % action)
    host = argument.get('host') if isinstance(argument, dict) else None
    if not isinstance(host, str) or not host:
        _invalid('host', host, "'host' is a required property")
    with cloud.lock:
        aggregate = _aggregate(cloud, aggregate_id)
        if action == 'add_host':
            if cloud.compute_service(host) is None:
                raise web.HTTPError(404, 'Compute host %s could not be '
                                    'found.' % host)
            if host in aggregate.hosts:
                raise web.HTTPError(409, 'Aggregate %s already has host %s.'
                                    % (aggregate.id, host))
            aggregate.hosts.append(host)
        else:
            if host not in aggregate.hosts:
                raise web.HTTPError(404, 'Aggregate %s has no host %s.'
                                    % (aggregate.id, host))
            aggregate.hosts.remove(host)
        return web.Response(200, {'aggregate': aggregate_view(aggregate)})
