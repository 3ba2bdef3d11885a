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

"""How Masakari reaches its main database: the one way to run a statement.

* A DB API function runs in a transaction of its own on a Connection,
  opened by :func:`reader` or :func:`writer` (oslo.db's enginefacade),
  and is run again as a whole on deadlock and, when
  ``[database]/use_db_reconnect`` is set, on a lost connection. Reads
  called within :func:`reading` join one read transaction.
* Statements are SQLAlchemy Core statements on the tables
  (masakari.db.statements builds them, once per shape); no ORM Session or
  Query runs.
* Reads run through :func:`read` (masakari.db.reads): a row comes back as
  a ``rows.Row`` dict, whichever function read it.
* Writes run through :func:`write` only (masakari.db.writes: insert,
  update of one row, compare-and-set, soft delete; masakari.db.purge's
  deletes): the one place a condition common to every write goes.
"""

import contextlib
import contextvars
import functools

from oslo_db import api as oslo_db_api
from oslo_db.sqlalchemy import enginefacade
import sqlalchemy as sa

from masakari.db import pymysql_connection

# NOTE: a private context, not oslo.db's global one, so that no library
# sharing the process can reconfigure Masakari's database.
CONTEXT_MANAGER = enginefacade.transaction_context()

# How many times a transaction that hit a deadlock is run again: after
# 1 s, then random waits below 2, 4, 8 and 16 s, capped at 10.
DEADLOCK_RETRIES = 5

_state = {
    # [database] retry-on-disconnect settings, or None when
    # use_db_reconnect is off. Read by configure(), used at call time.
    'reconnect': None,
}


def configure(conf):
    """(Re)build the transaction context from ``conf.database``.

    Called by ``masakari.config.parse_args`` and by masakari-manage right
    after the configuration files are parsed, so every ``[database]``
    option is honoured, including ``use_db_reconnect`` and the
    ``db_*retry*`` options (Masakari 22.0.0 read those at import time,
    before parsing, and so ignored them). Calling it again replaces the
    engine.

    :returns: a callable that puts the previous configuration back (used
        by test fixtures).
    """
    database = conf.database
    settings = dict(database.items())
    settings['connection'] = _with_mysql_charset(database.connection)
    fresh = enginefacade.transaction_context()
    fresh.configure(**settings)
    reconnect = None
    if database.use_db_reconnect:
        reconnect = {
            'retry_interval': database.db_retry_interval,
            'inc_retry_interval': database.db_inc_retry_interval,
            'max_retry_interval': database.db_max_retry_interval,
            'max_retries': database.db_max_retries,
        }
    fresh.append_on_engine_create(_skip_redundant_rollbacks)
    fresh.append_on_engine_create(pymysql_connection.use_for)
    previous = dict(_state)
    restore_factory = CONTEXT_MANAGER.patch_factory(fresh)
    _state.update(reconnect=reconnect)

    def restore():
        if fresh.is_started:
            fresh.dispose_pool()
        restore_factory()
        _state.update(previous)
    return restore


# Key in a pooled connection's info: its transaction was ended by a
# COMMIT or ROLLBACK and no statement ran since.
_ENDED = 'masakari.transaction_ended'


def _skip_redundant_rollbacks(engine):
    """Leave out the ROLLBACK of a connection whose transaction has just
    ended.

    NOTE: a session ends its transaction (COMMIT, or ROLLBACK for a
    reader) before giving its connection back, and the pool then resets
    the connection with one more ROLLBACK: a round trip to the database
    per transaction that can find nothing to undo. Here the dialect
    remembers a COMMIT or ROLLBACK that succeeded; the next statement
    forgets it, and the next ROLLBACK is skipped only while it holds.
    """
    dialect = engine.dialect
    commit, rollback = dialect.do_commit, dialect.do_rollback

    def do_commit(dbapi_connection):
        commit(dbapi_connection)
        _mark_ended(dbapi_connection)

    def do_rollback(dbapi_connection):
        # NOTE: a pooled connection has an info dict; anything else is
        # rolled back as usual.
        if getattr(dbapi_connection, 'info', {}).pop(_ENDED, False):
            return
        rollback(dbapi_connection)
        _mark_ended(dbapi_connection)

    def statement_runs(connection, *args):
        connection.info.pop(_ENDED, None)

    dialect.do_commit = do_commit
    dialect.do_rollback = do_rollback
    sa.event.listen(engine, 'before_cursor_execute', statement_runs)


