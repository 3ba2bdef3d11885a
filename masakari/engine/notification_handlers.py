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

"""What the engine does for each notification type.

Each handler decides from the payload, calls the notification driver,
emits ``notification.process.end`` or ``.error`` (except where the
reference stays silent) and returns the notification's final status.
"""

from oslo_log import log as logging

from masakari.capacity import reader
import masakari.conf
from masakari.engine import claims
from masakari.engine import instance_events
from masakari import exception
from masakari.notifications import api as notifications
from masakari import objects
from masakari.objects import fields

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

Status = fields.NotificationStatus
Event = fields.EventType


def _notify_outcome(context, notification, error=None):
    phase = (fields.EventNotificationPhase.ERROR if error
             else fields.EventNotificationPhase.END)
    notifications.notify_about_notification_update(
        context, notification,
        action=fields.EventNotificationAction.NOTIFICATION_PROCESS,
        phase=phase, exception=error)


def _save_host(context, host):
    # NOTE: published as host.update.start/.end, as the reference engine's
    # host updates are.
    notifications.around_write(
        notifications.notify_about_host_api, context, host,
        fields.EventNotificationAction.HOST_UPDATE, host.save)


def _log_failure(notification, error):
    LOG.error("Failed to process notification '%(uuid)s'. Reason: "
              "%(reason)s", {'uuid': notification.notification_uuid,
                             'reason': error})


def _invalid_event(context, notification, event):
    LOG.warning('Invalid event: %(event)s received for notification type: '
                '%(type)s', {'event': event, 'type': notification.type})
    _notify_outcome(context, notification)
    return Status.IGNORED


def _recover_host(context, driver, notification):
    host = objects.Host.get_by_uuid(context, notification.source_host_uuid)
    segment = host.failover_segment
    extra = {}
    if host.reserved and CONF.fencing.return_to_service:
        # NOTE: only then, so that a third-party driver gets the call of
        # the reference; the fencing task keeps it for the host's return.
        extra['host_was_reserved'] = True
    host.on_maintenance = True
    if host.reserved:
        host.reserved = False
    LOG.info('Set host %s on maintenance.', host.name)
    _save_host(context, host)

    reserved_host_list = None
    if segment.recovery_method != fields.FailoverSegmentRecoveryMethod.AUTO:
        reserved_host_list = reader.reserved_hosts(context, segment.uuid)
    try:
        driver.execute_host_failure(
            context, host.name, segment.recovery_method,
            notification.notification_uuid,
            update_host_method=claims.take_reserved_host,
            reserved_host_list=reserved_host_list, **extra)
    except exception.SkipHostRecoveryException:
        return Status.FINISHED, None
    except exception.HostRecoveryHeld as held:
        # NOTE: held by the mass-failure brake, which logged it: the
        # notification stays running until released.
        return Status.RUNNING, held
    except exception.MasakariException as error:
        _log_failure(notification, error)
        return Status.ERROR, error
    return Status.FINISHED, None


def handle_compute_host(context, driver, notification):
    """A compute host stopped or started (monitor's host notification)."""
    host_status = notification.payload.get('host_status')
    if host_status is None:
        LOG.warning("Notification '%s' ignored as host_status is not "
                    "provided.", notification.notification_uuid)
        status, error = Status.IGNORED, None
    elif host_status.upper() != fields.HostStatusType.NORMAL:
        LOG.warning("Notification '%(uuid)s' ignored as host_status is "
                    "'%(status)s'", {'uuid': notification.notification_uuid,
                                     'status': host_status.upper()})
        status, error = Status.IGNORED, None
    else:
        event = notification.payload.get('event')
        if event.upper() == Event.STARTED:
            LOG.info("Notification '%s' of a started host needs no "
                     "recovery.", notification.notification_uuid)
            status, error = Status.FINISHED, None
        elif event.upper() == Event.STOPPED:
            status, error = _recover_host(context, driver, notification)
        else:
            return _invalid_event(context, notification, event)
    _notify_outcome(context, notification, error)
    return status


def handle_vm(context, driver, notification):
    """An instance failed (monitor's instance notification)."""
    payload = notification.payload
    if not instance_events.is_recoverable(payload.get('event'),
                                          payload.get('vir_domain_event')):
        LOG.info("Notification '%(uuid)s' received with payload "
                 "%(payload)s is ignored.",
                 {'uuid': notification.notification_uuid,
                  'payload': payload})
        return Status.IGNORED

    status, error = Status.FINISHED, None
    try:
        driver.execute_instance_failure(context, payload.get('instance_uuid'),
                                        notification.notification_uuid)
    except exception.SkipInstanceRecoveryException:
        pass
    except exception.IgnoreInstanceRecoveryException as ignored:
        status, error = Status.IGNORED, ignored
    except exception.MasakariException as failure:
        _log_failure(notification, failure)
        status, error = Status.ERROR, failure
    _notify_outcome(context, notification, error)
    return status


def handle_process(context, driver, notification):
    """A process (normally nova-compute) stopped or started on a host."""
    event = notification.payload.get('event')
    status, error = Status.FINISHED, None
    if event.upper() == Event.STARTED:
        LOG.info("Notification '%s' of a started process needs no "
                 "recovery.", notification.notification_uuid)
    elif event.upper() == Event.STOPPED:
        host = objects.Host.get_by_uuid(context,
                                        notification.source_host_uuid)
        host.on_maintenance = True
        _save_host(context, host)
        try:
            driver.execute_process_failure(
                context, notification.payload.get('process_name'),
                host.name, notification.notification_uuid)
        except exception.SkipProcessRecoveryException:
            pass
        except exception.MasakariException as failure:
            _log_failure(notification, failure)
            status, error = Status.ERROR, failure
    else:
        return _invalid_event(context, notification, event)
    _notify_outcome(context, notification, error)
    return status


HANDLERS = {
    fields.NotificationType.COMPUTE_HOST: handle_compute_host,
    fields.NotificationType.VM: handle_vm,
    fields.NotificationType.PROCESS: handle_process,
}
