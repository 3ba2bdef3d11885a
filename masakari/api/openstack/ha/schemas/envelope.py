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
