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

"""Notification: a failure report to process, its progress, and its list."""

import datetime
import json

from oslo_serialization import jsonutils
from oslo_utils import timeutils

from masakari.db import api as db
from masakari.objects import base
from masakari.objects import fields

# Filled by the engine on request (RPC 1.1); never stored.
NOT_PERSISTED = ('recovery_workflow_details',)


@base.MasakariObjectRegistry.register
class Notification(base.MasakariPersistentObject, base.MasakariObject,
                   base.MasakariObjectDictCompat):
    """A notification, as stored in ``notifications``.

    No ``obj_make_compatible``: fields added after 1.0 stay in a backported
    primitive, which an older receiver ignores (oslo drops unknown keys).
    """

    # Version 1.0: Initial version
    # Version 1.1: Added recovery_workflow_details field.
    #              Note: This field shouldn't be persisted.
    # Version 1.2: Added failover_segment_uuid and message fields.
    # Version 1.3: Made failover_segment_uuid nullable (older rows have none)
    VERSION = '1.3'

    UUID_FIELD = 'notification_uuid'

    fields = {
        'id': fields.IntegerField(),
        'notification_uuid': fields.UUIDField(),
        'generated_time': fields.DateTimeField(),
        'source_host_uuid': fields.UUIDField(),
        'type': fields.NotificationTypeField(),
        'payload': fields.DictOfStringsField(),
        'status': fields.NotificationStatusField(),
        'recovery_workflow_details': fields.ListOfObjectsField(
            'NotificationProgressDetails', default=[]),
        'failover_segment_uuid': fields.UUIDField(nullable=True),
        'message': fields.StringField(nullable=True),
    }

    # NOTE: recovery_workflow_details stays unset when loaded, so it is
    # absent from the primitive sent over RPC.
    NOT_LOADED = NOT_PERSISTED
    COLUMN_LOADERS = {'payload': lambda notification, name, text: (
        _load_payload(notification, text))}

    def _db_updates(self):
        updates = self.masakari_obj_get_changes()
        for key in NOT_PERSISTED:
            updates.pop(key, None)
        if 'payload' in updates:
            updates['payload'] = jsonutils.dumps(updates['payload'])
        return updates

    @classmethod
    @base.remotable
    def get_by_id(cls, context, id):
        """Load a live notification by its integer id.

        :raises: NotificationNotFound
        """
        return cls._load(context, db.notification_get_by_id(context, id))

    @classmethod
    @base.remotable
    def get_by_uuid(cls, context, uuid):
        """Load a live notification by its notification_uuid.

        :raises: NotificationNotFound
        """
        return cls._load(context, db.notification_get_by_uuid(context, uuid))

    @classmethod
    def payloads_since(cls, context, type, source_host_uuid, since):
        """The payloads of the live notifications of ``type`` from host
        ``source_host_uuid`` generated at or after ``since``: what the
        duplicate rule compares, without loading the notifications.
        """
        return [_load_payload(None, text)
                for text in db.notification_payloads_since(
                    context, type, source_host_uuid, since)]

    @base.remotable
    def create(self):
        """Insert it, then reload it.

        :raises: ObjectActionError if already created
        """
        self._create(db.notification_create)

    @base.remotable
    def save(self):
        """Write the changed persisted fields, then reload.

        Within a recovery that holds a lease on this notification (its
        context's ``recovery_lease``), the write is fenced: it happens
        only while the lease holds (see masakari.engine.ownership).

        :raises: NotificationNotFound; RecoveryLost when the lease was lost.
        """
        lease = getattr(self._context, 'recovery_lease', None)
        if lease is not None and (
                lease.notification_uuid == self.notification_uuid):
            lease.save(self)
            return
        self._save(db.notification_update)

    def save_if_held(self, context, generation):
        """Write the changed persisted fields, in ``context``, only if the
        notification is still ``running`` with ``updated_at`` equal to
        ``generation`` (a lease's fencing token); reload when written.

        :returns: True when written, False when the row had moved on.
        """
        updates = self._db_updates()
        updates.pop('id', None)
        db_row = db.notification_update_if(
            context, self.notification_uuid,
            {'status': fields.NotificationStatus.RUNNING,
             'updated_at': generation}, updates)
        if db_row is None:
            return False
        self._from_db_object(self._context, self, db_row)
        return True

    @base.remotable
    def destroy(self):
        """Soft-delete it and its vmoves.

        :raises: ObjectActionError if not created or without uuid,
            NotificationNotFound
        """
        self._destroy(db.notification_delete)

    def transition_status(self, from_status, to_status):
        """Move the stored status from ``from_status`` (one status or a
        list) to ``to_status``, unless another process moved it first.

        One conditional UPDATE decides, so that two engines never both
        start (or both give up) the same notification.

        :returns: True when this caller made the change; the object is
            then reloaded. False when the stored status (or the row) was
            not ``from_status`` any more; the object is then unchanged.
        """
        return self._compare_and_set(db.notification_update_if,
                                     {'status': from_status},
                                     {'status': to_status})

    def take_over(self, observed_updated_at):
        """Claim a ``running`` notification whose engine went silent; also
        the renewal of a lease (its holder claims it again from itself).

        One conditional UPDATE on the status and the ``updated_at`` the
        caller observed; the winner moves ``updated_at`` on (to now, or a
        second past the observed value when the clocks say otherwise), so
        every other engine that observed the same value loses.

        :returns: True when this caller won (the object is reloaded).
        """
        observed = observed_updated_at
        moved_on = timeutils.utcnow().replace(microsecond=0)
        if observed is not None:
            observed = timeutils.normalize_time(observed)
            moved_on = max(moved_on, observed + datetime.timedelta(seconds=1))
        return self._compare_and_set(
            db.notification_update_if,
            {'status': fields.NotificationStatus.RUNNING,
             'updated_at': observed}, {'updated_at': moved_on})


