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

"""Server actions: lock, unlock, os-resetState, os-stop, os-start, evacuate.

Checks and status codes follow Nova (202 for most actions, 200 with an empty
body for evacuate from 2.14, 409 for a wrong vm_state/task_state, 400 when
the source compute service is still up). Stop, start and evacuate finish
asynchronously after the topology's ``delays``; evacuate picks an enabled,
up compute host with room in Placement (or validates the requested one)
when it is accepted, and fails at once, as Nova's scheduler does, when
there is none (NoValidHost: the server in error on its host, with the
instance fault).
"""

import functools

from masakari.simulator import model
from masakari.simulator import nova_policy
from masakari.simulator import placement
from masakari.simulator import web

EVACUATE_KEYS_2_14 = {'host', 'adminPass'}
EVACUATE_KEYS_2_29 = {'host', 'adminPass', 'force'}
RESET_STATES = ('active', 'error')
NO_VALID_HOST = ('No valid host was found. There are not enough hosts '
                 'available.')


def _conflict_if_state(server, action, vm_states):
    if server.vm_state not in vm_states:
        raise web.HTTPError(409, "Cannot '%s' instance %s while it is in "
                            "vm_state %s" % (action, server.id,
                                             server.vm_state))
    if server.task_state is not None:
        raise web.HTTPError(409, "Cannot '%s' instance %s while it is in "
                            "task_state %s" % (action, server.id,
                                               server.task_state))


def _check_owner_action(request, server):
    if server.locked and not nova_policy.is_admin(request):
        raise web.HTTPError(409, 'Instance %s is locked' % server.id)
    if server.host is None:
        raise web.HTTPError(409, 'Instance %s is not ready' % server.id)


def _finish_later(cloud, delay, server_id, **fields):
    def finish():
        with cloud.lock:
            server = cloud.servers.get(server_id)
            if server is not None:
                for key, value in fields.items():
                    setattr(server, key, value)
                server.updated_at = model.isotime()
    cloud.scheduler.call_later(delay, finish)


def lock(cloud, request, server, argument):
    server.locked = True
    server.locked_by = 'admin' if nova_policy.is_admin(request) else 'owner'
    return web.Response(202)


def unlock(cloud, request, server, argument):
    if server.locked_by == 'admin':
        nova_policy.require_admin(
            request, 'os_compute_api:os-lock-server:unlock:unlock_override')
    server.locked = False
    server.locked_by = None
    return web.Response(202)


def reset_state(cloud, request, server, argument):
    nova_policy.require_admin(request,
                              'os_compute_api:os-admin-actions:reset_state')
    state = argument.get('state') if isinstance(argument, dict) else None
    if state not in RESET_STATES:
        raise web.HTTPError(400, "Invalid input for field/attribute state. "
                            "Value: %s. %r is not one of ['active', 'error']"
                            % (state, state))
    server.vm_state = state
    server.task_state = None
    return web.Response(202)


def stop(cloud, request, server, argument):
    _check_owner_action(request, server)
    _conflict_if_state(server, 'stop', ('active', 'error'))
    server.task_state = 'powering-off'
    _finish_later(cloud, cloud.delays['stop'], server.id, vm_state='stopped',
                  power_state=model.SHUTDOWN, task_state=None)
    return web.Response(202)


def start(cloud, request, server, argument):
    _check_owner_action(request, server)
    _conflict_if_state(server, 'start', ('stopped',))
    server.task_state = 'powering-on'
    _finish_later(cloud, cloud.delays['start'], server.id, vm_state='active',
                  power_state=model.RUNNING, task_state=None)
    return web.Response(202)


def _validate_evacuate(request, argument):
    version = request.environ['version']
    if version < (2, 14):
        allowed = {'host', 'adminPass', 'onSharedStorage'}
    else:
        allowed = EVACUATE_KEYS_2_29 if version >= (2, 29) \
            else EVACUATE_KEYS_2_14
    if not isinstance(argument, dict):
        raise web.HTTPError(400, "Invalid input for field/attribute "
                            "evacuate. Value: %s. %r is not of type "
                            "'object'" % (argument, argument))
    extra = sorted(set(argument) - allowed)
    if extra:
        raise web.HTTPError(400, 'Additional properties are not allowed '
                            '(%s were unexpected)' % ', '.join(
                                repr(key) for key in extra))
    host = argument.get('host')
    if host is not None and (not isinstance(host, str) or not host):
        raise web.HTTPError(400, 'Invalid input for field/attribute host. '
                            'Value: %s.' % host)


