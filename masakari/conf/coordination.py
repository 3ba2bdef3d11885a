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

"""[coordination] options: the tooz backend for cross-process locks."""

from oslo_config import cfg

coordination_group = cfg.OptGroup(
    'coordination',
    title='Coordination options',
    help="Distributed locking between API processes, through tooz.")

coordination_opts = [
    cfg.StrOpt('backend_url',
               secret=True,
               help="tooz backend URL, for example redis://host:6379 or "
                    "etcd3+http://host:2379. When set, the API processes "
                    "serialise the creation of host failure notifications "
                    "with a lock held in this backend, so that two reports "
                    "of one failure cannot both be accepted. The tooz "
                    "'file' driver does not suit: it never removes its "
                    "lock files. Unset disables coordination; "
                    "notification_delay_max applies instead."),
]


def register_opts(conf):
    conf.register_group(coordination_group)
    conf.register_opts(coordination_opts, group=coordination_group)


def list_opts():
    return {coordination_group: coordination_opts}
