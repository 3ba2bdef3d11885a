"""The payload data keys each API event carries (``fault`` always), shared
by the unit and the RabbitMQ notification tests.

A ``.start`` of a create (and its ``.end``, built before the reload) has
no id or uuid; every other event has them.
"""

SEGMENT_START = {'name', 'service_type', 'description', 'recovery_method',
                 'enabled', 'fault'}
SEGMENT_FULL = SEGMENT_START | {'id', 'uuid'}
HOST_START = {'name', 'failover_segment', 'type', 'control_attributes',
              'on_maintenance', 'reserved', 'fault'}
HOST_FULL = HOST_START | {'id', 'uuid'}
NOTIFICATION_START = {'type', 'generated_time', 'source_host_uuid',
                      'payload', 'status', 'fault'}
NOTIFICATION_FULL = NOTIFICATION_START | {'id', 'notification_uuid'}
