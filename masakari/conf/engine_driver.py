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

"""Options of the recovery workflows: one group per failure type, taskflow.

The [taskflow_driver_recovery_flows] group is registered like the others
but listed by its own generator namespace (customized_recovery_flow_opts),
which produces etc/masakari/masakari-custom-recovery-methods.conf.
"""

from oslo_config import cfg
from oslo_config import types

from masakari import enums

instance_group = cfg.OptGroup(
    'instance_failure',
    title='Instance failure recovery options',
    help="How the engine handles instance failure notifications.")

host_group = cfg.OptGroup(
    'host_failure',
    title='Host failure recovery options',
    help="How the engine handles host failure notifications.")

process_group = cfg.OptGroup(
    'process_failure',
    title='Process failure recovery options',
    help="How the engine handles nova-compute process failure "
         "notifications.")

taskflow_group = cfg.OptGroup(
    'taskflow',
    title='Taskflow driver options',
    help="Persistence of the taskflow recovery driver.")

# NOTE: no group help here: the shipped recovery-methods file is the
# generator output, and its layout has no group comment.
recovery_flows_group = cfg.OptGroup(
    'taskflow_driver_recovery_flows',
    title='Customized recovery flow Options')

host_failure_opts = [
    cfg.BoolOpt('evacuate_all_instances',
                default=True,
                help="Evacuate every instance of the failed host, the "
                     "HA-enabled ones first. When false, only instances "
                     "whose metadata key ha_enabled_instance_metadata_key "
                     "is 'True' are evacuated."),
    cfg.StrOpt('ha_enabled_instance_metadata_key',
               default='HA_Enabled',
               help="Instance metadata key whose value 'True' marks an "
                    "instance for evacuation on host failure."),
    cfg.BoolOpt('ignore_instances_in_error_state',
                default=False,
                help="Leave instances in the 'error' vm_state on the "
                     "failed host instead of evacuating them."),
    cfg.BoolOpt('add_reserved_host_to_aggregate',
                default=False,
                help="Before evacuating to a reserved host, add it to "
                     "every Nova host aggregate the failed host belongs "
                     "to, so that the evacuated instances keep their "
                     "placement constraints."),
    cfg.StrOpt('service_disable_reason',
               default='Masakari detected host failed.',
               help="Reason recorded in Nova when the engine disables "
                    "the compute service of a failed host."),
    # NOTE: an opt-in faster path; the default keeps 22.0.0's fixed wait.
    cfg.BoolOpt('poll_compute_service_down',
                default=False,
                help="Start evacuating as soon as Nova reports the failed "
                     "host's nova-compute service 'down', instead of "
                     "always waiting [DEFAULT]/"
                     "wait_period_after_service_update seconds after "
                     "disabling it. When true, the host failure flow "
                     "checks the service state every [DEFAULT]/"
                     "verify_interval seconds for at most [DEFAULT]/"
                     "wait_period_after_service_update seconds, then goes "
                     "on as before. False keeps the fixed wait of Masakari "
                     "22.0.0."),
    # NOTE: an opt-in faster path; unset keeps 22.0.0's verify_interval.
    cfg.FloatOpt('evacuation_poll_interval',
                 min=0.05,
                 help="Seconds between two checks, by the host failure "
                      "flow, of an instance it evacuates, while the "
                      "evacuation is young: Nova's end of the evacuation "
                      "is seen at most this late instead of up to "
                      "[DEFAULT]/verify_interval seconds late. Once an "
                      "evacuation has lasted ten times this interval the "
                      "checks back off to a tenth of its duration so far, "
                      "never further apart than [DEFAULT]/verify_interval, "
                      "so that a long evacuation costs Nova about as many "
                      "requests as without this option; each instance "
                      "being evacuated makes up to 1/evacuation_poll_"
                      "interval GET requests per second meanwhile (see "
                      "host_failure_recovery_threads). Unset (the "
                      "default): every [DEFAULT]/verify_interval seconds, "
                      "as Masakari 22.0.0."),
    # NOTE: opt-in; unset keeps 22.0.0's per-host threads.
    cfg.IntOpt('max_concurrent_evacuations',
               min=1,
               help="How many evacuations this engine asks Nova to run at "
                    "once, over all the hosts it recovers together. Set, "
                    "every host recovery draws its evacuations from this "
                    "one budget instead of running "
                    "host_failure_recovery_threads of its own: a free "
                    "slot goes to the failed host that has had the fewest "
                    "(round robin among equals), each host's instances "
                    "in their recovery order (the capacity plan's "
                    "priority with placement_aware), and the number in "
                    "flight halves when Nova answers 429 or 503 (the "
                    "refused evacuation waits for a slot again and is "
                    "asked again, for up to wait_period_after_evacuation "
                    "seconds) or when an evacuation takes three times "
                    "longer than the quickest recent ones, then grows by "
                    "one per evacuation back to this budget. With a "
                    "coordination backend ([coordination]/backend_url) "
                    "and the takeover on ([takeover]/lease_timeout), each "
                    "engine of the group takes an equal share, at least "
                    "1; otherwise each engine takes the whole budget. "
                    "Pick it "
                    "at or under the number of evacuations Nova's "
                    "conductors can rebuild at once (see the operations "
                    "guide). Unset (the default): each host recovery "
                    "evacuates host_failure_recovery_threads instances at "
                    "once, as Masakari 22.0.0."),
]

