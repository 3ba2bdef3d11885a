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

"""Building blocks of a versioned notification and the ``emit`` step.

These classes are only ever sent, never rebuilt from a message, so the
concrete ones are built with ``register_notification`` and stay out of
the RPC registry.
"""

from masakari.objects import base
from masakari.objects import fields
from masakari import rpc


class NotificationObject(base.MasakariObject):
    """Base of every notification object: no change set after __init__.

    So their primitives never carry ``masakari_object.changes``.
    """

    VERSION = '1.0'

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.obj_reset_changes(recursive=False)


@base.MasakariObjectRegistry.register_notification
class EventType(NotificationObject):
    """The ``event_type`` of a notification: ``<action>.<phase>``."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'action': fields.EventNotificationActionField(nullable=False),
        'phase': fields.EventNotificationPhaseField(nullable=True),
    }

    def to_notification_event_type_field(self):
        """Return the wire string, e.g. ``segment.create.start``."""
        event_type = self.action
        if self.obj_attr_is_set('phase'):
            event_type += '.%s' % self.phase
        return event_type


class NotificationPayloadBase(NotificationObject):
    """Base of the payloads, filled from source objects through SCHEMA.

    ``SCHEMA`` maps a payload field to ``(source argument, source field)``;
    a payload with an empty SCHEMA is complete as soon as it is built.
    """

    SCHEMA = {}
    VERSION = '1.0'

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.populated = not self.SCHEMA

    def populate_schema(self, **sources):
        """Copy the SCHEMA fields that are set on the source objects.

        Fields unset on the source stay unset (absent from the payload).
        """
        for key, (source_name, field) in self.SCHEMA.items():
            source = sources[source_name]
            if source.obj_attr_is_set(field):
                setattr(self, key, getattr(source, field))
        self.populated = True
        self.obj_reset_changes(recursive=False)


@base.MasakariObjectRegistry.register_notification
class NotificationPublisher(NotificationObject):
    """Who sends a notification; gives ``publisher_id`` binary:host."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'host': fields.StringField(nullable=False),
        'binary': fields.StringField(nullable=False),
    }


class NotificationBase(NotificationObject):
    """A notification: priority, event type, publisher and a payload.

    Concrete classes add ``payload`` as an ObjectField of their payload.
    """

    fields = {
        'priority': fields.EventNotificationPriorityField(),
        'event_type': fields.ObjectField('EventType'),
        'publisher': fields.ObjectField('NotificationPublisher'),
    }

    def emit(self, context):
        """Send the notification through the versioned notifier.

        The notifier method is named after the priority (``info`` gives
        priority INFO on the wire). Without a configured notification
        driver, oslo.messaging drops the message.
        """
        assert self.payload.populated, 'notification payload not populated'
        self.payload.obj_reset_changes(recursive=False)
        publisher_id = '%s:%s' % (self.publisher.binary, self.publisher.host)
        notifier = rpc.get_versioned_notifier(publisher_id)
        send = getattr(notifier, self.priority)
        send(context,
             event_type=self.event_type.to_notification_event_type_field(),
             payload=self.payload.obj_to_primitive())
