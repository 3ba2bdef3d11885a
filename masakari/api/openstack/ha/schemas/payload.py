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

"""Payload schemas per notification type, validated with the payload as
the root document (so missing or extra keys carry no field prefix).

The enums are the tuples of masakari.objects.fields: error messages list
them in that order, in parentheses.
"""

from masakari.objects import fields

EVENTS = fields.EventType.ALL

compute_host = {
    'type': 'object',
    'properties': {
        'host_status': {'enum': fields.HostStatusType.ALL,
                        'type': 'string'},
        'cluster_status': {'enum': fields.ClusterStatusType.ALL,
                           'type': 'string'},
        'event': {'enum': EVENTS, 'type': 'string'},
    },
    'required': ['event'],
    'additionalProperties': False,
}

process = {
    'type': 'object',
    'properties': {
        'process_name': {'type': 'string', 'minLength': 1,
                         'maxLength': 4096},
        'event': {'enum': EVENTS, 'type': 'string'},
    },
    'required': ['process_name', 'event'],
    'additionalProperties': False,
}

vm = {
    'type': 'object',
    'properties': {
        'instance_uuid': {'type': 'string', 'format': 'uuid'},
        'vir_domain_event': {'type': 'string', 'minLength': 1,
                             'maxLength': 255},
        'event': {'type': 'string', 'minLength': 1, 'maxLength': 255},
    },
    'required': ['instance_uuid', 'vir_domain_event', 'event'],
    'additionalProperties': False,
}

BY_TYPE = {fields.NotificationType.COMPUTE_HOST: compute_host,
           fields.NotificationType.PROCESS: process,
           fields.NotificationType.VM: vm}
