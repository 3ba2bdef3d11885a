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

"""Paste app ``apiversionsapp``: the root version list and 300 choices.

``GET /`` (any method) lists the versions; any other path outside the
``/v1`` and ``/healthcheck`` mounts answers 300 Multiple Choices.
"""

from http import HTTPStatus
import json
from urllib import parse

from oslo_config import cfg
import webob
import webob.dec

from masakari.api import microversion
from masakari.api.openstack import wsgi

CONF = cfg.CONF

V1_ID = 'v1.0'
V1_UPDATED = '2016-07-01T11:33:21Z'
V1_MEDIA_TYPES = [{'base': 'application/json',
                   'type': 'application/vnd.openstack.masakari+json;'
                           'version=1'}]


def url_join(*parts):
    """Join URL parts with single slashes; an empty last part adds one."""
    if not parts:
        return ''
    joined = '/'.join(part.strip('/') for part in parts if part)
    if not parts[-1]:
        joined += '/'
    return joined


def link_base(req):
    """The request's application URL, rewritten by the link prefix option."""
    base = req.application_url
    prefix = CONF.osapi_masakari_link_prefix
    if not prefix:
        return base
    base_parts = list(parse.urlsplit(base))
    prefix_parts = parse.urlsplit(prefix)
    base_parts[0:2] = prefix_parts[0:2]
    base_parts[2] = prefix_parts[2] + base_parts[2]
    return parse.urlunsplit(base_parts).rstrip('/')


def v1_summary(href):
    """The v1 entry of the version documents, up to its links."""
    return {'id': V1_ID, 'status': 'CURRENT',
            'version': str(microversion.MAX_VERSION),
            'min_version': str(microversion.MIN_VERSION),
            'updated': V1_UPDATED,
            'links': [{'rel': 'self', 'href': href}]}


def json_response(req, body, status=HTTPStatus.OK):
    return webob.Response(status=status, charset=None,
                          content_type=req.best_match_content_type(),
                          body=json.dumps(body).encode())


class Versions:
    """The unauthenticated root document."""

    @classmethod
    def factory(cls, global_config, **local_config):
        """Paste app factory."""
        return cls()

    @webob.dec.wsgify(RequestClass=wsgi.Request)
    def __call__(self, req):
        content_type = req.content_type
        if content_type and content_type != 'text/plain' and (
                content_type not in wsgi.SUPPORTED_CONTENT_TYPES):
            return wsgi.fault(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                              'Unsupported Content-Type')
        base = link_base(req)
        try:
            path = req.path_info
        except UnicodeDecodeError:
            path = req.environ['PATH_INFO']
        if path == '/':
            return json_response(req, {'versions': [
                v1_summary(url_join(base, 'v1', ''))]})
        # NOTE: the reference appends the requested path to /v1 in the
        # link (GET /v2 -> /v1/v2); clients may follow it as it is.
        choice = {'id': V1_ID, 'status': 'CURRENT',
                  'links': [{'rel': 'self', 'href': url_join(
                      base, 'v1', path.strip('/'))}],
                  'media-types': V1_MEDIA_TYPES}
        return json_response(req, {'choices': [choice]},
                             HTTPStatus.MULTIPLE_CHOICES)
