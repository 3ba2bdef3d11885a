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

"""[DEFAULT] options of the REST API: authentication, links, paging."""

from oslo_config import cfg

auth_opts = [
    cfg.StrOpt('auth_strategy',
               default='keystone',
               choices=[
                   ('keystone', 'Validate the token of every request with '
                                'Keystone (keystonemiddleware) and build the '
                                'request context from its identity headers.'),
                   ('noauth2', 'Trust the request: no credential is '
                               'checked and every caller gets an admin '
                               'context. Only for tests and demos.'),
               ],
               help="Which authentication pipeline of api-paste.ini "
                    "serves the v1 API. The value names a key of the "
                    "[composite:masakari_api_v1] section."),
    cfg.BoolOpt('use_forwarded_for',
                default=False,
                deprecated_for_removal=True,
                deprecated_reason="The http_proxy_to_wsgi middleware of "
                                  "oslo.middleware already rewrites the "
                                  "request from the proxy headers; enable "
                                  "[oslo_middleware]/"
                                  "enable_proxy_headers_parsing instead.",
                help="Take the client address of the request context from "
                     "the X-Forwarded-For header instead of the socket "
                     "peer. Only enable it behind a proxy that sets the "
                     "header."),
]

osapi_opts = [
    cfg.IntOpt('osapi_max_limit',
               default=1000,
               help="Largest number of items one list request returns. It "
                    "caps the 'limit' query parameter and is the page size "
                    "when no limit is given. Read at API start-up."),
    cfg.StrOpt('osapi_masakari_link_prefix',
               help="Base URL to put into the links of API responses "
                    "instead of the URL the request came in on, for "
                    "example when the API sits behind a proxy: its scheme "
                    "and host:port replace the request's and its path is "
                    "prepended to the link path."),
    cfg.IntOpt('notification_delay_max',
               default=5,
               min=0,
               help="Upper bound, in seconds, of a random pause the API "
                    "takes before storing a new notification when no "
                    "[coordination]/backend_url is configured. Spreading "
                    "simultaneous reports of the same failure over time "
                    "makes duplicates detectable. 0 disables the pause; it "
                    "is never taken when coordination is configured."),
]

ALL_OPTS = auth_opts + osapi_opts


def register_opts(conf):
    conf.register_opts(ALL_OPTS)


def list_opts():
    return {'DEFAULT': ALL_OPTS}
