"""Which VM notification events call for an instance recovery.

A VM notification is processed only when its ``event`` and
``vir_domain_event`` form one of these pairs (exact, case-sensitive);
any other pair is ignored.
"""

RECOVERABLE_DOMAIN_EVENTS = {
    'QEMU_GUEST_AGENT_ERROR': ('STOPPED_FAILED',),
    'LIFECYCLE': ('STOPPED_FAILED',),
    'IO_ERROR': ('IO_ERROR_REPORT',),
}


def is_recoverable(event, vir_domain_event):
    """Whether a VM payload's event pair asks for a recovery."""
    return vir_domain_event in RECOVERABLE_DOMAIN_EVENTS.get(event, ())
