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

"""The values of the enumerations that the database schema stores and the
options name: segment recovery methods and notification statuses.

They live here, below every layer, so that each spells them once: the
object fields (masakari.objects.fields) take them from here, and so do
the database models, the purge and the option help. Their order is
contract (object fingerprints, SQL ENUM definitions, API messages).
"""


class RecoveryMethod:
    """How the hosts of a failover segment are recovered."""

    AUTO = 'auto'
    RESERVED_HOST = 'reserved_host'
    AUTO_PRIORITY = 'auto_priority'
    RH_PRIORITY = 'rh_priority'

    ALL = (AUTO, RESERVED_HOST, AUTO_PRIORITY, RH_PRIORITY)


class NotificationStatus:
    """Where a notification is in its processing."""

    NEW = 'new'
    RUNNING = 'running'
    ERROR = 'error'
    FAILED = 'failed'
    IGNORED = 'ignored'
    FINISHED = 'finished'

    ALL = (NEW, RUNNING, ERROR, FAILED, IGNORED, FINISHED)
    # Done with: no engine processes it again.
    FINAL = (FINISHED, FAILED, IGNORED)
