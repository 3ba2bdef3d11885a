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

"""The per-flow Nova call sequences of 22.0.0, as data to compare with
the simulator's call log.

A sequence is a list of rows ``(request line, body, count)``: consecutive
identical calls of the log are folded into one row with their count, so a
confirmation poll (one or more GETs, then the final GET) is one row whose
expected count is ``AtLeast(n)``.
"""

HOST_DISABLE_REASON = 'Masakari detected host failed.'
PROCESS_DISABLE_REASON = 'Masakari detected process failed.'


class AtLeast:
    """An expected count of ``n`` or more."""

    def __init__(self, n):
        self.n = n

    def __repr__(self):
        return 'AtLeast(%d)' % self.n


def fold(calls):
    """Fold the simulator's calls (dicts of line/body) into rows."""
    rows = []
    for call in calls:
        if rows and rows[-1][:2] == (call['line'], call['body']):
            rows[-1] = (call['line'], call['body'], rows[-1][2] + 1)
        else:
            rows.append((call['line'], call['body'], 1))
    return rows


def comparable(expected, actual):
    """``actual`` rows with the counts that satisfy an AtLeast replaced by
    it, so that ``expected == comparable(expected, actual)`` when they match
    (and a test's diff shows only real differences).
    """
    result = []
    for index, row in enumerate(actual):
        if index < len(expected):
            want = expected[index]
            if (isinstance(want[2], AtLeast) and want[:2] == row[:2] and
                    row[2] >= want[2].n):
                row = row[:2] + (want[2],)
        result.append(row)
    return result


def services(host):
    return 'GET /os-services?host=%s&binary=nova-compute' % host


def disable_service(host, service_id, reason=HOST_DISABLE_REASON):
    """Rows of DisableComputeServiceTask."""
    return [(services(host), None, 1),
            ('PUT /os-services/%s' % service_id,
             {'status': 'disabled', 'disabled_reason': reason}, 1)]


def list_servers(host):
    return [('GET /servers/detail?all_tenants=True&host=%s' % host, None, 1)]


def enable_reserved_host(host, service_id, aggregate_ids=()):
    """Rows of the reserved-host preparation, with
    add_reserved_host_to_aggregate = true.
    """
    rows = [('GET /os-aggregates', None, 1)]
    rows += [('POST /os-aggregates/%s/action' % aggregate_id,
              {'add_host': {'host': host}}, 1)
             for aggregate_id in aggregate_ids]
    return rows + [(services(host), None, 1),
                   ('PUT /os-services/%s' % service_id,
                    {'status': 'enabled'}, 1)]


def evacuate(server_id, target=None):
    """Rows of one active, unlocked server's evacuation: two GETs, lock,
    evacuate, the poll and the final GET, unlock.
    """
    action = 'POST /servers/%s/action' % server_id
    show = 'GET /servers/%s' % server_id
    return [(show, None, 2),
            (action, {'lock': None}, 1),
            (action, {'evacuate': {'host': target} if target else {}}, 1),
            (show, None, AtLeast(2)),
            (action, {'unlock': None}, 1)]


def evacuate_rejected(server_id):
    """The evacuation is refused, no poll."""
    action = 'POST /servers/%s/action' % server_id
    return [('GET /servers/%s' % server_id, None, 2),
            (action, {'lock': None}, 1),
            (action, {'evacuate': {}}, 1),
            (action, {'unlock': None}, 1)]


def recover_instance(server_id):
    """Instance recovery: stop, confirm stopped, start, confirm active."""
    action = 'POST /servers/%s/action' % server_id
    show = 'GET /servers/%s' % server_id
    return [(show, None, 1),
            (action, {'os-stop': None}, 1),
            (show, None, AtLeast(2)),
            (action, {'os-start': None}, 1),
            (show, None, AtLeast(1))]


def recover_process(host, service_id):
    """Process recovery, service enabled: check, disable, confirm."""
    return [(services(host), None, 2),
            ('PUT /os-services/%s' % service_id,
             {'status': 'disabled',
              'disabled_reason': PROCESS_DISABLE_REASON}, 1),
            (services(host), None, AtLeast(1))]
