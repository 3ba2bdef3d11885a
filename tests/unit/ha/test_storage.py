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

"""masakari.ha.storage on its own: the database errors of other drivers
than MariaDB's (seen through the API in tests/functional/api), and the
texts a MySQL utf8 connection cannot compare.
"""

from oslo_db import exception as db_exception
import sqlalchemy.exc
import testtools

from masakari import exception
from masakari.ha import storage
from masakari import objects
from masakari.objects import fields


def _data_error(driver_error):
    return db_exception.DBDataError(sqlalchemy.exc.DataError(
        'UPDATE t SET c=%(c)s', {'c': 'x' * 300}, driver_error))


class TestWriting(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.notified = []

    def notify(self, context, obj, action, phase, exception, tb):
        self.notified.append((obj, action, phase, type(exception)))

    def write(self, error):
        with storage.writing(self.notify, 'context', 'obj', 'host.update'):
            raise error

    def test_data_error_of_another_driver_is_a_400(self):
        error = self.assertRaises(
            exception.ValidationError, self.write,
            _data_error(ValueError('value too long for type character '
                                   'varying(255)\n')))
        # Without a field over the limit to name: no database text either.
        self.assertEqual('Invalid input received: a value is longer than '
                         'the database can store', error.format_message())
        self.assertEqual([('obj', 'host.update',
                           fields.EventNotificationPhase.ERROR,
                           db_exception.DBDataError)], self.notified)

    def test_the_field_over_the_limit_is_named_with_the_limit(self):
        host = objects.Host(name='h', control_attributes='\u20ac' * 30000)
        error = self.assertRaises(
            exception.ValidationError, self.write_object, host,
            _data_error(ValueError("Incorrect string value: '\\xE2\\x82' "
                                   "for column 'control_attributes'")))
        self.assertEqual(
            'Invalid input for field/attribute control_attributes. The '
            'value is 90000 bytes long in UTF-8; at most 65535 are allowed.',
            error.format_message())

    def test_a_text_within_the_limit_is_not_blamed(self):
        segment = objects.FailoverSegment(name='s',
                                          description='x' * 65535)
        error = self.assertRaises(
            exception.ValidationError, self.write_object, segment,
            _data_error(ValueError('value too long')))
        self.assertEqual('Invalid input received: a value is longer than '
                         'the database can store', error.format_message())

    def write_object(self, obj, error):
        with storage.writing(self.notify, 'context', obj, 'host.update'):
            raise error

    def test_other_errors_pass_unchanged(self):
        self.assertRaises(exception.HostExists, self.write,
                          exception.HostExists(name='h'))
        self.assertEqual([exception.HostExists],
                         [kind for _, _, _, kind in self.notified])

    def test_no_error_no_notification(self):
        with storage.writing(self.notify, 'context', 'obj', 'host.update'):
            pass
        self.assertEqual([], self.notified)


class TestComparable(testtools.TestCase):

    def test_basic_multilingual_plane(self):
        for value in ('', 'compute-1', '\u20ac\uffff', None, True, 3):
            self.assertTrue(storage.comparable(value), value)

    def test_above_the_plane(self):
        for value in ('\U00010000', 'ab\U0001F600cd'):
            self.assertFalse(storage.comparable(value), value)
