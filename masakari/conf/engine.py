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

"""[DEFAULT] engine options: RPC topic, recovery waits, periodic tasks."""

from oslo_config import cfg

rpcapi_opts = [
    cfg.StrOpt('masakari_topic',
               default='ha_engine',
               deprecated_for_removal=True,
               deprecated_since='3.0.0',
               deprecated_reason="A configurable topic brings little and "
                                 "may clash with the topic of another "
                                 "service on the same message bus.",
               help="RPC topic on which the engine listens and to which "
                    "the API sends notifications. API and engine must "
                    "agree on it."),
]

notification_opts = [
    cfg.IntOpt('duplicate_notification_detection_interval',
               default=180,
               min=0,
               help="Window, in seconds, for rejecting repeated "
                    "notifications. A new notification is refused with 409 "
                    "when a stored one of the same type and source host, "
                    "generated no more than this many seconds before it, "
                    "carries the same payload."),
    cfg.IntOpt('wait_period_after_service_update',
               default=180,
               help="Seconds to allow Nova after disabling or enabling a "
                    "nova-compute service: the host failure flow waits "
                    "this long, the process failure flow polls at most "
                    "this long for the service to show as disabled."),
    cfg.IntOpt('wait_period_after_evacuation',
               default=90,
               help="Seconds an evacuated instance has to reach its "
                    "expected state before the evacuation counts as "
                    "failed."),
    cfg.IntOpt('verify_interval',
               default=1,
               help="Seconds between two checks in every wait loop of the "
                    "recovery flows."),
    cfg.IntOpt('wait_period_after_power_off',
               default=180,
               help="Seconds an instance has to reach the stopped state "
                    "after a stop request."),
    cfg.IntOpt('wait_period_after_power_on',
               default=60,
               help="Seconds an instance has to become active after a "
                    "start request."),
    cfg.IntOpt('process_unfinished_notifications_interval',
               default=120,
               help="Seconds between runs of the periodic task that "
                    "retries notifications left in 'error', or left in "
                    "'new' for longer than "
                    "retry_notification_new_status_interval. A "
                    "notification still in 'error' after its retry is "
                    "marked 'failed'. Read at engine start-up."),
    cfg.IntOpt('retry_notification_new_status_interval',
               default=60,
               mutable=True,
               help="Age in seconds, counted from its generated_time, "
                    "after which a notification still in 'new' is assumed "
                    "lost on the message bus and processed again by the "
                    "periodic task. Takes effect on SIGHUP."),
    cfg.IntOpt('check_expired_notifications_interval',
               default=600,
               help="Seconds between runs of the periodic task that gives "
                    "up on notifications stuck for too long (see "
                    "notifications_expired_interval)."),
    cfg.IntOpt('notifications_expired_interval',
               default=86400,
               help="Age in seconds, counted from its generated_time, "
                    "after which a notification still 'new', 'running' or "
                    "in 'error' is marked 'failed'."),
    cfg.IntOpt('host_failure_recovery_threads',
               default=3,
               min=1,
               help="How many instances the host failure flow evacuates "
                    "and checks in parallel."),
    cfg.StrOpt('notification_driver',
               default='taskflow_driver',
               help="Name of the 'masakari.driver' entry point that runs "
                    "the recovery workflows. The engine refuses to start "
                    "when it is empty or cannot be loaded."),
]

ALL_OPTS = rpcapi_opts + notification_opts


def register_opts(conf):
    conf.register_opts(ALL_OPTS)


def list_opts():
    return {'DEFAULT': ALL_OPTS}
