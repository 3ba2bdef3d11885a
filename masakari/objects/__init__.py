"""Masakari's versioned objects.

Each registered class is also exposed here as ``masakari.objects.<Name>``
(the highest registered version wins), once :func:`register_all` ran.
"""


def register_all():
    """Import the object modules so their classes get registered.

    Both binaries call this at start-up: only registered classes can be
    rebuilt from an RPC message.
    """
    __import__('masakari.objects.host')
    __import__('masakari.objects.notification')
    __import__('masakari.objects.segment')
    __import__('masakari.objects.vmove')
