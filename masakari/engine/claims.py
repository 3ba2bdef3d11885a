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

"""Claims that keep several engines from doing the same work twice:
starting the same notification, or evacuating two failed hosts to the
same reserved host.

Each claim is one compare-and-set of the object layer (a conditional
UPDATE), so only one engine (or thread) wins, whatever the in-process
locks of the other engines.
"""

from oslo_log import log as logging

from masakari import exception
from masakari.notifications import api as notifications
from masakari import objects
from masakari.objects import fields

LOG = logging.getLogger(__name__)

Status = fields.NotificationStatus


def start_notification(context, notification):
    """Move a notification from its received status to ``running``.

    :returns: True when this caller won; the object then says
        ``running``. False when the stored status is no longer the
        received one (another engine or an earlier message handled it).
    """
    received = notification.status
    if not notification.transition_status(received, Status.RUNNING):
        try:
            current = objects.Notification.get_by_uuid(
                context, notification.notification_uuid).status
        except exception.NotificationNotFound:
            current = None
        LOG.warning("Processing of notification is skipped to avoid "
                    "recovering from failure twice. Notification received "
                    "is '%(uuid)s' and it's status is '%(new_status)s' and "
                    "the current status of same notification in db is "
                    "'%(old_status)s'",
                    {'uuid': notification.notification_uuid,
                     'new_status': received,
                     'old_status': current})
        return False
    return True


def take_reserved_host(context, host_name):
    """Mark a reserved host as taken (``reserved = false``).

    The update is published as ``host.update.start``/``.end``, as a host
    update of the reference engine is.

    :raises: LockAlreadyAcquired when the host is no longer reserved
        (another recovery took it first).
    """
    host = objects.Host.get_by_name(context, host_name)
    if not host.take_reserved():
        raise exception.LockAlreadyAcquired(resource=host_name)
    host.reserved = False
    notifications.around_write(
        notifications.notify_about_host_api, context, host,
        fields.EventNotificationAction.HOST_UPDATE, host.save)
