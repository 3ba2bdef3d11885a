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

"""Request, response and routing primitives shared by the simulated services.

Deliberately tiny: the simulator only needs JSON in, JSON out and a table of
(method, path pattern) -> handler per service.
"""

import json
import re
from urllib import parse


class Request:
    """An HTTP request as the handlers see it."""

    def __init__(self, method, path, query_string, headers, body_bytes):
        self.method = method
        self.path = path
        self.query_string = query_string
        self.headers = headers
        self.body_bytes = body_bytes
        self.params = parse.parse_qs(query_string, keep_blank_values=True)
        # Filled by the service (token, microversion) before the handler runs.
        self.environ = {}

    def param(self, name, default=None):
        """The last value of a query parameter (as Nova reads them)."""
        values = self.params.get(name)
        return values[-1] if values else default

    def header(self, name, default=None):
        return self.headers.get(name, default)

    def json(self):
        """The decoded JSON body; HTTPError 400 when it is not JSON."""
        if not self.body_bytes:
            return None
        try:
            return json.loads(self.body_bytes)
        except ValueError:
            raise HTTPError(400, 'Malformed request body')

    def body_for_log(self):
        """The body as recorded in the call log: JSON, text or None."""
        if not self.body_bytes:
            return None
        try:
            return json.loads(self.body_bytes)
        except ValueError:
            return self.body_bytes.decode('utf-8', 'replace')


def api_version(request, service_type):
    """The version asked for ``service_type`` in the request's
    ``OpenStack-API-Version`` header (``compute 2.53``), or None.
    """
    text = None
    for part in (request.header('OpenStack-API-Version') or '').split(','):
        words = part.split()
        if len(words) == 2 and words[0].lower() == service_type:
            text = words[1]
    return text


class Response:
    """Status, headers and a JSON (or empty) body."""

    def __init__(self, status=200, body=None, headers=None):
        self.status = status
        self.body = body
        self.headers = dict(headers or {})

    def encode(self):
        if self.body is None:
            return b''
        self.headers.setdefault('Content-Type', 'application/json')
        return json.dumps(self.body).encode('utf-8')


class HTTPError(Exception):
    """An error answer; each service renders it in its own fault format."""

    def __init__(self, status, message, headers=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


class Router:
    """Match (method, path) against ``{name}`` patterns, in table order."""

    def __init__(self, table):
        self._routes = []
        for pattern, methods in table:
            regex = re.sub(r'\{(\w+)\}', r'(?P<\1>[^/]+)', pattern)
            self._routes.append((re.compile('^%s$' % regex), methods))

    def match(self, method, path):
        """Return (handler, path arguments); HTTPError 404/405 otherwise."""
        for regex, methods in self._routes:
            found = regex.match(path)
            if found:
                if method not in methods:
                    raise HTTPError(405, 'The method specified is not '
                                    'allowed for this resource.',
                                    {'Allow': ', '.join(sorted(methods))})
                return methods[method], found.groupdict()
        raise HTTPError(404, 'The resource could not be found.')
