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


"""PyMySQL connections settle TLS once per engine and read DATETIME
values faster, with the same results, through PyMySQL's public
parameters."""

from unittest import mock

from pymysql import connections as pymysql_connections
from pymysql import constants
from pymysql.constants import CR
from pymysql import converters
from pymysql import err as pymysql_err
import sqlalchemy as sa
import testtools

from masakari.db import pymysql_connection


class _Dialect:
    """A dialect whose connect() records its parameters and gives a
    connection whose server answers ``Ssl_version`` with ``tls``; the
    first ``refusals`` connections given a context fail as PyMySQL does
    when the server offers no TLS.
    """

    def __init__(self, tls='', refusals=0):
        self.tls = tls
        self.refusals = refusals
        self.connected = []

    def connect(self, *cargs, **cparams):
        self.connected.append(cparams)
        if 'ssl' in cparams and self.refusals:
            self.refusals -= 1
            raise pymysql_err.OperationalError(
                CR.CR_SSL_CONNECTION_ERROR,
                "SSL is required but the server doesn't support it")
        connection = mock.MagicMock()
        cursor = connection.cursor.return_value.__enter__.return_value
        cursor.fetchone.return_value = ('Ssl_version', self.tls)
        return connection


def _settings(context):
    return (context.verify_mode, context.check_hostname,
            context.verify_flags, context.options, context.protocol)


class TestTLS(testtools.TestCase):

    def connect(self, dialect, times, **cparams):
        connector = pymysql_connection._Connector()
        for _ in range(times):
            connector(dialect, None, (), dict(cparams))
        return [{key: value for key, value in connected.items()
                 if key != 'conv'} for connected in dialect.connected]

    def test_a_plain_server_settles_plain_connections(self):
        connected = self.connect(_Dialect(tls=''), 3)
        # NOTE: the first is PyMySQL's preferred mode, as given.
        self.assertEqual([{}, {'ssl_disabled': True},
                          {'ssl_disabled': True}], connected)

    def test_a_tls_server_settles_the_shared_context(self):
        connected = self.connect(_Dialect(tls='TLSv1.3'), 3)
        context = pymysql_connection.preferred_context()
        self.assertEqual([{}, {'ssl': context}, {'ssl': context}],
                         connected)

    def test_a_server_that_stopped_offering_tls_is_asked_again(self):
        dialect = _Dialect(tls='TLSv1.3')
        connector = pymysql_connection._Connector()
        connector(dialect, None, (), {})
        dialect.tls, dialect.refusals = '', 1
        connector(dialect, None, (), {})
        connector(dialect, None, (), {})
        self.assertEqual(
            [set(), {'ssl'}, set(), {'ssl_disabled'}],
            [set(connected) - {'conv'} for connected in dialect.connected])

    def test_other_connection_errors_are_raised(self):
        dialect = _Dialect(tls='TLSv1.3')
        connector = pymysql_connection._Connector()
        connector(dialect, None, (), {})
        error = pymysql_err.OperationalError(2003, "Can't connect")
        with mock.patch.object(dialect, 'connect', side_effect=error):
            self.assertRaises(pymysql_err.OperationalError, connector,
                              dialect, None, (), {})

    def test_tls_options_of_the_url_are_left_to_pymysql(self):
        for options in ({'ssl': {'ca': '/etc/ca.pem'}},
                        {'ssl_verify_cert': True}, {'ssl_disabled': True},
                        {'read_default_file': '/etc/my.cnf'}):
            dialect = _Dialect(tls='TLSv1.3')
            self.assertEqual([options] * 2,
                             self.connect(dialect, 2, **options))

    def test_shared_context_has_pymysqls_settings(self):
        own = pymysql_connections.Connection(defer_connect=True)
        shared = pymysql_connection.preferred_context()
        self.assertIsNot(own.ctx, shared)
        self.assertIs(shared, pymysql_connection.preferred_context())
        self.assertEqual(_settings(own.ctx), _settings(shared))


class TestUseFor(testtools.TestCase):

    def engine(self, url):
        engine = sa.create_engine(url)
        self.addCleanup(engine.dispose)
        return engine

    def test_pymysql_engines_connect_through_it(self):
        engine = self.engine('mysql+pymysql://user@127.0.0.1/db')
        with mock.patch.object(pymysql_connection, '_Connector') as hook:
            pymysql_connection.use_for(engine)
        self.assertTrue(sa.event.contains(engine, 'do_connect',
                                          hook.return_value))

    def test_other_drivers_are_left_alone(self):
        engine = self.engine('sqlite://')
        with mock.patch.object(pymysql_connection, '_Connector') as hook:
            pymysql_connection.use_for(engine)
        hook.assert_not_called()


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
        dialect = _Dialect()
        pymysql_connection._Connector()(dialect, None, (), {})
        self.assertIs(pymysql_connection.CONVERSIONS,
                      dialect.connected[0]['conv'])

    def test_conversions_of_the_url_win(self):
        own = dict(converters.conversions)
        dialect = _Dialect()
        pymysql_connection._Connector()(dialect, None, (), {'conv': own})
        self.assertIs(own, dialect.connected[0]['conv'])
