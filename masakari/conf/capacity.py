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

"""Options of the failover capacity: the placement-aware host recovery
and the restart priority ([host_failure]), the capacity metrics
([metrics]).

Extensions, off by default: with these options at their defaults no
Placement request is made and the host recovery is Masakari 22.0.0's.
"""

from oslo_config import cfg

# NOTE: groups by name: engine_driver and metrics carry their titles.
HOST_FAILURE = 'host_failure'
METRICS = 'metrics'

host_failure_opts = [
    cfg.BoolOpt('placement_aware',
                default=False,
                help="Plan each host recovery from the Placement API "
                     "before evacuating: the failed host's servers are "
                     "evacuated in restart priority order (see "
                     "priority_metadata_key), each to the host the plan "
                     "gives it (asked of Nova as the evacuation's target "
                     "host, checked by Nova's scheduler, never forced), "
                     "re-planned when an evacuation fails; servers for "
                     "which the segment has no room are not evacuated and "
                     "are named in the progress details, and reserved "
                     "hosts are taken only when the plan needs them. See "
                     "the 'Failover capacity' page of the administrator "
                     "guide. False (the default): Nova's scheduler picks "
                     "every target, as in Masakari 22.0.0."),
    cfg.StrOpt('priority_metadata_key',
               default='HA_Priority',
               help="Instance metadata key whose integer value is the "
                    "instance's restart priority: higher values are "
                    "evacuated first and keep their room when a segment "
                    "cannot take every instance of a failed host. "
                    "Instances without the key (or with a value that is "
                    "not an integer) have priority 0. Read by "
                    "placement_aware recoveries and by 'masakari-manage "
                    "segment capacity|what-if'."),
]

metrics_opts = [
    cfg.IntOpt('segment_capacity_interval',
               default=0,
               min=0,
               help="Seconds between two computations, by "
                    "masakari-engine, of every failover segment's "
                    "capacity (Nova and Placement reads), exported as "
                    "masakari_segment_failures_tolerated and "
                    "masakari_segment_spare when [metrics]/enabled. "
                    "Scrapes serve the last computation. 0 (the default): "
                    "not computed, no Placement request."),
    cfg.IntOpt('failures_tolerated_target',
               default=1,
               min=0,
               help="Host failures every failover segment should "
                    "tolerate, exported as "
                    "masakari_segment_failures_tolerated_target next to "
                    "the capacity metrics; the shipped alert rule "
                    "MasakariSegmentBelowFailureTarget fires for a "
                    "segment that tolerates fewer."),
]


def register_opts(conf):
    conf.register_opts(host_failure_opts, group=HOST_FAILURE)
    conf.register_opts(metrics_opts, group=METRICS)


def list_opts():
    return {HOST_FAILURE: host_failure_opts, METRICS: metrics_opts}
