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

"""Field types of the Masakari objects: stock oslo fields plus our enums.

The enum *type* class names and the order of their ``ALL`` values are part
of every object fingerprint (they appear in the field ``repr``), so they
must never change; the ``...Field`` class names are free. The values that
the database schema also stores come from masakari.enums.
"""

from oslo_versionedobjects import fields

from masakari import enums

# Stock oslo field types, re-exported so object modules import one place.
BooleanField = fields.BooleanField
DateTimeField = fields.DateTimeField
DictOfStringsField = fields.DictOfStringsField
FieldType = fields.FieldType
FloatField = fields.FloatField
IntegerField = fields.IntegerField
ListOfDictOfNullableStringsField = fields.ListOfDictOfNullableStringsField
ListOfObjectsField = fields.ListOfObjectsField
ListOfStringsField = fields.ListOfStringsField
ObjectField = fields.ObjectField
StringField = fields.StringField
UUIDField = fields.UUIDField


class BaseMasakariEnum(fields.Enum):
    """An enum whose valid values are the class attribute ``ALL``."""

    ALL = ()

    def __init__(self, **kwargs):
        super().__init__(valid_values=self.__class__.ALL, **kwargs)


class IndexedEnum(BaseMasakariEnum):
    """An enum that also maps its values to and from their position."""

    @classmethod
    def index(cls, value):
        """Return the position of ``value`` in ``ALL``."""
        return cls.ALL.index(value)

    @classmethod
    def from_index(cls, index):
        """Return the value at position ``index`` of ``ALL``."""
        return cls.ALL[index]


class FailoverSegmentRecoveryMethod(enums.RecoveryMethod, IndexedEnum):
    """How the hosts of a failover segment are recovered (the values and
    ``ALL`` of enums.RecoveryMethod).
    """


class NotificationType(IndexedEnum):
    """What failed: a compute host, a VM or a process."""

    COMPUTE_HOST = "COMPUTE_HOST"
    VM = "VM"
    PROCESS = "PROCESS"

    ALL = (COMPUTE_HOST, VM, PROCESS)


class EventType(IndexedEnum):
    """The event carried by a host or process notification payload.

    Not to be confused with the versioned notification object ``EventType``.
    """

    STARTED = "STARTED"
    STOPPED = "STOPPED"

    ALL = (STARTED, STOPPED)


class HostStatusType(IndexedEnum):
    """The ``host_status`` of a COMPUTE_HOST notification payload."""

    NORMAL = "NORMAL"
    UNKNOWN = "UNKNOWN"

    ALL = (NORMAL, UNKNOWN)


class ClusterStatusType(IndexedEnum):
    """The ``cluster_status`` of a COMPUTE_HOST notification payload."""

    ONLINE = "ONLINE"
    OFFLINE = "OFFLINE"

    ALL = (ONLINE, OFFLINE)


class NotificationStatus(enums.NotificationStatus, IndexedEnum):
    """Where a notification is in its processing (the values and ``ALL``
    of enums.NotificationStatus).
    """


class EventNotificationAction(IndexedEnum):
    """The action part of a versioned notification's event type."""

    SEGMENT_CREATE = 'segment.create'
    SEGMENT_UPDATE = 'segment.update'
    SEGMENT_DELETE = 'segment.delete'
    HOST_CREATE = 'host.create'
    HOST_UPDATE = 'host.update'
    HOST_DELETE = 'host.delete'
    NOTIFICATION_CREATE = 'notification.create'
    NOTIFICATION_PROCESS = 'notification.process'

    ALL = (SEGMENT_CREATE, SEGMENT_UPDATE, SEGMENT_DELETE,
           HOST_CREATE, HOST_UPDATE, HOST_DELETE,
           NOTIFICATION_CREATE, NOTIFICATION_PROCESS)


class EventNotificationPriority(BaseMasakariEnum):
    """Priority of a versioned notification: the notifier method called."""

    AUDIT = 'audit'
    CRITICAL = 'critical'
    DEBUG = 'debug'
    INFO = 'info'
    ERROR = 'error'
    SAMPLE = 'sample'
    WARN = 'warn'

    ALL = (AUDIT, CRITICAL, DEBUG, INFO, ERROR, SAMPLE, WARN)


class EventNotificationPhase(IndexedEnum):
    """The phase part of a versioned notification's event type."""

    START = 'start'
    END = 'end'
    ERROR = 'error'

    ALL = (START, END, ERROR)


class VMoveType(IndexedEnum):
    """How an instance was moved off a failed host."""

    EVACUATION = "evacuation"
    MIGRATION = "migration"
    LIVE_MIGRATION = "live_migration"

    ALL = (EVACUATION, MIGRATION, LIVE_MIGRATION)


class VMoveStatus(IndexedEnum):
    """Where an instance move is."""

    PENDING = "pending"
    ONGOING = "ongoing"
    IGNORED = "ignored"
    FAILED = "failed"
    SUCCEEDED = "succeeded"

    ALL = (PENDING, ONGOING, IGNORED, FAILED, SUCCEEDED)


class FailoverSegmentRecoveryMethodField(fields.BaseEnumField):
    AUTO_TYPE = FailoverSegmentRecoveryMethod()


class NotificationTypeField(fields.BaseEnumField):
    AUTO_TYPE = NotificationType()


class NotificationStatusField(fields.BaseEnumField):
    AUTO_TYPE = NotificationStatus()


class EventNotificationActionField(fields.BaseEnumField):
    AUTO_TYPE = EventNotificationAction()


class EventNotificationPriorityField(fields.BaseEnumField):
    AUTO_TYPE = EventNotificationPriority()


class EventNotificationPhaseField(fields.BaseEnumField):
    AUTO_TYPE = EventNotificationPhase()


class VMoveTypeField(fields.BaseEnumField):
    AUTO_TYPE = VMoveType()


class VMoveStatusField(fields.BaseEnumField):
    AUTO_TYPE = VMoveStatus()
