"""Compare-and-set claims that keep several engines from doing the same
work twice: starting the same notification, or evacuating two failed
hosts to the same reserved host.

Each claim is one conditional UPDATE in the database, so only one engine
(or thread) wins, whatever the in-process locks of the other engines.
"""

from oslo_log import log as logging

from masakari.db import api as db
from masakari import exception
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
    started = db.notification_update_if(
        context, notification.notification_uuid,
        {'status': notification.status}, {'status': Status.RUNNING})
    if started is None:
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
                     'new_status': notification.status,
                     'old_status': current})
        return False
    notification.status = Status.RUNNING
    notification.obj_reset_changes(['status'])
    return True


def give_up_running(context, notification_uuid):
    """Move a ``running`` notification to ``error`` (for a retry).

    :returns: False when it was not ``running`` any more.
    """
    return db.notification_update_if(
        context, notification_uuid, {'status': Status.RUNNING},
        {'status': Status.ERROR}) is not None


def take_reserved_host(context, host_name):
    """Mark a reserved host as taken (``reserved = false``).

    The update is published as ``host.update.start``/``.end``, as a host
    update of the reference engine is.

    :raises: LockAlreadyAcquired when the host is no longer reserved
        (another recovery took it first).
    """
    host = objects.Host.get_by_name(context, host_name)
    if db.host_update_if(context, host.uuid, {'reserved': True},
                         {'reserved': False}) is None:
        raise exception.LockAlreadyAcquired(resource=host_name)
    host.reserved = False
    host.save()
