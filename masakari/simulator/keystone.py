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

"""A Keystone v3 with what Masakari and keystoneauth need from it.

Version discovery, password authentication scoped to a project or to the
system (token in ``X-Subject-Token``, catalogue whose compute and
placement entries point at the simulated Nova and Placement), token
validation (GET/HEAD) and revocation (DELETE), with expiry after the
topology's ``token_ttl`` seconds.
"""

import datetime
import time
import uuid

from masakari.simulator import model
from masakari.simulator import web

MOUNT = '/identity'
V3_UPDATED = '2020-04-07T00:00:00Z'
AUTH_REQUIRED = 'The request you have made requires authentication.'
TITLES = {400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
          404: 'Not Found', 409: 'Conflict'}


def fault_body(status, message):
    """Keystone's error document."""
    return {'error': {'code': status, 'message': message,
                      'title': TITLES.get(status, 'Internal Server Error')}}


def fault_response(status, message, headers=None):
    """An error answer in Keystone's format."""
    return web.Response(status, fault_body(status, message), headers)


def valid_token(cloud, token_id):
    """The live token of that id, or None (unknown, revoked or expired)."""
    with cloud.lock:
        token = cloud.tokens.get(token_id or '')
        if token is not None and token.expires_at <= time.time():
            del cloud.tokens[token_id]
            token = None
        return token


def _v3_version(base_url):
    return {'id': 'v3.14', 'status': 'stable', 'updated': V3_UPDATED,
            'links': [{'rel': 'self', 'href': base_url + MOUNT + '/v3/'}],
            'media-types': [{
                'base': 'application/json',
                'type': 'application/vnd.openstack.identity-v3+json'}]}


def versions(cloud, request):
    return web.Response(300, {'versions': {'values': [
        _v3_version(request.environ['base_url'])]}})


def version_v3(cloud, request):
    return web.Response(200, {'version': _v3_version(
        request.environ['base_url'])})


def _expect(condition, message='Invalid authentication request.'):
    if not condition:
        raise web.HTTPError(400, message)


def _domain_matches(reference, actual_domain_id):
    if not isinstance(reference, dict):
        return False
    if 'id' in reference:
        return reference['id'] == actual_domain_id
    return model.domain_id(reference.get('name', '')) == actual_domain_id


def _find_user(cloud, reference):
    _expect(isinstance(reference, dict) and 'password' in reference)
    for user in cloud.users.values():
        if 'id' in reference:
            if user.id == reference['id']:
                return user
        elif user.name == reference.get('name') and _domain_matches(
                reference.get('domain'), user.domain_id):
            return user
    raise web.HTTPError(401, AUTH_REQUIRED)


def _scope(cloud, user, scope):
    """(project, system, roles) of a scope request; 401 without a role."""
    if scope is None:
        return None, False, []
    _expect(isinstance(scope, dict) and len(scope) == 1,
            'Authentication cannot be scoped to multiple targets.')
    if 'system' in scope:
        _expect(scope['system'] == {'all': True})
        roles = user.system_roles
        project = None
    elif 'project' in scope:
        reference = scope['project']
        project = next(
            (project for project in cloud.projects.values()
             if project.id == reference.get('id') or (
                 'id' not in reference and
                 project.name == reference.get('name') and
                 _domain_matches(reference.get('domain'), project.domain_id))),
            None)
        roles = user.project_roles.get(project.id) if project else None
    else:
        raise web.HTTPError(401, AUTH_REQUIRED)
    if not roles:
        raise web.HTTPError(401, AUTH_REQUIRED)
    return project, 'system' in scope, list(roles)


