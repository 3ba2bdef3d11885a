"""Wait for Nova to reach a state: the confirmation loops of the tasks."""

import time


class Timeout(Exception):
    """A wait ran out of time before its condition held."""


def poll(condition, timeout, interval):
    """Evaluate ``condition()`` now and every ``interval`` seconds.

    Returns once it is true. An exception raised by ``condition`` ends the
    wait and propagates.

    :param timeout: seconds; checked after each false evaluation.
    :raises Timeout: when ``timeout`` seconds have passed since the start.
    """
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started >= timeout:
            raise Timeout()
        time.sleep(interval)
