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

"""The rules of the API that are not HTTP.

In-use checks, the Nova host check, the duplicate-notification window,
maintenance, the host-notification lock and the cast to the engine, plus
the versioned notifications (start, end, error) around every write.
"""

import datetime
import random
import time
import traceback

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import excutils
from oslo_utils import strutils
from oslo_utils import timeutils
from oslo_utils import uuidutils

from masakari.compute import nova
from masakari import coordination
from masakari.engine import rpcapi as engine_rpcapi
from masakari import exception
from masakari.ha import storage
from masakari.metrics import api as api_metrics
from masakari.notifications import api as notifications
from masakari.objects import base as objects_base
from masakari.objects import fields
from masakari.objects import host as host_obj
from masakari.objects import notification as notification_obj
from masakari.objects import segment as segment_obj
from masakari.objects import vmove as vmove_obj

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
Action = fields.EventNotificationAction
Phase = fields.EventNotificationPhase

# A segment whose hosts have a notification in these states is in use.
IN_USE_STATUSES = {'status': [fields.NotificationStatus.NEW,
                              fields.NotificationStatus.RUNNING,
                              fields.NotificationStatus.ERROR]}
# The lower bound of the duplicate window for notifications of year 1.
EARLIEST = datetime.datetime.min.replace(tzinfo=datetime.timezone.utc)
# Host fields the object layer cannot store as null although the schema
# lets null through (fixed 500, see doc/source/user/differences/api.rst).
NOT_NULL_HOST_FIELDS = ('type', 'control_attributes')


def reading(context):
    """A context manager serving the reads within it from one database
    transaction: one connection checkout, ping and rollback instead of
    one each. Only reads belong in it, and no call to another service
    (the connection stays taken meanwhile).
    """
    return objects_base.reading(context)


read_retried = objects_base.read_retried


def _bool(value):
    return strutils.bool_from_string(value, strict=True)


def _refuse_while_in_use(segment, error):
    """Raise ``error`` if ``segment`` is under recovery."""
    if segment.is_under_recovery(filters=IN_USE_STATUSES):
        raise error


class FailoverSegmentAPI:
    """Failover segments: CRUD with the in-use rule."""

    def get_segment(self, context, segment_uuid):
        """:raises: FailoverSegmentNotFound"""
        if not uuidutils.is_uuid_like(segment_uuid):
            raise exception.FailoverSegmentNotFound(id=segment_uuid)
        return segment_obj.FailoverSegment.get_by_uuid(context, segment_uuid)

    def get_all(self, context, filters, sort_keys, sort_dirs, limit, marker):
        """:raises: InvalidInput, MarkerNotFound, InvalidSortKey"""
        return storage.list_page(segment_obj.FailoverSegmentList, context,
                                 filters, sort_keys, sort_dirs, limit, marker)

    def create_segment(self, context, segment_data):
        """:raises: FailoverSegmentExists, ValidationError (too long)"""
        segment = segment_obj.FailoverSegment(context=context)
        segment.name = segment_data['name']
        segment.description = segment_data.get('description')
        segment.recovery_method = segment_data['recovery_method']
        segment.service_type = segment_data['service_type']
        segment.enabled = _bool(segment_data.get('enabled', True))
        with storage.writing(notifications.notify_about_segment_api,
                             context, segment,
                             Action.SEGMENT_CREATE) as write:
            write(segment.create)
        return segment

    def update_segment(self, context, segment_uuid, segment_data):
        """:raises: FailoverSegmentNotFound, FailoverSegmentInUse,
            FailoverSegmentExists, ValidationError (too long)
        """
        segment = storage.segment_by_uuid(context, segment_uuid)
        _refuse_while_in_use(segment, exception.FailoverSegmentInUse(
            uuid=segment.uuid))
        updates = dict(segment_data)
        if 'enabled' in updates:
            # NOTE: the reference assigns the raw value here, so "false"
            # enabled the segment; read it as the schema means.
            updates['enabled'] = _bool(updates['enabled'])
        with storage.writing(notifications.notify_about_segment_api,
                             context, segment,
                             Action.SEGMENT_UPDATE) as write:
            segment.update(updates)
            write(segment.save)
        return segment

    def delete_segment(self, context, segment_uuid):
        """:raises: FailoverSegmentNotFound, FailoverSegmentInUse"""
        segment = storage.segment_by_uuid(context, segment_uuid)
        _refuse_while_in_use(segment, exception.FailoverSegmentInUse(message=(
            "Failover segment (%s) can't be deleted as it is in-use to "
            "process notifications." % segment.uuid)))
        with storage.writing(notifications.notify_about_segment_api,
                             context, segment,
                             Action.SEGMENT_DELETE) as write:
            write(segment.destroy)


def _check_not_null(host_data):
    for name in NOT_NULL_HOST_FIELDS:
        if name in host_data and host_data[name] is None:
            raise exception.ValidationError(detail=(
                "Invalid input for field/attribute %s. Value: None. "
                "None is not of type 'string'" % name))


