"""Schemas of POST/PUT /segments; ``_v12`` versions accept ``enabled``."""

import copy

from masakari.api.validation import parameter_types

RECOVERY_METHODS = ['auto', 'reserved_host', 'auto_priority', 'rh_priority']

_segment_properties = {
    'name': parameter_types.name,
    'description': parameter_types.description,
    'recovery_method': {'type': 'string', 'enum': RECOVERY_METHODS},
    'service_type': parameter_types.name,
}

create = {
    'type': 'object',
    'properties': {
        'segment': {
            'type': 'object',
            'properties': _segment_properties,
            'additionalProperties': False,
            'required': ['name', 'recovery_method', 'service_type'],
        },
    },
    'required': ['segment'],
    'additionalProperties': False,
}

update = copy.deepcopy(create)
del update['properties']['segment']['required']
update['properties']['segment']['anyOf'] = [
    {'required': [name]} for name in _segment_properties]

create_v12 = copy.deepcopy(create)
create_v12['properties']['segment']['properties']['enabled'] = (
    parameter_types.boolean)

update_v12 = copy.deepcopy(update)
update_v12['properties']['segment']['properties']['enabled'] = (
    parameter_types.boolean)
update_v12['properties']['segment']['anyOf'].append({'required': ['enabled']})
