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


"""PyMySQL connections that share one TLS context where PyMySQL would
build the same one for each.

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

import functools

from pymysql import connections as pymysql_connections
import sqlalchemy as sa


def share_tls_context(engine):
    """Make ``engine``'s PyMySQL connections share the preferred-mode TLS
    context; other drivers are left alone.
    """
    if engine.dialect.driver != 'pymysql':
        return
    sa.event.listen(engine, 'do_connect', _connect)


def _connect(dialect, connection_record, cargs, cparams):
    return Connection(*cargs, **cparams)


class Connection(pymysql_connections.Connection):
    """A PyMySQL connection whose preferred-mode TLS context is the
    process's one.
    """

    def _create_ssl_ctx(self, sslp):
        if isinstance(sslp, dict) and not sslp:
            return _preferred_context()
        return super()._create_ssl_ctx(sslp)


@functools.lru_cache(maxsize=None)
def _preferred_context():
    # NOTE: PyMySQL's own construction, run once.
    return pymysql_connections.Connection._create_ssl_ctx(None, {})
