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

"""The simulator's own HTTP API under /_simulator: read the call log, change
the cloud (hosts down/up, new servers, delays), inject faults, revoke tokens.

Every endpoint maps onto a ``state.Cloud`` method that tests may also call
in-process. Mistakes answer 400 (bad value) or 404 (unknown name) with
``{"error": "<text>"}``.
"""

from masakari.simulator import web

MOUNT = '/_simulator'


def index(cloud, request):
    return web.Response(200, {'endpoints': [
        'GET|DELETE /_simulator/calls[?service=nova|keystone|placement]',
        'GET /_simulator/state',
        'POST /_simulator/hosts', 'PUT|PATCH /_simulator/hosts/{name}',
        'POST /_simulator/servers', 'PUT|PATCH /_simulator/servers/{id}',
        'PUT|PATCH /_simulator/delays',
        'GET /_simulator/machines',
        'GET|PUT|PATCH /_simulator/machines/{name}',
        'PUT /_simulator/redfish-events',
        'GET|POST|DELETE /_simulator/faults',
        'DELETE /_simulator/tokens']})


def list_calls(cloud, request):
    return web.Response(200, {'calls': cloud.calls.snapshot(
        request.param('service'))})


def reset_calls(cloud, request):
    cloud.calls.reset()
    return web.Response(204)


def show_state(cloud, request):
    return web.Response(200, cloud.snapshot())


def _object(request):
    body = request.json()
    if not isinstance(body, dict):
        raise ValueError('the body must be a JSON object')
    return body


def add_host(cloud, request):
    return web.Response(201, {'services': cloud.add_host(_object(request))})


def update_host(cloud, request, name):
    return web.Response(200, {'services': cloud.update_host(
        name, **_object(request))})


def add_servers(cloud, request):
    body = request.json()
    entries = body if isinstance(body, list) else [body]
    return web.Response(201, {'servers': cloud.add_servers(entries)})


def update_server(cloud, request, server_id):
    return web.Response(200, {'server': cloud.update_server(
        server_id, **_object(request))})


def update_delays(cloud, request):
    return web.Response(200, {'delays': cloud.update_delays(
        **_object(request))})


def list_machines(cloud, request):
    return web.Response(200, {'machines': [
        cloud.machine(name) for name in sorted(cloud.machines)]})


def show_machine(cloud, request, name):
    return web.Response(200, {'machine': cloud.machine(name)})


def update_machine(cloud, request, name):
    return web.Response(200, {'machine': cloud.update_machine(
        name, **_object(request))})


def redfish_event(cloud, request):
    """A power change applied by the Redfish BMC emulator.

    sushy-tools' fake driver PUTs the whole system (named after its host)
    here whenever it changes; only an applied change (no power transition
    pending) is mirrored onto the host.
    """
    system = _object(request)
    if not system.get('pending_power') and system.get('name') in \
            cloud.machines:
        cloud.update_machine(system['name'],
                             power=system['power_state'].lower(),
                             source='redfish')
    return web.Response(204)


def list_faults(cloud, request):
    return web.Response(200, {'faults': cloud.faults.rules()})


def add_fault(cloud, request):
    return web.Response(201, {'fault': cloud.faults.add(_object(request))})


def clear_faults(cloud, request):
    cloud.faults.clear()
    return web.Response(204)


def revoke_tokens(cloud, request):
    cloud.revoke_tokens()
    return web.Response(204)


ROUTER = web.Router([
    ('/', {'GET': index}),
    ('/calls', {'GET': list_calls, 'DELETE': reset_calls}),
    ('/state', {'GET': show_state}),
    ('/hosts', {'POST': add_host}),
    ('/hosts/{name}', {'PUT': update_host, 'PATCH': update_host}),
    ('/servers', {'POST': add_servers}),
    ('/servers/{server_id}', {'PUT': update_server, 'PATCH': update_server}),
    ('/delays', {'PUT': update_delays, 'PATCH': update_delays}),
    ('/machines', {'GET': list_machines}),
    ('/machines/{name}', {'GET': show_machine, 'PUT': update_machine,
                          'PATCH': update_machine}),
    ('/redfish-events', {'PUT': redfish_event}),
    ('/faults', {'GET': list_faults, 'POST': add_fault,
                 'DELETE': clear_faults}),
    ('/tokens', {'DELETE': revoke_tokens}),
])


def handle(cloud, request):
    """Serve one control request."""
    try:
        handler, arguments = ROUTER.match(request.method, request.path)
        return handler(cloud, request, **arguments)
    except web.HTTPError as error:
        return web.Response(error.status, {'error': error.message},
                            error.headers)
    except (ValueError, TypeError) as error:
        return web.Response(400, {'error': str(error)})
    except KeyError as error:
        return web.Response(404, {'error': error.args[0]})
