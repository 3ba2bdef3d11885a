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

"""Handlers of /notifications and the ``Notifications`` descriptor."""

from http import HTTPStatus

from oslo_utils import timeutils
import webob.exc

from masakari.api import microversion
from masakari.api.openstack import common
from masakari.api.openstack import extensions
from masakari.api.openstack.ha.schemas import notifications as schema
from masakari.api.openstack.ha.schemas import payload as payload_schema
from masakari.api.openstack.ha import views
from masakari.api.openstack import wsgi
from masakari.api import validation
from masakari import exception
from masakari.ha import api as ha_api
from masakari.policies import notifications as policies

FILTERS = ('status', 'source_host_uuid', 'type')
CREATE_ERRORS = {
    exception.HostNotFoundByName: HTTPStatus.BAD_REQUEST,
    exception.HostOnMaintenanceError: HTTPStatus.CONFLICT,
    exception.DuplicateNotification: HTTPStatus.CONFLICT,
}


class Notifications(extensions.V1APIExtensionBase):
    """Notifications support."""

    name = 'Notifications'
    alias = 'notifications'
    description = 'Notifications support.'


def _generated_since(req):
    try:
        return timeutils.normalize_time(
            timeutils.parse_isotime(req.GET['generated-since']))
    except (ValueError, OverflowError):
        raise webob.exc.HTTPBadRequest(
            explanation='Invalid generated-since value')


@wsgi.expected_errors(common.LIST_ERRORS)
def list_notifications(req):
    """200 with the notifications; 400 bad paging, sorting or filter."""
    context = req.context
    context.can(policies.INDEX)
    limit, marker = common.limit_and_marker(req)
    filters = common.filters(req, FILTERS)
    # NOTE: "generated-since" with a hyphen, whatever the api-ref says.
    if 'generated-since' in req.GET:
        filters['generated-since'] = _generated_since(req)
    sort_keys, sort_dirs = common.sort_params(req)
    notifications = ha_api.NotificationAPI().get_all(
        context, filters, sort_keys, sort_dirs, limit, marker)
    return {'notifications': [
        views.notification(notification, req.api_version)
        for notification in notifications]}


@wsgi.response(HTTPStatus.ACCEPTED)
@wsgi.expected_errors(CREATE_ERRORS)
@validation.schema(schema.create)
def create_notification(req, body):
    """202 with the new notification; 400 unknown host or bad payload;
    409 host on maintenance or duplicate.
    """
    context = req.context
    context.can(policies.CREATE)
    data = body['notification']
    validation.validate(payload_schema.BY_TYPE[data['type']],
                        data['payload'])
    notification = ha_api.NotificationAPI().create_notification(context,
                                                                data)
    return {'notification': views.notification(notification,
                                               req.api_version)}


@wsgi.expected_errors({exception.NotificationNotFound: HTTPStatus.NOT_FOUND})
def show_notification(req, notification_id):
    """200 with the notification (and its recovery progress from 1.1,
    asked of an engine); 404 if unknown.
    """
    context = req.context
    context.can(policies.DETAIL)
    notification_api = ha_api.NotificationAPI()
    if microversion.is_supported(req, '1.1'):
        notification = (
            notification_api.get_notification_recovery_workflow_details(
                context, notification_id))
    else:
        notification = notification_api.get_notification(context,
                                                         notification_id)
    return {'notification': views.notification(notification,
                                               req.api_version)}
