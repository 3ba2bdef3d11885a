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

"""Masakari's overrides of library option defaults.

``set_lib_defaults`` is the ``oslo.config.opts.defaults`` entry point
(name ``masakari.api``); the services apply the same overrides at start-up
through :func:`masakari.config.parse_args`.
"""

from oslo_middleware import cors

# NOTE: the headers a browser client of the API sends and reads: Keystone's
# token and identity headers and the request id.
CORS_ALLOW_HEADERS = ['X-Auth-Token',
                      'X-Openstack-Request-Id',
                      'X-Identity-Status',
                      'X-Roles',
                      'X-Service-Catalog',
                      'X-User-Id',
                      'X-Tenant-Id']
CORS_EXPOSE_HEADERS = ['X-Auth-Token',
                       'X-Openstack-Request-Id',
                       'X-Subject-Token',
                       'X-Service-Token']
CORS_ALLOW_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH']


def set_lib_defaults():
    """Apply every library default Masakari changes in generated samples."""
    set_middleware_defaults()


def set_middleware_defaults():
    """Give the [cors] options the headers and methods the API uses.

    The defaults are changed on the option objects, so they also hold for
    the private config object the cors paste filter builds for itself.
    """
    cors.set_defaults(allow_headers=CORS_ALLOW_HEADERS,
                      expose_headers=CORS_EXPOSE_HEADERS,
                      allow_methods=CORS_ALLOW_METHODS)
