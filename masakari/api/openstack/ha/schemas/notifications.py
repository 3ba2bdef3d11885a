"""Schema of the POST /notifications envelope (payloads: ``payload``).

Unlike segments and hosts, ``required`` precedes ``additionalProperties``.
"""

from masakari.api.validation import parameter_types
from masakari.objects import fields

# NOTE: a tuple, so that enum errors render it as the reference does:
# ('COMPUTE_HOST', 'VM', 'PROCESS').
NOTIFICATION_TYPES = fields.NotificationType.ALL

create = {
    'type': 'object',
    'properties': {
        'notification': {
            'type': 'object',
            'properties': {
                'type': {'type': 'string', 'enum': NOTIFICATION_TYPES},
                'hostname': parameter_types.hostname,
                'generated_time': {'type': 'string',
                                   'format': 'date-time'},
                'payload': parameter_types.payload,
            },
            'required': ['type', 'hostname', 'generated_time', 'payload'],
            'additionalProperties': False,
        },
    },
    'required': ['notification'],
    'additionalProperties': False,
}
