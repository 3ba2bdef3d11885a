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

"""The validator's formats and messages beyond the gabbi suite."""

import testtools

from masakari.api.openstack.ha.schemas import segments as segment_schema
from masakari.api.validation import parameter_types
from masakari.api.validation import validators
from masakari import exception


def _message(schema, document):
    try:
        validators.validate(schema, document)
    except exception.ValidationError as error:
        return error.format_message()
    return None


class TestDescriptionPattern(testtools.TestCase):

    def test_pattern_starts_like_the_reference(self):
        # The repr of the generated class, as the reference's message shows
        # it.
        self.assertTrue(repr(parameter_types.DESCRIPTION_PATTERN).startswith(
            "'^[\\n\\\\ -\\\\~\\xa0-¬®-ͷͺ-Ϳ΄-ΊΌΎ-ΡΣ-ԯ"))
        self.assertTrue(parameter_types.DESCRIPTION_PATTERN.endswith(']*$'))

    def test_tab_message_embeds_the_whole_pattern(self):
        body = {'segment': {'name': 'a', 'recovery_method': 'auto',
                            'service_type': 'C', 'description': 'a\tb'}}
        self.assertEqual(
            "Invalid input for field/attribute description. Value: a\tb. "
            "'a\\tb' does not match %r" % parameter_types.DESCRIPTION_PATTERN,
            _message(segment_schema.create, body))

    def test_printable_set(self):
        printable = parameter_types.printable_characters()
        for char in (' ', '\xa0', '\u3000', 'é', '~'):
            self.assertIn(char, printable)
        for char in ('\t', '\n', '\r', '\x00', '\u2028', '\u2029', '\ud800',
                     '\ue000', '\uffff'):
            self.assertNotIn(char, printable)


class TestNameFormat(testtools.TestCase):

    def _valid(self, name):
        return _message(parameter_types.name, name) is None

    def test_names(self):
        self.assertTrue(self._valid('seg 1'))
        self.assertTrue(self._valid('a\u3000b'))
        self.assertTrue(self._valid('trail\n'))
        self.assertTrue(self._valid('x'))
        for name in (' lead', 'trail ', '\xa0x', 'x\u3000', 'a\tb', '\n',
                     'two\n\n', 'emoji \U0001F600', 'a\x00'):
            self.assertFalse(self._valid(name), repr(name))

    def test_name_message(self):
        self.assertEqual(
            "An invalid 'name' value was provided. The name must be: "
            "printable characters. Can not start or end with whitespace.",
            _message(parameter_types.name, ' x'))


class TestDateTimeFormat(testtools.TestCase):

    SCHEMA = {'type': 'string', 'format': 'date-time'}

    def test_accepted(self):
        for value in ('2017-04-21T09:47:59Z', '2017-04-21 09:47:59',
                      '2017-04-21', '20170421', '2017',
                      '2017-04-21T09:47:59.123+02:00'):
            self.assertIsNone(_message(self.SCHEMA, value), value)

    def test_rejected(self):
        for value in ('2017-13-01T00:00:00', '2026-12-02t10:00:00z',
                      'not-a-date', '201704', '0001-01-01T00:00:00+01:00',
                      '9999-12-31T23:59:59-01:00'):
            self.assertEqual("'%s' is not a 'date-time'" % value,
                             _message(self.SCHEMA, value), value)


class TestUUIDFormat(testtools.TestCase):

    SCHEMA = {'type': 'string', 'format': 'uuid'}

    def test_uuid_like_forms(self):
        for value in ('96ab1c42-668c-4f2d-8689-afa3301d4ee9',
                      '96AB1C42-668C-4F2D-8689-AFA3301D4EE9',
                      '96ab1c42668c4f2d8689afa3301d4ee9',
                      '{96ab1c42-668c-4f2d-8689-afa3301d4ee9}',
                      'urn:uuid:96ab1c42-668c-4f2d-8689-afa3301d4ee9'):
            self.assertIsNone(_message(self.SCHEMA, value), value)
        self.assertEqual("'x' is not a 'uuid'", _message(self.SCHEMA, 'x'))
