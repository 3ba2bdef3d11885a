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

"""Metrics of masakari-api: the request middleware around the paste app.

Route templates come from the v1 router's own table: a request to
``/v1/{project_id}/segments/{segment_id}.json`` is counted under
``/v1/{project_id}/segments/{segment_id}``; what no route matches is
``unmatched``.
"""

import functools

from masakari.api.openstack import ha
from masakari import metrics
from masakari.metrics import api as api_metrics

V1_PREFIX = '/v1'
# How the router's routes end: an optional .json or .xml.
FORMAT_SUFFIX = '{.format}'
UNMATCHED = 'unmatched'


@functools.cache
def _router():
    return ha.APIRouterV1()


def route_of(method, path):
    """The route template of a request path (as the outermost app sees
    it), or ``unmatched``.
    """
    if path in ('', '/'):
        return '/'
    if path == '/healthcheck' or path.startswith('/healthcheck/'):
        return '/healthcheck'
    if path in (V1_PREFIX, V1_PREFIX + '/'):
        return V1_PREFIX + '/'
    if not path.startswith(V1_PREFIX + '/'):
        return UNMATCHED
    found = _router().mapper.routematch(
        url=path[len(V1_PREFIX):], environ={'REQUEST_METHOD': method})
    if not found:
        return UNMATCHED
    _arguments, route = found
    return V1_PREFIX + route.routepath.replace(FORMAT_SUFFIX, '')


def wrap(app):
    """``app`` with the metrics middleware when metrics are enabled (and
    the series of the known notification types at 0).
    """
    if not metrics.enabled():
        return app
    api_metrics.initialise()
    return api_metrics.Middleware(app, route_of)
