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

"""The ordered log of every Keystone and Nova request the simulator served.

Tests read it to assert the exact calls a client made (method, path, query
string, body, the headers that matter) and in which order.
"""

import threading
import time

# Request headers worth asserting on; the others are transport noise.
LOGGED_HEADERS = ('X-Auth-Token', 'X-Subject-Token',
                  'X-OpenStack-Nova-API-Version', 'OpenStack-API-Version',
                  'X-OpenStack-Request-ID', 'Content-Type', 'Accept',
                  'User-Agent')


class CallLog:
    """Thread-safe, append-only (until reset) list of call records.

    A record is a dict: ``seq`` (1, 2, ... since the last reset), ``time``
    (epoch seconds at arrival), ``service`` (``keystone``, ``nova`` or
    ``placement``),
    ``method``, ``path`` (relative to the service root, e.g.
    ``/v2.1/servers/detail`` or ``/v3/auth/tokens``), ``query`` (the raw
    query string, in the order sent), ``body`` (decoded JSON, text or
    None), ``headers`` (the LOGGED_HEADERS present) and ``status`` (the
    answer's code; None while the call is still being served).
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._records = []

    def record(self, service, request):
        """Append the record of an arriving request and return it."""
        headers = {name: request.headers[name] for name in LOGGED_HEADERS
                   if request.headers.get(name) is not None}
        with self._lock:
            entry = {'seq': len(self._records) + 1, 'time': time.time(),
                     'service': service, 'method': request.method,
                     'path': request.path, 'query': request.query_string,
                     'body': request.body_for_log(), 'headers': headers,
                     'status': None}
            self._records.append(entry)
        return entry

    def complete(self, entry, status):
        with self._lock:
            entry['status'] = status

    def snapshot(self, service=None):
        """Copies of the records, oldest first, optionally of one service."""
        with self._lock:
            return [dict(entry, headers=dict(entry['headers']))
                    for entry in self._records
                    if service is None or entry['service'] == service]

    def reset(self):
        with self._lock:
            self._records = []
