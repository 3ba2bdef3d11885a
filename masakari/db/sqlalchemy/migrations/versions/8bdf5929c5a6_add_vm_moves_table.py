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

"""Add vm moves table

Revision ID: 8bdf5929c5a6
Revises: 8f848eb45d03
Create Date: 2023-07-13 12:13:42.240598
"""

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = '8bdf5929c5a6'
down_revision = '8f848eb45d03'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'vmoves',
        sa.Column('created_at', sa.DateTime),
        sa.Column('updated_at', sa.DateTime),
        sa.Column('deleted_at', sa.DateTime),
        sa.Column('deleted', sa.Integer),
        sa.Column('id', sa.Integer, primary_key=True, nullable=False,
                  autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('notification_uuid', sa.String(36), nullable=False),
        sa.Column('instance_uuid', sa.String(36), nullable=False),
        sa.Column('instance_name', sa.String(255), nullable=False),
        sa.Column('source_host', sa.String(255)),
        sa.Column('dest_host', sa.String(255)),
        sa.Column('start_time', sa.DateTime),
        sa.Column('end_time', sa.DateTime),
        sa.Column('type', sa.String(36)),
        sa.Column('status', sa.String(255)),
        sa.Column('message', sa.Text),
        sa.UniqueConstraint('uuid', name='uniq_vmove0uuid'),
    )
