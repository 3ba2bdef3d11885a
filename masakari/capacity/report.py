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

"""What the capacity commands and metrics show, as JSON-ready data: a
segment's capacity summary, and the plan for given failed hosts.
"""

from masakari.capacity import packing
from masakari.capacity import reader
from masakari.capacity import tolerance
from masakari import exception
from masakari.i18n import _

# The classes listed first in outputs; others follow by name.
USUAL_CLASSES = ('VCPU', 'MEMORY_MB', 'DISK_GB')


def resource_classes(mappings):
    """The resource classes of some ``{class: amount}``, in output order."""
    found = {name for mapping in mappings for name in mapping}
    return ([name for name in USUAL_CLASSES if name in found] +
            sorted(found - set(USUAL_CLASSES)))


def summary(segment):
    """The capacity summary of a Segment model whose servers were read."""
    tolerated = tolerance.failures_tolerated(segment)
    worst, left = tolerance.worst_host(segment)
    return {
        'segment': segment.name, 'uuid': segment.uuid,
        'recovery_method': segment.recovery_method,
        'hosts': len(segment.hosts),
        'failures_tolerated': tolerated.count,
        'exact': tolerated.exact,
        # NOTE: a failing set of k hosts: at most k - 1 are tolerated.
        'at_most': (len(tolerated.worst) - 1 if tolerated.worst else
                    tolerated.count if tolerated.exact else None),
        'failing_set': list(tolerated.worst),
        'spare': tolerance.spare(segment),
        'worst_host': worst,
        'worst_host_servers_without_room': [server.id for server in left],
    }


def capacity(context, segment):
    """The capacity summary of a FailoverSegment (reads the cloud)."""
    return summary(reader.read_segment(context, segment))


def placements(plan):
    """A Plan as a list of server dicts, in packing order."""
    return [{'id': server.id, 'name': server.name, 'host': server.host,
             'priority': server.priority, 'ha_enabled': server.ha_enabled,
             'resources': dict(server.resources), 'target': target}
            for server, target in plan.placements]


def what_if(context, segment, failed):
    """The plan for the failure of the hosts named ``failed`` of a
    FailoverSegment (reads the cloud, changes nothing).

    :raises: InvalidInput when a host is not in the segment.
    """
    model = reader.read_segment(context, segment, servers_of=set(failed))
    unknown = sorted(set(failed) - set(model.hosts))
    if unknown:
        raise exception.InvalidInput(reason=_(
            "host %(hosts)s not in segment '%(segment)s'") % {
                'hosts': ', '.join(unknown), 'segment': segment.name})
    plan = packing.plan(model.servers_of(failed), model.targets(failed))
    return {'segment': segment.name, 'uuid': segment.uuid,
            'recovery_method': segment.recovery_method,
            'failed_hosts': list(failed),
            'servers': placements(plan),
            'without_room': len(plan.unplaced())}
