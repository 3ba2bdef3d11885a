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


"""The PyMySQL connections of Masakari's engines: a shared TLS context,
and a faster reading of result rows and of DATETIME values, where PyMySQL
would do the same work more slowly.

NOTE: given no TLS option, PyMySQL (1.2) connects in "preferred" mode: it
builds a default TLS context, loading the system's CA certificates, for
every connection, and uses it only if the server offers TLS. Building it
costs tens of milliseconds of CPU, more than most transactions; the API
and the engine open connections past their pool's size under load (see
doc/source/contributor/benchmarks.rst). The shared context has the very
settings PyMySQL gives each connection, and an SSLContext is meant to
serve many connections. Connections with TLS options of their own (from
the connection URL) are left to PyMySQL.
"""

import datetime
import functools

from pymysql import connections as pymysql_connections
from pymysql import constants
from pymysql import converters
import sqlalchemy as sa


def use_for(engine):
    """Make ``engine``'s PyMySQL connections Connections; other drivers
    are left alone.
    """
    if engine.dialect.driver != 'pymysql':
        return
    sa.event.listen(engine, 'do_connect', _connect)
    # NOTE: oslo.db makes a first connection, to check the database, before
    # this runs; pooled, it would serve every request of a quiet process.
    engine.pool.dispose()


def _connect(dialect, connection_record, cargs, cparams):
    cparams.setdefault('conv', CONVERSIONS)
    return Connection(*cargs, **cparams)


class Connection(pymysql_connections.Connection):
    """A PyMySQL connection whose preferred-mode TLS context is the
    process's one.
    """

    def _create_ssl_ctx(self, sslp):
        if isinstance(sslp, dict) and not sslp:
            return _preferred_context()
        return super()._create_ssl_ctx(sslp)

    def _read_query_result(self, unbuffered=False):
        if unbuffered:
            return super()._read_query_result(unbuffered)
        # NOTE: PyMySQL's own steps, with a Result for its MySQLResult.
        self._result = None
        result = Result(self)
        result.read()
        self._result = result
        if result.server_status is not None:
            self.server_status = result.server_status
        return result.affected_rows


class Result(pymysql_connections.MySQLResult):
    """A result whose rows are read by one loop over the packet.

    NOTE: PyMySQL reads each value through three method calls on the
    packet (length, then bytes); reading a page of a thousand
    notifications (13,000 values) that way was about a third of the
    request. This reads the same protocol fields (a length-encoded
    string per column, 0xFB for NULL) straight from the packet's bytes,
    then decodes and converts each value as PyMySQL does.
    """

    def _read_row_from_packet(self, packet):
        data = packet._data
        position = packet._position
        end = len(data)
        row = []
        for encoding, converter in self.converters:
            if position >= end:
                # NOTE: a row shorter than its columns ends here, as in
                # PyMySQL.
                break
            length = data[position]
            position += 1
            if length == _NULL:
                row.append(None)
                continue
            if length > _NULL:
                size = _LENGTH_SIZES[length]
                length = int.from_bytes(data[position:position + size],
                                        'little')
                position += size
            value = data[position:position + length]
            position += length
            if encoding is not None:
                value = value.decode(encoding)
            if converter is not None:
                value = converter(value)
            row.append(value)
        packet._position = position
        return tuple(row)


# Length-encoded integers: 0xFB is NULL; 0xFC, 0xFD and 0xFE prefix a
# length of 2, 3 and 8 little-endian bytes.
_NULL = 0xFB
_LENGTH_SIZES = {0xFC: 2, 0xFD: 3, 0xFE: 8}


@functools.lru_cache(maxsize=None)
def _preferred_context():
    # NOTE: PyMySQL's own construction, run once.
    return pymysql_connections.Connection._create_ssl_ctx(None, {})


def _datetime(text):
    """A DATETIME or TIMESTAMP column's text as PyMySQL reads it.

    NOTE: the server writes 'YYYY-MM-DD hh:mm:ss[.ffffff]', which
    datetime.fromisoformat (C) reads in a fifth of the time of PyMySQL's
    regular expression: a page of a thousand notifications holds three
    thousand of them. Any other text (a zero date, say) is PyMySQL's to
    read, as before.
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
