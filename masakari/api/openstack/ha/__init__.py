"""Paste app ``osapi_masakari_app_v1``: the v1 route table and its router.

Every collection answers the routes a Routes "resource" defines (index,
create, new, show, update, delete, edit, and ``action`` where listed);
those without a handler answer 405, everything else a plain 404.
Each route also exists under ``/{project_id}`` and with ``.json``/``.xml``.
"""

import re

from oslo_config import cfg
from oslo_log import log as logging
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
# GET /v1 and /v1/ (no project-id or format forms).
ROOT_PATHS = ('', '/')
# Collections whose members also have the POST .../action route.
MEMBER_ACTION_COLLECTIONS = ('/segments', '/notifications')

DEFAULT_PROJECT_ID_REGEX = r'[0-9a-f\-]+'
FORMAT_SUFFIX = r'(?:\.(?P<format>json|xml))?'


def _resource_routes(member_path):
    """(method, path, action) of the Routes resource around a member path.

    ``new`` comes before the member routes so that it wins over an id.
    """
    collection = member_path.rsplit('/', 1)[0]
    routes = [('GET', collection, 'index'), ('POST', collection, 'create'),
              ('GET', collection + '/new', 'new'),
              ('GET', member_path, 'show'), ('PUT', member_path, 'update'),
              ('DELETE', member_path, 'delete'),
              ('GET', member_path + '/edit', 'edit')]
    if collection in MEMBER_ACTION_COLLECTIONS:
        routes.append(('POST', member_path + '/action', 'action'))
    return routes


def _path_regex(path, project_id_regex):
    pattern = re.sub(r'\\{(\w+)\\}', r'(?P<\1>[^/]+?)', re.escape(path))
    return re.compile('^(?:/(?P<project_id>%s))?%s%s$'
                      % (project_id_regex, pattern, FORMAT_SUFFIX))


class APIRouterV1:
    """Match method and path to a handler and hand over to wsgi.dispatch."""

    def __init__(self):
        project_id_regex = (CONF.osapi_v1.project_id_regex or
                            DEFAULT_PROJECT_ID_REGEX)
        self.routes = []
        member_paths = [path for path in ROUTES if path.endswith('}')]
        for member_path in member_paths:
            for method, path, action in _resource_routes(member_path):
                handler = ROUTES.get(path, {}).get(method)
                self.routes.append((method, _path_regex(
                    path, project_id_regex), handler, action))
        LOG.info('Loaded extensions: %s', sorted(
            ext.alias for ext in extension_info.loaded_extensions()))

    @classmethod
    def factory(cls, global_config, **local_config):
        """Paste app factory."""
        return cls()

    def match(self, method, path):
        """(handler or None, action, route args) or None if unrouted."""
        if path in ROOT_PATHS:
            if method != 'GET':
                return None
            return versionsV1.show_version, 'show', {}
        for route_method, regex, handler, action in self.routes:
            found = regex.match(path) if method == route_method else None
            if found:
                args = {key: value for key, value in found.groupdict().items()
                        if value is not None and key != 'format'}
                return handler, action, args
        return None

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
