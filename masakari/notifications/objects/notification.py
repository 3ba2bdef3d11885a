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

"""Payloads and notifications of segment, host and notification events."""

from masakari.notifications.objects import base
from masakari.objects import base as masakari_base
from masakari.objects import fields

register = masakari_base.MasakariObjectRegistry.register_notification


@register
class SegmentApiPayloadBase(base.NotificationPayloadBase):
    """The segment fields a segment notification carries."""

    SCHEMA = {
        'id': ('segment', 'id'),
        'uuid': ('segment', 'uuid'),
        'name': ('segment', 'name'),
        'service_type': ('segment', 'service_type'),
        'description': ('segment', 'description'),
        'recovery_method': ('segment', 'recovery_method'),
        'enabled': ('segment', 'enabled'),
    }
    # Version 1.0: Initial version
    # Version 1.1: Added 'enabled' field
    VERSION = '1.1'

    fields = {
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(),
        'name': fields.StringField(),
        'service_type': fields.StringField(),
        'description': fields.StringField(nullable=True),
        'recovery_method': fields.FailoverSegmentRecoveryMethodField(),
        'enabled': fields.BooleanField(),
    }

    def __init__(self, segment, **kwargs):
        super().__init__(**kwargs)
        self.populate_schema(segment=segment)


@register
class SegmentApiPayload(SegmentApiPayloadBase):
    """Segment fields plus ``fault`` (null unless the phase is error)."""

    # Version 1.0: Initial version
    # Version 1.1: Follows SegmentApiPayloadBase 1.1 ('enabled')
    VERSION = '1.1'

    fields = {
        'fault': fields.ObjectField('ExceptionPayload', nullable=True),
    }

    def __init__(self, segment, fault, **kwargs):
        super().__init__(segment=segment, fault=fault, **kwargs)


@register
class HostApiPayloadBase(base.NotificationPayloadBase):
    """The host fields a host notification carries (with its segment)."""

    SCHEMA = {
        'id': ('host', 'id'),
        'uuid': ('host', 'uuid'),
        'name': ('host', 'name'),
        'failover_segment': ('host', 'failover_segment'),
        'type': ('host', 'type'),
        'reserved': ('host', 'reserved'),
        'control_attributes': ('host', 'control_attributes'),
        'on_maintenance': ('host', 'on_maintenance'),
    }
    # Version 1.0: Initial version
    # Version 1.1: Removed 'failover_segment_id' (the segment object has it)
    VERSION = '1.1'

    fields = {
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(),
        'name': fields.StringField(),
        'failover_segment': fields.ObjectField('FailoverSegment'),
        'type': fields.StringField(),
        'reserved': fields.BooleanField(),
        'control_attributes': fields.StringField(),
        'on_maintenance': fields.BooleanField(),
    }

    def __init__(self, host, **kwargs):
        super().__init__(**kwargs)
        self.populate_schema(host=host)


@register
class HostApiPayload(HostApiPayloadBase):
    """Host fields plus ``fault``.

    Stayed at 1.0 when its base dropped ``failover_segment_id`` (as in the
    reference: the version is what consumers see).
    """

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'fault': fields.ObjectField('ExceptionPayload', nullable=True),
    }

    def __init__(self, host, fault, **kwargs):
        super().__init__(host=host, fault=fault, **kwargs)


@register
class NotificationApiPayloadBase(base.NotificationPayloadBase):
    """The notification fields a notification event carries."""

    SCHEMA = {
        'id': ('notification', 'id'),
        'notification_uuid': ('notification', 'notification_uuid'),
        'generated_time': ('notification', 'generated_time'),
        'source_host_uuid': ('notification', 'source_host_uuid'),
        'type': ('notification', 'type'),
        'payload': ('notification', 'payload'),
        'status': ('notification', 'status'),
    }
    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'id': fields.IntegerField(),
        'notification_uuid': fields.UUIDField(),
        'generated_time': fields.DateTimeField(),
        'source_host_uuid': fields.UUIDField(),
        'type': fields.NotificationTypeField(),
        'payload': fields.DictOfStringsField(),
        'status': fields.NotificationStatusField(),
    }

    def __init__(self, notification, **kwargs):
        super().__init__(**kwargs)
        self.populate_schema(notification=notification)


@register
class NotificationApiPayload(NotificationApiPayloadBase):
    """Notification fields plus ``fault``."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'fault': fields.ObjectField('ExceptionPayload', nullable=True),
    }

    def __init__(self, notification, fault, **kwargs):
        super().__init__(notification=notification, fault=fault, **kwargs)


@register
class SegmentApiNotification(base.NotificationBase):
    """segment.{create,update,delete}.{start,end,error}"""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'payload': fields.ObjectField('SegmentApiPayload'),
    }


@register
class HostApiNotification(base.NotificationBase):
    """host.{create,update,delete}.{start,end,error}"""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'payload': fields.ObjectField('HostApiPayload'),
    }


@register
class NotificationApiNotification(base.NotificationBase):
    """notification.create.* (API) and notification.process.* (engine)"""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'payload': fields.ObjectField('NotificationApiPayload'),
    }
