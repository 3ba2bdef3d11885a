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

"""Failure injection: answer chosen calls with an error, or hang them.

A rule matches requests by service, method, path glob and (for ``action``
requests) the action name; it can delay the answer (``hang``) and/or replace
it by an error status. Rules come from the topology's ``faults`` list and
from the control API at run time.
"""

import fnmatch
import itertools
import re
import threading

RULE_KEYS = {'service', 'method', 'path', 'action', 'status', 'message',
             'hang', 'times', 'skip'}
SERVICES = ('nova', 'keystone', 'placement')
_VERSION_PREFIX = re.compile(r'^/v[0-9.]+(?=/)')


def _check(rule):
    if not isinstance(rule, dict):
        raise ValueError('fault rule must be an object, not %r' % (rule,))
    unknown = set(rule) - RULE_KEYS
    if unknown:
        raise ValueError('fault rule has unknown keys: %s (allowed: %s)' %
                         (', '.join(sorted(unknown)),
                          ', '.join(sorted(RULE_KEYS))))
    if rule.get('service', 'nova') not in SERVICES:
        raise ValueError('fault rule service must be nova, keystone or '
                         'placement')
    if 'status' not in rule and 'hang' not in rule:
        raise ValueError('fault rule needs a status, a hang, or both')
    if 'status' in rule and not 400 <= int(rule['status']) <= 599:
        raise ValueError('fault rule status must be a 4xx or 5xx code')


class FaultInjector:
    """The active fault rules, consumed as requests match them."""

    def __init__(self, rules=()):
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._rules = []
        for rule in rules:
            self.add(rule)

    def add(self, rule):
        """Validate and activate a rule; return it with its ``id``.

        Keys: ``service`` (nova, default, keystone or placement),
        ``method``, ``path``
        (glob on the path with or without its version prefix, e.g.
        ``/servers/*/action``), ``action`` (the body's top-level key, e.g.
        ``evacuate``), ``status`` and ``message`` (the error answered),
        ``hang`` (seconds to wait before answering), ``times`` (how many
        matching calls are affected; unlimited when absent) and ``skip``
        (matching calls let through first).
        """
        _check(rule)
        with self._lock:
            active = dict(rule, id=next(self._ids), matched=0)
            active.setdefault('service', 'nova')
            self._rules.append(active)
            return dict(active)

    def rules(self):
        with self._lock:
            return [dict(rule) for rule in self._rules]

    def clear(self):
        with self._lock:
            self._rules = []

    def match(self, service, request):
        """The rule that applies to this request (counted), or None."""
        with self._lock:
            for rule in self._rules:
                if not self._applies(rule, service, request):
                    continue
                rule['matched'] += 1
                if rule['matched'] <= rule.get('skip', 0):
                    continue
                affected = rule['matched'] - rule.get('skip', 0)
                if rule.get('times') is not None and \
                        affected > rule['times']:
                    continue
                return dict(rule)
        return None

    @staticmethod
    def _applies(rule, service, request):
        if rule['service'] != service:
            return False
        if rule.get('method', request.method).upper() != request.method:
            return False
        if 'path' in rule:
            paths = (request.path, _VERSION_PREFIX.sub('', request.path))
            if not any(fnmatch.fnmatchcase(path, rule['path'])
                       for path in paths):
                return False
        if 'action' in rule:
            body = request.body_for_log()
            if not isinstance(body, dict) or rule['action'] not in body:
                return False
        return True
