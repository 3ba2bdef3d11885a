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

"""[osapi_v1] options: legacy knobs of the v1 API router.

Each option names its own group as deprecated group, so there is no real
alias; only project_id_regex is read.
"""

from oslo_config import cfg

osapi_v1_group = cfg.OptGroup(
    'osapi_v1',
    title='API v1 Options',
    help="Deprecated settings of the v1 API.")

_UNUSED = ("Never read: every API extension is always loaded. Will be "
           "removed.")

osapi_v1_opts = [
    cfg.ListOpt('extensions_blacklist',
                default=[],
                deprecated_group='osapi_v1',
                deprecated_for_removal=True,
                deprecated_reason=_UNUSED,
                help="Aliases of API extensions not to load. Has no "
                     "effect."),
    cfg.ListOpt('extensions_whitelist',
                default=[],
                deprecated_group='osapi_v1',
                deprecated_for_removal=True,
                deprecated_reason=_UNUSED,
                help="If not empty, the only API extension aliases to "
                     "load. Has no effect."),
    cfg.StrOpt('project_id_regex',
               deprecated_group='osapi_v1',
               deprecated_for_removal=True,
               deprecated_reason="The project id in URLs is optional and "
                                 "will not need its own format.",
               help="Regular expression that the {project_id} segment of "
                    "/v1/{project_id}/... URLs must match. Unset means "
                    "hexadecimal digits and dashes ([0-9a-f\\-]+)."),
]


def register_opts(conf):
    conf.register_group(osapi_v1_group)
    conf.register_opts(osapi_v1_opts, group=osapi_v1_group)


def list_opts():
    return {osapi_v1_group: osapi_v1_opts}
