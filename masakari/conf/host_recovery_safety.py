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

"""Options of the safe host recovery: the mass-failure brake
([host_failure]) and the return to service of fenced hosts ([fencing]).

Both are extensions and off by default: with these options at their
defaults the host recovery behaves exactly as Masakari 22.0.0's.
"""

from oslo_config import cfg

# NOTE: groups by name: [host_failure] belongs to engine_driver and
# [fencing] to the fencing module, which carry their titles.
HOST_FAILURE = 'host_failure'
FENCING = 'fencing'

brake_opts = [
    cfg.IntOpt('max_failed_hosts',
               default=0,
               min=0,
               help="Mass-failure brake, absolute: the most hosts of one "
                    "failover segment whose failure is recovered within "
                    "failed_hosts_window seconds. The recovery of a further "
                    "host is held (its notification stays 'running', says "
                    "why in its message and progress) until the count "
                    "falls back or an operator runs 'masakari-manage "
                    "notification release <uuid>'. 0 turns this limit "
                    "off."),
    cfg.IntOpt('max_failed_hosts_percent',
               default=0,
               min=0,
               max=100,
               help="Mass-failure brake, relative: the most hosts of one "
                    "failover segment, in percent of the segment's hosts, "
                    "whose failure is recovered within failed_hosts_window "
                    "seconds; beyond it further recoveries are held as "
                    "with max_failed_hosts. 0 turns this limit off."),
    cfg.IntOpt('failed_hosts_window',
               default=600,
               min=1,
               help="Seconds over which the mass-failure brake counts host "
                    "failures: a failure reported longer ago no longer "
                    "counts, unless its recovery is held itself."),
    cfg.IntOpt('held_notifications_check_interval',
               default=30,
               min=1,
               help="Seconds between two checks, by the engine, of the "
                    "notifications held by the mass-failure brake: one the "
                    "brake would now let through is recovered. (One an "
                    "operator releases with 'masakari-manage notification "
                    "release' is recovered at once, without waiting for "
                    "this check.) Read at engine start-up; the check runs "
                    "only when a brake limit is set, in the engine's "
                    "background loop (also with [DEFAULT]/periodic_enable "
                    "false)."),
]

return_to_service_opts = [
    cfg.BoolOpt('return_to_service',
                default=False,
                help="When an operator ends the maintenance of a host that "
                     "the engine fenced (on_maintenance set back to false), "
                     "power the host on through its BMC (not with the "
                     "monitor driver), clear forced_down (the service stays "
                     "disabled), wait for its nova-compute to report up "
                     "with a heartbeat sent after that, enable the service, "
                     "and give a reserved host its reserved flag back. "
                     "False leaves all of that to the operator."),
    cfg.IntOpt('compute_up_timeout',
               default=600,
               min=1,
               help="Seconds a returning host has, after its power on, "
                    "for its nova-compute service to report up with a "
                    "heartbeat newer than the power on (Nova's updated_at "
                    "of the service; a heartbeat sent before the failure "
                    "does not count). Past it the return to service fails "
                    "with that reason in its progress, the service stays "
                    "disabled, and the return is tried again at the next "
                    "check."),
    cfg.IntOpt('return_to_service_interval',
               default=30,
               min=1,
               help="Seconds between two looks, by the engine, for fenced "
                    "hosts whose maintenance ended. Read at engine "
                    "start-up; the check runs only with "
                    "return_to_service, in the engine's background loop "
                    "(also with [DEFAULT]/periodic_enable false)."),
]

_GROUPS = ((HOST_FAILURE, brake_opts), (FENCING, return_to_service_opts))


def register_opts(conf):
    for group, opts in _GROUPS:
        conf.register_opts(opts, group=group)


def list_opts():
    return dict(_GROUPS)
