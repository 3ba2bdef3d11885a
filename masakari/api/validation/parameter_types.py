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

"""JSON-schema fragments shared by the request schemas.

Keyword order inside each fragment is part of the contract: jsonschema
reports the first failing keyword, so the order decides the message.
"""

import functools
import re
import unicodedata


@functools.lru_cache(maxsize=None)
def printable_characters():
    """The printable set P: BMP code points (but U+FFFF) outside C*, Zl, Zp."""
    chars = []
    for code in range(0xFFFF):
        category = unicodedata.category(chr(code))
        if category.startswith('C'):
            continue
        if category.startswith('Z') and category != 'Zs':
            continue
        chars.append(chr(code))
    return frozenset(chars)


def _character_class(members):
    """Write a set of code points as regex class ranges, in code order."""
    parts = []
    run_start = previous = None
    for char in sorted(members):
        if previous is not None and ord(char) == ord(previous) + 1:
            previous = char
            continue
        if run_start is not None:
            parts.append(_run(run_start, previous))
        run_start = previous = char
    if run_start is not None:
        parts.append(_run(run_start, previous))
    return ''.join(parts)


def _run(first, last):
    if first == last:
        return re.escape(first)
    return re.escape(first) + '-' + re.escape(last)


# NOTE: the literal line feed comes first, then P; reference clients see
# this exact string in pattern error messages.
DESCRIPTION_PATTERN = '^[\n' + _character_class(printable_characters()) + ']*$'

name = {
    'type': 'string', 'minLength': 1, 'maxLength': 255, 'format': 'name',
}

description = {
    'type': ['string', 'null'], 'minLength': 0,
    'pattern': DESCRIPTION_PATTERN,
}

type = {
    'type': ['string', 'null'], 'minLength': 0, 'maxLength': 255,
    'pattern': '^[a-zA-Z0-9]*$',
}

boolean = {
    'type': ['boolean', 'string'],
    'enum': [True, 'True', 'TRUE', 'true', '1', 'ON', 'On', 'on',
             'YES', 'Yes', 'yes',
             False, 'False', 'FALSE', 'false', '0', 'OFF', 'Off', 'off',
             'NO', 'No', 'no'],
}

hostname = {
    'type': 'string', 'minLength': 1, 'maxLength': 255,
    'pattern': '^[a-zA-Z0-9-._]*$',
}

payload = {
    'type': 'object',
    'patternProperties': {
        '^[a-zA-Z0-9-_:. ]{1,255}$': {'type': 'string', 'maxLength': 255},
    },
    'additionalProperties': False,
}