def issue_token(cloud, request):
    """POST /v3/auth/tokens with the password method."""
    body = request.json()
    _expect(isinstance(body, dict) and isinstance(body.get('auth'), dict))
    identity = body['auth'].get('identity')
    _expect(isinstance(identity, dict) and
            'password' in identity.get('methods', []))
    password = identity.get('password')
    _expect(isinstance(password, dict))
    with cloud.lock:
        user = _find_user(cloud, password.get('user'))
        if user.password != password['user']['password']:
            raise web.HTTPError(401, AUTH_REQUIRED)
        project, system, roles = _scope(cloud, user,
                                        body['auth'].get('scope'))
        now = time.time()
        token = model.Token(id=uuid.uuid4().hex, user=user, project=project,
                            system=system, roles=roles, issued_at=now,
                            expires_at=now + cloud.token_ttl)
        cloud.tokens[token.id] = token
    return web.Response(201, _token_body(cloud, request, token),
                        {'X-Subject-Token': token.id})


def _caller_and_subject(cloud, request):
    if valid_token(cloud, request.header('X-Auth-Token')) is None:
        raise web.HTTPError(401, AUTH_REQUIRED)
    subject_id = request.header('X-Subject-Token')
    subject = valid_token(cloud, subject_id)
    if subject is None:
        raise web.HTTPError(404, 'Could not find token: %s.' % subject_id)
    return subject


def validate_token(cloud, request):
    """GET/HEAD /v3/auth/tokens: is X-Subject-Token valid?"""
    subject = _caller_and_subject(cloud, request)
    body = (None if request.method == 'HEAD' else
            _token_body(cloud, request, subject))
    return web.Response(200, body, {'X-Subject-Token': subject.id})


def revoke_token(cloud, request):
    """DELETE /v3/auth/tokens: revoke X-Subject-Token."""
    subject = _caller_and_subject(cloud, request)
    with cloud.lock:
        cloud.tokens.pop(subject.id, None)
    return web.Response(204)


def _time(epoch):
    moment = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc)
    return moment.strftime('%Y-%m-%dT%H:%M:%S.%fZ')


def _domain(domain_id, name):
    return {'id': domain_id, 'name': name}


def _token_body(cloud, request, token):
    user = token.user
    body = {'methods': ['password'],
            'user': {'id': user.id, 'name': user.name,
                     'domain': _domain(user.domain_id, user.domain_name),
                     'password_expires_at': None},
            'audit_ids': [uuid.uuid5(uuid.NAMESPACE_OID, token.id).hex[:22]],
            'issued_at': _time(token.issued_at),
            'expires_at': _time(token.expires_at),
            'roles': [{'id': model.stable_uuid('role', name), 'name': name}
                      for name in token.roles]}
    if token.project is not None:
        project = token.project
        body['project'] = {'id': project.id, 'name': project.name,
                           'domain': _domain(project.domain_id,
                                             project.domain_name)}
        body['is_domain'] = False
    if token.system:
        body['system'] = {'all': True}
    if 'nocatalog' not in request.params and (token.project or token.system):
        body['catalog'] = catalog(cloud, request.environ['base_url'])
    return {'token': body}


def catalog(cloud, base_url):
    """The service catalogue: the simulated Nova, Placement and this
    Keystone.
    """
    def entry(kind, name, url):
        return {'type': kind, 'name': name,
                'id': model.stable_uuid('catalog', kind),
                'endpoints': [{'id': model.stable_uuid(kind, interface),
                               'interface': interface,
                               'region': cloud.region,
                               'region_id': cloud.region, 'url': url}
                              for interface in ('public', 'internal',
                                                'admin')]}
    return [entry('compute', cloud.compute_service_name,
                  base_url + '/compute/v2.1'),
            entry('placement', 'placement', base_url + '/placement'),
            entry('identity', 'keystone', base_url + MOUNT)]


ROUTER = web.Router([
    ('/', {'GET': versions}),
    ('/v3', {'GET': version_v3}),
    ('/v3/', {'GET': version_v3}),
    ('/v3/auth/tokens', {'POST': issue_token, 'GET': validate_token,
                         'HEAD': validate_token, 'DELETE': revoke_token}),
])


def handle(cloud, request):
    """Serve one Keystone request; errors in Keystone's format."""
    try:
        handler, arguments = ROUTER.match(request.method, request.path)
        return handler(cloud, request, **arguments)
    except web.HTTPError as error:
        return fault_response(error.status, error.message, error.headers)
