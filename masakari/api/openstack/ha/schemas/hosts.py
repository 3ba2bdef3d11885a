"""Schemas of POST/PUT /segments/{segment_id}/hosts."""

from masakari.api.openstack.ha.schemas import envelope
from masakari.api.validation import parameter_types

_host_properties = {
    'name': parameter_types.name,
    'type': parameter_types.type,
    'control_attributes': parameter_types.description,
    'reserved': parameter_types.boolean,
    'on_maintenance': parameter_types.boolean,
}

create = envelope.create('host', _host_properties,
                         ['name', 'type', 'control_attributes'])
update = envelope.update('host', _host_properties)
