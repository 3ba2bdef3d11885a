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

"""The schema of Masakari 22.0.0, backend-neutral, for schema tests.

Columns are listed in physical order as ``(name, type, nullable)`` where the
type is the generic SQL spelling (``VARCHAR(36)``, ``ENUM(...)``, ...).
"""

COMMON = [
    ('created_at', 'DATETIME', True),
    ('updated_at', 'DATETIME', True),
    ('deleted_at', 'DATETIME', True),
    ('deleted', 'INTEGER', True),
    ('id', 'INTEGER', False),
]

RECOVERY_METHODS = ('auto', 'reserved_host', 'auto_priority', 'rh_priority')
NOTIFICATION_STATUSES = ('new', 'running', 'error', 'failed', 'ignored',
                         'finished')

COLUMNS = {
    'failover_segments': COMMON + [
        ('uuid', 'VARCHAR(36)', False),
        ('name', 'VARCHAR(255)', False),
        ('service_type', 'VARCHAR(255)', False),
        ('description', 'TEXT', True),
        ('recovery_method', ('recovery_methods', RECOVERY_METHODS), False),
        ('enabled', 'BOOLEAN', True),
    ],
    'hosts': COMMON + [
        ('uuid', 'VARCHAR(36)', False),
        ('name', 'VARCHAR(255)', False),
        ('reserved', 'BOOLEAN', True),
        ('type', 'VARCHAR(255)', False),
        ('control_attributes', 'TEXT', False),
        ('failover_segment_id', 'VARCHAR(36)', False),
        ('on_maintenance', 'BOOLEAN', True),
    ],
    'notifications': COMMON + [
        ('notification_uuid', 'VARCHAR(36)', False),
        ('generated_time', 'DATETIME', False),
        ('source_host_uuid', 'VARCHAR(36)', False),
        ('type', 'VARCHAR(36)', False),
        ('payload', 'TEXT', True),
        ('status', ('notification_status', NOTIFICATION_STATUSES), False),
        ('failover_segment_uuid', 'VARCHAR(36)', True),
        ('message', 'TEXT', True),
    ],
    'vmoves': COMMON + [
        ('uuid', 'VARCHAR(36)', False),
        ('notification_uuid', 'VARCHAR(36)', False),
        ('instance_uuid', 'VARCHAR(36)', False),
        ('instance_name', 'VARCHAR(255)', False),
        ('source_host', 'VARCHAR(255)', True),
        ('dest_host', 'VARCHAR(255)', True),
        ('start_time', 'DATETIME', True),
        ('end_time', 'DATETIME', True),
        ('type', 'VARCHAR(36)', True),
        ('status', 'VARCHAR(255)', True),
        ('message', 'TEXT', True),
    ],
}

# name -> (table, columns)
UNIQUE_CONSTRAINTS = {
    'uniq_segment0name0deleted': ('failover_segments', ['name', 'deleted']),
    'uniq_segments0uuid': ('failover_segments', ['uuid']),
    'uniq_host0name0deleted': ('hosts', ['name', 'deleted']),
    'uniq_host0uuid': ('hosts', ['uuid']),
    'uniq_notification0uuid': ('notifications', ['notification_uuid']),
    'uniq_vmove0uuid': ('vmoves', ['uuid']),
}

# Non-unique indexes created by the migrations.
INDEXES = {
    'segments_service_type_idx': ('failover_segments', ['service_type']),
    'hosts_type_idx': ('hosts', ['type']),
}

# (table, columns, referred table, referred columns); left unnamed.
FOREIGN_KEYS = [
    ('hosts', ['failover_segment_id'], 'failover_segments', ['uuid']),
]

VERSION_TABLE = 'masakari_alembic_version'
HEAD = '13adff5efb9a'
REVISIONS = [
    # (revision, down_revision, title, create date)
    ('8f848eb45d03', None, 'Initial revision',
     '2023-07-13 12:00:07.851502'),
    ('8bdf5929c5a6', '8f848eb45d03', 'Add vm moves table',
     '2023-07-13 12:13:42.240598'),
    ('13adff5efb9a', '8bdf5929c5a6', 'Add vm moves table',
     '2025-05-13 14:10:42.220612'),
]
