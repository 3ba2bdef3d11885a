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

"""A Nova compute API v2.1 with the semantics Masakari relies on.

This module holds what every Nova call shares: version discovery, the
microversion headers, token checks, admin policy, the fault body format and
the route table. The resources are in ``nova_services`` (os-services,
os-aggregates), ``nova_servers`` (listing and show) and ``nova_actions``.
"""

import logging
import re
import uuid

from masakari.simulator import keystone
from masakari.simulator import nova_actions
from masakari.simulator import nova_servers
from masakari.simulator import nova_services
from masakari.simulator import web

LOG = logging.getLogger(__name__)

MOUNT = '/compute'
MIN_VERSION = (2, 1)
# NOTE: the semantics implemented are those of 2.53, the microversion the
# Masakari client pins; announcing more would promise behaviour we lack.
MAX_VERSION = (2, 53)
VERSION_HEADER = 'X-OpenStack-Nova-API-Version'
FAULT_NAMES = {400: 'badRequest', 401: 'unauthorized', 403: 'forbidden',
               404: 'itemNotFound', 405: 'badMethod',
               409: 'conflictingRequest', 413: 'overLimit',
               415: 'badMediaType', 429: 'overLimit',
               501: 'notImplemented', 503: 'serviceUnavailable'}
_VERSION_RE = re.compile(r'^([1-9]\d*)\.([1-9]\d*|0)$')


def _text(version):
    return '%d.%d' % version


def _v21(base_url):
    return {'id': 'v2.1', 'status': 'CURRENT', 'version': _text(MAX_VERSION),
            'min_version': _text(MIN_VERSION),
            'updated': '2013-07-23T11:33:21Z',
            'links': [{'rel': 'self', 'href': base_url + MOUNT + '/v2.1/'}],
            'media-types': [{
                'base': 'application/json',
                'type': 'application/vnd.openstack.compute+json;version=2.1'}]}


def versions(cloud, request):
    v20 = dict(_v21(request.environ['base_url']), id='v2.0',
               status='SUPPORTED', version='', min_version='')
    v20['links'] = [{'rel': 'self', 'href': request.environ['base_url'] +
                     MOUNT + '/v2/'}]
    return web.Response(200, {'versions': [
        v20, _v21(request.environ['base_url'])]})


def version_v21(cloud, request):
    return web.Response(200, {'version': _v21(request.environ['base_url'])})


def fault_response(status, message, headers=None):
    """Nova's fault document for an error status."""
    name = FAULT_NAMES.get(status, 'computeFault')
    response = web.Response(status, {name: {'code': status,
                                            'message': message}}, headers)
    if status == 401:
        response.body = keystone.fault_body(401, message)
    return response


def requested_version(request):
    """The microversion asked for (2.1 when absent); HTTPError otherwise."""
    text = web.api_version(request, 'compute')
    if text is None:
        text = request.header(VERSION_HEADER)
    if text is None:
        return MIN_VERSION
    if text == 'latest':
        return MAX_VERSION
    match = _VERSION_RE.match(text)
    if not match:
        raise web.HTTPError(400, 'API Version String %s is of invalid '
                            'format. Must be of format MajorNum.MinorNum.'
                            % text)
    version = (int(match.group(1)), int(match.group(2)))
    if not MIN_VERSION <= version <= MAX_VERSION:
        raise web.HTTPError(406, 'Version %s is not supported by the API. '
                            'Minimum is %s and maximum is %s.' %
                            (text, _text(MIN_VERSION), _text(MAX_VERSION)))
    return version


def _authenticate(cloud, request):
    token = keystone.valid_token(cloud, request.header('X-Auth-Token'))
    if token is None or not (token.project or token.system):
        raise web.HTTPError(401, keystone.AUTH_REQUIRED, {
            'WWW-Authenticate': 'Keystone uri="%s%s"' % (
                request.environ['base_url'], keystone.MOUNT)})
    return token


ROUTER = web.Router([
    ('/v2.1/os-services', {'GET': nova_services.list_services}),
    ('/v2.1/os-services/{service_id}',
     {'PUT': nova_services.update_service}),
    ('/v2.1/os-aggregates', {'GET': nova_services.list_aggregates}),
    ('/v2.1/os-aggregates/{aggregate_id}',
     {'GET': nova_services.show_aggregate}),
    ('/v2.1/os-aggregates/{aggregate_id}/action',
     {'POST': nova_services.aggregate_action}),
    ('/v2.1/servers', {'GET': nova_servers.list_servers}),
    ('/v2.1/servers/detail', {'GET': nova_servers.list_servers_detail}),
    ('/v2.1/servers/{server_id}', {'GET': nova_servers.show_server}),
    ('/v2.1/servers/{server_id}/action',
     {'POST': nova_actions.server_action}),
])
DISCOVERY = web.Router([
    ('/', {'GET': versions}),
    ('/v2.1', {'GET': version_v21}),
    ('/v2.1/', {'GET': version_v21}),
])


def handle(cloud, request):
    """Serve one Nova request, with Nova's headers and fault format."""
    request_id = 'req-%s' % uuid.uuid4()
    headers = {'x-openstack-request-id': request_id,
               'x-compute-request-id': request_id}
    try:
        if request.path in ('/', '/v2.1', '/v2.1/'):
            handler, arguments = DISCOVERY.match(request.method, request.path)
        else:
            version = requested_version(request)
            headers.update({
                VERSION_HEADER: _text(version),
                'OpenStack-API-Version': 'compute %s' % _text(version),
                'Vary': 'OpenStack-API-Version, %s' % VERSION_HEADER})
            request.environ['version'] = version
            request.environ['token'] = _authenticate(cloud, request)
            handler, arguments = ROUTER.match(request.method, request.path)
        response = handler(cloud, request, **arguments)
    except web.HTTPError as error:
        response = fault_response(error.status, error.message, error.headers)
    response.headers.update(headers)
    return response
