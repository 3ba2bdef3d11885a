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

"""What masakari-api records: requests (WSGI middleware) and accepted
notifications.

The middleware is added in code by the service entry points when
[metrics]/enabled (not in api-paste.ini, which deployers own); it asks
``route_of(method, path)`` for the route template of a request, so that
raw paths (with ids) never become label values. A method outside HTTP's
own set is counted as ``other``: a client (even before authentication)
cannot add series by inventing methods.
"""

import time

from masakari import metrics
from masakari.metrics import families
from masakari.objects import fields

# The methods of HTTP (RFC 9110 and PATCH, RFC 5789).
HTTP_METHODS = frozenset(('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT',
                          'OPTIONS', 'TRACE', 'PATCH'))
OTHER_METHOD = 'other'


def initialise():
    """Make the accepted-notification series of every type exist at 0, so
    that the first notification after a start is an increase.
    """
    if metrics.enabled():
        accepted = families.api().accepted
        for notification_type in fields.NotificationType.ALL:
            accepted.labels(notification_type)


def method_label(method):
    """The bounded label value of a request method."""
    return method if method in HTTP_METHODS else OTHER_METHOD


def notification_accepted(notification_type):
    """Count a notification recorded and cast to an engine."""
    if metrics.enabled():
        families.api().accepted.labels(notification_type).inc()


class Middleware:
    """Count and time every request by route template, method, status."""

    def __init__(self, app, route_of):
        self.app = app
        self.route_of = route_of

    def __call__(self, environ, start_response):
        method = environ.get('REQUEST_METHOD', '')
        route = self.route_of(method, environ.get('PATH_INFO', ''))
        answered = {}

        def recording_start_response(status, headers, exc_info=None):
            answered['status'] = status.split(' ', 1)[0]
            return start_response(status, headers, exc_info)

        started = time.monotonic()
        try:
            return self.app(environ, recording_start_response)
        finally:
            method = method_label(method)
            api = families.api()
            api.latency.labels(route, method).observe(
                time.monotonic() - started)
            api.requests.labels(route, method,
                                answered.get('status', '500')).inc()
