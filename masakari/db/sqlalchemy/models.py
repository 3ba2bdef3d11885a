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

"""ORM models of the four Masakari tables.

The tables must be identical to what the alembic migrations create: same
columns in the same physical order, types, nullability, no server
defaults, and the same constraint and index names. A unit test compares
both.
"""

from oslo_db.sqlalchemy import models
from oslo_utils import timeutils
import sqlalchemy as sa
from sqlalchemy import orm

from masakari import enums

BASE = orm.declarative_base()


def utcnow_whole_seconds():
    """UTC now without microseconds: how created_at/updated_at are stored."""
    return timeutils.utcnow().replace(microsecond=0)


class MasakariBase(models.ModelBase):
    """Columns shared by every table, in their physical order."""

    # NOTE: sort_order puts these mixin columns first, as the migrations
    # create them; SQLAlchemy would otherwise append them at the end.
    created_at = orm.mapped_column(sa.DateTime, default=utcnow_whole_seconds,
                                   sort_order=-5)
    updated_at = orm.mapped_column(sa.DateTime, onupdate=utcnow_whole_seconds,
                                   sort_order=-4)
    deleted_at = orm.mapped_column(sa.DateTime, sort_order=-3)
    deleted = orm.mapped_column(sa.Integer, default=0, sort_order=-2)
    id = orm.mapped_column(sa.Integer, primary_key=True, autoincrement=True,
                           sort_order=-1)


class FailoverSegment(BASE, MasakariBase):
    """A failover segment: hosts that back each other up."""

    __tablename__ = 'failover_segments'
    __table_args__ = (
        sa.UniqueConstraint('name', 'deleted',
                            name='uniq_segment0name0deleted'),
        sa.UniqueConstraint('uuid', name='uniq_segments0uuid'),
        sa.Index('segments_service_type_idx', 'service_type'),
    )

    uuid = orm.mapped_column(sa.String(36), nullable=False)
    name = orm.mapped_column(sa.String(255), nullable=False)
    service_type = orm.mapped_column(sa.String(255), nullable=False)
    description = orm.mapped_column(sa.Text)
    recovery_method = orm.mapped_column(
        sa.Enum(*enums.RecoveryMethod.ALL, name='recovery_methods'),
        nullable=False)
    enabled = orm.mapped_column(sa.Boolean, default=True)


class Host(BASE, MasakariBase):
    """A compute host of a segment (``failover_segment_id`` is its uuid)."""

    __tablename__ = 'hosts'
    __table_args__ = (
        sa.UniqueConstraint('name', 'deleted',
                            name='uniq_host0name0deleted'),
        sa.UniqueConstraint('uuid', name='uniq_host0uuid'),
        sa.Index('hosts_type_idx', 'type'),
    )

    uuid = orm.mapped_column(sa.String(36), nullable=False)
    name = orm.mapped_column(sa.String(255), nullable=False)
    reserved = orm.mapped_column(sa.Boolean, default=False)
    type = orm.mapped_column(sa.String(255), nullable=False)
    control_attributes = orm.mapped_column(sa.Text, nullable=False)
    # NOTE: the constraint stays unnamed, as in the migration: MySQL then
    # calls it hosts_ibfk_1, PostgreSQL hosts_failover_segment_id_fkey.
    failover_segment_id = orm.mapped_column(
        sa.String(36), sa.ForeignKey('failover_segments.uuid'),
        nullable=False)
    on_maintenance = orm.mapped_column(sa.Boolean, default=False)

    # NOTE: the join tests the host's deleted flag, not the segment's
    # as the reference does: a live host comes with its segment row as it is.
    failover_segment = orm.relationship(
        FailoverSegment,
        foreign_keys=failover_segment_id,
        primaryjoin='and_(Host.failover_segment_id == FailoverSegment.uuid,'
                    ' Host.deleted == 0)',
        lazy='joined')


class Notification(BASE, MasakariBase):
    """A failure report sent by a monitor."""

    __tablename__ = 'notifications'
    __table_args__ = (
        sa.UniqueConstraint('notification_uuid',
                            name='uniq_notification0uuid'),
    )

    notification_uuid = orm.mapped_column(sa.String(36), nullable=False)
    generated_time = orm.mapped_column(sa.DateTime, nullable=False)
    source_host_uuid = orm.mapped_column(sa.String(36), nullable=False)
    type = orm.mapped_column(sa.String(36), nullable=False)
    payload = orm.mapped_column(sa.Text)
    status = orm.mapped_column(
        sa.Enum(*enums.NotificationStatus.ALL, name='notification_status'),
        nullable=False)
    failover_segment_uuid = orm.mapped_column(sa.String(36))
    message = orm.mapped_column(sa.Text)


class VMove(BASE, MasakariBase):
    """One instance moved (evacuated) while recovering a notification."""

    __tablename__ = 'vmoves'
    __table_args__ = (
        sa.UniqueConstraint('uuid', name='uniq_vmove0uuid'),
    )

    uuid = orm.mapped_column(sa.String(36), nullable=False)
    notification_uuid = orm.mapped_column(sa.String(36), nullable=False)
    instance_uuid = orm.mapped_column(sa.String(36), nullable=False)
    instance_name = orm.mapped_column(sa.String(255), nullable=False)
    source_host = orm.mapped_column(sa.String(255))
    dest_host = orm.mapped_column(sa.String(255))
    start_time = orm.mapped_column(sa.DateTime)
    end_time = orm.mapped_column(sa.DateTime)
    type = orm.mapped_column(sa.String(36))
    status = orm.mapped_column(sa.String(255))
    message = orm.mapped_column(sa.Text)
