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

"""Schemas of POST/PUT /segments; ``_v12`` versions accept ``enabled``."""

from masakari.api.openstack.ha.schemas import envelope
from masakari.api.validation import parameter_types
from masakari.objects import fields

# NOTE: a list, so that enum errors render it as the reference does:
# ['auto', 'reserved_host', 'auto_priority', 'rh_priority'].
RECOVERY_METHODS = list(fields.FailoverSegmentRecoveryMethod.ALL)
REQUIRED = ['name', 'recovery_method', 'service_type']

_segment_properties = {
    'name': parameter_types.name,
    'description': parameter_types.description,
    'recovery_method': {'type': 'string', 'enum': RECOVERY_METHODS},
    'service_type': parameter_types.name,
}
# NOTE: 'enabled' last, in the properties and in the update's anyOf.
_segment_properties_v12 = dict(_segment_properties,
                               enabled=parameter_types.boolean)

create = envelope.create('segment', _segment_properties, REQUIRED)
update = envelope.update('segment', _segment_properties)
create_v12 = envelope.create('segment', _segment_properties_v12, REQUIRED)
update_v12 = envelope.update('segment', _segment_properties_v12)
