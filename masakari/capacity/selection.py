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

"""Which servers of a failed host a recovery evacuates, and their restart
priority: one rule for the recovery flow and the capacity model.
"""

import typing

from oslo_log import log as logging
from oslo_utils import strutils

from masakari.compute import nova
import masakari.conf

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)

ERROR = 'error'


def is_ha_enabled(server, metadata_key):
    """Whether a Nova server's metadata marks it for recovery.

    True only for the usual true strings (``1``, ``t``, ``true``, ``on``,
    ``y``, ``yes``, any case, blanks ignored) under ``metadata_key``.
    """
    return strutils.bool_from_string(server.metadata.get(metadata_key),
                                     strict=False)


def priority(server):
    """The restart priority of a Nova server: the integer under
    [host_failure]/priority_metadata_key, 0 without one.
    """
    value = server.metadata.get(CONF.host_failure.priority_metadata_key)
    if value is None:
        return 0
    try:
        return int(str(value).strip())
    except ValueError:
        LOG.warning('Instance %(uuid)s: restart priority %(value)r is not '
                    'an integer; 0 is used.', {'uuid': server.id,
                                               'value': value})
        return 0


class Selection(typing.NamedTuple):
    """A failed host's servers as [host_failure] sorts them."""

    #: HA-enabled servers to evacuate, in Nova's order.
    ha_enabled: list
    #: The other servers (evacuated with evacuate_all_instances).
    others: list
    #: HA-enabled servers left alone: in error, with
    #: ignore_instances_in_error_state.
    ignored: list

    def evacuated(self):
        """The servers a recovery evacuates: HA-enabled ones, then the
        others when [host_failure]/evacuate_all_instances.
        """
        if CONF.host_failure.evacuate_all_instances:
            return self.ha_enabled + self.others
        return list(self.ha_enabled)


def select(servers):
    """Sort a failed host's Nova servers per [host_failure]."""
    options = CONF.host_failure
    ha_enabled, others, ignored = [], [], []
    for server in servers:
        is_ha = is_ha_enabled(server, options.ha_enabled_instance_metadata_key)
        if (options.ignore_instances_in_error_state and
                getattr(server, nova.VM_STATE) == ERROR):
            if is_ha:
                ignored.append(server)
            continue
        (ha_enabled if is_ha else others).append(server)
    return Selection(ha_enabled, others, ignored)
