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

"""FailoverSegment: a group of hosts recovered together, and its list."""

from oslo_utils import versionutils

from masakari.db import api as db
from masakari.objects import base
from masakari.objects import fields


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

    @classmethod
    @base.remotable
    def get_by_id(cls, context, id):
        """Load a live segment by its integer id.

        :raises: FailoverSegmentNotFound
        """
        return cls._load(context, db.failover_segment_get_by_id(context, id))

    @classmethod
    @base.remotable
    def get_by_uuid(cls, context, uuid):
        """Load a live segment by its uuid.

        :raises: FailoverSegmentNotFound
        """
        return cls._load(context,
                         db.failover_segment_get_by_uuid(context, uuid))

    @classmethod
    @base.remotable
    def get_by_name(cls, context, name):
        """Load a live segment by its name.

        :raises: FailoverSegmentNotFoundByName
        """
        return cls._load(context,
                         db.failover_segment_get_by_name(context, name))

    @base.remotable
    def create(self):
        """Insert the segment, then reload it.

        :raises: ObjectActionError if already created, FailoverSegmentExists
        """
        self._create(db.failover_segment_create)

    @base.remotable
    def save(self):
        """Write the changed fields, then reload.

        :raises: FailoverSegmentNotFound, FailoverSegmentExists
        """
        self._save(db.failover_segment_update)

    @base.remotable
    def destroy(self):
        """Soft-delete the segment and its hosts.

        :raises: ObjectActionError if not created or without uuid,
            FailoverSegmentNotFound
        """
        self._destroy(db.failover_segment_delete)

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
        return cls._query(ctxt, db.failover_segment_get_all_by_filters,
                          FailoverSegment, filters=filters,
                          sort_keys=sort_keys, sort_dirs=sort_dirs,
                          limit=limit, marker=marker)
