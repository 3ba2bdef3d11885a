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

"""Requests to Nova and Keystone, seen at the one HTTP session of
masakari.compute.nova: counted by operation and status, and timed.

An operation is the method and the path template after the API version,
with ids replaced and a server action named by its body, e.g.
``GET /servers/detail``, ``PUT /os-services/{id}``,
``POST /servers/{id}/action evacuate``; so the label values are bounded
by the Nova API. Requests under the Keystone URL
([DEFAULT]/os_privileged_user_auth_url) are Keystone's: a token request
is ``POST /auth/tokens``, version discovery ``GET /``.
"""

import json
import re
import time
from urllib import parse

from keystoneauth1 import session as ks_session
import requests

from masakari import metrics
from masakari.metrics import families

# A path segment that is an id: a uuid, a number or a long hex string.
ID_SEGMENT = re.compile(r'^([0-9a-fA-F-]{32,36}|\d+|[0-9a-fA-F]{16,})$')
# Everything up to the API version (/compute/v2.1/...) is deployment
# specific.
VERSION_SEGMENT = re.compile(r'^v\d+(\.\d+)?$')
NO_ANSWER = 'error'


def operation(method, url, body=None):
    """The bounded name of a request, e.g. ``GET /servers/detail``."""
    segments = [segment for segment in parse.urlsplit(url).path.split('/')
                if segment]
    versions = [index for index, segment in enumerate(segments)
                if VERSION_SEGMENT.match(segment)]
    if versions:
        segments = segments[versions[0] + 1:]
    template = '/' + '/'.join('{id}' if ID_SEGMENT.match(segment) else
                              segment for segment in segments)
    name = '%s %s' % (method, template)
    if segments[-1:] == ['action'] and body:
        try:
            name += ' ' + next(iter(json.loads(body)))
        except (ValueError, TypeError, StopIteration):
            pass
    return name


def _record(auth_url, request, status, seconds):
    nova = families.nova()
    if auth_url and request.url.startswith(auth_url):
        name = operation(request.method, request.url[len(auth_url):])
        nova.keystone.labels(name, status).inc()
        return
    name = operation(request.method, request.url, request.body)
    nova.requests.labels(name, status).inc()
    nova.latency.labels(name).observe(seconds)


class RecordingSession(requests.Session):
    """A requests session that records every request it sends.

    It mounts keystoneauth's TCP keep-alive adapter, as the session that
    keystoneauth makes for itself does.
    """

    def __init__(self, auth_url):
        super().__init__()
        self.auth_url = (auth_url or '').rstrip('/')
        adapter = ks_session.TCPKeepAliveAdapter()
        for scheme in list(self.adapters):
            self.mount(scheme, adapter)

    def send(self, request, **kwargs):
        started = time.monotonic()
        status = NO_ANSWER
        try:
            response = super().send(request, **kwargs)
            status = str(response.status_code)
            return response
        finally:
            _record(self.auth_url, request, status,
                    time.monotonic() - started)


def requests_session(auth_url):
    """The requests session for keystoneauth: a recording one when
    metrics are enabled, else None (keystoneauth makes its own).
    """
    return RecordingSession(auth_url) if metrics.enabled() else None
