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

"""Wait for Nova to reach a state: the confirmation loops of the tasks."""

import time


class Timeout(Exception):
    """A wait ran out of time before its condition held."""


def poll(condition, timeout, interval, check_first=True):
    """Evaluate ``condition()`` now (after one interval unless
    ``check_first``) and every ``interval`` seconds.

    Returns once it is true. An exception raised by ``condition`` ends the
    wait and propagates.

    :param timeout: seconds; checked after each false evaluation.
    :param interval: seconds, or a callable given the seconds waited so
        far that returns the seconds until the next evaluation.
    :raises Timeout: when ``timeout`` seconds have passed since the start.
    """
    started = time.monotonic()
    if not check_first:
        time.sleep(interval(0) if callable(interval) else interval)
    while not condition():
        waited = time.monotonic() - started
        if waited >= timeout:
            raise Timeout()
        time.sleep(interval(waited) if callable(interval) else interval)