def _load_payload(notification, text):
    """The ``payload`` field's value of a stored JSON text."""
    # NOTE: json.loads, not jsonutils': the column's text is already str.
    payload = json.loads(text) if text else {}
    # NOTE: a JSON object of strings is what the field would make of it
    # (the API stores nothing else); its coercion is only for the rest.
    if type(payload) is dict and all(
            type(value) is str for value in payload.values()):
        return payload
    return Notification.fields['payload'].coerce(notification, 'payload',
                                                 payload)


@base.MasakariObjectRegistry.register
class NotificationList(base.ObjectListBase, base.MasakariObject):
    """A page of notifications."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'objects': fields.ListOfObjectsField('Notification'),
    }

    @classmethod
    @base.remotable
    def get_all(cls, context, filters=None, sort_keys=None, sort_dirs=None,
                limit=None, marker=None):
        """List live notifications; see the DB API for filters and paging.

        :raises: InvalidInput, MarkerNotFound, InvalidSortKey
        """
        return cls._query(context, db.notifications_get_all_by_filters,
                          Notification, filters=filters, sort_keys=sort_keys,
                          sort_dirs=sort_dirs, limit=limit, marker=marker)


@base.MasakariObjectRegistry.register
class NotificationProgressDetails(base.MasakariObject,
                                  base.MasakariObjectDictCompat):
    """The progress of one recovery task of a notification (not stored)."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'name': fields.StringField(),
        'progress': fields.FloatField(),
        'progress_details': fields.ListOfDictOfNullableStringsField(
            default=[]),
        'state': fields.StringField(),
    }

    @classmethod
    def create(cls, name, progress, progress_details, state):
        """Build one with all four fields set (all in its change set).

        :param progress_details: list of ``{'timestamp', 'progress',
            'message'}`` dicts of strings.
        """
        return cls(name=name, progress=progress,
                   progress_details=progress_details, state=state)
