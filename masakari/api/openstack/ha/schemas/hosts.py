"""Schemas of POST/PUT /segments/{segment_id}/hosts."""

import copy

from masakari.api.validation import parameter_types

_host_properties = {
    'name': parameter_types.name,
    'type': parameter_types.type,
    'control_attributes': parameter_types.description,
    'reserved': parameter_types.boolean,
    'on_maintenance': parameter_types.boolean,
}

create = {
    'type': 'object',
    'properties': {
        'host': {
            'type': 'object',
            'properties': _host_properties,
            'additionalProperties': False,
            'required': ['name', 'type', 'control_attributes'],
        },
    },
    'required': ['host'],
    'additionalProperties': False,
}

update = copy.deepcopy(create)
del update['properties']['host']['required']
update['properties']['host']['anyOf'] = [
    {'required': [name]} for name in _host_properties]
