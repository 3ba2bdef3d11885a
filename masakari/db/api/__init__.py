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

"""The DB API of the main database, called by the object layer: one
module per resource (the object layer's names), their functions gathered
here under Masakari 22.0.0's names.

Every function takes the request context first and runs in its own
transaction (see masakari.db.facade). Rows come back as ``rows.Row``
dicts (item and attribute access, ``get``); a host's row carries its
segment's row under ``failover_segment``. Create and update return the
row as the same transaction holds it after the write, delete returns
nothing. Reads only see live rows (``deleted = 0``).
"""

from masakari.db.api import base
from masakari.db.api import host
from masakari.db.api import notification
from masakari.db.api import segment
from masakari.db.api import vmove
from masakari.db import facade
from masakari.db import purge

# Upper bound of masakari-manage db purge --max_rows.
MAX_INT = purge.MAX_INT
FAULT_MODULE = base.FAULT_MODULE

configure = facade.configure
get_engine = facade.get_engine
reading = facade.reading
retried = facade.retried
purge_deleted_rows = purge.purge_deleted_rows

failover_segment_get_all_by_filters = (
    segment.failover_segment_get_all_by_filters)
failover_segment_get_by_id = segment.failover_segment_get_by_id
failover_segment_get_by_uuid = segment.failover_segment_get_by_uuid
failover_segment_get_by_name = segment.failover_segment_get_by_name
failover_segment_create = segment.failover_segment_create
failover_segment_update = segment.failover_segment_update
failover_segment_delete = segment.failover_segment_delete
is_failover_segment_under_recovery = segment.is_failover_segment_under_recovery

host_get_all_by_filters = host.host_get_all_by_filters
host_get_by_uuid = host.host_get_by_uuid
host_get_by_id = host.host_get_by_id
host_get_by_name = host.host_get_by_name
host_create = host.host_create
host_update = host.host_update
host_update_if = host.host_update_if
host_delete = host.host_delete

notifications_get_all_by_filters = (
    notification.notifications_get_all_by_filters)
notification_payloads_since = notification.notification_payloads_since
notification_get_by_uuid = notification.notification_get_by_uuid
notification_get_by_id = notification.notification_get_by_id
notification_create = notification.notification_create
notification_update = notification.notification_update
notification_update_if = notification.notification_update_if
notification_fence = notification.notification_fence
notification_delete = notification.notification_delete

vmoves_get_all_by_filters = vmove.vmoves_get_all_by_filters
vmove_get_by_uuid = vmove.vmove_get_by_uuid
vmove_create = vmove.vmove_create
vmoves_create = vmove.vmoves_create
vmove_update = vmove.vmove_update
vmove_delete = vmove.vmove_delete
