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

"""The request context: who is calling, and the DB session of the call.

It travels with every RPC message (``_context_*`` keys, see
``RequestContext.to_dict``), so its keys and their formats are part of the
wire contract with a reference masakari-api or masakari-engine.
"""

import copy

from oslo_context import context
from oslo_db.sqlalchemy import enginefacade
from oslo_utils import timeutils

from masakari import policy

# NOTE: timestamps always carry microseconds on the wire; a reference peer
# parses them with exactly this format and drops the message otherwise.
TIMESTAMP_FORMAT = '%Y-%m-%dT%H:%M:%S.%f'

READ_DELETED_VALUES = ('no', 'yes', 'only')

# Catalogue entries the services may need; anything else is dropped so the
# context stays small on the bus.
CATALOG_TYPES = ('compute', 'identity')


@enginefacade.transaction_context_provider
class RequestContext(context.RequestContext):
    """Security context and request information.

    Represents the user taking a given action within the system.
    """

    FROM_DICT_EXTRA_KEYS = [
        'read_deleted', 'remote_address', 'timestamp', 'service_catalog',
    ]

    def __init__(self, user_id=None, project_id=None, is_admin=None,
                 read_deleted="no", remote_address=None, timestamp=None,
                 service_catalog=None, user_auth_plugin=None, **kwargs):
        """Build a context.

        :param read_deleted: 'no' indicates deleted records are hidden,
            'yes' indicates deleted records are visible, 'only' indicates
            that *only* deleted records are visible.
        :param timestamp: a datetime, or a string in TIMESTAMP_FORMAT.
        :param user_auth_plugin: the keystone auth plugin of the caller;
            never serialised.
        """
        super().__init__(is_admin=is_admin, user_id=user_id,
                         project_id=project_id, **kwargs)

        self.read_deleted = read_deleted
        self.remote_address = remote_address
        if not timestamp:
            timestamp = timeutils.utcnow()
        if isinstance(timestamp, str):
            timestamp = timeutils.parse_strtime(timestamp, TIMESTAMP_FORMAT)
        self.timestamp = timestamp

        self.service_catalog = [entry for entry in service_catalog or []
                                if entry.get('type') in CATALOG_TYPES]
        self.user_auth_plugin = user_auth_plugin
        # The lease of the recovery run with this context (see
        # for_recovery); never serialised.
        self.recovery_lease = None
        if self.is_admin is None:
            self.is_admin = policy.check_is_admin(self)

    @property
    def read_deleted(self):
        return self._read_deleted

    @read_deleted.setter
    def read_deleted(self, read_deleted):
        if read_deleted is None:
            read_deleted = 'no'
        if read_deleted not in READ_DELETED_VALUES:
            raise ValueError("read_deleted can only be one of 'no', "
                             "'yes' or 'only', not %r" % read_deleted)
        self._read_deleted = read_deleted

    def to_dict(self):
        values = super().to_dict()
        # NOTE: user_id duplicates oslo's "user" key; reference peers send
        # both, so we do too.
        values.update({
            'user_id': self.user_id,
            'read_deleted': self.read_deleted,
            'remote_address': self.remote_address,
            'timestamp': self.timestamp.strftime(TIMESTAMP_FORMAT),
            'user_name': self.user_name,
            'service_catalog': self.service_catalog,
            'project_name': self.project_name,
        })
        return values

    def to_policy_values(self):
        """oslo.context's policy credentials plus the ``is_admin`` flag."""
        values = super().to_policy_values()
        values['is_admin'] = self.is_admin
        return values

    def elevated(self, read_deleted=None):
        """Return a version of this context with admin flag set."""
        ctx = copy.copy(self)
        ctx.is_admin = True
        ctx.roles = list(self.roles)
        if 'admin' not in ctx.roles:
            ctx.roles.append('admin')
        if read_deleted is not None:
            ctx.read_deleted = read_deleted
        return ctx

    def for_recovery(self, lease):
        """A copy of this context for running a recovery under ``lease``
        (masakari.engine.ownership.Lease): its database writes and Nova
        calls first confirm that the lease still holds.
        """
        ctx = copy.copy(self)
        ctx.recovery_lease = lease
        return ctx

    def confirm_ownership(self):
        """Before a step that changes the world: raise RecoveryLost when
        the recovery this context runs belongs to another engine now
        (nothing to confirm outside a leased recovery).
        """
        if self.recovery_lease is not None:
            self.recovery_lease.confirm()

    def can(self, action, target=None, fatal=True):
        """Check the policy rule ``action`` for this context.

        :param target: defaults to the caller's own project and user, which
            is what every Masakari endpoint checks against.
        :param fatal: raise PolicyNotAuthorized on failure when True,
            return False otherwise.
        """
        if target is None:
            target = {'project_id': self.project_id,
                      'user_id': self.user_id}
        return policy.authorize(self, action, target, do_raise=fatal)


def get_admin_context(read_deleted="no"):
    """An admin context with no user or project, for periodic tasks."""
    return RequestContext(user_id=None, project_id=None, is_admin=True,
                          read_deleted=read_deleted, overwrite=False)
