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

"""Taskflow persistence of the recovery workflows (the logbook database).

One backend per ``[taskflow]/connection`` URL and process, reused by every
workflow run (Masakari 22.0.0 built a new engine and pool each time). The
schema belongs to the taskflow library and is created by it.
"""

import collections
import contextlib
import threading

from oslo_db import exception as db_exception
from oslo_db.sqlalchemy import exc_filters
import sqlalchemy as sa
from taskflow import exceptions as taskflow_exc
from taskflow.persistence import backends
from taskflow.persistence.backends import impl_sqlalchemy
from taskflow.persistence.backends.sqlalchemy import tables
import tenacity

from masakari.db import pymysql_connection
from masakari import exception

_backends = {}
_backends_lock = threading.Lock()
# taskflow's own table definitions, to read a logbook in one query.
_TABLES = tables.fetch(sa.MetaData())

# One task (or retry) of a recorded run, as the progress read-back uses it.
RecordedAtom = collections.namedtuple('RecordedAtom', 'name meta state')


class RecordedRun(list):
    """The RecordedAtoms of one run (a flow detail), with its ``meta``."""

    def __init__(self, meta):
        super().__init__()
        self.meta = meta


# How many times a record's write runs in all when the database reports a
# deadlock (how Galera reports a certification conflict) or a lost
# connection, and the longest pause between two tries (seconds).
WRITE_ATTEMPTS = 10
WRITE_MAX_PAUSE = 2


class RunBackend:
    """The persistence of one recovery run: the shared backend, whose
    writes (the run's state, its tasks' states and progress) are

    * fenced by the run's lease (masakari.engine.ownership.Lease), when
      it has one: once another engine took the recovery over, this
      engine writes nothing more to the records the new owner continues;
    * run again on a deadlock or a lost connection (each is one
      transaction of taskflow's; a MariaDB Galera cluster reports a
      certification conflict as a deadlock, and a failed-over node as a
      lost connection).
    """

    def __init__(self, backend, lease=None):
        self._backend = backend
        self._connection = _RunConnection(backend.get_connection(), lease)

    def get_connection(self):
        return self._connection

    def __getattr__(self, name):
        return getattr(self._backend, name)


class _RunConnection:
    """A connection of the shared backend; see RunBackend."""

    _retrying = tenacity.Retrying(
        retry=tenacity.retry_if_exception_type(
            (db_exception.DBDeadlock, db_exception.DBConnectionError)),
        stop=tenacity.stop_after_attempt(WRITE_ATTEMPTS),
        wait=tenacity.wait_exponential(multiplier=0.1, max=WRITE_MAX_PAUSE),
        reraise=True)

    def __init__(self, connection, lease):
        self._connection = connection
        self._lease = lease

    def __getattr__(self, name):
        return getattr(self._connection, name)

    def close(self):
        """Nothing to close: the shared connection stays."""

    def update_atom_details(self, atom_detail):
        return self._write('update_atom_details', atom_detail)

    def update_flow_details(self, flow_detail, *args, **kwargs):
        return self._write('update_flow_details', flow_detail, *args,
                           **kwargs)

    def save_logbook(self, book):
        return self._write('save_logbook', book)

    def _write(self, name, record, *args, **kwargs):
        if self._lease is not None:
            try:
                self._lease.confirm()
            except exception.RecoveryLost:
                # NOTE: the run stops at its next step; its records are
                # the new owner's.
                return record
        return self._retrying(getattr(self._connection, name), record,
                              *args, **kwargs)


def _enforce_sqlite_foreign_keys(dbapi_connection, connection_record):
    cursor = dbapi_connection.cursor()
    cursor.execute('PRAGMA foreign_keys=ON')
    cursor.close()


def get_backend(url):
    """The taskflow persistence backend of ``url``, created on first use.

    :raises: taskflow NotFound for an unknown URL scheme.
    """
    with _backends_lock:
        backend = _backends.get(url)
        if backend is None:
            backend = backends.fetch({'connection': url})
            if isinstance(backend, impl_sqlalchemy.SQLAlchemyBackend):
                _share_connection(backend)
                # NOTE: errors as oslo.db names them (DBDeadlock,
                # DBConnectionError), for RunBackend's retries.
                exc_filters.register_engine(backend.engine)
                pymysql_connection.use_for(backend.engine)
                if backend.engine.dialect.name == 'sqlite':
                    # NOTE: taskflow's tables cascade the deletion of a
                    # logbook to its flow and atom details through foreign
                    # keys, which SQLite only enforces when asked to.
                    sa.event.listen(backend.engine, 'connect',
                                    _enforce_sqlite_foreign_keys)
            _backends[url] = backend
        return backend