class HostAPI:
    """Hosts of a segment: CRUD with the Nova check and the in-use rule."""

    def get_host(self, context, segment_uuid, host_uuid):
        """:raises: HostNotFound, HostNotFoundUnderFailoverSegment"""
        if not uuidutils.is_uuid_like(host_uuid):
            raise exception.HostNotFound(id=host_uuid)
        return storage.host_by_uuid(context, segment_uuid, host_uuid)

    def get_all(self, context, filters, sort_keys, sort_dirs, limit, marker):
        """:raises: InvalidInput, MarkerNotFound, InvalidSortKey"""
        return storage.list_page(host_obj.HostList, context, filters,
                                 sort_keys, sort_dirs, limit, marker)

    def create_host(self, context, segment_uuid, host_data):
        """:raises: FailoverSegmentNotFound, ComputeNotFoundByName,
            HostExists, ValidationError (null type/control_attributes,
            too long)
        """
        segment = storage.segment_by_uuid(context, segment_uuid)
        _check_not_null(host_data)
        host = host_obj.Host(context=context)
        host.name = host_data['name']
        host.failover_segment = segment
        host.type = host_data['type']
        host.control_attributes = host_data['control_attributes']
        host.on_maintenance = _bool(host_data.get('on_maintenance', False))
        host.reserved = _bool(host_data.get('reserved', False))
        nova.API().find_compute_service(context, host.name)
        with storage.writing(notifications.notify_about_host_api, context,
                             host, Action.HOST_CREATE) as write:
            write(host.create)
        return host

    def update_host(self, context, segment_uuid, host_uuid, host_data):
        """:raises: HostNotFoundUnderFailoverSegment, HostInUse,
            ComputeNotFoundByName, Conflict (Nova), HostExists,
            ValidationError (null type/control_attributes, too long)
        """
        host = storage.host_by_uuid(context, segment_uuid, host_uuid)
        _refuse_while_in_use(host.failover_segment,
                             exception.HostInUse(uuid=host.uuid))
        if 'name' in host_data:
            nova.API().find_compute_service(context, host_data['name'])
        updates = dict(host_data)
        for name in ('on_maintenance', 'reserved'):
            if name in updates:
                updates[name] = _bool(updates[name])
        _check_not_null(updates)
        with storage.writing(notifications.notify_about_host_api, context,
                             host, Action.HOST_UPDATE) as write:
            host.update(updates)
            write(host.save)
        return host

    def delete_host(self, context, segment_uuid, host_uuid):
        """:raises: HostNotFoundUnderFailoverSegment, HostInUse"""
        host = storage.host_by_uuid(context, segment_uuid, host_uuid)
        _refuse_while_in_use(host.failover_segment, exception.HostInUse(
            message="Host %s can't be deleted as it is in-use to process "
                    "notifications." % host.uuid))
        with storage.writing(notifications.notify_about_host_api, context,
                             host, Action.HOST_DELETE) as write:
            write(host.destroy)


