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
