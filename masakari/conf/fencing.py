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

"""[fencing] options: where the per-host BMC settings live, and deadlines.

Fencing is an extension: with ``config_file`` unset (the default) no host
is fenced and the host recovery behaves exactly as without this group.
"""

from oslo_config import cfg

fencing_group = cfg.OptGroup(
    'fencing',
    title='Fencing options',
    help="Powering a failed compute host off through its BMC before its "
         "instances are evacuated. The per-host BMC settings (driver, "
         "address, credentials) are read from the file named by "
         "config_file, never from the API or the database.")

fencing_opts = [
    cfg.StrOpt('config_file',
               help="Path of the YAML file that maps Nova compute host "
                    "names to their fencing settings (driver, address, "
                    "port, username, password, verify, system_id, "
                    "power_off_timeout, poll_interval, timeout). The file "
                    "is read again when it changes. Unset: fencing is "
                    "off. The file holds BMC passwords: make it readable "
                    "by the masakari user only (the engine warns at start "
                    "otherwise)."),
    cfg.BoolOpt('required',
                default=False,
                help="When true, the host recovery of a host that has no "
                     "entry in config_file fails with that reason instead "
                     "of going on without fencing."),
    cfg.IntOpt('power_off_timeout',
               default=60,
               min=1,
               help="Seconds a fencing driver waits, after asking for the "
                    "power off, for the BMC to report the host off; past "
                    "it fencing fails. A host entry's power_off_timeout "
                    "overrides it."),
    cfg.FloatOpt('poll_interval',
                 default=1.0,
                 min=0.01,
                 help="Seconds between two reads of the power state while "
                      "waiting for a power off. A host entry's "
                      "poll_interval overrides it."),
]


def register_opts(conf):
    conf.register_group(fencing_group)
    conf.register_opts(fencing_opts, group=fencing_group)


def list_opts():
    return {fencing_group: fencing_opts}