def _mark_ended(dbapi_connection):
    info = getattr(dbapi_connection, 'info', None)
    if info is not None:
        info[_ENDED] = True


def _with_mysql_charset(connection):
    """The URL, asking MySQL for utf8mb4 when it names no charset.

    NOTE: oslo.db falls back to the 3-byte ``utf8`` connection charset,
    while MariaDB creates utf8mb4 tables by default: any text with a
    character beyond U+FFFF (an instance named with an emoji, say) then
    fails to be written. An explicit ``?charset=`` is left alone.
    """
    if not connection:
        return connection
    url = sa.engine.make_url(connection)
    if url.get_backend_name() != 'mysql' or 'charset' in url.query:
        return connection
    return url.update_query_dict({'charset': 'utf8mb4'}).render_as_string(
        hide_password=False)


def get_engine(use_slave=False):
    """The writer engine (the reader engine when ``use_slave`` is true)."""
    if use_slave:
        return CONTEXT_MANAGER.reader.get_engine()
    return CONTEXT_MANAGER.writer.get_engine()


# Set while a reading() block runs in this thread: its reads are run
# again only as a whole, by the function that opened it (see retried).
_IN_READING_BLOCK = contextvars.ContextVar('masakari_reading_block',
                                           default=False)


def retried(fn):
    """Rerun ``fn`` (a whole transaction, or a function that opens a
    :func:`reading` block) on deadlock, which is also how Galera reports
    a certification conflict, and, when ``[database]/use_db_reconnect``
    is set, on a lost connection.

    NOTE: within a reading() block the call is not retried alone: after
    a lost connection the block's transaction is dead and every read in
    it fails; the function that opened the block runs again instead.
    """
    deadlock_safe = oslo_db_api.wrap_db_retry(
        max_retries=DEADLOCK_RETRIES, retry_on_deadlock=True)(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if _IN_READING_BLOCK.get():
            return fn(*args, **kwargs)
        reconnect = _state['reconnect']
        if reconnect is None:
            return deadlock_safe(*args, **kwargs)
        return oslo_db_api.wrap_db_retry(
            retry_on_disconnect=True, **reconnect)(deadlock_safe)(
                *args, **kwargs)
    return wrapper


def reader(fn):
    """Run ``fn(context, ...)`` in a read transaction (retried)."""
    return retried(CONTEXT_MANAGER.reader.connection(fn))


def writer(fn):
    """Run ``fn(context, ...)`` in a write transaction (retried).

    Within a recovery run under a lease (the context's ``recovery_lease``,
    see masakari.engine.ownership), the lease is confirmed first, and the
    transaction holds the recovery's fencing token (``Lease.fence``): an
    engine that lost the recovery writes nothing, and no takeover commits
    in the middle of a write of the engine that held it.
    """
    @functools.wraps(fn)
    def fenced(context, *args, **kwargs):
        lease = getattr(context, 'recovery_lease', None)
        if lease is not None:
            lease.fence(context)
        return fn(context, *args, **kwargs)

    transaction = CONTEXT_MANAGER.writer.connection(fenced)

    @functools.wraps(fn)
    def confirmed(context, *args, **kwargs):
        lease = getattr(context, 'recovery_lease', None)
        if lease is not None:
            lease.confirm()
        return transaction(context, *args, **kwargs)
    return retried(confirmed)


@contextlib.contextmanager
def reading(context):
    """A read transaction on ``context`` as a context manager: the DB API
    reads called within it join it, so that several reads cost one
    connection checkout, ping and rollback instead of one each. A write
    within it is refused (TypeError): write after it. The function that
    opens the block is the one to decorate with :func:`retried`.
    """
    with CONTEXT_MANAGER.reader.connection.using(context):
        token = _IN_READING_BLOCK.set(True)
        try:
            yield
        finally:
            _IN_READING_BLOCK.reset(token)


def read(context, statement, parameters=None):
    """Run a SELECT in the context's transaction: its result."""
    return context.connection.execute(statement, parameters)


def write(context, statement, parameters=None):
    """Run an INSERT, UPDATE or DELETE in the context's write transaction:
    its result.
    """
    return context.connection.execute(statement, parameters)
