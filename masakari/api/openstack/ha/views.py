"""Response representations of segments, hosts, notifications and vmoves.

Keys are listed in the order the reference writes them.
"""

from oslo_utils import timeutils

TIMESTAMP_FORMAT = '%Y-%m-%dT%H:%M:%S.%f'
PERSISTENCE_FIELDS = ('created_at', 'updated_at', 'deleted_at', 'deleted')

SEGMENT_FIELDS = ('id', 'uuid', 'name', 'service_type', 'enabled',
                  'description', 'recovery_method') + PERSISTENCE_FIELDS
NOTIFICATION_FIELDS = ('id', 'notification_uuid', 'generated_time',
                       'source_host_uuid', 'type', 'payload', 'status',
                       'recovery_workflow_details', 'failover_segment_uuid',
                       'message') + PERSISTENCE_FIELDS
VMOVE_FIELDS = ('id', 'uuid', 'notification_uuid', 'instance_uuid',
                'instance_name', 'source_host', 'dest_host', 'start_time',
                'end_time', 'type', 'status', 'message') + PERSISTENCE_FIELDS
PROGRESS_FIELDS = ('name', 'progress', 'progress_details', 'state')


def _value(value):
    if hasattr(value, 'strftime'):
        if value.tzinfo is not None:
            value = timeutils.normalize_time(value)
        return value.strftime(TIMESTAMP_FORMAT)
    return value


def _fields(obj, names):
    return {name: _value(obj[name]) for name in names
            if obj.obj_attr_is_set(name)}


def segment(obj):
    """A FailoverSegment as the API shows it."""
    return _fields(obj, SEGMENT_FIELDS)


def host(obj):
    """A Host with its segment embedded, as the API shows it."""
    view = _fields(obj, ('id', 'uuid', 'name'))
    view['failover_segment_id'] = obj.failover_segment.uuid
    view['failover_segment'] = segment(obj.failover_segment)
    view.update(_fields(obj, ('type', 'reserved', 'control_attributes',
                              'on_maintenance') + PERSISTENCE_FIELDS))
    return view


def notification(obj):
    """A Notification; ``recovery_workflow_details`` only when loaded."""
    view = _fields(obj, NOTIFICATION_FIELDS)
    if 'recovery_workflow_details' in view:
        view['recovery_workflow_details'] = [
            _fields(step, PROGRESS_FIELDS)
            for step in obj.recovery_workflow_details]
    return view


def vmove(obj):
    """A VMove as the API shows it."""
    return _fields(obj, VMOVE_FIELDS)
