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

"""Handlers of /notifications/{notification_id}/vmoves and ``VMoves``.

Documented as microversion 1.3 but served at every version, like the
reference (clients at 1.0 use it).
"""

from http import HTTPStatus

from masakari.api.openstack import common
from masakari.api.openstack import extensions
from masakari.api.openstack.ha import views
from masakari.api.openstack import wsgi
from masakari import exception
from masakari.ha import api as ha_api
from masakari.policies import vmoves as policies

ERRORS = {exception.NotificationNotFound: HTTPStatus.NOT_FOUND,
          exception.NotificationWithoutVMoves: HTTPStatus.BAD_REQUEST,
          exception.VMoveNotFound: HTTPStatus.NOT_FOUND}


class VMoves(extensions.V1APIExtensionBase):
    """vmoves controller"""

    name = 'vmoves'
    alias = 'vmoves'
    description = 'vmoves controller'


@wsgi.expected_errors(common.LIST_ERRORS, ERRORS)
def list_vmoves(req, notification_id):
    """200 with the moves; 404 unknown notification; 400 not a host
    notification or bad query.
    """
    context = req.context
    context.can(policies.INDEX)
    limit, marker = common.limit_and_marker(req)
    filters = common.filters(req, ('status', 'type'))
    sort_keys, sort_dirs = common.sort_params(req)
    vmoves = ha_api.VMoveAPI().get_all(context, notification_id, filters,
                                       sort_keys, sort_dirs, limit, marker)
    return {'vmoves': [views.vmove(vmove, req.api_version)
                       for vmove in vmoves]}


@wsgi.expected_errors(ERRORS)
def show_vmove(req, notification_id, vmove_id):
    """200 with the move; 404 unknown notification or move (also a move of
    another notification); 400 not a host notification.
    """
    context = req.context
    context.can(policies.DETAIL)
    vmove = ha_api.VMoveAPI().get_vmove(context, notification_id, vmove_id)
    return {'vmove': views.vmove(vmove, req.api_version)}
