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

"""Handlers of /segments and the ``segments`` extension descriptor."""

from http import HTTPStatus

from masakari.api.openstack import common
from masakari.api.openstack import extensions
from masakari.api.openstack.ha.schemas import segments as schema
from masakari.api.openstack.ha import views
from masakari.api.openstack import wsgi
from masakari.api import validation
from masakari import exception
from masakari.ha import api as ha_api
from masakari.policies import segments as policies

NOT_FOUND = {exception.FailoverSegmentNotFound: HTTPStatus.NOT_FOUND}
CONFLICT = {exception.FailoverSegmentExists: HTTPStatus.CONFLICT,
            exception.FailoverSegmentInUse: HTTPStatus.CONFLICT}
FILTERS = ('recovery_method', 'service_type')


class Segments(extensions.V1APIExtensionBase):
    """Segments Extension."""

    name = 'Segments'
    alias = 'segments'
    description = 'Segments Extension.'


@wsgi.expected_errors(common.LIST_ERRORS)
def list_segments(req):
    """200 with the segments; 400 bad paging, sorting or ``enabled``."""
    context = req.context
    context.can(policies.INDEX)
    limit, marker = common.limit_and_marker(req)
    filters = common.filters(req, FILTERS)
    if 'enabled' in req.GET:
        # NOTE: the reference compares the raw string with the boolean
        # column ("true" matched nothing); parse it like the host filters.
        filters['enabled'] = common.boolean_filter(req, 'enabled')
    sort_keys, sort_dirs = common.sort_params(req)
    segments = ha_api.FailoverSegmentAPI().get_all(
        context, filters, sort_keys, sort_dirs, limit, marker)
    return {'segments': [views.segment(segment, req.api_version)
                         for segment in segments]}


@wsgi.response(HTTPStatus.CREATED)
@wsgi.expected_errors(CONFLICT)
@validation.schema(schema.create, '1.0', '1.1')
@validation.schema(schema.create_v12, '1.2')
def create_segment(req, body):
    """201 with the new segment; 409 if the name is taken."""
    context = req.context
    context.can(policies.CREATE)
    segment = ha_api.FailoverSegmentAPI().create_segment(context,
                                                         body['segment'])
    return {'segment': views.segment(segment, req.api_version)}


@wsgi.expected_errors(NOT_FOUND)
def show_segment(req, segment_id):
    """200 with the segment; 404 if unknown."""
    context = req.context
    context.can(policies.DETAIL)
    segment = ha_api.FailoverSegmentAPI().get_segment(context, segment_id)
    return {'segment': views.segment(segment, req.api_version)}


@wsgi.expected_errors(NOT_FOUND, CONFLICT)
@validation.schema(schema.update, '1.0', '1.1')
@validation.schema(schema.update_v12, '1.2')
def update_segment(req, segment_id, body):
    """200 with the segment; 404 unknown; 409 in use or name taken."""
    context = req.context
    context.can(policies.UPDATE)
    segment = ha_api.FailoverSegmentAPI().update_segment(
        context, segment_id, body['segment'])
    return {'segment': views.segment(segment, req.api_version)}


@wsgi.response(HTTPStatus.NO_CONTENT)
@wsgi.expected_errors(NOT_FOUND, CONFLICT)
def delete_segment(req, segment_id):
    """204; 404 if unknown; 409 while in use."""
    context = req.context
    context.can(policies.DELETE)
    ha_api.FailoverSegmentAPI().delete_segment(context, segment_id)
