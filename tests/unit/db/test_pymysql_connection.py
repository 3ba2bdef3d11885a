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


"""PyMySQL connections share their preferred-mode TLS context and read
DATETIME values faster, with the same results."""

from pymysql import connections as pymysql_connections
from pymysql import constants
from pymysql import converters
import sqlalchemy as sa
import testtools

from masakari.db import pymysql_connection


def _settings(context):
    return (context.verify_mode, context.check_hostname,
            context.verify_flags, context.options, context.protocol)


class TestConnection(testtools.TestCase):

    def connection(self, cls=pymysql_connection.Connection, **options):
        return cls(host='127.0.0.1', defer_connect=True, **options)

    def test_preferred_mode_context_is_shared(self):
        first, second = self.connection(), self.connection()
        self.assertIs(first.ctx, second.ctx)
        # NOTE: TLS still offered and not required, as PyMySQL does.
        self.assertTrue(first.ssl)
        self.assertFalse(first._ssl_required)

    def test_shared_context_has_pymysqls_settings(self):
        own = self.connection(cls=pymysql_connections.Connection)
        self.assertIsNot(own.ctx, self.connection().ctx)
        self.assertEqual(_settings(own.ctx), _settings(self.connection().ctx))

    def test_tls_options_get_a_context_of_their_own(self):
        connection = self.connection(ssl_verify_cert=True)
        self.assertIsNot(self.connection().ctx, connection.ctx)
        self.assertTrue(connection._ssl_required)

    def test_disabled_tls_builds_no_context(self):
        connection = self.connection(ssl_disabled=True)
        self.assertFalse(connection.ssl)


class TestUseFor(testtools.TestCase):

    def engine(self, url):
        engine = sa.create_engine(url)
        self.addCleanup(engine.dispose)
        pymysql_connection.use_for(engine)
        return engine

    def test_pymysql_engine_connects_through_it(self):
        engine = self.engine('mysql+pymysql://user@127.0.0.1/db')
        self.assertTrue(sa.event.contains(engine, 'do_connect',
                                          pymysql_connection._connect))
        connection = pymysql_connection._connect(
            engine.dialect, None, (),
            {'host': '127.0.0.1', 'defer_connect': True})
        self.assertIsInstance(connection, pymysql_connection.Connection)

    def test_other_drivers_are_left_alone(self):
        engine = self.engine('sqlite://')
        self.assertFalse(sa.event.contains(engine, 'do_connect',
                                           pymysql_connection._connect))


class TestDatetimeReading(testtools.TestCase):
    """DATETIME and TIMESTAMP texts read as PyMySQL reads them."""

    TEXTS = ('2026-12-03 19:18:19', '2026-12-03 19:18:19.097197',
             '2026-12-03 19:18:19.5', '0001-01-01 00:00:00',
             '9999-12-31 23:59:59.999999', '0000-00-00 00:00:00',
             '2026-02-30 00:00:00', '2026-12-03', 'not a time',
             '2026-12-03T19:18:19', '2026-12-03 19:18:19+02:00',
             '2026-12-03 19:18:19.5+02:00', '2026-12-03 19:18',
             b'2026-12-03 19:18:19')

    def test_same_values_as_pymysql(self):
        for field_type in (constants.FIELD_TYPE.DATETIME,
                           constants.FIELD_TYPE.TIMESTAMP):
            read = pymysql_connection.CONVERSIONS[field_type]
            for text in self.TEXTS:
                expected = converters.convert_datetime(text)
                self.assertEqual((type(expected), expected),
                                 (type(read(text)), read(text)), text)

    def test_connections_made_for_engines_use_them(self):
        cparams = {'host': '127.0.0.1', 'defer_connect': True}
        connection = pymysql_connection._connect(None, None, (), cparams)
        self.assertIs(pymysql_connection._datetime,
                      connection.decoders[constants.FIELD_TYPE.DATETIME])

    def test_conversions_of_the_url_win(self):
        own = dict(converters.conversions)
        connection = pymysql_connection._connect(
            None, None, (), {'host': '127.0.0.1', 'defer_connect': True,
                             'conv': own})
        self.assertIs(converters.convert_datetime,
                      connection.decoders[constants.FIELD_TYPE.DATETIME])


class TestRowReading(testtools.TestCase):
    """Rows read from result packets as PyMySQL reads them."""

    # (encoding, converter) per column, as PyMySQL's result describes them.
    CONVERTERS = [('utf8', None), (None, None), ('utf8', int),
                  ('utf8', pymysql_connection._datetime), ('utf8', None)]

    @staticmethod
    def _value(data):
        """A length-encoded string (None: the NULL marker)."""
        if data is None:
            return b'\xfb'
        size = len(data)
        if size < 0xfb:
            return bytes([size]) + data
        for marker, width in ((0xfc, 2), (0xfd, 3), (0xfe, 8)):
            if size < 1 << (8 * width):
                return bytes([marker]) + size.to_bytes(width, 'little') + data
        raise ValueError(size)

    def _rows(self, *values):
        packet_data = b''.join(self._value(value) for value in values)
        connection = pymysql_connections.Connection(defer_connect=True)
        rows = []
        for result_class in (pymysql_connections.MySQLResult,
                             pymysql_connection.Result):
            result = result_class(connection)
            result.converters = self.CONVERTERS
            packet = pymysql_connections.MysqlPacket(packet_data, 'utf8')
            rows.append((result._read_row_from_packet(packet),
                         packet._position))
        return rows

    def test_same_rows_as_pymysql(self):
        long_text = 'é' * 200  # 400 bytes: a two-byte length
        cases = [
            (b'name', b'\x00\xff', b'42', b'2026-12-03 19:18:19.5', b''),
            (None, None, None, None, None),
            ('ünïcödé ✓'.encode(), b'', b'-7', b'0000-00-00 00:00:00',
             long_text.encode()),
            (b'x' * 0xfa, b'y' * 0xfb, b'0', b'2026-12-03 19:18:19',
             b'z' * 70000),  # three-byte length
        ]
        for values in cases:
            expected, ours = self._rows(*values)
            self.assertEqual(expected, ours)
            self.assertEqual(len(values), len(ours[0]))

    def test_eight_byte_length(self):
        expected, ours = self._rows(b'a', b'b' * (1 << 24), b'1', None, None)
        self.assertEqual(expected, ours)
        self.assertEqual(1 << 24, len(ours[0][1]))

    def test_row_shorter_than_its_columns(self):
        expected, ours = self._rows(b'only', None)
        self.assertEqual(expected, ours)
        self.assertEqual(('only', None), ours[0])

    def test_buffered_queries_read_through_it(self):
        connection = pymysql_connection.Connection(defer_connect=True)
        results = []
        self.patch(pymysql_connection.Result, 'read',
                   lambda result: results.append(result))
        connection._read_query_result()
        self.assertEqual([pymysql_connection.Result],
                         [type(result) for result in results])
        self.assertIs(results[0], connection._result)
