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

"""Response representations of segments, hosts, notifications and vmoves.

Each view takes the object and the request's microversion. Keys are
listed in the order the reference writes them; a field that is unset on
the object is left out, and a field with a minimum microversion is shown
only from that version on.
"""

import collections
import functools

from oslo_utils import timeutils

from masakari.api import microversion
from masakari.objects import base as objects_base

TIMESTAMP_FORMAT = '%Y-%m-%dT%H:%M:%S.%f'
PERSISTENCE_FIELDS = ('created_at', 'updated_at', 'deleted_at', 'deleted')
TIME_FIELDS = frozenset(('created_at', 'updated_at', 'deleted_at',
                         'generated_time', 'start_time', 'end_time'))
# Fields shown only from a microversion on.
MIN_VERSIONS = {
    # The recovery progress, which only GET /notifications/{id} asks the
    # engine for.
    'recovery_workflow_details': microversion.Version('1.1'),
}

SEGMENT_FIELDS = ('id', 'uuid', 'name', 'service_type', 'enabled',
                  'description', 'recovery_method') + PERSISTENCE_FIELDS
HOST_FIELDS = ('type', 'reserved', 'control_attributes',
               'on_maintenance') + PERSISTENCE_FIELDS
NOTIFICATION_FIELDS = ('id', 'notification_uuid', 'generated_time',
                       'source_host_uuid', 'type', 'payload', 'status',
                       'recovery_workflow_details', 'failover_segment_uuid',
                       'message') + PERSISTENCE_FIELDS
VMOVE_FIELDS = ('id', 'uuid', 'notification_uuid', 'instance_uuid',
                'instance_name', 'source_host', 'dest_host', 'start_time',
                'end_time', 'type', 'status', 'message') + PERSISTENCE_FIELDS
PROGRESS_FIELDS = ('name', 'progress', 'progress_details', 'state')

_UNSET = object()
# One key of a view: where the object holds it, how it is written, and the
# first microversion showing it (None: all).
_Key = collections.namedtuple('_Key', 'name attribute render min_version')


def _timestamp(value):
    if value is None:
        return None
    # NOTE: a UTC time (every loaded one) prints its digits as they are.
    if value.utcoffset():
        value = timeutils.normalize_time(value)
    if value.year < 1000:
        # NOTE: strftime writes such a year without its leading zeros.
        return value.strftime(TIMESTAMP_FORMAT)
    # NOTE: the same text as TIMESTAMP_FORMAT (4-digit year, no offset),
    # faster than strftime (a page shows thousands of them; the measure
    # is in doc/source/contributor/benchmarks.rst).
    return value.isoformat(timespec='microseconds')[:26]


def _keys(names, render=None):
    """The _Keys of ``names``, worked out once per view rather than per
    object.
    """
    render = render or {}
    return tuple(_Key(name, objects_base.field_attribute(name),
                      render.get(name, _timestamp if name in TIME_FIELDS
                                 else None),
                      MIN_VERSIONS.get(name))
                 for name in names)


@functools.lru_cache(maxsize=None)
def _shown(keys, version):
    """(name, attribute, render) of the ``keys`` shown at ``version``,
    worked out once per view and microversion rather than per object.
    """
    return tuple((name, attribute, render)
                 for name, attribute, render, min_version in keys
                 if min_version is None or version >= min_version)


def _render(obj, keys, version, view=None):
    view = {} if view is None else view
    for name, attribute, render in _shown(keys, version):
        value = getattr(obj, attribute, _UNSET)
        if value is _UNSET:
            continue
        # NOTE: every renderer shows None as None (most times are unset).
        view[name] = (value if render is None or value is None
                      else render(value))
    return view


_SEGMENT = _keys(SEGMENT_FIELDS)
_HOST_HEAD = _keys(('id', 'uuid', 'name'))
_HOST_TAIL = _keys(HOST_FIELDS)
_PROGRESS = _keys(PROGRESS_FIELDS)
_NOTIFICATION = _keys(NOTIFICATION_FIELDS, render={
    'recovery_workflow_details': lambda steps: [
        _render(step, _PROGRESS, microversion.MAX_VERSION)
        for step in steps]})
_VMOVE = _keys(VMOVE_FIELDS)


def segment(obj, version):
    """A FailoverSegment as the API shows it at ``version``."""
    return _render(obj, _SEGMENT, version)


def host(obj, version):
    """A Host with its segment embedded, as the API shows it."""
    view = _render(obj, _HOST_HEAD, version)
    view['failover_segment_id'] = obj.failover_segment.uuid
    view['failover_segment'] = segment(obj.failover_segment, version)
    return _render(obj, _HOST_TAIL, version, view)


def notification(obj, version):
    """A Notification; ``recovery_workflow_details`` from 1.1, when set."""
    return _render(obj, _NOTIFICATION, version)


def vmove(obj, version):
    """A VMove as the API shows it."""
    return _render(obj, _VMOVE, version)
