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
