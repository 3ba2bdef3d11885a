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

"""Initial revision

Creates failover_segments, notifications and hosts as a database migrated
by sqlalchemy-migrate up to version 007 has them.

Revision ID: 8f848eb45d03
Revises:
Create Date: 2023-07-13 12:00:07.851502
"""

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '8f848eb45d03'
down_revision = None
branch_labels = None
depends_on = None


def _common_columns():
    """The leading columns every Masakari table has, in this order."""
    return [
        sa.Column('created_at', sa.DateTime),
        sa.Column('updated_at', sa.DateTime),
        sa.Column('deleted_at', sa.DateTime),
        sa.Column('deleted', sa.Integer),
        sa.Column('id', sa.Integer, primary_key=True, nullable=False,
                  autoincrement=True),
    ]


def upgrade():
    op.create_table(
        'failover_segments',
        *_common_columns(),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('service_type', sa.String(255), nullable=False),
        sa.Column('description', sa.Text),
        sa.Column('recovery_method',
                  sa.Enum('auto', 'reserved_host', 'auto_priority',
                          'rh_priority', name='recovery_methods'),
                  nullable=False),
        sa.Column('enabled', sa.Boolean),
        sa.UniqueConstraint('name', 'deleted',
                            name='uniq_segment0name0deleted'),
        sa.UniqueConstraint('uuid', name='uniq_segments0uuid'),
    )
    op.create_index('segments_service_type_idx', 'failover_segments',
                    ['service_type'])

    op.create_table(
        'notifications',
        *_common_columns(),
        sa.Column('notification_uuid', sa.String(36), nullable=False),
        sa.Column('generated_time', sa.DateTime, nullable=False),
        sa.Column('source_host_uuid', sa.String(36), nullable=False),
        sa.Column('type', sa.String(36), nullable=False),
        sa.Column('payload', sa.Text),
        sa.Column('status',
                  sa.Enum('new', 'running', 'error', 'failed', 'ignored',
                          'finished', name='notification_status'),
                  nullable=False),
        sa.UniqueConstraint('notification_uuid',
                            name='uniq_notification0uuid'),
    )

    op.create_table(
        'hosts',
        *_common_columns(),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('reserved', sa.Boolean),
        sa.Column('type', sa.String(255), nullable=False),
        sa.Column('control_attributes', sa.Text, nullable=False),
        sa.Column('failover_segment_id', sa.String(36), nullable=False),
        sa.Column('on_maintenance', sa.Boolean),
        # NOTE: unnamed on purpose: the server names it (hosts_ibfk_1 on
        # MySQL), exactly as for a database created by Masakari 22.0.0.
        sa.ForeignKeyConstraint(['failover_segment_id'],
                                ['failover_segments.uuid']),
        sa.UniqueConstraint('name', 'deleted',
                            name='uniq_host0name0deleted'),
        sa.UniqueConstraint('uuid', name='uniq_host0uuid'),
    )
    op.create_index('hosts_type_idx', 'hosts', ['type'])