class NotificationAPI:
    """Notifications: accept a failure report and hand it to the engine."""

    def __init__(self):
        self.engine_rpcapi = engine_rpcapi.EngineAPI()

    def create_notification(self, context, notification_data):
        """Record a notification and cast it to an engine.

        Without coordination, first sleep up to notification_delay_max
        seconds; with it, serialise COMPUTE_HOST notifications of one host
        under a tooz lock.
        :raises: HostNotFoundByName, HostOnMaintenanceError,
            DuplicateNotification
        """
        if not CONF.coordination.backend_url:
            if CONF.notification_delay_max > 0:
                time.sleep(random.uniform(0, CONF.notification_delay_max))
            return self._create_notification(context, notification_data)
        if notification_data['type'] != fields.NotificationType.COMPUTE_HOST:
            return self._create_notification(context, notification_data)
        lock_name = ('create_host_notification-%s'
                     % notification_data['hostname'])
        with coordination.COORDINATOR.get_lock(lock_name):
            return self._create_notification(context, notification_data)

    def _create_notification(self, context, data):
        # NOTE: the checks read in one transaction, the insert has its own.
        notification = self._read_checks(context, data)
        with storage.writing(notifications.notify_about_notification_api,
                             context, notification,
                             Action.NOTIFICATION_CREATE) as write:
            write(notification.create)
        try:
            self.engine_rpcapi.process_notification(context, notification)
        except Exception as error:
            if CONF.takeover.new_notification_age:
                # NOTE: the database, not the bus, is the durability point:
                # an engine processes the stored row once it stayed new
                # for [takeover]/new_notification_age seconds.
                LOG.warning('Notification %(uuid)s is stored but could not '
                            'be sent to an engine (%(error)s); an engine '
                            'will pick it up from the database.',
                            {'uuid': notification.notification_uuid,
                             'error': error})
                return notification
            with excutils.save_and_reraise_exception():
                self._forget(context, notification, error)
        api_metrics.notification_accepted(notification.type)
        return notification

    @objects_base.read_retried
    def _read_checks(self, context, data):
        with reading(context):
            return self._checked_notification(context, data)

    def _checked_notification(self, context, data):
        """The Notification to store for ``data``, once its host is known
        and not on maintenance and it is not a duplicate.
        """
        host = host_obj.Host.get_by_name(context, data['hostname'])
        if host.on_maintenance:
            raise exception.HostOnMaintenanceError(host=data['hostname'],
                                                   type=data['type'])
        generated_time = timeutils.normalize_time(
            timeutils.parse_isotime(data['generated_time']))
        notification = notification_obj.Notification(context=context)
        notification.type = data['type']
        notification.generated_time = generated_time
        notification.source_host_uuid = host.uuid
        notification.payload = data['payload']
        notification.status = fields.NotificationStatus.NEW
        notification.failover_segment_uuid = host.failover_segment.uuid
        if self._is_duplicate(context, notification):
            raise exception.DuplicateNotification(host=data['hostname'],
                                                  type=data['type'])
        return notification

    @staticmethod
    def _forget(context, notification, error):
        """Emit notification.create.error, then drop the unsent row (only
        with [takeover]/new_notification_age = 0).

        NOTE: the reference leaves the row "new" after a failed cast: it
        answers 500 yet the row blocks its segment until an engine retries
        it. Here a 500 means "not recorded", so the client's retry is not a
        duplicate (see doc/source/user/differences/api.rst).
        """
        notifications.notify_about_notification_api(
            context, notification, action=Action.NOTIFICATION_CREATE,
            phase=Phase.ERROR, exception=error, tb=traceback.format_exc())
        try:
            notification.destroy()
        except Exception:
            LOG.exception('Could not remove notification %s after the '
                          'failed cast', notification.notification_uuid)

    @staticmethod
    def _is_duplicate(context, notification):
        """Same type, host and payload, generated within the window.

        NOTE: a lower time bound only, every status counts (reference).
        """
        window = datetime.timedelta(
            seconds=CONF.duplicate_notification_detection_interval)
        generated = notification.generated_time
        since = EARLIEST
        if generated - EARLIEST > window:
            since = generated - window
        previous = notification_obj.Notification.payloads_since(
            context, notification.type, notification.source_host_uuid, since)
        return notification.payload in previous

    def get_all(self, context, filters, sort_keys, sort_dirs, limit, marker):
        """:raises: InvalidInput, MarkerNotFound, InvalidSortKey"""
        return storage.list_page(notification_obj.NotificationList, context,
                                 filters, sort_keys, sort_dirs, limit, marker)

    def get_notification(self, context, notification_uuid):
        """:raises: NotificationNotFound"""
        if not uuidutils.is_uuid_like(notification_uuid):
            raise exception.NotificationNotFound(id=notification_uuid)
        return notification_obj.Notification.get_by_uuid(context,
                                                         notification_uuid)

    def get_notification_recovery_workflow_details(self, context,
                                                   notification_uuid):
        """The notification with its recovery progress, from an engine.

        :raises: NotificationNotFound; MessagingTimeout and the engine's
            errors otherwise.
        """
        notification = self.get_notification(context, notification_uuid)
        return self.engine_rpcapi.get_notification_recovery_workflow_details(
            context, notification)


class VMoveAPI:
    """Instance moves of a COMPUTE_HOST notification (read only)."""

    def _host_notification(self, context, notification_uuid):
        if not storage.comparable(notification_uuid):
            raise exception.NotificationNotFound(id=notification_uuid)
        notification = notification_obj.Notification.get_by_uuid(
            context, notification_uuid)
        if notification.type != fields.NotificationType.COMPUTE_HOST:
            raise exception.NotificationWithoutVMoves(id=notification_uuid)
        return notification

    @objects_base.read_retried
    def get_all(self, context, notification_uuid, filters, sort_keys,
                sort_dirs, limit, marker):
        """:raises: NotificationNotFound, NotificationWithoutVMoves,
            InvalidInput, MarkerNotFound, InvalidSortKey
        """
        with reading(context):
            self._host_notification(context, notification_uuid)
            filters = dict(filters, notification_uuid=notification_uuid)
            return storage.list_page(vmove_obj.VMoveList, context, filters,
                                     sort_keys, sort_dirs, limit, marker)

    @objects_base.read_retried
    def get_vmove(self, context, notification_uuid, vmove_uuid):
        """:raises: NotificationNotFound, NotificationWithoutVMoves,
            VMoveNotFound (also for a vmove of another notification)
        """
        with reading(context):
            notification = self._host_notification(context,
                                                   notification_uuid)
            if not uuidutils.is_uuid_like(vmove_uuid):
                raise exception.VMoveNotFound(id=vmove_uuid)
            vmove = vmove_obj.VMove.get_by_uuid(context, vmove_uuid)
        # NOTE: the reference returns the vmove of any notification here.
        if vmove.notification_uuid != notification.notification_uuid:
            raise exception.VMoveNotFound(id=vmove_uuid)
        return vmove