instance_failure_opts = [
    cfg.BoolOpt('process_all_instances',
                default=False,
                help="Recover every failed instance. When false, only "
                     "instances whose metadata key "
                     "ha_enabled_instance_metadata_key is 'True' are "
                     "recovered."),
    cfg.StrOpt('ha_enabled_instance_metadata_key',
               default='HA_Enabled',
               help="Instance metadata key whose value 'True' marks an "
                    "instance for recovery on instance failure."),
]

process_failure_opts = [
    cfg.StrOpt('service_disable_reason',
               default='Masakari detected process failed.',
               help="Reason recorded in Nova when the engine disables a "
                    "compute service whose nova-compute process failed."),
]

taskflow_opts = [
    cfg.StrOpt('connection',
               secret=True,
               help="SQLAlchemy URL of the database where taskflow keeps "
                    "the state of recovery flows; it may be the main "
                    "Masakari database. Mandatory for the taskflow "
                    "driver: without it the engine does not start and "
                    "'masakari-manage db sync' fails."),
]


def _task_phases():
    """Type of a recovery flow: phase name -> bracketed list of task names.

    List items may be quoted or not; the quotes are stripped.
    """
    task_names = types.List(item_type=types.String(quotes=True),
                            bounds=True)
    return types.Dict(value_type=task_names)


_FLOW_SYNTAX = (
    " Format: pre:[...],main:[...],post:[...], each list holding names of "
    "'masakari.task_flow.tasks' entry points, quoted or not, run in that "
    "order.")


def _flow_opt(name, pre, main, post, help_text):
    return cfg.Opt(name,
                   type=_task_phases(),
                   default={'pre': pre, 'main': main, 'post': post},
                   help=help_text + _FLOW_SYNTAX)


recovery_flow_opts = [
    _flow_opt('host_auto_failure_recovery_tasks',
              pre=['disable_compute_service_task'],
              main=['prepare_HA_enabled_instances_task'],
              post=['evacuate_instances_task'],
              help_text="Tasks of the host failure flow for segments "
                        "whose recovery method is '%s' (Nova chooses "
                        "the target hosts)." % enums.RecoveryMethod.AUTO),
    _flow_opt('host_rh_failure_recovery_tasks',
              pre=['disable_compute_service_task'],
              main=['prepare_HA_enabled_instances_task',
                    'evacuate_instances_task'],
              post=[],
              help_text="Tasks of the host failure flow for segments "
                        "whose recovery method is '%s' "
                        "(instances go to a reserved host of the "
                        "segment)." % enums.RecoveryMethod.RESERVED_HOST),
    _flow_opt('instance_failure_recovery_tasks',
              pre=['stop_instance_task'],
              main=['start_instance_task'],
              post=['confirm_instance_active_task'],
              help_text="Tasks of the instance failure flow."),
    _flow_opt('process_failure_recovery_tasks',
              pre=['disable_compute_node_task'],
              main=['confirm_compute_node_disabled_task'],
              post=[],
              help_text="Tasks of the nova-compute process failure "
                        "flow."),
]

_GROUPS = (
    (instance_group, instance_failure_opts),
    (host_group, host_failure_opts),
    (process_group, process_failure_opts),
    (taskflow_group, taskflow_opts),
    (recovery_flows_group, recovery_flow_opts),
)


def register_opts(conf):
    for group, opts in _GROUPS:
        conf.register_group(group)
        conf.register_opts(opts, group=group)


def list_opts():
    """Groups of the masakari.conf sample (recovery flows excluded)."""
    return {group: opts for group, opts in _GROUPS
            if group is not recovery_flows_group}


def list_recovery_flow_opts():
    """The [taskflow_driver_recovery_flows] group alone."""
    return {recovery_flows_group: recovery_flow_opts}
