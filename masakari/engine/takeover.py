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

"""Watching for work no engine is doing: recoveries left ``running`` by a
dead engine, and stored notifications that no engine received.

The watch runs in the background loop of every masakari-engine
(engine/background.py: periodic tasks on or off). Time is measured on the
watching engine's own monotonic clock (how long a value stayed unchanged
while it watched), never by comparing timestamps written by other hosts,
so clock skew between engine hosts does not matter. The takeover itself
is one compare-and-set (``Notification.take_over``): among engines that
watched the same silent recovery, exactly one wins.
"""

import contextvars
import time

# NOTE: the takeover note travels from the manager to the flow loader
# through a context variable: the driver entry points and the tasks'
# constructors are a contract that third-party drivers and tasks
# implement, so no argument can be added to them.
_NOTE = contextvars.ContextVar('masakari_takeover_note', default=None)


def current_note():
    """The note of the takeover being run by this thread, or None.

    A dict: ``from_engine`` (the silent engine's [DEFAULT]/host, or None
    when the recovery had recorded none), ``by_engine`` and ``at`` (UTC,
    ISO 8601).
    """
    return _NOTE.get()


def run_noted(note, function, *args):
    """``function(*args)`` with ``note`` as the current takeover note."""
    token = _NOTE.set(note)
    try:
        return function(*args)
    finally:
        _NOTE.reset(token)


def describe(note):
    """The progress message of a takeover."""
    return ("Recovery taken over from engine '%(from)s' by engine "
            "'%(by)s' at %(at)s" % {'from': note['from_engine'] or 'unknown',
                                    'by': note['by_engine'],
                                    'at': note['at']})


class Observations:
    """Since when each watched value stayed the same, on this clock."""

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._seen = {}

    def unchanged_for(self, key, value):
        """Seconds ``key`` has had ``value`` (0 when first seen or
        changed since the last look).
        """
        now = self._clock()
        seen = self._seen.get(key)
        if seen is None or seen[0] != value:
            self._seen[key] = (value, now)
            return 0.0
        return now - seen[1]

    def keep(self, keys):
        """Forget every key not in ``keys`` (rows that left the watch)."""
        for key in set(self._seen) - set(keys):
            del self._seen[key]

    def clear(self):
        """Start over: after a failed look nothing seen before is trusted
        (an outage stops every engine's renewals alike).
        """
        self._seen.clear()


def watch_interval(lease_timeout, new_age):
    """Seconds between two watch rounds; None when both are off.

    A third of the lease (the owner renews its leases at each round) and
    half the age of a lost notification, at least one second.
    """
    bounds = [value for value in (lease_timeout / 3.0 if lease_timeout
                                  else None,
                                  new_age / 2.0 if new_age else None)
              if value is not None]
    if not bounds:
        return None
    return max(1.0, min(bounds))
