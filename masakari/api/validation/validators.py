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

"""The Draft 4 validator with Masakari's formats and error wording."""

import unicodedata

import iso8601
import jsonschema
from oslo_utils import timeutils
from oslo_utils import uuidutils

from masakari.api.validation import parameter_types
from masakari import exception

NAME_RULE = ('printable characters. Can not start or end with whitespace.')

FORMAT_CHECKER = jsonschema.FormatChecker()


@FORMAT_CHECKER.checks('date-time')
def _is_date_time(value):
    if not isinstance(value, str):
        return True
    try:
        # NOTE: a date whose UTC value leaves datetime's range (year 1 with
        # a positive offset...) is not a usable date-time either; the
        # reference failed later with a 500.
        timeutils.normalize_time(iso8601.parse_date(value))
    except (iso8601.ParseError, ValueError, TypeError, OverflowError):
        return False
    return True


@FORMAT_CHECKER.checks('uuid')
def _is_uuid(value):
    if not isinstance(value, str):
        return True
    return uuidutils.is_uuid_like(value)


@FORMAT_CHECKER.checks('name')
def _is_name(value):
    """Printable characters, not starting or ending with a space separator.

    NOTE: the reference matches with ``re.search(...$)``, where ``$`` also
    matches before one final line feed, so ``"name\\n"`` is accepted.
    """
    if not isinstance(value, str):
        return True
    if value.endswith('\n'):
        value = value[:-1]
    printable = parameter_types.printable_characters()
    if not value or not all(char in printable for char in value):
        return False
    return not (_is_space(value[0]) or _is_space(value[-1]))


def _is_space(char):
    return unicodedata.category(char) == 'Zs'


def _detail(error):
    """The message a client sees for the first schema violation."""
    if error.validator == 'format' and error.validator_value == 'name':
        return exception.InvalidName(reason=NAME_RULE).format_message()
    if error.path:
        return ('Invalid input for field/attribute %(path)s. '
                'Value: %(value)s. %(message)s'
                % {'path': error.path[-1], 'value': error.instance,
                   'message': error.message})
    return error.message


def validate(schema, document):
    """Validate ``document``; raise ValidationError (400) on the first error.

    Errors come in schema order (keywords and properties as written), and
    only the first one is reported, like the reference.
    """
    validator = jsonschema.Draft4Validator(schema,
                                           format_checker=FORMAT_CHECKER)
    for error in validator.iter_errors(document):
        raise exception.ValidationError(detail=_detail(error))