def _share_connection(backend):
    """Make ``backend`` hand out one connection object to every caller.

    NOTE: taskflow's storage asks for a connection at each write (every
    state change and progress update), and each new one builds taskflow's
    table metadata again, at a noticeable CPU cost. The object holds no
    database connection (each operation takes one from the engine's pool)
    and its close() does nothing, so one, made with the backend, serves
    every thread.
    """
    shared = backend.get_connection()
    backend.get_connection = lambda: shared


def upgrade(url):
    """Create or upgrade taskflow's tables (logbooks, flowdetails,
    atomdetails) at ``url``, with taskflow's own migrations.

    :raises: taskflow StorageFailure, or an oslo.db DBError, when the
        database refuses.
    """
    backend = get_backend(url)
    with contextlib.closing(backend.get_connection()) as connection:
        connection.upgrade()


def destroy_logbooks(url, notification_uuids):
    """Delete the logbooks of these notifications (a logbook's uuid is its
    notification's uuid) with their flow and atom details.

    :returns: ``{'logbooks': n, 'flowdetails': n, 'atomdetails': n}``,
        the records deleted; notifications without a logbook are skipped.
    """
    counts = {'logbooks': 0, 'flowdetails': 0, 'atomdetails': 0}
    backend = get_backend(url)
    with contextlib.closing(backend.get_connection()) as connection:
        for notification_uuid in notification_uuids:
            try:
                book = connection.get_logbook(notification_uuid)
                connection.destroy_logbook(notification_uuid)
            except taskflow_exc.NotFound:
                continue
            counts['logbooks'] += 1
            counts['flowdetails'] += len(book)
            counts['atomdetails'] += sum(len(flow) for flow in book)
    return counts


def runs(url, notification_uuid, started_key):
    """The runs (flow details) of a notification's logbook, oldest first,
    in full (atom results included).

    :param started_key: the flow detail meta key holding a run's start
        time; runs without it (those of a reference engine) come first,
        in the order the database returns them.
    :returns: a list, empty when the notification has no logbook.
    """
    backend = get_backend(url)
    with contextlib.closing(backend.get_connection()) as connection:
        try:
            book = connection.get_logbook(notification_uuid)
        except taskflow_exc.NotFound:
            return []
    return sorted(book,
                  key=lambda run: (run.meta or {}).get(started_key, ''))


def recorded_runs(url, notification_uuid):
    """The runs recorded in a notification's logbook, in no set order:
    each with its flow's ``meta`` and its atoms' name, meta and state.

    On an SQL backend one query reads them all (taskflow's own reader
    makes one per flow detail, and builds every atom detail in full).
    :returns: [] when the notification has no logbook.
    """
    backend = get_backend(url)
    if not isinstance(backend, impl_sqlalchemy.SQLAlchemyBackend):
        with contextlib.closing(backend.get_connection()) as connection:
            try:
                return list(connection.get_logbook(notification_uuid))
            except taskflow_exc.NotFound:
                return []
    flows, atoms = _TABLES.flowdetails, _TABLES.atomdetails
    query = sa.select(
        flows.c.uuid, flows.c.meta, atoms.c.name, atoms.c.meta,
        atoms.c.state).select_from(flows.outerjoin(
            atoms, atoms.c.parent_uuid == flows.c.uuid)).where(
        flows.c.parent_uuid == notification_uuid)
    runs = {}
    with backend.engine.connect() as connection:
        for flow_uuid, flow_meta, name, meta, state in connection.execute(
                query):
            run = runs.get(flow_uuid)
            if run is None:
                run = runs[flow_uuid] = RecordedRun(flow_meta)
            if name is not None:
                run.append(RecordedAtom(name, meta, state))
    return list(runs.values())


def reset():
    """Close and forget every backend (tests, and processes that fork)."""
    with _backends_lock:
        for backend in _backends.values():
            backend.close()
        _backends.clear()
