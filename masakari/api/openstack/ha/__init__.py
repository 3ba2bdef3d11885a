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

"""Paste app ``osapi_masakari_app_v1``: the v1 route table and its router.

Every collection answers the routes a Routes "resource" defines (index,
create, new, show, update, delete, edit, and ``action`` where listed);
those without a handler answer 405, everything else a plain 404. Each
route also exists under ``/{project_id}`` and with ``.json``/``.xml``.
The routes are matched by a ``routes.Mapper``.
"""

from oslo_config import cfg
from oslo_log import log as logging
import routes
import webob.dec
import webob.exc

from masakari.api.openstack.ha import extension_info
from masakari.api.openstack.ha import hosts
from masakari.api.openstack.ha import notifications
from masakari.api.openstack.ha import segments
from masakari.api.openstack.ha import versionsV1
from masakari.api.openstack.ha import vmoves
from masakari.api.openstack import wsgi

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

ROUTES = {
    '/versions/{version_id}': {'GET': versionsV1.show_version},
    '/extensions': {'GET': extension_info.list_extensions},
    '/extensions/{alias}': {'GET': extension_info.show_extension},
    '/segments': {'GET': segments.list_segments,
                  'POST': segments.create_segment},
    '/segments/{segment_id}': {'GET': segments.show_segment,
                               'PUT': segments.update_segment,
                               'DELETE': segments.delete_segment},
    '/segments/{segment_id}/hosts': {'GET': hosts.list_hosts,
                                     'POST': hosts.create_host},
    '/segments/{segment_id}/hosts/{host_id}': {'GET': hosts.show_host,
                                               'PUT': hosts.update_host,
                                               'DELETE': hosts.delete_host},
    '/notifications': {'GET': notifications.list_notifications,
                       'POST': notifications.create_notification},
    '/notifications/{notification_id}': {
        'GET': notifications.show_notification},
    '/notifications/{notification_id}/vmoves': {'GET': vmoves.list_vmoves},
    '/notifications/{notification_id}/vmoves/{vmove_id}': {
        'GET': vmoves.show_vmove},
}
# Collections whose members also have the POST .../action route.
MEMBER_ACTION_COLLECTIONS = ('/segments', '/notifications')

DEFAULT_PROJECT_ID_REGEX = r'[0-9a-f\-]+'
FORMATS = 'json|xml'


def _resource_routes(member_path):
    """(method, path, action) of the Routes resource around a member path.

    ``new`` comes before the member routes so that it wins over an id.
    """
    collection = member_path.rsplit('/', 1)[0]
    resource = [('GET', collection, 'index'),
                ('POST', collection, 'create'),
                ('GET', collection + '/new', 'new'),
                ('GET', member_path, 'show'), ('PUT', member_path, 'update'),
                ('DELETE', member_path, 'delete'),
                ('GET', member_path + '/edit', 'edit')]
    if collection in MEMBER_ACTION_COLLECTIONS:
        resource.append(('POST', member_path + '/action', 'action'))
    return resource


def _mapper(project_id_regex):
    """The Routes mapper of ROUTES; a match gives handler and action.

    The ``/{project_id}`` form of a route comes first, as an optional
    prefix would match it first.
    """
    mapper = routes.Mapper(explicit=True)
    # GET /v1 and /v1/ (no project-id or format forms).
    mapper.connect('/', conditions={'method': ['GET']},
                   handler=versionsV1.show_version, action='show')
    member_paths = [path for path in ROUTES if path.endswith('}')]
    for member_path in member_paths:
        for method, path, action in _resource_routes(member_path):
            handler = ROUTES.get(path, {}).get(method)
            for prefix in ('/{project_id}', ''):
                mapper.connect(
                    prefix + path + '{.format}',
                    conditions={'method': [method]},
                    requirements={'project_id': project_id_regex,
                                  'format': FORMATS},
                    handler=handler, action=action)
    return mapper


class APIRouterV1:
    """Match method and path to a handler and hand over to wsgi.dispatch."""

    def __init__(self):
        self.mapper = _mapper(CONF.osapi_v1.project_id_regex or
                              DEFAULT_PROJECT_ID_REGEX)
        LOG.info('Loaded extensions: %s', sorted(
            ext.alias for ext in extension_info.loaded_extensions()))

    @classmethod
    def factory(cls, global_config, **local_config):
        """Paste app factory."""
        return cls()

    def match(self, method, path):
        """(handler or None, action, route args) or None if unrouted."""
        found = self.mapper.match(url=path or '/',
                                  environ={'REQUEST_METHOD': method})
        if found is None:
            return None
        args = {key: value for key, value in found.items()
                if value is not None and
                key not in ('format', 'handler', 'action')}
        return found['handler'], found['action'], args

    @webob.dec.wsgify(RequestClass=wsgi.Request)
    def __call__(self, req):
        try:
            path = req.path_info
        except UnicodeDecodeError:
            # NOTE: a path that is not UTF-8 names no resource (a 500 in
            # the reference).
            return webob.exc.HTTPNotFound()
        matched = self.match(req.method, path)
        if matched is None:
            return webob.exc.HTTPNotFound()
        handler, action, args = matched
        return wsgi.dispatch(req, handler, action, args)
