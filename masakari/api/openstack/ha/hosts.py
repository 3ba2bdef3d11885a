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

"""Handlers of /segments/{segment_id}/hosts and the ``Hosts`` descriptor."""

from http import HTTPStatus

from masakari.api.openstack import common
from masakari.api.openstack import extensions
from masakari.api.openstack.ha.schemas import hosts as schema
from masakari.api.openstack.ha import views
from masakari.api.openstack import wsgi
from masakari.api import validation
from masakari import exception
from masakari.ha import api as ha_api
from masakari.policies import hosts as policies

NOT_FOUND = {exception.FailoverSegmentNotFound: HTTPStatus.NOT_FOUND,
             exception.HostNotFound: HTTPStatus.NOT_FOUND}
WRITE_ERRORS = {exception.ComputeNotFoundByName: HTTPStatus.BAD_REQUEST,
                exception.HostExists: HTTPStatus.CONFLICT}
IN_USE = {exception.HostInUse: HTTPStatus.CONFLICT}


class Hosts(extensions.V1APIExtensionBase):
    """Hosts controller"""

    name = 'Hosts'
    alias = 'os-hosts'
    description = 'Hosts controller'


@wsgi.expected_errors(common.LIST_ERRORS, NOT_FOUND)
def list_hosts(req, segment_id):
    """200 with the segment's hosts; 404 unknown segment; 400 bad query."""
    context = req.context
    context.can(policies.INDEX)
    limit, marker = common.limit_and_marker(req)
    hosts = _segment_hosts(req, segment_id, limit, marker)
    return {'hosts': [views.host(host, req.api_version)
                      for host in hosts]}


@ha_api.read_retried
def _segment_hosts(req, segment_id, limit, marker):
    """The page of the segment's hosts (the segment checked first)."""
    context = req.context
    with ha_api.reading(context):
        segment = ha_api.FailoverSegmentAPI().get_segment(context,
                                                          segment_id)
        filters = common.filters(req, ('type',))
        for name in ('on_maintenance', 'reserved'):
            if name in req.GET:
                filters[name] = common.boolean_filter(req, name)
        filters['failover_segment_id'] = segment.uuid
        sort_keys, sort_dirs = common.sort_params(req)
        return ha_api.HostAPI().get_all(context, filters, sort_keys,
                                        sort_dirs, limit, marker)


@wsgi.response(HTTPStatus.CREATED)
@wsgi.expected_errors(NOT_FOUND, WRITE_ERRORS)
@validation.schema(schema.create)
def create_host(req, segment_id, body):
    """201 with the host; 404 segment; 400 unknown to Nova; 409 name taken."""
    context = req.context
    context.can(policies.CREATE)
    host = ha_api.HostAPI().create_host(context, segment_id, body['host'])
    return {'host': views.host(host, req.api_version)}


@wsgi.expected_errors(NOT_FOUND)
def show_host(req, segment_id, host_id):
    """200 with the host; 404 if not in that segment."""
    context = req.context
    context.can(policies.DETAIL)
    host = ha_api.HostAPI().get_host(context, segment_id, host_id)
    return {'host': views.host(host, req.api_version)}


@wsgi.expected_errors(NOT_FOUND, WRITE_ERRORS, IN_USE,
                      {exception.Conflict: HTTPStatus.CONFLICT})
@validation.schema(schema.update)
def update_host(req, segment_id, host_id, body):
    """200 with the host; 404; 400 unknown to Nova; 409 in use or taken."""
    context = req.context
    context.can(policies.UPDATE)
    host = ha_api.HostAPI().update_host(context, segment_id, host_id,
                                        body['host'])
    return {'host': views.host(host, req.api_version)}


@wsgi.response(HTTPStatus.NO_CONTENT)
@wsgi.expected_errors(NOT_FOUND, IN_USE)
def delete_host(req, segment_id, host_id):
    """204; 404 if not in that segment; 409 while its segment is in use."""
    context = req.context
    context.can(policies.DELETE)
    ha_api.HostAPI().delete_host(context, segment_id, host_id)
