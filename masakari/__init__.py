"""Masakari: instances high availability for OpenStack.

Nothing happens at import time; concurrency set-up (eventlet) is done once
in :mod:`masakari.cmd` for the programs that need it.
"""
