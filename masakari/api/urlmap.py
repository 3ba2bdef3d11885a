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

"""The root URL map: choose the API version and the reply's media type.

Paste's URLMap (longest prefix first, ``//`` collapsed) plus the
negotiation of media types: a ``.json`` suffix or the Accept header picks the
media type, and a ``version=N`` media-type parameter picks ``/vN`` when
the path itself selected no versioned app.
"""

from oslo_log import log as logging
from paste import urlmap
from webob import acceptparse
import webob.exc

from masakari.api.openstack import wsgi

LOG = logging.getLogger(__name__)

# NOTE: the reference also offers Atom on exactly these two paths and then
# labels its JSON reply application/atom+xml; clients may depend on it.
ATOM_PATHS = ('/', '/v1/')
ATOM = 'application/atom+xml'


def urlmap_factory(loader, global_conf, **local_conf):
    """Paste composite factory: mount each ``<path> = <app>`` entry."""
    not_found_app = local_conf.pop('not_found_app', None)
    if not_found_app:
        not_found_app = loader.get_app(not_found_app, global_conf=global_conf)
    url_map = URLMap(not_found_app=not_found_app)
    for path, app_name in local_conf.items():
        path = urlmap.parse_path_expression(path)
        url_map[path] = loader.get_app(app_name, global_conf=global_conf)
    return url_map


def _media_ranges(header):
    """Yield (media type, params) for each item of an Accept-like header."""
    for item in header.split(','):
        media_type, *raw_params = item.split(';')
        params = {}
        for raw in raw_params:
            key, sep, value = raw.partition('=')
            if sep:
                params[key.strip().lower()] = value.strip().strip('"')
        yield media_type.strip(), params


class URLMap(urlmap.URLMap):
    """URLMap with version selection by path, Content-Type or Accept."""

    def _match(self, host, port, path_info):
        """The (app, mount point) for a path, honouring domains."""
        for (domain, app_url), app in self.applications:
            if domain and domain != host and domain != host + ':' + port:
                continue
            if path_info == app_url or path_info.startswith(app_url + '/'):
                return app, app_url
        return None, None

    def _versioned_app(self, host, port, header, path_info):
        """The app mounted at /vN for the first ``version=N`` parameter."""
        for _media_type, params in _media_ranges(header or ''):
            if 'version' in params:
                app, app_url = self._match(host, port,
                                           '/v' + params['version'])
                if app:
                    return _with_script_name(app, path_info, app_url)
        return None

    @staticmethod
    def _best_media_type(path_info, accept):
        offers = list(wsgi.SUPPORTED_CONTENT_TYPES)
        if path_info in ATOM_PATHS:
            offers.append(ATOM)
        header = acceptparse.create_accept_header(accept)
        acceptable = header.acceptable_offers(offers)
        return acceptable[0][0] if acceptable else None

    def __call__(self, environ, start_response):
        target = environ.get('PATH_INFO', '')
        if target[:1] not in ('', '/') and not self.domain_url_re.match(
                target):
            # NOTE: a request target that is neither an absolute path nor
            # an absolute http(s) URL (``*``, ``v1/segments``) names no
            # resource: 400, not the 500 of paste's URL normalisation. The
            # absolute form (``GET http://host/v1/segments``), which
            # HTTP/1.1 servers must accept, is served as its path, the
            # Host header still choosing the domain, as in 22.0.0.
            return webob.exc.HTTPBadRequest()(environ, start_response)
        host = environ.get('HTTP_HOST', environ.get('SERVER_NAME')).lower()
        if ':' in host:
            host, port = host.split(':', 1)
        else:
            port = '80' if environ['wsgi.url_scheme'] == 'http' else '443'
        path_info = self.normalize_url(environ.get('PATH_INFO', ''),
                                       False)[1]

        media_type = None
        extension = path_info.rsplit('.', 1)
        if len(extension) > 1 and (
                'application/' + extension[1] in wsgi.SUPPORTED_CONTENT_TYPES):
            media_type = 'application/' + extension[1]

        app = None
        possible_app, app_url = self._match(host, port, path_info)
        # NOTE: the root mount ('') matches everything; it is only the
        # fallback after the media-type version parameters.
        if possible_app and app_url:
            app = _with_path(possible_app, path_info, app_url)
        if not app:
            app = (self._versioned_app(host, port,
                                       environ.get('CONTENT_TYPE'),
                                       path_info) or
                   self._versioned_app(host, port,
                                       environ.get('HTTP_ACCEPT'),
                                       path_info))
        if not media_type:
            media_type = self._best_media_type(path_info,
                                               environ.get('HTTP_ACCEPT'))
        if not app and possible_app:
            app = _with_path(possible_app, path_info, app_url)
        if not app:
            LOG.debug('No application for %s', environ.get('PATH_INFO'))
            environ['paste.urlmap_object'] = self
            return self.not_found_application(environ, start_response)
        environ[wsgi.BEST_CONTENT_TYPE] = media_type or wsgi.JSON
        return app(environ, start_response)


def _with_path(app, path_info, app_url):
    """Move the mount point from PATH_INFO to SCRIPT_NAME, then call app."""
    def wrapped(environ, start_response):
        environ['SCRIPT_NAME'] += app_url
        environ['PATH_INFO'] = path_info[len(app_url):]
        return app(environ, start_response)
    return wrapped


def _with_script_name(app, path_info, app_url):
    """Serve the path unchanged under the app mounted at ``app_url``."""
    def wrapped(environ, start_response):
        environ['SCRIPT_NAME'] += app_url
        environ['PATH_INFO'] = path_info
        return app(environ, start_response)
    return wrapped
