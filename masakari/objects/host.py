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

"""Host: a compute host under a failover segment, and its list."""

from oslo_utils import versionutils

from masakari.db import api as db
from masakari import exception
from masakari.objects import base
from masakari.objects import fields
from masakari.objects import segment


@base.MasakariObjectRegistry.register
class Host(base.MasakariPersistentObject, base.MasakariObject,
           base.MasakariObjectDictCompat):
    """A host, as stored in ``hosts``, with its segment object."""

    # Version 1.0: Initial version
    # Version 1.1: Added 'segment_uuid' parameter to 'get_by_uuid' method
    # Version 1.2: Removed 'failover_segment_id' parameter which can be
    #              retrieved from failover_segment object
    VERSION = '1.2'

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

    COLUMN_LOADERS = {
        # The row carries its segment's row (joined).
        'failover_segment': lambda host, name, db_segment: (
            segment.FailoverSegment._load(host._context, db_segment)),
    }

    def obj_make_compatible(self, primitive, target_version):
        super().obj_make_compatible(primitive, target_version)
        target_version = versionutils.convert_version_to_tuple(
            target_version)
        # NOTE: 1.0 and 1.1 carried the segment's uuid in
        # failover_segment_id; put it back for such receivers (the
        # reference drops it for good, see differences/objects.rst).
        if target_version < (1, 2) and 'failover_segment' in primitive:
            segment_data = primitive['failover_segment'][
                base.SERIAL_NAMESPACE + '.data']
            if 'uuid' in segment_data:
                primitive['failover_segment_id'] = segment_data['uuid']

    @classmethod
    @base.remotable
    def get_by_id(cls, context, id):
        """Load a live host by its integer id.

        :raises: HostNotFound
        """
        return cls._load(context, db.host_get_by_id(context, id))

    @classmethod
    @base.remotable
    def get_by_uuid(cls, context, uuid, segment_uuid=None):
        """Load a live host by uuid, optionally only under one segment.

        :raises: HostNotFound, HostNotFoundUnderFailoverSegment
        """
        return cls._load(context, db.host_get_by_uuid(
            context, uuid, segment_uuid=segment_uuid))

    @classmethod
    @base.remotable
    def get_by_name(cls, context, name):
        """Load a live host by its name.

        :raises: HostNotFoundByName
        """
        return cls._load(context, db.host_get_by_name(context, name))

    @base.remotable
    def create(self):
        """Insert the host, then reload it.

        The segment travels to the DB as ``failover_segment_id`` = the
        segment's uuid.

        :raises: ObjectActionError (already created, no segment), HostExists
        """
        self._create(db.host_create, prepare=_segment_uuid_for_db)

    @base.remotable
    def save(self):
        """Write the changed fields, then reload.

        :raises: ObjectActionError if the segment changed, HostNotFound,
            HostExists
        """
        if 'failover_segment' in self.obj_what_changed():
            raise exception.ObjectActionError(
                action='save', reason='failover segment changed')
        self._save(db.host_update)

    @base.remotable
    def destroy(self):
        """Soft-delete the host.

        :raises: ObjectActionError if not created or without uuid,
            HostNotFound
        """
        self._destroy(db.host_delete)

    def take_reserved(self):
        """Claim this reserved host for a recovery: the stored ``reserved``
        becomes false, unless another engine claimed it first.

        One conditional UPDATE decides the winner. The object is left
        unchanged: the winner records the change as any host update
        (``reserved = False``, then save()).

        :returns: True when this caller took it, False when the stored
            host was not reserved any more.
        """
        return db.host_update_if(self._context, self.uuid,
                                 {'reserved': True},
                                 {'reserved': False}) is not None


def _segment_uuid_for_db(updates):
    """The DB takes the host's segment as ``failover_segment_id`` = the
    segment's uuid.
    """
    if 'failover_segment' not in updates:
        raise exception.ObjectActionError(
            action='create', reason='failover segment not assigned')
    updates['failover_segment_id'] = updates.pop('failover_segment').uuid


@base.MasakariObjectRegistry.register
class HostList(base.ObjectListBase, base.MasakariObject):
    """A page of hosts."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'objects': fields.ListOfObjectsField('Host'),
    }

    @classmethod
    @base.remotable
    def get_all(cls, context, filters=None, sort_keys=None, sort_dirs=None,
                limit=None, marker=None):
        """List live hosts; filter ``failover_segment_id`` is a segment uuid.

        :raises: InvalidInput, MarkerNotFound, InvalidSortKey
        """
        return cls._query(context, db.host_get_all_by_filters, Host,
                          filters=filters, sort_keys=sort_keys,
                          sort_dirs=sort_dirs, limit=limit, marker=marker)
