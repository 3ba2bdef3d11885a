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

"""Nova's default policy, reduced to what the simulator serves.

Admin-only rules answer 403 with Nova's wording; owner rules hide other
projects' servers behind a 404, as Nova does.
"""

from masakari.simulator import web


def is_admin(request):
    return request.environ['token'].is_admin


def require_admin(request, rule):
    """403 unless the caller's token has the admin role."""
    if not is_admin(request):
        raise web.HTTPError(403, "Policy doesn't allow %s to be performed."
                            % rule)


def visible_server(cloud, request, server_id):
    """The server if the caller may see it; 404 otherwise (lock held)."""
    server = cloud.servers.get(server_id)
    token = request.environ['token']
    if server is None or not (token.is_admin or (
            token.project and token.project.id == server.project_id)):
        raise web.HTTPError(404, 'Instance %s could not be found.'
                            % server_id)
    return server
