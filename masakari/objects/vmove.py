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

"""VMove: one instance moved off a failed host, and its list.

VMoves are read by the API and written by the engine; they never travel
over RPC and send no versioned notifications.
"""


from masakari.db import api as db
from masakari.objects import base
from masakari.objects import fields


@base.MasakariObjectRegistry.register
class VMove(base.MasakariPersistentObject, base.MasakariObject,
            base.MasakariObjectDictCompat):
    """An instance move, as stored in ``vmoves``."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(),
        'notification_uuid': fields.UUIDField(),
        'instance_uuid': fields.UUIDField(),
        'instance_name': fields.StringField(),
        'source_host': fields.StringField(nullable=True),
        'dest_host': fields.StringField(nullable=True),
        'start_time': fields.DateTimeField(nullable=True),
        'end_time': fields.DateTimeField(nullable=True),
        'type': fields.VMoveTypeField(nullable=True),
        'status': fields.VMoveStatusField(nullable=True),
        'message': fields.StringField(nullable=True),
    }

    @classmethod
    @base.remotable
    def get_by_uuid(cls, context, uuid):
        """Load a live vmove by its uuid.

        :raises: VMoveNotFound
        """
        return cls._load(context, db.vmove_get_by_uuid(context, uuid))

    @base.remotable
    def create(self):
        """Insert the vmove (uuid generated when not set).

        :raises: ObjectActionError if already created
        """
        self._create(db.vmove_create)

    @classmethod
    def create_all(cls, context, vmoves):
        """Insert new vmoves in one transaction (uuids generated when not
        set), e.g. those of one host recovery.

        :raises: ObjectActionError if one is already created
        """
        cls._create_all(context, vmoves, db.vmoves_create)

    @base.remotable
    def save(self):
        """Write the changed fields.

        :raises: VMoveNotFound
        """
        self._save(db.vmove_update)


@base.MasakariObjectRegistry.register
class VMoveList(base.ObjectListBase, base.MasakariObject):
    """A page of vmoves."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'objects': fields.ListOfObjectsField('VMove'),
    }

    # NOTE: ``ctxt``, not ``context``: the name is part of the fingerprint.
    @classmethod
    @base.remotable
    def get_all(cls, ctxt, filters=None, sort_keys=None, sort_dirs=None,
                limit=None, marker=None):
        """List live vmoves; see the DB API for filters and paging.

        :raises: InvalidInput, MarkerNotFound, InvalidSortKey
        """
        return cls._query(ctxt, db.vmoves_get_all_by_filters, VMove,
                          filters=filters, sort_keys=sort_keys,
                          sort_dirs=sort_dirs, limit=limit, marker=marker)

    @classmethod
    @base.remotable
    def get_all_vmoves(cls, ctxt, notification_uuid, status=None):
        """List the vmoves of one notification, optionally in one status."""
        filters = {'notification_uuid': notification_uuid}
        if status:
            filters['status'] = status
        return cls.get_all(ctxt, filters=filters)
