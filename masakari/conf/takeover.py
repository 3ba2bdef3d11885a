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

"""[takeover] options: engines take over recoveries a dead engine left
``running`` and process notifications whose cast was lost.
"""

from oslo_config import cfg

takeover_group = cfg.OptGroup(
    'takeover',
    title='Recovery takeover options',
    help="How masakari-engine processes notice a peer that died during a "
         "recovery, and stored notifications that no engine received.")

takeover_opts = [
    cfg.IntOpt('lease_timeout',
               default=30,
               min=0,
               help="Seconds a running recovery may go without a sign of "
                    "life from its engine before another live engine takes "
                    "it over (and resumes it where it stopped). The sign "
                    "of life is the engine's membership of the tooz group "
                    "when [coordination]/backend_url is set, else a lease "
                    "the engine renews in the database every third of this "
                    "time. Keep it above the time an engine may spend "
                    "unable to reach the database ([database]/"
                    "max_retries times retry_interval) and above "
                    "[DEFAULT]/rpc_response_timeout, so that a short "
                    "outage of the database or the message bus does not "
                    "move recoveries between live engines. An engine "
                    "restarted under the same [DEFAULT]/host resumes its "
                    "own recoveries at once. 0 turns takeover off: a "
                    "restarted engine then sets the recoveries it was "
                    "running to 'error', for the periodic retry."),
    cfg.IntOpt('new_notification_age',
               default=10,
               min=0,
               help="Seconds a stored notification may stay 'new' "
                    "(never picked up by an engine, e.g. because its RPC "
                    "cast was lost or could not be sent) before a live "
                    "engine processes it on its own. Works whether or not "
                    "periodic tasks are enabled. 0 leaves such "
                    "notifications to the periodic retry of "
                    "retry_notification_new_status_interval."),
]


def register_opts(conf):
    conf.register_group(takeover_group)
    conf.register_opts(takeover_opts, group=takeover_group)


def list_opts():
    return {takeover_group: takeover_opts}