def _load(cloud, host):
    moving_in = sum(1 for target in cloud.evacuations.values()
                    if target == host)
    return moving_in + sum(1 for server in cloud.servers.values()
                           if server.host == host)


def _acceptable(cloud, host, server, forced=False):
    # NOTE: a forced evacuation skips the scheduler's filters, not the
    # claim of its resources in Placement.
    service = cloud.compute_service(host)
    capacity = cloud.capacities.get(host)
    return (service is not None and service.is_up and
            (forced or service.status == 'enabled') and
            (capacity is None or _load(cloud, host) < capacity) and
            placement.fits(cloud, host, server.resources))


def choose_destination(cloud, server, requested=None, forced=False):
    """The scheduler: the requested host if valid, else the least loaded
    of the hosts where the server's resources fit.

    Returns None when no host is valid (Nova's NoValidHost).
    """
    if requested is not None:
        return (requested if _acceptable(cloud, requested, server, forced)
                else None)
    candidates = [host for host in cloud.compute_hosts()
                  if host != server.host and
                  _acceptable(cloud, host, server)]
    if not candidates:
        return None
    return min(candidates, key=lambda host: (_load(cloud, host),
                                             candidates.index(host)))


def evacuate(cloud, request, server, argument):
    nova_policy.require_admin(request, 'os_compute_api:os-evacuate')
    _validate_evacuate(request, argument)
    requested = argument.get('host')
    if requested is not None:
        if cloud.compute_service(requested) is None:
            raise web.HTTPError(404, 'Compute host %s not found.' % requested)
        if requested == server.host:
            raise web.HTTPError(400, "The target host can't be the same "
                                "one.")
    _conflict_if_state(server, 'evacuate', ('active', 'stopped', 'error'))
    source = cloud.compute_service(server.host)
    if source is not None and source.is_up:
        raise web.HTTPError(400, 'Compute service of %s is still in use.'
                            % server.host)
    if cloud.evacuations_full():
        raise web.HTTPError(429, 'Too many evacuations in progress; retry '
                            'later.')
    destination = choose_destination(cloud, server, requested,
                                     bool(argument.get('force')))
    if destination is None:
        _no_valid_host(server)
        return _evacuate_response(request)
    server.task_state = 'rebuilding'
    cloud.accept_evacuation(server.id, destination)
    delay = (server.evacuate_delay if server.evacuate_delay is not None
             else cloud.delays['evacuate'])
    cloud.scheduler.call_later(cloud.evacuation_delay(delay),
                               functools.partial(_finish_evacuation, cloud,
                                                 server.id, server.vm_state))
    return _evacuate_response(request)


def _evacuate_response(request):
    if request.environ['version'] < (2, 14):
        return web.Response(200, {'adminPass': 'simulated'})
    return web.Response(200)


def _no_valid_host(server):
    """What Nova's conductor does when the scheduler finds no host for an
    evacuation: the server stays on its host, in error, with the fault.
    """
    server.vm_state = 'error'
    server.task_state = None
    server.fault = {'code': 500, 'created': model.isotime(),
                    'message': NO_VALID_HOST}


def _finish_evacuation(cloud, server_id, original_vm_state):
    with cloud.lock:
        destination = cloud.evacuations.pop(server_id, None)
        server = cloud.servers.get(server_id)
        if server is None:
            return
        server.task_state = None
        server.updated_at = model.isotime()
        if server.fail_evacuate:
            server.vm_state = 'error'
            return
        server.host = destination
        if original_vm_state == 'stopped':
            server.vm_state, server.power_state = 'stopped', model.SHUTDOWN
        else:
            server.vm_state, server.power_state = 'active', model.RUNNING


ACTIONS = {'lock': lock, 'unlock': unlock, 'os-resetState': reset_state,
           'os-stop': stop, 'os-start': start, 'evacuate': evacuate}


def server_action(cloud, request, server_id):
    """POST /servers/{id}/action: dispatch on the body's single key."""
    body = request.json()
    if not isinstance(body, dict) or not body:
        raise web.HTTPError(400, 'Malformed request body')
    name, argument = next(iter(body.items()))
    if name not in ACTIONS:
        raise web.HTTPError(404, 'There is no such action: %s' % name)
    with cloud.lock:
        server = nova_policy.visible_server(cloud, request, server_id)
        response = ACTIONS[name](cloud, request, server, argument)
        server.updated_at = model.isotime()
        return response
