"""The ``{"<resource>": {...}}`` bodies of the segment and host writes.

Keyword order is the reference's: it decides which error
jsonschema reports first.
"""


def _envelope(key, resource_schema):
    return {
        'type': 'object',
        'properties': {key: resource_schema},
        'required': [key],
        'additionalProperties': False,
    }


def create(key, properties, required):
    """A create body: ``properties``, nothing else, ``required`` present."""
    return _envelope(key, {
        'type': 'object',
        'properties': properties,
        'additionalProperties': False,
        'required': list(required),
    })


def update(key, properties):
    """An update body: ``properties``, nothing else, at least one of them."""
    return _envelope(key, {
        'type': 'object',
        'properties': properties,
        'additionalProperties': False,
        'anyOf': [{'required': [name]} for name in properties],
    })
