"""FailoverSegment: a group of hosts recovered together, and its list."""

from oslo_utils import uuidutils
from oslo_utils import versionutils

from masakari.db import api as db
from masakari import exception
from masakari.notifications import api as notifications
from masakari.objects import base
from masakari.objects import fields

Action = fields.EventNotificationAction
Phase = fields.EventNotificationPhase


@base.MasakariObjectRegistry.register
class FailoverSegment(base.MasakariPersistentObject, base.MasakariObject,
                      base.MasakariObjectDictCompat):
    """A failover segment, as stored in ``failover_segments``."""

    # Version 1.0: Initial version
    # Version 1.1: Added 'enabled' field
    VERSION = '1.1'

    fields = {
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(),
        'name': fields.StringField(),
        'service_type': fields.StringField(),
        'enabled': fields.BooleanField(default=True),
        'description': fields.StringField(nullable=True),
        'recovery_method': fields.FailoverSegmentRecoveryMethodField(),
    }

    def obj_make_compatible(self, primitive, target_version):
        super().obj_make_compatible(primitive, target_version)
        target_version = versionutils.convert_version_to_tuple(
            target_version)
        if target_version < (1, 1):
            primitive.pop('enabled', None)

    @staticmethod
    def _from_db_object(context, segment, db_segment):
        """Fill ``segment`` from a DB row and clear its change set."""
        for key in segment.fields:
            setattr(segment, key, db_segment[key])
        segment._context = context
        segment.obj_reset_changes()
        return segment

    @classmethod
    @base.remotable
    def get_by_id(cls, context, id):
        """Load a live segment by its integer id.

        :raises: FailoverSegmentNotFound
        """
        db_inst = db.failover_segment_get_by_id(context, id)
        return cls._from_db_object(context, cls(), db_inst)

    @classmethod
    @base.remotable
    def get_by_uuid(cls, context, uuid):
        """Load a live segment by its uuid.

        :raises: FailoverSegmentNotFound
        """
        db_inst = db.failover_segment_get_by_uuid(context, uuid)
        return cls._from_db_object(context, cls(), db_inst)

    @classmethod
    @base.remotable
    def get_by_name(cls, context, name):
        """Load a live segment by its name.

        :raises: FailoverSegmentNotFoundByName
        """
        db_inst = db.failover_segment_get_by_name(context, name)
        return cls._from_db_object(context, cls(), db_inst)

    @base.remotable
    def create(self):
        """Insert the segment, between segment.create.start and .end.

        The uuid is generated into the insert only: like the reference, the
        .end notification is built before the object is reloaded, so it
        carries neither ``id`` nor ``uuid``.

        :raises: ObjectActionError if already created, FailoverSegmentExists
        """
        if self.obj_attr_is_set('id'):
            raise exception.ObjectActionError(action='create',
                                              reason='already created')
        updates = self.masakari_obj_get_changes()
        if 'uuid' not in updates:
            updates['uuid'] = uuidutils.generate_uuid()

        notifications.notify_about_segment_api(
            self._context, self, action=Action.SEGMENT_CREATE,
            phase=Phase.START)
        db_segment = db.failover_segment_create(self._context, updates)
        notifications.notify_about_segment_api(
            self._context, self, action=Action.SEGMENT_CREATE,
            phase=Phase.END)
        self._from_db_object(self._context, self, db_segment)

    @base.remotable
    def save(self):
        """Write the changed fields, between segment.update.start and .end.

        :raises: FailoverSegmentNotFound, FailoverSegmentExists
        """
        updates = self.masakari_obj_get_changes()
        updates.pop('id', None)

        notifications.notify_about_segment_api(
            self._context, self, action=Action.SEGMENT_UPDATE,
            phase=Phase.START)
        db_segment = db.failover_segment_update(self._context, self.uuid,
                                                updates)
        notifications.notify_about_segment_api(
            self._context, self, action=Action.SEGMENT_UPDATE,
            phase=Phase.END)
        self._from_db_object(self._context, self, db_segment)

    @base.remotable
    def destroy(self):
        """Soft-delete the segment and its hosts (segment.delete.*).

        :raises: ObjectActionError if not created or without uuid,
            FailoverSegmentNotFound
        """
        if not self.obj_attr_is_set('id'):
            raise exception.ObjectActionError(action='destroy',
                                              reason='already destroyed')
        if not self.obj_attr_is_set('uuid'):
            raise exception.ObjectActionError(action='destroy',
                                              reason='no uuid')

        notifications.notify_about_segment_api(
            self._context, self, action=Action.SEGMENT_DELETE,
            phase=Phase.START)
        db.failover_segment_delete(self._context, self.uuid)
        notifications.notify_about_segment_api(
            self._context, self, action=Action.SEGMENT_DELETE,
            phase=Phase.END)
        delattr(self, 'id')

    def is_under_recovery(self, filters=None):
        """True when a host of this segment has a notification in filters.

        :param filters: e.g. ``{'status': ['new', 'running', 'error']}``.
        """
        return db.is_failover_segment_under_recovery(self._context,
                                                     self.uuid,
                                                     filters=filters)


@base.MasakariObjectRegistry.register
class FailoverSegmentList(base.ObjectListBase, base.MasakariObject):
    """A page of failover segments."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'objects': fields.ListOfObjectsField('FailoverSegment'),
    }

    # NOTE: the first parameter is named ``ctxt`` (not ``context``) as in
    # the reference; the name is part of the fingerprint.
    @classmethod
    @base.remotable
    def get_all(cls, ctxt, filters=None, sort_keys=None, sort_dirs=None,
                limit=None, marker=None):
        """List live segments; see the DB API for filters and paging.

        :raises: InvalidInput, MarkerNotFound, InvalidSortKey
        """
        groups = db.failover_segment_get_all_by_filters(
            ctxt, filters=filters, sort_keys=sort_keys, sort_dirs=sort_dirs,
            limit=limit, marker=marker)
        return base.obj_make_list(ctxt, cls(ctxt), FailoverSegment, groups)
