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

"""PyMySQL connection settings of Masakari's engines, through PyMySQL's
public parameters only: DATETIME values read by ``datetime.fromisoformat``
(``conv=``), and TLS settled once per server rather than per connection.

NOTE: given no TLS option, PyMySQL connects in "preferred" mode: it
builds a TLS context for every connection, loading the system's CA
certificates, and uses it only if the server offers TLS. Building it
costs more CPU than most transactions, and the API and the engine open
connections past their pool's size under load (see
doc/source/contributor/benchmarks.rst). Here the first connection of an
engine is PyMySQL's own; whether it ended up encrypted settles the later
ones: given the process's one SSLContext (made with PyMySQL's settings
for that mode), or ``ssl_disabled``. A server that stops offering TLS
is found at the next connection, which starts over. Connections given TLS
options of their own (from the connection URL) are left to PyMySQL.
"""

import datetime
import functools
import ssl

from pymysql import constants
from pymysql.constants import CR
from pymysql import converters
from pymysql import err as pymysql_err
import sqlalchemy as sa

# The connect() parameters that ask for something else than PyMySQL's
# preferred mode.
_TLS_OPTIONS = frozenset(('ssl', 'ssl_ca', 'ssl_cert', 'ssl_disabled',
                          'ssl_key', 'ssl_key_password', 'ssl_verify_cert',
                          'ssl_verify_identity', 'read_default_file'))


def use_for(engine):
    """Connect ``engine``'s PyMySQL connections as the module says; other
    drivers are left alone.
    """
    if engine.dialect.driver != 'pymysql':
        return
    sa.event.listen(engine, 'do_connect', _Connector())
    # NOTE: oslo.db makes a first connection, to check the database, before
    # this runs; pooled, it would serve every request of a quiet process.
    engine.pool.dispose()


class _Connector:
    """The ``do_connect`` hook of one engine: what its first connection
    learnt of the server's TLS (None until then) decides the later ones.
    """

    def __init__(self):
        self.encrypted = None

    def __call__(self, dialect, connection_record, cargs, cparams):
        cparams.setdefault('conv', CONVERSIONS)
        if _TLS_OPTIONS.intersection(cparams):
            return dialect.connect(*cargs, **cparams)
        if self.encrypted is not None:
            settled = dict(cparams)
            if self.encrypted:
                settled['ssl'] = preferred_context()
            else:
                settled['ssl_disabled'] = True
            try:
                return dialect.connect(*cargs, **settled)
            except pymysql_err.OperationalError as error:
                if error.args[0] != CR.CR_SSL_CONNECTION_ERROR:
                    raise
                self.encrypted = None
        connection = dialect.connect(*cargs, **cparams)
        self.encrypted = _encrypted(connection)
        return connection


def _encrypted(connection):
    """Whether the server encrypts ``connection`` (its ``Ssl_version``
    status is the TLS version, empty for a plain connection).
    """
    with connection.cursor() as cursor:
        cursor.execute("SHOW SESSION STATUS LIKE 'Ssl_version'")
        row = cursor.fetchone()
    return bool(row and row[1])


@functools.lru_cache(maxsize=None)
def preferred_context():
    """The SSLContext PyMySQL makes for a connection in preferred mode
    (no certificate check, a self-signed server certificate accepted),
    made once for the process: a context is meant to serve many
    connections.
    """
    context = ssl.create_default_context()
    context.verify_flags &= ~ssl.VERIFY_X509_STRICT
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def _datetime(text):
    """A DATETIME or TIMESTAMP column's text as PyMySQL reads it.

    NOTE: the server writes 'YYYY-MM-DD hh:mm:ss[.ffffff]', which
    datetime.fromisoformat (C) reads several times faster than PyMySQL's
    regular expression, and a page of notifications holds three of them
    per row. Any other text (a zero date, say) is PyMySQL's to read, as
    before.
    """
    if (isinstance(text, str) and len(text) >= 19 and text[10] == ' ' and
            (len(text) == 19 or (text[19] == '.' and text[20:].isdigit()))):
        try:
            return datetime.datetime.fromisoformat(text)
        except ValueError:
            pass
    return converters.convert_datetime(text)


# PyMySQL's conversions, but for the reading of DATETIME and TIMESTAMP.
CONVERSIONS = dict(converters.conversions)
CONVERSIONS[constants.FIELD_TYPE.DATETIME] = _datetime
CONVERSIONS[constants.FIELD_TYPE.TIMESTAMP] = _datetime
